package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/urfave/cli/v2"
)

// minShapedWrites is the fewest writes a shaped sweep is judged on.
const minShapedWrites = 100

// shapedWrites sweeps random 4k-aligned writes over a file of 0xff bytes
// with the step flags given, and returns the lengths of the runs of 4k
// blocks the sweep changed (each run a block or more written back to
// back), how many blocks it changed, and the writes its steps counted.
// The step is timed and thinktime paces it, so a loaded machine writes
// fewer: a sweep that counted under minShapedWrites is run again, on a
// fresh file, for as much longer as its rate says ~150 writes take (at
// least twice as long, at most 8 s), until one counts enough.
func shapedWrites(t *testing.T, size int64, flags ...string) (runs []int, touched int, ios int64) {
	t.Helper()
	runtime := 700 * time.Millisecond
	for try := 1; ; try++ {
		runs, touched, ios = shapedWritesFor(t, size, runtime, flags...)
		if ios >= minShapedWrites {
			return runs, touched, ios
		}
		if try == 4 || runtime >= 8*time.Second {
			t.Fatalf("the sweep counted %d writes in %v (try %d): too few to judge", ios, runtime, try)
		}
		next := runtime * 2
		if ios > 0 {
			next = max(next, time.Duration(float64(runtime)*150/float64(ios)))
		}
		next = min(next, 8*time.Second).Round(time.Millisecond)
		t.Logf("%v: %d writes in %v, too few to judge; again for %v", flags, ios, runtime, next)
		runtime = next
	}
}

// shapedWritesFor is one sweep of shapedWrites, its step runtime long.
func shapedWritesFor(t *testing.T, size int64, runtime time.Duration, flags ...string) (runs []int, touched int, ios int64) {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "data")
	if err := os.WriteFile(f, bytes.Repeat([]byte{0xff}, int(size)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--filename=" + f, "--allow-write", "--rw=randwrite", "--direct=0", "--iodepth=2",
		"--ramp_time=0", "--runtime=" + runtime.String(), "--ss=0", "--mean-precision=0", "--control=false", "--output=res"}, flags...)
	code, _, stderr := runSweep(t, dir, args...)
	if code != 0 {
		t.Fatalf("sweep %v: exit %d: %s", args, code, stderr)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if s.Write != nil {
			ios += s.Write.TotalIOs
		}
	}
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	ff := bytes.Repeat([]byte{0xff}, 4096)
	run := 0
	for off := 0; off < len(data); off += 4096 {
		if !bytes.Equal(data[off:off+4096], ff) {
			touched++
			run++
			continue
		}
		if run > 0 {
			runs = append(runs, run)
		}
		run = 0
	}
	if run > 0 {
		runs = append(runs, run)
	}
	return runs, touched, ios
}

// TestSweepShapeFlagsReachTheIO gives sweep fio's shape options as flags
// and reads what its real writes did to the file: zipf:1.2 lands most
// writes on blocks written before (uniform offsets hardly ever do), and
// bssplit=4k/50:64k/50 writes runs of one block and of sixteen in about
// equal numbers (bs=4k alone writes single blocks). thinktime, a step
// flag too, keeps the writes few enough that uniform ones rarely meet.
// One step each: every step draws the same offsets from the same seed.
func TestSweepShapeFlagsReachTheIO(t *testing.T) {
	const size = 64 << 20 // 16,384 blocks of 4k
	_, uniform, uniformIOs := shapedWrites(t, size, "--bs=4k", "--thinktime=2000")
	_, zipf, zipfIOs := shapedWrites(t, size, "--bs=4k", "--thinktime=2000", "--random_distribution=zipf:1.2")
	u, z := float64(uniform)/float64(uniformIOs), float64(zipf)/float64(zipfIOs)
	t.Logf("uniform: %d blocks of %d writes (%.2f); zipf:1.2: %d of %d (%.2f)", uniform, uniformIOs, u, zipf, zipfIOs, z)
	if u < 0.85 || z > 0.7 || z > u*0.75 {
		t.Errorf("blocks changed per write: uniform %.2f, zipf:1.2 %.2f: want uniform's near 1 and zipf's well below it", u, z)
	}
	runs, _, ios := shapedWrites(t, size, "--bs=4k", "--thinktime=5000", "--bssplit=4k/50:64k/50")
	ones, sixteens := 0, 0
	for _, n := range runs {
		switch {
		case n == 1:
			ones++
		case n >= 16 && n < 32:
			sixteens++
		}
	}
	t.Logf("bssplit=4k/50:64k/50: %d writes changed %d runs: %d of one block, %d of 16-31", ios, len(runs), ones, sixteens)
	if n := float64(len(runs)); float64(ones) < 0.3*n || float64(sixteens) < 0.3*n || float64(ones+sixteens) < 0.85*n {
		t.Errorf("runs of changed blocks: %d of one block, %d of 16-31, of %d: want about half each", ones, sixteens, len(runs))
	}
	runs, _, _ = shapedWrites(t, size, "--bs=4k", "--thinktime=5000")
	ones = 0
	for _, n := range runs {
		if n == 1 {
			ones++
		}
	}
	if float64(ones) < 0.9*float64(len(runs)) {
		t.Errorf("bs=4k without bssplit changed %d single blocks of %d runs: want nearly all single", ones, len(runs))
	}
}

// TestSweepFlagsFollowTheTable holds sweep's flags to the option table's
// decisions: a row sweep has a flag of (its own, or a step row's made from
// the row) has one, and a row a sweep takes only from a job file, or
// refuses, has none.
func TestSweepFlagsFollowTheTable(t *testing.T) {
	flags := map[string]bool{}
	for _, f := range sweepCommand().Flags {
		for _, n := range f.Names() {
			flags[n] = true
		}
	}
	for _, d := range fio.RunOptions {
		switch d.SweepUse() {
		case fio.SweepFlag, fio.SweepStep:
			if !flags[d.Name] {
				t.Errorf("%s: a sweep flag by the table, and sweep has none", d.Name)
			}
		case fio.SweepJobFile, fio.SweepRefused:
			if flags[d.Name] {
				t.Errorf("%s: no sweep flag by the table, and sweep has one", d.Name)
			}
		}
	}
}

// TestSweepRefusesLatencyTarget: a sweep's job file with fio's
// latency_target is refused in one line naming --latency-slo, and the fix
// it names runs: the same job without it, the objective given as
// --latency-slo, sweeps and answers it.
func TestSweepRefusesLatencyTarget(t *testing.T) {
	dir := t.TempDir()
	body := "[lat]\nrw=randread\nsize=8m\nfilename=data\n"
	if err := os.WriteFile(filepath.Join(dir, "lt.fio"), []byte(body+"latency_target=2ms\nlatency_window=1s\nlatency_percentile=99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runSweep(t, dir, "--jobfile=lt.fio", "--sim=latency=100us,iops=20000", "--output=res")
	if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "latency_target") || !strings.Contains(stderr, "--latency-slo") {
		t.Fatalf("exit %d, stdout %q, stderr %q: want one line naming latency_target and --latency-slo", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "res")); !os.IsNotExist(err) {
		t.Fatalf("a refused sweep wrote its results directory (%v)", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixed.fio"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runSweep(t, dir, "--jobfile=fixed.fio", "--sim=latency=100us,iops=20000", "--iodepth=1:16",
		"--ramp_time=0", "--runtime=200ms", "--latency-slo=p99=2ms", "--output=res")
	if code != 0 || !strings.Contains(stdout, "p99") {
		t.Fatalf("the fix: exit %d: %s\n%s", code, stderr, stdout)
	}
}

// TestSweepFioFlagsHelpFromTable: every sweep flag named after a fio
// option (an alias too) takes its help from the option table
// (fio.SweepFlagHelp; a step option's with " (each step)", an io_uring
// option's from fio.UringOptions), none written beside the flag.
func TestSweepFioFlagsHelpFromTable(t *testing.T) {
	uring := map[string]string{}
	for _, u := range fio.UringOptions {
		uring[u.Name] = u.Help
	}
	n := 0
	for _, f := range sweepCommand().Flags {
		name := f.Names()[0]
		if fio.OptionKind(name) == "" || name == overwriteFlag {
			continue // qdsweep's own flag (--overwrite: its results directory, no fio overwrite=)
		}
		n++
		want := fio.SweepFlagHelp(name)
		if h, ok := uring[name]; ok {
			want = h
		}
		got := f.(cli.DocGenerationFlag).GetUsage()
		if want == "" || (got != want && got != want+" (each step)") {
			t.Errorf("--%s: help %q, the table's %q", name, got, want)
		}
	}
	t.Logf("%d sweep flags named after fio options", n)
	if n < 20 {
		t.Errorf("found %d sweep flags named after fio options; the check lost them", n)
	}
}
