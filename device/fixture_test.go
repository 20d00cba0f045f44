package device_test

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureSys builds a sysfs tree in a temporary directory: a virtio disk vda
// (254:0) with a partition vda1 (254:1), a device-mapper volume dm-0
// (253:0, "vg0-data") on vda1, and an md array md127 (9:127) on two disks.
func fixtureSys(t *testing.T) string {
	t.Helper()
	sys := t.TempDir()
	devices := filepath.Join(sys, "devices")
	vda := filepath.Join(devices, "pci0000:00", "0000:00:02.0", "virtio1", "block", "vda")
	dm := filepath.Join(devices, "virtual", "block", "dm-0")
	md := filepath.Join(devices, "virtual", "block", "md127")
	files := map[string]string{
		filepath.Join(vda, "dev"):                          "254:0\n",
		filepath.Join(vda, "device", "vendor"):             "0x1af4\n",
		filepath.Join(vda, "queue", "rotational"):          "0\n",
		filepath.Join(vda, "queue", "logical_block_size"):  "512\n",
		filepath.Join(vda, "queue", "physical_block_size"): "4096\n",
		filepath.Join(vda, "queue", "nr_requests"):         "256\n",
		filepath.Join(vda, "queue", "scheduler"):           "none [mq-deadline] kyber bfq\n",
		filepath.Join(vda, "queue", "max_sectors_kb"):      "1280\n",
		filepath.Join(vda, "queue", "write_cache"):         "write back\n",
		filepath.Join(vda, "queue", "read_ahead_kb"):       "128\n",
		filepath.Join(vda, "vda1", "partition"):            "1\n",
		filepath.Join(vda, "vda1", "dev"):                  "254:1\n",
		filepath.Join(dm, "dm", "name"):                    "vg0-data\n",
		filepath.Join(dm, "queue", "scheduler"):            "none\n",
		filepath.Join(dm, "queue", "logical_block_size"):   "512\n",
		filepath.Join(dm, "queue", "rotational"):           "0\n",
		filepath.Join(md, "md", "level"):                   "raid1\n",
		filepath.Join(md, "queue", "scheduler"):            "none\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := []string{
		filepath.Join(vda, "mq", "0"), filepath.Join(vda, "mq", "1"),
		filepath.Join(dm, "slaves"), filepath.Join(md, "slaves"),
		filepath.Join(sys, "dev", "block"),
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(sys, "dev", "block", "254:0"): vda,
		filepath.Join(sys, "dev", "block", "254:1"): filepath.Join(vda, "vda1"),
		filepath.Join(sys, "dev", "block", "253:0"): dm,
		filepath.Join(sys, "dev", "block", "9:127"): md,
		filepath.Join(dm, "slaves", "vda1"):         filepath.Join(vda, "vda1"),
		filepath.Join(md, "slaves", "sdb"):          filepath.Join(devices, "sdb"),
		filepath.Join(md, "slaves", "sda"):          filepath.Join(devices, "sda"),
	}
	for name, target := range links {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	return sys
}
