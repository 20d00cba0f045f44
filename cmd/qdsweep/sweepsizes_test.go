package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSweepSizesAsRun: sweep's fio-named size flags read a value as run
// reads the fio option of that name (fio 3.33's reader: its suffixes under
// kb_base=1024, where MiB is 10^6, hex, a value's last piece after '-'):
// the file a sweep lays out for --size=V is the size run lays out for it.
// sweep read 1MiB as 1,048,576 bytes where run and fio read 1,000,000, and
// refused 2m-1m, which both run.
func TestSweepSizesAsRun(t *testing.T) {
	for _, v := range []string{"1MiB", "0x100000", "2m-1m", "1000k"} {
		dir := t.TempDir()
		_, errs, code := runQdsweep(t, dir, "run", "--name=a", "--filename=r", "--size="+v, "--rw=read", "--output-format=terse")
		if code != 0 {
			t.Fatalf("run --size=%s: exit %d: %s", v, code, errs)
		}
		_, errs, code = runQdsweep(t, dir, "sweep", "--filename=s", "--size="+v, "--iodepth=1", "--runtime=1", "--ramp_time=0", "--direct=0", "-o", "out", "-q")
		if code != 0 {
			t.Fatalf("sweep --size=%s: exit %d: %s", v, code, errs)
		}
		r, errR := os.Stat(filepath.Join(dir, "r"))
		s, errS := os.Stat(filepath.Join(dir, "s"))
		if errR != nil || errS != nil || r.Size() != s.Size() {
			t.Errorf("--size=%s: run laid out %v (%v), sweep %v (%v)", v, sizeOf(r), errR, sizeOf(s), errS)
		}
	}
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return -1
	}
	return fi.Size()
}
