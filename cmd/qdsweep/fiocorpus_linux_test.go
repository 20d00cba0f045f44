package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// corpusEnv names a directory of fio's example job files (fio's
// examples/*.fio) for TestFioExamples.
const corpusEnv = "QDSWEEP_FIO_EXAMPLES"

// corpusFileSize is each scratch file's size: the target a rewritten job
// file runs on in place of its device or file.
const corpusFileSize = 16 << 20

// rewriteExample rewrites a fio job file to run here, briefly: every file
// it names becomes a scratch file of dir (laid out at corpusFileSize
// bytes, in place of a device), its directory dir, its runtime 1 s, sizes
// above corpusFileSize that size, and no ramp or start delay. Options
// that name a variable (${VAR}) are left alone. It returns the text and
// the scratch files to lay out.
func rewriteExample(text, dir string) (string, []string) {
	var out strings.Builder
	fmt.Fprintf(&out, "[global]\nruntime=1\nsize=%d\ndirectory=%s\n", corpusFileSize, dir)
	names := map[string]string{}
	var files []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		key, val, ok := strings.Cut(strings.TrimSpace(line), "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || strings.Contains(val, "${") || strings.HasPrefix(key, ";") || strings.HasPrefix(key, "#") {
			out.WriteString(line + "\n")
			continue
		}
		if v, _, cut := strings.Cut(val, ";"); cut {
			val = strings.TrimSpace(v)
		}
		switch fio.OptionName(key) {
		case "filename":
			var parts []string
			for _, f := range fio.SplitFilenames(val) {
				if names[f] == "" {
					names[f] = fmt.Sprintf("file%d", len(names))
					files = append(files, filepath.Join(dir, names[f]))
				}
				parts = append(parts, names[f])
			}
			line = "filename=" + strings.Join(parts, ":")
		case "directory":
			line = "directory=" + dir
		case "runtime":
			line = "runtime=1"
		case "ramp_time", "startdelay":
			line = key + "=0"
		case "size", "io_size", "filesize":
			if n, err := fio.ParseSize(val, fio.KBBase); err != nil || n > corpusFileSize {
				if !strings.HasSuffix(val, "%") {
					line = fmt.Sprintf("%s=%d", key, corpusFileSize)
				}
			}
		case "offset", "offset_increment", "zonesize", "zonerange", "zoneskip":
			// Offsets of a device (offset_increment=124g over 30 jobs)
			// would lay out terabytes: 1 MiB apart here.
			if n, err := fio.ParseSize(val, fio.KBBase); err != nil || n > corpusFileSize {
				if !strings.HasSuffix(val, "%") {
					line = key + "=1m"
				}
			}
		}
		out.WriteString(line + "\n")
	}
	return out.String(), files
}

// corpusResult is what fio and qdsweep did with one example.
type corpusResult struct {
	name     string
	fioOK    bool
	fioErr   string
	qdCode   int
	how      string // native, fio, refused
	reason   string // qdsweep's first line on stderr when it refused
	qdStderr string
}

// runCorpusExample rewrites one example twice (a directory for fio, one
// for qdsweep) and runs it under each.
func runCorpusExample(t *testing.T, fioBin, path string) corpusResult {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := corpusResult{name: filepath.Base(path)}
	run := func(bin string, args ...string) (string, string, int) {
		dir := t.TempDir()
		text, files := rewriteExample(string(b), dir)
		for _, f := range files {
			// Room for a region of corpusFileSize after an offset.
			if err := os.WriteFile(f, make([]byte, 2*corpusFileSize), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		job := filepath.Join(dir, "job.fio")
		if err := os.WriteFile(job, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append(args, job)...)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		// fio's jobs each start a session of their own, outside the group
		// killed above: a hung fio's are found by the job file they run.
		killNaming(job)
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
		}
		return stdout.String(), stderr.String(), code
	}
	_, fe, fc := run(fioBin, "--output-format=json")
	r.fioOK = fc == 0
	r.fioErr = firstLine(fe)
	_, qe, qc := run(sweepBinary(t), "run", "--allow-write", "--output-format=json")
	r.qdCode, r.qdStderr = qc, qe
	switch {
	case qc == 0 && strings.Contains(qe, "through fio"):
		r.how = "fio"
	case qc == 0:
		r.how = "native"
	case qc == 2:
		r.how, r.reason = "refused", firstLine(qe)
	default:
		r.how, r.reason = "failed", firstLine(qe) // ran and failed (or hung, as fio's offload does, and was killed)
	}
	return r
}

// killNaming kills every process whose command line names path.
func killNaming(path string) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), path) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// refusedForSafety reports whether a refusal names an engine qdsweep does
// not let fio run, or an option neither runs (routeRuns' two refusals), or
// a job on which fio would do no I/O (zoned reads of empty zones), or
// exitall over several jobs, which qdsweep runs apart (not yet natively).
func refusedForSafety(reason string) bool {
	return strings.Contains(reason, "qdsweep runs no other fio engine than") || strings.Contains(reason, "nor fio under qdsweep runs these") ||
		strings.Contains(reason, "fio would do no I/O") || strings.Contains(reason, "as fio's exitall does")
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// TestFioExamples runs fio's example job files (fio's examples/*.fio of
// the fio the machine has, fio-3.33 in CI; fio's licence is GPL-2.0, so
// they are not copied here: QDSWEEP_FIO_EXAMPLES names a directory of
// them), each rewritten to scratch files with runtime=1 and run one after
// another under fio and under qdsweep run, and checks that every file fio
// runs, qdsweep runs too (natively, or through fio, saying so in one line),
// unless it refuses an engine or option fio may not run under the write
// guard, naming it, in one line, exit 2. It logs each file's verdicts and
// times (the slow ones run several jobs or groups one after another) and
// the counts.
func TestFioExamples(t *testing.T) {
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		t.Skipf("%s names no directory of fio's example job files", corpusEnv)
	}
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.fio"))
	sort.Strings(paths)
	var results []corpusResult
	for _, p := range paths {
		start := time.Now()
		r := runCorpusExample(t, fioBin, p)
		results = append(results, r)
		t.Logf("%-40s %4.1fs fio=%-5v qdsweep=%-7s %s | %s", r.name, time.Since(start).Seconds(), r.fioOK, r.how, r.reason, r.fioErr)
	}
	counts := map[string]int{}
	fioRuns := 0
	for _, r := range results {
		if r.fioOK {
			fioRuns++
			counts[r.how]++
		}
		switch {
		case r.how == "refused" && (r.qdCode != 2 || strings.Count(strings.TrimSpace(r.qdStderr), "\n") != 0):
			t.Errorf("%s: refused with exit %d in %q; want exit 2 and one line", r.name, r.qdCode, r.qdStderr)
		case r.how == "refused" && r.fioOK && !refusedForSafety(r.reason):
			t.Errorf("%s: fio runs it, and qdsweep refuses it for no engine or option fio may not run here: %s", r.name, r.reason)
		case r.how == "failed" && r.fioOK:
			t.Errorf("%s: fio runs it, and qdsweep failed (exit %d): %s", r.name, r.qdCode, r.qdStderr)
		}
	}
	t.Logf("%d files; fio runs %d; of those qdsweep: native %d, through fio %d, refused %d, failed %d", len(results), fioRuns, counts["native"], counts["fio"], counts["refused"], counts["failed"])
}
