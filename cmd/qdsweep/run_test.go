package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
)

// TestRunFioCommandLine runs a fio command line with fio swapped for
// `qdsweep run` (both --k=v and --k v) and reads its JSON.
func TestRunFioCommandLine(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "data")
	stdout, stderr, code := runQdsweep(t, dir, "run", "--name=x", "--filename="+target, "--ioengine=libaio", "--direct=1",
		"--rw=randrw", "--rwmixread", "70", "--bs=4k", "--iodepth", "8", "--numjobs=2", "--runtime=0.3", "--ramp_time", "0",
		"--time_based", "--group_reporting", "--size=16M", "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Engine   string  `json:"engine"`
		RW       string  `json:"rw"`
		BS       int64   `json:"bs"`
		IODepth  int     `json:"iodepth"`
		NumJobs  int     `json:"numjobs"`
		Runtime  int64   `json:"runtime_ns"`
		TotalIOs int64   `json:"total_ios"`
		IOPS     float64 `json:"iops"`
		Lat      struct {
			Mean float64 `json:"mean"`
			P999 int64   `json:"p999"`
		} `json:"lat_ns"`
		Inflight float64                 `json:"inflight_mean"`
		CPU      map[string]any          `json:"cpu"`
		Errors   []any                   `json:"errors"`
		Read     *struct{ IOPS float64 } `json:"read"`
		Write    *struct{ IOPS float64 } `json:"write"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	if doc.Engine != "libaio" || doc.RW != "randrw" || doc.BS != 4096 || doc.IODepth != 8 || doc.NumJobs != 2 {
		t.Fatalf("echoed workload wrong: %+v", doc)
	}
	if doc.TotalIOs == 0 || doc.Runtime <= 0 || doc.Lat.Mean <= 0 || doc.Lat.P999 <= 0 || doc.Errors == nil || doc.CPU == nil {
		t.Fatalf("figures missing: %+v", doc)
	}
	if doc.Read == nil || doc.Write == nil || math.Abs(doc.Read.IOPS+doc.Write.IOPS-doc.IOPS) > 1 {
		t.Fatalf("read/write sub-objects: %+v %+v", doc.Read, doc.Write)
	}
	if !strings.Contains(stderr, "laying out") {
		t.Fatalf("expected the layout note on stderr, got %q", stderr)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("a named target qdsweep created is kept (as fio does): %v", err)
	}
	if want := "kept " + target + " (created by qdsweep; remove it when done)"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q: %q", want, stderr)
	}
}

// TestRunScratchRemoved runs without --filename: the scratch file is laid out and removed.
func TestRunScratchRemoved(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runQdsweep(t, dir, "run", "--size=8m", "--runtime=200ms", "--rw=randread", "--ioengine=libaio", "--iodepth=4", "--direct=1", "--output-format=qdsweep")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"randread 4k, iodepth 4 × 1 job", "IOPS", "p99.9", "in flight", "CPU"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, l := range strings.Split(stdout, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "qdsweep.scratch")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("scratch file left behind: %v", err)
	}
}

// TestRunBadInput checks that bad input exits 2 with one line naming the flag, writing nothing.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--bs=1000", "--direct=1", "--filename=" + existing}, "--bs"},
		{[]string{"--bs=4q"}, "--bs"},
		{[]string{"--size=lots"}, "--size"},
		{[]string{"--runtime=soon"}, "--runtime"},
		{[]string{"--ramp_time=-1"}, "--ramp_time"},
		{[]string{"--io_timeout=x"}, "--io_timeout"},
		{[]string{"--rw=randomread"}, "--rw"},
		{[]string{"--ioengine=spdk"}, "--ioengine"},
		{[]string{"--iodepth=0"}, "--iodepth"},
		{[]string{"--numjobs=0"}, "--numjobs"},
		{[]string{"--bssplit=4k/50:8k/50:16k/50:32k"}, "--bssplit"},
		{[]string{"--random_distribution=zipf:1"}, "--random_distribution"},
		{[]string{"--allow_file_create=0", "--filename=" + filepath.Join(dir, "nosuch")}, "allow_file_create=0"},
		{[]string{"--rate_iops_min=100", "--bssplit=4k/50:8k/50", "--unlink=1", "--exec_prerun=true"}, "--exec_prerun=true (it runs a command), --unlink=1 (it names, creates, reads, writes or removes files other than the job's own)"},
		{[]string{"--thinktime=10", "--ioengine=fio", "--fio-arg=--ioengine=filedelete"}, "--fio-arg"},
		{[]string{"--readonly", "--rw=write"}, "--readonly"},
		{[]string{"--size=1m", "--filename=" + existing + ":" + filepath.Join(dir, "missing", "f")}, "--filename"},
		{[]string{"--ioengine=sim", "--filename=a:b"}, "--filename lists 2 files"},
		{[]string{"--ioengine=sim", "--rate_iops=10"}, "--rate_iops"},
		{[]string{"--rwmixread=120"}, "--rwmixread"},
		{[]string{"--direct=2"}, "--direct"},
		{[]string{"--output-format=xml"}, "--output-format"},
		{[]string{"--filename=" + filepath.Join(dir, "missing", "f")}, "--filename"},
		{[]string{"--rw=randwrite", "--filename=" + existing}, "--allow-write"},
		{[]string{"--filename=" + existing, "--size=2m"}, "--size"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
		{[]string{"--cmdhelp=rw"}, "--cmdhelp=rw (fio's own help, version or self-test, not a job: run fio itself for it; qdsweep run --help lists the options qdsweep runs)"},
		{[]string{"--client=host1"}, "--client=host1 (it runs fio as a server or as a client of one, not a job: qdsweep's --fio-clients runs jobs on fio servers)"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			stdout, stderr, code := runQdsweep(t, dir, append([]string{"run", "--runtime=100ms"}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], c.want) {
				t.Fatalf("stderr %q: want one line naming %q", stderr, c.want)
			}
			if stdout != "" {
				t.Fatalf("stdout not empty: %q", stdout)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Fatalf("bad input wrote files: %v", entries)
			}
		})
	}
}

// runJSONDoc is the part of `run --output-format=json` the tests below read.
type runJSONDoc struct {
	Engine   string  `json:"engine"`
	RW       string  `json:"rw"`
	BS       int64   `json:"bs"`
	IODepth  int     `json:"iodepth"`
	NumJobs  int     `json:"numjobs"`
	Direct   bool    `json:"direct"`
	TotalIOs int64   `json:"total_ios"`
	IOPS     float64 `json:"iops"`
}

func decodeRun(t *testing.T, stdout string) runJSONDoc {
	t.Helper()
	var doc runJSONDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
	}
	return doc
}

// attachLoop attaches a sparse image of size bytes to a free loop device
// and detaches it when t ends; it skips t when that is not possible here.
func attachLoop(t *testing.T, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to attach a loop device")
	}
	if _, err := exec.LookPath("losetup"); err != nil {
		t.Skip("losetup not installed")
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, size); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Skipf("losetup cannot attach a loop device here: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		for i := 0; i < 20; i++ {
			if exec.Command("losetup", "-d", dev).Run() == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("could not detach %s", dev)
	})
	return dev
}

// TestRunWriteGuard: writes to existing data need the flags that name the
// risk, and with them the write reaches the engine, block devices included.
func TestRunWriteGuard(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	cheap := []string{"run", "--runtime=200ms", "--ramp_time=0", "--iodepth=4", "--rw=randwrite", "--output-format=qdsweep-json"}
	if _, stderr, code := runQdsweep(t, dir, append(cheap, "--filename="+existing)...); code != 2 || !strings.Contains(stderr, "--allow-write") {
		t.Fatalf("existing file without --allow-write: exit %d, %q", code, stderr)
	}
	stdout, stderr, code := runQdsweep(t, dir, append(cheap, "--filename="+existing, "--allow-write")...)
	if code != 0 {
		t.Fatalf("existing file with --allow-write: exit %d, %q", code, stderr)
	}
	if doc := decodeRun(t, stdout); doc.RW != "randwrite" || doc.TotalIOs == 0 {
		t.Fatalf("no writes measured: %+v", doc)
	}

	t.Run("block device", func(t *testing.T) {
		dev := attachLoop(t, 16<<20)
		_, stderr, code := runQdsweep(t, dir, append(cheap, "--filename="+dev)...)
		if code != 2 || !strings.Contains(stderr, "--allow-write-device") {
			t.Fatalf("device without --allow-write-device: exit %d, %q", code, stderr)
		}
		_, stderr, code = runQdsweep(t, dir, append(cheap, "--filename="+dev, "--allow-write-device", "--destroy-data="+existing)...)
		if code != 2 || !strings.Contains(stderr, "--destroy-data") {
			t.Fatalf("--destroy-data naming another file: exit %d, %q", code, stderr)
		}
		for _, extra := range [][]string{{"--allow-write-device"}, {"--allow-write-device", "--destroy-data=" + dev}} {
			stdout, stderr, code := runQdsweep(t, dir, append(append(cheap, "--filename="+dev), extra...)...)
			if code != 0 {
				t.Fatalf("%v: exit %d, %q", extra, code, stderr)
			}
			if doc := decodeRun(t, stdout); doc.TotalIOs == 0 {
				t.Fatalf("%v: no writes reached the device: %+v", extra, doc)
			}
		}
	})
}

// TestRunSim: run supports the simulated device and lays nothing out.
func TestRunSim(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runQdsweep(t, dir, "run", "--ioengine=sim", "--sim_latency=1ms", "--sim_jitter=0",
		"--iodepth=8", "--runtime=200ms", "--ramp_time=0", "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := decodeRun(t, stdout)
	// Little's Law: 8 in flight at 1 ms each is about 8000 IOPS.
	if doc.Engine != "sim" || doc.IOPS < 4000 || doc.IOPS > 9000 {
		t.Fatalf("sim run: %+v", doc)
	}
	if left := listEntries(t, dir); len(left) != 0 {
		t.Fatalf("sim run left files: %v", left)
	}
}

func listEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestRunJobFile: a fio job file gives the workload; an option on the
// command line is a default for the file's jobs, as in fio: the job's own
// iodepth=2 wins over --iodepth=4, --numjobs=2 (the file sets none) applies.
func TestRunJobFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "data")
	job := filepath.Join(dir, "job.fio")
	text := "[global]\nioengine=libaio\ndirect=1\nsize=4m\nfilename=" + target + "\n[j]\nrw=randread\nbs=8k\niodepth=2\nruntime=200ms\nramp_time=0\n"
	if err := os.WriteFile(job, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runQdsweep(t, dir, "run", "--jobfile="+job, "--iodepth=4", "--numjobs=2", "--group_reporting", "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := decodeRun(t, stdout)
	if doc.Engine != "libaio" || doc.RW != "randread" || doc.BS != 8192 || doc.IODepth != 2 || doc.NumJobs != 2 || !doc.Direct || doc.TotalIOs == 0 {
		t.Fatalf("workload from the job file (iodepth the job's, numjobs the command line's): %+v", doc)
	}
}

// TestRunFioEngine runs the installed fio through --ioengine=fio, and names
// a missing fio binary in one line.
func TestRunFioEngine(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio not installed")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "data")
	args := []string{"run", "--ioengine=fio", "--fio-arg=--thread", "--filename=" + target, "--size=4m", "--bs=4k",
		"--iodepth=4", "--runtime=300ms", "--ramp_time=0", "--output-format=qdsweep-json"}
	stdout, stderr, code := runQdsweep(t, dir, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if doc := decodeRun(t, stdout); doc.Engine != "fio" || doc.TotalIOs == 0 || doc.IODepth != 4 {
		t.Fatalf("fio run: %+v", doc)
	}

	// fio's own formats name the ioengine fio ran, not "fio".
	fj, stderr, code := runQdsweep(t, dir, "run", "--ioengine=fio", "--fio-arg=--ioengine=libaio", "--filename="+target, "--size=4m",
		"--iodepth=2", "--runtime=200ms", "--time_based", "--output-format=fio-json")
	if code != 0 {
		t.Fatalf("fio-json: exit %d: %s", code, stderr)
	}
	var fdoc struct {
		Global map[string]string `json:"global options"`
		Jobs   []struct {
			Options map[string]string `json:"job options"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(fj), &fdoc); err != nil || len(fdoc.Jobs) != 1 || fdoc.Jobs[0].Options["ioengine"] != "libaio" {
		t.Fatalf("fio-json of a fio run with --ioengine=libaio: %v\n%s", err, fj)
	}

	cmd := exec.Command(sweepBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || strings.Count(se.String(), "\n") != 1 || !strings.Contains(se.String(), "fio not found") || so.Len() > 0 {
		t.Fatalf("without fio on PATH: %v, stderr %q, stdout %q", err, se.String(), so.String())
	}
}

// TestRunFioClients drives a real fio server on this machine through
// --fio-clients: the target is the server's, nothing is laid out here.
func TestRunFioClients(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP here: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srvDir := t.TempDir()
	srv := exec.Command(fioBin, fmt.Sprintf("--server=ip:127.0.0.1,%d", port))
	srv.Dir = srvDir
	if err := srv.Start(); err != nil {
		t.Skipf("cannot start a fio server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	for i := 0; i < 50; i++ { // until it listens
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts")
	if err := os.WriteFile(hosts, []byte(fmt.Sprintf("# the one server\n127.0.0.1:%d\n", port)), 0o644); err != nil {
		t.Fatal(err)
	}
	remote := filepath.Join(srvDir, "remote.dat")
	stdout, stderr, code := runQdsweep(t, dir, "run", "--ioengine=fio", "--fio-clients=@"+hosts, "--filename="+remote,
		"--size=4m", "--iodepth=2", "--runtime=300ms", "--ramp_time=0", "--output-format=qdsweep-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if doc := decodeRun(t, stdout); doc.Engine != "fio" || doc.TotalIOs == 0 {
		t.Fatalf("fio client run: %+v", doc)
	}
	if _, err := os.Stat(remote); err != nil {
		t.Fatalf("the server laid out no target: %v", err)
	}
	if left := listEntries(t, dir); len(left) != 1 {
		t.Fatalf("the client side laid something out: %v", left)
	}
	_, stderr, code = runQdsweep(t, dir, "run", "--ioengine=fio", "--fio-clients=127.0.0.1:1")
	if code != 2 || !strings.Contains(stderr, "--filename") {
		t.Fatalf("--fio-clients without --filename: exit %d, %q", code, stderr)
	}
}

// TestRunFioSemantics: a fio command line means what it means to fio:
// fio's defaults, its spellings, per-job files, a size-based end.
func TestRunFioSemantics(t *testing.T) {
	t.Run("defaults and per-job files", func(t *testing.T) {
		dir := t.TempDir()
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name", "j", "--size=2m", "--numjobs", "2", "--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			runJSONDoc
			IOBytes int64 `json:"io_bytes"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		// fio's defaults: psync, iodepth 1, read, 4k, buffered.
		if doc.Engine != "psync" || doc.IODepth != 1 || doc.NumJobs != 2 || doc.RW != "read" || doc.BS != 4096 || doc.Direct {
			t.Fatalf("not fio's defaults: %+v", doc)
		}
		// Size-based: each job reads its 2 MiB.
		if doc.IOBytes != 2*2<<20 {
			t.Fatalf("size-based run ended after %d bytes, not 2 × 2 MiB", doc.IOBytes)
		}
		for _, f := range []string{"j.0.0", "j.1.0"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("fio's file name %s: %v", f, err)
			}
		}
		if !strings.Contains(stderr, "kept j.0.0 … j.1.0 (2 files)") {
			t.Errorf("stderr does not say the files are kept: %q", stderr)
		}
	})
	t.Run("loops", func(t *testing.T) {
		dir := t.TempDir()
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name=l", "--size=1m", "--bs=64k", "--loops=3", "--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			IOBytes int64 `json:"io_bytes"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.IOBytes != 3<<20 {
			t.Fatalf("loops=3 over 1 MiB moved %d bytes (%v)", doc.IOBytes, err)
		}
	})
	t.Run("a vendor's command", func(t *testing.T) {
		// GCP's IOPS test, shortened: fio's value syntax and batching options.
		dir := t.TempDir()
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name=write_iops_test", "--filename="+filepath.Join(dir, "t"),
			"--filesize=8M", "--time_based", "--ramp_time=50ms", "--runtime=300ms", "--ioengine=libaio", "--direct=1",
			"--verify=0", "--randrepeat=0", "--bs=4K", "--iodepth=16", "--rw=randwrite", "--iodepth_batch_submit=16",
			"--iodepth_batch_complete_max=16", "--startdelay=0.05", "--end_fsync=1", "--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if doc := decodeRun(t, stdout); doc.Engine != "libaio" || doc.IODepth != 16 || doc.RW != "randwrite" || doc.TotalIOs == 0 {
			t.Fatalf("run: %+v", doc)
		}
		var ignored []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "ignored") {
				ignored = append(ignored, l)
			}
		}
		if len(ignored) != 1 || !strings.Contains(ignored[0], "--iodepth_batch_complete_max, --iodepth_batch_submit") {
			t.Fatalf("want one line naming the ignored options, got %q", ignored)
		}
	})
	t.Run("rate_iops", func(t *testing.T) {
		// fio's cap per job: 2 jobs × 100 I/Os per second, a depth of 4
		// each mostly idle; the wait before an I/O is not its latency. On
		// tmpfs where there is one: a read there takes microseconds however
		// busy the machine's disk is with other packages' tests.
		dir := t.TempDir()
		target := filepath.Join(memDir(t, dir), "r.0.0")
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name=r", "--filename="+target, "--size=4m", "--ioengine=io_uring", "--iodepth=4",
			"--numjobs=2", "--rw=randread", "--direct=1", "--rate_iops=100", "--time_based", "--runtime=1", "--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			runJSONDoc
			RateIOPS []float64 `json:"rate_iops"`
			Lat      struct {
				MeanNs float64 `json:"mean"`
			} `json:"lat_ns"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		// A wait counted as latency would put every I/O near the 10 ms
		// between a job's I/Os; a disk busy with other tests' writes has
		// been seen at 12 ms a read, hence tmpfs above.
		// Short of the cap only when the machine denied the engine its CPU,
		// which it then says (what the engine controls: never past the cap).
		cpuShort := strings.Contains(stdout, `"cause": "cpu"`)
		if doc.IOPS < 170 && !cpuShort || doc.IOPS > 210 || len(doc.RateIOPS) != 2 || doc.RateIOPS[0] != 100 || doc.Lat.MeanNs <= 0 || doc.Lat.MeanNs > 8e6 {
			t.Fatalf("capped at 2 × 100 IOPS: %.0f IOPS, rate %v, mean latency %.0f ns", doc.IOPS, doc.RateIOPS, doc.Lat.MeanNs)
		}
		if !cpuShort && !strings.Contains(strings.Join(strings.Fields(stderr), " "), "the rate cap (--rate_iops) held I/Os back") {
			t.Fatalf("stderr does not put the low in-flight count down to the cap: %q", stderr)
		}
		text, stderr, code := runQdsweep(t, dir, "run", "--name=r", "--size=4m", "--rate_iops=50,", "--time_based", "--runtime=200ms", "--output-format=qdsweep")
		if code != 0 || !strings.Contains(text, "rate cap  50 reads/s per job (--rate_iops): a paced load, not a device limit") {
			t.Fatalf("exit %d, text does not state the cap:\n%s%s", code, text, stderr)
		}
	})
	t.Run("filename list", func(t *testing.T) {
		// fio's filename=a:b: every job over both files, --size split
		// between them; missing files are laid out at their share.
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		stdout, stderr, code := runQdsweep(t, dir, "run", "--filename="+a+":"+b, "--size=2m", "--rw=randread", "--numjobs=2",
			"--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			runJSONDoc
			Files   []string `json:"files"`
			IOBytes int64    `json:"io_bytes"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if len(doc.Files) != 2 || doc.Files[1] != b || doc.IOBytes != 2*2<<20 {
			t.Fatalf("files %v, %d bytes moved; want both files and 2 jobs × 2 MiB (size-based)", doc.Files, doc.IOBytes)
		}
		for _, f := range []string{a, b} {
			if fi, err := os.Stat(f); err != nil || fi.Size() != 1<<20 {
				t.Fatalf("%s: %v (want 1 MiB, half of --size)", f, err)
			}
		}
		if _, err := exec.LookPath("fio"); err != nil {
			return
		}
		// The fio engine hands the list to fio in fio's syntax.
		stdout, stderr, code = runQdsweep(t, dir, "run", "--ioengine=fio", "--filename="+a+":"+b, "--size=2m", "--rw=randread",
			"--rate_iops=200", "--time_based", "--runtime=500ms", "--output-format=qdsweep-json")
		if code != 0 {
			t.Fatalf("fio engine: exit %d: %s", code, stderr)
		}
		// fio paces itself: on a busy machine it may fall short of the cap
		// (16 IOPS was seen beside the suite's other packages), never pass it.
		var fdoc struct {
			runJSONDoc
			Files []string `json:"files"`
		}
		if err := json.Unmarshal([]byte(stdout), &fdoc); err != nil || fdoc.IOPS <= 0 || fdoc.IOPS > 230 || len(fdoc.Files) != 2 {
			t.Fatalf("fio engine at rate_iops=200 over two files: %.0f IOPS, files %v (%v)\n%s", fdoc.IOPS, fdoc.Files, err, stdout)
		}
	})
	t.Run("a WAL check: fdatasync after every write", func(t *testing.T) {
		// The disk check etcd's documentation gives, smaller.
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "test-data"), 0o755); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", "--rw=write", "--ioengine=sync", "--fdatasync=1", "--directory=test-data", "--size=2m", "--bs=2300", "--name=mytest"}
		stdout, stderr, code := runQdsweep(t, dir, append(args, "--output-format=qdsweep-json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			runJSONDoc
			Sync *struct {
				TotalIOs int64 `json:"total_ios"`
				Lat      struct {
					MeanNs float64 `json:"mean"`
				} `json:"lat_ns"`
			} `json:"sync"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if doc.Sync == nil || doc.TotalIOs < (2<<20)/2300 || doc.Sync.TotalIOs < doc.TotalIOs-1 || doc.Sync.Lat.MeanNs <= 0 {
			t.Fatalf("%d writes, sync %+v: want one fdatasync per write, timed", doc.TotalIOs, doc.Sync)
		}
		if !strings.Contains(strings.Join(strings.Fields(stderr), " "), "waited in fdatasync after its writes") {
			t.Errorf("stderr does not put the in-flight gap down to the syncs: %q", stderr)
		}
		fj, stderr, code := runQdsweep(t, dir, append(args, "--allow-write", "--output-format=fio-json")...)
		if code != 0 {
			t.Fatalf("fio-json: exit %d: %s", code, stderr)
		}
		var fdoc struct {
			Jobs []struct {
				Sync struct {
					Lat struct {
						N    int64              `json:"N"`
						Pcts map[string]float64 `json:"percentile"`
					} `json:"lat_ns"`
				} `json:"sync"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(fj), &fdoc); err != nil || len(fdoc.Jobs) != 1 || fdoc.Jobs[0].Sync.Lat.N < (2<<20)/2300 || fdoc.Jobs[0].Sync.Lat.Pcts["99.000000"] <= 0 {
			t.Fatalf("fio-json sync block: %v\n%s", err, fj)
		}
	})
	t.Run("job file and the word fio", func(t *testing.T) {
		// `fio job.fio` and a pasted command that kept the word fio.
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte("[global]\nrw=randread\nsize=1m\n[jf]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runQdsweep(t, dir, "run", "job.fio", "--output-format=qdsweep-json")
		if doc := decodeRun(t, stdout); code != 0 || doc.RW != "randread" || doc.TotalIOs == 0 {
			t.Fatalf("run job.fio: exit %d, %+v: %s", code, doc, stderr)
		}
		stdout, stderr, code = runQdsweep(t, dir, "run", "fio", "--name=jf", "--output-format=qdsweep-json")
		if doc := decodeRun(t, stdout); code != 0 || doc.TotalIOs == 0 || !strings.Contains(stderr, "the word fio is not needed") {
			t.Fatalf("run fio --name=jf: exit %d, %+v: %s", code, doc, stderr)
		}
		// Two job files (the same one twice) run one after another, as fio runs them.
		stdout, stderr, code = runQdsweep(t, dir, "run", "job.fio", "job.fio", "--output-format=terse")
		if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(lines) != 2 || !strings.Contains(lines[1], ";jf;1;") {
			t.Fatalf("two job files: exit %d: %s\n%s", code, stdout, stderr)
		}
	})
	t.Run("aliases and --output", func(t *testing.T) {
		dir := t.TempDir()
		res := filepath.Join(dir, "res.txt")
		stdout, stderr, code := runQdsweep(t, dir, "run", "--name", "a", "--readwrite", "randread", "--blocksize", "8k",
			"--size", "1m", "--output", res, "--output-format", "terse", "--percentile_list", "99.9:50")
		if code != 0 || stdout != "" {
			t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
		}
		outs, err := fio.ReadOutput(res)
		if err != nil {
			t.Fatal(err)
		}
		j := outs[0].Jobs[0]
		if j.Name != "a" || j.Read == nil || j.Read.IOPS <= 0 || j.Read.IOBytes < 1<<20 {
			t.Fatalf("terse record read back: %+v", j)
		}
		// percentile_list is honoured: fio's order (ascending), only those.
		if ps := j.Read.Clat.Percentiles; len(ps) != 2 || ps[0].Pct != 50 || ps[1].Pct != 99.9 || ps[1].Ns < ps[0].Ns {
			t.Fatalf("percentiles %+v, want 50 and 99.9", ps)
		}
	})
}

// TestRunFioOutputFormats compares `--output-format=terse` with the real
// fio's terse v3 line field by field (same count and kind of every field
// fio prints before its disk utilisation), and reads `fio-json` back with
// the fio JSON parser.
func TestRunFioOutputFormats(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio not installed")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "data")
	if err := os.WriteFile(target, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	job := []string{"--name=t", "--filename=" + target, "--rw=randrw", "--bs=4k", "--ioengine=libaio", "--iodepth=4",
		"--direct=1", "--runtime=0.3", "--time_based"}
	cmd := exec.Command(fioBin, append(job, "--output-format=terse")...)
	cmd.Dir = dir
	fioOut, err := cmd.Output()
	if err != nil {
		t.Fatalf("fio: %v", err)
	}
	stdout, stderr, code := runQdsweep(t, dir, append(append([]string{"run"}, job...), "--allow-write", "--output-format=terse")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := terseFields(t, string(fioOut))
	got := terseFields(t, stdout)
	// Disk utilisation follows, 9 fields per device, as fio writes it
	// (none when the target is on no block device).
	if len(got) != len(want) {
		t.Fatalf("qdsweep wrote %d fields, fio %d: %q", len(got), len(want), got)
	}
	for i := range got {
		if k, wk := fieldKind(got[i]), fieldKind(want[i]); k != wk {
			t.Errorf("field %d: qdsweep %q (%s), fio %q (%s)", i+1, got[i], k, want[i], wk)
		}
	}
	if n := len(want) - 9; n >= 121 && got[n] != want[n] {
		t.Errorf("disk name: qdsweep %q, fio %q", got[n], want[n])
	}
	// Scripts written for fio: $3 job name, $7/$8 read bandwidth and IOPS, $48/$49 write's.
	if got[2] != "t" || got[6] == "0" || got[7] == "0" || got[47] == "0" || got[48] == "0" {
		t.Errorf("name, read and write figures: %q %q %q %q %q", got[2], got[6], got[7], got[47], got[48])
	}

	stdout, stderr, code = runQdsweep(t, dir, append(append([]string{"run"}, job...), "--allow-write", "--output-format=fio-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	outs, err := fio.ParseJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("fio-json does not parse as fio JSON: %v\n%s", err, stdout)
	}
	j := outs[0].Jobs[0]
	s := j.Summary()
	if j.Name != "t" || j.RW != "randrw" || j.IODepth != 4 || j.IODepthFrom != "options" || j.Read == nil || j.Write == nil ||
		s.IOPS <= 0 || s.LatMeanNs <= 0 {
		t.Fatalf("read back: %+v / %+v", j, s)
	}
	if p99, ok := j.Read.Clat.At(99); !ok || p99 <= 0 {
		t.Fatalf("clat_ns p99 missing: %+v", j.Read.Clat)
	}
	// The fields fio-plot's JSON mapping reads, with global options merged
	// into job options as it does.
	var doc struct {
		Version string            `json:"fio version"`
		Global  map[string]string `json:"global options"`
		Jobs    []map[string]any  `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.Version == "" || len(doc.Jobs) != 1 {
		t.Fatalf("fio-json document: %v", err)
	}
	fj := doc.Jobs[0]
	opts, _ := fj["job options"].(map[string]any)
	// As fio: the options given, as written, and no other (numjobs and
	// group_reporting were not given).
	for k, v := range map[string]string{"name": "t", "rw": "randrw", "bs": "4k", "iodepth": "4", "ioengine": "libaio", "runtime": "0.3"} {
		if opts[k] != v {
			t.Errorf("job options: %s=%v, want %s as given", k, opts[k], v)
		}
	}
	for _, k := range []string{"numjobs", "group_reporting", "size", "rwmixread"} {
		if v, ok := opts[k]; ok {
			t.Errorf("job options: %s=%v, which was not given", k, v)
		}
	}
	if !strings.HasPrefix(doc.Version, "fio-3.33 (qdsweep ") {
		t.Errorf("fio version %q: want fio's readers' fio- prefix, and qdsweep named", doc.Version)
	}
	for _, k := range []string{"latency_ms", "latency_us", "latency_ns", "usr_cpu", "sys_cpu", "jobname"} {
		if _, ok := fj[k]; !ok {
			t.Errorf("job lacks %q", k)
		}
	}
	for _, mode := range []string{"read", "write"} {
		d, _ := fj[mode].(map[string]any)
		lat, _ := d["lat_ns"].(map[string]any)
		for _, k := range []string{"bw", "iops", "iops_stddev"} {
			if _, ok := d[k]; !ok {
				t.Errorf("%s lacks %q", mode, k)
			}
		}
		if _, ok := lat["mean"]; !ok {
			t.Errorf("%s.lat_ns lacks mean", mode)
		}
		if _, ok := lat["stddev"]; !ok {
			t.Errorf("%s.lat_ns lacks stddev", mode)
		}
	}
}

// terseFields splits the one terse v3 record of out.
func terseFields(t *testing.T, out string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "3;") {
			return strings.Split(strings.TrimSpace(l), ";")
		}
	}
	t.Fatalf("no terse v3 record in %q", out)
	return nil
}

// fieldKind classifies a terse field by how fio formats it.
func fieldKind(s string) string {
	switch {
	case s == "" || s[0] >= 'a' && s[0] <= 'z':
		return "text"
	case s == "0%=0" || strings.Contains(s, "%="):
		return "percentile"
	case strings.HasSuffix(s, "%"):
		_, frac, _ := strings.Cut(strings.TrimSuffix(s, "%"), ".")
		return fmt.Sprintf("percent.%d", len(frac))
	case strings.Contains(s, "."):
		_, frac, _ := strings.Cut(s, ".")
		return fmt.Sprintf("float.%d", len(frac))
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return "int"
	}
	return "text"
}

// memDir is a fresh directory on tmpfs (/dev/shm) where the machine has one,
// else fallback.
func memDir(t *testing.T, fallback string) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "qdsweep-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return fallback
}
