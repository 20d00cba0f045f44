package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/report"
)

// TestExplainP99IsTheMeansOwn runs fio 3.33 on a file with engines that
// time submission apart (libaio, io_uring) and one that does not (psync),
// with and without lat_percentiles, in all four of fio's formats, and
// reads each output with explain. The p99 explain quotes beside the mean
// total latency must be the total's (fio's lat_ns percentile) or be named
// the completion's (clat_ns), and in JSON it is that figure: a libaio run
// at QD 1 on a fast device spent 2.5 µs of its 3.5 µs mean in submission,
// and a bare "p99 1.16 µs" beside a 3.47 µs mean read as a contradiction.
func TestExplainP99IsTheMeansOwn(t *testing.T) {
	fioBin := fioOrSkip(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	type latJSON struct {
		Pct map[string]float64 `json:"percentile"`
	}
	for _, engine := range []string{"libaio", "io_uring", "psync"} {
		for _, latPct := range []string{"0", "1"} {
			for _, format := range []string{"json", "json+", "normal", "terse"} {
				what := engine + " " + format + " lat_percentiles=" + latPct
				args := []string{"--name=p", "--filename=f", "--size=8m", "--rw=randread", "--bs=4k", "--ioengine=" + engine,
					"--iodepth=4", "--number_ios=2000", "--lat_percentiles=" + latPct, "--output-format=" + format}
				cmd := exec.Command(fioBin, args...)
				cmd.Dir = dir
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("fio %s: %v", what, err)
				}
				in := filepath.Join(dir, "out")
				if err := os.WriteFile(in, out, 0o644); err != nil {
					t.Fatal(err)
				}
				got, errs, code := runQdsweep(t, dir, "explain", in)
				flat := strings.Join(strings.Fields(got), " ")
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", what, code, errs)
				}
				// fio's terse fields hold lat's percentiles under
				// lat_percentiles=1 and clat's otherwise, unsaid.
				want := engine != "psync" && (latPct == "0" || format == "terse")
				named := strings.Contains(flat, "(completion p99 ")
				if format == "terse" {
					named = strings.Contains(flat, "terse output does not say which")
				}
				if named != want {
					t.Errorf("%s: p99 said to be another's than the mean's: %v, want %v:\n%s", what, named, want, flat)
				}
				if format != "json" {
					continue
				}
				var doc struct {
					Jobs []struct {
						Read struct {
							Clat latJSON `json:"clat_ns"`
							Lat  latJSON `json:"lat_ns"`
						} `json:"read"`
					} `json:"jobs"`
				}
				if i := strings.IndexByte(string(out), '{'); i > 0 {
					out = out[i:] // fio's notes before the document
				}
				if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
					t.Fatalf("%s: %v", what, err)
				}
				src := doc.Jobs[0].Read.Lat
				if latPct == "0" {
					src = doc.Jobs[0].Read.Clat
				}
				if p99 := "p99 " + report.FormatLatency(src.Pct["99.000000"]); !strings.Contains(flat, p99) {
					t.Errorf("%s: explain does not quote fio's %q:\n%s", what, p99, flat)
				}
			}
		}
	}
}
