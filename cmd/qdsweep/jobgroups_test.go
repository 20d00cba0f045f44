package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/report"
)

// twoGroups is a job file as fio's examples write them: a [global]
// section, comments of both kinds (whole-line and trailing), a variable,
// two sections that run together (a reader beside a writer, on files of
// their own) and a third that waits for them (stonewall) and reads what
// the writer wrote.
const twoGroups = `; two groups, fio style
[global]
bs=${JOB_BS}
direct=1 # O_DIRECT
ioengine=io_uring
size=2m
time_based
runtime=400ms

[reader]
filename=a.dat
rw=randread
iodepth=4

[writer]
filename=b.dat
rw=randwrite
iodepth=2 ; trailing comment

[after]
stonewall
filename=b.dat
rw=read
iodepth=1
`

// TestRunJobFileGroups: every section of a job file is a job; sections run
// together until a stonewall, which waits for them; each job is reported on
// its own, with its name and group, in every output format.
func TestRunJobFileGroups(t *testing.T) {
	dir := t.TempDir()
	job := filepath.Join(dir, "groups.fio")
	if err := os.WriteFile(job, []byte(twoGroups), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JOB_BS", "4k")
	start := time.Now()
	stdout, stderr, code := runQdsweep(t, dir, "run", job, "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The stonewalled group starts when the first has ended: two windows
	// of 400 ms, one after the other.
	if took := time.Since(start); took < 800*time.Millisecond {
		t.Errorf("the run took %v: the stonewalled job did not wait for the first group", took)
	}
	var doc struct {
		Schema string `json:"schema"`
		Jobs   []struct {
			Name    string `json:"name"`
			Group   int    `json:"group"`
			RW      string `json:"rw"`
			IODepth int    `json:"iodepth"`
			BS      int64  `json:"bs"`
			IOs     int64  `json:"total_ios"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	want := []struct {
		name, rw string
		group    int
		depth    int
	}{{"reader", "randread", 0, 4}, {"writer", "randwrite", 0, 2}, {"after", "read", 1, 1}}
	if doc.Schema != report.RunsSchema || len(doc.Jobs) != len(want) {
		t.Fatalf("schema %q with %d jobs; want %s with %d:\n%s", doc.Schema, len(doc.Jobs), report.RunsSchema, len(want), stdout)
	}
	for i, w := range want {
		j := doc.Jobs[i]
		if j.Name != w.name || j.RW != w.rw || j.Group != w.group || j.IODepth != w.depth || j.BS != 4096 || j.IOs == 0 {
			t.Errorf("job %d: %+v; want %s %s group %d iodepth %d, bs 4096 (${JOB_BS}), some I/O", i, j, w.name, w.rw, w.group, w.depth)
		}
	}
	for _, f := range []string{"a.dat", "b.dat"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() != 2<<20 {
			t.Errorf("%s: %v (want it laid out once, 2 MiB)", f, err)
		}
	}

	// fio-json: one document, one entry per job with fio's groupid.
	stdout, stderr, code = runQdsweep(t, dir, "run", job, "--output-format=fio-json", "--allow-write")
	if code != 0 {
		t.Fatalf("fio-json: exit %d: %s", code, stderr)
	}
	var fj struct {
		Jobs []struct {
			Name    string `json:"jobname"`
			GroupID int    `json:"groupid"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &fj); err != nil || len(fj.Jobs) != 3 || fj.Jobs[2].Name != "after" || fj.Jobs[2].GroupID != 1 || fj.Jobs[1].GroupID != 0 {
		t.Fatalf("fio-json jobs %+v (%v)", fj.Jobs, err)
	}
	// terse: a line per job; normal: a block per job headed by its name and group.
	stdout, _, code = runQdsweep(t, dir, "run", job, "--output-format=terse", "--allow-write")
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[2], "3;fio-3.33 (qdsweep ") || strings.Split(lines[2], ";")[2] != "after" {
		t.Fatalf("terse (exit %d):\n%s", code, stdout)
	}
	stdout, _, code = runQdsweep(t, dir, "run", job, "--allow-write")
	for _, head := range []string{"reader: (groupid=0, jobs=1)", "writer: (groupid=0, jobs=1)", "after: (groupid=1, jobs=1)",
		"Run status group 0 (all jobs):", "Run status group 1 (all jobs):"} {
		if code != 0 || !strings.Contains(stdout, head) {
			t.Errorf("normal output lacks %q (exit %d):\n%s", head, code, stdout)
		}
	}
}

// TestRunJobFileRefusesWithReasons: a job file qdsweep cannot run is
// refused in one line naming the option and why, exit 2, nothing written;
// fio's forms that mean one thing qdsweep runs are not refused for syntax.
func TestRunJobFileRefusesWithReasons(t *testing.T) {
	cases := []struct {
		name, file string
		want       string // in the one line; "" runs
	}{
		{"percent offset 0", "[j]\nfilename=f\nsize=1m\noffset=0%\nruntime=100ms\ntime_based\n", ""},
		{"equal range", "[j]\nfilename=f\nsize=1m\nbsrange=4k-4k\nbs=4k,4k\nruntime=100ms\ntime_based\n", ""},
		{"profile option", "[global]\nthreads=1\n[j]\nfilename=f\nsize=1m\nruntime=100ms\ntime_based\n", ""},
		{"size-based with number_ios", "[j]\nfilename=f\nsize=1m\nnumber_ios=10\n", ""},
		{"wait_for", "[a]\nfilename=f\nsize=1m\nnumber_ios=5\n[b]\nwait_for=a\nfilename=f\nsize=1m\nnumber_ios=5\n", ""},
		{"zones", "[j]\nfilename=f\nsize=8z\n", "zones (z)"},
		{"engine that runs commands", "[j]\nfilename=f\nsize=1m\nioengine=exec\n", "ioengine=exec"},
		{"engine before an unset variable", "[j]\nfilename=f\nsize=1m\nbs=${QDSWEEP_TEST_UNSET}\nioengine=filedelete\n", "ioengine=filedelete"},
		{"an unset variable when nothing else refuses", "[j]\nfilename=f\nsize=1m\nbs=${QDSWEEP_TEST_UNSET}\nthinktime=10\n", "QDSWEEP_TEST_UNSET"},
		{"an option that removes the file", "[j]\nfilename=f\nsize=1m\nunlink=1\nbs=4k,8k\n", "unlink=1"},
		{"offload submission, which fio 3.33 hangs on", "[j]\nfilename=f\nsize=1m\nioengine=libaio\nio_submit_mode=offload\nrate_iops=100\n", "io_submit_mode=offload (line 5) (fio 3.33 hangs"},
		{"zoned reads of a file whose zones are empty", "[j]\nfilename=f\nsize=1m\nrw=read\nzonemode=zbd\nzonesize=256k\n", "zonemode=zbd, rw=read with read_beyond_wp=0"},
		{"zoned reads beyond the write pointer", "[j]\nfilename=f\nsize=1m\nrw=read\nzonemode=zbd\nzonesize=256k\nread_beyond_wp=1\n", ""},
		{"exitall over jobs qdsweep runs", "[global]\nfilename=f\nsize=1m\nexitall\nexit_what=stonewall\n[a]\nnumber_ios=10\n[b]\nruntime=10\ntime_based\n", ""},
		{"exitall over jobs fio runs, as one fio", "[global]\nfilename=f\nsize=1m\nioengine=posixaio\nexitall\nexit_what=stonewall\n[a]\nnumber_ios=10\n[b]\nruntime=10\ntime_based\n", ""},
		{"exitall of a single job", "[j]\nfilename=f\nsize=1m\nexitall=1\nnumber_ios=10\n", ""},
		{"steady state of each clone apart, through fio (whole: fio tests each)", "[j]\nfilename=f\nsize=1m\nioengine=posixaio\nnumjobs=2\nsteadystate=iops:5%\nss_dur=2\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			job := filepath.Join(dir, "j.fio")
			if err := os.WriteFile(job, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runQdsweep(t, dir, "run", job, "--output-format=qdsweep-json")
			if tc.want == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				return
			}
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Fatalf("exit %d, %q; want exit 2 and one line naming %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
				t.Fatalf("a refused job file laid out its target")
			}
		})
	}
}

// TestRunSeveralJobFiles: job files named one after another run one after
// another (each file's groups after the one before, as fio), --section
// picks among all of them, and a section none has is named with those
// there are.
func TestRunSeveralJobFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.fio": "[global]\nsize=1m\nnumber_ios=8\n[a1]\nfilename=fa\n[a2]\nfilename=fa\n",
		"b.fio": "[b1]\nfilename=fb\nsize=1m\nnumber_ios=8\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code := runQdsweep(t, dir, "run", "a.fio", "b.fio", "--output-format=terse")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		f := strings.Split(l, ";")
		got = append(got, f[2]+"/"+f[3])
	}
	if strings.Join(got, " ") != "a1/0 a2/0 b1/1" {
		t.Errorf("jobs/groups %v; want a1/0 a2/0 b1/1", got)
	}
	stdout, _, code = runQdsweep(t, dir, "run", "a.fio", "b.fio", "--section=b1", "--section=a2", "--output-format=terse")
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 2 || !strings.Contains(lines[0], ";a2;") || !strings.Contains(lines[1], ";b1;") {
		t.Errorf("--section a2, b1 (exit %d):\n%s", code, stdout)
	}
	_, stderr, code = runQdsweep(t, dir, "run", "a.fio", "b.fio", "--section=zz")
	if code != 2 || !strings.Contains(stderr, "[zz]") || !strings.Contains(stderr, "a1, a2, b1") {
		t.Errorf("--section=zz: exit %d, %q", code, stderr)
	}
}

// TestRunGroupReporting: group_reporting reports a group's jobs as one (its
// I/Os added up, fio's groupid, the first job's name), jobs of different
// depths too, as fio 3.33 does (one terse line).
func TestRunGroupReporting(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	alike := write("alike.fio", "[global]\ngroup_reporting\nsize=1m\nnumber_ios=50\niodepth=2\nioengine=libaio\ndirect=1\n[a]\nfilename=fa\nrw=randread\n[b]\nfilename=fb\nrw=randwrite\n")
	stdout, stderr, code := runQdsweep(t, dir, "run", alike, "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Jobs []struct {
			Name     string `json:"name"`
			RW       string `json:"rw"`
			NumJobs  int    `json:"numjobs"`
			TotalIOs int64  `json:"total_ios"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if j := doc.Jobs[0]; j.Name != "a" || j.RW != "randrw" || j.NumJobs != 2 || j.TotalIOs != 100 {
		t.Errorf("group %+v; want a's name, randrw, 2 jobs, 100 I/Os (50 each)", j)
	}
	differ := write("differ.fio", strings.Replace(string(mustRead(t, alike)), "[b]\n", "[b]\niodepth=4\n", 1))
	stdout, _, code = runQdsweep(t, dir, "run", differ, "--output-format=terse", "--allow-write")
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "3;") || strings.Split(lines[0], ";")[2] != "a" {
		t.Errorf("jobs of different depths: exit %d, %q; want one line, job a's, as fio's", code, lines)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
