package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// zoneShape is one job in fio's strided zones (zonemode=strided), run
// under fio 3.33 and under qdsweep run on files laid out alike.
type zoneShape struct {
	rw                 string
	file, offset, size int64 // the file's bytes, the job's region
	bs                 int64
	zsize, zrange      int64 // zonerange 0: not given (zonesize)
	zskip              int64
	timeBased          bool
	loops              int    // fio's loops (0: not given)
	engine             string // fio's ioengine ("": psync), at iodepth 1
	sizes              string // sizes that vary: bssplit's or bsrange's option (bs: the smallest)
	followOn           string // a random job's follow-ons: rw's ":N" suffix, or percentage_random=P
}

// span is the zone's bytes.
func (s zoneShape) span() int64 {
	if s.zrange > 0 {
		return s.zrange
	}
	return s.zsize
}

func (s zoneShape) String() string {
	return fmt.Sprintf("%s%s file=%d offset=%d size=%d bs=%d zonesize=%d zonerange=%d zoneskip=%d time_based=%v loops=%d %s %s",
		s.rw, s.followOn, s.file, s.offset, s.size, s.bs, s.zsize, s.zrange, s.zskip, s.timeBased, s.loops, s.engine, s.sizes)
}

// args are the job as fio's command line, logging every I/O's offset.
func (s zoneShape) args() []string {
	rw := "--rw=" + s.rw
	if strings.HasPrefix(s.followOn, ":") {
		rw += s.followOn
	} else if s.followOn != "" {
		rw += " --percentage_random=" + s.followOn
	}
	engine := s.engine
	if engine == "" {
		engine = "psync"
	}
	a := []string{"--name=z", "--filename=f", "--ioengine=" + engine, fmt.Sprintf("--bs=%d", s.bs),
		fmt.Sprintf("--offset=%d", s.offset), fmt.Sprintf("--size=%d", s.size), "--zonemode=strided",
		fmt.Sprintf("--zonesize=%d", s.zsize), fmt.Sprintf("--zoneskip=%d", s.zskip),
		"--write_lat_log=z", "--log_offset=1"}
	a = append(a, strings.Fields(rw)...)
	if s.zrange > 0 {
		a = append(a, fmt.Sprintf("--zonerange=%d", s.zrange))
	}
	if s.timeBased {
		a = append(a, "--time_based", "--runtime=300ms")
	}
	if s.loops > 0 {
		a = append(a, fmt.Sprintf("--loops=%d", s.loops))
	}
	if s.sizes != "" {
		a = append(a, s.sizes)
	}
	return a
}

// zoneShapes are the shapes TestStridedZonesAsFio runs: a few chosen
// (fio's disk-zone-profile, a skip past the file's end, ranges above and
// below the zone size, a zone reaching past the file's end), then shapes
// drawn at random in units of the block size.
func zoneShapes(n int) []zoneShape {
	const mb = 1 << 20
	out := []zoneShape{
		{rw: "read", file: 8 * mb, size: 4 * mb, bs: 64 << 10, zsize: mb / 4, zskip: mb / 4},
		{rw: "read", file: 4 * mb, size: 2 * mb, bs: 16 << 10, zsize: mb / 4, zskip: 64 * mb},
		{rw: "randread", file: 4 * mb, size: 2 * mb, bs: 4 << 10, zsize: mb / 4, zskip: 64 * mb},
		{rw: "randwrite", file: 4 * mb, offset: mb, size: 2 * mb, bs: 4 << 10, zsize: mb / 4, zrange: mb, zskip: 64 << 10},
		{rw: "write", file: 4 * mb, size: 2 * mb, bs: 8 << 10, zsize: mb / 2, zrange: mb / 8, zskip: mb / 8},
		{rw: "read", file: 4 * mb, size: 2 * mb, bs: 64 << 10, zsize: mb / 4, zrange: mb / 2, zskip: mb / 4, timeBased: true},
		{rw: "read", file: 3*mb + mb/2, size: 3 * mb, bs: 64 << 10, zsize: mb, zrange: mb, zskip: mb / 4},
	}
	r := rand.New(rand.NewPCG(35, 1))
	rws := []string{"read", "write", "randread", "randwrite", "rw", "randrw"}
	for range n {
		bs := []int64{4 << 10, 16 << 10, 64 << 10}[r.IntN(3)]
		s := zoneShape{rw: rws[r.IntN(len(rws))], file: 4 * mb, bs: bs, offset: int64(r.IntN(3)) * mb / 4}
		s.size = []int64{mb, 2 * mb, s.file - s.offset}[r.IntN(3)]
		s.zsize = bs * int64(1+r.IntN(12))
		if r.IntN(2) == 0 {
			s.zrange = bs * int64(1+r.IntN(8))
		}
		s.zskip = []int64{0, bs * int64(1+r.IntN(8)), 2 * mb, 64 * mb}[r.IntN(4)]
		s.timeBased = r.IntN(4) == 0
		if strings.HasPrefix(s.rw, "rand") && r.IntN(3) == 0 {
			s.followOn = []string{":4", ":2", "50", "80"}[r.IntN(4)]
		}
		out = append(out, s)
	}
	return out
}

// TestStridedZonesAsFio: jobs in strided zones (zonemode=strided,
// zonesize, zonerange, zoneskip) run natively and do fio 3.33's I/O,
// compared I/O by I/O in the per-I/O logs' offsets (psync, one at a time,
// so the log's order is the I/Os' order). Sequential jobs do the same
// offsets (size-based: all of them; time-based: as far as both ran);
// every job's I/Os fall in the same zones in the same order (random and
// mixed ones draw their offsets and directions from their own streams;
// some random ones follow on sequentially, rw=randread:N or
// percentage_random), each within its zone, and a random job's drawn I/Os
// repeat no block within a zone's range (fio's random map over the zone). A size-based job does
// fio's count of I/Os, unless a random one ends at a zone reaching past
// the file's end, where the draws decide it in fio too: then both end in
// that zone.
func TestStridedZonesAsFio(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	for i, s := range zoneShapes(24) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			fio, qd := runZoneShape(t, fioBin, s)
			checkZoneLogs(t, s, fio, qd)
		})
	}
}

// runZoneShape runs s under fio and qdsweep and returns each one's
// per-I/O log: each I/O's direction, offset and size.
func runZoneShape(t *testing.T, fioBin string, s zoneShape) (fio, qd [][3]int64) {
	t.Helper()
	logOf := func(dir string) [][3]int64 {
		var out [][3]int64
		for _, l := range readPerIOLog(t, filepath.Join(dir, "z_lat.1.log")) {
			out = append(out, [3]int64{l[2], l[4], l[3]})
		}
		return out
	}
	fdir, qdir := t.TempDir(), t.TempDir()
	for _, d := range []string{fdir, qdir} {
		if err := os.WriteFile(filepath.Join(d, "f"), make([]byte, s.file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := runIn(fdir, fioBin, append([]string{"--output-format=terse"}, s.args()...)...); err != nil {
		t.Fatalf("%v: fio: %v\n%s", s, err, out)
	}
	_, stderr, code := runQdsweep(t, qdir, append([]string{"run", "--allow-write", "--output-format=terse"}, s.args()...)...)
	if code != 0 || strings.Contains(stderr, "through fio") {
		t.Fatalf("%v: exit %d, want it run natively: %s", s, code, stderr)
	}
	return logOf(fdir), logOf(qdir)
}

// checkZoneLogs compares the per-I/O logs of s under fio and qdsweep: as
// far as both ran, or, for a job that draws offsets or directions, until
// an I/O lands in a zone reaching past the file's end, where the draws
// decide whether it fits (fio ends a size-based job at the first that
// does not, and starts a time-based one over at the first zone).
func checkZoneLogs(t *testing.T, s zoneShape, fio, qd [][3]int64) {
	t.Helper()
	random, mixed := strings.HasPrefix(s.rw, "rand"), s.rw == "rw" || s.rw == "randrw"
	stride := s.span() + s.zskip
	zone := func(io [3]int64) int64 { return (io[1] - s.offset) / stride }
	past := func(io [3]int64) bool { return (random || mixed) && s.offset+zone(io)*stride+s.span() > s.file }
	n := min(len(fio), len(qd))
	if n == 0 {
		t.Fatalf("%v: fio logged %d I/Os, qdsweep %d", s, len(fio), len(qd))
	}
	cut := false
	for i := range n {
		if cut = past(fio[i]) || past(qd[i]); cut {
			n = i
			break
		}
		switch zf, zq := zone(fio[i]), zone(qd[i]); {
		case !random && !mixed && fio[i] != qd[i]:
			t.Fatalf("%v: I/O %d at %d, fio's at %d", s, i, qd[i][1], fio[i][1])
		case zf != zq:
			t.Fatalf("%v: I/O %d in zone %d (offset %d), fio's in zone %d (offset %d)", s, i, zq, qd[i][1], zf, fio[i][1])
		case (qd[i][1]-s.offset)%stride+s.bs > s.span():
			t.Fatalf("%v: I/O %d at %d, outside its zone %d", s, i, qd[i][1], zq)
		}
	}
	if random && !mixed && s.followOn == "" {
		for who, l := range map[string][][3]int64{"fio": fio[:n], "qdsweep": qd[:n]} {
			if i := repeatInZone(s, l); i >= 0 {
				t.Errorf("%v: %s's I/O %d at %d repeats a block of its zone's range", s, who, i, l[i][1])
			}
		}
	}
	longer := fio
	if len(qd) > len(fio) {
		longer = qd
	}
	if !s.timeBased && len(fio) != len(qd) && !cut && !past(longer[min(len(fio), len(qd))]) {
		t.Errorf("%v: %d I/Os, fio %d", s, len(qd), len(fio))
	}
	t.Logf("%v: %d I/Os, fio %d, the same for the first %d", s, len(qd), len(fio), n)
}

// repeatInZone is the first I/O of l that repeats a block of its zone
// since fio's random map over the zone was last emptied (every range
// bytes in a zone, at each new zone, and at each loop of an engine that
// queues its I/Os, which starts at the first zone), or -1.
func repeatInZone(s zoneShape, l [][3]int64) int {
	perZone := (s.zsize + s.bs - 1) / s.bs
	perMap := s.span() / s.bs
	perLoop := int64(len(l))
	if s.engine == "io_uring" && s.loops > 1 {
		perLoop = s.size / s.bs
	}
	seen := map[int64]bool{}
	for i, io := range l {
		if k := int64(i) % perLoop % perZone; k == 0 || k%perMap == 0 {
			clear(seen)
		}
		if seen[io[1]] {
			return i
		}
		seen[io[1]] = true
	}
	return -1
}

// TestStridedZonesLoopsAsFio: size-based jobs of several loops in strided
// zones run natively as fio 3.33 runs them: each loop starts again at the
// job's first zone, with what TestStridedZonesAsFio compares.
func TestStridedZonesLoopsAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	for i, s := range zoneShapes(24) {
		if s.timeBased {
			continue
		}
		s.loops = 2 + i%2
		if i%4 >= 2 {
			s.engine = "io_uring"
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			fio, qd := runZoneShape(t, fioBin, s)
			checkZoneLogs(t, s, fio, qd)
		})
	}
}

// TestStridedZonesSizesAsFio: jobs in strided zones whose sizes vary
// (bssplit, bsrange) run natively as fio 3.33 runs them: each tool's I/Os
// visit the same zones in the same order (a visit: the I/Os of a zone
// until zonesize bytes), each I/O starting inside its zone's range, every
// visit but the last of zonesize bytes up to one I/O more; a pass ends
// where a zone starts past the job's region (fio's io_u_fits fails for
// the smallest size there), and a random one where the zone's random map
// fills between its resets, which the draws decide: there one tool's
// visits lead the other's.
func TestStridedZonesSizesAsFio(t *testing.T) {
	fioBin := fioOrSkip(t)
	const mb, k = 1 << 20, 1 << 10
	for i, s := range []zoneShape{
		{rw: "read", file: 4 * mb, size: mb, bs: 4 * k, zsize: 64 * k, zskip: 192 * k, sizes: "--bssplit=4k/50:16k/50"},
		{rw: "write", file: 4 * mb, size: 2 * mb, bs: 4 * k, zsize: 96 * k, zrange: 64 * k, zskip: 64 * k, sizes: "--bsrange=4k-16k"},
		{rw: "read", file: 4 * mb, offset: mb, size: 2 * mb, bs: 4 * k, zsize: 128 * k, zskip: 64 * mb, sizes: "--bssplit=4k/30:8k/70", loops: 2},
		{rw: "write", file: 4 * mb, size: 2 * mb, bs: 4 * k, zsize: 96 * k, zrange: 64 * k, zskip: 64 * k, sizes: "--bsrange=4k-16k", loops: 2, engine: "io_uring"},
		{rw: "randread", file: 4 * mb, size: mb, bs: 4 * k, zsize: 64 * k, zskip: 192 * k, sizes: "--bssplit=4k/50:16k/50"},
		{rw: "randwrite", file: 4 * mb, size: 2 * mb, bs: 4 * k, zsize: 96 * k, zrange: 64 * k, zskip: 64 * k, sizes: "--bsrange=4k-16k"},
		{rw: "randrw", file: 4 * mb, offset: mb, size: 3 * mb, bs: 4 * k, zsize: 128 * k, zrange: 256 * k, zskip: 512 * k, sizes: "--bssplit=4k/30:8k/70"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			fio, qd := runZoneShape(t, fioBin, s)
			fv, qv := zoneVisits(t, s, "fio", fio), zoneVisits(t, s, "qdsweep", qd)
			n := min(len(fv), len(qv))
			if !strings.HasPrefix(s.rw, "rand") && len(fv) != len(qv) || fmt.Sprint(fv[:n]) != fmt.Sprint(qv[:n]) {
				t.Errorf("%v: zones visited\nfio:     %v\nqdsweep: %v", s, fv, qv)
			}
			t.Logf("%v: %d I/Os in %d visits, fio %d in %d", s, len(qd), len(qv), len(fio), len(fv))
		})
	}
}

// zoneVisits is the zone of each visit of l (a zone's I/Os until zonesize
// bytes, or until the next zone's), failing the test where an I/O starts
// outside its zone's range or a visit before the last is not of zonesize
// bytes up to one I/O (16 KiB) more.
func zoneVisits(t *testing.T, s zoneShape, who string, l [][3]int64) []int64 {
	t.Helper()
	stride := s.span() + s.zskip
	var zones, bytes []int64
	for i, io := range l {
		z, in := (io[1]-s.offset)/stride, (io[1]-s.offset)%stride
		if in+s.bs > s.span() {
			t.Fatalf("%v: %s's I/O %d at %d, outside its zone %d", s, who, i, io[1], z)
		}
		if n := len(zones); n == 0 || zones[n-1] != z || bytes[n-1] >= s.zsize {
			zones, bytes = append(zones, z), append(bytes, 0)
		}
		bytes[len(bytes)-1] += io[2]
	}
	for i, b := range bytes[:max(len(bytes)-1, 0)] {
		if b < s.zsize || b >= s.zsize+16<<10 {
			t.Errorf("%v: %s's visit %d to zone %d: %d bytes", s, who, i, zones[i], b)
		}
	}
	return zones
}
