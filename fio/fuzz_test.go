package fio_test

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// fuzzParser checks that a parser never panics and that what it returns is usable.
func fuzzParser(f *testing.F, parse func(io.Reader) ([]fio.Output, error)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		outs, err := parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, o := range outs {
			for _, j := range o.Jobs {
				s := j.Summary()
				unknown := j.IODepthFrom == "unknown"
				if (j.IODepth < 1) != unknown || j.IODepth < 0 || j.NumJobs < 0 {
					t.Fatalf("job %q: iodepth %d (from %q) numjobs %d", j.Name, j.IODepth, j.IODepthFrom, j.NumJobs)
				}
				if !s.LatMeasured && (s.LatMeanNs != 0 || s.LatFrom != "") {
					t.Fatalf("job %q: latency not measured but mean %v from %q", j.Name, s.LatMeanNs, s.LatFrom)
				}
				if math.IsNaN(s.IOPS) || math.IsNaN(s.LatMeanNs) || math.IsInf(s.IOPS, 0) {
					t.Fatalf("job %q: IOPS %v latency %v", j.Name, s.IOPS, s.LatMeanNs)
				}
				for _, d := range j.Dirs() {
					if p, ok := fio.BinsPercentile(d.Clat.Bins, 99); ok && (math.IsNaN(p) || p < 0) {
						t.Fatalf("job %q: p99 from bins %v", j.Name, p)
					}
				}
			}
		}
	})
}

func FuzzParseJSON(f *testing.F) {
	addSeeds(f, "*.json", "*.jsonplus", "pasted-*.txt")
	fuzzParser(f, fio.ParseJSON)
}

func FuzzParseTerse(f *testing.F) {
	addSeeds(f, "*terse*.txt")
	fuzzParser(f, fio.ParseTerse)
}

func FuzzParseNormal(f *testing.F) {
	addSeeds(f, "*normal*.txt")
	fuzzParser(f, fio.ParseNormal)
}

func FuzzParse(f *testing.F) {
	addSeeds(f, "*.json", "*.txt")
	fuzzParser(f, fio.Parse)
}

// FuzzSplitClient reads fio server names: never a panic; a port it
// accepts is a TCP port.
func FuzzSplitClient(f *testing.F) {
	for _, s := range []string{"host1", "10.0.0.1:8765", "[fe80::1]:8766", "fe80::1", "h:0", ":1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, p, err := fio.SplitClient(s)
		if err != nil {
			return
		}
		if h == "" || p < 0 || p > 65535 {
			t.Fatalf("SplitClient(%q) = %q, %d", s, h, p)
		}
		_ = fio.ClientArg(s)
	})
}

// addSeeds adds every recorded fio output matching glob as a seed.
func addSeeds(f *testing.F, globs ...string) {
	f.Helper()
	for _, g := range globs {
		files, err := filepath.Glob(filepath.Join("testdata", g))
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("{\n}\n{\n"))
}
