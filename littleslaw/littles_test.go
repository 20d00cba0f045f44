package littleslaw_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
)

func TestQueueDepthKnownAnswers(t *testing.T) {
	tests := []struct {
		iops, latNs float64
		want        int
	}{
		{160000, 2e6, 320},
		{160000, 1.3e6, 208},
		{5000, 1e6, 5}, // Azure's example
		{1000, 1e6, 1}, // AWS: one per 1,000 IOPS at ~1 ms
		{24615, 1.3e6, 32},
		{1, 1e3, 1},
	}
	for _, tt := range tests {
		if got := littleslaw.CeilQD(littleslaw.QueueDepth(tt.iops, tt.latNs)); got != tt.want {
			t.Errorf("QD(%g IOPS, %g ns) = %d, want %d", tt.iops, tt.latNs, got, tt.want)
		}
	}
	if got := littleslaw.IOPSAtDepth(32, 1.3e6); !within(got, 24615.38, 1e-6) {
		t.Errorf("IOPSAtDepth(32, 1.3 ms) = %g", got)
	}
	if got := littleslaw.LatencyNsAtDepth(208, 160000); !within(got, 1.3e6, 1e-12) {
		t.Errorf("LatencyNsAtDepth(208, 160k) = %g", got)
	}
	if got := littleslaw.ThroughputIOPS(1200<<20, 16<<10); got != 76800 {
		t.Errorf("ThroughputIOPS(1200 MiB/s, 16 KiB) = %g, want 76800", got)
	}
}

func TestAdviseTarget(t *testing.T) {
	r := littleslaw.AdviseTarget(160000, 1.3e6, littleslaw.Options{MaxJobs: 4})
	if r.QD != 208 || r.Split != (littleslaw.Split{IODepth: 208, NumJobs: 1}) {
		t.Errorf("%+v, want QD 208 as 208 × 1", r)
	}
	// Alternatives spread the same 208 in flight over more jobs.
	want := []littleslaw.Split{{IODepth: 104, NumJobs: 2}, {IODepth: 52, NumJobs: 4}}
	if len(r.AltSplits) != len(want) {
		t.Fatalf("alts %v, want %v", r.AltSplits, want)
	}
	for i := range want {
		if r.AltSplits[i] != want[i] {
			t.Errorf("alts %v, want %v", r.AltSplits, want)
		}
	}
	r = littleslaw.AdviseTarget(2e6, 1e6, littleslaw.Options{MaxJobs: 2})
	if r.Split.NumJobs != 8 || r.Split.IODepth != 250 || !r.OverLimit || r.MaxIODepth != 256 {
		t.Errorf("%+v: want 250 × 8 (never past the per-job limit) with a note that the jobs exceed theirs", r)
	}
}

func TestSplitQD(t *testing.T) {
	tests := []struct {
		qd, maxDepth, maxJobs int
		want                  littleslaw.Split
	}{
		{1, 256, 4, littleslaw.Split{IODepth: 1, NumJobs: 1}},
		{208, 256, 4, littleslaw.Split{IODepth: 208, NumJobs: 1}},
		{256, 256, 4, littleslaw.Split{IODepth: 256, NumJobs: 1}},
		{257, 256, 4, littleslaw.Split{IODepth: 129, NumJobs: 2}},
		{320, 256, 2, littleslaw.Split{IODepth: 160, NumJobs: 2}},
		{640, 256, 8, littleslaw.Split{IODepth: 214, NumJobs: 3}},
		{640, 256, 2, littleslaw.Split{IODepth: 214, NumJobs: 3}}, // never past the per-job limit
		{0, 0, 0, littleslaw.Split{IODepth: 1, NumJobs: 1}},
		{22, 256, 8, littleslaw.Split{IODepth: 22, NumJobs: 1}},
		{7, 256, 8, littleslaw.Split{IODepth: 7, NumJobs: 1}},
	}
	for _, tt := range tests {
		got, _ := littleslaw.SplitQD(tt.qd, tt.maxDepth, tt.maxJobs)
		if got != tt.want {
			t.Errorf("SplitQD(%d, %d, %d) = %+v, want %+v", tt.qd, tt.maxDepth, tt.maxJobs, got, tt.want)
		}
	}
}

func TestSplitQDAlternatives(t *testing.T) {
	tests := []struct {
		qd, maxDepth, maxJobs int
		want                  []littleslaw.Split
	}{
		{208, 256, 8, []littleslaw.Split{{IODepth: 104, NumJobs: 2}, {IODepth: 52, NumJobs: 4}, {IODepth: 26, NumJobs: 8}}},
		{22, 256, 8, []littleslaw.Split{{IODepth: 11, NumJobs: 2}}},
		// A prime depth gets the nearest splits, the total rounded up.
		{7, 256, 8, []littleslaw.Split{{IODepth: 4, NumJobs: 2}, {IODepth: 3, NumJobs: 3}, {IODepth: 2, NumJobs: 4}}},
		{211, 256, 8, []littleslaw.Split{{IODepth: 106, NumJobs: 2}, {IODepth: 71, NumJobs: 3}, {IODepth: 53, NumJobs: 4}}},
		{160, 256, 1, nil}, // one job allowed
		{300, 256, 8, []littleslaw.Split{{IODepth: 100, NumJobs: 3}, {IODepth: 75, NumJobs: 4}, {IODepth: 60, NumJobs: 5}}}, // best 150 × 2
	}
	for _, tt := range tests {
		_, got := littleslaw.SplitQD(tt.qd, tt.maxDepth, tt.maxJobs)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("SplitQD(%d, %d, %d) alternatives %v, want %v", tt.qd, tt.maxDepth, tt.maxJobs, got, tt.want)
		}
	}
}

func TestSplitQDMonotone(t *testing.T) {
	for _, lim := range [][2]int{{256, 4}, {64, 16}, {256, 1}, {32, 0}} {
		prev := littleslaw.Split{}
		for qd := 1; qd <= 3000; qd++ {
			s, alts := littleslaw.SplitQD(qd, lim[0], lim[1])
			total := s.IODepth * s.NumJobs
			if total < qd || s.NumJobs < prev.NumJobs || total < prev.IODepth*prev.NumJobs {
				t.Fatalf("limits %v: QD %d → %+v after %+v", lim, qd, s, prev)
			}
			if s.IODepth <= lim[0] && total-qd >= s.NumJobs {
				t.Fatalf("limits %v: QD %d → %+v overshoots by %d", lim, qd, s, total-qd)
			}
			if len(alts) > littleslaw.MaxAltSplits {
				t.Fatalf("limits %v: QD %d: %d alternatives", lim, qd, len(alts))
			}
			for _, a := range alts {
				// An alternative covers the same depth over more jobs,
				// rounding the total up by less than a whole I/O per job.
				at := a.IODepth * a.NumJobs
				if at < qd || at-qd >= a.NumJobs || a.NumJobs <= s.NumJobs || (s.IODepth <= lim[0] && a.IODepth > lim[0]) || (lim[1] > 0 && a.NumJobs > lim[1]) {
					t.Fatalf("limits %v: QD %d → %+v, alt %+v", lim, qd, s, a)
				}
			}
			prev = s
		}
	}
}

func TestGCPQueueDepthTable(t *testing.T) {
	// GCP's published table (16 KiB, ~2 ms).
	want := map[float64]int{500: 1, 1000: 2, 2000: 4, 4000: 8, 8000: 16, 16000: 32, 32000: 64,
		64000: 128, 100000: 200, 200000: 400, 320000: 640}
	wantBW := map[float64]int{8: 1, 128: 16, 1000: 128, 1200: 153} // MiB/s
	rows := littleslaw.GCPQueueDepthTable()
	if len(rows) != len(want)+len(wantBW) {
		t.Fatalf("%d rows, want %d", len(rows), len(want)+len(wantBW))
	}
	for _, r := range rows {
		var w int
		var ok bool
		if r.IsBandwidth {
			w, ok = wantBW[r.BWBytes/(1<<20)]
		} else {
			w, ok = want[r.IOPS]
		}
		if !ok || r.QueueDepth != w {
			t.Errorf("row %+v: want QD %d (listed %v)", r, w, ok)
		}
	}
}

func TestParseSLO(t *testing.T) {
	tests := []struct {
		in      string
		stat    string
		limitNs float64
		wantErr string
	}{
		{"p99=5ms", "p99", 5e6, ""},
		{"mean=800us", "mean", 800e3, ""},
		{"P999=20ms", "p999", 20e6, ""},
		{"p99.9=1ms", "p999", 1e6, ""},
		{"p50 = 250µs", "p50", 250e3, ""},
		{"p99=5", "", 0, "needs a unit"},
		{"p99", "", 0, "STAT=LATENCY"},
		{"p42=5ms", "", 0, "unknown statistic"},
		{"p99=-5ms", "", 0, "positive"},
	}
	for _, tt := range tests {
		s, err := littleslaw.ParseSLO(tt.in)
		if tt.wantErr != "" {
			if err == nil || !errors.Is(err, littleslaw.ErrBadSLO) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSLO(%q) err %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || s.Stat != tt.stat || s.LimitNs != tt.limitNs {
			t.Errorf("ParseSLO(%q) = %+v, %v; want %s %g", tt.in, s, err, tt.stat, tt.limitNs)
		}
		if back, err := littleslaw.ParseSLO(s.String()); err != nil || back != s {
			t.Errorf("round trip %q → %q → %+v, %v", tt.in, s.String(), back, err)
		}
	}
}

func FuzzParseSLO(f *testing.F) {
	for _, s := range []string{"p99=5ms", "mean=1.5ms", "p999=100us", "p50=", "=5ms", "p99=5", "p90=1h2m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slo, err := littleslaw.ParseSLO(s)
		if err != nil {
			return
		}
		if slo.LimitNs <= 0 {
			t.Fatalf("%q: non-positive limit %g", s, slo.LimitNs)
		}
		if _, err := littleslaw.ParseSLO(slo.String()); err != nil {
			t.Fatalf("%q → %q does not parse back: %v", s, slo.String(), err)
		}
	})
}

func TestPresets(t *testing.T) {
	names := []string{"gcp-hyperdisk-balanced", "gcp-hyperdisk-extreme", "gcp-hyperdisk-throughput", "gcp-hyperdisk-ml",
		"aws-gp3", "aws-io2", "azure-premium-v2", "azure-ultra"}
	for _, n := range names {
		p, err := littleslaw.LookupPreset(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if p.MaxIOPS <= 0 || p.MaxBWBytes <= 0 || p.TypicalLatNs <= 0 || !strings.HasPrefix(p.Doc, "https://") {
			t.Errorf("%s: incomplete %+v", n, p)
		}
	}
	if len(littleslaw.Presets()) != len(names) {
		t.Errorf("%d presets, want %d", len(littleslaw.Presets()), len(names))
	}
	_, err := littleslaw.LookupPreset("gcp-pd-ssd")
	if !errors.Is(err, littleslaw.ErrUnknownPreset) || !strings.Contains(err.Error(), "aws-gp3") {
		t.Errorf("unknown preset: %v, want ErrUnknownPreset listing the known ones", err)
	}
	hb, _ := littleslaw.LookupPreset("gcp-hyperdisk-balanced")
	if w := littleslaw.PresetCheck(hb, 200000, 0); len(w) != 1 {
		t.Errorf("200k IOPS on Hyperdisk Balanced: %+v, want one excess", w)
	} else if w[0].Limit != "iops" || w[0].Want != 200000 || w[0].Max != 160000 {
		t.Errorf("200k IOPS on Hyperdisk Balanced: %+v, want IOPS 200000 over 160000", w[0])
	}
	if w := littleslaw.PresetCheck(hb, 100000, 100<<20); len(w) != 0 {
		t.Errorf("100k IOPS on Hyperdisk Balanced: %+v, want none", w)
	}
}

func TestSplitForSaysWhichLimitChoseTheJobs(t *testing.T) {
	tests := []struct {
		qd, maxDepth, maxJobs int
		best                  littleslaw.Split
		by                    string
		over                  bool
	}{
		{200, 256, 8, littleslaw.Split{IODepth: 200, NumJobs: 1}, littleslaw.JobsByOneJob, false},
		{210, 64, 8, littleslaw.Split{IODepth: 53, NumJobs: 4}, littleslaw.JobsByMaxIODepth, false},
		// --max-iodepth 64 on a 2-CPU machine: the split keeps iodepth ≤ 64
		// and says it needs more jobs than the job limit.
		{210, 64, 2, littleslaw.Split{IODepth: 53, NumJobs: 4}, littleslaw.JobsByMaxJobs, true},
	}
	for _, tt := range tests {
		sa := littleslaw.SplitFor(tt.qd, tt.maxDepth, tt.maxJobs)
		if sa.Best != tt.best || sa.JobsBy != tt.by || sa.OverLimit != tt.over {
			t.Errorf("SplitFor(%d, %d, %d) = %+v, want %+v by %s (over %v)", tt.qd, tt.maxDepth, tt.maxJobs, sa, tt.best, tt.by, tt.over)
		}
	}
}
