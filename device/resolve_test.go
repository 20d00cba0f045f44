//go:build linux

package device_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/device"
	"golang.org/x/sys/unix"
)

func TestResolveDevNumFixture(t *testing.T) {
	roots := device.Roots{Proc: "testdata/proc", Sys: fixtureSys(t)}
	yes, no := true, false
	_ = yes
	tests := []struct {
		name         string
		major, minor uint32
		wantName     string
		wantParent   string
		wantMembers  []string
		wantLabel    string
		wantQueue    device.Queue
	}{
		{
			name: "whole disk", major: 254, minor: 0, wantName: "vda",
			wantQueue: device.Queue{
				Vendor: "0x1af4", Rotational: &no, LogicalBlockSize: 512, PhysicalBlockSize: 4096,
				NrRequests: 256, Scheduler: "mq-deadline", HWQueues: 2, MaxSectorsKB: 1280,
				WriteCache: "write back", ReadAheadKB: 128,
			},
		},
		{
			name: "partition takes the disk's queue", major: 254, minor: 1, wantName: "vda1", wantParent: "vda",
			wantQueue: device.Queue{
				Vendor: "0x1af4", Rotational: &no, LogicalBlockSize: 512, PhysicalBlockSize: 4096,
				NrRequests: 256, Scheduler: "mq-deadline", HWQueues: 2, MaxSectorsKB: 1280,
				WriteCache: "write back", ReadAheadKB: 128,
			},
		},
		{
			name: "device-mapper volume", major: 253, minor: 0, wantName: "dm-0",
			wantMembers: []string{"vda1"}, wantLabel: "vg0-data",
			wantQueue: device.Queue{Rotational: &no, LogicalBlockSize: 512, Scheduler: "none"},
		},
		{
			name: "md array", major: 9, minor: 127, wantName: "md127",
			wantMembers: []string{"sda", "sdb"}, wantLabel: "raid1",
			wantQueue: device.Queue{Scheduler: "none"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := roots.ResolveDevNum(tc.major, tc.minor)
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.wantName || d.Parent != tc.wantParent || d.Label != tc.wantLabel {
				t.Errorf("got name %q parent %q label %q, want %q %q %q", d.Name, d.Parent, d.Label, tc.wantName, tc.wantParent, tc.wantLabel)
			}
			if !reflect.DeepEqual(d.Members, tc.wantMembers) {
				t.Errorf("members %v, want %v", d.Members, tc.wantMembers)
			}
			if !reflect.DeepEqual(d.Queue, tc.wantQueue) {
				t.Errorf("queue %+v, want %+v", d.Queue, tc.wantQueue)
			}
		})
	}
	if _, err := roots.ResolveDevNum(8, 16); !errors.Is(err, device.ErrNoBlockDevice) {
		t.Errorf("unknown device number: got %v, want ErrNoBlockDevice", err)
	}
}

func TestSampleFixture(t *testing.T) {
	roots := device.Roots{Proc: "testdata/proc", Sys: fixtureSys(t)}
	d, err := roots.ResolveDevNum(254, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if s.Stats.ReadIOs != 1200 || s.Stats.ReadSectors != 96000 || s.Stats.IOsInProgress != 2 || s.Stats.WeightedIOTicks != 690 {
		t.Errorf("vda1 line read as %+v", s.Stats)
	}
	dm, err := roots.ResolveDevNum(253, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := dm.Sample(); err != nil || s.Stats.WriteIOs != 250 {
		t.Errorf("dm-0 (14-field line): %+v, %v", s.Stats, err)
	}
	md, err := roots.ResolveDevNum(9, 127)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := md.Sample(); err == nil {
		t.Error("md127 has no diskstats line in the fixture: want an error")
	}
}

// TestResolveRootFile resolves a file on the filesystem holding the test's
// temporary directory and checks the device number against stat and findmnt.
func TestResolveRootFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "target")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := device.Resolve(f)
	if errors.Is(err, device.ErrNoBlockDevice) {
		t.Skipf("temporary directory has no block device: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(f, &st); err != nil {
		t.Fatal(err)
	}
	if d.Major != unix.Major(uint64(st.Dev)) || d.Minor != unix.Minor(uint64(st.Dev)) {
		t.Errorf("resolved %s, stat says %d:%d", d.MajMin(), unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)))
	}
	if out, err := exec.Command("findmnt", "-n", "-o", "MAJ:MIN", "-T", dir).Output(); err == nil {
		if got := strings.TrimSpace(string(out)); got != d.MajMin() {
			t.Errorf("findmnt says %s, resolved %s (%s)", got, d.MajMin(), d.Name)
		}
	}
	if d.Queue.LogicalBlockSize < 512 || d.Queue.NrRequests == 0 && d.Label == "" {
		t.Errorf("queue facts of %s look empty: %+v", d.Name, d.Queue)
	}
	// A path that does not exist yet resolves through its directory.
	later, err := device.Resolve(filepath.Join(dir, "not", "yet"))
	if err != nil || later.MajMin() != d.MajMin() {
		t.Errorf("not-yet-created path: %v, %v", later, err)
	}
	if _, err := d.Sample(); err != nil {
		t.Errorf("sample %s: %v", d.Name, err)
	}
	t.Logf("%s -> %s (%s) queue %+v", f, d.Name, d.MajMin(), d.Queue)
}

func TestResolveTmpfs(t *testing.T) {
	var fs unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &fs); err != nil || fs.Type != unix.TMPFS_MAGIC {
		t.Skip("/dev/shm is not tmpfs here")
	}
	if _, err := device.Resolve("/dev/null"); !errors.Is(err, device.ErrNoBlockDevice) || !strings.Contains(err.Error(), "character device") {
		t.Errorf("/dev/null: got %v, want a character device without a block device", err)
	}
	_, err := device.Resolve("/dev/shm/qdsweep-target")
	if !errors.Is(err, device.ErrNoBlockDevice) {
		t.Fatalf("got %v, want ErrNoBlockDevice", err)
	}
	if !strings.Contains(err.Error(), "tmpfs") {
		t.Errorf("message %q does not name tmpfs", err)
	}
}

func TestResolveLoopDevice(t *testing.T) {
	loop := attachLoop(t, 8<<20, false)
	d, err := device.Resolve(loop)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != filepath.Base(loop) || d.Major != 7 || d.Parent != "" {
		t.Errorf("%s resolved to %s (%s) parent %q", loop, d.Name, d.MajMin(), d.Parent)
	}
	if d.Queue.LogicalBlockSize != 512 || d.Queue.Scheduler == "" {
		t.Errorf("queue facts %+v", d.Queue)
	}
	if _, err := d.Sample(); err != nil {
		t.Error(err)
	}
}

func TestResolvePartition(t *testing.T) {
	if _, err := exec.LookPath("sfdisk"); err != nil {
		t.Skip("sfdisk not installed")
	}
	loop := attachLoop(t, 16<<20, true)
	part := loop + "p2"
	if !waitFor(part, 500*time.Millisecond) {
		// Kernels built without partition-table parsers leave the table to
		// user space: add the partitions with BLKPG through partx.
		if out, err := exec.Command("partx", "-a", loop).CombinedOutput(); err != nil {
			t.Skipf("%s did not appear and partx -a failed: %v: %s", part, err, out)
		}
		if !waitFor(part, 2*time.Second) {
			t.Fatalf("%s did not appear", part)
		}
	}
	d, err := device.Resolve(part)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != filepath.Base(part) || d.Parent != filepath.Base(loop) {
		t.Errorf("%s resolved to %s parent %q, want parent %s", part, d.Name, d.Parent, filepath.Base(loop))
	}
	disk, err := device.Resolve(loop)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Queue, disk.Queue) {
		t.Errorf("partition queue %+v differs from its disk's %+v", d.Queue, disk.Queue)
	}
	// Reads of the partition count on the partition's own diskstats line.
	before, err := d.Sample()
	if err != nil {
		t.Fatal(err)
	}
	const reads = 64
	if out, err := exec.Command("dd", "if="+part, "of=/dev/null", "bs=4k", "count=64", "iflag=direct").CombinedOutput(); err != nil {
		t.Fatalf("dd: %v: %s", err, out)
	}
	after, err := d.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if n := after.Stats.ReadIOs - before.Stats.ReadIOs; n < reads {
		t.Errorf("%s's line counted %d reads, dd issued %d", d.Name, n, reads)
	}

	// A file on a filesystem on the partition resolves to the partition.
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		t.Skip("mkfs.ext4 not installed")
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", part).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4 %s: %v: %s", part, err, out)
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", part, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount %s: %v: %s", part, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	f, err := device.Resolve(filepath.Join(mnt, "target"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != d.Name || f.Parent != disk.Name {
		t.Errorf("file on %s resolved to %s (parent %q)", part, f.Name, f.Parent)
	}
}

// attachLoop backs a loop device with a temporary file of size bytes,
// partitioned in two when partitioned is set, and detaches it at cleanup.
func attachLoop(t *testing.T, size int64, partitioned bool) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("loop devices need root")
	}
	if _, err := exec.LookPath("losetup"); err != nil {
		t.Skip("losetup not installed")
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, size); err != nil {
		t.Fatal(err)
	}
	args := []string{"-f", "--show", img}
	if partitioned {
		cmd := exec.Command("sfdisk", "--quiet", img)
		cmd.Stdin = strings.NewReader("label: dos\n,4MiB\n,\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sfdisk: %v: %s", err, out)
		}
		args = append([]string{"-P"}, args...)
	}
	out, err := exec.Command("losetup", args...).CombinedOutput()
	if err != nil {
		t.Skipf("losetup %s: %v: %s", strings.Join(args, " "), err, out)
	}
	loop := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "-d", loop).CombinedOutput(); err != nil {
			t.Errorf("losetup -d %s: %v: %s", loop, err, out)
		}
	})
	return loop
}

func waitFor(path string, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return true
		}
	}
	return false
}
