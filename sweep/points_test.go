package sweep_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/sweep"
)

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadPointsCSV(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []littleslaw.Point
	}{
		{"minimal", "iodepth,numjobs,iops,lat_mean_us\n1,1,20000,50\n8,4,140000,228.5\n",
			[]littleslaw.Point{
				{QD: 1, IODepth: 1, NumJobs: 1, IOPS: 20000, LatMeanNs: 50000},
				{QD: 32, IODepth: 8, NumJobs: 4, IOPS: 140000, LatMeanNs: 228500},
			}},
		{"any order, percentiles, comments, no numjobs", "# from a spreadsheet\nlat_mean_us, iops, iodepth, p99_us, note\n50,20000,1,90,first\n\n",
			[]littleslaw.Point{{QD: 1, IODepth: 1, NumJobs: 1, IOPS: 20000, LatMeanNs: 50000, P99Ns: 90000}}},
		{"results.csv shape", "rw,bs,iodepth,numjobs,qd,iops,bw_bytes,lat_mean_ns,lat_p99_ns,inflight_mean,failed,skipped\n" +
			"randread,4096,2,1,2,38000,155648000,53000,99000,2.01,,\n" +
			"randread,4096,4,1,4,0,0,0,0,0,EIO,\n",
			[]littleslaw.Point{{QD: 2, IODepth: 2, NumJobs: 1, IOPS: 38000, BWBytes: 155648000, LatMeanNs: 53000, P99Ns: 99000, InflightMean: 2.01}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sweep.ReadPointsCSV(writeTemp(t, "points.csv", tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d points %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("point %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestReadPointsCSVErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // substring naming line and column
	}{
		{"empty", "", "empty file"},
		{"missing columns", "iodepth,iops\n1,2\n", "line 1: missing column(s) lat_mean_us"},
		{"no depth", "iops,lat_mean_us\n1,2\n", "missing column(s) iodepth"},
		{"not a number", "iodepth,iops,lat_mean_us\n1,20000,50\n2,fast,60\n", "line 3: column iops: \"fast\" is not a number"},
		{"negative", "iodepth,iops,lat_mean_us\n1,20000,-50\n", "line 2: column lat_mean_us"},
		{"fractional iodepth", "iodepth,iops,lat_mean_us\n1.5,20000,50\n", "line 2: column iodepth"},
		{"short row", "iodepth,iops,lat_mean_us\n1,20000\n", "line 2: column lat_mean_us is missing"},
		{"zero iops", "iodepth,iops,lat_mean_us\n1,0,50\n", "line 2: column iops"},
		{"duplicate header", "iops,iops,iodepth,lat_mean_us\n", "appears twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sweep.ReadPointsCSV(writeTemp(t, "p.csv", tt.body))
			if err == nil || !errors.Is(err, sweep.ErrPointsCSV) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want ErrPointsCSV containing %q", err, tt.want)
			}
		})
	}
	if _, err := sweep.ReadPointsCSV(filepath.Join(t.TempDir(), "absent.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v, want ErrNotExist", err)
	}
}
