package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJobFileVariablesAsFio: a job file's filename with '$' names the
// file fio 3.33 names: ${VAR} from the environment (empty when unset),
// and any other '$' as written ($FOO, $jobnum and $jobname are not
// substituted in a job file), so qdsweep lays out and writes the file
// fio would, never another. Each case runs under fio and under qdsweep in
// a directory of its own; the files each leaves there must be the same.
func TestJobFileVariablesAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	for _, name := range []string{"e.$QDVAR", "e.${QDVAR}x", "e.$QDUNSET.z", "e.${QDUNSET}y", "e.$jobnum.$jobname", "e.$$x", "e.${QDVAR"} {
		t.Run(name, func(t *testing.T) {
			job := "[a]\nfilename=" + name + "\nsize=4k\nrw=write\n"
			f := filesLeft(t, fioBin, job)
			q := filesLeft(t, sweepBinary(t), job, "run")
			t.Logf("fio %v, qdsweep %v", f, q)
			if !slices.Equal(f, q) {
				t.Errorf("filename=%s: fio left %v, qdsweep %v", name, f, q)
			}
		})
	}
}

// filesLeft runs job under bin (after pre) in a directory of its own,
// with QDVAR=bar and QDUNSET unset, and returns the files left there
// besides the job file.
func filesLeft(t *testing.T, bin, job string, pre ...string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "v.fio"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(pre, "v.fio", "--output-format=terse")...)
	cmd.Dir = dir
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "QDVAR=") || strings.HasPrefix(kv, "QDUNSET=")
	}), "QDVAR=bar")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", filepath.Base(bin), err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != "v.fio" {
			names = append(names, e.Name())
		}
	}
	return names
}
