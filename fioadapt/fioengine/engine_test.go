package fioengine_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt/fioengine"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/ioengine"
)

// needFio skips when the fio binary is absent.
func needFio(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
}

// target lays out a 16 MiB file of real data and returns its path.
func target(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "target.dat")
	if err := os.WriteFile(path, bytes.Repeat([]byte{0xa5}, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func smallWorkload(path string) ioengine.Workload {
	return ioengine.Workload{Filename: path, Size: 16 << 20, RW: ioengine.RandRead, BS: 4096,
		IODepth: 4, NumJobs: 2, Direct: true, RandSeed: 42}
}

func TestEngineRunsFio(t *testing.T) {
	needFio(t)
	wl := smallWorkload(target(t))
	var starts, ends atomic.Int32
	ctl := ioengine.Control{Ramp: 100 * time.Millisecond, Runtime: 300 * time.Millisecond,
		OnWindowStart: func() { starts.Add(1) }, OnWindowEnd: func() { ends.Add(1) }}
	for _, engine := range []string{"io_uring", "libaio"} {
		t.Run(engine, func(t *testing.T) {
			starts.Store(0)
			ends.Store(0)
			e := fioengine.NewEngine(fioengine.Options{IOEngine: engine})
			st, err := e.Run(context.Background(), wl, ctl)
			if err != nil {
				t.Fatal(err)
			}
			if e.Name() != "fio" || st.Engine != "fio" {
				t.Errorf("name %q / %q", e.Name(), st.Engine)
			}
			if st.All.IOPS <= 0 || st.All.TotalIOs <= 0 || st.Read == nil || st.Write != nil {
				t.Fatalf("stats %+v", st)
			}
			// fio's io_bytes may count the I/Os still in flight at the end
			// (up to the QD of 8) that total_ios does not.
			if d := st.All.Bytes - st.All.TotalIOs*4096; d < 0 || d > 8*4096 {
				t.Errorf("bytes %d for %d I/Os of 4 KiB", st.All.Bytes, st.All.TotalIOs)
			}
			// fio's IOPS and latency cover the I/Os completed in its
			// runtime, whose latency may have begun before it: at most the
			// QD times the longest latency over the runtime above the QD.
			want := st.All.IOPS * st.All.Lat.MeanNs / 1e9
			bound := 8 * (1 + float64(st.All.Lat.MaxNs)/float64(st.Runtime))
			if st.InflightMean != want || st.InflightMean <= 0 || st.InflightMean > bound {
				t.Errorf("inflight %v, want IOPS × latency = %v (at most QD 8 and its edge allowance, %.2f)", st.InflightMean, want, bound)
			}
			if st.All.Lat.P99Ns < st.All.Lat.P50Ns || st.All.Lat.P50Ns <= 0 {
				t.Errorf("percentiles %+v", st.All.Lat)
			}
			if st.CPU.SysS+st.CPU.UsrS <= 0 {
				t.Errorf("cpu %+v", st.CPU)
			}
			if starts.Load() != 1 || ends.Load() != 1 {
				t.Errorf("window hooks start %d end %d, want 1 and 1", starts.Load(), ends.Load())
			}
			t.Logf("%s via fio: %.0f IOPS, mean %.0f µs, inflight %.2f", engine, st.All.IOPS, st.All.Lat.MeanNs/1e3, st.InflightMean)
		})
	}
}

func TestEngineMixed(t *testing.T) {
	needFio(t)
	wl := smallWorkload(target(t))
	wl.RW, wl.RWMixRead, wl.NumJobs = ioengine.RandRW, 70, 1
	wl.Permit = guard.Permit{AllowWrite: true}
	st, err := fioengine.NewEngine(fioengine.Options{}).Run(context.Background(), wl, ioengine.Control{Runtime: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st.Read == nil || st.Write == nil || st.Read.TotalIOs+st.Write.TotalIOs != st.All.TotalIOs {
		t.Fatalf("read %+v write %+v all %+v", st.Read, st.Write, st.All)
	}
	share := float64(st.Read.TotalIOs) / float64(st.All.TotalIOs)
	if share < 0.55 || share > 0.85 {
		t.Errorf("read share %.2f for rwmixread=70", share)
	}
}

func TestEngineErrors(t *testing.T) {
	wl := smallWorkload(filepath.Join(t.TempDir(), "no", "such", "dir", "target"))
	_, err := fioengine.NewEngine(fioengine.Options{Binary: "fio-does-not-exist"}).Run(context.Background(), wl, ioengine.Control{Runtime: time.Second})
	if !errors.Is(err, fioengine.ErrNotFound) {
		t.Errorf("missing binary: %v", err)
	}
	needFio(t)
	_, err = fioengine.NewEngine(fioengine.Options{}).Run(context.Background(), wl, ioengine.Control{Runtime: 100 * time.Millisecond})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing target: %v", err)
	}
	if _, serr := os.Stat(wl.Filename); serr == nil {
		t.Error("the engine created the missing target")
	}
}

func TestEngineInterrupt(t *testing.T) {
	needFio(t)
	wl := smallWorkload(target(t))
	ctx, cancel := context.WithCancel(context.Background())
	// Long enough for fio to start and do I/O on a busy machine.
	time.AfterFunc(3*time.Second, cancel)
	st, err := fioengine.NewEngine(fioengine.Options{}).Run(ctx, wl, ioengine.Control{Runtime: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if st == nil || st.All.TotalIOs <= 0 {
		t.Errorf("interrupted run kept no figures: %+v", st)
	}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServer starts "fio --server=127.0.0.1,port" and stops it at cleanup.
func startServer(t *testing.T, port int) {
	t.Helper()
	cmd := exec.Command("fio", "--server=127.0.0.1,"+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for i := 0; i < 100; i++ {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("fio server on port %d did not start", port)
}

func TestEngineClientServer(t *testing.T) {
	needFio(t)
	p1, p2 := freePort(t), freePort(t)
	startServer(t, p1)
	startServer(t, p2)
	clients, err := fio.ReadClients("127.0.0.1:" + strconv.Itoa(p1) + ",127.0.0.1:" + strconv.Itoa(p2))
	if err != nil {
		t.Fatal(err)
	}
	wl := smallWorkload(target(t))
	wl.NumJobs = 1
	st, err := fioengine.NewEngine(fioengine.Options{Clients: clients}).Run(context.Background(), wl, ioengine.Control{Runtime: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Hosts) != 2 {
		t.Fatalf("hosts %+v, want 2", st.Hosts)
	}
	// The hosts need not start and end together (two servers on a busy
	// machine): the fleet's I/Os are exactly the hosts' I/Os, and its rate
	// and in flight are the hosts' added up, each over its own runtime.
	sum, inflight := 0.0, 0.0
	var ios int64
	for i, h := range st.Hosts {
		if h.IOPS <= 0 || h.Lat.MeanNs <= 0 || h.TotalIOs <= 0 || h.Host != clients[i] {
			t.Errorf("host %d: %+v (want %s)", i, h, clients[i])
		}
		sum += h.IOPS
		inflight += h.IOPS * h.Lat.MeanNs / 1e9
		ios += h.TotalIOs
	}
	if st.All.TotalIOs != ios {
		t.Errorf("aggregate %d I/Os, hosts sum to %d", st.All.TotalIOs, ios)
	}
	if !near(st.All.IOPS, sum, 1e-9) || !near(st.InflightMean, inflight, 1e-9) {
		t.Errorf("aggregate %v IOPS and %v in flight, hosts sum to %v and %v", st.All.IOPS, st.InflightMean, sum, inflight)
	}
	t.Logf("two loopback fio servers: %.0f + %.0f = %.0f IOPS, %d + %d = %d I/Os",
		st.Hosts[0].IOPS, st.Hosts[1].IOPS, sum, st.Hosts[0].TotalIOs, st.Hosts[1].TotalIOs, ios)
}

func TestReadClients(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(file, []byte("# fio servers\nhostA\nhostB:8766  # second\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		want []string
		bad  bool
	}{
		{spec: "host1,host2", want: []string{"host1", "host2"}},
		{spec: "host1:8766, 10.0.0.2", want: []string{"host1:8766", "10.0.0.2"}},
		{spec: "[::1]:8766", want: []string{"[::1]:8766"}},
		{spec: file, want: []string{"hostA", "hostB:8766"}},
		{spec: "", bad: true},
		{spec: "host1,,host2", bad: true},
		{spec: "host1:99999", bad: true},
		{spec: "host1:x", bad: true},
	}
	for _, tt := range tests {
		got, err := fio.ReadClients(tt.spec)
		if tt.bad {
			if err == nil {
				t.Errorf("ReadClients(%q) = %v, want an error", tt.spec, got)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("ReadClients(%q) = %v, %v; want %v", tt.spec, got, err, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ReadClients(%q)[%d] = %q, want %q", tt.spec, i, got[i], tt.want[i])
			}
		}
	}
}

// near reports whether a is within rel (relative) of b.
func near(a, b, rel float64) bool {
	if b == 0 {
		return a == 0
	}
	return math.Abs(a-b)/math.Abs(b) <= rel
}

// TestEngineMixedPercentiles: a mixed run's percentiles, min and max are
// of all its I/Os, from fio's json+ histograms of both directions merged,
// and each direction keeps its own.
func TestEngineMixedPercentiles(t *testing.T) {
	needFio(t)
	wl := smallWorkload(target(t))
	wl.RW, wl.RWMixRead, wl.Permit = ioengine.RandRW, 70, guard.Permit{AllowWrite: true}
	st, err := fioengine.NewEngine(fioengine.Options{IOEngine: "libaio"}).Run(context.Background(), wl, ioengine.Control{Runtime: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r, w, a := st.Read.Lat, st.Write.Lat, st.All.Lat
	if r.P99Ns <= 0 || w.P99Ns <= 0 {
		t.Fatalf("direction percentiles missing: read %+v write %+v", r, w)
	}
	if a.P99Ns < min(r.P99Ns, w.P99Ns) || a.P99Ns > max(r.P99Ns, w.P99Ns) {
		t.Errorf("all-I/O p99 %d outside read %d and write %d", a.P99Ns, r.P99Ns, w.P99Ns)
	}
	if a.MinNs != min(r.MinNs, w.MinNs) || a.MaxNs != max(r.MaxNs, w.MaxNs) {
		t.Errorf("all-I/O min/max %d/%d, read %d/%d, write %d/%d", a.MinNs, a.MaxNs, r.MinNs, r.MaxNs, w.MinNs, w.MaxNs)
	}
}

// TestEnginePassesIOEngineThrough: an --ioengine among the user's fio
// arguments is the one fio runs, not qdsweep's default: with psync fio
// keeps one I/O in flight per job whatever iodepth says.
func TestEnginePassesIOEngineThrough(t *testing.T) {
	needFio(t)
	wl := smallWorkload(target(t)) // iodepth 4 × numjobs 2
	st, err := fioengine.NewEngine(fioengine.Options{ExtraArgs: []string{"--ioengine=psync"}}).Run(context.Background(), wl, ioengine.Control{Runtime: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Little's Law from fio's figures: 2 jobs of one synchronous I/O each.
	if st.InflightMean <= 0 || st.InflightMean > 2.2 {
		t.Fatalf("in flight %.2f: fio did not run psync (iodepth 4 × 2 jobs would keep up to 8)", st.InflightMean)
	}
}
