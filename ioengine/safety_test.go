package ioengine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

var (
	writeRWs = []ioengine.RW{ioengine.Write, ioengine.RandWrite, ioengine.ReadWrite, ioengine.RandRW}
	readRWs  = []ioengine.RW{ioengine.Read, ioengine.RandRead}
)

// guardCase is one set of flags and what CheckTarget must answer to every
// write workload under them.
type guardCase struct {
	name    string
	g       ioengine.WriteGuard
	want    error    // nil: allowed; else a sentinel the error must wrap
	notWant []error  // sentinels the error must not wrap
	msg     []string // substrings of the one-line message
}

// checkGuard runs every case against every write workload on path, and
// checks reads are allowed with no flags at all.
func checkGuard(t *testing.T, path string, cases []guardCase) {
	t.Helper()
	for _, rw := range readRWs {
		if err := ioengine.CheckTarget(path, rw, ioengine.WriteGuard{}); err != nil {
			t.Errorf("%s on %s with no flags: %v, want allowed", rw, path, err)
		}
	}
	for _, tc := range cases {
		for _, rw := range writeRWs {
			err := ioengine.CheckTarget(path, rw, tc.g)
			if rw == writeRWs[0] && err != nil {
				t.Logf("%s: %v", tc.name, err)
			}
			if tc.want == nil {
				if err != nil {
					t.Errorf("%s: %s on %s: %v, want allowed", tc.name, rw, path, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s: %s on %s allowed, want %v", tc.name, rw, path, tc.want)
				continue
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, ioengine.ErrWriteRefused) {
				t.Errorf("%s: %s on %s: %v, want it to wrap %v and ErrWriteRefused", tc.name, rw, path, err, tc.want)
			}
			for _, nw := range tc.notWant {
				if errors.Is(err, nw) {
					t.Errorf("%s: %s on %s: %v wraps %v", tc.name, rw, path, err, nw)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: message is not one line: %q", tc.name, err)
			}
			for _, m := range tc.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%s: %s on %s: message %q lacks %q", tc.name, rw, path, err, m)
				}
			}
		}
	}
}

const safetyUUID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fa"

func TestSafetyExt4Loop(t *testing.T) {
	ioengine.RequireRootTools(t, "mkfs.ext4")
	img := ioengine.MakeImage(t, 16<<20)
	ioengine.RunTool(t, "", "mkfs.ext4", "-q", "-F", "-U", safetyUUID, "-L", "qdsafety", img)
	dev := ioengine.AttachLoop(t, img, false)
	link := filepath.Join(t.TempDir(), "by-id")
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	before := ioengine.FileSum(t, img)

	checkGuard(t, dev, []guardCase{
		{name: "no flags", want: ioengine.ErrWriteRefused, notWant: []error{ioengine.ErrHasSignature},
			msg: []string{dev, "--allow-write-device"}},
		{name: "--allow-write is for files", g: ioengine.WriteGuard{AllowWrite: true}, want: ioengine.ErrWriteRefused,
			msg: []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrHasSignature,
			notWant: []error{ioengine.ErrDeviceBusy},
			msg:     []string{dev + " holds an ext4 filesystem (UUID " + safetyUUID + ", label qdsafety); refusing to write", "--destroy-data=" + dev}},
		{name: "--destroy-data alone", g: ioengine.WriteGuard{DestroyData: dev}, want: ioengine.ErrWriteRefused,
			msg: []string{"--allow-write-device"}},
		{name: "--destroy-data names another device", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: "/dev/null"},
			want: ioengine.ErrDestroyMismatch, msg: []string{"--destroy-data=/dev/null", dev}},
		{name: "--destroy-data names the backing file", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: img},
			want: ioengine.ErrDestroyMismatch},
		{name: "--destroy-data same device", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev}},
		{name: "--destroy-data through a symlink", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: link}},
	})
	// The same answers through a symlink to the device (like /dev/disk/by-id/…).
	checkGuard(t, link, []guardCase{
		{name: "symlink, --allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrHasSignature},
	})
	// The backing file of an attached loop device is never written.
	checkGuard(t, img, []guardCase{
		{name: "backing file", g: ioengine.WriteGuard{AllowWrite: true, Created: true}, want: ioengine.ErrDeviceBusy,
			msg: []string{"backs loop device " + dev}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyBlankLoop(t *testing.T) {
	ioengine.RequireRootTools(t)
	img := ioengine.MakeImage(t, 8<<20)
	dev := ioengine.AttachLoop(t, img, false)
	before := ioengine.FileSum(t, img)
	checkGuard(t, dev, []guardCase{
		{name: "no flags", want: ioengine.ErrWriteRefused,
			notWant: []error{ioengine.ErrHasSignature, ioengine.ErrDeviceBusy, ioengine.ErrHasPartitions},
			msg:     []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}},
		{name: "--allow-write-device --destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetySwapLoop(t *testing.T) {
	ioengine.RequireRootTools(t, "mkswap")
	img := ioengine.MakeImage(t, 8<<20)
	ioengine.RunTool(t, "", "mkswap", "-U", safetyUUID, img)
	dev := ioengine.AttachLoop(t, img, false)
	before := ioengine.FileSum(t, img)
	checkGuard(t, dev, []guardCase{
		{name: "--allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrHasSignature,
			msg: []string{dev + " holds a swap area (UUID " + safetyUUID + ")"}},
		{name: "--destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyMountedLoop(t *testing.T) {
	ioengine.RequireRootTools(t, "mkfs.ext4", "mount", "umount")
	img := ioengine.MakeImage(t, 16<<20)
	ioengine.RunTool(t, "", "mkfs.ext4", "-q", "-F", img)
	dev := ioengine.AttachLoop(t, img, false)
	dir := ioengine.Mount(t, dev)
	before := ioengine.FileSum(t, img)
	checkGuard(t, dev, []guardCase{
		{name: "no flags", want: ioengine.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "--allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrDeviceBusy,
			msg: []string{dev + " is mounted at " + dir, "unmount"}},
		{name: "--destroy-data does not override a mount", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev},
			want: ioengine.ErrDeviceBusy, msg: []string{"mounted at " + dir}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyPartitionedLoop(t *testing.T) {
	ioengine.RequireRootTools(t, "sfdisk", "mkfs.ext4", "mount", "umount")
	img := ioengine.MakeImage(t, 32<<20)
	ioengine.RunTool(t, "label: gpt\n,8M\n,8M\n", "sfdisk", "-q", img)
	dev := ioengine.AttachLoop(t, img, true)
	p1, p2 := dev+"p1", dev+"p2"
	ioengine.ScanPartitions(t, dev, 2)
	name := filepath.Base(dev)
	before := ioengine.FileSum(t, img)

	checkGuard(t, dev, []guardCase{
		{name: "whole, no flags", want: ioengine.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "whole, --allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrHasPartitions,
			msg: []string{dev + " has partitions (" + name + "p1, " + name + "p2)", "--destroy-data=" + dev}},
		{name: "whole, --destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev}},
	})
	// A blank partition is a device like any other.
	checkGuard(t, p1, []guardCase{
		{name: "blank partition, no flags", want: ioengine.ErrWriteRefused, msg: []string{"--allow-write-device"}},
		{name: "blank partition, --allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}

	// A partition holding a filesystem is refused like a whole device.
	ioengine.RunTool(t, "", "mkfs.ext4", "-q", "-F", "-U", safetyUUID, p2)
	before = ioengine.FileSum(t, img)
	checkGuard(t, p2, []guardCase{
		{name: "ext4 partition, --allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}, want: ioengine.ErrHasSignature,
			msg: []string{p2 + " holds an ext4 filesystem (UUID " + safetyUUID + ")", "--destroy-data=" + p2}},
		{name: "ext4 partition, --destroy-data of the whole disk", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev},
			want: ioengine.ErrDestroyMismatch},
		{name: "ext4 partition, --destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: p2}},
	})

	// A mounted partition makes the partition and its whole disk busy.
	dir := ioengine.Mount(t, p2)
	before = ioengine.FileSum(t, img)
	checkGuard(t, p2, []guardCase{
		{name: "mounted partition, --destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: p2},
			want: ioengine.ErrDeviceBusy, msg: []string{p2 + " is mounted at " + dir}},
	})
	checkGuard(t, dev, []guardCase{
		{name: "whole disk of a mounted partition, --destroy-data", g: ioengine.WriteGuard{AllowWriteDevice: true, DestroyData: dev},
			want: ioengine.ErrDeviceBusy, msg: []string{dev + " (partition " + name + "p2) is mounted at " + dir}},
	})
	// The unmounted sibling stays writable with the flag.
	checkGuard(t, p1, []guardCase{
		{name: "sibling partition, --allow-write-device", g: ioengine.WriteGuard{AllowWriteDevice: true}},
	})
	if after := ioengine.FileSum(t, img); after != before {
		t.Errorf("device contents changed: sha256 %s → %s", before, after)
	}
}

func TestSafetyRegularFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	before := ioengine.FileSum(t, existing)
	checkGuard(t, existing, []guardCase{
		{name: "existing file, no flags", want: ioengine.ErrWriteRefused, msg: []string{existing, "--allow-write"}},
		{name: "existing file, --allow-write-device is for devices", g: ioengine.WriteGuard{AllowWriteDevice: true},
			want: ioengine.ErrWriteRefused, msg: []string{"--allow-write"}},
		{name: "existing file, --allow-write", g: ioengine.WriteGuard{AllowWrite: true}},
		{name: "file qdsweep created", g: ioengine.WriteGuard{Created: true}},
	})
	checkGuard(t, filepath.Join(dir, "new.bin"), []guardCase{
		{name: "file to be created", g: ioengine.WriteGuard{}},
	})
	checkGuard(t, dir, []guardCase{
		{name: "directory", g: ioengine.WriteGuard{AllowWrite: true, AllowWriteDevice: true}, want: ioengine.ErrWriteRefused,
			msg: []string{"neither a regular file nor a block device"}},
	})
	checkGuard(t, "/dev/null", []guardCase{
		{name: "character device", g: ioengine.WriteGuard{AllowWrite: true, AllowWriteDevice: true}, want: ioengine.ErrWriteRefused},
	})
	if after := ioengine.FileSum(t, existing); after != before {
		t.Errorf("file contents changed")
	}
}

func TestSafetyWorkloadExtent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	allow := ioengine.WriteGuard{AllowWrite: true}
	tests := []struct {
		name string
		w    ioengine.Workload
		g    ioengine.WriteGuard
		want error
	}{
		{"whole file", ioengine.Workload{RW: ioengine.Write, NumJobs: 1}, allow, nil},
		{"exact size", ioengine.Workload{RW: ioengine.RandWrite, Size: 1 << 20, NumJobs: 1}, allow, nil},
		{"past the end", ioengine.Workload{RW: ioengine.Write, Size: 2 << 20, NumJobs: 1}, allow, ioengine.ErrWouldExtend},
		{"offset past the end", ioengine.Workload{RW: ioengine.RandRW, Offset: 512 << 10, Size: 1 << 20, NumJobs: 1}, allow, ioengine.ErrWouldExtend},
		{"jobs tile the file", ioengine.Workload{RW: ioengine.Write, Size: 256 << 10, OffsetIncrement: 256 << 10, NumJobs: 4}, allow, nil},
		{"jobs run past the end", ioengine.Workload{RW: ioengine.Write, Size: 256 << 10, OffsetIncrement: 256 << 10, NumJobs: 5}, allow, ioengine.ErrWouldExtend},
		{"created by qdsweep", ioengine.Workload{RW: ioengine.Write, Size: 4 << 20, NumJobs: 1}, ioengine.WriteGuard{Created: true}, nil},
		{"reads never extend", ioengine.Workload{RW: ioengine.Read, Size: 4 << 20, NumJobs: 1}, ioengine.WriteGuard{}, nil},
		{"no --allow-write", ioengine.Workload{RW: ioengine.Write, NumJobs: 1}, ioengine.WriteGuard{}, ioengine.ErrWriteRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.w.Filename = p
			err := ioengine.CheckWorkload(tt.w, tt.g)
			if (tt.want == nil) != (err == nil) || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("CheckWorkload = %v, want %v", err, tt.want)
			}
		})
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("file size changed: %v %v", fi, err)
	}
}
