//go:build linux

package guard

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// What a run needs from the process limits, measured on linux/amd64: the Go
// runtime alone reserves about 1.5 GiB of address space at start (under
// less it aborts before any qdsweep code runs, which no check can turn into
// one line), each job adds its OS thread's stack and its ring, and every I/O
// in flight has its buffer. Each job holds a few descriptors (target, ring,
// event), besides the runtime's, stdio, the results directory and telemetry.
const (
	baseAddressSpace   = 2 << 30  // bytes
	perJobAddressSpace = 16 << 20 // bytes
	baseFiles          = 64
	perJobFiles        = 4
)

// CheckLimits compares n with RLIMIT_AS (ulimit -v) and RLIMIT_NOFILE
// (ulimit -n, whose soft limit the Go runtime already raised to the hard
// one). The error wraps ErrLimit, names the limit, its value, what the run
// needs and the ulimit that fixes it.
func CheckLimits(n Need) error {
	var as unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &as); err == nil && as.Cur != unix.RLIM_INFINITY {
		need := uint64(baseAddressSpace) + uint64(n.Jobs)*perJobAddressSpace + uint64(max(n.BufferBytes, 0))
		if as.Cur < need {
			return fmt.Errorf("%w: the address-space limit (ulimit -v) is %d KiB and this run needs about %d KiB (the Go runtime reserves ~1.5 GiB up front, plus buffers); raise it, e.g. ulimit -v %d or ulimit -v unlimited",
				ErrLimit, as.Cur>>10, need>>10, roundKiB(need))
		}
	}
	var nf unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &nf); err == nil && nf.Cur != unix.RLIM_INFINITY {
		need := uint64(baseFiles + perJobFiles*max(n.Jobs, 0))
		if nf.Cur < need {
			return fmt.Errorf("%w: the open-file limit (ulimit -n) is %d and this run needs %d descriptors; raise it, e.g. ulimit -n %d",
				ErrLimit, nf.Cur, need, max(need, 1024))
		}
	}
	return nil
}

// roundKiB rounds bytes up to a round number of KiB for the suggested ulimit -v.
func roundKiB(b uint64) uint64 {
	const step = 1 << 20 // KiB: suggest whole GiB
	k := b >> 10
	return (k + step - 1) / step * step
}
