package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// flowCase is one job file of TestFlowAgainstFio: two jobs of one flow,
// their patterns and weights, the engine, its depth and flow_sleep (µs).
type flowCase struct {
	rw     [2]string
	weight [2]int
	engine string
	depth  int
	sleep  int
}

// jobFile is the case's job file on path, time based for 2 s.
func (c flowCase) jobFile(path string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[global]\nfilename=%s\nsize=16m\nbs=8k\nnorandommap\nthread\ntime_based\nruntime=2\nioengine=%s\niodepth=%d\nflow_sleep=%d\n",
		path, c.engine, c.depth, c.sleep)
	for i := range 2 {
		fmt.Fprintf(&b, "[job%d]\nrw=%s\nflow=%d\n", i, c.rw[i], c.weight[i])
	}
	return b.String()
}

// flowCases are fio's examples/flow.fio (a writer at 1 beside a random
// reader at 8, libaio at depth 256, flow_sleep=1000) and n more pairs of
// weights drawn from seed, each on psync, libaio or io_uring in turn.
func flowCases(seed uint64, n int) []flowCase {
	cases := []flowCase{{rw: [2]string{"write", "randread"}, weight: [2]int{1, 8}, engine: "libaio", depth: 256, sleep: 1000}}
	rng := rand.New(rand.NewPCG(seed, 0))
	engines := []struct {
		name         string
		depth, sleep int
	}{{"psync", 1, 0}, {"libaio", 16, 200}, {"io_uring", 8, 0}}
	for i := range n {
		e := engines[i%len(engines)]
		cases = append(cases, flowCase{rw: [2]string{"read", "randread"}, weight: [2]int{1 + rng.IntN(9), 1 + rng.IntN(9)},
			engine: e.name, depth: e.depth, sleep: e.sleep})
	}
	return cases
}

// flowTol is how far qdsweep's ratio of the two jobs' I/Os may be from
// fio's: both hold the jobs to their weights within a few I/Os; the rest
// is the few milliseconds one job runs on after the other's window closed.
const flowTol = 0.15

// TestFlowAgainstFio runs the same job files of two jobs sharing a flow
// (fio's flow, flow_sleep) under fio 3.33 and under qdsweep run, on real
// files, and checks that qdsweep's jobs did their I/Os in fio's ratio.
func TestFlowAgainstFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	qdBin := sweepBinary(t)
	const seed = 35
	for i, c := range flowCases(seed, 4) {
		t.Run(fmt.Sprintf("%d_%s_%d_%d", i, c.engine, c.weight[0], c.weight[1]), func(t *testing.T) {
			f := flowRatio(t, c, fioBin, "--output-format=json")
			q := flowRatio(t, c, qdBin, "run", "--allow-write", "--output-format=json")
			t.Logf("flow %d beside %d (%s, iodepth %d, flow_sleep %d): fio %d:%d (%.3f), qdsweep %d:%d (%.3f)",
				c.weight[0], c.weight[1], c.engine, c.depth, c.sleep, f[0], f[1], float64(f[1])/float64(f[0]), q[0], q[1], float64(q[1])/float64(q[0]))
			fr, qr := float64(f[1])/float64(f[0]), float64(q[1])/float64(q[0])
			if qr < fr*(1-flowTol) || qr > fr*(1+flowTol) {
				t.Errorf("qdsweep's jobs did %d and %d I/Os (%.3f), fio's %d and %d (%.3f): more than %.0f%% apart",
					q[0], q[1], qr, f[0], f[1], fr, 100*flowTol)
			}
		})
	}
}

// flowRatio runs c's job file under bin on a fresh 32 MiB file and returns
// the two jobs' I/O counts (each at least 1).
func flowRatio(t *testing.T, c flowCase, bin string, args ...string) [2]int64 {
	dir := t.TempDir()
	data := filepath.Join(dir, "flow.dat")
	writeSynced(t, data, 32<<20)
	job := filepath.Join(dir, "flow.fio")
	if err := os.WriteFile(job, []byte(c.jobFile(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, job)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	killNaming(job)
	if err != nil {
		t.Fatalf("%s: %v: %s", filepath.Base(bin), err, stderr.String())
	}
	o, err := fio.ParseJSON(strings.NewReader(string(out)))
	if err != nil {
		t.Fatalf("%s's JSON: %v", filepath.Base(bin), err)
	}
	jobs := fio.Final(o)[0].Jobs
	if len(jobs) != 2 {
		t.Fatalf("%s reported %d jobs; want 2", filepath.Base(bin), len(jobs))
	}
	var n [2]int64
	for i, j := range jobs {
		n[i] = max(j.Summary().TotalIOs, 1)
	}
	return n
}

// writeSynced writes n zero bytes to path and flushes them to the device:
// a job that drops the file's cache as it starts (fio's invalidate) then
// has no dirty pages to write back first, which in fio delays the job
// that drops them past the other's start, and one job of a flow starts
// alone, held back, then runs on alone, its share unheld.
func writeSynced(t *testing.T, path string, n int) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, n)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFlowThroughFioEngine: --ioengine=fio hands fio the whole job file,
// so jobs sharing a flow run in fio's shares through qdsweep too; with
// --fio-clients, where fio's servers run the file once per job and each
// job would see its flow alone, such a file is refused in one line naming
// the flow and --fio-clients, nothing written.
func TestFlowThroughFioEngine(t *testing.T) {
	fioBin := fioOrSkip(t)
	c := flowCase{rw: [2]string{"read", "randread"}, weight: [2]int{1, 8}, engine: "psync", depth: 1}
	f := flowRatio(t, c, fioBin, "--output-format=json")
	q := flowRatio(t, c, sweepBinary(t), "run", "--ioengine=fio", "--allow-write", "--output-format=json")
	fr, qr := float64(f[1])/float64(f[0]), float64(q[1])/float64(q[0])
	t.Logf("flow 1 beside 8: fio %d:%d (%.3f), through fio under qdsweep %d:%d (%.3f)", f[0], f[1], fr, q[0], q[1], qr)
	if qr < fr*(1-flowTol) || qr > fr*(1+flowTol) {
		t.Errorf("through fio under qdsweep the jobs did %d and %d I/Os (%.3f), under fio %d and %d (%.3f): more than %.0f%% apart",
			q[0], q[1], qr, f[0], f[1], fr, 100*flowTol)
	}

	dir := t.TempDir()
	data := filepath.Join(dir, "flow.dat")
	writeSynced(t, data, 1<<20)
	job := filepath.Join(dir, "flow.fio")
	if err := os.WriteFile(job, []byte(c.jobFile(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runQdsweep(t, dir, "run", "--ioengine=fio", "--fio-clients=h1", job)
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, fio.OptFlowID) || !strings.Contains(stderr, "--fio-clients") || stdout != "" {
		t.Errorf("exit %d, %q, %q; want exit 2 and one line naming the shared flow and --fio-clients", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("a refused run wrote: %v", entries)
	}
}
