package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File names inside a results directory.
const (
	ResultsJSON = "results.json"
	ResultsCSV  = "results.csv"
)

// ErrSchema is wrapped when a file is not a qdsweep result of this schema.
var ErrSchema = errors.New("not a " + Schema + " result")

// Write writes r into dir as results.json and results.csv, each replaced
// atomically (temporary file in dir, fsync, rename, mode 0644), so a reader
// or an interrupted sweep always sees a whole file. dir is created if needed.
func Write(dir string, r *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write results: encode JSON: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, ResultsJSON), js.Bytes()); err != nil {
		return err
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, ResultsCSV), csv.Bytes()); err != nil {
		return err
	}
	if !r.hasSeries() {
		return nil
	}
	var series bytes.Buffer
	if err := WriteSeriesCSV(&series, r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return WriteFileAtomic(filepath.Join(dir, ResultsSeriesCSV), series.Bytes())
}

// WriteFileAtomic replaces path with data: it writes a temporary file in the
// same directory, fsyncs it, renames it over path (mode 0644) and fsyncs the directory.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: makes the rename durable
		d.Close()
	}
	return nil
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
	return &r, nil
}

// IsResultsDir reports whether dir holds a readable qdsweep results.json.
func IsResultsDir(dir string) bool {
	_, err := Read(filepath.Join(dir, ResultsJSON))
	return err == nil
}
