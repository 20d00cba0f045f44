//go:build linux

package device_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/prometheus/procfs/blockdevice"
	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/internal/looptest"
	"golang.org/x/sys/unix"
)

func TestRate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	base := blockdevice.IOStats{ReadIOs: 100, ReadSectors: 800, ReadTicks: 50, WriteIOs: 10, WriteSectors: 80,
		WriteTicks: 20, IOsTotalTicks: 1000, WeightedIOTicks: 3000}
	tests := []struct {
		name string
		dt   time.Duration
		next blockdevice.IOStats
		want device.Rates
	}{
		{
			name: "4k random reads at QD 2",
			dt:   2 * time.Second,
			// 20000 reads of 8 sectors in 2 s, 1 ms each, busy 1900 ms, 40000 ms weighted.
			next: blockdevice.IOStats{ReadIOs: 20100, ReadSectors: 160800, ReadTicks: 20050, WriteIOs: 10,
				WriteSectors: 80, WriteTicks: 20, IOsTotalTicks: 2900, WeightedIOTicks: 43000},
			want: device.Rates{Interval: 2 * time.Second, ReadsPerSec: 10000, ReadMiBps: 160000.0 * 512 / 1048576 / 2,
				ReadAwaitMs: 1, AquSz: 20, UtilPct: 95, RareqSzKiB: 4, ReadBytes: 160000 * 512},
		},
		{
			name: "128k writes",
			dt:   500 * time.Millisecond,
			next: blockdevice.IOStats{ReadIOs: 100, ReadSectors: 800, ReadTicks: 50, WriteIOs: 510,
				WriteSectors: 80 + 500*256, WriteTicks: 20 + 500*4, IOsTotalTicks: 1500, WeightedIOTicks: 5000},
			want: device.Rates{Interval: 500 * time.Millisecond, WritesPerSec: 1000, WriteMiBps: 125,
				WriteAwaitMs: 4, AquSz: 4, UtilPct: 100, WareqSzKiB: 128, WriteBytes: 500 * 256 * 512},
		},
		{
			name: "idle",
			dt:   time.Second,
			next: base,
			want: device.Rates{Interval: time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := device.Rate(device.Sample{At: t0, Stats: base}, device.Sample{At: t0.Add(tc.dt), Stats: tc.next})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if _, err := device.Rate(device.Sample{At: t0, Stats: tests[0].next}, device.Sample{At: t0.Add(time.Second), Stats: base}); !errors.Is(err, device.ErrCountersReset) {
		t.Errorf("counters backwards: got %v", err)
	}
	if _, err := device.Rate(device.Sample{At: t0, Stats: base}, device.Sample{At: t0, Stats: base}); err == nil {
		t.Error("zero interval: want an error")
	}
}

// TestRateAgainstIostat reads a loop device of its own (else a temporary
// file) with O_DIRECT from two goroutines and compares this package's
// arithmetic with `iostat -x` over the same two-second window.
func TestRateAgainstIostat(t *testing.T) {
	if testing.Short() {
		t.Skip("real I/O for 2 s")
	}
	if _, err := exec.LookPath("iostat"); err != nil {
		t.Skip("iostat (sysstat) not installed")
	}
	const size, bs = 32 << 20, 16 << 10
	// A loop device of its own counts only this test's reads: the disk
	// under a temporary directory also carries whatever else the machine
	// does, which the two windows (ours frames iostat's from outside) catch
	// in different amounts. Without root and losetup, the temporary
	// directory's disk is used.
	var path string
	var d *device.Device
	if _, lerr := exec.LookPath("losetup"); os.Geteuid() == 0 && lerr == nil {
		img := looptest.MakeImage(t, size)
		layOut(t, img, size)
		path = looptest.AttachLoop(t, img, false)
		var err error
		if d, err = device.Resolve(path); err != nil {
			t.Skipf("loop device %s: %v", path, err)
		}
	} else {
		dir := t.TempDir()
		var err error
		if d, err = device.Resolve(dir); err != nil {
			t.Skipf("temporary directory: %v", err)
		}
		path = filepath.Join(dir, "laid-out")
		layOut(t, path, size)
	}
	againstIostat(t, path, d, size, bs)
}

// TestRateAgainstIostatZram: the same on a zram device, whose counters in
// /sys/block/zram0/stat are kept by its own driver (no request queue).
func TestRateAgainstIostatZram(t *testing.T) {
	if testing.Short() {
		t.Skip("real I/O for 2 s")
	}
	if _, err := exec.LookPath("iostat"); err != nil {
		t.Skip("iostat (sysstat) not installed")
	}
	const size, bs = 32 << 20, 16 << 10
	path := looptest.Zram(t, size)
	layOut(t, path, size)
	d, err := device.Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "zram0" {
		t.Fatalf("%s resolves to %q, want zram0", path, d.Name)
	}
	againstIostat(t, path, d, size, bs)
}

// againstIostat reads path (size bytes) with O_DIRECT in bs blocks from two
// goroutines and compares Rate over two samples of d with `iostat -x` over
// the same two-second window.
func againstIostat(t *testing.T, path string, d *device.Device, size, bs int) {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		t.Skipf("O_DIRECT open: %v", err)
	}
	defer unix.Close(fd)

	var stop atomic.Bool
	var wg sync.WaitGroup
	var ioErr atomic.Value
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := alignedBuf(bs)
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			for !stop.Load() {
				off := int64(rng.IntN(size/bs) * bs)
				if _, err := unix.Pread(fd, buf, off); err != nil {
					ioErr.Store(err)
					return
				}
			}
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()
	time.Sleep(200 * time.Millisecond) // reach a steady rate

	cmd := exec.Command("iostat", "-d", "-x", "-y", "-o", "JSON", d.Name, "2", "1")
	out, err := os.CreateTemp(t.TempDir(), "iostat")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a, err := d.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("iostat: %v", err)
	}
	b, err := d.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if e := ioErr.Load(); e != nil {
		t.Skipf("O_DIRECT read: %v", e)
	}
	got, err := device.Rate(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := readIostat(t, out.Name())
	t.Logf("ours   r/s %.1f aqu-sz %.3f util %.2f r_await %.3f rareq-sz %.1f over %v", got.ReadsPerSec, got.AquSz, got.UtilPct, got.ReadAwaitMs, got.RareqSzKiB, got.Interval)
	t.Logf("iostat r/s %.1f aqu-sz %.3f util %.2f r_await %.3f rareq-sz %.1f", want["r/s"], want["aqu-sz"], want["util"], want["r_await"], want["rareq-sz"])
	// Our two samples frame iostat's 2 s window from outside it, so the
	// windows differ by the time iostat took to start and end; on a busy
	// machine the device's load (other processes share it) differs over
	// that part too. Allow 5% plus twice the windows' relative difference.
	tol := 0.05 + 2*math.Abs(got.Interval.Seconds()-2)/2
	for _, c := range []struct {
		col  string
		ours float64
	}{
		{"r/s", got.ReadsPerSec}, {"aqu-sz", got.AquSz}, {"util", got.UtilPct}, {"r_await", got.ReadAwaitMs},
	} {
		// iostat prints two decimals: allow its rounding on top (zram's
		// r_await, under 10 µs, prints as 0.00). Reads were issued, so
		// iostat must have counted some.
		theirs := want[c.col]
		if c.col == "r/s" && theirs == 0 || math.Abs(c.ours-theirs) > tol*theirs+0.005 {
			t.Errorf("%s: ours %.3f, iostat %.3f (more than %.0f%% apart)", c.col, c.ours, theirs, tol*100)
		}
	}
}

// readIostat returns the numeric columns of iostat's JSON report.
func readIostat(t *testing.T, path string) map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sysstat struct {
			Hosts []struct {
				Statistics []struct {
					Disk []map[string]any `json:"disk"`
				} `json:"statistics"`
			} `json:"hosts"`
		} `json:"sysstat"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("iostat JSON: %v: %s", err, b)
	}
	if len(doc.Sysstat.Hosts) == 0 || len(doc.Sysstat.Hosts[0].Statistics) == 0 || len(doc.Sysstat.Hosts[0].Statistics[0].Disk) == 0 {
		t.Fatalf("iostat printed no disk report: %s", b)
	}
	cols := map[string]float64{}
	for k, v := range doc.Sysstat.Hosts[0].Statistics[0].Disk[0] {
		if f, ok := v.(float64); ok {
			cols[k] = f
		}
	}
	return cols
}

// layOut writes size bytes of non-zero data to path and syncs it so that
// direct reads hit written extents on the device.
func layOut(t *testing.T, path string, size int) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for n := 0; n < size; n += len(buf) {
		if _, err := f.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

// alignedBuf returns n bytes aligned to 4096 for O_DIRECT.
func alignedBuf(n int) []byte {
	b := make([]byte, n+4096)
	off := int(4096 - uintptr(unsafe.Pointer(&b[0]))%4096)
	return b[off%4096 : off%4096+n]
}
