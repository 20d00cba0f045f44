package device_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/device"
)

func TestClassifyFSType(t *testing.T) {
	for fstype, want := range map[string]device.FSClass{
		"nfs4": device.FSNetwork, "nfs": device.FSNetwork, "cifs": device.FSNetwork, "smb3": device.FSNetwork,
		"9p": device.FSNetwork, "virtiofs": device.FSNetwork, "ceph": device.FSNetwork, "lustre": device.FSNetwork,
		"fuse.gcsfuse": device.FSFUSE, "fuse.s3fs": device.FSFUSE, "fuse.mountpoint-s3": device.FSFUSE,
		"fuse.glusterfs": device.FSFUSE, "fuseblk": device.FSFUSE, "fuse.juicefs": device.FSFUSE,
		"tmpfs": device.FSMemory, "ramfs": device.FSMemory,
		"ext4": device.FSLocal, "xfs": device.FSLocal,
		"overlay": device.FSOther, "proc": device.FSOther,
	} {
		if got := device.ClassifyFSType(fstype); got != want {
			t.Errorf("ClassifyFSType(%q) = %s, want %s", fstype, got, want)
		}
	}
}

// fixtureMounts writes a procfs tree whose self/mountinfo mounts the
// given file systems at dirs under base (which must exist), on device
// numbers no real file has, so the deepest mount point decides.
func fixtureMounts(t *testing.T, base string, mounts [][3]string) string {
	t.Helper()
	proc := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proc, "4242"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("4242", filepath.Join(proc, "self")); err != nil {
		t.Fatal(err)
	}
	body := "21 1 999:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	for i, m := range mounts {
		body += fmt.Sprintf("%d 21 0:%d / %s rw,relatime shared:%d - %s %s rw\n", 30+i, 900+i, filepath.Join(base, m[0]), 2+i, m[1], m[2])
	}
	if err := os.WriteFile(filepath.Join(proc, "4242", "mountinfo"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return proc
}

func TestFSTypeOfFixture(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"train", "nfs/data", "shm"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proc := fixtureMounts(t, base, [][3]string{
		{"train", "fuse.gcsfuse", "my-bucket"},
		{"nfs", "nfs4", "filer:/export"},
		{"shm", "tmpfs", "tmpfs"},
	})
	r := device.Roots{Proc: proc}
	tests := []struct {
		path  string
		typ   string
		class device.FSClass
	}{
		{filepath.Join(base, "train", "shard-0001.tfrecord"), "fuse.gcsfuse", device.FSFUSE}, // not created yet: its directory
		{filepath.Join(base, "nfs", "data"), "nfs4", device.FSNetwork},
		{filepath.Join(base, "shm"), "tmpfs", device.FSMemory},
		{base, "ext4", device.FSLocal},
	}
	for _, tt := range tests {
		fs, err := r.FSTypeOf(tt.path)
		if err != nil || fs.Type != tt.typ || fs.Class != tt.class {
			t.Errorf("FSTypeOf(%s) = %+v, %v; want %s (%s)", tt.path, fs, err, tt.typ, tt.class)
		}
	}
}

// The running system's own mount table: /dev/shm is tmpfs here (and on
// every systemd host), the test's temporary directory is not.
func TestFSTypeOfRealTmpfs(t *testing.T) {
	if _, err := os.Stat("/dev/shm"); err != nil {
		t.Skip("no /dev/shm on this system")
	}
	fs, err := device.Roots{}.FSTypeOf("/dev/shm/qdsweep-not-created")
	if err != nil {
		t.Fatal(err)
	}
	if fs.Type != "tmpfs" || fs.Class != device.FSMemory || fs.MountPoint != "/dev/shm" {
		t.Errorf("/dev/shm: %+v, want tmpfs", fs)
	}
}
