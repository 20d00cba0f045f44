package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobOptionsListedAsFio: fio's JSON lists under "job options" and
// "global options" what fio 3.33 lists there, compared with fio itself on
// the same job file and command line: the options given with a value, as
// written; not a switch given bare (time_based, norandommap,
// group_reporting), nor an option of fio's command line alone (eta); and
// no "global options" at all when none were given; an entry of several
// jobs (group_reporting) lists its last job's, under its first job's name.
func TestJobOptionsListedAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	file := "[global]\ntime_based\nruntime=100ms\nbs=4k\n[x]\nfilename=data\nsize=64k\nnorandommap\nrw=randread\ngroup_reporting=1\n[y]\nfilename=data\nsize=32k\ngroup_reporting\nrandrepeat=0\n"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"job file", []string{"j.fio"}},
		{"job file, one section (--section)", []string{"j.fio", "--section=x"}},
		{"command line", []string{"--name=x", "--filename=data", "--size=64k", "--rw=randread", "--time_based", "--runtime=100ms",
			"--norandommap", "--group_reporting", "--eta=never", "--kb_base=1024"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := listedOptions(t, fioBin, nil, file, tc.args)
			q := listedOptions(t, sweepBinary(t), []string{"run"}, file, tc.args)
			t.Logf("fio %s\nqdsweep %s", f, q)
			if f != q {
				t.Errorf("options listed:\nfio:     %s\nqdsweep: %s", f, q)
			}
		})
	}
}

// listedOptions runs args under bin (after pre) beside the job file j.fio
// and a 64 KiB data file, and returns the JSON's "global options" (or its
// absence) and each job's "job options", keys sorted.
func listedOptions(t *testing.T, bin string, pre []string, file string, args []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(append(append([]string{}, pre...), args...), "--output-format=json")...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v: %s", filepath.Base(bin), err, stderr.String())
	}
	var doc struct {
		Global *map[string]string `json:"global options"`
		Jobs   []struct {
			Name    string            `json:"jobname"`
			Options map[string]string `json:"job options"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%s's JSON: %v", filepath.Base(bin), err)
	}
	s := "global: absent"
	if doc.Global != nil {
		s = fmt.Sprintf("global: %v", *doc.Global) // fmt sorts a map's keys
	}
	for _, j := range doc.Jobs {
		if j.Name != "" {
			s += fmt.Sprintf("; %s: %v", j.Name, j.Options)
		}
	}
	return s
}
