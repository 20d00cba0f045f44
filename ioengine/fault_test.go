//go:build linux

package ioengine

// Faults the kernel really produces: I/O errors from a loop device whose
// backing store runs out of space, an I/O that never completes, a
// filesystem that refuses O_DIRECT, buffer registration over
// RLIMIT_MEMLOCK. Tests skip, saying why, when they need root or tools
// this machine lacks.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

// mountTmpfs mounts a tmpfs of the given size ("8m") on a new temp dir and
// unmounts it when t ends.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	looptest.RequireRootTools(t, "mount", "umount")
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// failingLoop returns a 64 MiB loop device whose sparse backing file lives
// on an 8 MiB tmpfs: writes past what the tmpfs holds fail in the kernel.
func failingLoop(t *testing.T) string {
	t.Helper()
	dir := mountTmpfs(t, "8m")
	img := filepath.Join(dir, "backing")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	return looptest.AttachLoop(t, img, false) // detached before the unmount (cleanups run last-first)
}

// TestFaultIOErrors writes sequentially over a loop device that runs out of
// backing store, through every kernel engine: the run ends with an error
// naming the errno, the offset and the count; with ContinueOnError the
// failures are counted in Stats.Errors instead.
func TestFaultIOErrors(t *testing.T) {
	dev := failingLoop(t)
	for _, name := range []string{EngineIOUring, EngineLibaio, EnginePsync} {
		t.Run(name, func(t *testing.T) {
			eng, _, err := New(name)
			if err != nil {
				t.Skipf("engine %s: %v", name, err)
			}
			depth := 8
			if name == EnginePsync {
				depth = 1
			}
			w := Workload{Filename: dev, RW: Write, BS: 64 << 10, IODepth: depth, NumJobs: 1, Direct: true, IOTimeout: 5 * time.Second, Permit: guard.Permit{AllowWriteDevice: true, DestroyData: dev}}
			st, err := eng.Run(context.Background(), w, Control{Runtime: 3 * time.Second})
			var f *IOFailure
			if !errors.As(err, &f) {
				t.Fatalf("run ended with %v, want an I/O failure", err)
			}
			if f.Errno != "EIO" && f.Errno != "ENOSPC" {
				t.Fatalf("errno %q, want EIO or ENOSPC: %v", f.Errno, err)
			}
			var en unix.Errno
			if !errors.As(err, &en) || en.Error() == "" {
				t.Fatalf("error does not unwrap to the errno: %v", err)
			}
			msg := err.Error()
			for _, want := range []string{f.Errno, fmt.Sprintf("offset %d", f.Offset), "write"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q: %s", want, msg)
				}
			}
			if f.Op != "write" || f.Count < 1 || f.Offset < 0 || f.Offset >= 64<<20 || f.Offset%w.BS != 0 {
				t.Errorf("failure %+v", f)
			}
			t.Logf("%s: %s (stats: %d I/Os ok)", name, msg, statsIOs(st))

			w.ContinueOnError = true
			w.RW = RandWrite
			st, err = eng.Run(context.Background(), w, Control{Runtime: 300 * time.Millisecond})
			if err != nil {
				t.Fatalf("with ContinueOnError: %v", err)
			}
			var n int64
			for _, e := range st.Errors {
				if e.Op != "write" || (e.Errno != "EIO" && e.Errno != "ENOSPC") || e.Count < 1 {
					t.Errorf("counted error %+v", e)
				}
				n += e.Count
			}
			if n == 0 {
				t.Fatalf("no errors counted: %+v", st.Errors)
			}
			t.Logf("%s continue_on_error: %+v, %d writes ok", name, st.Errors, st.All.TotalIOs)
		})
	}
}

func statsIOs(st *Stats) int64 {
	if st == nil {
		return -1
	}
	return st.All.TotalIOs
}

// frozenFile returns a 4 MiB file on an ext4 filesystem (a loop device
// over an image) that is frozen (fsfreeze): every write to it blocks in the
// kernel until the filesystem is thawed, which happens when t ends.
func frozenFile(t *testing.T) string {
	t.Helper()
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount", "fsfreeze")
	img := looptest.MakeImage(t, 32<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	dev := looptest.AttachLoop(t, img, false)
	dir := t.TempDir()
	if out, err := exec.Command("mount", dev, dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount ext4 here: %v: %s", err, out)
	}
	// Lazy: a job abandoned in a stalled write keeps its file open.
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	path := filepath.Join(dir, "data")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	looptest.RunTool(t, "", "sync")
	looptest.RunTool(t, "", "fsfreeze", "-f", dir)
	t.Cleanup(func() { _ = exec.Command("fsfreeze", "-u", dir).Run() })
	return path
}

// TestFaultStall writes to a frozen filesystem: the writes never complete
// (io_uring and libaio never reap them, psync never returns from pwrite).
// With IOTimeout 1 s every engine must end the run with ErrStalled instead
// of hanging. (A FIFO would be simpler, but targets must be regular files
// or block devices.)
func TestFaultStall(t *testing.T) {
	path := frozenFile(t)
	for _, name := range []string{EngineIOUring, EngineLibaio, EnginePsync} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			eng, _, err := New(name)
			if err != nil {
				t.Skipf("engine %s: %v", name, err)
			}
			w := Workload{Filename: path, RW: RandWrite, BS: 4096, IODepth: 1, NumJobs: 1, Direct: true, IOTimeout: time.Second, Permit: guard.Permit{AllowWrite: true}}
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := eng.Run(context.Background(), w, Control{Runtime: 3 * time.Second})
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the run hangs on a stalled I/O")
			}
			if !errors.Is(err, ErrStalled) {
				t.Fatalf("got %v, want ErrStalled", err)
			}
			if !strings.Contains(err.Error(), "stalled") {
				t.Errorf("message does not say stalled: %v", err)
			}
			t.Logf("%s after %v: %v", name, time.Since(start).Round(100*time.Millisecond), err)
		})
	}
}

// TestFaultDirectRefused opens a procfs file with O_DIRECT, which the
// kernel refuses with EINVAL: the message must suggest turning
// Workload.Direct off, named as its caller names it (--direct=0).
func TestFaultDirectRefused(t *testing.T) {
	w := Workload{Filename: "/proc/self/status", RW: Read, Direct: true}
	fd, err := openTarget(&w)
	if err == nil {
		unix.Close(fd)
		t.Skip("this kernel accepts O_DIRECT on procfs")
	}
	flags := func(s Setting) string { return map[Setting]string{SetDirect: "--direct"}[s] }
	var named interface{ Line(SettingNames) string }
	if !errors.Is(err, unix.EINVAL) || !errors.As(err, &named) || !strings.HasSuffix(named.Line(flags), "; use --direct=0") {
		t.Fatalf("got %v, want EINVAL suggesting --direct=0", err)
	}
	if !strings.HasSuffix(err.Error(), "; use direct=0") {
		t.Errorf("the error alone says %q, want the guard's plain words (direct=0)", err)
	}
	w.Direct = false
	fd, err = openTarget(&w)
	if err != nil {
		t.Fatalf("buffered open: %v", err)
	}
	unix.Close(fd)
}

// TestFaultFallbackReasonOneLine: the io_uring refusals the fallback
// classifies give a one-line reason naming the cause.
func TestFaultFallbackReasonOneLine(t *testing.T) {
	for _, errno := range []unix.Errno{unix.EPERM, unix.ENOSYS} {
		_, reason, err := newEngine(EngineIOUring, func() error { return fmt.Errorf("io_uring_setup: %w", errno) })
		if err != nil {
			t.Fatal(err)
		}
		if reason == "" || strings.ContainsAny(reason, "\r\n") || !strings.Contains(reason, errno.Error()) {
			t.Errorf("%v: reason %q", errno, reason)
		}
	}
}

// memlockChildEnv marks the re-executed test binary of TestFaultMemlock.
const memlockChildEnv = "QDSWEEP_MEMLOCK_CHILD"

// TestFaultMemlock registers io_uring buffers in a process without
// CAP_IPC_LOCK whose RLIMIT_MEMLOCK is 64 KiB: the kernel refuses the
// registration and the run falls back to unregistered buffers, saying so.
func TestFaultMemlock(t *testing.T) {
	if path := os.Getenv(memlockChildEnv); path != "" {
		memlockChild(t, path)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to start the child as an unprivileged user")
	}
	if err := probeUring(); err != nil {
		t.Skipf("io_uring unavailable: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory the unprivileged child can enter (every ancestor
	// searchable by others: a clone in a private home is not), on a
	// filesystem with DMA (not tmpfs, where registration is skipped).
	base := childDir(t)
	dir, err := os.MkdirTemp(base, "qdsweep-memlock-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	bin := filepath.Join(abs, "child.test")
	data := filepath.Join(abs, "data")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestFaultMemlock$", "-test.v")
	cmd.Env = append(os.Environ(), memlockChildEnv+"="+data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "buffers: unregistered: IORING_REGISTER_BUFFERS") {
		t.Fatalf("child did not fall back to unregistered buffers:\n%s", out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "buffers:") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// childDir is a directory on a non-tmpfs filesystem whose every ancestor
// other users can search: the package directory when it is so, else the
// system's disk-backed temporary directories. None is a test failure that
// says why, not a skip: every CI machine has /var/tmp.
func childDir(t *testing.T) string {
	t.Helper()
	searchable := func(p string) bool {
		for {
			fi, err := os.Stat(p)
			if err != nil || fi.Mode().Perm()&0o001 == 0 {
				return false
			}
			up := filepath.Dir(p)
			if up == p {
				return true
			}
			p = up
		}
	}
	var tried []string
	for _, c := range []string{".", "/var/tmp", os.TempDir()} {
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		var fs unix.Statfs_t
		if unix.Statfs(abs, &fs) != nil || fs.Type == unix.TMPFS_MAGIC || !searchable(abs) {
			tried = append(tried, abs)
			continue
		}
		return abs
	}
	t.Fatalf("no directory an unprivileged child can reach on a disk filesystem (tried %v)", tried)
	return ""
}

// memlockChild runs in the unprivileged child: RLIMIT_MEMLOCK 64 KiB, then an
// io_uring run whose stats must say the buffers are unregistered.
func memlockChild(t *testing.T, path string) {
	// Enough for the rings (accounted to RLIMIT_MEMLOCK too), far too
	// little for 64 registered 64 KiB buffers (4 MiB).
	const limit = 64 << 10
	if err := unix.Setrlimit(unix.RLIMIT_MEMLOCK, &unix.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatalf("setrlimit: %v", err)
	}
	w := Workload{Filename: path, RW: RandRead, BS: 64 << 10, IODepth: 64, NumJobs: 1, Direct: true}
	st, err := (&kernelEngine{name: EngineIOUring, newLoop: newUringLoop}).Run(context.Background(), w, Control{Runtime: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if st.All.TotalIOs == 0 {
		t.Fatal("no I/O")
	}
	t.Logf("buffers: %s", st.Buffers)
}
