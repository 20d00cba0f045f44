package fioadapt_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/fioadapt"
	"github.com/qdsweep/qdsweep/ioengine"
)

// runOf parses a fio command line (without "fio") into its one job.
func runOf(t *testing.T, cmdline string) (fioadapt.JobRun, error) {
	t.Helper()
	jf, rest, err := fio.ParseArgs(strings.Fields(cmdline))
	if err != nil {
		t.Fatalf("ParseArgs(%s): %v", cmdline, err)
	}
	if len(rest) > 0 {
		t.Fatalf("ParseArgs(%s): left %q", cmdline, rest)
	}
	if len(jf.Jobs) == 0 {
		jf.Jobs = []fio.JobSpec{{Options: jf.Global}}
		jf.Global = nil
	}
	runs, err := fioadapt.Runs(jf)
	if len(runs) == 0 {
		return fioadapt.JobRun{}, err
	}
	return runs[0], err
}

// TestParseArgsVendorCommands reads the fio commands cloud vendors publish.
func TestParseArgsVendorCommands(t *testing.T) {
	// The command of the issue report and AWS's EBS benchmark page: --name with a space, per-job files.
	r, err := runOf(t, "--directory=/node --name fio_test_file --direct=1 --rw=randread --bs=4K --size=1G --numjobs=16 --time_based --runtime=180 --group_reporting --norandommap")
	if err != nil {
		t.Fatal(err)
	}
	w := r.Workload
	if r.Name != "fio_test_file" || w.RW != ioengine.RandRead || w.BS != 4096 || w.Size != 1<<30 || w.NumJobs != 16 || !w.Direct ||
		!r.TimeBased || r.Runtime != 180*time.Second || w.IODepth != 1 || r.IOEngine != "" || r.Ramp != 0 {
		t.Fatalf("converted: %+v", r)
	}
	if len(r.Files) != 16 || r.Files[0] != "/node/fio_test_file.0.0" || r.Files[15] != "/node/fio_test_file.15.0" {
		t.Fatalf("files as fio names them: %v", r.Files)
	}
	if len(r.Ignored) != 0 || !r.GroupReporting {
		t.Fatalf("ignored %v, group_reporting %v: it groups the 16 clones' report", r.Ignored, r.GroupReporting)
	}

	// GCP's Persistent Disk / Hyperdisk page: fio's value syntax, batching options.
	r, err = runOf(t, "--name=write_iops_test --filename=/dev/sdb --filesize=2500G --time_based --ramp_time=2s --runtime=1m "+
		"--ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=256 --rw=randwrite "+
		"--iodepth_batch_submit=256 --iodepth_batch_complete_max=256")
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload.Size != 2500<<30 || r.Ramp != 2*time.Second || r.Runtime != time.Minute || r.IOEngine != "libaio" ||
		r.RandRepeat || r.Workload.IODepth != 256 || r.Workload.Filename != "/dev/sdb" {
		t.Fatalf("converted: %+v", r)
	}
	if !slices.Equal(r.Batching, []string{"iodepth_batch_complete_max", "iodepth_batch_submit"}) {
		t.Fatalf("batching: %v", r.Batching)
	}

	// Aliases and a size-based run: io_size × loops bytes per job.
	r, err = runOf(t, "--name j --readwrite=randrw --blocksize=8k --rwmixwrite 30 --size=64m --loops=3 --startdelay=2 --end_fsync=1 --thread --eta=never --output=/dev/null --lat_percentiles=1 --percentile_list=50:99")
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload.RW != ioengine.RandRW || r.Workload.BS != 8192 || r.Workload.RWMixRead != 70 || r.TimeBased ||
		r.IOSize != 3*64<<20 || r.StartDelay != 2*time.Second || !r.EndFsync || r.Files[0] != "j.0.0" {
		t.Fatalf("converted: %+v", r)
	}
}

// TestParseArgsRefusesAllAtOnce: every unsupported option is named in one error.
func TestParseArgsRefusesAllAtOnce(t *testing.T) {
	_, err := runOf(t, "--name=x --max_latency=500 --fill_device=1 --verify=sha256 --rw=trim --bogus_opt=1 --iodpth=4")
	// Options fio does not have come first: fio refuses them too.
	if !errors.Is(err, fio.ErrNotFio) || errors.Is(err, fio.ErrUnsupported) {
		t.Fatalf("want ErrNotFio, got %v", err)
	}
	for _, want := range []string{"--max_latency=500", "--fill_device=1", "--verify=sha256", "--rw=trim",
		"not fio options: --bogus_opt=1, --iodpth=4 (did you mean --iodepth?)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// TestParseArgsTestdataCommands: every fio command recorded in testdata
// converts (its workload is one qdsweep runs).
func TestParseArgsTestdataCommands(t *testing.T) {
	f, err := os.Open(filepath.Join(fioTestdata, "commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "fio --name=")
		if !ok {
			continue
		}
		args := strings.Fields("--name=" + rest)
		var keep []string
		for _, a := range args {
			if a == ">" || a == "2>&1" || strings.HasPrefix(a, ">") || strings.HasSuffix(a, ".json;") {
				break
			}
			keep = append(keep, strings.ReplaceAll(a, "$F", "/tmp/f"))
		}
		r, err := runOf(t, strings.Join(keep, " "))
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if r.Workload.Filename != "/tmp/f" && r.Workload.Filename != "/tmp/qdfio.dat" {
			t.Errorf("%s: filename %q", line, r.Workload.Filename)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("read %d commands, want the recorded ones", n)
	}
}

// TestSplitFilenames follows fio's ':' lists and its '\:' escape.
func TestSplitFilenames(t *testing.T) {
	for in, want := range map[string][]string{
		"a":                 {"a"},
		"/dev/sdb:/dev/sdc": {"/dev/sdb", "/dev/sdc"},
		`c\:\data`:          {`c:\data`},
	} {
		if got := fio.SplitFilenames(in); !slices.Equal(got, want) {
			t.Errorf("SplitFilenames(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRates: rate_iops and rate (bytes per second, as I/Os of bs bytes)
// follow fio's per-direction syntax: one value caps reads and writes alike,
// "r,w" each on its own, an empty field leaves a direction uncapped; with
// both options the lower cap holds. Poisson arrivals are refused.
func TestRates(t *testing.T) {
	for _, c := range []struct {
		cmdline string
		want    [2]float64
	}{
		{"--rate_iops=500", [2]float64{500, 500}},
		{"--rate_iops=500,100", [2]float64{500, 100}},
		{"--rate_iops=,100", [2]float64{0, 100}},
		{"--rate_iops=500,", [2]float64{500, 0}},
		{"--rate_iops=500,100,7", [2]float64{500, 100}},
		{"--bs=8k --rate=4m", [2]float64{512, 512}},
		{"--rate=1m,2m", [2]float64{256, 512}},
		{"--rate_iops=50 --rate_process=linear", [2]float64{50, 50}},
		{"--rate_iops=0", [2]float64{0, 0}},
	} {
		r, err := runOf(t, "--name=x "+c.cmdline)
		if err != nil {
			t.Errorf("%s: %v", c.cmdline, err)
			continue
		}
		if r.Workload.RateIOPS != c.want {
			t.Errorf("%s: RateIOPS %v, want %v", c.cmdline, r.Workload.RateIOPS, c.want)
		}
	}
	// fio 3.33 refuses these when it runs the job (fixup_options).
	for _, bad := range []string{"--rate_iops=100 --rate=1m", "--rate_min=1k --rate_iops_min=1", "--rate_iops=50 --rate_iops_min=100", "--rate=1m,1m --rate_min=,2m"} {
		if _, err := runOf(t, "--name=x "+bad); err == nil || !strings.Contains(err.Error(), "fio") {
			t.Errorf("%s: err %v, want it refused as fio refuses it", bad, err)
		}
	}
	for _, bad := range []string{"--rate_iops=fast", "--rate_iops=1,2,3,4", "--rate=-5"} {
		if _, err := runOf(t, "--name=x "+bad); err == nil || !strings.Contains(err.Error(), strings.SplitN(bad, "=", 2)[0]) {
			t.Errorf("%s: err %v, want one naming the option", bad, err)
		}
	}
	r, err := runOf(t, "--name=x --rate_iops=50 --rate_process=poisson")
	if err != nil || !r.Workload.Poisson || r.Workload.RateIOPS != [2]float64{50, 50} {
		t.Errorf("rate_process=poisson: %+v, %v; want poisson arrivals at 50 I/Os per second", r.Workload, err)
	}
	if _, err := runOf(t, "--name=x --rate_iops=50 --rate_process=bursty"); err == nil || !strings.Contains(err.Error(), "rate_process=bursty") {
		t.Errorf("rate_process=bursty: err %v, want one naming the option", err)
	}
}

// TestPacingOptions reads fio's thinktime, rate floor and latency_target
// options in fio's units (µs unless a unit is given; thinktime_iotime in
// seconds, rate_cycle in ms) and writes them back for fio the same.
func TestPacingOptions(t *testing.T) {
	r, err := runOf(t, "--name=x --thinktime=2000 --thinktime_spin=1ms --thinktime_blocks=4 --thinktime_blocks_type=issue --thinktime_iotime=2 "+
		"--ratemin=1m,2m --rate_cycle=500 --latency_target=500ms --latency_window=5000000 --latency_percentile=99.9 --latency_run=1")
	if err != nil {
		t.Fatal(err)
	}
	w := r.Workload
	want := ioengine.Workload{
		Think:     ioengine.ThinkTime{Time: 2 * time.Millisecond, Spin: time.Millisecond, Blocks: 4, BlocksSet: true, Issued: true, IOTime: 2 * time.Second},
		RateMin:   ioengine.RateFloor{Bytes: [2]float64{1 << 20, 2 << 20}, Cycle: 500 * time.Millisecond},
		LatTarget: ioengine.LatencyTarget{Target: 500 * time.Millisecond, Window: 5 * time.Second, Percentile: 99.9, Run: true},
	}
	if w.Think != want.Think || w.RateMin != want.RateMin || w.LatTarget != want.LatTarget {
		t.Errorf("read %+v %+v %+v\nwant %+v %+v %+v", w.Think, w.RateMin, w.LatTarget, want.Think, want.RateMin, want.LatTarget)
	}
	w.Filename, w.BS, w.IODepth, w.NumJobs, w.RW = "f", 4096, 1, 1, ioengine.RandRead
	set, err := fioadapt.JobOptions(w, time.Second, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range append(set.Global, set.Job...) {
		got[kv[0]] = kv[1]
	}
	for k, v := range map[string]string{"thinktime": "2000", "thinktime_spin": "1000", "thinktime_blocks": "4", "thinktime_blocks_type": "issue",
		"thinktime_iotime": "2000000us", "rate_min": "1048576,2097152", "rate_cycle": "500",
		"latency_target": "500000", "latency_window": "5000000", "latency_percentile": "99.9", "latency_run": "1"} {
		if got[k] != v {
			t.Errorf("fio's %s=%q, want %q", k, got[k], v)
		}
	}
	for _, bad := range []string{"--thinktime_blocks_type=sometimes", "--latency_percentile=101", "--thinktime=-1", "--rate_cycle=soon"} {
		if _, err := runOf(t, "--name=x --thinktime=10 "+bad); err == nil || !strings.Contains(err.Error(), strings.SplitN(bad, "=", 2)[0]) {
			t.Errorf("%s: err %v, want one naming the option", bad, err)
		}
	}
}

// TestJobOptionsRateAndList: the fio engine hands fio the caps and the
// file list in fio's own syntax.
func TestJobOptionsRateAndList(t *testing.T) {
	wl := ioengine.Workload{Filename: "a:x", Files: []string{"a:x", "b"}, RW: ioengine.RandRead, BS: 4096, IODepth: 4, NumJobs: 2, RateIOPS: [2]float64{300, 0}}
	set, err := fioadapt.JobOptions(wl, time.Second, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range set.Job {
		got[kv[0]] = kv[1]
	}
	if got["filename"] != `a\:x:b` || got["rate_iops"] != "300," {
		t.Fatalf("filename %q, rate_iops %q; want a\\:x:b and 300,", got["filename"], got["rate_iops"])
	}
}

// TestSyncOptions: fsync=N and fdatasync=N sync after every N writes,
// sync=sync|dsync|0 picks the open flags, invalidate is fio's default (on)
// unless turned off; both fsync and fdatasync at once is refused.
func TestSyncOptions(t *testing.T) {
	for _, c := range []struct {
		cmdline    string
		every      int
		data       bool
		open       string
		invalidate bool
	}{
		{"--rw=write --ioengine=sync --fdatasync=1 --bs=2300", 1, true, "", true},
		{"--rw=write --fsync=32", 32, false, "", true},
		{"--rw=write --sync=dsync --invalidate=0", 0, false, "dsync", false},
		{"--rw=write --sync=1", 0, false, "sync", true},
		{"--rw=write --sync=0 --fsync=0", 0, false, "", true},
	} {
		r, err := runOf(t, "--name=x "+c.cmdline)
		if err != nil {
			t.Errorf("%s: %v", c.cmdline, err)
			continue
		}
		w := r.Workload
		if w.SyncEvery != c.every || w.SyncData != c.data || w.OpenSync != c.open || w.Invalidate != c.invalidate {
			t.Errorf("%s: every %d data %v open %q invalidate %v", c.cmdline, w.SyncEvery, w.SyncData, w.OpenSync, w.Invalidate)
		}
	}
	for _, bad := range []string{"--fsync=1 --fdatasync=1", "--sync=maybe", "--fdatasync=x"} {
		if _, err := runOf(t, "--name=x --rw=write "+bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := runOf(t, "--name=x --rw=write --sync_file_range=write:8"); !errors.Is(err, fio.ErrUnsupported) {
		t.Errorf("sync_file_range: err %v, want it refused", err)
	}
}

// TestEveryFioOptionIsKnown: no option or alias fio 3.33 defines is ever
// called "not a fio option"; each is run, accepted or refused with its
// name, and did-you-mean suggests real names only.
func TestEveryFioOptionIsKnown(t *testing.T) {
	for _, n := range []string{"wait_for", "exit_what", "verify_dump", "log_prio", "allow_file_create", "ratemin", "nr_files",
		"steadystate_duration", "ss_dur", "fileoffset", "timeout", "blocksize_range", "fixedbufs", "cmdprio_percentage"} {
		if fio.OptionHandling(n) == fio.Unknown {
			t.Errorf("%s: unknown, but fio 3.33 defines it", n)
		}
	}
	jf, _, err := fio.ParseArgs([]string{"--name=x", "--ratemn=5"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = fioadapt.Runs(jf)
	if err == nil || !strings.Contains(err.Error(), "did you mean --ratemin?") {
		t.Errorf("--ratemn: %v, want did you mean --ratemin", err)
	}
}
