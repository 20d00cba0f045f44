package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReportingOptionsAsFio runs fio's reporting options (clat_percentiles,
// lat_percentiles, unified_rw_reporting), alone and together, in a job
// file and on the command line, under fio 3.33 and under qdsweep run, and
// compares the shape of every output format fio writes: in json and json+
// the directions each job reports (read, write, trim, sync, mixed), their
// I/O counts summed, which latencies carry percentiles and bins; in terse
// the number of fields and of empty percentile fields; in the normal
// layout the directions, the percentile blocks and the run status lines.
func TestReportingOptionsAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	cases := [][]string{
		{"lat_percentiles=1"},
		{"clat_percentiles=0"},
		{"clat_percentiles=0", "lat_percentiles=1"},
		{"unified_rw_reporting=mixed"},
		{"unified_rw_reporting=both"},
		{"unified_rw_reporting=1", "lat_percentiles=1"},
		{"unified_rw_reporting=2", "clat_percentiles=0"},
		{"unified_rw_reporting=none"},
		{"rw=randread"},
		{"rw=randread", "percentile_list=50:99"},
	}
	for i, opts := range cases {
		for _, form := range []string{"file", "cmdline"} {
			for _, format := range []string{"json", "json+", "terse", "normal"} {
				name := fmt.Sprintf("%d_%s_%s_%s", i, strings.Join(opts, "_"), form, format)
				t.Run(name, func(t *testing.T) {
					f := reportingShape(t, fioBin, nil, form, format, opts)
					q := reportingShape(t, sweepBinary(t), []string{"run", "--allow-write"}, form, format, opts)
					t.Logf("%s", q)
					if f != q {
						t.Errorf("%s with %s:\nfio:     %s\nqdsweep: %s", format, strings.Join(opts, " "), f, q)
					}
				})
			}
		}
	}
}

// reportingShape runs a 64-I/O random read-write job (size-based, so
// both tools do the same I/Os) with opts, in a job file or on the
// command line, under bin, and returns the shape of its output in format.
func reportingShape(t *testing.T, bin string, pre []string, form, format string, opts []string) string {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	job := append([]string{"filename=" + data, "rw=randrw", "bs=4k", "size=256k", "randseed=7"}, opts...)
	args := append([]string{}, pre...)
	if form == "file" {
		text := "[r]\n" + strings.Join(job, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(dir, "r.fio"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "r.fio")
	} else {
		args = append(args, "--name=r")
		for _, o := range job {
			args = append(args, "--"+o)
		}
	}
	args = append(args, "--output-format="+format)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v: %s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
	}
	switch format {
	case "json", "json+":
		return jsonReportingShape(t, out)
	case "terse":
		fields := strings.Split(strings.TrimSpace(string(out)), ";")
		empty := 0
		for _, f := range fields {
			if f == "0%=0" {
				empty++
			}
		}
		return fmt.Sprintf("%d fields, %d empty percentiles", len(fields), empty)
	}
	return normalReportingShape(out)
}

// jsonReportingShape is the directions of fio's JSON job, their summed
// I/Os, and the latencies with percentiles and bins in each.
func jsonReportingShape(t *testing.T, out []byte) string {
	t.Helper()
	var doc struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("JSON: %v (%d jobs)\n%s", err, len(doc.Jobs), out)
	}
	var parts []string
	for _, d := range []string{"read", "write", "trim", "sync", "mixed"} {
		raw, ok := doc.Jobs[0][d]
		if !ok {
			continue
		}
		var dir map[string]json.RawMessage
		if err := json.Unmarshal(raw, &dir); err != nil {
			t.Fatal(err)
		}
		var has []string
		for _, l := range []string{"slat_ns", "clat_ns", "lat_ns"} {
			var lat map[string]json.RawMessage
			_ = json.Unmarshal(dir[l], &lat)
			for _, k := range []string{"percentile", "bins"} {
				if _, ok := lat[k]; ok {
					has = append(has, l+"."+k)
				}
			}
		}
		parts = append(parts, d+"["+strings.Join(has, ",")+"]")
	}
	var ios [2]float64 // reads+writes apart, mixed
	for _, d := range []string{"read", "write", "mixed"} {
		var n struct {
			TotalIOs float64 `json:"total_ios"`
		}
		if raw, ok := doc.Jobs[0][d]; ok {
			_ = json.Unmarshal(raw, &n)
		}
		ios[map[bool]int{true: 1, false: 0}[d == "mixed"]] += n.TotalIOs
	}
	return fmt.Sprintf("%s; I/Os %.0f apart, %.0f mixed", strings.Join(parts, " "), ios[0], ios[1])
}

// reNormalShape matches the lines of fio's normal layout whose presence
// the reporting options decide.
var reNormalShape = regexp.MustCompile(`^\s*(read|write|trim|mixed): IOPS=|^\s*(clat|lat) percentiles|^\s*(READ|WRITE|TRIM|MIXED): bw=|issued rwts: total=\d+,\d+`)

// normalReportingShape is the sequence of those lines' heads.
func normalReportingShape(out []byte) string {
	var heads []string
	for _, l := range strings.Split(string(out), "\n") {
		if m := reNormalShape.FindString(l); m != "" {
			m = strings.TrimSpace(m)
			if strings.HasPrefix(m, "issued") {
				// Whether the reads' slot holds every I/O (mixed) or some.
				m = "issued:" + map[bool]string{true: "one slot", false: "apart"}[strings.HasSuffix(m, ",0")]
			}
			heads = append(heads, m)
		}
	}
	return strings.Join(slices.Compact(heads), " | ")
}

// TestMinimalAsFio: --minimal is fio's terse output, as fio 3.33's
// (version 3, the same fields as fio's line), and a terse version other
// than 3, which qdsweep does not write, is refused in one line, exit 2.
func TestMinimalAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	f := reportingShape(t, fioBin, nil, "cmdline", "terse", []string{"rw=randread"})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runQdsweep(t, dir, "run", "--name=r", "--filename=data", "--rw=randread", "--size=256k", "--minimal")
	fields := strings.Split(strings.TrimSpace(stdout), ";")
	ff := strings.Split(strings.TrimSpace(strings.SplitN(f, " ", 2)[0]), " ")[0]
	if code != 0 || fields[0] != "3" || fmt.Sprint(len(fields)) != ff {
		t.Errorf("--minimal: exit %d, %d fields starting %q; fio's terse: %s (%s)", code, len(fields), fields[0], f, stderr)
	}
	_, stderr, code = runQdsweep(t, dir, "run", "--name=r", "--filename=data", "--size=256k", "--minimal", "--terse-version=4")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--terse-version=4") {
		t.Errorf("--terse-version=4: exit %d, %q; want exit 2 naming it", code, stderr)
	}
}

// TestNormalLayoutAsFio: fio's normal layout as fio 3.33 prints it, line
// kind for line kind, for jobs under both tools: two jobs in two groups
// (a 16k reader, a 4k writer), a job with kb_base=1000 and a block size
// per direction (bs=4k,8k,16k), one with a bssplit per direction. The
// header lines are equal as written (fio's block sizes, 16.0KiB-16.0KiB,
// the trims' own: (T) 16.0kB-16.0kB); each job's block follows the one
// before without a blank line; the write line has '; 0 zone resets'; one
// blank line before the run status of each group; under kb_base=1000 the
// decimal units first (BW=16.4MB/s (15.6MiB/s)). Figures, and the rows of
// percentiles and latency buckets (which the two tools' timings decide),
// are left out; the latency lines' fields are held to fio's widths
// (latFieldsNotAsFio) in both tools' outputs.
func TestNormalLayoutAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	cases := []struct{ name, file string }{
		{"two-groups", "[r]\nfilename=data\nrw=read\nbs=16k\nsize=256k\n[w]\nstonewall\nfilename=data\nrw=write\nbs=4k\nsize=128k\n"},
		{"kb_base-1000-trim-bs", "[m]\nfilename=data\nkb_base=1000\nrw=randrw\nbs=4k,8k,16k\nsize=256k\nrandseed=7\n"},
		{"bssplit-per-direction", "[s]\nfilename=data\nrw=randrw\nbssplit=4k/50:8k/50,16k,32k\nsize=256k\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, fout := normalLayout(t, fioBin, c.file)
			q, qout := normalLayout(t, sweepBinary(t), c.file, "run", "--allow-write")
			if f != q {
				t.Errorf("normal layout:\n--- fio\n%s\n--- qdsweep\n%s", f, q)
			}
			for _, o := range []struct{ tool, out string }{{"fio", fout}, {"qdsweep", qout}} {
				if bad := latFieldsNotAsFio(o.out); len(bad) > 0 {
					t.Errorf("%s's latency lines not in fio's widths:\n%s", o.tool, strings.Join(bad, "\n"))
				}
			}
		})
	}
}

// normalLayout runs job file text under bin (after pre) in a directory
// holding a 256 KiB file "data", and returns its normal output's line
// kinds (figures as N; the header lines as written) and the output.
func normalLayout(t *testing.T, bin, file string, pre ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(pre, "j.fio")...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(bin), err)
	}
	var kinds []string
	num := regexp.MustCompile(`[0-9][0-9.]*[kKMG]?`)
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.Contains(l, ": (g="):
			kinds = append(kinds, l) // the header: no figure of the run
			continue
		case strings.HasPrefix(strings.TrimSpace(l), "|"), strings.Contains(l, "lat ("), strings.Contains(l, "percentiles ("),
			strings.HasPrefix(l, "fio-"), strings.Contains(l, "Disk stats"), strings.HasPrefix(l, "  vd"), strings.HasPrefix(l, "  sd"),
			strings.HasPrefix(l, "  nvme"), strings.HasPrefix(l, "  loop"):
			continue
		}
		l = regexp.MustCompile(`pid=\d+: .*`).ReplaceAllString(l, "pid")
		kinds = append(kinds, num.ReplaceAllString(l, "N"))
	}
	return strings.Join(kinds, "\n"), string(out)
}

// reLatLine is a latency line of fio's normal output: its min, max, avg
// and stdev fields.
var reLatLine = regexp.MustCompile(`^ +(?:clat|lat|slat|clat prio \d+/\d+) \((?:nsec|usec|msec)\): min=([^,]*), max=([^,]*), avg=([^,]*), stdev=(.*)$`)

// latFieldsNotAsFio returns the latency lines of out whose fields are not
// as fio 3.33's display_lat writes them: min and max by num2str in six
// digits (whole up to 999999, else four digits and one decimal or five or
// six digits before k, M, G: "2698.0k", where four digits would give
// "2.7M" or "76.3k" for 76,300), avg and stdev as %5.02f (" 1.00").
func latFieldsNotAsFio(out string) []string {
	six := regexp.MustCompile(`^(\d{1,6}|\d{4}\.\d[kMGTP]|\d{5,6}[kMGTP])$`)
	f52 := regexp.MustCompile(`^( \d|\d{2,})\.\d\d$`)
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		m := reLatLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if !six.MatchString(m[1]) || !six.MatchString(m[2]) || !f52.MatchString(m[3]) || !f52.MatchString(m[4]) {
			bad = append(bad, l)
		}
	}
	return bad
}

// TestFormatListAsFio: --output-format with a list of fio's formats
// prints each, as fio 3.33 does, on a job file of two jobs in two groups:
// whatever the list's order, normal's header lines first, then terse's
// lines, one JSON document (json+ when listed, with its bins), then the
// rest of normal's (a blank line, the job blocks, the run status), to
// standard output or the --output file; a repeated format is printed
// once. A list fio refuses (a space, an empty or unknown name) qdsweep
// refuses in one line, exit 2, where fio exits 1.
func TestFormatListAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const file = "[r]\nfilename=data\nrw=read\nbs=16k\nsize=256k\n[w]\nstonewall\nfilename=data\nrw=write\nbs=4k\nsize=128k\n"
	for _, c := range []struct {
		list string
		out  bool // --output=FILE
	}{
		{"json,normal", false}, {"normal,json", false}, {"terse,json,normal", false}, {"normal,terse", false},
		{"json,json+", false}, {"json+,normal", false}, {"terse,json+", false}, {"normal,normal", false}, {"json,normal", true},
	} {
		t.Run(fmt.Sprintf("%s_output_%v", c.list, c.out), func(t *testing.T) {
			f := formatListShape(t, fioBin, file, c.list, c.out)
			q := formatListShape(t, sweepBinary(t), file, c.list, c.out, "run", "--allow-write")
			t.Logf("%s", q)
			if f != q {
				t.Errorf("--output-format=%s:\nfio:     %s\nqdsweep: %s", c.list, f, q)
			}
		})
	}
	dir := t.TempDir()
	for _, list := range []string{"json, normal", "json,", "json,bogus", "json,qdsweep"} {
		cmd := exec.Command(fioBin, "--name=r", "--filename=x", "--size=64k", "--output-format="+list)
		cmd.Dir = dir
		fioErr := cmd.Run()
		_, stderr, code := runQdsweep(t, dir, "run", "--name=r", "--filename=x", "--size=64k", "--output-format="+list)
		var exit *exec.ExitError
		fioRefused := errors.As(fioErr, &exit) && exit.ExitCode() == 1
		if !fioRefused || code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--output-format") {
			t.Errorf("--output-format=%q: fio %v; qdsweep exit %d, %q", list, fioErr, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused list left %d files", len(entries))
	}
}

// formatListShape runs the job file under bin with --output-format=list
// (to a file with toFile) and returns the sections of what it printed in
// order: H a header line, V the version, S "Starting", T a terse line,
// { and } a JSON document (+bins: json+'s), _ a blank line, J a job's
// block, R a group's run status.
func formatListShape(t *testing.T, bin, file, list string, toFile bool, pre ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(pre, "j.fio", "--output-format="+list)
	if toFile {
		args = append(args, "--output=out.txt")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v", filepath.Base(bin), strings.Join(args, " "), err)
	}
	if toFile {
		if len(out) != 0 {
			t.Errorf("%s wrote %d bytes to standard output with --output", filepath.Base(bin), len(out))
		}
		if out, err = os.ReadFile(filepath.Join(dir, "out.txt")); err != nil {
			t.Fatal(err)
		}
	}
	var marks []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		m := ""
		switch {
		case strings.Contains(l, ": (g="):
			m = "H"
		case strings.HasPrefix(l, "fio-"):
			m = "V"
		case strings.HasPrefix(l, "Starting"):
			m = "S"
		case strings.HasPrefix(l, "3;"):
			m = "T"
		case l == "{", l == "}":
			m = l
		case strings.Contains(l, `"bins"`) && !slices.Contains(marks, "+bins"):
			m = "+bins"
		case l == "":
			m = "_"
		case strings.Contains(l, "(groupid="):
			m = "J"
		case strings.HasPrefix(l, "Run status"):
			m = "R"
		}
		if m != "" {
			marks = append(marks, m)
		}
	}
	return strings.Join(marks, " ")
}

// TestJSONKeysAsFio: fio's JSON and json+ documents with their keys in
// fio 3.33's order, as qdsweep writes them for the same job: a command
// line with options before --name (fio's "global options", as given) and
// one given twice (listed twice), a job file whose [global] and job
// section name filename first (fio reads, and lists, it after the rest of
// its section); each job's "jobname", "groupid", "error", "eta", … "job
// options", "read", …; the IO depth and latency buckets low to high; and
// "eta" as fio writes it after a run under 3 s (2147483647, its INT_MAX);
// and laid out byte for byte as fio prints it (`"key" : value`, two spaces
// a level, a double's six decimals) apart from the measured numbers.
func TestJSONKeysAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const file = "[global]\nfilename=data\nsize=256k\nrandseed=7\n[r]\nfilename=data\nrw=randread\nbs=16k\n[w]\nstonewall\nrw=write\nbs=4k\nbs=8k\nsize=128k\n"
	cmdline := []string{"--size=256k", "--randseed=7", "--name=r", "--filename=data", "--rw=randrw", "--bs=4k", "--bs=8k"}
	for _, format := range []string{"json", "json+"} {
		for _, form := range []string{"file", "cmdline"} {
			t.Run(format+"_"+form, func(t *testing.T) {
				run := func(bin string, pre ...string) ([]string, []float64, string) {
					dir := t.TempDir()
					if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
						t.Fatal(err)
					}
					args := append(pre, cmdline...)
					if form == "file" {
						if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
							t.Fatal(err)
						}
						args = append(pre, "j.fio")
					}
					cmd := exec.Command(bin, append(args, "--output-format="+format)...)
					cmd.Dir = dir
					out, err := cmd.Output()
					if err != nil {
						t.Fatalf("%s: %v", filepath.Base(bin), err)
					}
					keys, etas := jsonKeyPaths(t, out)
					return keys, etas, jsonLayoutOf(out)
				}
				fk, feta, flay := run(fioBin)
				qk, qeta, qlay := run(sweepBinary(t), "run", "--allow-write")
				if flay != qlay {
					t.Errorf("layout differs:\n--- fio\n%s\n--- qdsweep\n%s", flay, qlay)
				}
				if !slices.Equal(fk, qk) {
					t.Errorf("keys differ:\n--- fio\n%s\n--- qdsweep\n%s", strings.Join(fk, "\n"), strings.Join(qk, "\n"))
				}
				if !slices.Equal(feta, qeta) {
					t.Errorf("eta: fio %v, qdsweep %v", feta, qeta)
				}
			})
		}
	}
}

// jsonLayoutOf is a JSON document as fio lays it out with its measured
// numbers replaced: an integer by N, a number with decimals by N.F (fio's
// %f), the "fio version" and "time" strings by S; json+'s bins and the
// disks' entries, which the run decides, left out.
func jsonLayoutOf(out []byte) string {
	num := regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)
	var lines []string
	skipTo := ""
	for _, l := range strings.Split(string(out), "\n") {
		if skipTo != "" {
			if strings.HasPrefix(l, skipTo) {
				skipTo = ""
				lines = append(lines, l)
			}
			continue
		}
		trimmed := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(trimmed)]
		switch {
		case strings.HasPrefix(trimmed, `"bins" : {`):
			skipTo = indent + "}"
		case strings.HasPrefix(trimmed, `"disk_util" : [`):
			skipTo = indent + "]"
		case strings.HasPrefix(trimmed, `"fio version" : `), strings.HasPrefix(trimmed, `"time" : `):
			k, _, _ := strings.Cut(l, " : ")
			l = k + ` : "S",`
		}
		lines = append(lines, num.ReplaceAllStringFunc(l, func(n string) string {
			if strings.Contains(n, ".") {
				return "N.F"
			}
			return "N"
		}))
	}
	return strings.Join(lines, "\n")
}

// jsonKeyPaths is every key of a JSON document in its order, a repeated
// one each time, as a path (/jobs[]/job options/bs; json+'s bins and the
// disks' entries, which the run decides, left out), and each "eta".
func jsonKeyPaths(t *testing.T, out []byte) ([]string, []float64) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	var paths []string
	var etas []float64
	var walk func(path string, skip bool)
	walk = func(path string, skip bool) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("JSON: %v\n%s", err, out)
		}
		if n, ok := tok.(float64); ok && strings.HasSuffix(path, "/eta") {
			etas = append(etas, n)
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					t.Fatal(err)
				}
				k := kt.(string)
				if !skip {
					paths = append(paths, path+"/"+k)
				}
				walk(path+"/"+k, skip || k == "bins" || k == "disk_util")
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				walk(path+"[]", skip)
			}
			_, _ = dec.Token()
		}
	}
	walk("", false)
	return paths, etas
}

// TestJSONElapsedAsFio: each job's "elapsed" in fio's JSON is the seconds
// since the run started, rounded up, the same for every job of the run
// (fio 3.33: 4 and 4 for two groups of 2 s and 1 s; qdsweep wrote each
// job's own runtime, 3 and 2), and "eta" follows from it: 2147483647
// under 3 s, else 0. Two time-based groups of 2 s and 1 s run at least
// 3 s, so both write elapsed ≥ 3 and eta 0 for both jobs.
func TestJSONElapsedAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const file = "[global]\nfilename=data\nsize=256k\ntime_based\n[r]\nrw=randread\nbs=4k\nruntime=2\n[w]\nstonewall\nrw=write\nbs=4k\nruntime=1\n"
	for _, bin := range []struct {
		name string
		path string
		pre  []string
	}{{"fio", fioBin, nil}, {"qdsweep", sweepBinary(t), []string{"run", "--allow-write"}}} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runIn(dir, bin.path, append(bin.pre, "j.fio", "--output-format=json")...)
		if err != nil {
			t.Fatalf("%s: %v", bin.name, err)
		}
		var doc struct {
			Jobs []struct {
				Name    string  `json:"jobname"`
				Eta     float64 `json:"eta"`
				Elapsed float64 `json:"elapsed"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%s: %v\n%s", bin.name, err, out)
		}
		if len(doc.Jobs) != 2 {
			t.Fatalf("%s: %d jobs, want 2", bin.name, len(doc.Jobs))
		}
		for _, j := range doc.Jobs {
			if j.Elapsed != doc.Jobs[0].Elapsed || j.Elapsed < 3 || j.Eta != 0 {
				t.Errorf("%s: job %s elapsed %v eta %v; want the run's seconds (job %s: %v), at least 3, and eta 0",
					bin.name, j.Name, j.Elapsed, j.Eta, doc.Jobs[0].Name, doc.Jobs[0].Elapsed)
			}
		}
	}
}
