//go:build linux && !386 && !arm && !mips && !mipsle

package netvoltest

import (
	"testing"

	"github.com/qdsweep/qdsweep/internal/looptest"
)

// Start mounts c in a temporary directory and attaches a read-only loop
// device with direct I/O over its file; both are undone in t.Cleanup (the
// loop device detached first, then the volume unmounted), whether the test
// passed or not. It skips, saying why, where there is no FUSE, no root or
// no loop device (the loop device's absence, as looptest.Skipf, a
// failure under CI as root).
func Start(t testing.TB, c Config) (dev string, v *Volume) {
	t.Helper()
	looptest.RequireRootTools(t)
	// A machine without FUSE skips, under CI too (a container may lack
	// /dev/fuse where it has loop devices).
	if why := Available(); why != "" {
		t.Skip(why)
	}
	v, err := Mount(t.TempDir(), c)
	if err != nil {
		t.Skipf("cannot serve an emulated network volume: %v", err)
	}
	t.Cleanup(func() {
		if err := v.Close(); err != nil {
			t.Error(err)
		}
	})
	return looptest.AttachLoopWith(t, v.File, "-r", "--direct-io=on"), v
}
