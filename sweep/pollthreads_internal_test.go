package sweep

import (
	"testing"

	"github.com/qdsweep/qdsweep/ioengine"
)

// TestPollThreads: the io_uring options a sweep records are read back
// through the engine's own reader: sqthread_poll=1 alone, among others, or
// with a pinned CPU is a polling thread; none, =0 or a pinned CPU alone is
// not.
func TestPollThreads(t *testing.T) {
	for _, o := range []struct {
		opts ioengine.UringOptions
		want bool
	}{
		{ioengine.UringOptions{}, false},
		{ioengine.UringOptions{SQThreadPoll: true}, true},
		{ioengine.UringOptions{SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 1, HiPri: true}, true},
		{ioengine.UringOptions{SQThreadPin: true, SQThreadCPU: 1, RegisterFiles: true}, false},
	} {
		if got := pollThreads(o.opts.String()); got != o.want {
			t.Errorf("%q: poll threads %v, want %v", o.opts.String(), got, o.want)
		}
	}
}
