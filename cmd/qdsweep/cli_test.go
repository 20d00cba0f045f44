package main_test

// The command line as a user meets it: the real binary, run in an empty
// directory with one malformed, conflicting or unknown input at a time. Each
// must be answered with exactly one line on stderr naming the flag or file,
// exit status 2, nothing on stdout, nothing left in the working directory
// and no fixture file changed.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// bin is the qdsweep binary built once by TestMain.
var bin string

func TestMain(m *testing.M) {
	removeStaleBinDirs()
	dir, err := os.MkdirTemp("", fmt.Sprintf("qdsweep-cli-%d-", os.Getpid()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "qdsweep")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	os.Setenv("QDSWEEP_TEST_BINARY", bin) // sweepBinary, in package main's tests
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runWithin runs the binary in dir with stdin (nil: none) and returns
// stdout, stderr and the exit code; still running after timeout, it is
// killed and the test fails: the input was accepted and a measurement
// started, or it hung.
func runWithin(t *testing.T, dir string, stdin []byte, timeout time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%v: still running after %v", args, timeout)
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

// caseTimeout bounds one invocation: a bad input is rejected in
// milliseconds, so an invocation still running this long has accepted it
// and started measuring.
const caseTimeout = 20 * time.Second

// Flags put before the one under test so that a command which wrongly
// accepts the bad input measures little (a later flag overrides these).
var (
	runCheap   = []string{"--size=1m", "--runtime=200ms", "--ramp_time=0"}
	sweepCheap = []string{"--size=1m", "--runtime=200ms", "--ramp_time=0", "--iodepth=1", "--ss=0"}
)

type cliCase struct {
	args    []string // after "qdsweep"; {fx} is the fixtures dir, {res} a valid results dir
	mention []string // substrings the one stderr line must contain
	asUser  bool     // needs a non-root user (permission bits do not stop root)
}

func cmd(name string, cheap []string, flagAndValue string, mention ...string) cliCase {
	args := append(append([]string{name}, cheap...), flagAndValue)
	if len(mention) == 0 {
		// urfave/cli spells flags with one dash in its own messages ("-bs").
		f := strings.SplitN(flagAndValue, "=", 2)[0]
		mention = []string{"-" + strings.TrimLeft(f, "-")}
	}
	return cliCase{args: args, mention: mention}
}

func args(mention string, a ...string) cliCase {
	return cliCase{args: a, mention: []string{mention}}
}

func cliCases() []cliCase {
	var cs []cliCase
	// run: every flag with a malformed value.
	for _, fv := range []string{
		"--rw=foo", "--rw=", "--bs=abc", "--bs=-4k", "--bs=0", "--bs=4q",
		"--iodepth=0", "--iodepth=x", "--iodepth=-1", "--iodepth=99999999999",
		"--numjobs=0", "--numjobs=x", "--numjobs=-1",
		"--size=1q", "--size=-1", "--size=abc",
		// --offset=-1 and --offset_increment=-4k are not here: fio 3.33 keeps
		// a value's last piece after a '-' (1, 4k) and runs them, as run does.
		"--offset=z", "--offset_increment=z",
		"--rwmixread=101", "--rwmixread=-1", "--rwmixread=x",
		"--direct=2", "--direct=x",
		"--runtime=abc", "--runtime=-5", "--runtime=1x", "--ramp_time=zz", "--ramp_time=-1s",
		"--ioengine=foo", "--ioengine=fiox",
		"--randseed=x", "--randseed=-1",
		"--io_timeout=x", "--io_timeout=-1s",
		"--output-format=xml",
		"--continue_on_error=maybe", "--allow-write=maybe", "--time_based=x", "--group_reporting=x",
	} {
		cs = append(cs, cmd("run", runCheap, fv))
	}
	cs = append(cs,
		cmd("run", runCheap, "--filename={fx}/missing/dir/file", "--filename", "{fx}/missing"),
		cmd("run", runCheap, "--filename={fx}", "-filename"),
		cmd("run", runCheap, "--bogus", "bogus"),
		cmd("run", runCheap, "--iodpth=4", "-iodpth", "-iodepth"),
		cmd("run", runCheap, "extra-arg", "extra-arg"),
		args("-allow-write", append(append([]string{"run"}, runCheap...), "--rw=write", "--filename={fx}/existing.img")...),
		args("-allow-write", append(append([]string{"run"}, runCheap...), "--rw=randrw", "--filename={fx}/existing.img")...),
		// run supports the sim engine: its flags are checked, and refused without it.
		cmd("run", append(append([]string{}, runCheap...), "--ioengine=sim"), "--sim_jitter=-1", "--sim_jitter"),
		cmd("run", runCheap, "--sim_latency=2ms", "--sim_latency", "--ioengine=sim"),
		cmd("run", runCheap, "--fio-arg=--thread", "--fio-arg", "--ioengine=fio"),
		cmd("run", runCheap, "--fio-clients=host1", "--fio-clients", "--ioengine=fio"),
		cmd("run", runCheap, "--destroy-data={fx}/existing.img", "-destroy-data"),
		cmd("run", runCheap, "--jobfile={fx}/missing.fio", "-jobfile", "{fx}/missing.fio"),
		cmd("run", runCheap, "--jobfile={fx}/unsupported.fio", "{fx}/unsupported.fio", "exec_prerun"),
		cmd("run", append(append([]string{}, runCheap...), "--jobfile={fx}/twojobs.fio"), "--section=c", "--section", "[c]", "a, b"),
		cmd("run", runCheap, "--jobfile={fx}/emptydir", "{fx}/emptydir"),
		args("-allow-write", append(append([]string{"run"}, runCheap...), "--jobfile={fx}/write.fio", "--filename={fx}/existing.img")...),
	)

	// sweep: its own flags, the shared workload flags, the sim engine's flags.
	for _, fv := range []string{
		"--rw=read,foo", "--rw=", "--bs=4k,zz", "--bs=abc",
		"--iodepth=1:x", "--iodepth=0:8", "--iodepth=8:1", "--iodepth=1,,2", "--iodepth=1:256:x1",
		"--iodepth=1:256:y4", "--iodepth=abc", "--numjobs=a", "--numjobs=0",
		"--full=x", "--ss=abc", "--ss=150%", "--ss=-1%", "--ss_dur=x", "--ss_interval=-1s", "--max_latency=q",
		"--quiet=x", "--target-iops=abc", "--target-iops=-5", "--slo=p99", "--slo=p98=5ms", "--slo=p99=abc",
		"--chart-format=gif", "--size=1q", "--offset=-1", "--rwmixread=101", "--direct=2", "--runtime=-5",
		"--ramp_time=zz", "--ioengine=foo", "--randseed=x", "--io_timeout=x", "--output-format=xml",
		// A NaN passes every range check false: each float flag refuses it, and ±Inf.
		"--ss=NaN", "--ss=Inf", "--mean-precision=NaN", "--mean-precision=-Inf", "--target-iops=NaN", "--target-iops=Inf",
	} {
		cs = append(cs, cmd("sweep", sweepCheap, fv))
	}
	simCheap := append(append([]string{}, sweepCheap...), "--ioengine=sim")
	for _, fv := range []string{"--sim_latency=x", "--sim_latency=-1ms", "--sim_jitter=-1", "--sim_channels=-1", "--sim_iops=-3", "--sim_bw=zz"} {
		cs = append(cs, cmd("sweep", simCheap, fv, strings.SplitN(fv, "=", 2)[0]))
	}
	cs = append(cs,
		// A sim flag without the sim engine is a mistake, not something to ignore.
		cmd("sweep", sweepCheap, "--sim_latency=x"),
		// --sim: one spec; a bad key or value names itself, another engine or
		// an old sim flag beside it is refused.
		cmd("sweep", sweepCheap, "--sim=latency=x", "--sim", "latency"),
		cmd("sweep", sweepCheap, "--sim=latency=1ms,foo=1", "--sim", `unknown key "foo"`, "throttle_iops"),
		cmd("sweep", sweepCheap, "--sim=iops=1000,burst_iops=500,burst_credits=10", "--sim", "burst iops"),
		cmd("sweep", append(append([]string{}, sweepCheap...), "--ioengine=libaio"), "--sim=latency=1ms", "--sim", "--ioengine=libaio"),
		cmd("sweep", append(append([]string{}, sweepCheap...), "--sim_iops=5"), "--sim=latency=1ms", "--sim_iops", "--sim"),
		cmd("run", runCheap, "--sim=jitter=3", "--sim", "jitter"),
		cmd("sweep", sweepCheap, "--sim=jitter=NaN", "--sim", "jitter"),
		cmd("sweep", sweepCheap, "--sim=iops=Inf", "--sim", "iops"),
		cmd("sweep", sweepCheap, "--filename={fx}/missing/dir/file", "-filename"),
		cmd("sweep", sweepCheap, "--output={fx}/bad.json/sub", "-output"),
		cmd("sweep", sweepCheap, "--output={fx}/missing/a/b", "-output", "{fx}/missing/a"),
		cmd("sweep", sweepCheap, "--emit-fio-jobs={fx}/missing/a", "-emit-fio-jobs"),
		cmd("sweep", sweepCheap, "--fio-arg=--thread", "--fio-arg", "--ioengine=fio"),
		cmd("sweep", sweepCheap, "--jobfile={fx}/unsupported.fio", "{fx}/unsupported.fio", "exec_prerun"),
		cmd("sweep", sweepCheap, "--jobfile={fx}/twojobs.fio", "{fx}/twojobs.fio", "2 job sections", "--section"),
		args("-allow-write", append(append([]string{"sweep"}, sweepCheap...), "--rw=randread,randwrite", "--filename={fx}/existing.img")...),
		args("-allow-write", append(append([]string{"sweep"}, sweepCheap...), "--jobfile={fx}/write.fio", "--filename={fx}/existing.img")...),
		cmd("sweep", sweepCheap, "--resume={fx}/missing", "-resume"),
		cmd("sweep", sweepCheap, "--resume={fx}/bad.json", "-resume"),
		cmd("sweep", sweepCheap, "--resume={fx}/emptydir", "-resume"),
		cmd("sweep", sweepCheap, "--bogus", "bogus"),
		cmd("sweep", sweepCheap, "--iodepht=1:8", "-iodepht", "-iodepth"),
		cmd("sweep", sweepCheap, "extra-arg", "extra-arg"),
		args("-allow-write", append(append([]string{"sweep"}, sweepCheap...), "--rw=randwrite", "--filename={fx}/existing.img")...),
	)

	// advise: numbers, data files, conflicts.
	need := []string{"--target-iops=1k", "--latency=1ms"}
	for _, fv := range []string{
		"--target-iops=abc", "--target-iops=-1", "--target-iops=0", "--latency=abc", "--latency=5", "--latency=-2ms",
		"--cloud=foo", "--for=oracle", "--max-iodepth=0", "--max-iodepth=x", "--max-jobs=-1", "--cpus=-2",
		"--output-format=xml", "--rw=foo", "--table=x", "--latency-slo=p98=1ms",
	} {
		cs = append(cs, cmd("advise", need, fv))
	}
	cs = append(cs,
		args("-target-bw", "advise", "--latency=2ms", "--target-bw=zz"),
		args("-bs", "advise", "--latency=2ms", "--target-bw=100MiB", "--bs=x"),
		args("-bs", "advise", "--latency=2ms", "--target-bw=100MiB", "--bs=0"),
		args("target", "advise"),
		args("-latency", "advise", "--target-iops=1k"),
		args("-target-bw", "advise", "--target-iops=1k", "--target-bw=100MiB", "--latency=1ms"),
		args("-table", "advise", "--table", "--from={res}"),
		args("-table", "advise", "--table", "--target-iops=1k", "--latency=1ms"),
		args("-latency-slo", "advise", "--from={res}", "--latency-slo=p98=1ms"),
		args("-for", "advise", "--from={res}", "--for=oracle"),
		args("{fx}/missing.json", "advise", "--from={fx}/missing.json"),
		args("{fx}/bad.json", "advise", "--from={fx}/bad.json"),
		args("{fx}/empty.json", "advise", "--from={fx}/empty.json"),
		args("{fx}/bad.csv", "advise", "--from={fx}/bad.csv"),
		args("{fx}/header.csv", "advise", "--from={fx}/header.csv"),
		args("{fx}/emptydir", "advise", "--from={fx}/emptydir"),
		args("{fx}/dirjson", "advise", "--from={fx}/dirjson"),
		cliCase{args: []string{"advise", "--from={fx}/unreadable.json"}, mention: []string{"{fx}/unreadable.json"}, asUser: true},
		args("extra", "advise", "extra"),
		args("bogus", "advise", "--bogus"),
	)

	// report and compare: results files that are missing, malformed or unreadable.
	for _, f := range []string{"missing.json", "bad.json", "empty.json", "schema.json", "garbage.json", "truncated.json", "emptydir", "dirjson"} {
		cs = append(cs,
			args("{fx}/"+f, "report", "{fx}/"+f),
			args("{fx}/"+f, "compare", "--out=cmp", "{res}", "{fx}/"+f),
		)
	}
	cs = append(cs,
		cliCase{args: []string{"report", "{fx}/unreadable.json"}, mention: []string{"{fx}/unreadable.json"}, asUser: true},
		args("report", "report"),
		args("report", "report", "{res}", "{res}"),
		args("-target-iops", "report", "--target-iops=x", "{res}"),
		args("-latency-slo", "report", "--latency-slo=p98=1ms", "{res}"),
		args("-chart-format", "report", "--chart-format=gif", "{res}"),
		args("-out", "report", "--out={fx}/bad.json/sub", "{res}"),
		args("device-stats", "report", "--device-stats=x", "{res}"),
		args("bogus", "report", "--bogus", "{res}"),
		args("compare", "compare"),
		args("compare", "compare", "--out=cmp", "{res}"),
		args("-out", "compare", "{res}", "{res}"),
		args("-out", "compare", "--out={fx}/bad.json/sub", "{res}", "{res}"),
		args("-target-iops", "compare", "--out=cmp", "--target-iops=z", "{res}", "{res}"),
		args("-latency-slo", "compare", "--out=cmp", "--latency-slo=p99", "{res}", "{res}"),
		args("-chart-format", "compare", "--out=cmp", "--chart-format=gif", "{res}", "{res}"),
		args("device-stats", "compare", "--out=cmp", "--device-stats=x", "{res}", "{res}"),
		args("bogus", "compare", "--out=cmp", "--bogus", "{res}", "{res}"),
	)

	// Consistent names: sweep takes --latency-slo (its old --slo stays, not both).
	cs = append(cs,
		cmd("sweep", sweepCheap, "--latency-slo=p98=5ms"),
		args("-slo", append(append([]string{"sweep"}, sweepCheap...), "--slo=p99=1ms", "--latency-slo=p99=2ms")...),
		cmd("sweep", sweepCheap, "--out={fx}/bad.json/sub", "-out"),
	)

	// Flags after the positional arguments are read like flags before them,
	// so their bad values are refused the same way.
	cs = append(cs,
		args("-target-iops", "explain", "{fx}/bad.json", "--target-iops=abc"),
		args("-max-iodepth", "explain", "{fx}/bad.json", "--max-iodepth=0"),
		args("-max-iodepth", "explain", "{fx}/bad.json", "--max-iodepth"),
		args("-output-format", "explain", "{fx}/bad.json", "--output-format", "xml"),
		args("bogus", "explain", "{fx}/bad.json", "--bogus"),
		args("-target-iops", "import", "fio", "{fx}/bad.json", "--target-iops", "-3"),
		cliCase{args: []string{"import", "fio", "{fx}/bad.json", "-o", "{fx}/missing/a/b"}, mention: []string{"-output", "{fx}/missing/a"}},
		args("-out", "report", "{res}", "--out"),
		args("-chart-format", "report", "{res}", "--chart-format", "gif"),
		args("-target-iops", "compare", "{res}", "{res}", "-o", "cmp", "--target-iops=z"),
		args("-output-format", "diagnose", "{res}", "--output-format=xml"),
		args("bogus", "diagnose", "{res}", "--bogus"),
	)

	// Inputs are never outputs, by inode: a job file named on its own or
	// with --jobfile, a file it includes, the results a command reads. A
	// named pipe as an input is refused before anything opens it (it would
	// wait for a writer). An output that cannot be written, or another
	// run's results directory, is refused before anything is measured.
	cs = append(cs,
		args("{fx}/job.fio", append(append([]string{"run"}, runCheap...), "{fx}/job.fio", "--output={fx}/job.fio")...),
		args("{fx}/joblink.fio", append(append([]string{"run"}, runCheap...), "{fx}/job.fio", "--output={fx}/joblink.fio")...),
		args("{fx}/common.fio", append(append([]string{"run"}, runCheap...), "--jobfile={fx}/inc.fio", "--output={fx}/common.fio")...),
		args("{fx}/common.fio", append(append([]string{"run"}, runCheap...), "{fx}/inc.fio", "--output={fx}/common.fio")...),
		args("-output", append(append([]string{"run"}, runCheap...), "--output={fx}/"+strings.Repeat("n", 250))...),
		args("named pipe", append(append([]string{"run"}, runCheap...), "--jobfile={fx}/fifo")...),
		args("named pipe", append(append([]string{"run"}, runCheap...), "{fx}/fifo")...),
		args("named pipe", append(append([]string{"run"}, runCheap...), "--jobfile={fx}/incfifo.fio")...),
		args("named pipe", append(append([]string{"sweep"}, sweepCheap...), "--jobfile={fx}/fifo")...),
		args("named pipe", append(append([]string{"sweep"}, sweepCheap...), "--resume={fx}/fifo")...),
		args("named pipe", append(append([]string{"sweep"}, sweepCheap...), "--resume={fx}/fifodir")...),
		args("named pipe", "report", "{fx}/fifo"),
		args("named pipe", "report", "{fx}/fifodir"),
		args("named pipe", "compare", "--out=cmp", "{res}", "{fx}/fifo"),
		args("named pipe", "diagnose", "{fx}/fifo"),
		args("named pipe", "explain", "{fx}/fifo"),
		args("named pipe", "import", "fio", "--output=imp", "{fx}/fifo"),
		args("named pipe", "advise", "--from={fx}/fifo"),
		args("named pipe", "advise", "--from={fx}/fifo", "--for=seastar"),
		args("--overwrite", "report", "--output={fx}/res2", "{res}"),
		args("--overwrite", "compare", "--output={res}", "{res}", "{fx}/res2"),
		args("randwrite-4096-iodepth1-numjobs1.fio", append(append([]string{"sweep"}, sweepCheap...), "--jobfile={fx}/randwrite-4096-iodepth1-numjobs1.fio", "--filename=t.dat", "--emit-fio-jobs={fx}", "--overwrite")...),
	)

	// The application itself.
	cs = append(cs,
		args("bogus", "--bogus"),
		args("bogus", "bogus"),
		args("run", "runn"),
	)
	return cs
}

// fixtures writes the input files the cases refer to and returns their dir.
func fixtures(t *testing.T) string {
	t.Helper()
	fx := t.TempDir()
	files := map[string]string{
		"bad.json":        "{not json",
		"empty.json":      "",
		"schema.json":     `{"schema":"other/v9"}`,
		"garbage.json":    "\x00\xff\xfe binary \x01\x02",
		"truncated.json":  `{"schema":"qdsweep/v1","steps":[{"iodepth":`,
		"bad.csv":         "iodepth,numjobs,iops,lat_mean_us\n1,1,abc,100\n",
		"header.csv":      "a,b\n1,2\n",
		"existing.img":    strings.Repeat("qdsweep fixture ", 1<<16), // 1 MiB
		"unsupported.fio": "[global]\nbs=4k\n[job]\nrw=randread\nexec_prerun=true\n",
		"twojobs.fio":     "[a]\nrw=read\n[b]\nrw=write\n",
		"write.fio":       "[global]\nioengine=psync\n[w]\nrw=randwrite\nbs=4k\n",
		"unreadable.json": `{"schema":"qdsweep/v1"}`,
		"job.fio":         "[j]\nrw=read\nsize=1m\n",
		"inc.fio":         "[j]\ninclude common.fio\n",
		"common.fio":      "rw=read\nsize=1m\n",
		"incfifo.fio":     "[j]\ninclude fifo\n",
		// a job file named as the one --emit-fio-jobs writes for its step
		"randwrite-4096-iodepth1-numjobs1.fio": "[w]\nrw=randwrite\nbs=4k\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(fx, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(fx, "unreadable.json"), 0); err != nil {
		t.Fatal(err)
	}
	// A results directory whose results.json is a directory.
	for _, d := range []string{"emptydir", "dirjson/results.json", "fifodir"} {
		if err := os.MkdirAll(filepath.Join(fx, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Named pipes: no writer ever comes, so an open for reading would wait.
	for _, p := range []string{"fifo", "fifodir/results.json"} {
		mkfifo(t, filepath.Join(fx, p))
	}
	// The same job file by another name (a hard link): the same inode.
	if err := os.Link(filepath.Join(fx, "job.fio"), filepath.Join(fx, "joblink.fio")); err != nil {
		t.Fatal(err)
	}
	return fx
}

// copyResults copies the results directory res to dir (another run's).
func copyResults(t *testing.T, res, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(res, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// validResult makes a real results directory with a short simulated sweep.
func validResult(t *testing.T) string {
	t.Helper()
	res := filepath.Join(t.TempDir(), "res")
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, "sweep", "--ioengine=sim", "--iodepth=1,2,4", "--runtime=200ms",
		"--ramp_time=0", "--ss=0", "--quiet", "--output="+res)
	c.Dir = t.TempDir()
	if out, err := c.CombinedOutput(); err != nil {
		t.Skipf("cannot make a results directory with the sim engine (%v): %s", err, out)
	}
	return res
}

// snapshot hashes every regular file under dir (fixtures must not change).
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || d.Name() == "unreadable.json" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sums[p] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func TestCLIBadInput(t *testing.T) {
	fx := fixtures(t)
	res := validResult(t)
	copyResults(t, res, filepath.Join(fx, "res2"))
	expand := func(s string) string {
		return strings.NewReplacer("{fx}", fx, "{res}", res).Replace(s)
	}
	before := snapshot(t, fx)
	resBefore := snapshot(t, res)
	for _, tc := range cliCases() {
		name := strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			if tc.asUser && os.Geteuid() == 0 {
				t.Skip("runs as root: permission bits do not make a file unreadable")
			}
			argv := make([]string, len(tc.args))
			for i, a := range tc.args {
				argv[i] = expand(a)
			}
			work := t.TempDir()
			stdout, stderr, code := runWithin(t, work, nil, caseTimeout, argv...)
			line := strings.TrimSuffix(stderr, "\n")
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if strings.Contains(line, "\n") || line == "" {
				t.Errorf("stderr is %d lines, want one:\n%s", strings.Count(stderr, "\n"), stderr)
			}
			for _, m := range tc.mention {
				if m = expand(m); !strings.Contains(line, m) {
					t.Errorf("stderr does not name %q: %s", m, line)
				}
			}
			if len(stdout) > 0 {
				t.Errorf("stdout is not empty (%d bytes): %.200s", len(stdout), stdout)
			}
			if left := listDir(t, work); len(left) > 0 {
				t.Errorf("left behind in the working dir: %s", strings.Join(left, ", "))
			}
			if changed := diffSums(before, snapshot(t, fx)); len(changed) > 0 {
				t.Errorf("fixture files changed: %s", strings.Join(changed, ", "))
				before = snapshot(t, fx)
			}
			if changed := diffSums(resBefore, snapshot(t, res)); len(changed) > 0 {
				t.Errorf("results directory changed: %s", strings.Join(changed, ", "))
				resBefore = snapshot(t, res)
			}
		})
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}

func diffSums(a, b map[string][32]byte) []string {
	var d []string
	for p, s := range a {
		if b[p] != s {
			d = append(d, filepath.Base(p))
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			d = append(d, filepath.Base(p)+" (new)")
		}
	}
	sort.Strings(d)
	return d
}
