package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/littleslaw"
)

// fioDiffCase is one job file or command line run under fio 3.33 and
// under qdsweep run, in two directories laid out alike.
type fioDiffCase struct {
	name     string
	jobs     map[string]string // job files written first
	existing map[string]int64  // files laid out first (bytes), as a target already there
	args     []string          // after "fio" and "qdsweep run"
	// parseOnly compares whether each accepts the command (--parse-only):
	// fio's exit 0 against qdsweep's.
	parseOnly bool
	// mixed: the job mixes reads and writes; each draws every I/O's
	// direction at random, so the split differs run to run, in fio too:
	// the totals are compared.
	mixed bool
	// intended is a difference listed as intended, with its reason: the
	// case then checks that qdsweep differs as said (refuses).
	intended string
	// sizesDrawn: the job draws each I/O's size (bssplit, bsrange), in
	// fio from its own random stream: the I/O counts differ run to run,
	// the bytes (the job's size) do not; the bytes are compared.
	sizesDrawn bool
	// steady: a steady-state job (ss=), which ends when its test holds:
	// each job's "steadystate" object is compared (criterion, window,
	// attained), and each one's criterion is recomputed from its own
	// samples, not the I/O counts, which depend on when it ended.
	steady bool
	// pacing: "latency", a latency_target job, whose I/O counts depend
	// on when its search settled: each job's latency_target report
	// (depth, target, window, percentile) is compared; "floor", a job
	// below its rate floor: both must fail it, naming the floor (fio's
	// words) with the job's error 5 (EIO) in their JSON.
	pacing string
}

// fioDiffCases are the cases of issue 34 and one per kind of option in
// the option table (run, ignored, batching, refused, an
// engine's, unknown).
var fioDiffCases = []fioDiffCase{
	{name: "global after a job leaves it alone", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"g.fio": "[j1]\nfilename=f\nsize=1m\nrw=read\n[global]\nbs=8k\n[j2]\nfilename=f\nsize=1m\nrw=read\n"},
		args: []string{"g.fio"}},
	{name: "MiB is 10^6 under kb_base=1024 (new file)", args: []string{"--name=a", "--filename=new", "--size=1MiB", "--bs=4k", "--rw=write"}},
	{name: "KiB is 1000 bytes (existing file)", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--bs=4KiB"}},
	{name: "kb_base=1000 in a section, read first", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"k.fio": "[a]\nfilename=f\nsize=1m\nbs=4k\nkb_base=1000\n"}, args: []string{"k.fio"}},
	{name: "kb_base=1000 from [global]", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"k.fio": "[global]\nkb_base=1000\n[a]\nfilename=f\nsize=1m\nbs=4KiB\n"}, args: []string{"k.fio"}},
	{name: "kb_base=1000 on a command line, read in order", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--kb_base=1000", "--filename=f", "--size=1m", "--bs=4k", "--name=b", "--filename=f", "--size=1m", "--bs=4k", "--kb_base=1000"}},
	{name: "a value ends at ; or #", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"c.fio": "[a]\nfilename=f\nsize=1m\nbs=8k;x\n[b]\nfilename=f\nsize=1m\nbs=8k#x\n[c] ; comment\nfilename=f\nsize=1m # comment\nbs=16k ; comment\n"},
		args: []string{"c.fio"}},
	{name: "groups: new_group, wait_for, stonewall", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"g.fio": "[a]\nfilename=f\nsize=1m\n[b]\nnew_group\nfilename=f\nsize=1m\n[c]\nwait_for=a\nfilename=f\nsize=1m\n[d]\nstonewall\nfilename=f\nsize=1m\n[e]\nfilename=f\nsize=1m\n"},
		args: []string{"g.fio"}},
	{name: "wait_for holds its job alone, naming the job's name=", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"w.fio": "[a]\nname=x\nfilename=f\nsize=1m\n[b]\nfilename=f\nsize=512k\n[c]\nwait_for=x\nfilename=f\nsize=256k\n[d]\nfilename=f\nsize=128k\n"},
		args: []string{"w.fio"}},
	{name: "wait_for a job not before it", parseOnly: true,
		jobs: map[string]string{"w.fio": "[a]\nfilename=f\nsize=64k\nwait_for=b\n[b]\nfilename=f\nsize=64k\n"}, args: []string{"w.fio"},
		intended: "fio's --parse-only accepts it and its run refuses it (waitee job b unknown, exit 1); qdsweep refuses it before anything runs"},
	{name: "names: the section's, a section's name= wins, a [global] name= does not", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"n.fio": "[global]\nname=gname\nfilename=f\nsize=1m\n[a]\n[b]\nname=bb\n"}, args: []string{"n.fio"}},
	{name: "command line options are defaults for a job file", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"d.fio": "[a]\nfilename=f\nsize=1m\nbs=4k\n[b]\nfilename=f\nsize=1m\n"}, args: []string{"--bs=8k", "d.fio"}},
	{name: "command line options after the job file are defaults too", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"d.fio": "[a]\nfilename=f\nsize=1m\nbs=4k\n[b]\nfilename=f\nsize=1m\n"}, args: []string{"d.fio", "--bs=8k"}},
	{name: "a job file given by --jobfile: command line options are its defaults", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"d.fio": "[a]\nfilename=f\nsize=1m\nbs=4k\nrw=read\n[b]\nfilename=f\nsize=1m\n"},
		args: []string{"--bs=8k", "--rw=randread", "--jobfile=d.fio"}},
	{name: "the file's [global] wins over the command line", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"d.fio": "[global]\nbs=16k\n[a]\nfilename=f\nsize=1m\n"}, args: []string{"--bs=8k", "d.fio"}},
	{name: "two job files: the second waits in a group of its own", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"1.fio": "[a]\nfilename=f\nsize=1m\n", "2.fio": "[b]\nfilename=f\nsize=512k\n"}, args: []string{"1.fio", "2.fio"}},
	{name: "part block, sequential: fio issues it whole", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1000000", "--bs=4k", "--loops=3"}},
	{name: "part block, random map: whole blocks only", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1000000", "--bs=4k", "--rw=randread"}},
	{name: "part block, norandommap", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1000000", "--bs=4k", "--rw=randread", "--norandommap"}},
	{name: "io_size, number_ios, offset", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=2m", "--io_size=512k", "--bs=8k", "--name=b", "--filename=f", "--offset=1m", "--size=1m", "--number_ios=10", "--loops=2"}},
	{name: "numjobs without group_reporting: one entry per clone", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--numjobs=2", "--offset_increment=1m"}},
	{name: "numjobs with group_reporting", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--numjobs=2", "--group_reporting"}},
	{name: "rwmixwrite on a mixed job", existing: map[string]int64{"f": 4 << 20}, mixed: true,
		args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=randrw", "--rwmixwrite=30", "--allow-write"}},
	{name: "ignored: reporting and naming", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--description=x", "--lat_percentiles=1", "--log_prio=1", "--allow_file_create=1", "--thread"}},
	{name: "batching", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--iodepth_batch_submit=4", "--iodepth_low=1"}},
	{name: "a floor the job keeps above: ratemin runs", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--ratemin=1k"}},
	{name: "a floor the job falls below: thinktime=20ms under rate_iops_min=100 fails after 3 s", existing: map[string]int64{"f": 4 << 20}, pacing: "floor",
		args: []string{"--name=a", "--filename=f", "--size=1m", "--thinktime=20000", "--rate_iops_min=100", "--time_based", "--runtime=10"}},
	// thinktime_spin well below thinktime: fio 3.33 sleeps thinktime less
	// the time its spin took, unsigned, so a spin preempted past thinktime
	// (a busy machine) makes it sleep for ever (100 µs and 20 µs hung 8
	// runs in 12 beside other work; 5 ms and 20 µs none in 15).
	{name: "thinktime: size-based, the same I/Os", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=256k", "--thinktime=5000", "--thinktime_blocks=4", "--thinktime_spin=20",
			"--name=b", "--filename=f", "--size=256k", "--ioengine=libaio", "--iodepth=4", "--thinktime=200", "--thinktime_blocks=2", "--thinktime_blocks_type=issue"}},
	{name: "rate_process=poisson: size-based, the same I/Os", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=256k", "--rate_iops=2000", "--rate_process=poisson", "--ioengine=io_uring", "--iodepth=4"}},
	{name: "latency_target every I/O meets: the depth settles at iodepth", existing: map[string]int64{"f": 4 << 20}, pacing: "latency",
		args: []string{"--name=a", "--filename=f", "--size=4m", "--rw=randread", "--ioengine=libaio", "--iodepth=8", "--direct=1",
			"--latency_target=10s", "--latency_window=50ms", "--latency_percentile=99", "--time_based", "--runtime=5"}},
	{name: "latency_target no I/O meets: the depth stays at 1", existing: map[string]int64{"f": 4 << 20}, pacing: "latency",
		args: []string{"--name=a", "--filename=f", "--size=4m", "--rw=randread", "--ioengine=libaio", "--iodepth=8", "--direct=1",
			"--latency_target=1", "--latency_window=50ms", "--latency_percentile=50", "--time_based", "--runtime=1"}},
	{name: "aliases: readwrite, blocksize, io_limit, fileoffset, nr_files", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--readwrite=read", "--blocksize=8k", "--size=2m", "--io_limit=256k", "--fileoffset=1m", "--nr_files=1"}},
	{name: "size and offset as a share of the file", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=25%", "--offset=50%"}},
	{name: "a file list: every job spreads its I/Os over the files", existing: map[string]int64{"f": 4 << 20, "g": 4 << 20},
		args: []string{"--name=a", "--filename=f:g", "--size=1m", "--bs=8k"}},
	{name: "per-job files from directory and name", jobs: map[string]string{"d.fio": "[global]\ndirectory=.\nsize=256k\nrw=write\n[w]\nnumjobs=2\n"},
		args: []string{"d.fio", "--allow-write"}},
	{name: "block size forms: 8k,8k and 8k-8k", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--bs=8k,8k", "--name=b", "--filename=f", "--size=1m", "--bsrange=16k-16k"}},
	{name: "sync engines and fsync", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--ioengine=sync", "--rw=write", "--fsync=8", "--allow-write", "--name=b", "--filename=f", "--size=512k", "--ioengine=pvsync"}},
	{name: "variables and include (Debian's fio has no arithmetic)", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"v.fio": "[a]\nfilename=f\ninclude inc.fio\nbs=$pagesize\nsize=${QDSWEEP_DIFF_UNSET}1m\n", "inc.fio": "rw=read\nloops=2\n"},
		args: []string{"v.fio"}},
	{name: "a [global] engine and its option, set again by the job", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"e.fio": "[global]\nioengine=mmap\nthp=1\nfilename=f\nsize=1m\n[a]\nioengine=psync\n"}, args: []string{"e.fio"}},
	{name: "fio's days: runtime=365d", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--runtime=365d"}},
	{name: "a log of every I/O: the job runs, without it", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--write_iops_log=x"}},
	{name: "steady state: iops mean deviation, attained", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=randread", "--time_based", "--runtime=30", "--ss=iops:50%", "--ss_dur=3"}},
	{name: "steady state: bw slope after ss_ramp, group of two, attained", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=read", "--bs=64k", "--numjobs=2", "--group_reporting", "--time_based", "--runtime=30",
			"--steadystate=bw_slope:40%", "--ss_dur=4", "--ss_ramp=1"}},
	{name: "steady state: the window never fills", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=randread", "--time_based", "--runtime=2", "--ss_dur=30"}},
	{name: "steady state through fio (posixaio): iops mean deviation, attained", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=randread", "--ioengine=posixaio", "--time_based", "--runtime=30", "--ss=iops:50%", "--ss_dur=3"}},
	{name: "steady state through fio (posixaio): bw slope after ss_ramp, group of two, attained", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=read", "--bs=64k", "--ioengine=posixaio", "--numjobs=2", "--group_reporting", "--time_based", "--runtime=30",
			"--steadystate=bw_slope:40%", "--ss_dur=4", "--ss_ramp=1"}},
	{name: "steady state through fio (posixaio): the window never fills", existing: map[string]int64{"f": 4 << 20}, steady: true,
		args: []string{"--name=a", "--filename=f", "--rw=randread", "--ioengine=posixaio", "--time_based", "--runtime=2", "--ss_dur=30"}},
	{name: "skips: read:8k ends each loop's pass at the region's end, read:-8k wraps", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=read:8k", "--loops=2", "--name=b", "--filename=f", "--size=1m", "--rw=read:-8k",
			"--name=c", "--filename=f", "--size=1m", "--rw=read:8k", "--io_size=512k"}},
	{name: "bssplit, sequential: each pass ends at the region's end", existing: map[string]int64{"f": 4 << 20}, sizesDrawn: true,
		args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=read", "--bssplit=4k/50:16k/30:64k", "--loops=2"}},
	{name: "random_distribution: zipf, pareto, normal, zoned, zoned_abs", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=randread", "--random_distribution=zipf:1.2",
			"--name=b", "--filename=f", "--size=1m", "--rw=randread", "--random_distribution=pareto:0.3", "--bs=8k",
			"--name=c", "--filename=f", "--size=1m", "--rw=randread", "--random_distribution=normal:10:0.3",
			"--name=d", "--filename=f", "--size=2m", "--rw=randread", "--random_distribution=zoned:60/10:40/90", "--random_generator=tausworthe64",
			"--name=e", "--filename=f", "--size=2m", "--rw=randread", "--random_distribution=zoned_abs:70/1m:30/1m"}},
	{name: "allow_file_create=0 runs on an existing file", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--allow_file_create=0"}},
	{name: "thinktime runs (natively, or through fio)", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--thinktime=10"}},
	{name: "refused: an engine that deletes files", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--ioengine=filedelete"},
		intended: "fio's engines that run commands or create or delete files are refused, the engine named"},
	{name: "verify=crc32c: writes, then reads every block back", args: []string{"--name=a", "--filename=new", "--size=1m", "--rw=write", "--verify=crc32c"}},
	{name: "verify=md5, random writes of 8k, crc32c-intel spelling elsewhere", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--bs=8k", "--rw=randwrite", "--verify=md5", "--allow-write",
			"--name=b", "--filename=f", "--offset=2m", "--size=512k", "--rw=write", "--verify=crc32c-intel", "--verify_interval=1k"}},
	{name: "verify=pattern and verify_pattern alone (header, then the pattern)", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"p.fio": "[global]\nfilename=f\nsize=512k\nrw=write\n[p]\nverify=pattern\nverify_pattern=0xdeadbeef\n[h]\nstonewall\nverify_pattern=\"qdsweep\"\n"},
		args: []string{"p.fio", "--allow-write"}},
	{name: "do_verify=0: the writes only", args: []string{"--name=a", "--filename=new", "--size=512k", "--rw=write", "--verify=md5", "--do_verify=0"}},
	{name: "verify=sha256 (through fio)", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=write", "--verify=sha256"}},
	{name: "switches: alone, =1 and =0", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--rw=randread", "--norandommap", "--randrepeat=0", "--time_based=0", "--end_fsync=1"}},
	{name: "io_size as a share of the region: of size, of the file, per clone, per loop, past an offset", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=2m", "--io_size=50%", "--name=b", "--filename=f", "--size=1m", "--io_size=33%",
			"--name=c", "--filename=f", "--io_size=25%", "--numjobs=2", "--name=d", "--filename=f", "--offset=1m", "--io_size=50%", "--loops=2"}},
	{name: "filesize ends the region: size only where it ends sooner, io_size over it again, a new file that big", existing: map[string]int64{"f": 8 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--filesize=256k", "--name=b", "--filename=f", "--offset=128k", "--size=1m", "--filesize=256k",
			"--name=c", "--filename=f", "--io_size=1m", "--filesize=256k", "--name=d", "--filename=f", "--size=128k", "--filesize=16m",
			"--name=e", "--filename=new", "--size=1m", "--filesize=256k"}},
	{name: "a size-based job that ends in its ramp reports every I/O", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--ramp_time=5", "--name=b", "--filename=f", "--size=512k", "--bs=8k", "--rw=randread", "--ramp_time=5"}},
	{name: "group_reporting is each job's: one job's clones as one, the next job's apart", existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"g.fio": "[global]\nfilename=f\nsize=128k\nbs=8k\n[f]\nnumjobs=2\ngroup_reporting\n[g]\nnumjobs=2\n[h]\nnumjobs=2\nstonewall\ngroup_reporting\n[i]\ngroup_reporting\n"},
		args: []string{"g.fio"}},
	{name: "a size with a decimal point: fio reads it up to the '.'", parseOnly: true, existing: map[string]int64{"f": 4 << 20},
		args:     []string{"--name=a", "--filename=f", "--size=0.5m"},
		intended: "fio 3.33 reads 0.5m as 0 (the whole file) and bs=1.5k as 1 byte; qdsweep refuses it, naming it whole (--size=512k)"},
	{name: "units by their start (64Ki, 1Mi, kB) and hexadecimal sizes", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=64Ki", "--bs=1k", "--name=b", "--filename=f", "--size=1Mi", "--bs=0x1000",
			"--name=c", "--filename=f", "--size=0x10000", "--bs=2kB"}},
	{name: "an offset at filesize leaves no region", parseOnly: true, existing: map[string]int64{"f": 8 << 20},
		args:     []string{"--name=a", "--filename=f", "--offset=256k", "--size=1m", "--filesize=256k"},
		intended: "fio 3.33 runs the job and does no I/O (exit 0); qdsweep refuses it, naming offset and filesize"},
	{name: "io_size over 100%: fio 3.33 refuses it, both refuse", parseOnly: true,
		args: []string{"--name=a", "--filename=f", "--size=1m", "--io_size=200%"}},
	{name: "random_generator=lfsr with norandommap: every block once", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=1m", "--rw=randread", "--norandommap", "--random_generator=lfsr"}},
	{name: "a blank after '=': fio reads bs= 8k as 8 bytes", parseOnly: true, existing: map[string]int64{"f": 4 << 20},
		jobs: map[string]string{"b.fio": "[a]\nfilename=f\nsize=1m\nbs= 8k\n"}, args: []string{"b.fio"},
		intended: "fio 3.33 keeps the blank and runs 131,072 I/Os of 8 bytes; qdsweep refuses the line, naming bs=8k"},
	{name: "deprecated: fio 3.33 fails to parse it, both refuse", parseOnly: true,
		args: []string{"--name=a", "--filename=f", "--size=512k", "--rwmixcycle=10"}},
	{name: "softly deprecated: fio warns and runs the job", existing: map[string]int64{"f": 4 << 20},
		args: []string{"--name=a", "--filename=f", "--size=512k", "--verifysort=1", "--flow_watermark=10"}},
	{name: "an engine's option of an engine qdsweep runs: through fio", parseOnly: true,
		args: []string{"--name=a", "--filename=f", "--size=1m", "--ioengine=libaio", "--cmdprio_percentage=10"}},
	{name: "an engine's option under another engine", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--nfs_url=nfs://h/x"}},
	{name: "an engine qdsweep does not run, with its options: through fio", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--ioengine=mmap", "--thp=1"}},
	{name: "not a fio option", parseOnly: true, args: []string{"--name=a", "--filename=f", "--size=1m", "--iodpth=4"}},
}

// TestFioDiffCoversEveryKind: the cases set an option of every kind fio
// reads (a value, a switch, an engine's, a deprecated one, a softly
// deprecated one) and of every
// handling the table gives (run, ignored, batching, refused,
// unknown), read from their command lines and job files.
func TestFioDiffCoversEveryKind(t *testing.T) {
	seen := map[string]string{}
	for _, tc := range fioDiffCases {
		var keys []string
		for _, a := range withoutQdsweepFlags(tc.args) {
			if k, ok := strings.CutPrefix(a, "--"); ok {
				k, _, _ = strings.Cut(k, "=")
				keys = append(keys, k)
			}
		}
		for _, text := range tc.jobs {
			for _, line := range strings.Split(text, "\n") {
				if k, _, _ := strings.Cut(strings.TrimSpace(line), "="); k != "" && !strings.HasPrefix(k, "[") && !strings.HasPrefix(k, ";") {
					keys = append(keys, k)
				}
			}
		}
		for _, k := range keys {
			for _, what := range []string{"kind " + fio.OptionKind(k), "handling " + handlingName(fio.OptionHandling(k))} {
				if seen[what] == "" {
					seen[what] = tc.name + ": " + k
				}
			}
		}
	}
	for _, want := range []string{"kind value", "kind switch", "kind engine", "kind deprecated", "kind soft-deprecated", "kind ", /* none: not fio's */
		"handling run", "handling ignored", "handling batching", "handling refused", "handling unknown"} {
		if seen[want] == "" {
			t.Errorf("no case sets an option of %s", want)
		} else {
			t.Logf("%-20s %s", want, seen[want])
		}
	}
}

// handlingName names a handling for TestFioDiffCoversEveryKind.
func handlingName(h fio.Handling) string {
	switch h {
	case fio.Honoured:
		return "run"
	case fio.Ignored:
		return "ignored"
	case fio.Batching:
		return "batching"
	case fio.Unsupported:
		return "refused"
	}
	return "unknown"
}

// TestFioDifferential runs every case under fio 3.33 and under qdsweep
// run and compares what each did, job by job: names, groups, I/Os and
// bytes per direction (or, with --parse-only, whether each accepts it),
// then the same in fio's normal layout as fio's normal reader finds it.
// Any difference not listed as intended fails, fio's and qdsweep's
// figures side by side.
func TestFioDifferential(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: this test compares qdsweep with fio 3.33 itself (CI installs it)")
	}
	if out, _ := exec.Command(fioBin, "--version").Output(); !strings.HasPrefix(string(out), "fio-3.33") {
		t.Logf("fio is %s; the cases were written against fio-3.33", strings.TrimSpace(string(out)))
	}
	for _, tc := range fioDiffCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // fio spends most of its second asleep
			fioDir, qdDir := layOutDiffCase(t, tc), layOutDiffCase(t, tc)
			if tc.parseOnly {
				compareParseOnly(t, tc, fioBin, fioDir, qdDir)
				return
			}
			if tc.pacing == "floor" {
				compareFloor(t, tc, fioBin, fioDir, qdDir)
				return
			}
			fioArgs := withoutQdsweepFlags(tc.args)
			out, err := runIn(fioDir, fioBin, append(fioArgs, "--output-format=json")...)
			if err != nil {
				t.Fatalf("fio %s: %v\n%s", strings.Join(fioArgs, " "), err, out)
			}
			want := diffJobs(t, "fio", out)
			stdout, stderr, code := runQdsweep(t, qdDir, append(append([]string{"run"}, tc.args...), "--output-format=json")...)
			if code != 0 {
				t.Fatalf("qdsweep run %s: exit %d: %s\nfio did:\n%s", strings.Join(tc.args, " "), code, stderr, strings.Join(want, "\n"))
			}
			if tc.steady {
				compareSteady(t, out, []byte(stdout))
				// fio's "steadystate" laid out as fio prints it (its data's
				// means integers, the deviation and slope six decimals); a
				// job run through fio is left out: qdsweep asks fio for its
				// p50, p90, p99 and p99.9 alone, and no disk_util.
				if f, q := jsonLayoutOf(jsonPart(out)), jsonLayoutOf([]byte(stdout)); f != q && !strings.Contains(stderr, "through fio") {
					t.Errorf("JSON layout differs:\n--- fio\n%s\n--- qdsweep\n%s", f, q)
				}
				return
			}
			if tc.pacing == "latency" {
				compareLatTarget(t, out, []byte(stdout))
				return
			}
			got := diffJobs(t, "qdsweep", []byte(stdout))
			if tc.mixed {
				want, got = totalsOnly(want), totalsOnly(got)
			}
			if tc.sizesDrawn {
				want, got = bytesOnly(want), bytesOnly(got)
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("%s\n%s", strings.Join(tc.args, " "), sideBySide(want, got))
			}
			compareNormal(t, tc, fioBin)
		})
	}
}

// compareNormal runs the case again in fio's normal layout, under fio
// and under qdsweep (no --output-format: normal is the default), and
// compares what fio's normal reader finds in each: names, groups, job
// counts and I/Os per direction.
func compareNormal(t *testing.T, tc fioDiffCase, fioBin string) {
	fioDir, qdDir := layOutDiffCase(t, tc), layOutDiffCase(t, tc)
	out, err := runIn(fioDir, fioBin, withoutQdsweepFlags(tc.args)...)
	if err != nil {
		t.Fatalf("fio (normal): %v\n%s", err, out)
	}
	stdout, stderr, code := runQdsweep(t, qdDir, append([]string{"run"}, tc.args...)...)
	if code != 0 {
		t.Fatalf("qdsweep run (normal): exit %d: %s", code, stderr)
	}
	want, got := normalJobs(t, "fio", out), normalJobs(t, "qdsweep", []byte(stdout))
	if tc.mixed {
		want, got = totalsOnly(want), totalsOnly(got)
	}
	if tc.sizesDrawn {
		want, got = bytesOnly(want), bytesOnly(got)
	}
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("normal output, %s\n%s\n%s", strings.Join(tc.args, " "), sideBySide(want, got), stdout)
	}
}

// normalJobs is each job of fio's normal output, as fio's normal reader
// finds it, in diffJobs' form (bytes left out: normal rounds them).
func normalJobs(t *testing.T, who string, out []byte) []string {
	t.Helper()
	outs, err := fio.ParseNormal(bytes.NewReader(out))
	if err != nil || len(outs) != 1 {
		t.Fatalf("%s's normal output: %v (%d reports)\n%s", who, err, len(outs), out)
	}
	var lines []string
	for _, j := range outs[0].Jobs {
		var n [2]int64
		for k, d := range []*fio.Dir{j.Read, j.Write} {
			if d != nil {
				n[k] = d.TotalIOs
			}
		}
		lines = append(lines, fmt.Sprintf("%s g%d jobs=%d read %d I/Os 0 B, write %d I/Os 0 B", j.Name, j.GroupID, j.NumJobs, n[0], n[1]))
	}
	return lines
}

// layOutDiffCase is a directory with the case's job files and existing files.
func layOutDiffCase(t *testing.T, tc fioDiffCase) string {
	dir := t.TempDir()
	for name, text := range tc.jobs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, size := range tc.existing {
		if err := os.WriteFile(filepath.Join(dir, name), bytes.Repeat([]byte{0x5a}, int(size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withoutQdsweepFlags drops qdsweep's own flags (write permissions) from
// args for fio.
func withoutQdsweepFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if file, ok := strings.CutPrefix(a, "--jobfile="); ok {
			out = append(out, file) // fio names a job file on its own
		} else if a != "--allow-write" {
			out = append(out, a)
		}
	}
	return out
}

// runDeadline bounds one run of fio (or of one of fio's scripts) in a
// test: the longest case runs 10 s, and a fio that hangs fails its case
// instead of the whole suite's timeout.
const runDeadline = 5 * time.Minute

// runIn runs bin in dir and returns its standard output. A run still going
// after runDeadline is stopped, with every process whose working directory
// is dir (fio's jobs start sessions of their own, so its process group
// does not hold them), and fails naming the hang.
func runIn(dir, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(runDeadline):
		killIn(dir)
		<-done
		err = fmt.Errorf("%s %s did not end in %v: stopped with every process it started", bin, strings.Join(args, " "), runDeadline)
	}
	if err != nil {
		return append(stdout.Bytes(), stderr.Bytes()...), err
	}
	return stdout.Bytes(), nil
}

// killIn kills every process whose working directory is dir, until none
// is left.
func killIn(dir string) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for range 5 {
		ents, _ := os.ReadDir("/proc")
		found := false
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err != nil || cwd != dir {
				continue
			}
			if p, err := os.FindProcess(pid); err == nil && p.Kill() == nil {
				found = true
			}
		}
		if !found {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// compareParseOnly compares whether fio and qdsweep accept the case's
// command (--parse-only); an intended difference is qdsweep refusing
// what fio accepts, in one line.
func compareParseOnly(t *testing.T, tc fioDiffCase, fioBin, fioDir, qdDir string) {
	_, fioErr := runIn(fioDir, fioBin, append(withoutQdsweepFlags(tc.args), "--parse-only")...)
	var ee *exec.ExitError
	if fioErr != nil && !errors.As(fioErr, &ee) {
		t.Fatal(fioErr)
	}
	_, stderr, code := runQdsweep(t, qdDir, append(append([]string{"run"}, tc.args...), "--parse-only")...)
	fioOK, qdOK := fioErr == nil, code == 0
	switch {
	case tc.intended != "" && fioOK && code == 2 && strings.Count(strings.TrimSpace(stderr), "\n") == 0:
		t.Logf("intended: fio accepts it, qdsweep refuses it (%s): %s", tc.intended, strings.TrimSpace(stderr))
	case tc.intended != "":
		t.Errorf("listed as intended (%s), but fio accepts: %v, qdsweep exit %d: %s", tc.intended, fioOK, code, stderr)
	case fioOK != qdOK:
		t.Errorf("fio accepts: %v; qdsweep accepts: %v (exit %d: %s)", fioOK, qdOK, code, stderr)
	case !qdOK && code != 2:
		t.Errorf("qdsweep refuses it with exit %d, want 2: %s", code, stderr)
	}
}

// diffJobs is each job of a fio JSON document as one line: name, group,
// I/Os and bytes per direction.
func diffJobs(t *testing.T, who string, out []byte) []string {
	t.Helper()
	if i := bytes.IndexByte(out, '{'); i > 0 {
		out = out[i:] // fio's notes before its document
	}
	var doc struct {
		Jobs []struct {
			Name        string `json:"jobname"`
			Group       int    `json:"groupid"`
			Read, Write struct {
				IOs   int64 `json:"total_ios"`
				Bytes int64 `json:"io_bytes"`
			}
		} `json:"jobs"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s's JSON: %v\n%s", who, err, out)
	}
	if dec.More() {
		t.Errorf("%s wrote more than one JSON document", who)
	}
	var lines []string
	for _, j := range doc.Jobs {
		lines = append(lines, fmt.Sprintf("%s g%d read %d I/Os %d B, write %d I/Os %d B", j.Name, j.Group, j.Read.IOs, j.Read.Bytes, j.Write.IOs, j.Write.Bytes))
	}
	return lines
}

// totalsOnly is each job line with its directions summed.
func totalsOnly(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var rIOs, rB, wIOs, wB int64
		head, rest, _ := strings.Cut(l, " read ")
		fmt.Sscanf(rest, "%d I/Os %d B, write %d I/Os %d B", &rIOs, &rB, &wIOs, &wB)
		out[i] = fmt.Sprintf("%s %d I/Os %d B", head, rIOs+wIOs, rB+wB)
	}
	return out
}

// bytesOnly is each job line without its I/O counts.
func bytesOnly(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		f := strings.Fields(l)
		for k := range f {
			if k+1 < len(f) && f[k+1] == "I/Os" {
				f[k] = "-"
			}
		}
		out[i] = strings.Join(f, " ")
	}
	return out
}

// sideBySide is fio's jobs beside qdsweep's.
func sideBySide(fio, qd []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-55s | %s\n", "fio 3.33", "qdsweep")
	for i := 0; i < max(len(fio), len(qd)); i++ {
		l, r := "", ""
		if i < len(fio) {
			l = fio[i]
		}
		if i < len(qd) {
			r = qd[i]
		}
		mark := " "
		if l != r {
			mark = "≠"
		}
		fmt.Fprintf(&b, "%-55s %s %s\n", l, mark, r)
	}
	return b.String()
}

// compareSteady compares fio's and qdsweep's steady-state objects, job by
// job: the criterion as written, the window and whether it was attained
// must agree, and each one's criterion must be what littleslaw.FioSteady
// computes from that output's own samples (fio's arithmetic, the same
// samples, the same value).
func compareSteady(t *testing.T, fioOut, qdOut []byte) {
	t.Helper()
	want, got := steadyOf(t, "fio", fioOut), steadyOf(t, "qdsweep", qdOut)
	if len(want) != len(got) {
		t.Fatalf("fio has %d jobs with steadystate, qdsweep %d", len(want), len(got))
	}
	for i := range want {
		w, g := want[i], got[i]
		t.Logf("fio: %s; qdsweep: %s", w.line(), g.line())
		if w.SS != g.SS || w.Duration != g.Duration || w.Attained != g.Attained {
			t.Errorf("fio: %s\nqdsweep: %s", w.line(), g.line())
		}
		for _, s := range []fioSteadyJSON{w, g} {
			if c := s.recomputed(t); c != s.Criterion {
				t.Errorf("%s: criterion %s, recomputed from its own samples %s", s.who, s.Criterion, c)
			}
		}
	}
}

// fioSteadyJSON is fio's "steadystate" object of a job.
type fioSteadyJSON struct {
	who       string
	SS        string `json:"ss"`
	Duration  int    `json:"duration"`
	Attained  int    `json:"attained"`
	Criterion string `json:"criterion"`
	Data      struct {
		IOPS []uint64 `json:"iops"`
		BW   []uint64 `json:"bw"`
	} `json:"data"`
}

func (s fioSteadyJSON) line() string {
	return fmt.Sprintf("ss=%s duration=%d attained=%d criterion=%s iops=%v", s.SS, s.Duration, s.Attained, s.Criterion, s.Data.IOPS)
}

// recomputed is the criterion littleslaw computes from the object's own
// window, written as fio writes it; "0.000000" (fio's) while the window
// holds a sample not taken.
func (s fioSteadyJSON) recomputed(t *testing.T) string {
	spec, err := fio.ParseSteadyCriterion(fio.SteadySpec{}, s.SS, 1024)
	if err != nil {
		t.Fatalf("%s: ss %q: %v", s.who, s.SS, err)
	}
	test := littleslaw.FioSteady{BW: spec.BW, Slope: spec.Slope, Pct: spec.Pct, Limit: spec.Limit, Dur: s.Duration}
	window := s.Data.IOPS
	if spec.BW {
		window = s.Data.BW
	}
	c := 0.0
	if s.Attained == 1 || !slices.Contains(window, 0) {
		c = test.Check(window).Criterion
	}
	pct := ""
	if spec.Pct {
		pct = "%"
	}
	return strconv.FormatFloat(float64(float32(c)), 'f', 6, 64) + pct
}

// steadyOf is each job's steadystate object of a fio JSON document.
func steadyOf(t *testing.T, who string, out []byte) []fioSteadyJSON {
	t.Helper()
	if i := bytes.IndexByte(out, '{'); i > 0 {
		out = out[i:]
	}
	var doc struct {
		Jobs []struct {
			Steady *fioSteadyJSON `json:"steadystate"`
		} `json:"jobs"`
	}
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&doc); err != nil {
		t.Fatalf("%s's JSON: %v\n%s", who, err, out)
	}
	var ss []fioSteadyJSON
	for _, j := range doc.Jobs {
		if j.Steady == nil {
			t.Fatalf("%s: a job without steadystate\n%s", who, out)
		}
		j.Steady.who = who
		ss = append(ss, *j.Steady)
	}
	return ss
}

// TestFioVerifyCrossRead writes a file with one tool and checks it with
// the other's verify_only, for each kind qdsweep verifies (and crc32c
// with verify_async); then flips one byte and has both name the block
// that holds it.
func TestFioVerifyCrossRead(t *testing.T) {
	fioBin, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed: this test checks qdsweep's verify blocks against fio 3.33's (CI installs it)")
	}
	qd := func(dir string, args ...string) (string, error) {
		stdout, stderr, code := runQdsweep(t, dir, append(append([]string{"run"}, args...), "--allow-write")...)
		if code != 0 {
			return stdout + stderr, fmt.Errorf("exit %d", code)
		}
		return stdout + stderr, nil
	}
	fioRun := func(dir string, args ...string) (string, error) {
		out, err := runIn(dir, fioBin, args...)
		return string(out), err
	}
	tools := map[string]func(string, ...string) (string, error){"fio": fioRun, "qdsweep": qd}
	// verify_async: fio checks the reads in threads apart from the job,
	// qdsweep as they complete: the same blocks, the same failure.
	for _, kind := range [][]string{{"--verify=crc32c"}, {"--verify=md5"}, {"--verify=pattern", "--verify_pattern=0x5ca1ab1e"},
		{"--verify_pattern=0x0102"}, {"--verify=crc32c", "--verify_async=2"}} {
		for _, pair := range [][2]string{{"fio", "qdsweep"}, {"qdsweep", "fio"}} {
			t.Run(pair[0]+" writes, "+pair[1]+" verifies, "+strings.Join(kind, " "), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				// fio's random map writes every block once; qdsweep's random
				// offsets repeat (fio's norandommap), so it writes in order
				// for fio to find every block.
				rw := map[string]string{"fio": "--rw=randwrite", "qdsweep": "--rw=write"}[pair[0]]
				job := append([]string{"--name=v", "--filename=f", "--size=256k", "--bs=8k", rw}, kind...)
				if out, err := tools[pair[0]](dir, append(job, "--do_verify=0")...); err != nil {
					t.Fatalf("%s writes: %v\n%s", pair[0], err, out)
				}
				if out, err := tools[pair[1]](dir, append(job, "--verify_only")...); err != nil {
					t.Fatalf("%s verifies what %s wrote: %v\n%s", pair[1], pair[0], err, out)
				}
				const bad = 13*8192 + 1000 // in the 8k block at 106496
				f, err := os.OpenFile(filepath.Join(dir, "f"), os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				b := []byte{0}
				if _, err := f.ReadAt(b, bad); err != nil {
					t.Fatal(err)
				}
				b[0] ^= 0x5a
				if _, err := f.WriteAt(b, bad); err != nil {
					t.Fatal(err)
				}
				f.Close()
				const want = "offset 106496"
				for _, who := range pair {
					out, err := tools[who](dir, append(job, "--verify_only")...)
					if err == nil || !strings.Contains(out, want) {
						t.Errorf("%s after a byte flipped at %d: %v, want a failure naming %q:\n%s", who, bad, err, want, out)
					}
				}
			})
		}
	}
}

// latTargetOf is each job's latency_target report in fio's JSON.
func latTargetOf(t *testing.T, who string, out []byte) []string {
	t.Helper()
	var doc struct {
		Jobs []struct {
			Name       string  `json:"jobname"`
			Depth      int     `json:"latency_depth"`
			Target     int64   `json:"latency_target"`
			Window     int64   `json:"latency_window"`
			Percentile float64 `json:"latency_percentile"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(jsonPart(out), &doc); err != nil {
		t.Fatalf("%s's JSON: %v\n%s", who, err, out)
	}
	var lines []string
	for _, j := range doc.Jobs {
		lines = append(lines, fmt.Sprintf("%s: depth=%d target=%d ns window=%d us percentile=%g", j.Name, j.Depth, j.Target, j.Window, j.Percentile))
	}
	return lines
}

// compareLatTarget compares each job's latency_target report, the depth
// its search ended at first.
func compareLatTarget(t *testing.T, fioOut, qdOut []byte) {
	t.Helper()
	want, got := latTargetOf(t, "fio", fioOut), latTargetOf(t, "qdsweep", qdOut)
	t.Logf("fio: %v; qdsweep: %v", want, got)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("latency_target reports differ\n%s", sideBySide(want, got))
	}
}

// compareFloor runs a job that falls below its rate floor under both:
// each must fail (exit 1), say fio's "rate_iops_min=N not met, got M IOPS"
// naming the job, and report the job's error 5 in its JSON.
func compareFloor(t *testing.T, tc fioDiffCase, fioBin, fioDir, qdDir string) {
	t.Helper()
	fioArgs := append(withoutQdsweepFlags(tc.args), "--output-format=json")
	fioOut, fioErr := runIn(fioDir, fioBin, fioArgs...)
	stdout, stderr, code := runQdsweep(t, qdDir, append(append([]string{"run"}, tc.args...), "--output-format=json")...)
	floor := regexp.MustCompile(`a: (job 0: )?rate_iops_min=100 not met, got (\d+) IOPS`)
	fm, qm := floor.FindSubmatch(fioOut), floor.FindStringSubmatch(stderr)
	t.Logf("fio: %v, %q; qdsweep: exit %d, %q", fioErr, fm, code, qm)
	if fioErr == nil || fm == nil {
		t.Fatalf("fio did not fail the floor: %v\n%s", fioErr, fioOut)
	}
	if code != 1 || qm == nil {
		t.Fatalf("qdsweep: exit %d, want 1 with fio's words for the floor\n%s", code, stderr)
	}
	for _, s := range []struct {
		who string
		out []byte
	}{{"fio", fioOut}, {"qdsweep", []byte(stdout)}} {
		var doc struct {
			Jobs []struct {
				Error int `json:"error"`
			} `json:"jobs"`
		}
		if err := json.NewDecoder(bytes.NewReader(jsonPart(s.out))).Decode(&doc); err != nil || len(doc.Jobs) != 1 || doc.Jobs[0].Error != 5 {
			t.Errorf("%s's JSON: %v, %+v; want one job with error 5 (EIO)", s.who, err, doc.Jobs)
		}
	}
}

// jsonPart is out from its first '{' on: fio prints its error lines
// first (and its standard error follows the document).
func jsonPart(out []byte) []byte {
	if i := bytes.IndexByte(out, '{'); i >= 0 {
		return out[i:]
	}
	return out
}
