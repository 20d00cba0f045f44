package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/units"
)

// Run's outputs: the JSON documents of `qdsweep run` and its human summary.

// RunSchema names the JSON document `qdsweep run --output-format=json` writes.
const RunSchema = "qdsweep/run/v1"

// RunsSchema names the JSON document of a run of several jobs: RunsDoc.
const RunsSchema = "qdsweep/runs/v1"

// RunDoc is the document `run --output-format=json` prints for one job.
type RunDoc struct {
	Schema string `json:"schema"`
	Name   string `json:"name,omitempty"`  // the job's, in a run of several jobs
	Group  *int   `json:"group,omitempty"` // its group there: groups ran one after another
	// Clones are each job's own figures without group_reporting (fio's
	// numjobs clones reported apart); the document's are all of them.
	Clones               []RunDoc           `json:"clones,omitempty"`
	Engine               string             `json:"engine"`
	EngineFallbackReason string             `json:"engine_fallback_reason"`
	Buffers              string             `json:"buffers,omitempty"`
	Filename             string             `json:"filename"`
	Files                []string           `json:"files,omitempty"`     // a --filename list: every job over all, in turn
	RateIOPS             []float64          `json:"rate_iops,omitempty"` // per job: reads, writes (0: no cap)
	Sync                 *ioengine.DirStats `json:"sync,omitempty"`      // fsync/fdatasync calls (--fsync/--fdatasync)
	RW                   string             `json:"rw"`
	BS                   int64              `json:"bs"`
	IODepth              int                `json:"iodepth"`
	NumJobs              int                `json:"numjobs"`
	Direct               bool               `json:"direct"`
	RuntimeNs            int64              `json:"runtime_ns"`
	TotalIOs             int64              `json:"total_ios"`
	IOBytes              int64              `json:"io_bytes"`
	IOPS                 float64            `json:"iops"`
	BWBytes              float64            `json:"bw_bytes"`
	Lat                  ioengine.Latency   `json:"lat_ns"`
	// ArrivalLat is a paced run's response time (--rate_iops): from each
	// I/O's scheduled arrival to its completion, its wait to be issued
	// included; Lat runs from issue, as fio's clat and lat.
	ArrivalLat   *ioengine.Latency  `json:"arrival_lat_ns,omitempty"`
	InflightMean float64            `json:"inflight_mean"`
	CPU          ioengine.CPU       `json:"cpu"`
	Errors       []ioengine.IOError `json:"errors"`
	ShortIOs     int64              `json:"short_ios"`
	Read         *ioengine.DirStats `json:"read,omitempty"`
	Write        *ioengine.DirStats `json:"write,omitempty"`
	Interrupted  bool               `json:"interrupted,omitempty"` // Ctrl-C: partial figures
	// Series is the window in --log-interval slices.
	Series []ioengine.Interval `json:"series,omitempty"`
	// Ramp is the ramp in the same slices, before the window (t_ns negative).
	Ramp []ioengine.Interval `json:"ramp,omitempty"`
	// Shortfall says why fewer than iodepth × numjobs I/Os were in flight.
	Shortfall *ioengine.Shortfall `json:"inflight_shortfall,omitempty"`
}

// RunsDoc is the document of a run of several jobs: each job's, with its
// name and group.
type RunsDoc struct {
	Schema string   `json:"schema"`
	Jobs   []RunDoc `json:"jobs"`
}

// WriteRunJSON writes doc, indented.
func WriteRunJSON(out io.Writer, doc any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// ParseRunDocs reads a document `qdsweep run --output-format=json` wrote
// (one job or several); ok is false for anything else.
func ParseRunDocs(data []byte) (docs []RunDoc, ok bool) {
	var doc struct {
		RunDoc
		Jobs []RunDoc `json:"jobs"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil, false
	}
	switch doc.Schema {
	case RunSchema:
		return []RunDoc{doc.RunDoc}, true
	case RunsSchema:
		return doc.Jobs, true
	}
	return nil, false
}

// RunDocOf is one run's document of --output-format=json (clones: each
// job's own figures, when the run kept them apart).
func RunDocOf(w ioengine.Workload, st *ioengine.Stats, interrupted bool) RunDoc {
	doc := RunDoc{
		Schema: RunSchema, Engine: st.Engine, EngineFallbackReason: st.FallbackReason, Buffers: st.Buffers,
		Filename: w.Filename, RW: string(w.RW), BS: w.BS, IODepth: w.IODepth, NumJobs: w.NumJobs, Direct: w.Direct,
		RuntimeNs: int64(st.Runtime), TotalIOs: st.All.TotalIOs, IOBytes: st.All.Bytes, IOPS: st.All.IOPS, BWBytes: st.All.BWBytes,
		Lat: st.All.Lat, ArrivalLat: st.Arrival, InflightMean: st.InflightMean, CPU: st.CPU, Errors: st.Errors, ShortIOs: st.ShortIOs,
		Interrupted: interrupted, Series: st.Series, Ramp: st.Ramp, Shortfall: st.Shortfall,
	}
	if doc.Errors == nil {
		doc.Errors = []ioengine.IOError{}
	}
	if len(w.Files) > 1 {
		doc.Files = w.Files
	}
	if w.RateIOPS != [2]float64{} {
		doc.RateIOPS = w.RateIOPS[:]
	}
	doc.Sync = st.Sync
	if w.RW.IsRead() && w.RW.IsWrite() {
		doc.Read, doc.Write = st.Read, st.Write
	}
	w1 := w
	w1.NumJobs = 1
	for i := range st.PerJob {
		c := RunDocOf(w1, &st.PerJob[i], interrupted)
		c.Schema, c.Errors = "", nil
		doc.Clones = append(doc.Clones, c)
	}
	return doc
}

// WriteRunText is one run's human summary, at most 80 columns.
func WriteRunText(out io.Writer, w ioengine.Workload, st *ioengine.Stats) error {
	var b strings.Builder
	engine := st.Engine
	if st.Buffers == "registered" {
		engine += " (registered buffers)"
	}
	fmt.Fprintf(&b, "%s %s, iodepth %d × %s, %s\n", w.RW, units.FioSize(w.BS), w.IODepth, CountNoun(float64(w.NumJobs), "job", "jobs"), engine)
	if w.Uring.Set() {
		b.WriteString(WrapHanging(fioadapt.UringText(w.Uring), 80, "  io_uring  ", "            ") + "\n")
	}
	target := "(simulated device)"
	if w.Filename != "" && st.Engine != ioengine.EngineSim {
		target = filepath.Clean(w.Filename)
	}
	if len(w.Files) > 1 {
		target = fmt.Sprintf("%s … %s, %d files, each job over all in turn", filepath.Clean(w.Files[0]), filepath.Base(w.Files[len(w.Files)-1]), len(w.Files))
	}
	if len(w.JobFiles) > 1 {
		target = fmt.Sprintf("%s … %s, one per job", filepath.Clean(w.JobFiles[0]), filepath.Base(w.JobFiles[len(w.JobFiles)-1]))
	}
	fmt.Fprintf(&b, "  target    %s, %.2f s measured\n", target, st.Runtime.Seconds())
	if cap := RateCap(w.RateIOPS, w.RW.IsRead(), w.RW.IsWrite()); cap != "" {
		fmt.Fprintf(&b, "  rate cap  %s\n", cap)
	}
	line := func(label string, d *ioengine.DirStats) {
		fmt.Fprintf(&b, "  %-9s %s IOPS  %s MiB/s  %d I/Os\n", label, FormatIOPS(d.IOPS), FormatMiBps(d.BWBytes), d.TotalIOs)
		fmt.Fprintf(&b, "  latency   mean %s  p50 %s  p99 %s  p99.9 %s\n",
			FormatLatency(d.Lat.MeanNs), FormatLatency(float64(d.Lat.P50Ns)), FormatLatency(float64(d.Lat.P99Ns)), FormatLatency(float64(d.Lat.P999Ns)))
	}
	line("all", &st.All)
	if w.RW.IsRead() && w.RW.IsWrite() {
		if st.Read != nil {
			line("read", st.Read)
		}
		if st.Write != nil {
			line("write", st.Write)
		}
	}
	if sy := st.Sync; sy != nil {
		fmt.Fprintf(&b, "  %-9s %s/s  %d calls, after every %s\n", SyncCall(w.SyncData), FormatIOPS(sy.IOPS), sy.TotalIOs,
			CountNoun(float64(w.SyncEvery), "write", "writes"))
		fmt.Fprintf(&b, "  latency   mean %s  p50 %s  p99 %s  p99.9 %s\n",
			FormatLatency(sy.Lat.MeanNs), FormatLatency(float64(sy.Lat.P50Ns)), FormatLatency(float64(sy.Lat.P99Ns)), FormatLatency(float64(sy.Lat.P999Ns)))
	}
	fmt.Fprintf(&b, "  in flight %s mean (IOPS × mean latency = %s)\n", FormatInflight(st.InflightMean), FormatInflight(st.All.IOPS*st.All.Lat.MeanNs/1e9))
	cpu := st.CPU.UsrS + st.CPU.SysS
	perIO := ""
	if st.All.TotalIOs > 0 {
		perIO = fmt.Sprintf(", %s per I/O", FormatLatency(cpu*1e9/float64(st.All.TotalIOs)))
	}
	fmt.Fprintf(&b, "  CPU       usr %.2f s  sys %.2f s%s\n", st.CPU.UsrS, st.CPU.SysS, perIO)
	for _, e := range st.Errors {
		fmt.Fprintf(&b, "  errors    %d × %s on %s, first at offset %d\n", e.Count, e.Errno, e.Op, e.FirstOffset)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// RunJobHeader heads a job's block in a run of several jobs, as fio's
// normal output does: "name: (groupid=0, jobs=1)".
func RunJobHeader(name string, group, jobs int) string {
	return fmt.Sprintf("%s: (groupid=%d, jobs=%d)\n", name, group, jobs)
}

// WriteRunNormal writes one run's figures in the normal format: each
// job's block first when the run kept its jobs apart (fio without
// group_reporting), then the run's, then its time series summary.
func WriteRunNormal(out io.Writer, name string, group int, w ioengine.Workload, st *ioengine.Stats) error {
	for i := range st.PerJob {
		w1 := w
		w1.NumJobs = 1
		fmt.Fprintf(out, "%s: (groupid=%d, jobs=1): job %d of %d\n", name, group, i+1, len(st.PerJob))
		if err := WriteRunText(out, w1, &st.PerJob[i]); err != nil {
			return err
		}
	}
	if len(st.PerJob) > 0 {
		fmt.Fprintf(out, "%s: all %d jobs\n", name, len(st.PerJob))
	}
	if err := WriteRunText(out, w, st); err != nil {
		return err
	}
	return WriteRunTime(out, w.QD(), st.Series)
}
