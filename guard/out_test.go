//go:build linux

package guard_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"golang.org/x/sys/unix"
)

// TestOutRefusesWhatItMustNotReplace: every kind of thing at an output
// name that is not a plain file of qdsweep's is refused, and not a byte of
// what it leads to changes: a symlink to the user's file, a FIFO, a
// character device, a block device node (over a loop device holding data),
// a directory, and the file the run measures by another name (a hard link).
func TestOutRefusesWhatItMustNotReplace(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("the user's data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	o, err := guard.OpenOut(out, guard.OutOptions{Protect: []string{victim}})
	if err != nil {
		t.Fatal(err)
	}
	type place struct {
		name  string
		make  func(t *testing.T, path string)
		check string // the file whose bytes must not change
	}
	places := []place{
		{"symlink to the user's file", func(t *testing.T, p string) { must(t, os.Symlink(victim, p)) }, victim},
		{"dangling symlink", func(t *testing.T, p string) { must(t, os.Symlink(filepath.Join(dir, "nowhere"), p)) }, ""},
		{"FIFO", func(t *testing.T, p string) { must(t, unix.Mkfifo(p, 0o644)) }, ""},
		{"directory", func(t *testing.T, p string) { must(t, os.Mkdir(p, 0o755)) }, ""},
		{"hard link to the measured file", func(t *testing.T, p string) { must(t, os.Link(victim, p)) }, victim},
	}
	if os.Geteuid() == 0 {
		places = append(places, place{"character device", func(t *testing.T, p string) {
			must(t, unix.Mknod(p, unix.S_IFCHR|0o644, int(unix.Mkdev(1, 3)))) // /dev/null's numbers
		}, ""})
		if _, err := os.Stat("/dev/loop-control"); err == nil {
			places = append(places, place{"block device node over a loop device", func(t *testing.T, p string) {
				looptest.RequireRootTools(t)
				img := looptest.MakeImage(t, 4<<20)
				if err := os.WriteFile(img, []byte(strings.Repeat("data", 1<<20)), 0o644); err != nil {
					t.Fatal(err)
				}
				dev := looptest.AttachLoop(t, img, false)
				var st unix.Stat_t
				must(t, unix.Stat(dev, &st))
				must(t, unix.Mknod(p, unix.S_IFBLK|0o600, int(st.Rdev)))
				t.Cleanup(func() { os.Remove(p) })
			}, "DEVICE"})
		}
	}
	for _, pl := range places {
		t.Run(pl.name, func(t *testing.T) {
			name := strings.ReplaceAll(pl.name, " ", "-")
			p := o.Path(name)
			pl.make(t, p)
			check := pl.check
			if check == "DEVICE" {
				check = p
			}
			var before string
			if check != "" {
				before = looptest.FileSum(t, check)
			}
			err := o.WriteFile(name, []byte(`{"schema":"qdsweep/v1"}`))
			if !errors.Is(err, guard.ErrOutput) {
				t.Fatalf("wrote over a %s: %v", pl.name, err)
			}
			if strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "--output") {
				t.Errorf("refusal %q is not one line naming the flag", err)
			}
			if check != "" && looptest.FileSum(t, check) != before {
				t.Fatalf("%s changed", check)
			}
			if fi, err := os.Lstat(p); err != nil || fi.Mode().IsRegular() && pl.check == "" {
				t.Errorf("%s was replaced: %v %v", p, fi, err)
			}
		})
	}
	if b, _ := os.ReadFile(victim); string(b) != "the user's data\n" {
		t.Fatalf("victim now holds %q", b)
	}
}

// TestOutDirectoryRules: a directory holding files qdsweep did not write
// is refused (and untouched) unless Overwrite, which replaces only the
// names qdsweep writes; one qdsweep wrote (manifest) is reopened freely; a
// missing parent, a path under /dev and a directory swapped during the
// run are refused; Abandon leaves nothing of a failed start.
func TestOutDirectoryRules(t *testing.T) {
	base := t.TempDir()
	user := filepath.Join(base, "notes")
	must(t, os.Mkdir(user, 0o755))
	must(t, os.WriteFile(filepath.Join(user, "summary.md"), []byte("mine"), 0o644))
	if _, err := guard.OpenOut(user, guard.OutOptions{}); !errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "summary.md") {
		t.Fatalf("a directory of the user's files: %v, want a refusal naming them", err)
	}
	o, err := guard.OpenOut(user, guard.OutOptions{Overwrite: true})
	if err != nil {
		t.Fatal(err)
	}
	must(t, o.WriteFile("compare.md", []byte("ours")))
	if b, _ := os.ReadFile(filepath.Join(user, "summary.md")); string(b) != "mine" {
		t.Fatalf("the user's summary.md became %q", b)
	}

	ours := filepath.Join(base, "ours")
	o, err = guard.OpenOut(ours, guard.OutOptions{})
	if err != nil || !o.Created() {
		t.Fatalf("new directory: %v", err)
	}
	must(t, o.WriteFile("results.json", []byte("1")))
	if o, err = guard.OpenOut(ours, guard.OutOptions{}); err != nil {
		t.Fatalf("reopening a directory qdsweep wrote: %v", err)
	}
	must(t, o.WriteFile("results.json", []byte("2")))
	ents, _ := os.ReadDir(ours)
	if len(ents) != 2 { // results.json and the manifest: no temporary left
		t.Errorf("%s holds %d entries", ours, len(ents))
	}

	for _, bad := range []string{filepath.Join(base, "missing", "out"), "/dev/qdsweep-typo", "/proc/qdsweep"} {
		if _, err := guard.OpenOut(bad, guard.OutOptions{}); !errors.Is(err, guard.ErrOutput) {
			t.Errorf("%s: %v, want a refusal", bad, err)
		}
		if _, err := os.Lstat(bad); err == nil {
			t.Errorf("%s was created", bad)
		}
	}

	swap := filepath.Join(base, "swap")
	o, err = guard.OpenOut(swap, guard.OutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.Rename(swap, swap+".moved"))
	must(t, os.Symlink(user, swap))
	if err := o.WriteFile("summary.md", []byte("x")); !errors.Is(err, guard.ErrOutput) {
		t.Fatalf("directory swapped for a symlink: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(user, "summary.md")); string(b) != "mine" {
		t.Fatalf("write followed the swapped directory: %q", b)
	}

	fail := filepath.Join(base, "failed")
	o, err = guard.OpenOut(fail, guard.OutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	must(t, o.WriteFile("results.json", []byte("1")))
	o.Abandon()
	if _, err := os.Lstat(fail); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed start left %s: %v", fail, err)
	}
}

// TestWriteFileOne: a single output file (run's --output) replaces a
// regular file by rename, and refuses the measured file, symlinks, FIFOs
// and /dev.
func TestWriteFileOne(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	must(t, os.WriteFile(target, []byte("measured"), 0o644))
	o := guard.OutOptions{Protect: []string{target}}
	for _, p := range []string{target, "/dev/null"} {
		if err := guard.WriteFile(p, []byte("x"), o); !errors.Is(err, guard.ErrOutput) {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
	}
	link := filepath.Join(dir, "link")
	must(t, os.Symlink(target, link))
	if err := guard.CheckOutFile(link, o); !errors.Is(err, guard.ErrOutput) {
		t.Errorf("symlink: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "measured" {
		t.Fatalf("target now %q", b)
	}
	old := filepath.Join(dir, "old.txt")
	must(t, os.WriteFile(old, []byte("old"), 0o644))
	must(t, guard.WriteFile(old, []byte("new"), o))
	if b, _ := os.ReadFile(old); string(b) != "new" {
		t.Fatalf("old.txt holds %q", b)
	}
}

// TestLockRemovedAtExit: the lock file goes when the holder lets go, and a
// second locker is refused while it is held.
func TestLockRemovedAtExit(t *testing.T) {
	dir := t.TempDir()
	l, err := guard.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !guard.DirBusy(dir) {
		t.Error("DirBusy false while held")
	}
	if _, err := guard.LockDir(dir); !errors.Is(err, guard.ErrLocked) {
		t.Errorf("second locker: %v", err)
	}
	l.Unlock()
	if _, err := os.Lstat(filepath.Join(dir, guard.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left: %v", err)
	}
	if guard.DirBusy(dir) {
		t.Error("DirBusy true after Unlock")
	}
}

// TestOutHeldDirIsInUse: a directory another run holds locked is refused
// as in use (ErrLocked, naming the flag), not as holding foreign files,
// even at the moment its holder has renamed a file into place and not yet
// named it in the manifest; once released, the file is the user's call.
func TestOutHeldDirIsInUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	if _, err := guard.OpenOut(dir, guard.OutOptions{}); err != nil {
		t.Fatal(err)
	}
	l, err := guard.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The holder's file, between its rename and the manifest's.
	must(t, os.WriteFile(filepath.Join(dir, "results-series.csv"), []byte("t_ns\n"), 0o644))
	for _, check := range []func() error{
		func() error { return guard.CheckOut(dir, guard.OutOptions{Flag: "--output"}) },
		func() error {
			_, err := guard.OpenOut(dir, guard.OutOptions{Flag: "--output", Overwrite: true})
			return err
		},
	} {
		err := check()
		if !errors.Is(err, guard.ErrLocked) || errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "--output "+dir) {
			t.Errorf("held directory: %v, want ErrLocked naming --output %s", err, dir)
		}
	}
	l.Unlock()
	if err := guard.CheckOut(dir, guard.OutOptions{}); !errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "results-series.csv") {
		t.Errorf("released directory with a file not in the manifest: %v, want it named as foreign", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOutNeverReplacesALayer: a file backing a loop device, attached or
// mounted, named as an output (run's --output, or a name in an output
// directory) is refused by the one writer and keeps its bytes and its
// name: replacing it by rename would leave the loop device over a deleted
// file and the user's image gone.
func TestOutNeverReplacesALayer(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	for _, mounted := range []bool{false, true} {
		name := "attached"
		if mounted {
			name = "mounted"
		}
		t.Run(name, func(t *testing.T) {
			img := looptest.MakeImage(t, 16<<20)
			if mounted {
				looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
			} else if err := os.WriteFile(img, []byte(strings.Repeat("image ", 1<<20)), 0o644); err != nil {
				t.Fatal(err)
			}
			dev := looptest.AttachLoop(t, img, false)
			if mounted {
				looptest.Mount(t, dev)
			}
			before := looptest.FileSum(t, img)
			err := guard.WriteFile(img, []byte("results\n"), guard.OutOptions{Flag: "--output"})
			if !errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "loop device") {
				t.Fatalf("--output onto the image behind %s: %v, want a refusal naming the loop device", dev, err)
			}
			if err := guard.CheckOutFile(img, guard.OutOptions{Flag: "--output"}); !errors.Is(err, guard.ErrOutput) {
				t.Errorf("CheckOutFile passed the image behind %s: %v", dev, err)
			}
			o, err := guard.OpenOut(filepath.Dir(img), guard.OutOptions{Overwrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := o.WriteFile(filepath.Base(img), []byte("chart")); !errors.Is(err, guard.ErrOutput) {
				t.Errorf("a results file named as the image behind %s: %v", dev, err)
			}
			if after := looptest.FileSum(t, img); after != before {
				t.Errorf("the image behind %s changed", dev)
			}
			b, err := os.ReadFile("/sys/class/block/" + filepath.Base(dev) + "/loop/backing_file")
			if err != nil || strings.Contains(string(b), "(deleted)") {
				t.Errorf("%s's backing file: %q, %v; want the image still named", dev, b, err)
			}
		})
	}
}

// TestOutAnotherRunsResults: a directory holding another run's results
// (a qdsweep results.json) takes report's or compare's files only with
// --overwrite; the results directory a command renders (OutOptions.Renders,
// named by the directory or its results.json) needs none.
func TestOutAnotherRunsResults(t *testing.T) {
	r1, r2 := filepath.Join(t.TempDir(), "r1"), filepath.Join(t.TempDir(), "r2")
	for _, d := range []string{r1, r2} {
		o, err := guard.OpenOut(d, guard.OutOptions{})
		if err != nil {
			t.Fatal(err)
		}
		must(t, o.WriteFile("results.json", []byte(`{"schema":"qdsweep/v1"}`)))
		must(t, o.WriteFile("summary.md", []byte("# "+d+"\n")))
	}
	before := looptest.FileSum(t, filepath.Join(r2, "summary.md"))
	for _, renders := range []string{"", r1, filepath.Join(r1, "results.json")} {
		_, err := guard.OpenOut(r2, guard.OutOptions{Renders: renders})
		if !errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "--overwrite") {
			t.Errorf("into another run's results (rendering %q): %v, want a refusal naming --overwrite", renders, err)
		}
	}
	if looptest.FileSum(t, filepath.Join(r2, "summary.md")) != before {
		t.Error("r2's summary changed")
	}
	for _, o := range []guard.OutOptions{{Renders: r2}, {Renders: filepath.Join(r2, "results.json")}, {Overwrite: true}} {
		if _, err := guard.OpenOut(r2, o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestCheckOutFileBeforeTheRun: run's --output is checked before anything
// is measured: a directory that cannot be written (read-only mount, or
// permissions for a user who is not root) and a name too long for the
// filesystem are refused then, not after the measurement.
func TestCheckOutFileBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("n", 250))
	if err := guard.CheckOutFile(long, guard.OutOptions{Flag: "--output"}); !errors.Is(err, guard.ErrOutput) || !strings.Contains(err.Error(), "--output") {
		t.Errorf("a 250-byte name: %v, want a refusal", err)
	}
	ro := filepath.Join(dir, "ro")
	must(t, os.Mkdir(ro, 0o755))
	if os.Geteuid() == 0 {
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a read-only tmpfs: %v: %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", ro).Run() })
	} else {
		must(t, os.Chmod(ro, 0o555))
	}
	if err := guard.CheckOutFile(filepath.Join(ro, "out.json"), guard.OutOptions{Flag: "--output"}); !errors.Is(err, guard.ErrOutput) {
		t.Errorf("a read-only directory: %v, want a refusal", err)
	}
	if err := guard.CheckOutFile(filepath.Join(dir, "ok.json"), guard.OutOptions{Flag: "--output"}); err != nil {
		t.Errorf("a writable directory: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the checks left files: %v", ents)
	}
}

// TestOutKeepsItsDirectory: the output directory is held by a descriptor
// from its check on. While its path and a symbolic link to another
// directory swap places every 3 ms (renameat2 RENAME_EXCHANGE), writes
// of 1 MiB each (until 20 have landed, or 600 tries) either land in the
// directory checked or are refused; not one file appears in the other
// directory.
func TestOutKeepsItsDirectory(t *testing.T) {
	base := t.TempDir()
	out, other, link := filepath.Join(base, "out"), filepath.Join(base, "other"), filepath.Join(base, "link")
	must(t, os.Mkdir(other, 0o755))
	must(t, os.Symlink(other, link))
	o, err := guard.OpenOut(out, guard.OutOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			unix.Renameat2(unix.AT_FDCWD, out, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
			time.Sleep(3 * time.Millisecond)
		}
	}()
	wrote, data := 0, make([]byte, 1<<20)
	for i := 0; i < 600 && wrote < 20; i++ {
		if o.WriteFile(fmt.Sprintf("f%d.json", i), data) == nil {
			wrote++
		}
	}
	close(stop)
	<-done
	if ents, _ := os.ReadDir(other); len(ents) > 0 {
		t.Fatalf("%d files written into the other directory (%s …); %d writes in all", len(ents), ents[0].Name(), wrote)
	}
	t.Logf("%d writes landed in the directory checked, the rest refused; none elsewhere", wrote)
}
