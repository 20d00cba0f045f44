package fioadapt_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/internal/outtest"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/sweep"
)

func readFio(t *testing.T, names ...string) []fio.Output {
	t.Helper()
	var outs []fio.Output
	for _, n := range names {
		o, err := fio.ReadOutput(filepath.Join("..", "fio", "testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o...)
	}
	return outs
}

func TestImportResult(t *testing.T) {
	type point struct {
		iodepth, numjobs int
		iops, latMeanNs  float64
	}
	tests := []struct {
		name   string
		files  []string
		engine string
		rw     string
		bs     int64
		points []point // what fio printed, in QD order
		hosts  int
	}{
		{name: "one file per point", files: []string{"point-randread-qd32.json", "point-randread-qd1.json", "point-randread-qd8.json"},
			engine: "io_uring", rw: "randread", bs: 4096, points: []point{
				{1, 1, 21461.538462, 46332.954289}, {8, 1, 65142.857143, 122498.448166}, {32, 1, 90815.184815, 351819.275537}}},
		{name: "one fio sweep", files: []string{"sweep-randread-json.json"}, engine: "io_uring", rw: "randread", bs: 4096, points: []point{
			{1, 1, 18731.268731, 53113.592533}, {4, 1, 43135.864136, 92414.599551}, {16, 1, 77665.334665, 205588.48569},
			{16, 2, 88883.116883, 359543.423897}}},
		{name: "clones merged", files: []string{"randwrite-libaio-nj2-json.json"}, engine: "libaio", rw: "randwrite", bs: 4096, points: []point{
			{4, 2, 33358.641359 + 33419.58042, (119564.087057*33392 + 119360.267898*33453) / (33392 + 33453)}}},
		{name: "clones merged from normal output", files: []string{"randrw-iouring-nj2-normal.txt"}, engine: "io_uring", rw: "randrw", bs: 4096, points: []point{
			{8, 2, (24716.0 + 10580 + 24668 + 10660) * 1000 / 1001,
				(24716*221.84e3 + 10580*236.96e3 + 24668*221.57e3 + 10660*236.80e3) / (24716 + 10580 + 24668 + 10660)}}},
		{name: "status interval final only", files: []string{"randread-status-interval.json"}, engine: "io_uring", rw: "randread", bs: 4096,
			points: []point{{4, 1, 35619.690155, 112012.597615}}},
		{name: "all clients with hosts", files: []string{"clientserver-json.json"}, engine: "io_uring", rw: "randread", bs: 4096,
			points: []point{{4, 1, 63138.861139, 126339.06253}}, hosts: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := fioadapt.ImportResult(readFio(t, tt.files...))
			if err != nil {
				t.Fatal(err)
			}
			if r.Schema != sweep.Schema || r.Meta.Source != sweep.SourceFioImport || r.Meta.Engine != tt.engine {
				t.Errorf("schema %q source %q engine %q", r.Schema, r.Meta.Source, r.Meta.Engine)
			}
			if len(r.Steps) != len(tt.points) {
				t.Fatalf("%d steps, want %d", len(r.Steps), len(tt.points))
			}
			for i, p := range tt.points {
				s := r.Steps[i]
				if s.RW != tt.rw || s.BS != tt.bs || s.IODepth != p.iodepth || s.NumJobs != p.numjobs || s.QD != p.iodepth*p.numjobs*max(tt.hosts, 1) {
					t.Errorf("step %d: %s %d iodepth %d numjobs %d qd %d, want %s %d %d %d", i, s.RW, s.BS, s.IODepth, s.NumJobs, s.QD, tt.rw, tt.bs, p.iodepth, p.numjobs)
				}
				if math.Abs(s.IOPS-p.iops) > 1e-6*p.iops || math.Abs(s.Lat.MeanNs-p.latMeanNs) > 1e-3*p.latMeanNs {
					t.Errorf("step %d: %.3f IOPS at %.1f ns, want %.3f at %.1f", i, s.IOPS, s.Lat.MeanNs, p.iops, p.latMeanNs)
				}
				// A read/write job has no p99 of its own without json+: each
				// direction keeps its own (Read, Write).
				mixed := tt.rw == "randrw" || tt.rw == "rw"
				if (s.Lat.P99Ns <= 0) != mixed && tt.hosts == 0 || s.RuntimeNs <= 0 || s.InflightMean != 0 {
					t.Errorf("step %d: p99 %d runtime %d inflight %v", i, s.Lat.P99Ns, s.RuntimeNs, s.InflightMean)
				}
			}
			if len(r.Steps[0].Hosts) != tt.hosts {
				t.Errorf("%d hosts, want %d", len(r.Steps[0].Hosts), tt.hosts)
			}
			if tt.hosts > 1 && r.Plan.Hosts != tt.hosts {
				t.Errorf("plan hosts %d, want %d (a fleet's QD is hosts × iodepth × numjobs)", r.Plan.Hosts, tt.hosts)
			}
			// What Write stores reads back the same.
			dir := t.TempDir()
			if err := sweep.Write(outtest.Open(t, dir), r); err != nil {
				t.Fatal(err)
			}
			back, err := sweep.Read(filepath.Join(dir, sweep.ResultsJSON))
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Steps) != len(r.Steps) || back.Steps[0].IOPS != r.Steps[0].IOPS || back.Meta.Source != sweep.SourceFioImport {
				t.Errorf("read back %+v", back.Steps)
			}
		})
	}
}

func TestImportResultHostsAndMixed(t *testing.T) {
	r, err := fioadapt.ImportResult(readFio(t, "clientserver-json.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Steps[0].Hosts
	if h[0].Host != "127.0.0.1:8766" || h[1].Host != "127.0.0.1:8767" || h[0].IOPS != 31591.408591 || h[1].IOPS != 31547.452547 {
		t.Errorf("hosts %+v", h)
	}
	r, err = fioadapt.ImportResult(readFio(t, "randrw-iouring-latpct.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Steps[0]
	if s.Read == nil || s.Write == nil || s.Read.IOPS != 44244.755245 || s.Write.IOPS != 18878.121878 || r.Meta.Workload.RWMixRead != 70 || !r.Meta.Workload.Direct {
		t.Errorf("mixed step read %+v write %+v workload %+v", s.Read, s.Write, r.Meta.Workload)
	}
	hs := sweep.HostSteps([]ioengine.HostStats{{Host: "a:8765", IOPS: 10, BWBytes: 40960, Lat: ioengine.Latency{MeanNs: 5}}})
	if len(hs) != 1 || hs[0].Host != "a:8765" || hs[0].IOPS != 10 || hs[0].Lat.MeanNs != 5 || sweep.HostSteps(nil) != nil {
		t.Errorf("HostSteps %+v", hs)
	}
	if _, err := fioadapt.ImportResult(nil); err == nil {
		t.Error("no outputs: no error")
	}
}

// TestFromFioIOPSNoise: an imported step's noise is fio's own IOPS spread
// (iops_stddev ÷ iops_mean over iops_samples) when one job's one direction
// is the step, and none is made up otherwise (jobs merged, < 3 samples).
func TestImportResultIOPSNoise(t *testing.T) {
	outs, err := fio.ReadOutput(filepath.Join("..", "examples", "fio", "fio-qd16.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := fioadapt.ImportResult(outs)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Curves()[0].Steps[0]
	// fio-qd16.json: iops_mean 81730, iops_stddev 4256.29, iops_samples 3.
	wantCV := 4256.286175 / 81730
	if math.Abs(st.IOPSCV-wantCV) > 1e-9 || st.IOPSSamples != 3 {
		t.Fatalf("iops_cv %v over %d samples, want %v over 3", st.IOPSCV, st.IOPSSamples, wantCV)
	}
	if u := st.IOPSUncertainty(); math.Abs(u-wantCV/math.Sqrt(3)) > 1e-9 || u != st.IOPSNoise().RelSE {
		t.Fatalf("uncertainty %v, want %v (3 samples of unknown order, counted whole as the comparison counts them)", u, wantCV/math.Sqrt(3))
	}
	for _, f := range []string{"randwrite-libaio-nj2-json.json", "point-randread-qd32.json"} {
		r, err := fioadapt.ImportResult(readFio(t, f))
		if err != nil {
			t.Fatal(err)
		}
		if st := r.Curves()[0].Steps[0]; st.IOPSCV != 0 || st.IOPSSamples != 0 {
			t.Errorf("%s: iops_cv %v over %d samples; want none (two jobs' samples, or one sample)", f, st.IOPSCV, st.IOPSSamples)
		}
	}
}

// TestAttachSeries: an imported fio run keeps its iops and latency logs
// as the step's series, or its --status-interval reports without logs.
func TestAttachSeries(t *testing.T) {
	dir := filepath.Join("..", "fio", "testdata", "logs")
	outs, err := fio.ReadOutput(filepath.Join(dir, "qd4.json"))
	if err != nil {
		t.Fatal(err)
	}
	iops, err := fio.ReadLog(filepath.Join(dir, "qd4_iops.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	lat, err := fio.ReadLog(filepath.Join(dir, "qd4_lat.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		run    fioadapt.FioRun
		source string
		n      int
	}{
		{fioadapt.FioRun{Outputs: outs, IOPSLogs: [][]fio.LogEntry{iops}, LatLogs: [][]fio.LogEntry{lat}}, sweep.SeriesFioLogs, 7},
		{fioadapt.FioRun{Outputs: outs}, sweep.SeriesFioStatus, 3},
	} {
		r, err := fioadapt.ImportResult(outs)
		if err != nil {
			t.Fatal(err)
		}
		if got := fioadapt.AttachSeries(r, []fioadapt.FioRun{tc.run}, 0); got != 1 {
			t.Fatalf("%s: %d steps got a series", tc.source, got)
		}
		s := r.Steps[0].Series
		if s.Source != tc.source || len(s.Points) != tc.n {
			t.Errorf("series from %s with %d slices, want %s with %d", s.Source, len(s.Points), tc.source, tc.n)
		}
		for _, p := range s.Points {
			if p.IOPS() <= 0 || !within(p.ReadBWBytes, p.ReadIOPS*4096, 0.01) /* fio counts io_bytes and total_ios a few I/Os apart */ || p.LatMeanNs <= 0 {
				t.Errorf("%s slice %+v", tc.source, p.Interval)
			}
		}
	}
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }
