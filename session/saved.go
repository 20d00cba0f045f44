package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
)

// ReadSaved reads a saved result for report or compare; a file that
// cannot be used is a usage error naming it and the fix.
func ReadSaved(path string) (*sweep.Result, error) {
	if err := CheckInput("", path); err != nil {
		return nil, err
	}
	r, err := sweep.Read(path)
	if err != nil {
		if errors.Is(err, sweep.ErrSchema) {
			if outs, ferr := fio.ReadOutput(path); ferr == nil && len(outs) > 0 {
				return nil, Usagef("%s is fio output, not a qdsweep result: turn it into one with qdsweep import fio --output %s %s (then report that directory), or read it as it is with qdsweep explain %s",
					path, importDirFor(path), path, path)
			}
		}
		return nil, Usagef("%v; give a qdsweep results directory or its results.json", err)
	}
	n := 0
	for _, s := range r.Steps {
		if s.Skipped == "" && s.Failed == "" && s.IOPS > 0 {
			n++
		}
	}
	if n == 0 {
		return nil, Usagef("%s has no measured steps: nothing to report; run a sweep first", path)
	}
	return r, nil
}

// ReadAnalysed reads a saved result (ReadSaved) and analyses it with opts;
// options the analysis refuses are a usage error.
func ReadAnalysed(path string, opts littleslaw.Options) (*sweep.Result, error) {
	r, err := ReadSaved(path)
	if err != nil {
		return nil, err
	}
	if err := r.Analyze(opts); err != nil {
		if errors.Is(err, littleslaw.ErrBadOptions) {
			return nil, Usagef("%v", err)
		}
		return nil, fmt.Errorf("analyse %s: %w", path, err)
	}
	return r, nil
}

// InputNames names each result by its directory or file name ("before",
// "after", "nvme.json"), adding parent directories, then "#n", until the
// names differ.
func InputNames(paths []string) []string {
	base := func(p string, depth int) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if filepath.Base(p) == sweep.ResultsJSON {
			p = filepath.Dir(p)
		}
		parts := strings.Split(strings.Trim(filepath.ToSlash(p), "/"), "/")
		if depth > len(parts) {
			depth = len(parts)
		}
		n := strings.Join(parts[len(parts)-depth:], "/")
		return strings.TrimSuffix(n, ".json")
	}
	names := make([]string, len(paths))
	for depth := 1; depth <= 3; depth++ {
		seen := map[string]int{}
		for i, p := range paths {
			names[i] = base(p, depth)
			seen[names[i]]++
		}
		dup := false
		for _, n := range seen {
			dup = dup || n > 1
		}
		if !dup {
			return names
		}
	}
	count := map[string]int{}
	for i, n := range names {
		count[n]++
		if count[n] > 1 {
			names[i] = fmt.Sprintf("%s #%d", n, count[n])
		}
	}
	return names
}

// importDirFor is a results directory name for importing the fio output
// at path: its base name without extension, prefixed "fio-".
func importDirFor(path string) string {
	b := filepath.Base(path)
	return "fio-" + strings.TrimSuffix(b, filepath.Ext(b))
}

// ImportFio turns fio outputs (and the per-interval logs among paths) into
// a sweep result, analysed for target and annotated; cmd names the command
// in errors.
func ImportFio(cmd string, paths []string, target float64, version string) (*sweep.Result, error) {
	if err := CheckInputs(cmd+":", paths); err != nil {
		return nil, err
	}
	outputs, logs := SplitFioLogArgs(paths)
	outs, err := ReadFioOutputs(cmd, outputs)
	if err != nil {
		return nil, err
	}
	r, err := fioadapt.ImportResult(outs)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	runs, err := FioRuns(cmd, outputs, logs)
	if err != nil {
		return nil, err
	}
	fioadapt.AttachSeries(r, runs, 0)
	r.Meta.Version = version
	if err := r.Analyze(littleslaw.Options{TargetIOPS: target}); err != nil {
		return nil, fmt.Errorf("%s: analyse: %w", cmd, err)
	}
	report.Annotate(r)
	return r, nil
}
