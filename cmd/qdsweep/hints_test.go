package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
