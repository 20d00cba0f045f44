package main_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/sweep"
)

// fioServer starts a real "fio --server" on a free loopback port in its own
// directory and returns "127.0.0.1:port"; it is stopped at cleanup with
// every process it forked (found by a mark in their environment: fio's
// jobs leave its process group), and dies with the test binary.
func fioServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("fio", "--server=ip:127.0.0.1,"+strconv.Itoa(port))
	cmd.Dir = t.TempDir()
	mark := fmt.Sprintf("QDSWEEP_TEST_FIO_SERVER=%d.%d", os.Getpid(), port)
	cmd.Env = append(os.Environ(), mark)
	cmd.SysProcAttr = dieWithTest()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); killMarked(mark) })
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return fmt.Sprintf("127.0.0.1:%d", port)
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("fio server on port %d did not start", port)
	return ""
}

// TestFleetSweep sweeps two real fio servers on this machine: QD is the
// fleet's (hosts × iodepth × numjobs), Little's Law closes fleet-wide,
// the fleet's percentiles come from the hosts' merged histograms (between
// the hosts' own), the per-host figures stand beside them, the split is
// per host, and the documented --size default applies.
func TestFleetSweep(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	h1, h2 := fioServer(t), fioServer(t)
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "fleet.dat") // the servers lay it out (both on this machine)
	out, errs, code := runQdsweep(t, dir, nil, "sweep", "--ioengine=fio", "--fio-clients="+h1+","+h2, "--filename="+target,
		"--iodepth=1,4", "--runtime=300ms", "--ramp_time=0", "--ss=0", "--refine=false", "--target-iops=1000", "--output=res")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	r, err := sweep.Read(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Plan.Hosts != 2 || len(r.Steps) != 2 {
		t.Fatalf("plan %+v, %d steps", r.Plan, len(r.Steps))
	}
	for _, s := range r.Steps {
		if s.QD != 2*s.IODepth*s.NumJobs {
			t.Errorf("QD %d for iodepth %d × numjobs %d on 2 hosts", s.QD, s.IODepth, s.NumJobs)
		}
		if len(s.Hosts) != 2 || s.IOPS <= 0 {
			t.Fatalf("step QD %d: hosts %+v", s.QD, s.Hosts)
		}
		var sum float64
		lo, hi := s.Hosts[0].Lat.P99Ns, s.Hosts[0].Lat.P99Ns
		for _, h := range s.Hosts {
			sum += h.IOPS
			lo, hi = min(lo, h.Lat.P99Ns), max(hi, h.Lat.P99Ns)
		}
		if d := (s.IOPS - sum) / sum; d > 1e-9 || d < -1e-9 {
			t.Errorf("QD %d: fleet %v IOPS, hosts add up to %v", s.QD, s.IOPS, sum)
		}
		if e := s.LittleError; e > 0.02 || e < -0.02 {
			t.Errorf("QD %d: Little's Law open by %.1f%% fleet-wide", s.QD, e*100)
		}
		if s.Lat.P99Ns <= 0 || s.Lat.P99Ns < lo || s.Lat.P99Ns > hi {
			t.Errorf("QD %d: fleet p99 %d ns outside the hosts' %d..%d", s.QD, s.Lat.P99Ns, lo, hi)
		}
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "on each of 2 hosts") {
		t.Errorf("the split is not per host:\n%s", out)
	}
}
