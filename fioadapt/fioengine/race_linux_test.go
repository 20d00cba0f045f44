//go:build linux

package fioengine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestFioWritesOnlyTheHeldFile: a sweep's target is held from its first
// open; while fio writes it, the target and a victim swap names every 2 ms
// (renameat2 RENAME_EXCHANGE). fio gets the held descriptor, never the
// path, so the victim's bytes stay as they were (sha256 before and after,
// read through a descriptor of the victim's own) and the held file is
// the one written. A run that starts while the path names the victim is
// refused before fio starts (guard.ErrTargetChanged).
func TestFioWritesOnlyTheHeldFile(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	tgt, vic := filepath.Join(dir, "target"), filepath.Join(dir, "victim")
	const size = 4 << 20
	for _, p := range []string{tgt, vic} {
		looptest.RandomFile(t, p, size)
	}
	victim, err := os.Open(vic) // the victim's inode, whatever its name becomes
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	target, err := os.Open(tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	vicSum, tgtSum := looptest.SumOf(t, victim), looptest.SumOf(t, target)

	w := ioengine.Workload{Filename: tgt, Size: size, RW: ioengine.Write, BS: 64 << 10, IODepth: 1, NumJobs: 1,
		Permit: guard.Permit{AllowWrite: true}}
	held, err := guard.Hold(w.GuardTarget(tgt, true, 0), w.Permit)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	w.Held = held

	stop := looptest.SwapNames(tgt, vic, 2*time.Millisecond)
	e := fioengine.NewEngine(fioengine.Options{IOEngine: "psync"})
	ran, refused := 0, 0
	for i := 0; i < 60 && ran < 3; i++ {
		_, err := e.Run(context.Background(), w, ioengine.Control{Runtime: 200 * time.Millisecond})
		switch {
		case err == nil:
			ran++
		case errors.Is(err, guard.ErrTargetChanged):
			refused++
		default:
			t.Fatalf("run %d: %v", i, err)
		}
	}
	swaps := stop()
	if ran == 0 {
		t.Fatalf("no fio run started in 60 tries (%d refused as swapped)", refused)
	}
	if got := looptest.SumOf(t, victim); got != vicSum {
		t.Fatalf("the victim changed while fio wrote the held target (%d runs, %d refused)", ran, refused)
	}
	if looptest.SumOf(t, target) == tgtSum {
		t.Errorf("the held target is unchanged after %d fio write runs", ran)
	}
	t.Logf("%d fio runs wrote the held file, %d refused as swapped, %d swaps; the victim unchanged", ran, refused, swaps)
}

// TestNoIOIsAnError: a job that cannot do one I/O on a fio server (there a
// write to /proc/version fails with EPERM, the way a device in use fails)
// is an error naming the target and fio's errno, never figures of 0 IOPS.
// The server is reached by fio's own host,port spelling.
func TestNoIOIsAnError(t *testing.T) {
	needFio(t)
	port := freePort(t)
	startServer(t, port)
	clients, err := fio.ReadClients("127.0.0.1," + strconv.Itoa(port))
	if err != nil || len(clients) != 1 {
		t.Fatalf("fio's host,port read as %q, %v; want one server", clients, err)
	}
	e := fioengine.NewEngine(fioengine.Options{Clients: clients, IOEngine: "psync"})
	w := ioengine.Workload{Filename: "/proc/version", Size: 1 << 20, RW: ioengine.Write, BS: 4096, IODepth: 1, NumJobs: 1,
		Permit: guard.Permit{Unchecked: true}}
	st, err := e.Run(context.Background(), w, ioengine.Control{Runtime: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "did no I/O on /proc/version") || st != nil {
		t.Fatalf("a job that did no I/O: stats %+v, err %v; want no stats and an error naming the target", st, err)
	}
	t.Log(err)
}
