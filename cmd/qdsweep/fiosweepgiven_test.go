package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepThroughFioAsGiven: a sweep through the fio engine hands fio
// each step's values as the user gave them (--bs=4k,8k: bs=4k for one
// curve, bs=8k for the other, never 4096 or 8192), as run does; the real
// fio runs them, behind a script on PATH that records its arguments.
func TestSweepThroughFioAsGiven(t *testing.T) {
	fioPath, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio not installed")
	}
	dir := t.TempDir()
	bin, argsLog := filepath.Join(dir, "bin"), filepath.Join(dir, "args")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + argsLog + "'\nexec '" + fioPath + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "fio"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	_, stderr, code := runQdsweep(t, dir, "sweep", "--ioengine=fio", "--filename=f", "--rw=randread", "--bs=4k,8k",
		"--iodepth=1", "--runtime=300ms", "--ramp_time=0", "--ss=0", "--output=res", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(argsLog)
	if err != nil {
		t.Fatal(err)
	}
	args := "\n" + string(b)
	for _, want := range []string{"--bs=4k", "--bs=8k", "--rw=randread"} {
		if !strings.Contains(args, "\n"+want+"\n") {
			t.Errorf("fio was never given %s", want)
		}
	}
	for _, not := range []string{"--bs=4096", "--bs=8192"} {
		if strings.Contains(args, "\n"+not+"\n") {
			t.Errorf("fio was given %s, the rendering, not the value given", not)
		}
	}
}
