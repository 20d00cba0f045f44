package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

func curve(points ...[3]float64) []sweep.Step {
	var out []sweep.Step
	for _, p := range points {
		s := sweep.Step{QD: int(p[0]), IODepth: int(p[0]), NumJobs: 1, IOPS: p[1]}
		s.Lat.MeanNs = p[2]
		s.Lat.P99Ns = int64(2 * p[2])
		out = append(out, s)
	}
	return out
}

// settledFlat marks the second step of steps as settled flat at 95 %
// (littleslaw.Settle.Flat): a pair whose flatness its own slices decided.
func settledFlat(steps []sweep.Step) []sweep.Step {
	steps[1].Settle = &littleslaw.Settle{Settled: true, Decided: true, Flat: true}
	return steps
}

func TestEarlyStop(t *testing.T) {
	e := sweep.DefaultEarlyStop
	tests := []struct {
		name  string
		steps []sweep.Step
		want  string // substring of the reason, "" for none
	}{
		{"growing", curve([3]float64{1, 1000, 1e6}, [3]float64{2, 2000, 1e6}, [3]float64{4, 4000, 1e6}), ""},
		{"one flat step", curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}), ""},
		{"two flat steps", curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}, [3]float64{32, 8150, 4e6}), "QD 16, 32"},
		{"flat then growing resets", curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}, [3]float64{32, 12000, 2.6e6}), ""},
		{"flat IOPS, latency not rising enough", curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 1.5e6}, [3]float64{32, 8150, 2e6}), ""},
		{"dip then recovery counts against the peak", curve([3]float64{64, 68300, 0.94e6}, [3]float64{128, 63600, 2.01e6}, [3]float64{256, 68700, 3.73e6}), "QD 128, 256"},
		{"one step settled flat is one flat step", settledFlat(curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6})), ""},
		{"settled flat, then a rise resets", settledFlat(curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}, [3]float64{32, 16000, 2e6})), ""},
		{"settled flat, then flat again", settledFlat(curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}, [3]float64{32, 8150, 4e6})), "QD 16, 32"},
		{"p99 beyond limit", curve([3]float64{8, 8000, 1.5e9}), "exceeds --max_latency"},
		{"empty", nil, ""},
	}
	for _, tc := range tests {
		got := e.Reason(tc.steps)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Reason = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := (sweep.EarlyStop{MaxP99: time.Second}).Reason(curve([3]float64{8, 8000, 1e6}, [3]float64{16, 8100, 2e6}, [3]float64{32, 8150, 4e6})); got != "" {
		t.Errorf("FlatSteps 0 still stops: %q", got)
	}
}
