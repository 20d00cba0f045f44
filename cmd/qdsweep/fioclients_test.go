package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// TestFioClientsLogs: fio's logs of a job run on a fio server
// (--ioengine=fio --fio-clients) are fio's own, as its client writes them
// back: a file per clone and per host, named LOG.HOST, in the same names
// and with as many lines (give or take the window a loaded machine ends
// early or late) as fio --client writes on the same job file; they were
// written empty. A job file that goes through fio (an engine qdsweep does
// not run) is refused with --fio-clients, in one line naming the flag,
// exit 2, nothing written.
func TestFioClientsLogs(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	host := fioServer(t)
	target := filepath.Join(t.TempDir(), "f") // the server's file (on this machine)
	if err := os.WriteFile(target, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	job := "[a]\nfilename=" + target + "\nsize=4m\nbs=4k\nrw=randread\nnumjobs=2\nruntime=1\ntime_based\nwrite_iops_log=lg\nwrite_lat_log=lg\nlog_avg_msec=100\n"
	logs := func(dir string) map[string]int {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), "lg_") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			lines, err := fio.ParseLog(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			out[e.Name()] = len(lines)
		}
		return out
	}
	fdir, qdir := t.TempDir(), t.TempDir()
	for _, d := range []string{fdir, qdir} {
		if err := os.WriteFile(filepath.Join(d, "j.fio"), []byte(job), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hosts := filepath.Join(fdir, "hosts")
	if err := os.WriteFile(hosts, []byte(fio.ClientArg(host)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("fio", "--output-format=json", "--client="+hosts, "j.fio")
	cmd.Dir = fdir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fio --client: %v\n%s", err, out)
	}
	if _, stderr, code := runQdsweep(t, qdir, nil, "run", "--ioengine=fio", "--fio-clients="+host, "--output-format=json", "j.fio"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, got := logs(fdir), logs(qdir)
	names := func(m map[string]int) []string {
		var s []string
		for k := range m {
			s = append(s, k)
		}
		slices.Sort(s)
		return s
	}
	if len(want) != 8 || !slices.Equal(names(want), names(got)) {
		t.Fatalf("logs: qdsweep %v, fio %v; want fio's 8 (iops, clat, lat, slat for each of 2 clones, .127.0.0.1)", got, want)
	}
	for name, n := range want {
		if d := got[name] - n; d < -2 || d > 2 || (n > 0) != (got[name] > 0) {
			t.Errorf("%s: qdsweep %d lines, fio %d", name, got[name], n)
		}
	}
	t.Logf("fio %v; qdsweep %v", want, got)

	// Through fio with servers: refused, nothing written.
	vdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(vdir, "j.fio"), []byte(strings.Replace(job, "[a]\n", "[a]\nioengine=posixaio\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runQdsweep(t, vdir, nil, "run", "--fio-clients="+host, "--allow-write", "--destroy-data="+host+":"+target, "j.fio")
	entries, _ := os.ReadDir(vdir)
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--fio-clients") || stdout != "" || len(entries) != 1 {
		t.Fatalf("a job file through fio with --fio-clients: exit %d, stdout %q, stderr %q, files %v; want exit 2, one line naming --fio-clients, nothing written", code, stdout, stderr, entries)
	}
}
