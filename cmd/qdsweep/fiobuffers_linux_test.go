package main

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bufferCase is a job file whose writes fio 3.33 and qdsweep fill with
// the same buffer options; the files it writes are compared by content.
type bufferCase struct {
	name string
	job  string // the job file: [global] options, then its jobs' sections
}

// bufferCases are the settings TestFioBufferContent compares: compression
// 0-100% by chunk size, dedupe 0/50/90% in both modes, global or not, and
// the options that say how buffers are filled.
var bufferCases = func() []bufferCase {
	one := func(opts string) string {
		return "[global]\nrw=write\nbs=4k\nsize=8m\n" + strings.ReplaceAll(opts, " ", "\n") + "\n[a]\nfilename=a\n"
	}
	two := func(opts string) string {
		return "[global]\nioengine=libaio\niodepth=16\nrw=write\nbs=4k\nsize=8m\n" + strings.ReplaceAll(opts, " ", "\n") + "\n[a]\nfilename=a\n[b]\nfilename=b\n"
	}
	var cs []bufferCase
	for _, c := range []int{0, 25, 50, 75, 100} {
		cs = append(cs, bufferCase{fmt.Sprintf("compress %d", c), one(fmt.Sprintf("buffer_compress_percentage=%d", c))})
	}
	for _, o := range []string{"buffer_compress_percentage=25 buffer_compress_chunk=4k", "buffer_compress_percentage=75 buffer_compress_chunk=1k",
		"buffer_compress_percentage=50 buffer_compress_chunk=0 bs=16k",
		"dedupe_percentage=50", "dedupe_percentage=90", "dedupe_percentage=50 buffer_compress_percentage=50",
		"dedupe_percentage=50 dedupe_mode=working_set dedupe_working_set_percentage=20",
		"dedupe_percentage=90 dedupe_mode=working_set dedupe_working_set_percentage=10 buffer_compress_percentage=25",
		"bsrange=4k-16k buffer_compress_percentage=50 dedupe_percentage=30",
		"rw=randwrite ioengine=libaio iodepth=4 buffer_compress_percentage=40 buffer_compress_chunk=2k",
		"zero_buffers", "scramble_buffers=0", "refill_buffers", "buffer_pattern=0xdeadbeef buffer_compress_percentage=50",
		"ioengine=libaio iodepth=8", "ioengine=io_uring iodepth=8 dedupe_percentage=50",
		// verify writes its own blocks, compressible as fio's fill_verify_pattern
		// leaves them (dedupe is not theirs)
		"verify=crc32c buffer_compress_percentage=50 bs=8k", "verify=md5 buffer_compress_percentage=25 dedupe_percentage=50"} {
		cs = append(cs, bufferCase{o, one(o)})
	}
	for _, o := range []string{"dedupe_mode=working_set dedupe_percentage=50 dedupe_working_set_percentage=50 buffer_compress_percentage=50 dedupe_global=1",
		"dedupe_mode=working_set dedupe_percentage=50 dedupe_working_set_percentage=50 buffer_compress_percentage=50 dedupe_global=0",
		"dedupe_percentage=50 dedupe_global=1"} {
		cs = append(cs, bufferCase{"two jobs " + o, two(o)})
	}
	return cs
}()

// Tolerances of TestFioBufferContent: both tools draw which writes repeat
// at random (about 2,000 blocks a file: a share's standard deviation is
// about 0.011), each from fixed seeds (the same shares every run), and
// fill the rest alike.
const (
	bufferDupTol  = 0.04
	bufferCompTol = 0.02
)

// TestFioBufferContent runs each buffer case under fio 3.33 and under
// qdsweep run, and compares the files they wrote: the share of 4k blocks
// that repeat another (each file, and all of a case's files together)
// and the size flate compresses them to, block by block.
func TestFioBufferContent(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: this test compares qdsweep's written data with fio 3.33's (CI installs it)")
	}
	for _, tc := range bufferCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fioDir, qdDir := t.TempDir(), t.TempDir()
			for _, d := range []string{fioDir, qdDir} {
				if err := os.WriteFile(filepath.Join(d, "j.fio"), []byte(tc.job), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if out, err := runIn(fioDir, fioBin, "j.fio", "--output=fio.out"); err != nil {
				t.Fatalf("fio: %v\n%s", err, out)
			}
			if _, stderr, code := runQdsweep(t, qdDir, "run", "j.fio", "--allow-write", "--output=qd.out"); code != 0 {
				t.Fatalf("qdsweep run: exit %d: %s", code, stderr)
			}
			want, got := filesContent(t, fioDir), filesContent(t, qdDir)
			t.Logf("fio %s; qdsweep %s", want, got)
			if !want.near(got) {
				t.Errorf("written data differs: fio %s; qdsweep %s", want, got)
			}
		})
	}
}

// writtenContent is what a case's files hold: the share of 4k blocks
// repeating another block of the same file (per file), of any file
// (all), and their size compressed by flate block by block.
type writtenContent struct {
	dup        []float64
	all, ratio float64
}

func (c writtenContent) String() string {
	return fmt.Sprintf("duplicate blocks %.3f per file, %.3f together, compressed to %.3f", c.dup, c.all, c.ratio)
}

func (c writtenContent) near(o writtenContent) bool {
	if len(c.dup) != len(o.dup) || math.Abs(c.all-o.all) > bufferDupTol || math.Abs(c.ratio-o.ratio) > bufferCompTol {
		return false
	}
	for i := range c.dup {
		if math.Abs(c.dup[i]-o.dup[i]) > bufferDupTol {
			return false
		}
	}
	return true
}

// filesContent measures the files a and b (those present) in dir.
func filesContent(t *testing.T, dir string) writtenContent {
	t.Helper()
	return filesContentOf(t, dir, "a", "b")
}

// filesContentOf measures the named files (those present) in dir.
func filesContentOf(t *testing.T, dir string, names ...string) writtenContent {
	t.Helper()
	var c writtenContent
	all := map[[32]byte]bool{}
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	blocks, packed := 0, 0
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		own := map[[32]byte]bool{}
		n := 0
		for p := 0; p+4096 <= len(data); p += 4096 {
			h := sha256.Sum256(data[p : p+4096])
			own[h], all[h] = true, true
			out.Reset()
			fw.Reset(&out)
			_, _ = fw.Write(data[p : p+4096])
			_ = fw.Close()
			n, packed = n+1, packed+out.Len()
		}
		if n == 0 {
			t.Fatalf("%s: nothing written", name)
		}
		blocks += n
		c.dup = append(c.dup, 1-float64(len(own))/float64(n))
	}
	c.all = 1 - float64(len(all))/float64(blocks)
	c.ratio = float64(packed) / float64(blocks*4096)
	return c
}

// TestFioVerifiesCompressibleBlocks: verify blocks written compressible
// (buffer_compress_percentage) by either tool pass the other's verify_only.
func TestFioVerifiesCompressibleBlocks(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: this test checks qdsweep's verify blocks against fio 3.33's (CI installs it)")
	}
	job := []string{"--name=v", "--filename=f", "--size=256k", "--bs=8k", "--rw=write", "--verify=crc32c", "--buffer_compress_percentage=50"}
	qd := func(dir string, extra string) (string, error) {
		stdout, stderr, code := runQdsweep(t, dir, append(append([]string{"run"}, job...), extra, "--allow-write")...)
		if code != 0 {
			return stdout + stderr, fmt.Errorf("exit %d", code)
		}
		return stdout, nil
	}
	fioRun := func(dir string, extra string) (string, error) {
		out, err := runIn(dir, fioBin, append(job, extra)...)
		return string(out), err
	}
	tools := map[string]func(string, string) (string, error){"fio": fioRun, "qdsweep": qd}
	for _, pair := range [][2]string{{"fio", "qdsweep"}, {"qdsweep", "fio"}} {
		dir := t.TempDir()
		if out, err := tools[pair[0]](dir, "--do_verify=0"); err != nil {
			t.Fatalf("%s writes: %v\n%s", pair[0], err, out)
		}
		if out, err := tools[pair[1]](dir, "--verify_only"); err != nil {
			t.Errorf("%s verifies what %s wrote: %v\n%s", pair[1], pair[0], err, out)
		}
		if c := filesContentOf(t, dir, "f"); math.Abs(c.ratio-0.5) > 0.03 {
			t.Errorf("%s's blocks compress to %.3f, want about half", pair[0], c.ratio)
		}
	}
}
