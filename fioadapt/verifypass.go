package fioadapt

import (
	"context"
	"os"
	"time"

	"github.com/qdsweep/qdsweep/ioengine"
)

// verifyPass is fio's verify phase of a job that wrote with verify=: the
// job's region read back in order, one I/O per smallest block size, as many bytes per job as
// each wrote (written; the whole region under verify_only, which wrote
// nothing), every block checked. Its reads become the job's read
// direction, its errors the job's.
func (j *Job) verifyPass(ctx context.Context, written *ioengine.Stats) (*ioengine.Stats, error) {
	w := j.Workload
	if written != nil && w.RW.IsRandom() {
		// The blocks the run wrote (set by writeMap before it ran): those
		// are checked, the others never written.
		w.FioVerify.Written = j.written
	}
	bs := w.MinBS() // each block as the smallest write wrote it, its headers inside
	w.RW, w.BS, w.Shape = ioengine.Read, bs, ioengine.Shape{}
	w.RateIOPS = [2]float64{}
	w.Flow = ioengine.Flow{} // the job left its flow as its writes ended
	ctl := ioengine.Control{Runtime: max(j.Control.Runtime, 24*time.Hour), IOsPerJob: j.Control.IOsPerJob * j.Workload.BS / bs}
	if written != nil && written.Write != nil && w.NumJobs > 0 {
		ctl.IOsPerJob = max(written.Write.Bytes/int64(w.NumJobs)/bs, 1)
	}
	vst, err := j.Engine.Run(ctx, w, ctl)
	if vst == nil {
		return vst, err
	}
	st := *vst
	if written != nil {
		st = *written
		st.Errors = append(st.Errors, vst.Errors...)
	} else {
		st.Write = &ioengine.DirStats{} // verify_only: nothing written
	}
	st.Read = vst.Read
	if st.Read == nil {
		st.Read = &vst.All
	}
	return &st, err
}

// writeMap makes the job's random writes record the blocks they write,
// for its verify pass (fio's random map writes each block once; qdsweep's
// offsets repeat, so some blocks are written twice and some never).
func (j *Job) writeMap() {
	w := &j.Workload
	if !j.VerifyPass || !w.RW.IsRandom() {
		return
	}
	iv := w.FioVerify.Interval
	if iv <= 0 {
		iv = w.MinBS()
	}
	var end int64
	for _, f := range w.Targets() {
		if fi, err := os.Stat(f); err == nil {
			end = max(end, FileBytes(f, fi))
		}
	}
	j.written = ioengine.NewWrittenBlocks(end/iv + 1)
	w.FioVerify.Written = j.written
}
