#!/usr/bin/env bash
# sweep-settle-vs-fixed.sh — the default `qdsweep sweep` (steps that end once
# their decisions are settled, ramps that end once the queue is full) against
# a sweep of fixed steps over the same grid (--ss=0: 0.5 s ramps, 3 s
# windows), alternating, in a scratch directory on the disk under test.
# Prints per pair each one's wall time, the I/Os it issued (ramps, windows and
# the control step, from results.json's slices), its saturation QD, the depth
# it advises for three targets (a quarter, half and three quarters of the
# fixed sweep's highest IOPS) and its diagnosis, and whether they agree
# (the same saturation QD and diagnosis, depths within 1 I/O or 20 %).
#
# Usage: bench/sweep-settle-vs-fixed.sh [-p PAIRS] [-d DIR] [-b QDSWEEP]
set -euo pipefail
PAIRS=5
DIR=.
BIN=
while getopts "p:d:b:h" opt; do
	case $opt in
	p) PAIRS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	b) BIN=$OPTARG ;;
	*) sed -n '2,12p' "$0"; exit 2 ;;
	esac
done
TMP=$(mktemp -d)
WORK=$(mktemp -d "$DIR/qdsweep-settle.XXXXXX")
trap 'rm -rf "$TMP" "$WORK"' EXIT
if [ -z "$BIN" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$TMP/qdsweep" ./cmd/qdsweep)
	BIN="$TMP/qdsweep"
fi
echo "Linux $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start, $(date -u +%Y-%m-%dT%H:%MZ)."
echo
echo "| pair | sweep | wall s | I/Os issued | saturation QD | depths for 25/50/75 % | diagnosis | agrees |"
echo "|---:|---|---:|---:|---:|---|---|---|"
# summary DIR → "IOS SATQD MAXIOPS RULES"
summary() {
	python3 - "$1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
steps = [s for s in r["steps"] if s.get("series")]
if r.get("control") and r["control"].get("series"):
    steps.append(r["control"])
ios = sum(iv["ios"] for s in steps for part in ("ramp", "points") for iv in (s["series"].get(part) or []))
a = r["analysis"][0]["analysis"]
sat = a["saturation"]
rules = ",".join(sorted(d["rule"] for d in r.get("diagnosis") or [])) or "-"
print(ios, "%g" % sat["qd"] if sat.get("found") else "none", "%.0f" % a.get("max_iops", 0), rules)
PY
}
# depths DIR T1 T2 T3 → "d1 d2 d3"
depths() {
	local out=() d
	for t in "$2" "$3" "$4"; do
		d=$("$BIN" advise --from "$1" --target-iops "$t" --output-format=json 2>/dev/null |
			python3 -c 'import json,sys; print("%g" % json.load(sys.stdin).get("queue_depth", 0))' 2>/dev/null) || d=-
		out+=("$d")
	done
	echo "${out[@]}"
}
agree() { # satA satB rulesA rulesB "dA…" "dB…" → yes/no
	python3 - "$@" <<'PY'
import sys
sa, sb, ra, rb, da, db = sys.argv[1:]
ok = sa == sb and ra == rb
for x, y in zip(da.split(), db.split()):
    if "-" in (x, y):
        ok = ok and x == y
        continue
    x, y = float(x), float(y)
    ok = ok and abs(x - y) <= max(1, 0.2 * max(x, y))
print("yes" if ok else "no")
PY
}
for i in $(seq 1 "$PAIRS"); do
	for kind in settled fixed; do
		out="$TMP/$kind$i"
		args=()
		[ "$kind" = fixed ] && args=(--ss=0 --runtime=3 --ramp_time=0.5)
		t0=$(date +%s.%N)
		(cd "$WORK" && "$BIN" sweep "${args[@]}" --output "$out" >/dev/null 2>&1)
		t1=$(date +%s.%N)
		eval "wall_$kind=$(python3 -c "print('%.1f' % ($t1 - $t0))")"
		read -r ios sat maxiops rules < <(summary "$out")
		eval "ios_$kind=$ios sat_$kind=$sat max_$kind=$maxiops rules_$kind=$rules"
	done
	read -r t1 t2 t3 < <(python3 -c "m=$max_fixed; print(round(m/4), round(m/2), round(3*m/4))")
	dS=$(depths "$TMP/settled$i" "$t1" "$t2" "$t3")
	dF=$(depths "$TMP/fixed$i" "$t1" "$t2" "$t3")
	ok=$(agree "$sat_settled" "$sat_fixed" "$rules_settled" "$rules_fixed" "$dS" "$dF")
	echo "| $i | default | $wall_settled | $ios_settled | $sat_settled | $dS (of $t1 $t2 $t3 IOPS) | $rules_settled | $ok |"
	echo "| $i | fixed 3 s | $wall_fixed | $ios_fixed | $sat_fixed | $dF | $rules_fixed | |"
done
echo
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(date -u +%Y-%m-%dT%H:%MZ)."
