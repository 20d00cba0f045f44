//go:build linux

package fioengine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestHungFioStopped: fio and its two forked jobs, all stopped (SIGSTOP) as
// a hung fio would be, are stopped once the run outlives its runtime and
// grace: the run fails naming the hang, and no process of the run is left.
func TestHungFioStopped(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed: this test stops a run of fio 3.33 (CI installs it)")
	}
	f := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(f, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Options{IOEngine: ioengine.EnginePsync, HangGrace: time.Second, KillWait: time.Second})
	w := ioengine.Workload{Filename: f, Size: 4 << 20, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 2}
	done := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), w, ioengine.Control{Runtime: 3 * time.Second})
		done <- err
	}()
	var entry string
	var pids []int
	for deadline := time.Now().Add(2 * time.Minute); len(pids) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("fio and its 2 jobs never ran: %v", pids)
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended before fio and its 2 jobs were seen (%v): %v", pids, err)
		default:
		}
		running.Lock()
		for mark := range running.runs {
			entry = runEnv + "=" + mark
		}
		running.Unlock()
		if entry != "" {
			pids = markedProcs(entry)
		}
	}
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGSTOP)
	}
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "fio hung") {
		t.Fatalf("a hung fio's run ended with %v", err)
	}
	if left := markedProcs(entry); len(left) > 0 {
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
		t.Fatalf("processes %v of the hung run were left", left)
	}
}
