//go:build linux

package guard_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

// guardCase is one set of flags and what Check must answer to a write
// workload under them.
type guardCase struct {
	name    string
	g       guard.Permit
	want    error    // nil: allowed; else a sentinel the error must wrap
	notWant []error  // sentinels the error must not wrap
	msg     []string // substrings of the one-line message
}

// checkGuard runs every case against a write workload on path, and checks
// reads are allowed with no flags at all.
func checkGuard(t *testing.T, path string, cases []guardCase) {
	t.Helper()
	if err := guard.Check(guard.Target{Path: path}, guard.Permit{}); err != nil {
		t.Errorf("read on %s with no flags: %v, want allowed", path, err)
	}
	for _, tc := range cases {
		err := guard.Check(guard.Target{Path: path, Write: true}, tc.g)
		if err != nil {
			t.Logf("%s: %v", tc.name, err)
		}
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: write on %s: %v, want allowed", tc.name, path, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: write on %s allowed, want %v", tc.name, path, tc.want)
			continue
		}
		if !errors.Is(err, tc.want) || !errors.Is(err, guard.ErrWriteRefused) {
			t.Errorf("%s: write on %s: %v, want it to wrap %v and ErrWriteRefused", tc.name, path, err, tc.want)
		}
		for _, nw := range tc.notWant {
			if errors.Is(err, nw) {
				t.Errorf("%s: write on %s: %v wraps %v", tc.name, path, err, nw)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: message is not one line: %q", tc.name, err)
		}
		for _, m := range tc.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: write on %s: message %q lacks %q", tc.name, path, err, m)
			}
		}
	}
}

const safetyUUID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fa"

// ext4Cases are the answers for a whole device dev holding an ext4
// filesystem made with -U safetyUUID -L qdsafety; link is a symlink to dev.
func ext4Cases(dev, link string) []guardCase {
	return []guardCase{
		{name: "no flags", want: guard.ErrWriteRefused, notWant: []error{guard.ErrHasSignature},
			msg: []string{dev, "--allow-write-device"}},
		{name: "--allow-write is for files", g: guard.Permit{AllowWrite: true}, want: guard.ErrWriteRefused,
			msg: []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasSignature,
			notWant: []error{guard.ErrDeviceBusy},
			msg:     []string{dev + " holds an ext4 filesystem (UUID " + safetyUUID + ", label qdsafety); refusing to write", "--destroy-data=" + dev}},
		{name: "--destroy-data alone", g: guard.Permit{DestroyData: dev}, want: guard.ErrWriteRefused,
			msg: []string{"--allow-write-device"}},
		{name: "--destroy-data names another device", g: guard.Permit{AllowWriteDevice: true, DestroyData: "/dev/null"},
			want: guard.ErrDestroyMismatch, msg: []string{"--destroy-data=/dev/null", dev}},
		{name: "--destroy-data same device", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
		{name: "--destroy-data through a symlink", g: guard.Permit{AllowWriteDevice: true, DestroyData: link}},
	}
}

// blankCases are the answers for a whole device dev that holds nothing.
func blankCases(dev string) []guardCase {
	return []guardCase{
		{name: "no flags", want: guard.ErrWriteRefused,
			notWant: []error{guard.ErrHasSignature, guard.ErrDeviceBusy, guard.ErrHasPartitions},
			msg:     []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: guard.Permit{AllowWriteDevice: true}},
		{name: "--allow-write-device --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
	}
}

func TestSafetyExt4Loop(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	img := looptest.MakeImage(t, 16<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", "-U", safetyUUID, "-L", "qdsafety", img)
	dev := looptest.AttachLoop(t, img, false)
	link := filepath.Join(t.TempDir(), "by-id")
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	before := looptest.FileSum(t, img)

	checkGuard(t, dev, append(ext4Cases(dev, link),
		guardCase{name: "--destroy-data names the backing file", g: guard.Permit{AllowWriteDevice: true, DestroyData: img},
			want: guard.ErrDestroyMismatch}))
	// The same answers through a symlink to the device (like /dev/disk/by-id/…).
	checkGuard(t, link, []guardCase{
		{name: "symlink, --allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasSignature},
	})
	// The backing file of an attached loop device is never written.
	checkGuard(t, img, []guardCase{
		{name: "backing file", g: guard.Permit{AllowWrite: true, Ours: []guard.FileID{idOf(t, img)}}, want: guard.ErrDeviceBusy,
			msg: []string{"backs loop device " + dev}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyBlankLoop(t *testing.T) {
	looptest.RequireRootTools(t)
	img := looptest.MakeImage(t, 8<<20)
	dev := looptest.AttachLoop(t, img, false)
	before := looptest.FileSum(t, img)
	checkGuard(t, dev, blankCases(dev))
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetySwapLoop(t *testing.T) {
	looptest.RequireRootTools(t, "mkswap")
	img := looptest.MakeImage(t, 8<<20)
	looptest.RunTool(t, "", "mkswap", "-U", safetyUUID, img)
	dev := looptest.AttachLoop(t, img, false)
	before := looptest.FileSum(t, img)
	checkGuard(t, dev, []guardCase{
		{name: "--allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasSignature,
			msg: []string{dev + " holds a swap area (UUID " + safetyUUID + ")"}},
		{name: "--destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyMountedLoop(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	img := looptest.MakeImage(t, 16<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	dev := looptest.AttachLoop(t, img, false)
	dir := looptest.Mount(t, dev)
	before := looptest.FileSum(t, img)
	checkGuard(t, dev, []guardCase{
		{name: "no flags", want: guard.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrDeviceBusy,
			msg: []string{dev + " is mounted at " + dir, "unmount"}},
		{name: "--destroy-data does not override a mount", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev},
			want: guard.ErrDeviceBusy, msg: []string{"mounted at " + dir}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyPartitionedLoop(t *testing.T) {
	looptest.RequireRootTools(t, "sfdisk", "mkfs.ext4", "mount", "umount")
	img := looptest.MakeImage(t, 32<<20)
	looptest.RunTool(t, "label: gpt\n,8M\n,8M\n", "sfdisk", "-q", img)
	dev := looptest.AttachLoop(t, img, true)
	p1, p2 := dev+"p1", dev+"p2"
	looptest.ScanPartitions(t, dev, 2)
	name := filepath.Base(dev)
	before := looptest.FileSum(t, img)

	checkGuard(t, dev, []guardCase{
		{name: "whole, no flags", want: guard.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "whole, --allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasPartitions,
			msg: []string{dev + " has partitions (" + name + "p1, " + name + "p2)", "--destroy-data=" + dev}},
		{name: "whole, --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
	})
	// A blank partition is a device like any other.
	checkGuard(t, p1, []guardCase{
		{name: "blank partition, no flags", want: guard.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "blank partition, --allow-write-device", g: guard.Permit{AllowWriteDevice: true}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}

	// A partition holding a filesystem is refused like a whole device.
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", "-U", safetyUUID, p2)
	before = looptest.FileSum(t, img)
	checkGuard(t, p2, []guardCase{
		{name: "ext4 partition, --allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasSignature,
			msg: []string{p2 + " holds an ext4 filesystem (UUID " + safetyUUID + ")", "--destroy-data=" + p2}},
		{name: "ext4 partition, --destroy-data of the whole disk", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev},
			want: guard.ErrDestroyMismatch},
		{name: "ext4 partition, --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: p2}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}

	// A mounted partition makes the partition and its whole disk busy.
	dir := looptest.Mount(t, p2)
	before = looptest.FileSum(t, img)
	checkGuard(t, p2, []guardCase{
		{name: "mounted partition, --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: p2},
			want: guard.ErrDeviceBusy, msg: []string{p2 + " is mounted at " + dir}},
	})
	checkGuard(t, dev, []guardCase{
		{name: "whole disk of a mounted partition, --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev},
			want: guard.ErrDeviceBusy, msg: []string{dev + " (partition " + name + "p2) is mounted at " + dir}},
	})
	// The unmounted sibling stays writable with the flag.
	checkGuard(t, p1, []guardCase{
		{name: "sibling partition, --allow-write-device", g: guard.Permit{AllowWriteDevice: true}},
	})
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyRegularFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	before := looptest.FileSum(t, existing)
	checkGuard(t, existing, []guardCase{
		{name: "existing file, no flags", want: guard.ErrWriteRefused, msg: []string{existing, "--allow-write"}},
		{name: "existing file, --allow-write-device is for devices", g: guard.Permit{AllowWriteDevice: true},
			want: guard.ErrWriteRefused, msg: []string{"--allow-write"}},
		{name: "existing file, --allow-write", g: guard.Permit{AllowWrite: true}},
		{name: "file qdsweep created", g: guard.Permit{Ours: []guard.FileID{idOf(t, existing)}}},
		{name: "another file of qdsweep's (the name was swapped)", g: guard.Permit{Ours: []guard.FileID{idOf(t, dir)}},
			want: guard.ErrWriteRefused, msg: []string{"--allow-write"}},
	})
	checkGuard(t, filepath.Join(dir, "new.bin"), []guardCase{
		{name: "file to be created", g: guard.Permit{}},
	})
	checkGuard(t, dir, []guardCase{
		{name: "directory", g: guard.Permit{AllowWrite: true, AllowWriteDevice: true}, want: guard.ErrWriteRefused,
			msg: []string{"neither a regular file nor a block device"}},
	})
	checkGuard(t, "/dev/null", []guardCase{
		{name: "character device", g: guard.Permit{AllowWrite: true, AllowWriteDevice: true}, want: guard.ErrWriteRefused},
	})
	if after := looptest.FileSum(t, existing); after != before {
		t.Errorf("file contents changed")
	}
}

func TestSafetyWorkloadExtent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	allow := guard.Permit{AllowWrite: true}
	type region struct {
		offset, size, inc int64
		jobs              int
	}
	tests := []struct {
		name  string
		write bool
		r     region
		g     guard.Permit
		want  error
	}{
		{"whole file", true, region{jobs: 1}, allow, nil},
		{"exact size", true, region{size: 1 << 20, jobs: 1}, allow, nil},
		{"past the end", true, region{size: 2 << 20, jobs: 1}, allow, guard.ErrWouldExtend},
		{"offset past the end", true, region{offset: 512 << 10, size: 1 << 20, jobs: 1}, allow, guard.ErrWouldExtend},
		{"jobs tile the file", true, region{size: 256 << 10, inc: 256 << 10, jobs: 4}, allow, nil},
		{"jobs run past the end", true, region{size: 256 << 10, inc: 256 << 10, jobs: 5}, allow, guard.ErrWouldExtend},
		{"created by qdsweep", true, region{size: 4 << 20, jobs: 1}, guard.Permit{Ours: []guard.FileID{idOf(t, p)}}, nil},
		{"reads never extend", false, region{size: 4 << 20, jobs: 1}, guard.Permit{}, nil},
		{"no --allow-write", true, region{jobs: 1}, guard.Permit{}, guard.ErrWriteRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end := guard.Region(tt.r.offset, tt.r.size, tt.r.inc, tt.r.jobs)
			err := guard.Check(guard.Target{Path: p, Write: tt.write, End: end}, tt.g)
			if (tt.want == nil) != (err == nil) || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("Check = %v, want %v", err, tt.want)
			}
		})
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("file size changed: %v %v", fi, err)
	}
}

func idOf(t *testing.T, p string) guard.FileID {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return guard.IDOf(fi)
}

// TestLoopAliasOfMountedFilesystem: a second loop device over the image of
// a mounted filesystem (at an offset with a size limit, or over the whole
// file, even with --destroy-data) is the same bytes under another name:
// refused, and the image keeps every byte.
func TestLoopAliasOfMountedFilesystem(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	img := looptest.MakeImage(t, 16<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	mounted := looptest.AttachLoop(t, img, false)
	looptest.Mount(t, mounted)
	before := looptest.FileSum(t, img)
	for _, extra := range [][]string{{"-o", "1048576", "--sizelimit", "4194304"}, nil} {
		alias := looptest.AttachLoopWith(t, img, extra...)
		for _, g := range []guard.Permit{{AllowWriteDevice: true}, {AllowWriteDevice: true, DestroyData: alias}} {
			err := guard.Check(guard.Target{Path: alias, Write: true, End: 1 << 20}, g)
			if !errors.Is(err, guard.ErrDeviceBusy) || !strings.Contains(err.Error(), mounted) {
				t.Errorf("alias %s %v under %+v: %v, want a refusal naming %s", alias, extra, g, err, mounted)
			}
			if h, err := guard.Hold(guard.Target{Path: alias, Write: true, End: 1 << 20}, g); err == nil {
				h.Close()
				t.Errorf("alias %s held for writing", alias)
			}
		}
	}
	if looptest.FileSum(t, img) != before {
		t.Fatal("image changed")
	}
}

// TestOverlayUpperOfLoopBackedImage: an image reached through an overlay
// mount backs a mounted loop device; writing the image's upper-layer path
// (another device and inode than the merged path the loop device names)
// is refused as writing the merged path is.
func TestOverlayUpperOfLoopBackedImage(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	base := t.TempDir()
	lower, upper, work, merged := filepath.Join(base, "lower"), filepath.Join(base, "upper"), filepath.Join(base, "work"), filepath.Join(base, "merged")
	for _, d := range []string{lower, upper, work, merged} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	img := filepath.Join(lower, "img")
	if err := os.WriteFile(img, make([]byte, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	if out, err := exec.Command("mount", "-t", "overlay", "overlay", "-o", "lowerdir="+lower+",upperdir="+upper+",workdir="+work, merged).CombinedOutput(); err != nil {
		looptest.Skipf(t, "cannot mount overlayfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", merged).Run() })
	// A write through the merged path copies the image up.
	f, err := os.OpenFile(filepath.Join(merged, "img"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chmod(filepath.Join(merged, "img"), 0o644); err != nil {
		t.Fatal(err)
	}
	dev := looptest.AttachLoop(t, filepath.Join(merged, "img"), false)
	looptest.Mount(t, dev)
	for _, p := range []string{filepath.Join(merged, "img"), filepath.Join(upper, "img")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		err := guard.Check(guard.Target{Path: p, Write: true, End: 1 << 20}, guard.Permit{AllowWrite: true})
		if !errors.Is(err, guard.ErrDeviceBusy) {
			t.Errorf("%s: %v, want a refusal (it backs %s)", p, err, dev)
		}
	}
}
