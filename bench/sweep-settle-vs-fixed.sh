#!/usr/bin/env bash
# sweep-settle-vs-fixed.sh — the default `qdsweep sweep` (steps that end once
# their decisions are settled, ramps that end once the queue is full) against
# a sweep of fixed steps over the same grid (--ss=0: 0.5 s ramps, 3 s
# windows), in alternating pairs (default first in odd pairs, fixed first in
# even ones, so that neither always runs on a disk the other just warmed), in
# a scratch directory on the disk under test. Both lay out and remove their
# own 1 GiB scratch file, as the default sweep does.
#
# Prints Markdown ready for bench/RESULTS.md:
#   - per pair and sweep: its wall time, the time between its first step's
#     start and its last step's end (results.json's meta), the I/Os it issued
#     (ramps, windows and the control step, from results.json's slices, and
#     the first measurement of a step measured again, settle.first_ios), its
#     saturation QD, the depth `qdsweep advise` gives for three targets (a
#     quarter, half and three quarters of the fixed sweep's highest IOPS), its
#     diagnosis, whether the pair agrees (the same saturation QD and
#     diagnosis, depths within 1 I/O or 20 %) and the load average as it
#     started;
#   - medians of the wall times and I/Os, and how many pairs agree;
#   - per default sweep, where its time went: each step's window and ramp
#     (ms) and what ended it (settle.by: d decision, p precision, u
#     undecidable, l held by a start-up lead, – the slope rule or
#     --runtime; r: the curve still rising, settled from 0.3 s, f: the pair
#     flat, settled from 1 s; *: its window began above its level,
#     settle.lead).
#
# On a device whose curve repeats (a scratch file on a disk need not):
#   -z DEV  a zram device (must be unused, disksize 0): sized 2 GiB, its first
#           1 GiB written with random data, both sweeps read that 1 GiB
#           (--filename=DEV --size=1g); reset at the end
#   -n US   an emulated network volume instead: internal/netvoltest's
#           netvol (built here, run as root, mounting with mount(2))
#           answers every read of its one 1 GiB FUSE file after US µs, as a
#           network disk answers after a round trip; both sweeps read a
#           read-only loop device with direct I/O over that file; unmounted
#           and detached at the end
#   -c IOPS with -n: the volume caps its own reads at IOPS (a token bucket
#           100 ms deep: the burst a provisioned volume allows after idle
#           time), no cgroup needed
#   -t IOPS with -z or -n: each sweep runs in a cgroup v1 blkio group that
#           throttles its reads of the device to IOPS
#           (blkio.throttle.read_iops_device): a cap-shaped "provisioned IOPS"
#           device, like a cloud volume's limit
#
# Usage: bench/sweep-settle-vs-fixed.sh [-p PAIRS] [-d DIR] [-b QDSWEEP] [-S SIMSPEC] [-z DEV | -n US [-c IOPS]] [-t IOPS] [-k] [-C]
#   -p  pairs (default 5)
#   -d  directory on the disk under test (default .): the sweeps run there
#   -b  qdsweep binary (default: built from this checkout into a temp dir)
#   -S  run both on the simulator instead (--sim=SIMSPEC, e.g. latency=1ms,iops=20000):
#       a check of the script, not a measurement of a disk
#   -k  keep the results directories (their path is printed at the end)
#   -C  a control: each pair runs a second sweep of fixed steps beside the first
#       (fixed, control and default in odd pairs, default, fixed and control in even
#       ones), and says whether the two fixed sweeps agree by the same test: where they
#       do not, the disk's own curve moved between them, and a default sweep's
#       disagreement in that pair says nothing of its rule
set -euo pipefail
PAIRS=5
DIR=.
BIN=
SIM=
KEEP=0
ZRAM=
THROTTLE=
NETVOL=
NVCAP=0
CONTROL=0
while getopts "p:d:b:S:z:t:n:c:kCh" opt; do
	case $opt in
	p) PAIRS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	b) BIN=$OPTARG ;;
	S) SIM=$OPTARG ;;
	z) ZRAM=$OPTARG ;;
	t) THROTTLE=$OPTARG ;;
	n) NETVOL=$OPTARG ;;
	c) NVCAP=$OPTARG ;;
	k) KEEP=1 ;;
	C) CONTROL=1 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
	esac
done
command -v python3 >/dev/null || { echo "sweep-settle-vs-fixed: python3 is not installed" >&2; exit 1; }
[ -d "$DIR" ] || { echo "sweep-settle-vs-fixed: -d $DIR is not a directory" >&2; exit 2; }
case $PAIRS in '' | *[!0-9]* | 0) echo "sweep-settle-vs-fixed: -p $PAIRS is not a positive count" >&2; exit 2 ;; esac
if [ -n "$THROTTLE" ]; then
	[ -n "$ZRAM$NETVOL" ] || { echo "sweep-settle-vs-fixed: -t throttles a device: name one with -z or -n" >&2; exit 2; }
	case $THROTTLE in *[!0-9]* | 0) echo "sweep-settle-vs-fixed: -t $THROTTLE is not a positive IOPS count" >&2; exit 2 ;; esac
	[ -f /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ] || { echo "sweep-settle-vs-fixed: -t needs cgroup v1 blkio at /sys/fs/cgroup/blkio" >&2; exit 2; }
fi
zsys=
[ -z "$ZRAM" ] || [ -z "$NETVOL" ] || { echo "sweep-settle-vs-fixed: -z and -n exclude each other" >&2; exit 2; }
[ -z "$SIM" ] || [ -z "$ZRAM$NETVOL" ] || { echo "sweep-settle-vs-fixed: -S excludes -z and -n" >&2; exit 2; }
if [ -n "$NETVOL" ]; then
	case $NETVOL in *[!0-9]*) echo "sweep-settle-vs-fixed: -n $NETVOL is not a delay in µs" >&2; exit 2 ;; esac
	[ "$(id -u)" = 0 ] && [ -e /dev/fuse ] || { echo "sweep-settle-vs-fixed: -n needs root and /dev/fuse (modprobe fuse)" >&2; exit 2; }
	case $NVCAP in *[!0-9]*) echo "sweep-settle-vs-fixed: -c $NVCAP is not an IOPS count" >&2; exit 2 ;; esac
elif [ "$NVCAP" != 0 ]; then
	echo "sweep-settle-vs-fixed: -c caps the emulated network volume: name one with -n" >&2; exit 2
fi
if [ -n "$ZRAM" ]; then
	zsys="/sys/block/$(basename "$ZRAM")"
	[ -b "$ZRAM" ] && [ -d "$zsys" ] || { echo "sweep-settle-vs-fixed: -z $ZRAM is not a zram device (modprobe zram)" >&2; exit 2; }
	[ "$(cat "$zsys/disksize")" = 0 ] || { echo "sweep-settle-vs-fixed: -z $ZRAM is in use (disksize $(cat "$zsys/disksize")); reset it or name another" >&2; exit 2; }
fi
TMP=$(mktemp -d)
WORK=$(mktemp -d "$DIR/qdsweep-settle.XXXXXX")
CG=
LOOP=
MNT=
NVPID=
cleanup() {
	rm -rf "$WORK"
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG"
	[ -n "$zsys" ] && [ "$(cat "$zsys/disksize")" != 0 ] && echo 1 >"$zsys/reset"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	if [ -n "$NVPID" ]; then kill "$NVPID" && wait "$NVPID" || true; fi
	if [ "$KEEP" = 1 ]; then
		echo "results kept in $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
if [ -z "$BIN" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$TMP/qdsweep" ./cmd/qdsweep)
	BIN="$TMP/qdsweep"
fi
common=()
[ -n "$SIM" ] && common=(--sim="$SIM")
target="a scratch file in $(cd "$DIR" && pwd) ($(df --output=source "$DIR" | tail -1))"
[ -n "$SIM" ] && target="the simulator (--sim=$SIM)"
if [ -n "$ZRAM" ]; then
	echo 2G >"$zsys/disksize"
	echo "writing 1 GiB of random data to $ZRAM" >&2
	dd if=/dev/urandom of="$ZRAM" bs=1M count=1024 oflag=direct status=none
	common=(--filename="$ZRAM" --size=1g)
	target="$ZRAM (zram, 2 GiB, reads over its first 1 GiB of random data)"
fi
dev=$ZRAM
if [ -n "$NETVOL" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$TMP/netvol" ./internal/netvoltest/netvol)
	MNT="$TMP/netvol.mnt"
	mkdir "$MNT"
	"$TMP/netvol" --delay="${NETVOL}us" --iops="$NVCAP" "$MNT" >"$TMP/netvol.log" 2>&1 &
	NVPID=$!
	for _ in $(seq 100); do grep -q ready "$TMP/netvol.log" && break; sleep 0.1; done
	grep -q ready "$TMP/netvol.log" || { echo "sweep-settle-vs-fixed: netvol did not start:" >&2; cat "$TMP/netvol.log" >&2; exit 1; }
	LOOP=$(losetup -f --show -r --direct-io=on "$MNT/vol")
	dev=$LOOP
	zsys="" # nothing to reset
	common=(--filename="$LOOP" --size=1g)
	target="$LOOP, a read-only loop device with direct I/O over a 1 GiB FUSE file whose every read internal/netvoltest answers after $NETVOL µs (an emulated network volume)"
	[ "$NVCAP" != 0 ] && target="$target, capped by the volume at $NVCAP IOPS (a token bucket 100 ms deep)"
fi
wrap=()
if [ -n "$THROTTLE" ]; then
	CG=/sys/fs/cgroup/blkio/qdsweep-settle.$$
	mkdir "$CG"
	echo "$(cat "/sys/block/$(basename "$dev")/dev") $THROTTLE" >"$CG/blkio.throttle.read_iops_device"
	# Each sweep joins the group before it starts: its reads of the device are held to the rate.
	wrap=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG")
	target="$target, reads throttled to $THROTTLE IOPS by a cgroup v1 blkio group (blkio.throttle.read_iops_device)"
fi

echo "Linux $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start, $(date -u +%Y-%m-%dT%H:%MZ)."
echo "Target: $target."
echo

# run KIND I: one sweep, its results in $TMP/KIND.I, its wall time and load in $TMP/KIND.I.meta
run() {
	local kind=$1 i=$2 args=()
	[ "$kind" = settled ] || args=(--ss=0 --runtime=3 --ramp_time=0.5)
	local out="$TMP/$kind.$i" load t0 t1
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	if ! (cd "$WORK" && "${wrap[@]}" "$BIN" sweep "${common[@]}" "${args[@]}" --output "$out" >"$out.log" 2>&1); then
		echo "sweep-settle-vs-fixed: the $kind sweep of pair $i failed:" >&2
		tail -5 "$out.log" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	echo "$t0 $t1 $load" >"$out.meta"
}
for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) = 1 ]; then order="settled fixed"; else order="fixed settled"; fi
	if [ "$CONTROL" = 1 ]; then
		if [ $((i % 2)) = 1 ]; then order="fixed control settled"; else order="settled fixed control"; fi
	fi
	for kind in $order; do
		run "$kind" "$i"
		echo "pair $i: $kind sweep done ($(cut -d' ' -f1,2 "$TMP/$kind.$i.meta" | awk '{printf "%.1f s", $2-$1}'))" >&2
	done
done

python3 - "$BIN" "$TMP" "$PAIRS" "$CONTROL" <<'PY'
import datetime, json, statistics, subprocess, sys

qd_bin, tmp, pairs, control = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"

def stamp(s):
    # RFC 3339 with nanoseconds: keep microseconds for fromisoformat.
    head, _, frac = s.rstrip("Z").partition(".")
    return datetime.datetime.fromisoformat(head + "." + (frac + "000000")[:6]).replace(tzinfo=datetime.timezone.utc).timestamp()

def load(kind, i):
    d = f"{tmp}/{kind}.{i}"
    r = json.load(open(f"{d}/results.json"))
    t0, t1, la = (float(x) for x in open(d + ".meta").read().split())
    steps = [s for s in r["steps"] if s.get("series")]
    runs = steps + ([r["control"]] if r.get("control") and r["control"].get("series") else [])
    ios = sum(iv["ios"] for s in runs for part in ("ramp", "points") for iv in (s["series"].get(part) or []))
    # A step measured again keeps what its first measurement completed.
    ios += sum((s.get("settle") or {}).get("first_ios", 0) for s in runs)
    a = r["analysis"][0]["analysis"]
    sat = a.get("saturation") or {}
    rules = ",".join(sorted(d["rule"] for d in r.get("diagnosis") or [])) or "–"
    m = r["meta"]
    return dict(dir=d, wall=t1 - t0, steps_s=stamp(m["end"]) - stamp(m["start"]), ios=ios,
                sat="%g" % sat["qd"] if sat.get("found") else "none", max_iops=a.get("max_iops", 0),
                rules=rules, load=la, r=r)

def advise(d, target):
    p = subprocess.run([qd_bin, "advise", "--from", d, "--target-iops", str(target), "--output-format=json"],
                       capture_output=True, text=True)
    try:
        q = json.loads(p.stdout).get("queue_depth")
    except ValueError:
        return "–"
    return "%g" % q if q else "–"

def near(x, y):
    if "–" in (x, y):
        return x == y
    x, y = float(x), float(y)
    return abs(x - y) <= max(1, 0.2 * max(x, y))

def fields(a, b):
    # Each answer on its own: saturation QD, the three depths, the diagnosis.
    return [a["sat"] == b["sat"]] + [near(x, y) for x, y in zip(a["depths"], b["depths"])] + [a["rules"] == b["rules"]]

def agree(a, b):
    return all(fields(a, b))

rows, agreed, controls, both = [], 0, 0, 0
for i in range(1, pairs + 1):
    s, f = load("settled", i), load("fixed", i)
    c = load("control", i) if control else None
    targets = [round(f["max_iops"] * k / 4) for k in (1, 2, 3)]
    for x in (s, f, c):
        if x:
            x["depths"] = [advise(x["dir"], t) for t in targets]
    ok = agree(s, f)
    agreed += ok
    if c:
        c["agrees"] = agree(c, f)
        controls += c["agrees"]
        both += c["agrees"] and ok
    rows.append((i, s, f, c, targets, ok))

print("| pair | sweep | wall s | steps s | I/Os issued | saturation QD | depths for 25/50/75 % of the fixed sweep's highest IOPS | diagnosis | agrees | load |")
print("|---:|---|---:|---:|---:|---:|---|---|---|---:|")
for i, s, f, c, targets, ok in rows:
    for x, name in ((s, "default"), (f, "fixed 3 s"), (c, "control: fixed 3 s")):
        if not x:
            continue
        depths = " ".join(x["depths"]) + (f" (of {' '.join(str(t) for t in targets)} IOPS)" if x is s else "")
        agrees = ("yes" if ok else "no") if x is s else ("yes" if x["agrees"] else "no") if x is c else ""
        print(f"| {i} | {name} | {x['wall']:.1f} | {x['steps_s']:.1f} | {x['ios']:,} | {x['sat']} | {depths} | {x['rules']} | {agrees} | {x['load']:.2f} |")
print()
med = lambda xs: statistics.median(xs)
S = [s for _, s, _, _, _, _ in rows]
F = [f for _, _, f, _, _, _ in rows]
print(f"Medians of the {pairs}: default {med([x['wall'] for x in S]):.1f} s wall ({min(x['wall'] for x in S):.1f}–{max(x['wall'] for x in S):.1f}), "
      f"{med([x['steps_s'] for x in S]):.1f} s of steps, {med([x['ios'] for x in S]):,.0f} I/Os; "
      f"fixed 3 s steps {med([x['wall'] for x in F]):.1f} s wall ({min(x['wall'] for x in F):.1f}–{max(x['wall'] for x in F):.1f}), "
      f"{med([x['steps_s'] for x in F]):.1f} s of steps, {med([x['ios'] for x in F]):,.0f} I/Os. "
      f"The pairs agree on saturation QD, the three depths and the diagnosis in {agreed} of {pairs}." +
      (f" The control (a second fixed sweep) agrees with the fixed sweep in {controls} of {pairs}; "
       f"in the {controls} pairs whose fixed sweeps agree, the default agrees in {both}." if control else ""))
print()
print("Where each default sweep's time went: per step, its window and ramp in ms and what ended it")
print("(d: its decision, settled at 95 %; r: the same, the curve still rising, from 0.3 s; f: the same,")
print("the pair flat, from 1 s, one of the two flat steps that end the curve; p: its mean known to ±2 %;")
print("u: undecidable, its decision and precision open at its cap at its spread, from 1 s; l: held by a")
print("start-up lead, then the slope rule or --runtime; –: the slope rule or --runtime; *: its first")
print("100 ms stood above its level, settle.lead); C is the control step (d: its held/changed verdict")
print("settled at 95 %). A step measured again shows its first measurement's ramp and window in ms")
print("and why (fell: the next deeper step fell clear below it; lead: its own start-up burst; before:")
print("its burst judged against a step before that was measured again; top: the curve's most IOPS,")
print("its last step more than 5 % below as the curve ended), then its kept measurement.")
print()
width = max(len([s for s in x["r"]["steps"] if s.get("series")]) for x in S)
qds = []
for x in S:
    for s in x["r"]["steps"]:
        if s.get("series") and s["qd"] not in qds:
            qds.append(s["qd"])
qds.sort()
print("| pair | " + " | ".join(f"QD {q}" for q in qds) + " | C | steps + ramps s |")
print("|---:|" + "---|" * (len(qds) + 2))
def cell(s):
    st = s.get("settle") or {}
    by = {"decision": "r" if st.get("rising") else "f" if st.get("flat") else "d", "precision": "p",
          "undecidable": "u"}.get(st.get("by"), "l" if st.get("lead_held") else "–")
    if st.get("lead"):
        by += "*"
    first = f"{st['first_ns'] / 1e6:.0f} {st.get('again', '')}, then " if st.get("first_ns") else ""
    return f"{first}{s.get('runtime_ns', 0) / 1e6:.0f}+{s.get('ramp_ns', 0) / 1e6:.0f} {by}"
for i, x in enumerate(S, 1):
    by_qd = {s["qd"]: s for s in x["r"]["steps"] if s.get("series")}
    c = x["r"].get("control") or {}
    runs = list(by_qd.values()) + ([c] if c.get("series") else [])
    total = sum(s.get("runtime_ns", 0) + s.get("ramp_ns", 0) + (s.get("settle") or {}).get("first_ns", 0) for s in runs) / 1e9
    print(f"| {i} | " + " | ".join(cell(by_qd[q]) if q in by_qd else "" for q in qds) +
          f" | {cell(c) if c.get('series') else ''} | {total:.1f} |")
if control:
    # Answer by answer: how often the default agrees with the fixed sweep,
    # against how often a second fixed sweep does. Where the two counts
    # are alike, the default's rule loses nothing a fixed sweep keeps.
    names = ["saturation QD", "depth for 25 %", "depth for 50 %", "depth for 75 %", "diagnosis"]
    d = [fields(s, f) for _, s, f, _, _, _ in rows]
    k = [fields(c, f) for _, _, f, c, _, _ in rows]
    print()
    print("Each answer against the fixed sweep's, pairs of " + str(pairs) + " agreeing (depths within 1 I/O or 20 %):")
    print()
    print("| answer | default | control (a second fixed sweep) |")
    print("|---|---:|---:|")
    for j, n in enumerate(names):
        print(f"| {n} | {sum(x[j] for x in d)} | {sum(x[j] for x in k)} |")
PY
echo
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(date -u +%Y-%m-%dT%H:%MZ)."
