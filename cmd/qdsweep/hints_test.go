package main_test

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/qdsweep/qdsweep/sweep"
	"go.yaml.in/yaml/v3"
)

// TestErrorsPointTheWay: an error that could point the way names the
// command or value to use, in one line, exit 2; and that suggestion, run
// as printed, works.
func TestErrorsPointTheWay(t *testing.T) {
	dir := t.TempDir()
	fioOut, _ := filepath.Abs(filepath.Join("..", "..", "examples", "fio", "fio-qd16.json"))
	points := filepath.Join(dir, "points.csv")
	if err := os.WriteFile(points, []byte("iodepth,numjobs,iops,lat_mean_us\n4,1,20000,200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		hint *regexp.Regexp // the suggested command (or value) in the message
		fix  func(m []string) []string
	}{
		{"report of fio output", []string{"report", fioOut}, regexp.MustCompile(`qdsweep (import fio --output \S+ \S+)`),
			func(m []string) []string { return strings.Fields(m[1]) }},
		{"advise from one point", []string{"advise", "--from", points, "--target-iops", "50000"}, regexp.MustCompile(`qdsweep (advise --target-iops \d+ --latency \S+)`),
			func(m []string) []string { return strings.Fields(m[1]) }},
		{"cloud preset typo", []string{"advise", "--cloud", "gcp-hyperdisk-balancd", "--target-iops", "50000"}, regexp.MustCompile(`did you mean (\S+)\?`),
			func(m []string) []string { return []string{"advise", "--cloud", m[1], "--target-iops", "50000"} }},
		{"iodepth range with a dash", []string{"sweep", "--ioengine=sim", "--iodepth=1-8", "--runtime=50ms", "--ramp_time=0", "--quiet", "--output", "o"}, regexp.MustCompile(`e\.g\. (\d+:\d+)`),
			func(m []string) []string {
				return []string{"sweep", "--ioengine=sim", "--iodepth=" + m[1], "--runtime=50ms", "--ramp_time=0", "--quiet", "--output", "o"}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runQdsweep(t, dir, nil, c.args...)
			m := c.hint.FindStringSubmatch(stderr)
			if code != 2 || strings.Count(stderr, "\n") != 1 || m == nil {
				t.Fatalf("exit %d, stderr %q: want one line with a suggestion matching %s", code, stderr, c.hint)
			}
			if strings.Contains(stderr, "bad plan spec") {
				t.Errorf("our word, not the user's: %q", stderr)
			}
			stdout, stderr, code := runQdsweep(t, dir, nil, c.fix(m)...)
			if code != 0 {
				t.Errorf("the suggestion %v: exit %d\n%s%s", c.fix(m), code, stdout, stderr)
			}
		})
	}
}

// TestHelpWithin80Columns: every command's --help keeps within 80 columns
// (a URL may run past), wrapped by the app, with no stray help command.
func TestHelpWithin80Columns(t *testing.T) {
	dir := t.TempDir()
	for _, c := range [][]string{{}, {"sweep"}, {"run"}, {"advise"}, {"report"}, {"compare"}, {"explain"}, {"diagnose"},
		{"import"}, {"import", "fio"}, {"man"}, {"completion"}} {
		out, stderr, code := runQdsweep(t, dir, nil, append(c, "--help")...)
		if code != 0 {
			t.Fatalf("%v --help: exit %d %s", c, code, stderr)
		}
		for _, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 80 && !strings.Contains(l, "://") {
				t.Errorf("qdsweep %v --help: %d columns: %q", c, n, l)
			}
		}
		if len(c) == 1 && c[0] == "run" && strings.Contains(out, "COMMANDS:") {
			t.Errorf("run --help lists commands:\n%s", out)
		}
	}
}

// TestManPage: qdsweep man is a section-1 page that groff renders without
// a warning, in plain ASCII roff, with every command, the examples, the
// exit statuses and the files a sweep writes.
func TestManPage(t *testing.T) {
	page, stderr, code := runQdsweep(t, t.TempDir(), nil, "man")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(page, ".TH QDSWEEP 1 ") {
		t.Errorf("not a section-1 page: %q", strings.SplitN(page, "\n", 2)[0])
	}
	for _, r := range page {
		if r > 126 {
			t.Fatalf("non-ASCII %q in the roff (write it as a groff escape)", r)
		}
	}
	for _, s := range []string{".SH NAME", ".SH SYNOPSIS", ".SH COMMANDS", ".SH EXAMPLES", ".SH EXIT STATUS", ".SH FILES",
		`.SS "qdsweep sweep"`, `.SS "qdsweep import fio"`, ".B 130", "results.json", "\\e: escapes a colon"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("groff not installed (.ci/run installs groff-base)")
		}
		t.Skip("groff not installed")
	}
	cmd := exec.Command(groff, "-man", "-ww", "-Tutf8", "-P-cbou")
	cmd.Stdin = strings.NewReader(page)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("groff -man -ww: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "EXIT STATUS") {
		t.Error("groff rendered no EXIT STATUS")
	}
}

// TestSeastarIOProperties: advise --for seastar writes io_properties.yaml
// in Seastar's shape from a sweep of the four curves, and its numbers are
// the plateaus results.json holds: IOPS from the 4k random curves,
// bandwidth from the largest sequential blocks.
func TestSeastarIOProperties(t *testing.T) {
	dir := t.TempDir()
	if out, stderr, code := runQdsweep(t, dir, nil, "sweep", "--ioengine=sim", "--sim_latency=100us", "--sim_iops=50000", "--sim_bw=500MiB",
		"--rw=randread,randwrite,read,write", "--bs=4k,1m", "--iodepth=1:64:x4", "--runtime=150ms", "--ramp_time=0", "--ss=0",
		"--control=false", "--quiet", "--output", "io"); code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code := runQdsweep(t, dir, nil, "advise", "--from", "io", "--for", "seastar", "--mountpoint", "/var/lib/scylla")
	if code != 0 {
		t.Fatalf("advise: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "io", "io_properties.yaml"))
	if err != nil || string(b) != out {
		t.Fatalf("io_properties.yaml %v, or it differs from what was printed", err)
	}
	var doc struct {
		Disks []struct {
			Mountpoint     string `yaml:"mountpoint"`
			ReadIOPS       int64  `yaml:"read_iops"`
			WriteIOPS      int64  `yaml:"write_iops"`
			ReadBandwidth  int64  `yaml:"read_bandwidth"`
			WriteBandwidth int64  `yaml:"write_bandwidth"`
		} `yaml:"disks"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Disks) != 1 {
		t.Fatalf("%v: %s", err, b)
	}
	r, err := sweep.Read(filepath.Join(dir, "io"))
	if err != nil {
		t.Fatal(err)
	}
	level := func(rw string, bs int64) float64 {
		for _, ca := range r.Analysis {
			if ca.RW == rw && ca.BS == bs {
				if ca.Analysis.Saturation.Found {
					return ca.Analysis.Saturation.IOPS
				}
				return ca.Analysis.MaxIOPS
			}
		}
		t.Fatalf("no %s %d curve", rw, bs)
		return 0
	}
	d := doc.Disks[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"read_iops", float64(d.ReadIOPS), level("randread", 4096)},
		{"write_iops", float64(d.WriteIOPS), level("randwrite", 4096)},
		{"read_bandwidth", float64(d.ReadBandwidth), level("read", 1<<20) * (1 << 20)},
		{"write_bandwidth", float64(d.WriteBandwidth), level("write", 1<<20) * (1 << 20)},
	} {
		if math.Abs(c.got-c.want) > 1 || c.got <= 0 {
			t.Errorf("%s = %.0f, results.json's plateau is %.0f", c.name, c.got, c.want)
		}
	}
	if d.Mountpoint != "/var/lib/scylla" {
		t.Errorf("mountpoint %q", d.Mountpoint)
	}
}
