package fioadapt

import (
	"path/filepath"
	"strconv"

	"github.com/qdsweep/qdsweep/fio"
)

// FioOptions are the options that ask fio for the logs l asks for, each
// log's prefix a name within dir (FioLogPath names its files), the others
// as the job gives them: fio writes, in dir, the files the job's own run
// would write.
func (l JobLogs) FioOptions(dir string) [][2]string {
	var out [][2]string
	for _, p := range []struct {
		key, prefix string
	}{{fio.OptWriteIOPSLog, l.IOPS}, {fio.OptWriteBWLog, l.BW}, {fio.OptWriteLatLog, l.Lat}, {fio.OptWriteHistLog, l.Hist}} {
		if p.prefix != "" {
			out = append(out, [2]string{p.key, filepath.Join(dir, p.key)})
		}
	}
	if len(out) == 0 {
		return nil
	}
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	return append(out, [][2]string{
		{fio.OptLogAvgMsec, strconv.FormatInt(l.AvgMs, 10)}, {fio.OptLogHistMsec, strconv.FormatInt(l.HistMs, 10)},
		{fio.OptLogHistCoarseness, strconv.Itoa(l.HistCoarse)}, {fio.OptPerJobLogs, b(l.PerJob)},
		{fio.OptLogOffset, b(l.Offset)}, {fio.OptLogPrio, b(l.Prio)},
		{fio.OptLogMaxValue, b(l.MaxValue)}, {fio.OptLogUnixEpoch, b(l.UnixEpoch)},
	}...)
}

// FioLogPath is the file fio writes in dir, asked by FioOptions, for the
// log of kind of fio's job number job (from 1: a job run alone numbers its
// numjobs clones from 1, a job file counts every job's clones before).
func (l JobLogs) FioLogPath(dir string, kind fio.LogKind, job int) string {
	key := fio.OptWriteLatLog
	switch kind {
	case fio.LogIOPS:
		key = fio.OptWriteIOPSLog
	case fio.LogBW:
		key = fio.OptWriteBWLog
	case fio.LogClatHist:
		key = fio.OptWriteHistLog
	}
	return fio.LogPath(filepath.Join(dir, key), kind, job, l.PerJob)
}
