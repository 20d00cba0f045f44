package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFilenamesAddAsFio: each filename= names more files, as in fio 3.33,
// never others: a job's after its [global]'s, a command line's beside a
// job file's, and a second in one section. A job writing a pattern under
// fio and under qdsweep (--allow-write) changes the same files; without
// --allow-write qdsweep refuses, naming the existing file it would
// write. A sweep, which measures one target, refuses such a job file in
// one line unless --filename names the target.
func TestFilenamesAddAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const job = "size=64k\nrw=write\nbuffer_pattern=0xab\n"
	for _, tc := range []struct {
		name, file string
		args       []string
	}{
		{"global and job", "[global]\nfilename=fa\n[a]\nfilename=fb\n" + job, nil},
		{"command line and job file", "[a]\nfilename=fb\n" + job, []string{"--filename=fa"}},
		{"twice in a section", "[a]\nfilename=fa\nfilename=fb\n" + job, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filesWritten(t, fioBin, nil, tc.file, tc.args)
			q := filesWritten(t, sweepBinary(t), []string{"run", "--allow-write"}, tc.file, tc.args)
			if !slices.Equal(f, q) || len(f) != 2 {
				t.Errorf("files written: fio %v, qdsweep %v", f, q)
			}
			dir := layOutFilenames(t, tc.file)
			_, stderr, code := runQdsweep(t, dir, append(append([]string{"run"}, tc.args...), "j.fio")...)
			if code != 2 || !strings.Contains(stderr, "fa already exists") {
				t.Errorf("without --allow-write: exit %d, %q; want exit 2 naming fa", code, stderr)
			}
		})
	}
	dir := layOutFilenames(t, "[global]\nfilename=fa\n[a]\nfilename=fb\nrw=randread\n")
	_, stderr, code := runQdsweep(t, dir, "sweep", "--jobfile=j.fio", "--runtime=100ms", "--iodepth=1")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "fa, fb") {
		t.Errorf("a sweep of a job naming two files: exit %d, %q; want exit 2, one line naming both", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("a refused sweep wrote: %v", entries)
	}
	if _, stderr, code := runQdsweep(t, dir, "sweep", "--jobfile=j.fio", "--filename=fb", "--runtime=100ms", "--iodepth=1", "--output="+t.TempDir()); code != 0 {
		t.Errorf("the fix (--filename=fb): exit %d: %s", code, stderr)
	}
}

// layOutFilenames is a directory with the job file j.fio and two files of
// 64 KiB of zeros, fa and fb.
func layOutFilenames(t *testing.T, file string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"j.fio": []byte(file), "fa": make([]byte, 64<<10), "fb": make([]byte, 64<<10)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// filesWritten runs the job file under bin (pre before it, args after)
// and returns which of fa and fb hold the pattern after it.
func filesWritten(t *testing.T, bin string, pre []string, file string, args []string) []string {
	t.Helper()
	dir := layOutFilenames(t, file)
	cmd := exec.Command(bin, append(append(append([]string{}, pre...), args...), "j.fio", "--output-format=terse")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", filepath.Base(bin), err, out)
	}
	var written []string
	for _, name := range []string{"fa", "fb"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte{0xab, 0xab, 0xab, 0xab}) {
			written = append(written, name)
		}
	}
	return written
}
