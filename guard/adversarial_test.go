//go:build linux

package guard_test

// The adversarial table of the "never destroy data" report, on real loop
// devices: every way a write once got through must now be refused.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
)

// TestAdversarialFormatsNotBlank: exFAT, F2FS and SquashFS volumes (which an
// allow-list of known signatures once took for blank) are refused by name
// with --allow-write-device, and only --destroy-data lets a write through.
func TestAdversarialFormatsNotBlank(t *testing.T) {
	for _, tt := range []struct {
		name, tool string
		size       int64
		want       string
	}{
		{"exfat", "mkfs.exfat", 32 << 20, "an exFAT filesystem"},
		{"f2fs", "mkfs.f2fs", 64 << 20, "an F2FS filesystem"},
		{"squashfs", "mksquashfs", 8 << 20, "a SquashFS filesystem"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			looptest.RequireRootTools(t, tt.tool)
			img := looptest.MakeImage(t, tt.size)
			switch tt.name {
			case "squashfs":
				src := t.TempDir()
				if err := os.WriteFile(filepath.Join(src, "keep"), []byte("precious"), 0o600); err != nil {
					t.Fatal(err)
				}
				looptest.RunTool(t, "", tt.tool, src, img, "-noappend", "-quiet")
				if err := os.Truncate(img, tt.size); err != nil {
					t.Fatal(err)
				}
			case "f2fs":
				looptest.RunTool(t, "", tt.tool, "-q", "-f", img)
			default:
				looptest.RunTool(t, "", tt.tool, img)
			}
			dev := looptest.AttachLoop(t, img, false)
			before := looptest.FileSum(t, img)
			checkGuard(t, dev, []guardCase{
				{name: "--allow-write-device", g: guard.Permit{AllowWriteDevice: true}, want: guard.ErrHasSignature,
					notWant: []error{guard.ErrDeviceBusy}, msg: []string{dev + " holds " + tt.want, "--destroy-data=" + dev}},
				{name: "--destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}},
			})
			// The built-in scan alone refuses too (blkid and wipefs are a second opinion only).
			err := guard.Checker{NoTools: true}.Check(guard.Target{Path: dev, Write: true}, guard.Permit{AllowWriteDevice: true})
			if !errors.Is(err, guard.ErrHasSignature) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("built-in scan: %v", err)
			}
			if after := looptest.FileSum(t, img); after != before {
				t.Errorf("device contents changed")
			}
		})
	}
}

// TestAdversarialUnknownData: data no prober knows is "non-zero data at
// offset N", anywhere in the scanned regions: past the first MiB, near the end.
func TestAdversarialUnknownData(t *testing.T) {
	looptest.RequireRootTools(t)
	for _, off := range []int64{3 << 20, (32 << 20) - 1} {
		img := looptest.MakeImage(t, 32<<20)
		f, err := os.OpenFile(img, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte{0x42}, off); err != nil {
			t.Fatal(err)
		}
		f.Close()
		dev := looptest.AttachLoop(t, img, false)
		err = guard.Check(guard.Target{Path: dev, Write: true}, guard.Permit{AllowWriteDevice: true})
		if !errors.Is(err, guard.ErrHasSignature) || !strings.Contains(err.Error(), "non-zero data at offset "+strconv.FormatInt(off, 10)) {
			t.Errorf("byte at %d: %v", off, err)
		}
	}
}

// TestAdversarialLoopOverLoop: a block device that backs another loop device
// (losetup loopB loopA, loopB mounted) is busy: refused even with
// --destroy-data naming it.
func TestAdversarialLoopOverLoop(t *testing.T) {
	looptest.RequireRootTools(t, "mkfs.ext4")
	img := looptest.MakeImage(t, 32<<20)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	lower := looptest.AttachLoop(t, img, false)
	upper := looptest.AttachLoop(t, lower, false)
	dir := looptest.Mount(t, upper)
	before := looptest.FileSum(t, img)
	checkGuard(t, lower, []guardCase{
		{name: "--destroy-data of the backing device", g: guard.Permit{AllowWriteDevice: true, DestroyData: lower},
			want: guard.ErrDeviceBusy, msg: []string{lower + " backs loop device " + upper}},
	})
	_, err := guard.Hold(guard.Target{Path: lower, Write: true}, guard.Permit{AllowWriteDevice: true, DestroyData: lower})
	if !errors.Is(err, guard.ErrDeviceBusy) {
		t.Errorf("Hold: %v, want busy", err)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("device contents changed (mounted at %s)", dir)
	}
}

// TestAdversarialBackingNameSpace: a loop backing file whose name ends in a
// space is found (sysfs names are compared byte for byte, only the final
// newline dropped); its space-less neighbour is another file.
func TestAdversarialBackingNameSpace(t *testing.T) {
	looptest.RequireRootTools(t)
	dir := t.TempDir()
	spaced := filepath.Join(dir, "disk.img ")
	plain := filepath.Join(dir, "disk.img")
	for _, p := range []string{spaced, plain} {
		if err := os.WriteFile(p, make([]byte, 4<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dev := looptest.AttachLoop(t, spaced, false)
	b, err := os.ReadFile("/sys/class/block/" + filepath.Base(dev) + "/loop/backing_file")
	if err != nil {
		looptest.Skipf(t, "no sysfs backing_file: %v", err)
	}
	t.Logf("sysfs backing_file %q", b)
	checkGuard(t, spaced, []guardCase{
		{name: "backing file with a trailing space", g: guard.Permit{AllowWrite: true}, want: guard.ErrDeviceBusy, msg: []string{"backs loop device " + dev}},
	})
	checkGuard(t, plain, []guardCase{
		{name: "neighbour without the space", g: guard.Permit{AllowWrite: true}},
	})
}

// TestAdversarialExclusiveElsewhere: a device another process holds with
// O_EXCL is busy, with or without --destroy-data.
func TestAdversarialExclusiveElsewhere(t *testing.T) {
	looptest.RequireRootTools(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 8<<20), false)
	h, err := guard.Hold(guard.Target{Path: dev, Write: true}, guard.Permit{AllowWriteDevice: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// Another process: a child holding it would do the same; a second open
	// file in this one is enough for the kernel's claim check.
	checkGuard(t, dev, []guardCase{
		{name: "held elsewhere, --destroy-data", g: guard.Permit{AllowWriteDevice: true, DestroyData: dev}, want: guard.ErrDeviceBusy},
	})
	if _, err := exec.LookPath("mount"); err == nil {
		if out, err := exec.Command("mount", dev, t.TempDir()).CombinedOutput(); err == nil {
			t.Errorf("mounted a held device: %s", out)
		}
	}
}
