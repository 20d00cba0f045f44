package report

import (
	"math"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

// TestLoadChartDrawsWhatTheSLOJudges: an open-loop sweep's chart draws
// the loads' response times (what its SLO is judged on), named so on its
// axis and legend, wherever they were measured: its range reaches the
// highest response p99 and the SLO line, though the latency from issue
// stays far below both; without response times it draws and names the
// latency from issue.
func TestLoadChartDrawsWhatTheSLOJudges(t *testing.T) {
	loads := []littleslaw.LoadStep{
		{OfferedIOPS: 1000, IOPS: 1000, LatMeanNs: 2e5, P99Ns: 5e5, KeptUp: true, Response: &littleslaw.Response{MeanNs: 3e5, P99Ns: 8e5}},
		{OfferedIOPS: 4000, IOPS: 3000, LatMeanNs: 9e5, P99Ns: 2e6, Response: &littleslaw.Response{MeanNs: 2e7, P99Ns: 6e7}},
	}
	in := chartInput{
		Series: []series{{Name: "randread 4k", Analysis: &littleslaw.Analysis{Load: &littleslaw.LoadCurve{Steps: loads}}}},
		SLO:    &littleslaw.SLO{Stat: "p99", LimitNs: 1e7},
	}
	f, err := loadFigure(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Plot.Y.Label.Text; got != "response time, from arrival (log scale)" {
		t.Errorf("y axis %q: not named as response time", got)
	}
	if f.Plot.Y.Max < math.Log10(6e7) {
		t.Errorf("y axis tops at %.0f ns, below the response p99 of 60 ms it must show", math.Pow(10, f.Plot.Y.Max))
	}
	for _, k := range []string{"response mean", "response p99"} {
		if !contains(f.Keys, k) {
			t.Errorf("legend %q lacks %q", f.Keys, k)
		}
	}
	for i := range loads {
		loads[i].Response = nil
	}
	f, err = loadFigure(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Plot.Y.Label.Text; got != "latency from issue (log scale)" {
		t.Errorf("y axis %q without response times", got)
	}
	if f.Plot.Y.Max >= math.Log10(6e7) {
		t.Errorf("y axis tops at %.0f ns without response times: drawn from something else", math.Pow(10, f.Plot.Y.Max))
	}
}
