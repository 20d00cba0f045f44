package fio_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

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

// fuzzParser checks that a parser never panics and that what it returns is usable.
func fuzzParser(f *testing.F, parse func(io.Reader) ([]fio.Output, error)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		outs, err := parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, o := range outs {
			for _, j := range o.Jobs {
				_ = j.Summary()
				if j.IODepth < 1 || j.NumJobs < 0 {
					t.Fatalf("job %q: iodepth %d numjobs %d", j.Name, j.IODepth, j.NumJobs)
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

func FuzzParseJobFile(f *testing.F) {
	for _, name := range []string{"sweep.fio", "cs.fio"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[global]\nbs=4k,8k\n[a]\nrw=randrw\nrwmixwrite=30\n[b]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jf, err := fio.ParseJobFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		runs, err := jf.Runs()
		if err != nil {
			return
		}
		for _, r := range runs {
			if w := r.Workload; w.IODepth < 1 || w.NumJobs < 1 || w.BS < 1 || w.RWMixRead < 0 || w.RWMixRead > 100 {
				t.Fatalf("run %q: invalid workload %+v", r.Name, w)
			}
		}
	})
}
