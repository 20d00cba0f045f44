package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/internal/textsafe"
	"github.com/qdsweep/qdsweep/units"
)

// File names inside a results directory.
const (
	ResultsJSON = "results.json"
	ResultsCSV  = "results.csv"
)

// ErrSchema is wrapped when a file is not a qdsweep result of this schema.
var ErrSchema = errors.New("not a " + Schema + " result")

// Write writes r into out as results.json and results.csv (and its
// series), each replaced atomically through out (temporary file, fsync,
// rename), so a reader or an interrupted sweep always sees a whole file.
func Write(out *guard.Out, r *Result) error {
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write results: encode JSON: %w", err)
	}
	if err := out.WriteFile(ResultsJSON, js.Bytes()); err != nil {
		return err
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if err := out.WriteFile(ResultsCSV, csv.Bytes()); err != nil {
		return err
	}
	if !r.hasSeries() {
		return nil
	}
	var series bytes.Buffer
	if err := WriteSeriesCSV(&series, r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return out.WriteFile(ResultsSeriesCSV, series.Bytes())
}

// Read reads a result from path: a results.json file or a results directory
// holding one. It rejects truncated or invalid JSON and other schemas.
func Read(path string) (*Result, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, ResultsJSON)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	defer f.Close()
	r, err := ParseResult(f)
	if err != nil {
		return nil, fmt.Errorf("read result %s: %w", path, err)
	}
	return r, nil
}

// ParseResult decodes one result document from rd and checks its schema.
func ParseResult(rd io.Reader) (*Result, error) {
	dec := json.NewDecoder(rd)
	var r Result
	if err := dec.Decode(&r); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("truncated or empty JSON: %w", err)
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invalid JSON: data after the result document")
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("%w: schema is %q", ErrSchema, r.Schema)
	}
	if r.Steps == nil {
		r.Steps = []Step{}
	}
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("invalid result: %w", err)
	}
	textsafe.Strip(&r)
	return &r, nil
}

// ErrResumeMismatch is wrapped when a resumed sweep would measure something
// else than the sweep it continues.
var ErrResumeMismatch = errors.New("resume: different measurement")

// CheckResume refuses to splice next onto prev, the meta of the sweep being
// resumed, when they would not measure the same thing: another engine
// (io_uring falling back to libaio again is the same), target, direct,
// size, read mix, simulator settings, or device block size. Plan
// differences (rw, bs, iodepth, numjobs) are Plan.Equal's to refuse. The
// error is one line naming the first difference and the fix.
func CheckResume(prev, next Meta) error {
	diff := func(what, was, now string) error {
		return fmt.Errorf("%w: the sweep ran with %s %s and this one would use %s; resume with the same settings or start a new sweep",
			ErrResumeMismatch, what, was, now)
	}
	switch {
	case prev.Engine != next.Engine:
		return diff("--"+fio.OptIOEngine, quoteOr(prev.Engine), quoteOr(next.Engine))
	case prev.Simulated != next.Simulated:
		return diff("a simulated engine", fmt.Sprint(prev.Simulated), fmt.Sprint(next.Simulated))
	case prev.Workload.Sim != next.Workload.Sim:
		return diff("simulator", quoteOr(prev.Workload.Sim), quoteOr(next.Workload.Sim))
	case !sameTarget(prev.Target, next.Target):
		return diff("--"+fio.OptFilename, quoteOr(prev.Target), quoteOr(next.Target))
	case prev.Workload.Direct != next.Workload.Direct:
		return diff("--"+fio.OptDirect, fmt.Sprint(prev.Workload.Direct), fmt.Sprint(next.Workload.Direct))
	case prev.Workload.Size != next.Workload.Size:
		return diff("--"+fio.OptSize, units.FioSize(prev.Workload.Size), units.FioSize(next.Workload.Size))
	case prev.Workload.IOUring != next.Workload.IOUring:
		return diff("io_uring options", quoteOr(prev.Workload.IOUring), quoteOr(next.Workload.IOUring))
	case prev.Workload.Shape != next.Workload.Shape:
		return diff("block sizes and offsets", quoteOr(prev.Workload.Shape), quoteOr(next.Workload.Shape))
	case prev.Workload.RWMixRead != next.Workload.RWMixRead:
		return diff("--"+fio.OptRWMixRead, fmt.Sprint(prev.Workload.RWMixRead), fmt.Sprint(next.Workload.RWMixRead))
	}
	if prev.Device != nil && next.Device != nil && prev.Device.LogicalBlockSize != 0 && next.Device.LogicalBlockSize != 0 &&
		prev.Device.LogicalBlockSize != next.Device.LogicalBlockSize {
		return diff("a device of logical block size", fmt.Sprint(prev.Device.LogicalBlockSize), fmt.Sprint(next.Device.LogicalBlockSize))
	}
	return nil
}

// sameTarget compares two targets as paths: equal once cleaned, or the same
// file now. A scratch file is the same target in any directory.
func sameTarget(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	if a != "" && b != "" && filepath.Base(a) == scratchBase && filepath.Base(b) == scratchBase {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// scratchBase is the scratch file's name (cmd's default target).
const scratchBase = "qdsweep.scratch"

func quoteOr(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
