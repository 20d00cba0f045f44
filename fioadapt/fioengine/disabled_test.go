package fioengine_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/ioengine"
)

// ioURingDisabledEnv is set by the CI script while it holds
// kernel.io_uring_disabled at 2 (no process may set up a ring), the state
// of hardened hosts and of containers under a seccomp profile that blocks
// io_uring. The switch is system-wide, so it cannot be flipped inside a
// suite whose other tests use io_uring: the script runs this test on its
// own with the switch set.
const ioURingDisabledEnv = "QDSWEEP_IO_URING_DISABLED"

// TestIOUringDisabledFallsBack runs, with io_uring disabled by the kernel,
// the native engine and the fio engine asked for io_uring: both fall back
// to libaio, say why, and measure.
func TestIOUringDisabledFallsBack(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/kernel/io_uring_disabled")
	if os.Getenv(ioURingDisabledEnv) == "" || err != nil || strings.TrimSpace(string(b)) == "0" {
		t.Skipf("needs kernel.io_uring_disabled set and %s=1 (the CI script runs it so)", ioURingDisabledEnv)
	}
	wl := smallWorkload(target(t))
	ctl := ioengine.Control{Runtime: 200 * time.Millisecond}

	e, reason, err := ioengine.New(ioengine.EngineIOUring)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != ioengine.EngineLibaio || !strings.Contains(reason, "io_uring") {
		t.Fatalf("native engine with io_uring disabled: %s, reason %q; want libaio and why", e.Name(), reason)
	}
	st, err := e.Run(context.Background(), wl, ctl)
	if err != nil || st.All.TotalIOs == 0 {
		t.Fatalf("native fallback run: %v (%+v)", err, st)
	}

	needFio(t)
	st, err = fioengine.NewEngine(fioengine.Options{IOEngine: ioengine.EngineIOUring}).Run(context.Background(), wl, ctl)
	if err != nil {
		t.Fatalf("fio engine asked for io_uring with io_uring disabled: %v", err)
	}
	if st.FioIOEngine != ioengine.EngineLibaio || st.FallbackReason == "" || st.All.TotalIOs == 0 {
		t.Fatalf("fio engine: ran %q, fallback reason %q, %d I/Os; want libaio, a reason, I/O", st.FioIOEngine, st.FallbackReason, st.All.TotalIOs)
	}
	t.Logf("native: %s; fio: ran %s (%s), %.0f IOPS", reason, st.FioIOEngine, st.FallbackReason, st.All.IOPS)
}
