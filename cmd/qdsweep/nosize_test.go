package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fioOrSkip is the installed fio; the test is skipped without one, and
// fails under CI, which installs it.
func fioOrSkip(t *testing.T) string {
	t.Helper()
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed (.ci/run installs it)")
		}
		t.Skip("fio is not installed")
	}
	return fioBin
}

// TestNoSizeAsFio runs jobs that give no size= under fio 3.33 and under
// qdsweep run, each in a fresh directory holding one 64 KiB file B: a job
// whose file neither exists nor is laid out by an earlier job fio refuses
// ("you need to specify size=", exit 1 after the other jobs ran) and
// qdsweep refuses before anything runs (exit 2, one line, nothing
// created); the jobs fio accepts (filesize=, an existing file whole or its
// N%, a file an earlier job lays out) run under both and leave the same
// files.
func TestNoSizeAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	cases := []struct {
		name    string
		args    []string
		file    string // a job file instead of args
		refused bool
	}{
		{"second-job-no-size", []string{"--name=a", "--filename=B", "--size=64k", "--rw=write", "--name=b", "--bs=8k"}, "", true},
		{"io_size-only", []string{"--name=b", "--bs=8k", "--io_size=64k", "--rw=write"}, "", true},
		{"io_size-percent", []string{"--name=b", "--bs=8k", "--io_size=50%", "--rw=write"}, "", true},
		{"size-percent-missing", []string{"--name=b", "--bs=8k", "--size=50%", "--rw=write"}, "", true},
		{"named-missing-file", []string{"--name=b", "--bs=8k", "--filename=zz", "--rw=write"}, "", true},
		{"jobfile-section-no-size", nil, "[global]\nbs=8k\nrw=write\n[a]\nfilename=B\nsize=64k\n[b]\n", true},
		{"filesize", []string{"--name=b", "--bs=8k", "--filesize=64k", "--rw=write"}, "", false},
		{"existing-file", []string{"--name=a", "--filename=B", "--rw=read"}, "", false},
		{"existing-file-percent", []string{"--name=a", "--filename=B", "--size=50%", "--rw=read"}, "", false},
		{"laid-out-by-earlier-job", []string{"--name=a", "--filename=X", "--size=64k", "--rw=write", "--name=b", "--filename=X", "--rw=read"}, "", false},
		{"jobfile-earlier-job-name", nil, "[a]\nsize=64k\nrw=write\n[b]\nfilename=a.0.0\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fioRC, fioFiles := noSizeRun(t, fioBin, nil, c.args, c.file)
			_, stderr, rc, files := noSizeRunQdsweep(t, c.args, c.file)
			t.Logf("fio rc %d files %v; qdsweep rc %d files %v", fioRC, fioFiles, rc, files)
			if !c.refused {
				if fioRC != 0 || rc != 0 || !slices.Equal(fioFiles, files) {
					t.Errorf("fio rc %d left %v; qdsweep rc %d left %v\n%s", fioRC, fioFiles, rc, files, stderr)
				}
				return
			}
			if fioRC != 1 || !slices.Equal(files, []string{"B 65536"}) || rc != 2 {
				t.Errorf("fio rc %d (want 1); qdsweep rc %d (want 2), left %v (want only B)\n%s", fioRC, rc, files, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, "size=") || !strings.Contains(stderr, "job b") {
				t.Errorf("want one line naming job b and size=:\n%s", stderr)
			}
		})
	}
}

// noSizeRunQdsweep runs the case under qdsweep run (writes allowed).
func noSizeRunQdsweep(t *testing.T, args []string, file string) (string, string, int, []string) {
	t.Helper()
	dir := noSizeDir(t, file)
	if file != "" {
		args = []string{"job.fio"}
	}
	stdout, stderr, rc := runQdsweep(t, dir, append([]string{"run", "--allow-write", "--output-format=terse"}, args...)...)
	return stdout, stderr, rc, dirFiles(t, dir)
}

// noSizeRun runs the case under fio and returns its exit code and the
// files left.
func noSizeRun(t *testing.T, bin string, pre, args []string, file string) (int, []string) {
	t.Helper()
	dir := noSizeDir(t, file)
	if file != "" {
		args = []string{"job.fio"}
	}
	cmd := exec.Command(bin, append(append(pre, "--output-format=terse"), args...)...)
	cmd.Dir = dir
	rc := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		rc = ee.ExitCode()
	}
	return rc, dirFiles(t, dir)
}

// noSizeDir is a fresh directory with a 64 KiB file B, and the job file.
func noSizeDir(t *testing.T, file string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "B"), make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// dirFiles lists dir's files but the job file, each with its size.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if e.Name() == "job.fio" {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %d", e.Name(), fi.Size()))
	}
	return out
}
