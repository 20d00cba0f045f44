package fioadapt

import (
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestJobWriterWritesRunOptions: every option the job-file writer writes,
// over workloads that use each of its branches, is one fio's table says
// qdsweep runs (fio.RunOptions, fio.UringOptions): reading and writing a
// job file speak the same listed options.
func TestJobWriterWritesRunOptions(t *testing.T) {
	run := runOptionNames()
	base := ioengine.Workload{Filename: "t.img", RW: ioengine.RandRW, RWMixRead: 70, BS: 4096, IODepth: 8, NumJobs: 2,
		Size: 1 << 20, Offset: 4096, OffsetIncrement: 1 << 20, RandSeed: 7, ContinueOnError: true, Direct: true}
	withSync := base
	withSync.RW, withSync.SyncEvery, withSync.SyncData, withSync.OpenSync = ioengine.Write, 4, true, "dsync"
	withRate := base
	withRate.RateIOPS = [2]float64{100, 50}
	withRate.Files = []string{"a.img", "b.img"}
	withUring := base
	withUring.Uring = ioengine.UringOptions{FixedBufs: ioengine.On, RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 1, HiPri: true, NonVectored: ioengine.On}
	seen := 0
	for _, w := range []ioengine.Workload{base, withSync, withRate, withUring} {
		opts, err := JobOptions(w, 3*time.Second, 500*time.Millisecond, "io_uring")
		if err != nil {
			t.Fatalf("%+v: %v", w, err)
		}
		for _, kv := range append(opts.Global, opts.Job...) {
			seen++
			if !run[kv[0]] {
				t.Errorf("the job writer writes %s=%s, which fio.RunOptions does not list", kv[0], kv[1])
			}
		}
	}
	if seen < 40 {
		t.Errorf("only %d options written over four workloads", seen)
	}
}
