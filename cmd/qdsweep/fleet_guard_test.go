//go:build linux

package main_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/internal/looptest"
)

// TestFleetWriteGuard: writes through fio servers pass the remote guard.
// A block device there needs --allow-write-device and
// --destroy-data=HOST:PATH, and must be blank in its first 64 MiB and last
// 1 MiB, which fio itself checks on every server (verify_pattern=0x00): an
// ext4 device is refused, exit 2, every byte kept; a blank one is written.
// A file there needs --allow-write.
func TestFleetWriteGuard(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	looptest.RequireRootTools(t, "mkfs.ext4")
	h := fioServer(t)
	dir := t.TempDir()
	formatted := looptest.AttachLoop(t, looptest.MakeImage(t, 32<<20), false)
	looptest.RunTool(t, "", "mkfs.ext4", "-q", "-F", formatted)
	blank := looptest.AttachLoop(t, looptest.MakeImage(t, 32<<20), false)
	before := looptest.FileSum(t, formatted)
	args := func(target string, extra ...string) []string {
		return append([]string{"sweep", "--ioengine=fio", "--fio-clients=" + h, "--filename=" + target, "--rw=randwrite", "--size=8m",
			"--iodepth=1,2", "--runtime=200ms", "--ramp_time=0", "--ss=0", "--refine=false", "--output=" + filepath.Join(dir, filepath.Base(target)+strings.ReplaceAll(strings.Join(extra, ""), "/", "_"))}, extra...)
	}
	for _, c := range []struct {
		target string
		extra  []string
		want   string
	}{
		{formatted, nil, "--allow-write-device"},
		{formatted, []string{"--allow-write-device"}, "--destroy-data=" + h + ":" + formatted},
		{formatted, []string{"--allow-write-device", "--destroy-data=" + formatted}, "--destroy-data=" + h + ":" + formatted},
		{formatted, []string{"--allow-write-device", "--destroy-data=" + h + ":" + formatted}, "not blank"},
		{filepath.Join(dir, "file.dat"), nil, "--allow-write"},
	} {
		out, errs, code := runQdsweep(t, dir, nil, args(c.target, c.extra...)...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%s %v: exit %d, stderr %q, want exit 2 and one line with %q (stdout %q)", c.target, c.extra, code, errs, c.want, out)
		}
	}
	if looptest.FileSum(t, formatted) != before {
		t.Fatal("the ext4 device on the fio server changed")
	}
	if out, errs, code := runQdsweep(t, dir, nil, args(blank, "--allow-write-device", "--destroy-data="+h+":"+blank)...); code != 0 {
		t.Fatalf("blank device: exit %d\n%s%s", code, out, errs)
	}
}
