package fioadapt_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// TestBufferOptions: fio's buffer options become the workload's Buffers
// with fio 3.33's own fix-ups, read in the order given.
func TestBufferOptions(t *testing.T) {
	fioDefault := ioengine.Buffers{Random: true, Scramble: true}
	cases := []struct {
		args string
		want ioengine.Buffers
	}{
		{"", fioDefault},
		{"--zero_buffers", ioengine.Buffers{}},
		{"--zero_buffers --scramble_buffers=1", ioengine.Buffers{Scramble: true}},
		{"--scramble_buffers=0", ioengine.Buffers{Random: true}},
		{"--refill_buffers=2", ioengine.Buffers{Random: true, Scramble: true, Refill: true}},
		// buffer_compress_percentage turns scrambling off, even at 0, and
		// refills unless refill_buffers is given; 100 is zeros.
		{"--buffer_compress_percentage=0", ioengine.Buffers{Random: true}},
		{"--buffer_compress_percentage=50", ioengine.Buffers{Random: true, Compress: 50, Refill: true}},
		{"--buffer_compress_percentage=50 --refill_buffers=0", ioengine.Buffers{Random: true, Compress: 50}},
		{"--buffer_compress_percentage=100", ioengine.Buffers{}},
		{"--buffer_compress_percentage=25 --buffer_compress_chunk=4k", ioengine.Buffers{Random: true, Compress: 25, Chunk: 4096, Refill: true}},
		{"--buffer_compress_percentage=25 --buffer_compress_chunk=0", ioengine.Buffers{Random: true, Compress: 25, Chunk: ioengine.ChunkWrite, Refill: true}},
		{"--dedupe_percentage=50", ioengine.Buffers{Random: true, Dedupe: 50, Refill: true}},
		{"--dedupe_percentage=50 --dedupe_mode=working_set --size=1m", ioengine.Buffers{Random: true, Dedupe: 50, Refill: true,
			Mode: ioengine.DedupeWorkingSet, WorkingSet: 5}},
		{"--dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=20 --dedupe_global=1 --size=1m",
			ioengine.Buffers{Random: true, Dedupe: 50, Refill: true, Mode: ioengine.DedupeWorkingSet, WorkingSet: 20, Global: true}},
		// buffer_pattern refills when the job reads so far (fio's default
		// rw is read) or compresses, and neither scrambles nor zeroes.
		{"--buffer_pattern=0xdead", ioengine.Buffers{Random: true, Pattern: []byte{0xde, 0xad}, Refill: true}},
		{"--rw=write --buffer_pattern='ab'", ioengine.Buffers{Random: true, Pattern: []byte("ab")}},
		{"--rw=write --zero_buffers --buffer_pattern=0x01", ioengine.Buffers{Random: true, Pattern: []byte{1}}},
	}
	for _, tc := range cases {
		t.Run(tc.args, func(t *testing.T) {
			args := append([]string{"--name=j", "--filename=f"}, strings.Fields(tc.args)...)
			jf, _, err := fio.ParseArgs(args)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := fioadapt.Runs(jf)
			if err != nil {
				t.Fatal(err)
			}
			if got := runs[0].Workload.Buffers; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestBufferRefusals: what fio 3.33 refuses of a dedupe working set.
func TestBufferRefusals(t *testing.T) {
	for args, want := range map[string]string{
		"--dedupe_percentage=50 --dedupe_mode=working_set":                                              "needs size",
		"--dedupe_percentage=50 --dedupe_mode=working_set --size=1m --filename=a:b":                     "one file per job",
		"--dedupe_percentage=60 --dedupe_mode=working_set --dedupe_working_set_percentage=50 --size=1m": "over 100",
		"--dedupe_percentage=101":         "0..100",
		"--dedupe_mode=sometimes":         "repeat or working_set",
		"--buffer_pattern=12":             "hexadecimal",
		"--buffer_compress_percentage=-1": "0..100",
	} {
		jf, _, err := fio.ParseArgs(append([]string{"--name=j", "--filename=f"}, strings.Fields(args)...))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fioadapt.Runs(jf); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", args, err, want)
		}
	}
}

// TestBufferJobsNumbered: the jobs of a file's sections are numbered
// together, so each writes its own data and dedupe_global's set spans all.
func TestBufferJobsNumbered(t *testing.T) {
	jf, err := fio.ParseJobFile(strings.NewReader("[global]\nrw=write\n[a]\nnumjobs=2\n[b]\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := runs[0].Workload.Buffers, runs[1].Workload.Buffers; a.JobBase != 0 || b.JobBase != 2 || a.Jobs != 3 || b.Jobs != 3 {
		t.Errorf("a %d of %d, b %d of %d; want 0 and 2 of 3", a.JobBase, a.Jobs, b.JobBase, b.Jobs)
	}
}

// TestBufferOptionsWrittenForFio: a workload's buffer options written in
// a job file for fio read back as the same Buffers, and fio 3.33 parses
// them.
func TestBufferOptionsWrittenForFio(t *testing.T) {
	dir := t.TempDir()
	for i, b := range []ioengine.Buffers{
		{Random: true, Compress: 50, Chunk: 4096, Refill: true},
		{Random: true, Dedupe: 30, Mode: ioengine.DedupeWorkingSet, WorkingSet: 10, Global: true, Refill: true},
		{Random: true, Compress: 25, Chunk: ioengine.ChunkWrite, Dedupe: 90, Refill: true},
		{Random: true},
		{Random: true, Pattern: []byte{0xde, 0xad}},
		{Random: true, Pattern: []byte{0xde, 0xad}, Compress: 50, Refill: true},
		{Random: true, Compress: 50},
	} {
		wl := ioengine.Workload{Filename: filepath.Join(dir, "t.dat"), Size: 16 << 20, RW: ioengine.Write, BS: 4096, IODepth: 1, NumJobs: 1, Buffers: b}
		var buf bytes.Buffer
		if err := fioadapt.WriteJobFile(&buf, wl, time.Second, 0); err != nil {
			t.Fatal(err)
		}
		jf, err := fio.ParseJobFile(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := fioadapt.Runs(jf)
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if got := runs[0].Workload.Buffers; !reflect.DeepEqual(got, b) {
			t.Errorf("%+v read back as %+v from\n%s", b, got, buf.String())
		}
		if _, err := exec.LookPath("fio"); err != nil {
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("%d.fio", i))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("fio", "--parse-only", path).CombinedOutput(); err != nil || strings.Contains(string(out), "fio:") {
			t.Errorf("fio --parse-only: %v\n%s\n%s", err, out, buf.String())
		}
	}
}
