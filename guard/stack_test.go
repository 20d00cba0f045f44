//go:build linux

package guard_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

// refusedBusy checks that a write to path under p is refused as busy by
// Check and by Hold, with a message holding every string in msg.
func refusedBusy(t *testing.T, path string, p guard.Permit, msg ...string) {
	t.Helper()
	tg := guard.Target{Path: path, Write: true, End: 1 << 20}
	err := guard.Check(tg, p)
	if !errors.Is(err, guard.ErrDeviceBusy) || !errors.Is(err, guard.ErrWriteRefused) {
		t.Errorf("%s under %+v: %v, want a busy refusal", path, p, err)
		return
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: message is not one line: %q", path, err)
	}
	for _, m := range msg {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("%s: message %q lacks %q", path, err, m)
		}
	}
	if h, err := guard.Hold(tg, p); err == nil {
		h.Close()
		t.Errorf("%s held for writing under %+v", path, p)
	}
}

// TestStackLoopOverMountedLoop: a loop device over a mounted loop device
// (losetup B A while A is mounted), and one over that (C over B), write
// A's filesystem: refused with every flag, naming A and its mount point;
// A's image keeps every byte. The stack reads top to bottom. Without the
// mount the same stack over a blank image is writable, and a lower device
// claimed exclusively elsewhere refuses it again.
func TestStackLoopOverMountedLoop(t *testing.T) {
	img, lower, upper, dir := looptest.LoopOverMountedLoop(t)
	before := looptest.FileSum(t, img)
	refusedBusy(t, upper, guard.Permit{AllowWriteDevice: true, DestroyData: upper}, lower, "mounted at "+dir)
	top := looptest.AttachLoop(t, upper, false)
	refusedBusy(t, top, guard.Permit{AllowWriteDevice: true, DestroyData: top}, lower, "mounted at "+dir)
	// upper now backs top: refused for that first.
	refusedBusy(t, upper, guard.Permit{AllowWriteDevice: true, DestroyData: upper}, "backs loop device "+top)
	st, err := guard.StackOf(top)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range st.Layers {
		names = append(names, l.Path)
	}
	if want := []string{top, upper, lower, img}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("stack of %s: %v, want %v (%s)", top, names, want, st)
	}
	if ids := st.Files(); len(ids) != 1 || ids[0] != idOf(t, img) {
		t.Errorf("stack files %v, want the image's %v", ids, idOf(t, img))
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the mounted image changed: sha256 %s → %s", before, after)
	}

	// The same stack, nothing mounted: a blank image is writable through it.
	blank := looptest.MakeImage(t, 16<<20)
	l2 := looptest.AttachLoop(t, blank, false)
	u2 := looptest.AttachLoop(t, l2, false)
	if err := guard.Check(guard.Target{Path: u2, Write: true}, guard.Permit{AllowWriteDevice: true}); err != nil {
		t.Errorf("%s over an unused blank %s: %v, want allowed", u2, l2, err)
	}
	// A lower device another opener claims is in use.
	h, err := os.OpenFile(l2, os.O_RDONLY|syscall.O_EXCL, 0)
	if err != nil {
		t.Fatal(err)
	}
	refusedBusy(t, u2, guard.Permit{AllowWriteDevice: true, DestroyData: u2}, l2, "claimed exclusively")
	h.Close()
}

// TestStackLoopOverPartitions: a loop device over a partitioned loop
// device whose first partition is mounted writes that partition: refused.
// One over the mounted partition itself is refused; one over the blank
// second partition shares no byte with the first and is writable.
func TestStackLoopOverPartitions(t *testing.T) {
	looptest.RequireRootTools(t, "sfdisk", "mkfs.ext4", "mount", "umount")
	img := looptest.MakeImage(t, 32<<20)
	looptest.RunTool(t, "label: gpt\n,8M\n,8M\n", "sfdisk", "-q", img)
	disk := looptest.AttachLoop(t, img, true)
	looptest.ScanPartitions(t, disk, 2)
	p1, p2 := disk+"p1", disk+"p2"
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", p1)
	dir := looptest.Mount(t, p1)
	before := looptest.FileSum(t, img)

	overDisk := looptest.AttachLoop(t, disk, false)
	refusedBusy(t, overDisk, guard.Permit{AllowWriteDevice: true, DestroyData: overDisk}, disk, "mounted at "+dir)
	overP1 := looptest.AttachLoop(t, p1, false)
	refusedBusy(t, overP1, guard.Permit{AllowWriteDevice: true, DestroyData: overP1}, p1, "mounted at "+dir)
	overP2 := looptest.AttachLoop(t, p2, false)
	if err := guard.Check(guard.Target{Path: overP2, Write: true}, guard.Permit{AllowWriteDevice: true}); err != nil {
		t.Errorf("%s over the blank %s: %v, want allowed", overP2, p2, err)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the image changed: sha256 %s → %s", before, after)
	}
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, path string, size int) {
	t.Helper()
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStackOverlayRelativeLayers: an image in an overlay's lower layer is
// copied up through the merged directory and backs a mounted loop device;
// the overlay was mounted with relative layer paths. Its upper file, a
// hard link to it outside the layers, its merged path and its lower
// original are refused with --allow-write; so is any file in the upper,
// lower or work directory, and a new file there. A file beside the layers
// on the same filesystem stays writable. An overlay typed from a
// directory that is neither the mount point's parent nor this process's
// working directory ("../../layers/u") is found through the mount too.
// Every image keeps every byte.
func TestStackOverlayRelativeLayers(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	base := t.TempDir()
	lower, upper, work, merged := filepath.Join(base, "lower"), filepath.Join(base, "upper"), filepath.Join(base, "work"), filepath.Join(base, "merged")
	mkdirs(t, lower, upper, work, merged)
	writeFile(t, filepath.Join(lower, "img"), 16<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", filepath.Join(lower, "img"))
	writeFile(t, filepath.Join(lower, "plain"), 1<<20)
	looptest.MountOverlay(t, base, "lower", "upper", "work", "merged")
	// A write open through the merged path copies the image up.
	f, err := os.OpenFile(filepath.Join(merged, "img"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	dev := looptest.AttachLoop(t, filepath.Join(merged, "img"), false)
	looptest.Mount(t, dev)
	hard := filepath.Join(base, "hard")
	if err := os.Link(filepath.Join(upper, "img"), hard); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(upper, "other"), 1<<20)
	beside := filepath.Join(base, "beside")
	writeFile(t, beside, 1<<20)
	sums := map[string]string{}
	for _, p := range []string{filepath.Join(upper, "img"), filepath.Join(lower, "img"), filepath.Join(lower, "plain"), filepath.Join(upper, "other")} {
		sums[p] = looptest.FileSum(t, p)
	}

	allow := guard.Permit{AllowWrite: true}
	for _, p := range []string{filepath.Join(upper, "img"), hard, filepath.Join(merged, "img"), filepath.Join(lower, "img")} {
		refusedBusy(t, p, allow, "backs loop device "+dev)
	}
	refusedBusy(t, filepath.Join(upper, "other"), allow, "upper layer "+upper, "overlay mounted at "+merged)
	refusedBusy(t, filepath.Join(lower, "plain"), allow, "lower layer "+lower)
	if err := guard.Check(guard.Target{Path: filepath.Join(work, "new"), Write: true}, guard.Permit{}); !errors.Is(err, guard.ErrDeviceBusy) {
		t.Errorf("a new file in the work directory: %v, want a busy refusal", err)
	}
	if _, err := os.Stat(filepath.Join(work, "new")); err == nil {
		t.Errorf("the check created a file in the work directory")
	}
	if err := guard.Check(guard.Target{Path: beside, Write: true, End: 1 << 20}, allow); err != nil {
		t.Errorf("%s beside the layers: %v, want allowed", beside, err)
	}

	// Typed from a directory no search starts in.
	layers := filepath.Join(base, "layers")
	mkdirs(t, filepath.Join(base, "a", "sub"), filepath.Join(layers, "l"), filepath.Join(layers, "u"), filepath.Join(layers, "w"), filepath.Join(base, "m", "merged2"))
	inUpper, inLower := filepath.Join(layers, "u", "f"), filepath.Join(layers, "l", "g")
	for _, p := range []string{inUpper, inLower} {
		writeFile(t, p, 1<<20)
		sums[p] = looptest.FileSum(t, p)
	}
	looptest.MountOverlay(t, filepath.Join(base, "a", "sub"), "../../layers/l", "../../layers/u", "../../layers/w", "../../m/merged2")
	refusedBusy(t, inUpper, allow, "upper layer "+filepath.Join(layers, "u"))
	refusedBusy(t, inLower, allow, "lower layer "+filepath.Join(layers, "l"))
	if err := guard.Check(guard.Target{Path: beside, Write: true, End: 1 << 20}, allow); err != nil {
		t.Errorf("%s beside both overlays' layers: %v, want allowed", beside, err)
	}

	for p, before := range sums {
		if after := looptest.FileSum(t, p); after != before {
			t.Errorf("%s changed: sha256 %s → %s", p, before, after)
		}
	}
}

// StackOf answers for a path whether anything under it is in use: a file
// of one's own on a plain filesystem is free to write.
func ExampleStackOf() {
	dir, err := os.MkdirTemp("", "stack-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(path, make([]byte, 4096), 0o600); err != nil {
		panic(err)
	}
	st, err := guard.StackOf(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(st.Layers[0].What, st.Layers[0].Path == path, st.Busy())
	// Output: target true <nil>
}

// TestStackFileByAnyName: the image of a mounted loop device is refused
// by every name that reaches its inode: a hard link, a file bind-mounted
// over another, the same path under /proc/self/root, a symlink. The image
// keeps every byte.
func TestStackFileByAnyName(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	dir := t.TempDir()
	img := filepath.Join(dir, "disk.img")
	writeFile(t, img, 16<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	dev := looptest.AttachLoop(t, img, false)
	looptest.Mount(t, dev)
	hard, bound, link := filepath.Join(dir, "hard"), filepath.Join(dir, "bound"), filepath.Join(dir, "link")
	if err := os.Link(img, hard); err != nil {
		t.Fatal(err)
	}
	writeFile(t, bound, 16<<20)
	looptest.RunTool(t, "", "mount", "--bind", img, bound)
	t.Cleanup(func() { looptest.RunTool(t, "", "umount", bound) })
	if err := os.Symlink(img, link); err != nil {
		t.Fatal(err)
	}
	before := looptest.FileSum(t, img)
	for _, p := range []string{img, hard, bound, "/proc/self/root" + img, link} {
		refusedBusy(t, p, guard.Permit{AllowWrite: true}, "backs loop device "+dev)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the image changed: sha256 %s → %s", before, after)
	}
}

// TestOpenDirForJudgesTheDirectoryOpened: a file to be created through a
// directory symlink into an overlay's lower layer is refused by the
// directory it would really go into, and a symlink to a plain directory
// is allowed: OpenDirFor judges the directory its descriptor holds.
func TestOpenDirForJudgesTheDirectoryOpened(t *testing.T) {
	looptest.RequireRootTools(t, "mount", "umount")
	base := t.TempDir()
	lower, upper, work, merged, plain := filepath.Join(base, "lower"), filepath.Join(base, "upper"), filepath.Join(base, "work"), filepath.Join(base, "merged"), filepath.Join(base, "plain")
	mkdirs(t, lower, upper, work, merged, plain)
	looptest.MountOverlay(t, base, "lower", "upper", "work", "merged")
	for _, c := range []struct {
		to      string
		refused bool
	}{{"lower", true}, {"plain", false}} {
		link := filepath.Join(base, "to-"+c.to)
		if err := os.Symlink(c.to, link); err != nil {
			t.Fatal(err)
		}
		fd, err := guard.OpenDirFor(filepath.Join(link, "new"))
		if fd >= 0 {
			syscall.Close(fd)
		}
		if refused := errors.Is(err, guard.ErrDeviceBusy); refused != c.refused || (!c.refused && err != nil) {
			t.Errorf("a new file in %s: %v; want refused %v", link, err, c.refused)
		} else if c.refused && !strings.Contains(err.Error(), "lower layer") {
			t.Errorf("a new file in %s: %v; want it to name the lower layer", link, err)
		}
	}
}
