package ioengine

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/guard"
)

// ioRec is one I/O: its direction, offset and size.
type ioRec struct {
	dir    int
	off, n int64
}

// fioIOs runs fio 3.33 on a file of size bytes in a temporary directory
// with opts and n I/Os, and returns the I/Os it issued, from its
// write_iolog.
func fioIOs(t *testing.T, size int64, n int, opts ...string) []ioRec {
	t.Helper()
	bin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	if out, _ := exec.Command(bin, "--version").Output(); !strings.HasPrefix(string(out), "fio-3.33") {
		t.Skipf("fio is %s, not fio-3.33", strings.TrimSpace(string(out)))
	}
	dir := t.TempDir()
	file, log := filepath.Join(dir, "f"), filepath.Join(dir, "iolog")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(file, size); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--name=shape", "--filename=" + file, "--ioengine=psync", "--size=" + strconv.FormatInt(size, 10),
		"--number_ios=" + strconv.Itoa(n), "--io_size=" + strconv.FormatInt(int64(n)<<20, 10), "--write_iolog=" + log, "--randrepeat=0", "--output-format=terse"}, opts...)
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("fio %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ios []ioRec
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 5 || fs[2] != "read" && fs[2] != "write" {
			continue
		}
		off, _ := strconv.ParseInt(fs[3], 10, 64)
		l, _ := strconv.ParseInt(fs[4], 10, 64)
		d := dirRead
		if fs[2] == "write" {
			d = dirWrite
		}
		ios = append(ios, ioRec{d, off, l})
	}
	if len(ios) < n*9/10 {
		t.Fatalf("fio's log holds %d I/Os of %d", len(ios), n)
	}
	return ios
}

// genIOs draws n I/Os from qdsweep's generator for w over size bytes.
func genIOs(w Workload, size int64, n int) []ioRec {
	g := newOffsetGen(&w, 0, []int64{size}, 0)
	out := make([]ioRec, n)
	for i := range out {
		d, _, off, l := g.next()
		out[i] = ioRec{d, off, l}
	}
	return out
}

// shares counts each key's share of ios.
func shares(ios []ioRec, key func(ioRec) int64) map[int64]float64 {
	m := map[int64]float64{}
	for _, r := range ios {
		m[key(r)]++
	}
	for k := range m {
		m[k] /= float64(len(ios))
	}
	return m
}

// sameShares fails unless every key's share in a (na I/Os) and b (nb I/Os)
// differ by less than 6 standard deviations of the difference of two
// binomial shares, plus 0.002: a bound two samples of one distribution
// break with a chance under 10⁻⁸ per key.
func sameShares(t *testing.T, what string, a, b map[int64]float64, na, nb int) {
	t.Helper()
	keys := map[int64]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	worst, worstKey := 0.0, int64(0)
	for k := range keys {
		p := (a[k] + b[k]) / 2
		bound := 6*math.Sqrt(p*(1-p)*(1/float64(na)+1/float64(nb))) + 0.002
		if d := math.Abs(a[k] - b[k]); d > bound {
			t.Errorf("%s %d: fio %.4f, qdsweep %.4f (bound ±%.4f)", what, k, a[k], b[k], bound)
		} else if d/bound > worst {
			worst, worstKey = d/bound, k
		}
	}
	t.Logf("%s: %d keys, largest difference %.2f of its bound (at %d)", what, len(keys), worst, worstKey)
}

// hotShares is the share of the I/Os that fall on the hottest fraction of
// the region's blocks, for each fraction: a profile that does not depend
// on where the hot blocks lie.
func hotShares(ios []ioRec, unit int64, blocks int) map[int64]float64 {
	counts := map[int64]int{}
	for _, r := range ios {
		counts[r.off/unit]++
	}
	c := make([]int, 0, len(counts))
	for _, v := range counts {
		c = append(c, v)
	}
	slices.Sort(c)
	slices.Reverse(c)
	out := map[int64]float64{}
	for _, permille := range []int64{1, 10, 50, 100, 250, 500} {
		k := max(int(int64(blocks)*permille/1000), 1)
		sum := 0
		for _, v := range c[:min(k, len(c))] {
			sum += v
		}
		out[permille] = float64(sum) / float64(len(ios))
	}
	return out
}

// TestShapesAsFio draws block sizes and offsets as fio 3.33 does on the
// same file: the shares of each size, of each sixty-fourth of the region
// (where fio's placement is fixed: a centre, normal, zones) or of the
// hottest blocks (zipf and pareto place their hot blocks at random), and
// the share of I/Os that follow the one before.
func TestShapesAsFio(t *testing.T) {
	const size = 16 << 20
	const n = 60000
	bucket := func(r ioRec) int64 { return r.off * 64 / size }
	cases := []struct {
		name string
		opts []string
		w    Workload
		keys func(t *testing.T, fio, qd []ioRec)
	}{
		{"bssplit", []string{"--rw=randread", "--bssplit=4k/50:64k/30:16k", "--norandommap"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{BSSplit: split([]BSShare{{4096, 50}, {65536, 30}, {16384, 20}})}}, sizesAndBuckets},
		{"bssplit-per-direction", []string{"--rw=randrw", "--bssplit=4k/70:64k/30,8k/100", "--norandommap"},
			Workload{RW: RandRW, RWMixRead: 50, BS: 4096, Shape: Shape{BSSplit: [2][]BSShare{
				split([]BSShare{{4096, 70}, {65536, 30}})[0], {{8192, 100}}}}}, sizesPerDir},
		{"bssplit-short", []string{"--rw=read", "--bssplit=4k/10:8k/20"},
			Workload{RW: Read, BS: 4096, Shape: Shape{BSSplit: split([]BSShare{{4096, 10}, {8192, 20}})}}, sizesAndSteps},
		{"bsrange", []string{"--rw=randwrite", "--bsrange=4k-10k", "--norandommap"},
			Workload{RW: RandWrite, BS: 4096, Shape: Shape{BSRange: [2][2]int64{{4096, 10240}, {4096, 10240}}}}, sizesAndBuckets},
		{"zipf", []string{"--rw=randread", "--bs=4k", "--random_distribution=zipf:1.2"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistZipf, Value: 1.2}}}, hotProfile},
		{"zipf-0.8-centred", []string{"--rw=randread", "--bs=4k", "--random_distribution=zipf:0.8:0.25"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistZipf, Value: 0.8, Center: 0.25, HasCenter: true}}}, placed(bucket)},
		{"pareto", []string{"--rw=randread", "--bs=4k", "--random_distribution=pareto:0.3"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistPareto, Value: 0.3}}}, hotProfile},
		{"normal", []string{"--rw=randread", "--bs=4k", "--random_distribution=normal:20"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistNormal, Value: 20}}}, placed(func(r ioRec) int64 { return r.off / 4096 % 64 })},
		{"zoned", []string{"--rw=randread", "--bs=4k", "--random_distribution=zoned:60/10:30/20:8/30:2/40"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistZoned, Zones: bothDirs([]Zone{{60, 10, 0}, {30, 20, 0}, {8, 30, 0}, {2, 40, 0}})}}}, placed(bucket)},
		{"zoned_abs", []string{"--rw=randread", "--bs=4k", "--random_distribution=zoned_abs:70/1m:30/8m"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Dist: Distribution{Kind: DistZonedAbs, Zones: bothDirs([]Zone{{70, 0, 1 << 20}, {30, 0, 8 << 20}})}}}, placed(bucket)},
		{"jesd219: bssplit from 512, blockalign 4k, zoned", []string{"--rw=randread", "--norandommap", "--blockalign=4k",
			"--bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3", "--random_distribution=zoned:50/5:30/15:20/80"},
			Workload{RW: RandRead, BS: 512, Shape: Shape{Align: [2]int64{4096, 4096}, BSSplit: split([]BSShare{{512, 4}, {1024, 1}, {1536, 1}, {2048, 1}, {2560, 1},
				{3072, 1}, {3584, 1}, {4096, 67}, {8192, 10}, {16384, 7}, {32768, 3}, {65536, 3}}),
				Dist: Distribution{Kind: DistZoned, Zones: bothDirs([]Zone{{50, 5, 0}, {30, 15, 0}, {20, 80, 0}})}}}, alignedSizes(4096)},
		{"percentage_random", []string{"--rw=randread", "--bs=4k", "--percentage_random=60", "--norandommap"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{Sequential: [2]int{40, 40}}}, followers},
		{"randread-every-4", []string{"--rw=randread:4", "--bs=4k", "--norandommap"},
			Workload{RW: RandRead, BS: 4096, Shape: Shape{RandomEvery: 4}}, followers},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fio := fioIOs(t, size, n, c.opts...)
			c.w.RandSeed = 7
			if err := c.w.Shape.validate(c.w); err != nil {
				t.Fatal(err)
			}
			c.keys(t, fio, genIOs(c.w, size, len(fio)))
		})
	}
}

func split(sp []BSShare) [2][]BSShare {
	SortBSSplit(sp)
	return [2][]BSShare{sp, sp}
}

func bothDirs(z []Zone) [2][]Zone { return [2][]Zone{z, z} }

func sizesAndBuckets(t *testing.T, fio, qd []ioRec) {
	size := func(r ioRec) int64 { return r.n }
	sameShares(t, "bytes", shares(fio, size), shares(qd, size), len(fio), len(qd))
	bucket := func(r ioRec) int64 { return r.off >> 18 }
	sameShares(t, "256 KiB", shares(fio, bucket), shares(qd, bucket), len(fio), len(qd))
}

func sizesPerDir(t *testing.T, fio, qd []ioRec) {
	for d := range 2 {
		keep := func(ios []ioRec) []ioRec {
			return slices.DeleteFunc(slices.Clone(ios), func(r ioRec) bool { return r.dir != d })
		}
		f, q := keep(fio), keep(qd)
		size := func(r ioRec) int64 { return r.n }
		sameShares(t, [2]string{"read bytes", "write bytes"}[d], shares(f, size), shares(q, size), len(f), len(q))
	}
}

// sizesAndSteps checks a sequential job's sizes and that each I/O starts
// where the one before ended, or at 0.
func sizesAndSteps(t *testing.T, fio, qd []ioRec) {
	sizesAndBuckets(t, fio, qd)
	for name, ios := range map[string][]ioRec{"fio": fio, "qdsweep": qd} {
		for i := 1; i < len(ios); i++ {
			if p := ios[i-1]; ios[i].off != p.off+p.n && ios[i].off != 0 {
				t.Fatalf("%s: I/O %d at %d after %d+%d", name, i, ios[i].off, p.off, p.n)
			}
		}
	}
}

func hotProfile(t *testing.T, fio, qd []ioRec) {
	const blocks = 16 << 20 / 4096
	sameShares(t, "hottest ‰ of blocks", hotShares(fio, 4096, blocks), hotShares(qd, 4096, blocks), len(fio), len(qd))
}

func placed(key func(ioRec) int64) func(t *testing.T, fio, qd []ioRec) {
	return func(t *testing.T, fio, qd []ioRec) {
		sameShares(t, "bucket", shares(fio, key), shares(qd, key), len(fio), len(qd))
		hotProfile(t, fio, qd)
	}
}

// followers compares the share of I/Os that start where the one before
// ended, and, for the rest, where they fall.
func followers(t *testing.T, fio, qd []ioRec) {
	follow := func(ios []ioRec) map[int64]float64 {
		m := map[int64]float64{0: 0, 1: 0}
		for i := 1; i < len(ios); i++ {
			if ios[i].off == ios[i-1].off+ios[i-1].n {
				m[1]++
			} else {
				m[0]++
			}
		}
		for k := range m {
			m[k] /= float64(len(ios) - 1)
		}
		return m
	}
	sameShares(t, "follows", follow(fio), follow(qd), len(fio), len(qd))
	bucket := func(r ioRec) int64 { return r.off >> 18 }
	sameShares(t, "256 KiB", shares(fio, bucket), shares(qd, bucket), len(fio), len(qd))
}

// TestMixedSizesRun runs a job whose reads and writes draw their sizes
// from bssplits through each kernel engine on a real file, verifying
// every read: it issues exactly the generator's I/Os, whose bytes the
// statistics count, each direction on its own.
func TestMixedSizesRun(t *testing.T) {
	const size = 4 << 20
	const ios = 3000
	path := filepath.Join(t.TempDir(), "mixed")
	buf := make([]byte, size)
	for i := 0; i < size; i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], uint64(i)) // verify's stamp
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	sp := split([]BSShare{{4096, 60}, {65536, 30}, {16384, 10}})
	w := Workload{Filename: path, RW: RandRW, RWMixRead: 60, BS: 4096, NumJobs: 1, Direct: true, Verify: true, RandSeed: 5,
		Permit: guard.Permit{AllowWrite: true}, Shape: Shape{BSSplit: [2][]BSShare{sp[0], {{8192, 50}, {131072, 50}}}}}
	var want [2]int64
	for _, r := range genIOs(w, size, ios) {
		want[r.dir] += r.n
	}
	for _, c := range []struct {
		engine string
		depth  int
		uring  UringOptions
	}{{EngineIOUring, 8, UringOptions{}}, {EngineIOUring, 8, UringOptions{NonVectored: Off, FixedBufs: Off}}, {EngineLibaio, 8, UringOptions{}}, {EnginePsync, 1, UringOptions{}}} {
		t.Run(fmt.Sprint(c.engine, c.uring.Given()), func(t *testing.T) {
			w := w
			w.IODepth, w.Uring = c.depth, c.uring
			e, _, err := New(c.engine)
			if err != nil {
				t.Fatal(err)
			}
			st, err := e.Run(context.Background(), w, Control{Runtime: time.Minute, IOsPerJob: ios})
			if err != nil {
				t.Fatal(err)
			}
			if st.All.TotalIOs != ios || st.Read == nil || st.Write == nil || st.Read.Bytes != want[0] || st.Write.Bytes != want[1] {
				t.Fatalf("%d I/Os, bytes read %v written %v; want %d I/Os, %d and %d bytes", st.All.TotalIOs, st.Read, st.Write, ios, want[0], want[1])
			}
		})
	}
}

// TestSkipsAsFio: fio's rw=<pattern>:<skip> issues the same offsets in the
// same order, through the region's end and back.
func TestSkipsAsFio(t *testing.T) {
	const size = 64 << 10
	for _, c := range []struct {
		rw   string
		bs   int64
		skip int64
		w    RW
	}{{"read:8k", 4096, 8192, Read}, {"read:-8k", 4096, -8192, Read}, {"write:12k", 8192, 12288, Write}, {"read:-4k", 4096, -4096, Read}} {
		t.Run(c.rw, func(t *testing.T) {
			t.Parallel()
			fio := fioIOs(t, size, 100, "--rw="+c.rw, "--bs="+strconv.FormatInt(c.bs, 10))
			w := Workload{RW: c.w, BS: c.bs, Shape: Shape{Skip: c.skip}}
			qd := genIOs(w, size, len(fio))
			for i := range fio {
				if fio[i] != qd[i] {
					t.Fatalf("I/O %d: fio %+v, qdsweep %+v", i, fio[i], qd[i])
				}
			}
			t.Logf("%d I/Os alike, first %v", len(fio), fio[:4])
		})
	}
}

// alignedSizes checks sizes and where I/Os fall, and that every offset is
// a multiple of align in both.
func alignedSizes(align int64) func(t *testing.T, fio, qd []ioRec) {
	return func(t *testing.T, fio, qd []ioRec) {
		sizesAndBuckets(t, fio, qd)
		for name, ios := range map[string][]ioRec{"fio": fio, "qdsweep": qd} {
			for _, r := range ios {
				if r.off%align != 0 {
					t.Fatalf("%s: offset %d is not a multiple of %d", name, r.off, align)
				}
			}
		}
	}
}
