package session

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
)

// SplitFioLogArgs separates fio's per-interval logs (NAME_iops.N.log,
// NAME_lat.N.log, …) from fio output files among args.
func SplitFioLogArgs(args []string) (outputs, logs []string) {
	for _, a := range args {
		if _, _, _, ok := fio.LogName(a); ok {
			logs = append(logs, a)
		} else {
			outputs = append(outputs, a)
		}
	}
	return outputs, logs
}

// FioRuns reads each output file as one run and gives it the logs whose
// prefix is the file's name without extension or its job's name; with one
// output file, every log is its.
func FioRuns(cmd string, outputs, logs []string) ([]fioadapt.FioRun, error) {
	runs := make([]fioadapt.FioRun, len(outputs))
	names := make([]map[string]bool, len(outputs))
	for i, path := range outputs {
		outs, err := ReadFioOutputs(cmd, []string{path})
		if err != nil {
			return nil, err
		}
		runs[i].Outputs = outs
		names[i] = map[string]bool{strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)): true}
		for _, o := range outs {
			for _, j := range o.Jobs {
				names[i][j.Name] = true
			}
		}
	}
	sort.Strings(logs) // job 1, 2, … in order
	for _, l := range logs {
		prefix, kind, _, _ := fio.LogName(l)
		if kind != fio.LogIOPS && kind != fio.LogLat {
			continue // clat, slat and bw add nothing the series lacks
		}
		for i := range runs {
			if len(runs) > 1 && !names[i][prefix] {
				continue
			}
			es, err := fio.ReadLog(l)
			if err != nil {
				return nil, Usagef("%s: %v; name fio's --%s / --%s files as written", cmd, err, fio.OptWriteIOPSLog, fio.OptWriteLatLog)
			}
			if kind == fio.LogIOPS {
				runs[i].IOPSLogs = append(runs[i].IOPSLogs, es)
			} else {
				runs[i].LatLogs = append(runs[i].LatLogs, es)
			}
			break
		}
	}
	return runs, nil
}
