package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJobFileEdgesAsFio runs job files and command lines at the edges of
// fio 3.33's reader under fio and under qdsweep run, each in a fresh
// directory holding a file f of the case's size (all zeros), and compares
// each job's I/Os and bytes per direction, the blocks of f written (to
// 512 bytes) and the files left, and the percentiles reported: sizes
// with a leading 0 are decimal; offset=N% and offset_increment=N% are N%
// of f's size in whole bytes, each job's start rounded up to the smallest
// block size (offset=10% of 1,000,000 bytes starts at 102,400: 219 reads
// to f's end, where qdsweep rounded down to 98,304 and did 220); with
// no size each job covers f from its own start to its end (244, 219 and
// 195 reads, where qdsweep gave each the last job's 196); each loop of
// a job with skips and both directions (rw=rw:8k) is a pass from the
// region's start that ends with the first direction past its end (172
// writes over two loops of 1 MiB, where qdsweep wrapped on to 344); a
// target yet to be laid out is 0 bytes to them, and fio's clones take
// their share one after another (clone 0, then the last back to clone 1),
// each of the file as those before laid it out (offset=50%, size=64k,
// numjobs=3: 114,688 bytes, where qdsweep started all at 0), as a later
// job does of the file an earlier one lays out; size=N% is each job's
// share cut at f's end from its own start (size=90%, offset_increment=10%,
// numjobs=3: 219, 219 and 195 reads, where qdsweep refused the job); offset=-1m, 2m-1m,
// 1m:2m and 3m,2m keep their last piece, as fio's parser does; a
// percentile_list of 22 values reports its first 20; an included file
// that holds a section (itself or through its own include) counts for
// nothing, its options included, and ends the section it stands in: job
// b is not run and an option after the include fails the file.
func TestJobFileEdgesAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const mb = 1 << 20
	cases := []struct {
		name  string
		fsize int64    // f's size before the run (0: no f)
		args  []string // the command line, or with job the job file's
		job   string   // job.fio's text ("": none)
		files map[string]string
		// refused: fio fails it before any I/O (exit 1) and qdsweep
		// refuses it (exit 2, one line), each leaving the files as they were.
		refused bool
	}{
		{"leading-zero-sizes", mb, []string{"--name=a", "--filename=f", "--size=0100k", "--bs=010k", "--offset=010k", "--rw=write"}, "", nil, false},
		{"leading-zero-jobfile", mb, nil, "[a]\nfilename=f\nsize=064k\nbs=04k\noffset=0100\nrw=write\nnumjobs=02\n", nil, false},
		{"offset-percent-to-end", 1000000, []string{"--name=a", "--filename=f", "--offset=10%", "--rw=read"}, "", nil, false},
		{"offset-percent-rounds-up", 1000000, []string{"--name=a", "--filename=f", "--size=8k", "--bs=8k", "--offset=10%", "--rw=write"}, "", nil, false},
		{"offset-percent-smallest-bs", 1000000, []string{"--name=a", "--filename=f", "--size=64k", "--bs=8k,4k", "--offset=33%", "--rw=write"}, "", nil, false},
		{"offset-percent-missing-file", 0, []string{"--name=a", "--filename=f", "--size=64k", "--offset=10%", "--rw=write"}, "", nil, false},
		{"offset_increment-percent", 1000000, []string{"--name=a", "--filename=f", "--size=8k", "--offset_increment=10%", "--numjobs=3", "--rw=write"}, "", nil, false},
		{"offset-and-increment-percent", 1000000, []string{"--name=a", "--filename=f", "--size=8k", "--offset=10%", "--offset_increment=15%", "--numjobs=2", "--rw=write"}, "", nil, false},
		{"offset_increment-percent-jobfile", 4 * mb, nil, "[a]\nfilename=f\nsize=64k\noffset_increment=25%\nnumjobs=4\nrw=write\n", nil, false},
		{"offset_increment-no-size", 1000000, []string{"--name=a", "--filename=f", "--offset_increment=10%", "--numjobs=3", "--rw=read"}, "", nil, false},
		{"offset_increment-no-size-write", 1000000, []string{"--name=a", "--filename=f", "--offset_increment=100k", "--numjobs=3", "--rw=write"}, "", nil, false},
		{"loops-skips-mixed", 8 * mb, []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--loops=2", "--rw=rw:8k", "--rwmixread=0"}, "", nil, false},
		{"offset_increment-percent-missing-file", 0, []string{"--name=a", "--filename=f", "--size=1m", "--offset_increment=25%", "--numjobs=4", "--rw=write"}, "", nil, false},
		{"offset-percent-missing-file-numjobs", 0, []string{"--name=a", "--filename=f", "--size=64k", "--offset=50%", "--numjobs=3", "--rw=write"}, "", nil, false},
		{"later-job-reaches-past", 0, nil, "[a]\nfilename=f\nsize=64k\nrw=read\n[b]\nfilename=f\noffset=32k\nsize=64k\nrw=read\n", nil, false},
		{"offset-percent-file-laid-before", 0, nil, "[a]\nfilename=f\nsize=1m\nrw=read\n[b]\nfilename=f\nsize=64k\noffset=50%\nrw=write\n", nil, false},
		{"size-percent-offset_increment", 1000000, []string{"--name=a", "--filename=f", "--size=90%", "--offset_increment=10%", "--numjobs=3", "--rw=read"}, "", nil, false},
		{"size-percent-offset-and-increment", 1000000, nil, "[a]\nfilename=f\nsize=80%\noffset=10%\noffset_increment=10%\nnumjobs=3\nrw=write\n", nil, false},
		{"offset-negative", 4 * mb, []string{"--name=a", "--filename=f", "--size=8k", "--offset=-1m", "--rw=write"}, "", nil, false},
		{"offset-difference", 4 * mb, []string{"--name=a", "--filename=f", "--size=8k", "--offset=2m-1m", "--rw=write"}, "", nil, false},
		{"offset-colon", 4 * mb, []string{"--name=a", "--filename=f", "--size=8k", "--offset=1m:2m", "--rw=write"}, "", nil, false},
		{"offset-comma-jobfile", 4 * mb, nil, "[a]\nfilename=f\nsize=8k\noffset=3m,2m\nrw=write\n", nil, false},
		{"offset-negative-percent", 4 * mb, []string{"--name=a", "--filename=f", "--size=8k", "--offset=-10%", "--rw=write"}, "", nil, false},
		{"percentile_list-22", mb, []string{"--name=a", "--filename=f", "--size=64k", "--rw=read", "--percentile_list=" + percentileList(22)}, "", nil, false},
		{"include-with-section", mb, nil, "[a]\nfilename=f\nrw=write\nsize=8k\ninclude inc.fio\n[c]\nfilename=f\noffset=64k\nsize=4k\nrw=write\n", incSections, false},
		{"include-with-section-drops-options", 64 << 10, nil, "[a]\nfilename=f\nrw=write\ninclude inc.fio\n", incSections, false},
		{"include-nested-section", mb, nil, "[a]\nfilename=f\nrw=write\nsize=8k\ninclude outer.fio\n", mapWith(incSections, "outer.fio", "bs=8k\ninclude inc.fio\n"), false},
		{"option-after-include-with-section", mb, nil, "[a]\nfilename=f\nrw=write\nsize=8k\ninclude inc.fio\nbs=8k\n", incSections, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := edgeRun(t, fioBin, nil, c.fsize, c.args, c.job, c.files)
			q := edgeRun(t, sweepBinary(t), []string{"run", "--allow-write"}, c.fsize, c.args, c.job, c.files)
			t.Logf("fio: %v\nqdsweep: %v", f, q)
			if c.refused {
				if f.rc != 1 || q.rc != 2 || len(f.written)+len(q.written) > 0 || strings.Count(strings.TrimSpace(q.stderr), "\n") > 0 {
					t.Errorf("want fio to fail (rc %d) and qdsweep to refuse in one line (rc %d), neither writing:\n%s", f.rc, q.rc, q.stderr)
				}
				return
			}
			if f.rc != 0 || q.rc != 0 {
				t.Fatalf("fio rc %d, qdsweep rc %d\nfio: %s\nqdsweep: %s", f.rc, q.rc, f.stderr, q.stderr)
			}
			if !slices.Equal(f.jobs, q.jobs) || !slices.Equal(f.written, q.written) || !slices.Equal(f.files, q.files) || !slices.Equal(f.pcts, q.pcts) {
				t.Errorf("fio and qdsweep differ:\nfio     %v\nqdsweep %v", f, q)
			}
		})
	}
}

// incSections is an included file holding options and a section of its
// own, which fio reads nothing of.
var incSections = map[string]string{"inc.fio": "size=64k\nbs=8k\n[b]\nfilename=f\nsize=16k\nrw=write\n"}

// percentileList is "1:2:…:n".
func percentileList(n int) string {
	var ps []string
	for i := 1; i <= n; i++ {
		ps = append(ps, fmt.Sprint(i))
	}
	return strings.Join(ps, ":")
}

// edgeResult is what one run of an edge case did.
type edgeResult struct {
	rc      int
	stderr  string
	jobs    []string // "reads bytes writes bytes" per job, sorted
	written []string // the runs of f's non-zero 512-byte blocks
	files   []string // the files left, with their sizes
	pcts    []string // the first job's read or write percentiles
}

func (r edgeResult) String() string {
	return fmt.Sprintf("jobs %v written %v files %v percentiles %v", r.jobs, r.written, r.files, r.pcts)
}

// edgeRun runs a case under bin (after pre) in a fresh directory.
func edgeRun(t *testing.T, bin string, pre []string, fsize int64, args []string, job string, files map[string]string) edgeResult {
	t.Helper()
	dir := t.TempDir()
	if fsize > 0 {
		if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(filepath.Join(dir, "f"), fsize); err != nil {
			t.Fatal(err)
		}
	}
	if job != "" {
		files = mapWith(files, "job.fio", job)
		args = append(slices.Clone(args), "job.fio")
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, append(append(slices.Clone(pre), "--output-format=json"), args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := edgeResult{stderr: stderr.String()}
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		r.rc = ee.ExitCode()
	}
	r.stderr = stderr.String()
	r.jobs, r.pcts = edgeJobs(t, stdout.Bytes())
	r.written = writtenRuns(t, filepath.Join(dir, "f"))
	for _, e := range dirFiles(t, dir) {
		if name, _, _ := strings.Cut(e, " "); files[name] == "" {
			r.files = append(r.files, e)
		}
	}
	return r
}

// mapWith is m with k set to v (m unchanged).
func mapWith(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for a, b := range m {
		out[a] = b
	}
	return out
}

// edgeJobs reads each job's I/Os and bytes per direction from a JSON
// report, and the first job's completion percentiles (of its reads, else
// its writes).
func edgeJobs(t *testing.T, out []byte) (jobs, pcts []string) {
	t.Helper()
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return nil, nil
	}
	type dir struct {
		TotalIOs int64 `json:"total_ios"`
		IOBytes  int64 `json:"io_bytes"`
		Clat     struct {
			Percentile map[string]float64 `json:"percentile"`
		} `json:"clat_ns"`
	}
	var doc struct {
		Jobs []struct{ Read, Write dir } `json:"jobs"`
	}
	if err := json.Unmarshal(out[i:], &doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	for k, j := range doc.Jobs {
		jobs = append(jobs, fmt.Sprintf("r %d/%d w %d/%d", j.Read.TotalIOs, j.Read.IOBytes, j.Write.TotalIOs, j.Write.IOBytes))
		if k > 0 {
			continue
		}
		p := j.Read.Clat.Percentile
		if j.Read.TotalIOs == 0 {
			p = j.Write.Clat.Percentile
		}
		for key := range p {
			pcts = append(pcts, key)
		}
	}
	slices.Sort(jobs)
	slices.Sort(pcts)
	return jobs, pcts
}

// writtenRuns lists the runs of non-zero 512-byte blocks of path as
// "start-end" byte ranges (nil when path does not exist).
func writtenRuns(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	start := -1
	for off := 0; off <= len(data); off += 512 {
		nonzero := off < len(data) && slices.ContainsFunc(data[off:min(off+512, len(data))], func(b byte) bool { return b != 0 })
		switch {
		case nonzero && start < 0:
			start = off
		case !nonzero && start >= 0:
			runs = append(runs, fmt.Sprintf("%d-%d", start, off))
			start = -1
		}
	}
	return runs
}

// TestSweepJobFileIncludeNoteAsRun: a sweep's --jobfile that includes a
// file holding a section is read as run reads it, and says so in run's
// words, where fio says "No new sections in included files": the same
// note under qdsweep sweep as under qdsweep run, which the sweep did not
// say.
func TestSweepJobFileIncludeNoteAsRun(t *testing.T) {
	fioBin := fioOrSkip(t)
	dir := t.TempDir()
	files := mapWith(incSections, "job.fio", "[a]\nfilename=f\nrw=read\nsize=64k\ninclude inc.fio\n")
	files["f"] = string(make([]byte, 1<<20))
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fioCmd := exec.Command(fioBin, "--output-format=terse", "job.fio")
	fioCmd.Dir = dir
	fioOut, err := fioCmd.CombinedOutput()
	if err != nil || !strings.Contains(string(fioOut), "No new sections in included files") {
		t.Fatalf("fio does not say it drops the include (%v):\n%s", err, fioOut)
	}
	note := func(stderr string) string {
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "no new sections in included files") {
				return l
			}
		}
		return ""
	}
	qd := func(args ...string) (string, error) {
		cmd := exec.Command(sweepBinary(t), args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	runErr, err := qd("run", "--output-format=terse", "job.fio")
	if err != nil || note(runErr) == "" {
		t.Fatalf("run: %v, no note of the include:\n%s", err, runErr)
	}
	sweepErr, err := qd("sweep", "--jobfile=job.fio", "--output=out", "--runtime=200ms", "--ramp_time=0", "--iodepth=1", "--ss=0")
	if err != nil || note(sweepErr) != note(runErr) {
		t.Errorf("sweep: %v, its note %q, run's %q:\n%s", err, note(sweepErr), note(runErr), sweepErr)
	}
}
