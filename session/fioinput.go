package session

import (
	"errors"
	"os"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
	"github.com/qdsweep/qdsweep/report"
)

// ReadFioOutputs parses every fio output file named in args ("-": standard
// input), and qdsweep run's own JSON documents (read as the fio report
// they stand for). Unreadable or unrecognised files are usage errors
// naming the command cmd and the file.
func ReadFioOutputs(cmd string, args []string) ([]fio.Output, error) {
	if err := CheckInputs(cmd+":", args); err != nil {
		return nil, err
	}
	var outs []fio.Output
	for _, path := range args {
		got, ok := readRunDocs(path)
		var err error
		if !ok {
			got, err = fio.ReadOutput(path)
		}
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, Usagef("%s: %v; name an existing fio output file", cmd, err)
		case err != nil:
			return nil, Usagef("%s: %v (qdsweep run's own output: use its --output-format=json, terse or fio-json)", cmd, err)
		}
		outs = append(outs, got...)
	}
	return outs, nil
}

// readRunDocs reads a document of `qdsweep run --output-format=json` (one
// job, or a run of several) as fio reports: each job's workload, IOPS and
// latency (mean, fastest, percentiles) as fio's JSON would give them.
func readRunDocs(path string) ([]fio.Output, bool) {
	if path == "-" {
		return nil, false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 64<<20 {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	docs, ok := report.ParseRunDocs(data)
	if !ok {
		return nil, false
	}
	out := fio.Output{Format: "json", FioVersion: "qdsweep"}
	for _, d := range docs {
		out.Jobs = append(out.Jobs, jobOfRunDoc(d))
	}
	return []fio.Output{out}, len(out.Jobs) > 0
}

// jobOfRunDoc is one run document as fio's report of the job.
func jobOfRunDoc(d report.RunDoc) fio.Job {
	w := ioengine.Workload{RW: ioengine.RW(d.RW), BS: d.BS, IODepth: d.IODepth, NumJobs: d.NumJobs, Direct: d.Direct, Filename: d.Filename}
	st := &ioengine.Stats{Engine: d.Engine, Runtime: time.Duration(d.RuntimeNs), CPU: d.CPU,
		All:  ioengine.DirStats{TotalIOs: d.TotalIOs, Bytes: d.IOBytes, IOPS: d.IOPS, BWBytes: d.BWBytes, Lat: d.Lat},
		Read: d.Read, Write: d.Write}
	if st.Read == nil && w.RW.IsRead() && !w.RW.IsWrite() {
		st.Read = &st.All
	}
	if st.Write == nil && w.RW.IsWrite() && !w.RW.IsRead() {
		st.Write = &st.All
	}
	name := d.Name
	if name == "" {
		name = "qdsweep"
	}
	r := fioadapt.ReportFromStats(name, w, d.Engine, st.Runtime, 0, false, nil, st)
	for _, dir := range []*fio.Dir{r.Job.Read, r.Job.Write} {
		if dir != nil {
			fioadapt.SetPercentiles(dir, dirLat(d, dir == r.Job.Write))
		}
	}
	if d.Group != nil {
		r.Job.GroupID = *d.Group
	}
	return r.Job
}

// dirLat is the latency of one direction of a run document (the whole
// run's when it has one direction).
func dirLat(d report.RunDoc, write bool) ioengine.Latency {
	switch {
	case write && d.Write != nil:
		return d.Write.Lat
	case !write && d.Read != nil:
		return d.Read.Lat
	}
	return d.Lat
}
