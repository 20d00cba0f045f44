#!/usr/bin/env bash
# fio-vs-qdsweep.sh — run `qdsweep run` and fio alternately on the same files
# and print a Markdown table of medians and qdsweep/fio ratios.
#
# Usage: bench/fio-vs-qdsweep.sh [-r SECONDS] [-p PAIRS] [-d DIR] [-m SHMDIR] [-b QDSWEEP] [-k] [-s SET] [-z ZRAM]
#                                [-c SHAPES] [-P] [-t]
#   -r  runtime of each run in seconds (default 10)
#   -p  qdsweep/fio pairs per case, run A B A B … (default 3)
#   -d  directory on the disk under test (default .)
#   -m  tmpfs directory for the CPU-bound case (default /dev/shm; "" to skip)
#   -b  qdsweep binary (default: built from this checkout into a temp dir)
#   -k  keep the laid-out files
#   -s  case set: disk (default: the cases below), fast (the tmpfs grid: io_uring and
#       libaio at 1×1 4×1 16×1 64×1 256×1 1×4 1×16 4×8 8×4 32×8, a memory-speed target),
#       fast-uring (its io_uring rows only)
#       or uring (fio's io_uring options, each on its own and together, on tmpfs at 4×1
#       and on the disk at 16×1), or zram (a memory-speed block device: psync 1×1 and 1×16,
#       io_uring and libaio at 1×1 4×1 16×1 64×1 1×16 4×8 8×4)
#   -z  the zram device of -s zram (default /dev/zram0): it must be unused (disksize 0);
#       it is sized 2 GiB, its first 1 GiB written with random data, and reset at the end
#   -c  only these cases of the set, comma-separated ENGINE:IODEPTHxNUMJOBS (io_uring:1x1,psync:1x16)
#   -P  run every run under `perf stat` and add a table of kernel events per I/O (context
#       switches, migrations, io_uring requests punted to io-wq, io_uring_enter, io_submit,
#       io_getevents and pread64 calls); the tracepoints cost CPU, so the CPU columns of a -P
#       run are not comparable with a run without it
#   -t  run fio with --thread: its jobs as threads of one process, as qdsweep's are. Without
#       it fio forks a process per job and each calls setsid(), so where the kernel groups
#       tasks by session for scheduling (sched_autogroup_enabled=1) fio's N jobs get N
#       sessions' share of a busy machine's CPUs and qdsweep's N threads one session's
# Each tool runs in a session of its own (not the script's), so neither shares a
# scheduling group with the script.
# Both tools run the same job: norandommap and randrepeat=0 for both (until 2026-12-03 fio alone
# had them, qdsweep keeping fio's default random map).
# Cases: 4k randread, direct; one job on the disk at QD 1 4 16 64 128 with io_uring
# and libaio; a 1 GiB tmpfs file at QD 32 with io_uring; then jobs beyond the CPU
# count on the disk: psync with 1 4 16 64 256 jobs, io_uring and libaio at
# iodepth × numjobs 1×16 4×8 8×4 32×8 256×4.
# CPU is the whole process's user+system time (children's times from the OS,
# kernel worker threads of the process included), per million I/Os; context switches
# are the whole process's too (voluntary + involuntary, from wait4's rusage), and the
# io-wq workers are the most iou-wrk-* threads seen at once in the process's tree
# (sampled every 100 ms). Each run's 1-minute load average is taken as it starts.
set -euo pipefail

RUNTIME=10
PAIRS=3
DIR=.
SHM=/dev/shm
BIN=
KEEP=0
SET=disk
ZRAM=/dev/zram0
ONLY=
PERF=0
THREAD=0
while getopts "r:p:d:m:b:ks:z:c:Pth" opt; do
	case $opt in
	r) RUNTIME=$OPTARG ;;
	p) PAIRS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	m) SHM=$OPTARG ;;
	b) BIN=$OPTARG ;;
	k) KEEP=1 ;;
	s) SET=$OPTARG ;;
	z) ZRAM=$OPTARG ;;
	c) ONLY=$OPTARG ;;
	P) PERF=1 ;;
	t) THREAD=1 ;;
	*) sed -n '2,42p' "$0"; exit 2 ;;
	esac
done

command -v fio >/dev/null || { echo "fio-vs-qdsweep: fio is not installed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "fio-vs-qdsweep: python3 is not installed" >&2; exit 1; }
[ "$PERF" = 0 ] || command -v perf >/dev/null || { echo "fio-vs-qdsweep: -P needs perf (Debian: linux-perf)" >&2; exit 1; }

TMP=$(mktemp -d)
DISKFILE="$DIR/qdsweep-bench.dat"
SHMFILE=""
[ -n "$SHM" ] && [ -d "$SHM" ] && SHMFILE="$SHM/qdsweep-bench.dat"
ZRAMSET=0
cleanup() {
	rm -rf "$TMP"
	if [ "$ZRAMSET" = 1 ]; then
		echo 1 >"/sys/block/$(basename "$ZRAM")/reset" || echo "fio-vs-qdsweep: could not reset $ZRAM" >&2
	fi
	if [ "$KEEP" = 0 ]; then
		rm -f "$DISKFILE"
		[ -n "$SHMFILE" ] && rm -f "$SHMFILE"
	fi
	return 0
}
trap cleanup EXIT

if [ -z "$BIN" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$TMP/qdsweep" ./cmd/qdsweep)
	BIN="$TMP/qdsweep"
fi

# Lay the files out with real writes (qdsweep creates a missing --filename that way).
TARGET=$DISKFILE
files="$DISKFILE $SHMFILE"
[ "$SET" = fast ] && files="$SHMFILE"
if [ "$SET" = zram ]; then
	files=
	zsys="/sys/block/$(basename "$ZRAM")"
	[ -b "$ZRAM" ] && [ -d "$zsys" ] || { echo "fio-vs-qdsweep: -s zram needs a zram device ($ZRAM is none; modprobe zram)" >&2; exit 2; }
	[ "$(cat "$zsys/disksize")" = 0 ] || { echo "fio-vs-qdsweep: $ZRAM is in use (disksize $(cat "$zsys/disksize")); reset it or name another with -z" >&2; exit 2; }
	ZRAMSET=1
	echo 2G >"$zsys/disksize"
	echo "writing 1 GiB of random data to $ZRAM" >&2
	dd if=/dev/urandom of="$ZRAM" bs=1M count=1024 oflag=direct status=none
	TARGET=$ZRAM
fi
[ "$SET" = uring ] && [ -z "$SHMFILE" ] && { echo "fio-vs-qdsweep: -s uring needs a tmpfs directory (-m)" >&2; exit 2; }
for f in $files; do
	if [ ! -f "$f" ]; then
		echo "laying out $f (1 GiB)" >&2
		"$BIN" run --filename="$f" --size=1g --runtime=0.1 --ramp_time=0 >/dev/null
	fi
done

echo "Linux $(uname -r), $(nproc) CPUs, $(fio --version), load average $(cut -d' ' -f1-3 /proc/loadavg) at start, $(date -u +%Y-%m-%dT%H:%MZ)."
echo

python3 - "$BIN" "$RUNTIME" "$PAIRS" "$TARGET" "$SHMFILE" "$SET" "$ONLY" "$PERF" "$TMP" "$THREAD" <<'PY'
import json, os, statistics, subprocess, sys, threading, time

qd_bin, runtime, pairs, diskfile, shmfile, caseset = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
only, perf, tmpdir = [x for x in sys.argv[7].split(",") if x], sys.argv[8] == "1", sys.argv[9]
fio_thread = ["--thread"] if sys.argv[10] == "1" else []
EVENTS = ["context-switches", "cpu-migrations", "io_uring:io_uring_queue_async_work",
          "syscalls:sys_enter_io_uring_enter", "syscalls:sys_enter_io_submit",
          "syscalls:sys_enter_io_getevents", "syscalls:sys_enter_pread64"]
EVENT_NAMES = ["cs", "migrations", "io-wq punts", "io_uring_enter", "io_submit", "io_getevents", "pread64"]

# (place, file, engine, iodepth, numjobs, extra options for both tools)
uring_opts = [[], ["--fixedbufs=1"], ["--fixedbufs=0"], ["--registerfiles=1"], ["--sqthread_poll=1"],
              ["--nonvectored=0"], ["--fixedbufs=1", "--registerfiles=1", "--sqthread_poll=1"]]
if caseset == "uring":
    cases = [(place, path, "io_uring", d, nj, extra) for place, path, d, nj in
             (("tmpfs", shmfile, 4, 1), ("disk", diskfile, 16, 1)) for extra in uring_opts]
elif caseset == "zram":
    cases = [("zram", diskfile, "psync", 1, nj) for nj in (1, 16)]
    cases += [("zram", diskfile, eng, d, nj) for eng in ("libaio", "io_uring")
              for d, nj in ((1, 1), (4, 1), (16, 1), (64, 1), (1, 16), (4, 8), (8, 4))]
elif caseset in ("fast", "fast-uring"):
    if not shmfile:
        sys.exit(f"fio-vs-qdsweep: -s {caseset} needs a tmpfs directory (-m)")
    engines = ("io_uring",) if caseset == "fast-uring" else ("io_uring", "libaio")
    cases = [("tmpfs", shmfile, eng, d, nj) for eng in engines
             for d, nj in ((1, 1), (4, 1), (16, 1), (64, 1), (256, 1), (1, 4), (1, 16), (4, 8), (8, 4), (32, 8))]
else:
    cases = [("disk", diskfile, eng, qd, 1) for eng in ("io_uring", "libaio") for qd in (1, 4, 16, 64, 128)]
    if shmfile:
        cases.append(("tmpfs", shmfile, "io_uring", 32, 1))
    cases += [("disk", diskfile, "psync", 1, nj) for nj in (1, 4, 16, 64, 256)]
    cases += [("disk", diskfile, eng, d, nj) for eng in ("io_uring", "libaio")
              for d, nj in ((1, 16), (4, 8), (8, 4), (32, 8), (256, 4))]

cases = [c if len(c) == 6 else c + ([],) for c in cases]
if only:
    cases = [c for c in cases if f"{c[2]}:{c[3]}x{c[4]}" in only]
    if not cases:
        sys.exit(f"fio-vs-qdsweep: -c {','.join(only)} names no case of -s {caseset}")

def common(path, eng, qd, nj, extra):
    return [f"--filename={path}", f"--ioengine={eng}", "--direct=1", "--rw=randread", "--bs=4k",
            f"--iodepth={qd}", f"--numjobs={nj}", f"--runtime={runtime}", "--time_based", "--size=1g",
            "--norandommap", "--randrepeat=0", "--output-format=json"] + extra

def tree(root):
    """The pids of root and its descendants."""
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as fh:
                    todo += [int(x) for x in fh.read().split()]
        except OSError:
            pass
    return pids

def iowq(root):
    """How many iou-wrk-* threads root's tree has now."""
    n = 0
    for pid in tree(root):
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/comm") as fh:
                    n += fh.read().startswith("iou-wrk-")
        except OSError:
            pass
    return n

def run_timed(argv):
    """Runs argv; returns its JSON output, CPU seconds, context switches, most io-wq workers
    at once and the 1-minute load average as it started."""
    with open("/proc/loadavg") as fh:
        load = float(fh.read().split()[0])
    perfout = os.path.join(tmpdir, "perf.csv")
    if perf:
        argv = ["perf", "stat", "-x", ",", "-o", perfout, "-e", ",".join(EVENTS), "--"] + argv
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    out, err, workers = [], [], 0
    readers = [threading.Thread(target=lambda f=f, b=b: b.append(f.read())) for f, b in ((p.stdout, out), (p.stderr, err))]
    for t in readers:
        t.start()
    while True:
        try:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        except ChildProcessError:
            sys.exit(f"{argv[0]}: lost its process")
        if pid:
            break
        workers = max(workers, iowq(p.pid))
        time.sleep(0.1)
    for t in readers:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{argv[0]} failed ({p.returncode}): {err[0].decode().strip()}")
    text = out[0].decode()
    text = text[text.index("{"):]  # fio may print notes before its JSON
    counts = {}
    if perf:
        with open(perfout) as fh:
            for line in fh:
                f = line.strip().split(",")
                if len(f) > 2 and f[2] in EVENTS:
                    counts[f[2]] = float(f[0]) if f[0].replace(".", "").isdigit() else float("nan")
    return json.loads(text), ru.ru_utime + ru.ru_stime, ru.ru_nvcsw + ru.ru_nivcsw, workers, load, counts

def per_io(counts, n):
    return tuple(counts.get(e, float("nan")) / n for e in EVENTS)

def qdsweep(path, eng, qd, nj, extra):
    doc, cpu, cs, wq, load, counts = run_timed([qd_bin, "run", "--ramp_time=0", "--group_reporting"] + common(path, eng, qd, nj, extra) + ["--output-format=qdsweep-json"])
    n = doc["total_ios"]
    return (doc["iops"], doc["lat_ns"]["mean"] / 1e3, cpu / n * 1e6, doc["lat_ns"]["mean"] / 1e3,
            doc["inflight_mean"], cs / n, wq, load) + per_io(counts, n)

def fio(path, eng, qd, nj, extra):
    doc, cpu, cs, wq, load, counts = run_timed(["fio", "--name=bench", "--time_based", "--group_reporting"]
                                               + fio_thread + common(path, eng, qd, nj, extra))
    r = doc["jobs"][0]["read"]
    n = r["total_ios"]
    # fio reports no in-flight mean: IOPS × mean latency (Little's Law).
    return (r["iops"], r["clat_ns"]["mean"] / 1e3, cpu / n * 1e6, r["lat_ns"]["mean"] / 1e3,
            r["iops"] * r["lat_ns"]["mean"] / 1e9, cs / n, wq, load) + per_io(counts, n)

def med(xs):
    return statistics.median(xs)

rows = []
for place, path, eng, qd, nj, extra in cases:
    q, f = [], []
    if extra:
        eng += " " + " ".join(x.lstrip("-") for x in extra)
    for i in range(pairs):
        q.append(qdsweep(path, eng.split()[0], qd, nj, extra))
        f.append(fio(path, eng.split()[0], qd, nj, extra))
        print(f"{place} {eng} {qd}x{nj} pair {i+1}: qdsweep {q[-1][0]:.0f} IOPS ({q[-1][4]:.1f} in flight, "
              f"load {q[-1][7]:.2f}), fio {f[-1][0]:.0f} IOPS (load {f[-1][7]:.2f})", file=sys.stderr)
    qm = [med(x[k] for x in q) for k in range(len(q[0]))]
    fm = [med(x[k] for x in f) for k in range(len(f[0]))]
    loads = [x[7] for x in q + f]
    rows.append((place, eng, qd, nj, qm, fm, (min(loads), max(loads))))

print(f"4k randread, direct=1, {runtime} s per run, median of {pairs} pairs (qdsweep and fio{' --thread' if fio_thread else ''} alternating).")
print("Latency: qdsweep's submit → completion mean against fio's clat mean (from issue, after the submit")
print("call) and fio's lat mean (from submission, slat + clat). CPU: process user+system seconds per")
print("million I/Os, kernel worker threads of the process included. In flight: qdsweep's measured mean;")
print("fio's IOPS × mean lat. Context switches per I/O: the whole process's, voluntary + involuntary.")
print("io-wq: the most iou-wrk threads seen at once. Load: the 1-minute load average as each run of the")
print("case started, lowest–highest (the machine is shared).")
print()
print("| target | engine | iodepth×jobs | qdsweep IOPS | fio IOPS | IOPS ratio | qdsweep lat µs | fio clat µs | fio lat µs | lat/clat | lat/lat | qdsweep CPU s/MIO | fio CPU s/MIO | CPU ratio | qdsweep in flight | fio in flight | qdsweep cs/IO | fio cs/IO | qdsweep io-wq | fio io-wq | load |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
def ratio(a, b):
    return a / b if b else float("nan")
for place, eng, qd, nj, qm, fm, load in rows:
    print(f"| {place} | {eng} | {qd}×{nj} | {qm[0]:.0f} | {fm[0]:.0f} | {ratio(qm[0], fm[0]):.3f} | "
          f"{qm[1]:.1f} | {fm[1]:.1f} | {fm[3]:.1f} | {ratio(qm[1], fm[1]):.3f} | {ratio(qm[1], fm[3]):.3f} | "
          f"{qm[2]:.2f} | {fm[2]:.2f} | {ratio(qm[2], fm[2]):.3f} | {qm[4]:.1f} | {fm[4]:.1f} | "
          f"{qm[5]:.2f} | {fm[5]:.2f} | {qm[6]:.0f} | {fm[6]:.0f} | {load[0]:.1f}–{load[1]:.1f} |")
if perf:
    print()
    print("perf stat, whole process tree (fio's job processes and every io-wq worker included), events per I/O,")
    print("medians: qdsweep / fio.")
    print()
    print("| target | engine | iodepth×jobs | " + " | ".join(EVENT_NAMES) + " |")
    print("|---|---|---:|" + "---:|" * len(EVENTS))
    for place, eng, qd, nj, qm, fm, load in rows:
        cells = [f"{a:.2f} / {b:.2f}" for a, b in zip(qm[8:], fm[8:])]
        print(f"| {place} | {eng} | {qd}×{nj} | " + " | ".join(cells) + " |")
PY
echo
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(date -u +%Y-%m-%dT%H:%MZ)."
