//go:build linux

package ioengine_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestEnginesRefuseLoopOverMountedLoop: every kernel engine, asked with
// every flag to write a loop device attached over a mounted loop device,
// refuses before any I/O, and the mounted filesystem's image keeps every
// byte (the row that destroyed an ext4: losetup B A while A is mounted).
func TestEnginesRefuseLoopOverMountedLoop(t *testing.T) {
	img, lower, upper, _ := looptest.LoopOverMountedLoop(t)
	before := looptest.FileSum(t, img)
	for _, name := range []string{ioengine.EngineIOUring, ioengine.EngineLibaio, ioengine.EnginePsync} {
		eng, _, err := ioengine.New(name)
		if err != nil {
			t.Logf("engine %s: %v", name, err)
			continue
		}
		w := ioengine.Workload{Filename: upper, Size: 4 << 20, RW: ioengine.Write, BS: 64 << 10, IODepth: 1, NumJobs: 1, Direct: true,
			Permit: guard.Permit{AllowWriteDevice: true, DestroyData: upper}}
		_, err = eng.Run(context.Background(), w, ioengine.Control{Runtime: 300 * time.Millisecond})
		if !errors.Is(err, guard.ErrDeviceBusy) || !errors.Is(err, guard.ErrWriteRefused) {
			t.Errorf("%s: write to %s over the mounted %s: %v, want a busy refusal", name, upper, lower, err)
		}
	}
	if after := looptest.FileSum(t, img); after != before {
		t.Errorf("the mounted image changed: sha256 %s → %s", before, after)
	}
}
