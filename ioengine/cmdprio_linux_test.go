//go:build linux

package ioengine_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qdsweep/qdsweep/internal/looptest"
	"github.com/qdsweep/qdsweep/ioengine"
)

// binomialSlack is how far a count of n draws at probability p may be
// from n·p: 5 standard deviations (a false failure once in ~1.7 million
// runs), plus one for rounding.
func binomialSlack(n int, p float64) float64 {
	return 5*math.Sqrt(float64(n)*p*(1-p)) + 1
}

// prioRun runs w reading n I/Os on eng, keeping every I/O, and returns
// the reads' count by the priority each went at, and the stats.
func prioRun(t *testing.T, eng string, w ioengine.Workload, n int64) (map[uint16]int, map[int64]map[uint16]int, *ioengine.Stats) {
	t.Helper()
	st, err := mustEngine(t, eng).Run(context.Background(), w, ioengine.Control{Runtime: time.Minute, IOsPerJob: n, IOLog: true})
	if err != nil {
		t.Fatal(err)
	}
	byPrio, byBS := map[uint16]int{}, map[int64]map[uint16]int{}
	for _, recs := range st.IOLog {
		for _, r := range recs {
			byPrio[r.Prio]++
			if byBS[r.Bytes] == nil {
				byBS[r.Bytes] = map[uint16]int{}
			}
			byBS[r.Bytes][r.Prio]++
		}
	}
	return byPrio, byBS, st
}

// checkPrioStats holds the direction's per-priority figures to the I/Os
// kept: one entry per priority that had I/Os, in want's order, each
// counting the I/Os that went at it.
func checkPrioStats(t *testing.T, d *ioengine.DirStats, byPrio map[uint16]int, want []uint16) {
	t.Helper()
	var got []uint16
	for _, p := range d.Prios {
		got = append(got, p.Prio)
		if int(p.TotalIOs) != byPrio[p.Prio] || p.Lat.MeanNs <= 0 {
			t.Errorf("prio 0x%04x: %d I/Os, mean %.0f ns in the stats; %d went at it", p.Prio, p.TotalIOs, p.Lat.MeanNs, byPrio[p.Prio])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("per-priority stats for %04x, want %04x", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("per-priority stats for %04x, want %04x (the job's first)", got, want)
		}
	}
}

// TestCmdPrioPercentage runs fio's cmdprio-percentage example's
// priorities (the job idle, 20% of the reads real-time) on io_uring and
// libaio: every I/O goes at one of the two, the real-time share is 20%
// within the binomial bound, and the stats count each priority's I/Os.
func TestCmdPrioPercentage(t *testing.T) {
	const n = 4000
	idle, rt := ioengine.PrioValue(ioengine.PrioClassIdle, 0), ioengine.PrioValue(ioengine.PrioClassRT, 0)
	path := fastFile(t, "cmdprio", 4<<20)
	for _, eng := range []string{"io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 1, RandSeed: 7,
				Prio: ioengine.IOPrio{Job: idle, JobSet: true, Cmd: [2]ioengine.CmdPrio{{Percent: 20, Value: rt}, {Percent: 20, Value: rt}}}}
			byPrio, _, st := prioRun(t, eng, w, n)
			if byPrio[idle]+byPrio[rt] != n {
				t.Fatalf("%v: I/Os at other priorities than 0x%04x and 0x%04x, or not %d in all", byPrio, idle, rt, n)
			}
			if d := math.Abs(float64(byPrio[rt]) - 0.2*n); d > binomialSlack(n, 0.2) {
				t.Errorf("%d of %d reads real-time, want %.0f ± %.0f", byPrio[rt], n, 0.2*n, binomialSlack(n, 0.2))
			}
			checkPrioStats(t, st.Read, byPrio, []uint16{idle, rt})
			t.Logf("%d of %d reads at 0x%04x (%.1f%%)", byPrio[rt], n, rt, 100*float64(byPrio[rt])/n)
		})
	}
}

// TestCmdPrioBSSplit runs cmdprio_bssplit's advanced form as fio's
// cmdprio-bssplit example does (4k/25/1/1:4k/75/3/2 over bssplit
// 4k/50:16k/50): a 4k read goes real-time level 1 a quarter of the time
// and idle level 2 otherwise, a 16k read at the job's default (none), and
// the stats list the job's priority first, then the split's in order.
func TestCmdPrioBSSplit(t *testing.T) {
	const n = 4000
	rt1, idle2 := ioengine.PrioValue(ioengine.PrioClassRT, 1), ioengine.PrioValue(ioengine.PrioClassIdle, 2)
	path := fastFile(t, "cmdprio-split", 8<<20)
	for _, eng := range []string{"io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			w := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 1, RandSeed: 11,
				Shape: ioengine.Shape{BSSplit: [2][]ioengine.BSShare{{{BS: 4096, Perc: 50}, {BS: 16384, Perc: 50}}}},
				Prio:  ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Split: []ioengine.PrioShare{{BS: 4096, Percent: 25, Value: rt1}, {BS: 4096, Percent: 75, Value: idle2}}}}}}
			byPrio, byBS, st := prioRun(t, eng, w, n)
			if len(byBS[16384]) != 1 || byBS[16384][0] == 0 {
				t.Errorf("16k reads went at %v, want all at 0 (none)", byBS[16384])
			}
			small := byBS[4096][rt1] + byBS[4096][idle2]
			if small != byBS[4096][rt1]+byBS[4096][idle2]+byBS[4096][0] || small == 0 {
				t.Fatalf("4k reads went at %v, want only 0x%04x and 0x%04x", byBS[4096], rt1, idle2)
			}
			if d := math.Abs(float64(byBS[4096][rt1]) - 0.25*float64(small)); d > binomialSlack(small, 0.25) {
				t.Errorf("%d of %d 4k reads at 0x%04x, want %.0f ± %.0f", byBS[4096][rt1], small, rt1, 0.25*float64(small), binomialSlack(small, 0.25))
			}
			checkPrioStats(t, st.Read, byPrio, []uint16{0, rt1, idle2})
			t.Logf("4k reads: %d at 0x%04x, %d at 0x%04x; 16k: %d", byBS[4096][rt1], rt1, byBS[4096][idle2], idle2, byBS[16384][0])
		})
	}
}

// TestCmdPrioRefused: per-command priorities on psync, the simulator, or
// a split of one block size over 100%, are refused before anything runs.
func TestCmdPrioRefused(t *testing.T) {
	path := fastFile(t, "cmdprio-refused", 1<<20)
	rt := ioengine.PrioValue(ioengine.PrioClassRT, 0)
	base := ioengine.Workload{Filename: path, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 1, Size: 1 << 20}
	for name, c := range map[string]struct {
		eng string
		p   ioengine.IOPrio
	}{
		"psync":    {"psync", ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Percent: 20, Value: rt}}}},
		"sim":      {"sim", ioengine.IOPrio{Job: rt, JobSet: true}},
		"over 100": {"io_uring", ioengine.IOPrio{Cmd: [2]ioengine.CmdPrio{{Split: []ioengine.PrioShare{{BS: 4096, Percent: 60, Value: rt}, {BS: 4096, Percent: 50, Value: rt}}}}}},
		"class 4":  {"libaio", ioengine.IOPrio{Job: 4 << ioengine.PrioClassShift, JobSet: true}},
	} {
		w := base
		w.Prio = c.p
		if err := ioengine.Validate(w, c.eng); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	w := base
	w.Prio = ioengine.IOPrio{Job: ioengine.PrioValue(ioengine.PrioClassBE, 7), JobSet: true}
	if err := ioengine.Validate(w, "psync"); err != nil {
		t.Errorf("psync with the job's priority: %v", err)
	}
}

// traceDir is the kernel's tracing directory.
const traceDir = "/sys/kernel/tracing"

// traceRequests opens a tracing instance of its own that records the
// requests issued to the block device dev (block:block_rq_issue, which
// carries each request's ioprio), and returns a function that stops it
// and counts the reads by "class/level". It skips t where the kernel
// cannot.
// mountTracing mounts tracefs at traceDir for the test when nothing is
// mounted there (a machine booted without it: the directory is empty), as
// perf and trace-cmd do, and unmounts it after; a mount refused leaves
// traceRequests to say what is missing.
func mountTracing(t *testing.T) {
	if _, err := os.Stat(filepath.Join(traceDir, "events")); err == nil {
		return
	}
	if err := unix.Mount("nodev", traceDir, "tracefs", 0, ""); err != nil {
		t.Logf("mounting tracefs at %s: %v", traceDir, err)
		return
	}
	t.Cleanup(func() {
		if err := unix.Unmount(traceDir, 0); err != nil {
			t.Logf("unmounting tracefs at %s: %v", traceDir, err)
		}
	})
}

func traceRequests(t *testing.T, dev string) func() map[string]int {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(traceDir, "events/block/block_rq_issue/format")); err != nil || !strings.Contains(string(b), "ioprio") {
		looptest.Skipf(t, "no block_rq_issue event with an ioprio field in %s (%v)", traceDir, err)
	}
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		t.Fatal(err)
	}
	major, minor := unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	inst := filepath.Join(traceDir, "instances", fmt.Sprintf("qdsweep-cmdprio-%d", os.Getpid()))
	if err := os.Mkdir(inst, 0o700); err != nil {
		looptest.Skipf(t, "cannot make a tracing instance: %v", err)
	}
	event := filepath.Join(inst, "events/block/block_rq_issue")
	t.Cleanup(func() {
		_ = os.WriteFile(filepath.Join(event, "enable"), []byte("0"), 0)
		if err := os.Remove(inst); err != nil {
			t.Errorf("removing the tracing instance: %v", err)
		}
	})
	// The kernel's dev_t in the event: major << 20 | minor.
	_ = os.WriteFile(filepath.Join(event, "filter"), []byte(fmt.Sprintf("dev == %d", major<<20|minor)), 0)
	if err := os.WriteFile(filepath.Join(event, "enable"), []byte("1"), 0); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(fmt.Sprintf(`block_rq_issue: %d,%d R\S* \d+ \(.*?\) \d+ \+ \d+ (\w+),\d+,(\d+)`, major, minor))
	return func() map[string]int {
		_ = os.WriteFile(filepath.Join(event, "enable"), []byte("0"), 0)
		b, err := os.ReadFile(filepath.Join(inst, "trace"))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out[m[1]+"/"+m[2]]++
		}
		return out
	}
}

// TestCmdPrioReachesTheDevice reads a loop device at fio's
// cmdprio-percentage priorities (the job idle, 20% real-time) and watches
// the requests the kernel issues to it: every read reaches the device at
// the priority the engine gave it (idle by the job's ioprio_set on
// libaio, by each SQE's on io_uring; real-time by the I/O's own), and the
// real-time share is 20% within the binomial bound. On psync, the job's
// priority alone (best-effort level 7) reaches the device with every read.
func TestCmdPrioReachesTheDevice(t *testing.T) {
	looptest.RequireRootTools(t)
	mountTracing(t)
	dev := looptest.AttachLoop(t, looptest.MakeImage(t, 16<<20), false)
	const n = 2000
	for _, eng := range []string{"io_uring", "libaio"} {
		t.Run(eng, func(t *testing.T) {
			stop := traceRequests(t, dev)
			w := ioengine.Workload{Filename: dev, RW: ioengine.RandRead, BS: 4096, IODepth: 8, NumJobs: 1, Direct: true, RandSeed: 3,
				Prio: ioengine.IOPrio{Job: ioengine.PrioValue(ioengine.PrioClassIdle, 0), JobSet: true,
					Cmd: [2]ioengine.CmdPrio{{Percent: 20, Value: ioengine.PrioValue(ioengine.PrioClassRT, 0)}}}}
			byPrio, _, _ := prioRun(t, eng, w, n)
			seen := stop()
			t.Logf("the engine: %v; the device's requests: %v", byPrio, seen)
			if seen["rt/0"]+seen["idle/0"] < n*95/100 || len(seen) != 2 {
				t.Fatalf("the device saw %v for %d reads at rt/0 and idle/0", seen, n)
			}
			if d := math.Abs(float64(seen["rt/0"]) - 0.2*n); d > binomialSlack(n, 0.2) {
				t.Errorf("%d of the device's %d reads real-time, want %.0f ± %.0f", seen["rt/0"], n, 0.2*n, binomialSlack(n, 0.2))
			}
			if rt := byPrio[ioengine.PrioValue(ioengine.PrioClassRT, 0)]; seen["rt/0"] > rt || seen["rt/0"] < rt*95/100 {
				t.Errorf("the engine sent %d reads real-time, the device saw %d", rt, seen["rt/0"])
			}
		})
	}
	t.Run("psync", func(t *testing.T) {
		stop := traceRequests(t, dev)
		w := ioengine.Workload{Filename: dev, RW: ioengine.RandRead, BS: 4096, IODepth: 1, NumJobs: 2, Direct: true, RandSeed: 3,
			Prio: ioengine.IOPrio{Job: ioengine.PrioValue(ioengine.PrioClassBE, 7), JobSet: true}}
		byPrio, _, _ := prioRun(t, "psync", w, n/4)
		seen := stop()
		t.Logf("the engine: %v; the device's requests: %v", byPrio, seen)
		if len(seen) != 1 || seen["be/7"] < n/2*95/100 || byPrio[w.Prio.Job] != n/2 {
			t.Errorf("the engine sent %v, the device saw %v; want all %d at be/7", byPrio, seen, n/2)
		}
	})
}
