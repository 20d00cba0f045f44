package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRunThroughFio: a job file with options qdsweep does not run natively
// (serialize_overlap, write_hint) runs through fio, one line naming them,
// its figures in qdsweep's report; without fio the refusal names them and
// says to install fio, in one line, exit 2, nothing written.
func TestRunThroughFio(t *testing.T) {
	const file = "[j]\nfilename=f\nsize=1m\nserialize_overlap=1\nwrite_hint=short\nrw=randwrite\nruntime=300ms\ntime_based\n"
	t.Run("fio installed", func(t *testing.T) {
		if _, err := exec.LookPath("fio"); err != nil {
			t.Skip("fio is not installed (CI installs it)")
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runQdsweep(t, dir, "run", "j.fio", "--output-format=json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var note string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "through fio") {
				note = l
			}
		}
		if !strings.Contains(note, "serialize_overlap=1 (line 4)") || !strings.Contains(note, "write_hint=short (line 5)") {
			t.Fatalf("want one line naming what sent the job to fio; stderr:\n%s", stderr)
		}
		var doc struct {
			Jobs []struct {
				Write struct {
					TotalIOs int64 `json:"total_ios"`
				} `json:"write"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Jobs) != 1 || doc.Jobs[0].Write.TotalIOs <= 0 {
			t.Fatalf("fio's JSON as qdsweep writes it: %v\n%s", err, stdout)
		}
	})
	t.Run("fio missing", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sweepBinary(t), "run", "j.fio")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+t.TempDir()) // no fio there
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		line := strings.TrimSpace(stderr.String())
		if !ok || ee.ExitCode() != 2 || strings.Contains(line, "\n") || !strings.Contains(line, "serialize_overlap=1") ||
			!strings.Contains(line, "write_hint=short") || !strings.Contains(line, "install fio") {
			t.Fatalf("exit %v, %q; want exit 2 and one line naming the options and how to install fio", err, line)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 || stdout.Len() > 0 {
			t.Fatalf("a refused run wrote: %v, %q", entries, stdout.String())
		}
	})
}

// TestViaFioCloneFilesRefused: a job that runs through fio with numjobs
// clones and no filename (each clone its own file, fio's NAME.N.0) is
// refused in one line naming the job and its clones' files, exit 2,
// before anything is laid out: the directory holds the job file alone.
func TestViaFioCloneFilesRefused(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed (CI installs it)")
	}
	for _, tc := range []struct{ name, file string }{
		{"job file", "[a]\nrw=read\nbs=4k\nsize=1m\nnumjobs=2\nserialize_overlap=1\n"},
		{"--ioengine=fio", "[a]\nrw=read\nbs=4k\nsize=1m\nnumjobs=3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"run", "--allow-write", "j.fio"}
			if tc.name == "--ioengine=fio" {
				args = append(args, "--ioengine=fio")
			}
			stdout, stderr, code := runQdsweep(t, dir, args...)
			line := strings.TrimSpace(stderr)
			if code != 2 || strings.Contains(line, "\n") || !strings.Contains(line, "job a: numjobs=") || !strings.Contains(line, "a.0.0") {
				t.Fatalf("exit %d, %q; want exit 2 and one line naming the job and its clones' files", code, line)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 || stdout != "" {
				t.Fatalf("a refused run wrote: %v, %q", entries, stdout)
			}
		})
	}
}

// TestViaFioSizeBased: a job without time_based or runtime that runs
// through fio (verify_offset, verify_async) ends by its size, as fio's
// does: fio's own counts (256 writes of a 1 MiB file at 4k, each read
// back), where qdsweep handed fio time_based with a runtime of a century.
func TestViaFioSizeBased(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed (CI installs it)")
	}
	const file = "[v]\nfilename=f\nrw=randwrite\nbs=4k\nverify=crc32c\nverify_offset=64\nverify_async=2\n"
	counts := func(bin string, args ...string) [2]int64 {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append(args, "--output-format=json", "j.fio")...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v (a job that ends by its size ran on): %s", filepath.Base(bin), err, stderr.String())
		}
		var doc struct {
			Jobs []struct {
				Read, Write struct {
					TotalIOs int64 `json:"total_ios"`
				}
			} `json:"jobs"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 {
			t.Fatalf("%s's JSON: %v\n%s", filepath.Base(bin), err, stdout.String())
		}
		return [2]int64{doc.Jobs[0].Read.TotalIOs, doc.Jobs[0].Write.TotalIOs}
	}
	want := counts(fioBin)
	got := counts(sweepBinary(t), "run", "--allow-write")
	if want != [2]int64{256, 256} || got != want {
		t.Fatalf("reads and writes: qdsweep %v, fio %v; want 256 each", got, want)
	}
}

// TestViaFioStdevAsFio: a job run through fio (serialize_overlap=1) shows
// in qdsweep's normal output the clat and lat stdev fio measured, as fio
// shows a nonzero one for the same job (fio 3.33: stdev=48.42 usec;
// qdsweep printed stdev= 0.00): with --output-format=json,normal, the
// normal block's stdev is the JSON's clat and lat stddev in its unit.
func TestViaFioStdevAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const file = "[r]\nfilename=data\nsize=256k\nrw=randread\nbs=4k\nserialize_overlap=1\n"
	run := func(bin string, pre ...string) []byte {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runIn(dir, bin, append(pre, "j.fio", "--output-format=json,normal")...)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(bin), err)
		}
		return out
	}
	for _, who := range []struct {
		name string
		out  []byte
	}{{"fio", run(fioBin)}, {"qdsweep", run(sweepBinary(t), "run", "--allow-write")}} {
		var doc struct {
			Jobs []struct {
				Read struct {
					Clat struct{ Stddev float64 } `json:"clat_ns"`
					Lat  struct{ Stddev float64 } `json:"lat_ns"`
				} `json:"read"`
			} `json:"jobs"`
		}
		if err := json.NewDecoder(bytes.NewReader(jsonPart(who.out))).Decode(&doc); err != nil || len(doc.Jobs) != 1 {
			t.Fatalf("%s: JSON: %v\n%s", who.name, err, who.out)
		}
		want := map[string]float64{"clat": doc.Jobs[0].Read.Clat.Stddev, "lat": doc.Jobs[0].Read.Lat.Stddev}
		for _, l := range strings.Split(string(who.out), "\n") {
			var kind, unit string
			var lo, hi, avg, stdev float64
			f := strings.Fields(strings.NewReplacer("(", "", "):", "", ",", " ", "=", " ").Replace(l))
			if len(f) < 10 || (f[0] != "clat" && f[0] != "lat") || f[2] != "min" {
				continue
			}
			kind, unit = f[0], f[1]
			lo, _ = strconv.ParseFloat(f[3], 64)
			hi, _ = strconv.ParseFloat(f[5], 64)
			avg, _ = strconv.ParseFloat(f[7], 64)
			stdev, _ = strconv.ParseFloat(f[9], 64)
			div := map[string]float64{"nsec": 1, "usec": 1e3, "msec": 1e6}[unit]
			if got := strconv.FormatFloat(stdev, 'f', 2, 64); div == 0 || want[kind] == 0 || got != strconv.FormatFloat(want[kind]/div, 'f', 2, 64) {
				t.Errorf("%s: %s stdev=%s %s (min %v max %v avg %v), want the JSON's %v ns, nonzero", who.name, kind, got, unit, lo, hi, avg, want[kind])
			}
			delete(want, kind)
		}
		if len(want) != 0 {
			t.Errorf("%s: no %v line in:\n%s", who.name, want, who.out)
		}
	}
}

// TestViaFioPercentilesAsFio: a job that runs through fio shows what fio
// shows of its latency in the normal layout: its slat, clat and lat lines
// (qdsweep showed the total for clat and no slat), fio's 17 percentiles
// (qdsweep showed 4, the only ones its summary of fio's run kept) and the
// "lat (usec)" distribution lines, read from fio's own json+ buckets.
func TestViaFioPercentilesAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const file = "[r]\nfilename=data\nsize=256k\nrw=randread\nbs=4k\nioengine=libaio\niodepth=4\nserialize_overlap=1\n"
	shape := func(bin string, pre ...string) (pcts, dist string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "j.fio"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runIn(dir, bin, append(pre, "j.fio")...)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(bin), err)
		}
		var labels []string
		lines := 0
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "|") {
				for _, f := range strings.Fields(strings.NewReplacer("|", " ", ",", " ").Replace(l)) {
					if k, _, ok := strings.Cut(f, "="); ok {
						labels = append(labels, k)
					}
				}
			}
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "lat (") && strings.Contains(t, ")   :") {
				lines++
			} else if k, _, ok := strings.Cut(t, " ("); ok && strings.Contains(t, "): min=") {
				labels = append(labels, k) // slat, clat, lat
			}
		}
		return strings.Join(labels, " "), strconv.FormatBool(lines > 0)
	}
	fp, fd := shape(fioBin)
	qp, qd := shape(sweepBinary(t), "run", "--allow-write")
	if fp != qp || fd != qd {
		t.Errorf("percentiles and distribution lines:\n fio     %s (lat lines %s)\n qdsweep %s (lat lines %s)", fp, fd, qp, qd)
	}
}
