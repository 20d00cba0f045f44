package fioengine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestEngineValuesAsGiven: the job the fio engine hands fio carries the
// values the user wrote (bs=4k, size=8m, rwmixwrite=30), not their
// renderings (4096, 8388608, rwmixread=70), and fio runs it: the real fio,
// behind a script that records its arguments.
func TestEngineValuesAsGiven(t *testing.T) {
	needFio(t)
	fioPath, _ := exec.LookPath("fio")
	dir := t.TempDir()
	argsLog, wrapper := filepath.Join(dir, "args"), filepath.Join(dir, "fio")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + argsLog + "'\nexec '" + fioPath + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	path := target(t)
	jf, _, err := fio.ParseArgs([]string{"--name=j", "--filename=" + path, "--rw=randrw", "--bs=4k", "--size=8m", "--rwmixwrite=30"})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		t.Fatal(err)
	}
	wl := runs[0].Workload
	wl.Permit = guard.Permit{AllowWrite: true}
	e := fioengine.NewEngine(fioengine.Options{Binary: wrapper, IOEngine: ioengine.EnginePsync, Given: runs[0].Given})
	st, err := e.Run(context.Background(), wl, ioengine.Control{Runtime: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st.Read == nil || st.Write == nil {
		t.Fatalf("read %+v write %+v: fio ran no mixed job", st.Read, st.Write)
	}
	b, err := os.ReadFile(argsLog)
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, want := range []string{"--bs=4k", "--size=8m", "--rwmixwrite=30", "--rw=randrw"} {
		if !strings.Contains("\n"+string(b), "\n"+want+"\n") {
			t.Errorf("fio was not given %s: %v", want, args)
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "--rwmixread=") || a == "--bs=4096" {
			t.Errorf("fio was given %s, the rendering, not the value given", a)
		}
	}
}
