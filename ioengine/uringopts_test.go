//go:build linux

package ioengine_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
	"golang.org/x/sys/unix"
)

// ringInfo is what the kernel says of this process's io_uring instances
// (their /proc/self/fdinfo): the most files and buffers any has registered,
// and whether one has an SQ poll thread.
type ringInfo struct {
	rings, userFiles, userBufs int
	sqThread                   bool
	sqThreadCPU                int
}

func readRingInfo(t *testing.T) ringInfo {
	t.Helper()
	info := ringInfo{sqThreadCPU: -1}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range fds {
		if l, _ := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); !strings.Contains(l, "io_uring") {
			continue
		}
		f, err := os.Open(filepath.Join("/proc/self/fdinfo", e.Name()))
		if err != nil {
			continue // closed meanwhile
		}
		info.rings++
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(v))
			switch {
			case k == "UserFiles" && err == nil:
				info.userFiles = max(info.userFiles, n)
			case k == "UserBufs" && err == nil:
				info.userBufs = max(info.userBufs, n)
			case k == "SqThread" && err == nil && n > 0:
				info.sqThread = true
			case k == "SqThreadCpu" && err == nil:
				info.sqThreadCPU = n
			}
		}
		f.Close()
	}
	return info
}

// TestUringOptions: each of fio's io_uring options runs on a real file on
// the disk and on tmpfs, and the kernel's own account of the ring (fdinfo)
// shows it took effect: registered buffers (or none), registered files, an
// SQ poll thread on the CPU asked for. Every write lands where it was
// counted (one exact pass over two files, checked byte for byte after),
// and every read returns the file's bytes (verify).
func TestUringOptions(t *testing.T) {
	if _, reason, err := ioengine.New("io_uring"); err != nil || reason != "" {
		t.Skipf("io_uring is not available here: %v %s", err, reason)
	}
	var cpus unix.CPUSet
	if err := unix.SchedGetaffinity(0, &cpus); err != nil {
		t.Fatal(err)
	}
	lastCPU := 0
	for i := range 1024 {
		if cpus.IsSet(i) {
			lastCPU = i
		}
	}
	cases := []struct {
		name  string
		o     ioengine.UringOptions
		check func(ringInfo) bool
	}{
		{"fixedbufs=1", ioengine.UringOptions{FixedBufs: ioengine.On}, func(r ringInfo) bool { return r.userBufs == 8 && r.userFiles == 0 }},
		{"fixedbufs=0", ioengine.UringOptions{FixedBufs: ioengine.Off}, func(r ringInfo) bool { return r.userBufs == 0 }},
		{"registerfiles=1", ioengine.UringOptions{RegisterFiles: true}, func(r ringInfo) bool { return r.userFiles == 2 }},
		{"sqthread_poll=1", ioengine.UringOptions{SQThreadPoll: true}, func(r ringInfo) bool { return r.sqThread }},
		{"sqthread_poll_cpu", ioengine.UringOptions{SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: lastCPU},
			func(r ringInfo) bool { return r.sqThread && r.sqThreadCPU == lastCPU }},
		{"nonvectored=0", ioengine.UringOptions{NonVectored: ioengine.Off, FixedBufs: ioengine.Off}, func(r ringInfo) bool { return r.userBufs == 0 }},
		{"all", ioengine.UringOptions{FixedBufs: ioengine.On, RegisterFiles: true, SQThreadPoll: true, NonVectored: ioengine.On},
			func(r ringInfo) bool { return r.sqThread && r.userFiles == 2 && r.userBufs == 8 }},
	}
	const size, bs = 1 << 20, 8192
	for place, dir := range places(t) {
		for _, tc := range cases {
			t.Run(place+"/"+tc.name, func(t *testing.T) {
				a, b := filepath.Join(dir, tc.name+".a"), filepath.Join(dir, tc.name+".b")
				for _, p := range []string{a, b} {
					if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var seen ringInfo
				ctl := ioengine.Control{Runtime: time.Minute, IOsPerJob: 2 * size / bs, OnWindowStart: func() { seen = readRingInfo(t) }}
				w := ioengine.Workload{Filename: a, Files: []string{a, b}, RW: ioengine.Write, BS: bs, IODepth: 8, NumJobs: 1,
					Direct: true, Verify: true, Uring: tc.o, Permit: guard.Permit{AllowWrite: true}}
				if err := ioengine.Validate(w, "io_uring"); err != nil {
					t.Fatal(err)
				}
				st, err := mustEngine(t, "io_uring").Run(context.Background(), w, ctl)
				if err != nil {
					t.Fatal(err)
				}
				if seen.rings == 0 || !tc.check(seen) {
					t.Errorf("the kernel's account of the ring: %+v; buffers %q", seen, st.Buffers)
				}
				if st.All.TotalIOs != 2*size/bs || len(st.Errors) != 0 {
					t.Fatalf("%d writes, errors %+v; want exactly %d", st.All.TotalIOs, st.Errors, 2*size/bs)
				}
				for _, p := range []string{a, b} {
					got, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, stampedBytes(size)) {
						t.Fatalf("%s does not hold its stamps after one pass", p)
					}
				}
				w.RW, w.Permit = ioengine.RandRead, guard.Permit{}
				st, err = mustEngine(t, "io_uring").Run(context.Background(), w, ioengine.Control{Runtime: 150 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				if st.All.TotalIOs == 0 || len(st.Errors) != 0 {
					t.Fatalf("read back: %d I/Os, errors %+v", st.All.TotalIOs, st.Errors)
				}
			})
		}
	}
}

// TestUringOptionsRefused: io_uring's options are refused, with the flag
// and the fix, for other engines; hipri where completions cannot be
// polled (buffered I/O, a file on tmpfs, a queue without poll queues); a
// CPU this process may not use for the SQ poll thread.
func TestUringOptionsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	base := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 1, Direct: true}
	refuse := func(t *testing.T, w ioengine.Workload, engine string, s ioengine.UringSetting, fix ioengine.UringFix, want ...string) {
		t.Helper()
		err := ioengine.Validate(w, engine)
		var ue *ioengine.UringError
		if !errors.Is(err, ioengine.ErrBadWorkload) || !errors.As(err, &ue) {
			t.Fatalf("%s %v: %v, want a refusal of an io_uring setting", engine, w.Uring.Given(), err)
		}
		if ue.Setting != s || ue.Fix != fix {
			t.Errorf("%v: refuses setting %v with fix %d, want %v with %d", err, ue.Setting, ue.Fix, s, fix)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: does not say %q", err, w)
			}
		}
	}
	for _, eng := range []string{"libaio", "psync", "sim"} {
		w := base
		w.Uring.RegisterFiles = true
		if eng == "psync" {
			w.IODepth = 1
		}
		refuse(t, w, eng, ioengine.UringRegisterFiles, ioengine.UringFixEngine, "this run's engine is "+eng)
	}
	w := base
	w.Uring.HiPri, w.Direct = true, false
	refuse(t, w, "io_uring", ioengine.UringHiPri, ioengine.UringFixDirect, "O_DIRECT")
	w.Direct = true
	if d, err := os.MkdirTemp("/dev/shm", "qdsweep-test-"); err == nil {
		defer os.RemoveAll(d)
		tw := w
		tw.Filename = filepath.Join(d, "f")
		if err := os.WriteFile(tw.Filename, make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		refuse(t, tw, "io_uring", ioengine.UringHiPri, ioengine.UringFixDrop, "tmpfs")
	}
	// On a disk: refused exactly when its queue does not poll.
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	if err := ioengine.Validate(w, "io_uring"); pollable(uint64(st.Dev)) != (err == nil) {
		t.Errorf("hipri on a disk whose queue polls=%v: %v", pollable(uint64(st.Dev)), err)
	}
	var cpus unix.CPUSet
	if err := unix.SchedGetaffinity(0, &cpus); err != nil {
		t.Fatal(err)
	}
	w = base
	w.Uring = ioengine.UringOptions{SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 4096}
	refuse(t, w, "io_uring", ioengine.UringSQThreadCPU, ioengine.UringFixCPU, "CPU 4096")
}

// pollable reports whether the disk holding dev has poll queues.
func pollable(dev uint64) bool {
	base := "/sys/dev/block/" + strconv.Itoa(int(unix.Major(dev))) + ":" + strconv.Itoa(int(unix.Minor(dev)))
	for _, p := range []string{base + "/queue/io_poll", base + "/../queue/io_poll"} {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(string(b)) == "1"
		}
	}
	return false
}

// TestUringOptionsApply: each setting given reads back as given
// (Value), in order (Given), and a value a setting does not take is
// refused, naming the setting and the fix.
func TestUringOptionsApply(t *testing.T) {
	for _, o := range []ioengine.UringOptions{{}, {FixedBufs: ioengine.Off}, {FixedBufs: ioengine.On, NonVectored: ioengine.Off},
		{RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 3, HiPri: true, NonVectored: ioengine.On}} {
		var got ioengine.UringOptions
		for _, s := range o.Given() {
			n, _ := o.Value(s)
			if err := got.Apply(s, n); err != nil {
				t.Fatal(err)
			}
		}
		if got != o {
			t.Errorf("%+v read back as %+v", o, got)
		}
	}
	if len(ioengine.UringSettings()) != 6 || len((ioengine.UringOptions{RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, HiPri: true,
		FixedBufs: ioengine.Off, NonVectored: ioengine.On}).Given()) != 6 {
		t.Errorf("not every setting is listed and read: %v", ioengine.UringSettings())
	}
	for _, c := range []struct {
		s   ioengine.UringSetting
		n   int
		fix ioengine.UringFix
	}{{ioengine.UringFixedBufs, 2, ioengine.UringFixBool}, {ioengine.UringRegisterFiles, -1, ioengine.UringFixBool},
		{ioengine.UringSQThreadCPU, -1, ioengine.UringFixCPUFromZero}} {
		var o ioengine.UringOptions
		var ue *ioengine.UringError
		if err := o.Apply(c.s, c.n); !errors.As(err, &ue) || ue.Setting != c.s || ue.Fix != c.fix || ue.Value != c.n {
			t.Errorf("%v=%d: %v, want a refusal with fix %d", c.s, c.n, err, c.fix)
		}
	}
}
