package fio_test

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
	"github.com/qdsweep/qdsweep/ioengine"
)

// runOf parses a fio command line (without "fio") into its one job.
func runOf(t *testing.T, cmdline string) (fio.JobRun, error) {
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
	runs, err := jf.Runs()
	if len(runs) == 0 {
		return fio.JobRun{}, err
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
	if !slices.Equal(r.Ignored, []string{"group_reporting"}) {
		t.Fatalf("ignored: %v", r.Ignored)
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
	_, err := runOf(t, "--name=x --rate_iops=500 --bssplit=4k/50:64k/50 --verify=md5 --rw=trim --bogus_opt=1 --iodpth=4")
	if !errors.Is(err, fio.ErrUnsupported) {
		t.Fatalf("want ErrUnsupported, got %v", err)
	}
	for _, want := range []string{"--rate_iops=500", "--bssplit=4k/50:64k/50", "--verify=md5", "--rw=trim",
		"--bogus_opt=1 (not a fio option)", "--iodpth=4 (not a fio option; did you mean --iodepth?)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// TestParseArgsTestdataCommands: every fio command recorded in testdata
// converts (its workload is one qdsweep runs).
func TestParseArgsTestdataCommands(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "commands.txt"))
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
