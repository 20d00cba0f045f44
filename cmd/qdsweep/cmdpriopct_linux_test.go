package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCmdPrioPercentilesAsFio runs 4096 random 4k reads with
// cmdprio_percentage=30 and cmdprio_class=1 at iodepth 8, io_uring and
// libaio, with lat_percentiles=1, alone, with clat_percentiles=0, and
// clat_percentiles=0 alone, under fio 3.33 and under qdsweep run, in json,
// json+, normal and terse, and compares the shape of each: the per-priority
// blocks ("prios": clat_ns or lat_ns, their keys and percentiles in fio's
// order; normal's "clat prio"/"lat prio" lines and percentile blocks with
// their rows), and terse's fields. Submission latency (slat), which
// qdsweep times as one with completion, is left out. Each tool's real-time
// reads are 30% of 4096 within 5 binomial standard deviations.
func TestCmdPrioPercentilesAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	qd := sweepBinary(t)
	for _, eng := range []string{"io_uring", "libaio"} {
		for _, opts := range [][]string{{"lat_percentiles=1"}, {"clat_percentiles=0", "lat_percentiles=1"}, {"clat_percentiles=0"}} {
			for _, format := range []string{"json", "json+", "normal", "terse"} {
				t.Run(eng+"/"+strings.Join(opts, "_")+"/"+format, func(t *testing.T) {
					job := "[global]\nfilename=%f\nsize=16m\nrw=randread\niodepth=8\nbs=4k\nioengine=" + eng +
						"\ncmdprio_percentage=30\ncmdprio_class=1\n" + strings.Join(opts, "\n") + "\n[j]\n"
					f := prioShape(t, fioBin, nil, job, format)
					q := prioShape(t, qd, []string{"run", "--allow-write"}, job, format)
					if f != q {
						t.Errorf("%s:\nfio:     %s\nqdsweep: %s", format, f, q)
					}
				})
			}
		}
	}
}

// prioShape runs job (its file named by %f) under bin with
// --output-format=format in a directory of its own and returns the shape
// of its output; in JSON it checks the priorities' I/O counts.
func prioShape(t *testing.T, bin string, pre []string, job, format string) string {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, make([]byte, 16<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(strings.ReplaceAll(job, "%f", data)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runIn(dir, bin, append(pre, "--output-format="+format, "j.fio")...)
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out)
	}
	switch format {
	case "json", "json+":
		return prioJSONShape(t, filepath.Base(bin), jsonPart(out))
	case "terse":
		fields := strings.Split(strings.TrimSpace(string(out)), ";")
		return fmt.Sprintf("%d fields, %d empty percentiles", len(fields), strings.Count(string(out), ";0%=0"))
	}
	return prioNormalShape(out)
}

// prioJSONShape is the read direction's "prios" of a JSON document: each
// entry's class/level, latency block name, keys in order (percentiles by
// their keys, bins by their presence). It fails the test where the
// real-time reads are not 30% of all within 5 binomial standard
// deviations.
func prioJSONShape(t *testing.T, who string, out []byte) string {
	t.Helper()
	var doc struct {
		Jobs []struct {
			Read struct {
				TotalIOs float64           `json:"total_ios"`
				Prios    []json.RawMessage `json:"prios"`
			} `json:"read"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("%s's JSON: %v\n%s", who, err, out)
	}
	r := doc.Jobs[0].Read
	var parts []string
	rt := -1.0
	for _, raw := range r.Prios {
		keys, n := orderedKeys(t, raw)
		parts = append(parts, keys)
		if strings.HasPrefix(keys, "prioclass=1 ") {
			rt = n
		}
	}
	const p = 0.3
	if sd := math.Sqrt(r.TotalIOs * p * (1 - p)); math.Abs(rt-p*r.TotalIOs) > 5*sd+1 {
		t.Errorf("%s: %.0f of %.0f reads at 1/0, want %.0f ± %.0f", who, rt, r.TotalIOs, p*r.TotalIOs, 5*sd)
	}
	return strings.Join(parts, " | ")
}

// orderedKeys is one "prios" entry as "prioclass=C prio=L name{keys}",
// with the keys of its latency block in the order written (a percentile's
// own; "bins" for json+'s), and that block's N.
func orderedKeys(t *testing.T, raw []byte) (string, float64) {
	t.Helper()
	var e map[string]json.RawMessage
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	var class, level int
	_ = json.Unmarshal(e["prioclass"], &class)
	_ = json.Unmarshal(e["prio"], &level)
	s := fmt.Sprintf("prioclass=%d prio=%d", class, level)
	var n float64
	for _, name := range []string{"clat_ns", "lat_ns"} {
		block, ok := e[name]
		if !ok {
			continue
		}
		var l struct {
			N          float64         `json:"N"`
			Percentile json.RawMessage `json:"percentile"`
			Bins       json.RawMessage `json:"bins"`
		}
		if err := json.Unmarshal(block, &l); err != nil {
			t.Fatal(err)
		}
		n = l.N
		s += " " + name + "{" + strings.Join(jsonKeys(t, block), ",")
		if l.Percentile != nil {
			s += " percentile[" + strings.Join(jsonKeys(t, l.Percentile), ",") + "]"
		}
		s += "}"
	}
	return s, n
}

// jsonKeys are the keys of a JSON object in the order written.
func jsonKeys(t *testing.T, obj []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// rePrioNormal matches the normal layout's latency lines and percentile
// heads (clat, lat, each priority's), slat's left out.
var rePrioNormal = regexp.MustCompile(`^\s*((?:clat|lat)(?: prio \d+/\d+)?(?: \([0-9.]+% of IOs\))?(?: percentiles)?) \((?:nsec|usec|msec|sec)\):(?: min=|$)`)

// prioNormalShape is the sequence of those lines (a priority's share as
// P%), each percentile block with the percentiles its rows list.
func prioNormalShape(out []byte) string {
	var heads []string
	pct := regexp.MustCompile(`([0-9.]+)th=`)
	for _, l := range strings.Split(string(out), "\n") {
		if m := rePrioNormal.FindStringSubmatch(l); m != nil {
			heads = append(heads, regexp.MustCompile(`[0-9.]+% of IOs`).ReplaceAllString(m[1], "P% of IOs"))
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "|") && len(heads) > 0 {
			for _, m := range pct.FindAllStringSubmatch(l, -1) {
				heads[len(heads)-1] += " " + m[1]
			}
		}
	}
	return strings.Join(heads, " | ")
}
