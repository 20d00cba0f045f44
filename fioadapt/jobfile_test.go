package fioadapt_test

import (
	"bytes"
	"errors"
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

func TestWriteJobFileRoundTrip(t *testing.T) {
	tests := []struct {
		name          string
		wl            ioengine.Workload
		runtime, ramp time.Duration
	}{
		{name: "randread", wl: ioengine.Workload{Filename: "/dev/nvme0n1", RW: ioengine.RandRead, BS: 4096, IODepth: 32, NumJobs: 4, Direct: true, RandSeed: 7},
			runtime: 30 * time.Second, ramp: 5 * time.Second},
		{name: "randrw with offsets", wl: ioengine.Workload{Filename: "/tmp/x.dat", Size: 64 << 20, Offset: 1 << 20, OffsetIncrement: 16 << 20,
			RW: ioengine.RandRW, RWMixRead: 70, BS: 8192, IODepth: 8, NumJobs: 2}, runtime: 1500 * time.Millisecond},
		{name: "write", wl: ioengine.Workload{Filename: "/tmp/y.dat", Size: 1 << 30, RW: ioengine.Write, BS: 1 << 20, IODepth: 1, NumJobs: 1, Direct: true,
			ContinueOnError: true}, runtime: time.Minute, ramp: 250 * time.Millisecond},
		{name: "io_uring options", wl: ioengine.Workload{Filename: "/tmp/z.dat", RW: ioengine.RandRead, BS: 4096, IODepth: 64, NumJobs: 2, Direct: true,
			Uring: ioengine.UringOptions{FixedBufs: ioengine.On, RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, SQThreadCPU: 1, NonVectored: ioengine.Off}},
			runtime: time.Second},
		{name: "io_uring options off", wl: ioengine.Workload{Filename: "/tmp/z.dat", RW: ioengine.RandRead, BS: 4096, IODepth: 64, NumJobs: 2, Direct: true,
			Uring: ioengine.UringOptions{FixedBufs: ioengine.Off, HiPri: true, NonVectored: ioengine.On}}, runtime: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := fioadapt.WriteJobFile(&buf, tt.wl, tt.runtime, tt.ramp); err != nil {
				t.Fatal(err)
			}
			jf, err := fio.ParseJobFile(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			runs, err := fioadapt.Runs(jf)
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs %v, %v\n%s", runs, err, buf.String())
			}
			r := runs[0]
			// A job file without buffer options writes fio's default data
			// (the workload's own zeros are not written back).
			want := tt.wl
			want.Buffers = ioengine.Buffers{Random: true, Scramble: true}
			if !reflect.DeepEqual(r.Workload, want) || r.Runtime != tt.runtime || r.Ramp != tt.ramp || r.IOEngine != "io_uring" {
				t.Errorf("round trip:\n got %+v %v %v %s\nwant %+v %v %v\n%s", r.Workload, r.Runtime, r.Ramp, r.IOEngine, tt.wl, tt.runtime, tt.ramp, buf.String())
			}
		})
	}
}

// TestFioAcceptsJobFile has fio itself parse what WriteJobFile writes.
func TestFioAcceptsJobFile(t *testing.T) {
	needFio(t)
	dir := t.TempDir()
	wl := ioengine.Workload{Filename: filepath.Join(dir, "t.dat"), Size: 16 << 20, OffsetIncrement: 4 << 20, RW: ioengine.RandRW,
		RWMixRead: 70, BS: 4096, IODepth: 16, NumJobs: 4, Direct: true, RandSeed: 1, ContinueOnError: true,
		Uring: ioengine.UringOptions{FixedBufs: ioengine.On, RegisterFiles: true, SQThreadPoll: true, SQThreadPin: true, HiPri: true, NonVectored: ioengine.Off}}
	path := filepath.Join(dir, fioadapt.JobFileName(wl))
	if filepath.Base(path) != "randrw-4096-iodepth16-numjobs4.fio" {
		t.Errorf("JobFileName %s", filepath.Base(path))
	}
	var buf bytes.Buffer
	if err := fioadapt.WriteJobFile(&buf, wl, 1500*time.Millisecond, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("fio", "--parse-only", path).CombinedOutput()
	if err != nil {
		t.Fatalf("fio --parse-only: %v\n%s\n%s", err, out, buf.String())
	}
	if strings.Contains(string(out), "fio:") {
		t.Errorf("fio complained:\n%s", out)
	}
}

func TestJobFileRuns(t *testing.T) {
	jf, err := fio.ReadJobFile(filepath.Join(fioTestdata, "sweep.fio"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := fioadapt.Runs(jf)
	if err != nil {
		t.Fatal(err)
	}
	wantDepth := []int{1, 4, 16, 16}
	wantJobs := []int{1, 1, 1, 2}
	if len(runs) != 4 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, r := range runs {
		w := r.Workload
		if w.IODepth != wantDepth[i] || w.NumJobs != wantJobs[i] || w.RW != ioengine.RandRead || w.BS != 4096 ||
			w.Size != 64<<20 || !w.Direct || r.Runtime != time.Second || r.IOEngine != "io_uring" {
			t.Errorf("run %d (%s): %+v runtime %v engine %s", i, r.Name, w, r.Runtime, r.IOEngine)
		}
	}
}

func TestJobFileErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		unsupported    bool
	}{
		{name: "no section", in: "rw=read\n", want: "line 1"},
		{name: "no job", in: "[global]\nrw=read\n", want: "no [job]"},
		{name: "bad header", in: "[job\n", want: "line 1"},
		{name: "bad size", in: "[j]\nfilename=/x\nbs=4q\n", want: "line 3"},
		{name: "unsupported listed together", in: "[global]\nverify=sha256\n[j]\nfilename=/x\nmax_latency=100\nioengine=mmap\nfill_device=1\n",
			want: "fill_device=1 (line 7), ioengine=mmap (line 6), max_latency=100 (line 5), verify=sha256 (line 2)", unsupported: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jf, err := fio.ParseJobFile(strings.NewReader(tt.in))
			if err == nil {
				_, err = fioadapt.Runs(jf)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if tt.unsupported != errors.Is(err, fio.ErrUnsupported) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: unsupported %v, want %v on one line", err, errors.Is(err, fio.ErrUnsupported), tt.unsupported)
			}
		})
	}
}

// needFio skips when the fio binary is absent.
func needFio(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
}
