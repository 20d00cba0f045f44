package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/fio"
)

// latDist is one run's latency distribution as its JSON gives it: each
// family's (ns, us, ms) buckets by key.
type latDist map[string]map[string]float64

// share is the percent of I/Os in family fam.
func (d latDist) share(fam string) float64 {
	s := 0.0
	for _, v := range d[fam] {
		s += v
	}
	return s
}

// held is fam's keys with I/Os, in fio's order.
func (d latDist) held(fam string) []string {
	var ks []string
	for _, k := range latKeys(fam) {
		if d[fam][k] > 0 {
			ks = append(ks, k)
		}
	}
	return ks
}

func (d latDist) String() string {
	var parts []string
	for _, fam := range []string{"ns", "us", "ms"} {
		var cells []string
		for _, k := range d.held(fam) {
			cells = append(cells, fmt.Sprintf("%s=%.2f", k, d[fam][k]))
		}
		parts = append(parts, fam+"{"+strings.Join(cells, " ")+"}")
	}
	return strings.Join(parts, " ")
}

// latKeys are the keys of fio's latency_<fam>, in its order.
func latKeys(fam string) []string {
	ks := []string{"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"}
	if fam == "ms" {
		ks = append(ks, "2000", ">=2000")
	}
	return ks
}

// TestLatencyDistAsFio runs a buffered psync read of a cached file in
// 512-byte blocks (most I/Os under a µs) and a direct read under fio 3.33
// and under qdsweep run, in json, normal and terse, and compares the
// latency distribution's structure (the two tools' timings differ): every
// key of latency_ns/us/ms in each; the buckets summing to 100 %; in each
// family holding a tenth of fio's I/Os, buckets with I/Os in common; the
// ns share near fio's (mostly ns in the cached read, none in the direct
// one); the normal layout's "lat (nsec)" line before "lat (usec)" when
// the ns buckets hold I/Os, in both; terse's field count fio's and its
// 22 latency fields summing to 100 % (v3 has no ns fields: fio adds them
// to us 2). fio's readers read every output of both.
func TestLatencyDistAsFio(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed (.ci/run installs it)")
		}
		t.Skip("fio is not installed")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, bytes.Repeat([]byte("qdsweep!"), 4<<20/8), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		opts   []string
		mostNs bool
	}{
		{"cached512", []string{"rw=read", "bs=512", "size=4m", "ioengine=psync"}, true},
		{"direct", []string{"rw=read", "bs=4k", "size=4m", "ioengine=psync", "direct=1"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--name=" + tc.name, "--filename=" + data}
			for _, o := range tc.opts {
				args = append(args, "--"+o)
			}
			f := latDistOf(t, dir, fioBin, args)
			q := latDistOf(t, dir, "", append([]string{"run"}, args...))
			t.Logf("fio     %s", f)
			t.Logf("qdsweep %s", q)
			compareLatDist(t, f, q, tc.mostNs)
		})
	}
}

// compareLatDist checks q's distribution against fio's f.
func compareLatDist(t *testing.T, f, q latDist, mostNs bool) {
	t.Helper()
	for name, d := range map[string]latDist{"fio": f, "qdsweep": q} {
		if sum := d.share("ns") + d.share("us") + d.share("ms"); sum < 99 || sum > 101 {
			t.Errorf("%s: buckets sum to %.2f %%", name, sum)
		}
		for _, fam := range []string{"ns", "us", "ms"} {
			if len(d[fam]) != len(latKeys(fam)) {
				t.Errorf("%s: latency_%s has %d keys, fio's %d", name, fam, len(d[fam]), len(latKeys(fam)))
			}
		}
	}
	for _, fam := range []string{"ns", "us", "ms"} {
		if f.share(fam) < 10 {
			continue
		}
		common := false
		for _, k := range f.held(fam) {
			common = common || q[fam][k] > 0
		}
		if !common {
			t.Errorf("%s buckets with I/Os: fio %v, qdsweep %v, none in common", fam, f.held(fam), q.held(fam))
		}
	}
	fns, qns := f.share("ns"), q.share("ns")
	switch {
	case mostNs && fns < 50:
		t.Logf("fio's I/Os are not mostly under a µs here (%.1f %%): the ns share is not compared", fns)
	case mostNs && (qns < 25 || qns-fns > 45 || fns-qns > 45):
		t.Errorf("ns share: fio %.1f %%, qdsweep %.1f %%", fns, qns)
	case !mostNs && (fns > 5 || qns > 5):
		t.Errorf("ns share of a direct read: fio %.1f %%, qdsweep %.1f %%", fns, qns)
	}
}

// latDistOf runs args under bin (qdsweep when "") in json, normal and
// terse, checks that fio's readers read each and that the normal layout
// and terse carry the JSON's distribution in fio's shape, and returns
// the JSON's distribution.
func latDistOf(t *testing.T, dir, bin string, args []string) latDist {
	t.Helper()
	outs := map[string][]byte{}
	for _, format := range []string{"json", "normal", "terse"} {
		a := append(append([]string{}, args...), "--output-format="+format)
		var out []byte
		if bin == "" {
			stdout, stderr, code := runQdsweep(t, dir, a...)
			if code != 0 {
				t.Fatalf("qdsweep %s: exit %d: %s", strings.Join(a, " "), code, stderr)
			}
			out = []byte(stdout)
		} else {
			var err error
			if out, err = runIn(dir, bin, a...); err != nil {
				t.Fatalf("fio %s: %v: %s", strings.Join(a, " "), err, out)
			}
		}
		if _, err := fio.Parse(bytes.NewReader(out)); err != nil {
			t.Errorf("%s: fio's readers: %v\n%s", format, err, out)
		}
		outs[format] = out
	}
	var doc struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(outs["json"], &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("JSON: %v\n%s", err, outs["json"])
	}
	d := latDist{}
	for _, fam := range []string{"ns", "us", "ms"} {
		var m map[string]float64
		if err := json.Unmarshal(doc.Jobs[0]["latency_"+fam], &m); err != nil {
			t.Fatalf("latency_%s: %v", fam, err)
		}
		d[fam] = m
	}
	checkNormalLatLines(t, outs["normal"], d.share("ns") > 0)
	checkTerseLat(t, outs["terse"])
	return d
}

// checkNormalLatLines: "lat (nsec)" is there when the ns buckets hold
// I/Os, and comes before "lat (usec)" and "lat (msec)".
func checkNormalLatLines(t *testing.T, out []byte, ns bool) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^  lat \((nsec|usec|msec)\)   : `)
	var units []string
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		if len(units) == 0 || units[len(units)-1] != m[1] {
			units = append(units, m[1])
		}
	}
	got := strings.Join(units, ",")
	if ns != strings.HasPrefix(got, "nsec") || strings.Contains(got, "msec,") || strings.Contains(got, "usec,nsec") {
		t.Errorf("normal layout's bucket lines %q (ns buckets with I/Os: %v):\n%s", got, ns, out)
	}
}

// checkTerseLat: fio's 130 fields (with one device; 121 without) and its
// 10 µs and 12 ms latency fields, from the 100th, summing to 100 %.
func checkTerseLat(t *testing.T, out []byte) {
	t.Helper()
	fields := strings.Split(strings.TrimSpace(string(out)), ";")
	if len(fields) != 121 && len(fields) != 130 {
		t.Fatalf("terse: %d fields, fio's 121 or 130 with a device:\n%s", len(fields), out)
	}
	sum := 0.0
	for _, f := range fields[99:121] {
		v, err := strconv.ParseFloat(strings.TrimSuffix(f, "%"), 64)
		if err != nil {
			t.Fatalf("terse latency field %q: %v", f, err)
		}
		sum += v
	}
	if sum < 99 || sum > 101 {
		t.Errorf("terse latency fields sum to %.2f %%:\n%s", sum, out)
	}
}
