//go:build linux

package fioengine_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestFioRefusesLoopOverMountedLoop: the fio engine, asked with every flag
// to write a loop device attached over a mounted loop device, refuses
// before fio starts; the mounted filesystem's image keeps every byte.
func TestFioRefusesLoopOverMountedLoop(t *testing.T) {
	needFio(t)
	img, lower, upper, _ := looptest.LoopOverMountedLoop(t)
	before := looptest.FileSum(t, img)
	w := ioengine.Workload{Filename: upper, Size: 4 << 20, RW: ioengine.Write, BS: 64 << 10, IODepth: 1, NumJobs: 1, Direct: true,
		Permit: guard.Permit{AllowWriteDevice: true, DestroyData: upper}}
	_, err := fioengine.NewEngine(fioengine.Options{IOEngine: "psync"}).Run(context.Background(), w, ioengine.Control{Runtime: 300 * time.Millisecond})
	if !errors.Is(err, guard.ErrDeviceBusy) {
		t.Errorf("write to %s over the mounted %s: %v, want a busy refusal", upper, lower, err)
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the mounted image changed: sha256 %s → %s", before, after)
	}
}
