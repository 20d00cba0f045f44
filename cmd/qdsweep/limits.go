package main

import (
	"fmt"
	"os"

	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/sweep"
)

// A process started under limits too tight for any run stops here with one
// line and exit 1, before a command can fail halfway (or the runtime abort
// with a stack trace when an allocation or a descriptor is refused).
func init() {
	if err := guard.CheckLimits(guard.Need{}); err != nil {
		fmt.Fprintln(os.Stderr, "qdsweep: "+err.Error())
		os.Exit(1)
	}
}

// checkRunLimits checks the process limits against the largest step of a
// run: jobs parallel jobs, each with iodepth buffers of bs bytes. The error
// is a runtime error (exit 1) with one line.
func checkRunLimits(jobs, iodepth int, bs int64) error {
	return guard.CheckLimits(guard.Need{Jobs: jobs, BufferBytes: int64(jobs) * int64(iodepth) * bs})
}

// checkSweepLimits is checkRunLimits for the deepest step of a plan.
func checkSweepLimits(p sweep.Plan) error {
	jobs, depth, bs := 1, 1, int64(0)
	for _, n := range p.NumJobs {
		jobs = max(jobs, n)
	}
	for _, d := range p.IODepth {
		depth = max(depth, d)
	}
	for _, b := range p.BS {
		bs = max(bs, b)
	}
	return checkRunLimits(jobs, depth, bs)
}
