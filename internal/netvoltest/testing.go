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
// no loop device (looptest.Skipf: a failure under CI as root).
func Start(t testing.TB, c Config) (dev string, v *Volume) {
	t.Helper()
	looptest.RequireRootTools(t)
	if why := Available(); why != "" {
		looptest.Skipf(t, "%s", why)
	}
	v, err := Mount(t.TempDir(), c)
	if err != nil {
		looptest.Skipf(t, "cannot serve an emulated network volume: %v", err)
	}
	t.Cleanup(func() {
		if err := v.Close(); err != nil {
			t.Error(err)
		}
	})
	return looptest.AttachLoopWith(t, v.File, "-r", "--direct-io=on"), v
}
