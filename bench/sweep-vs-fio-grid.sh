#!/usr/bin/env bash
# sweep-vs-fio-grid.sh — the default `qdsweep sweep` against an exhaustive fio
# grid of 3 s steps (QD 1 2 4 … 256, io_uring, 4k randread, direct) on the
# same 1 GiB file, alternating; prints each one's wall time and saturation QD
# (the fio grid read through `qdsweep import fio`).
#
# Usage: bench/sweep-vs-fio-grid.sh [-p PAIRS] [-d DIR] [-b QDSWEEP]
set -euo pipefail
PAIRS=3
DIR=.
BIN=
while getopts "p:d:b:h" opt; do
	case $opt in
	p) PAIRS=$OPTARG ;;
	d) DIR=$OPTARG ;;
	b) BIN=$OPTARG ;;
	*) sed -n '2,8p' "$0"; exit 2 ;;
	esac
done
command -v fio >/dev/null || { echo "sweep-vs-fio-grid: fio is not installed" >&2; exit 1; }
TMP=$(mktemp -d)
FILE="$DIR/qdsweep-grid.dat"
trap 'rm -rf "$TMP"; rm -f "$FILE"' EXIT
if [ -z "$BIN" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$TMP/qdsweep" ./cmd/qdsweep)
	BIN="$TMP/qdsweep"
fi
"$BIN" run --filename="$FILE" --size=1g --runtime=0.1 >/dev/null 2>&1
echo "Linux $(uname -r), $(nproc) CPUs, $(fio --version), load average $(cut -d' ' -f1-3 /proc/loadavg) at start, $(date -u +%Y-%m-%dT%H:%MZ)."
echo
echo "| pair | qdsweep sweep s | qdsweep saturation QD | qdsweep IOPS there | fio grid s | fio grid saturation QD | fio IOPS there |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
sat() { # results.json → "QD IOPS" of the first curve's saturation knee (or "none -")
	python3 - "$1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["analysis"][0]["analysis"]["saturation"]
print("%g %.0f" % (a["qd"], a["iops"]) if a.get("found") else "none -")
PY
}
for i in $(seq 1 "$PAIRS"); do
	out="$TMP/sweep$i"
	t0=$(date +%s.%N)
	"$BIN" sweep --filename="$FILE" --allow-write --output "$out" >/dev/null 2>&1
	t1=$(date +%s.%N)
	read -r qsat qiops < <(sat "$out/results.json")
	files=()
	t2=$(date +%s.%N)
	for qd in 1 2 4 8 16 32 64 128 256; do
		f="$TMP/fio$i-qd$qd.json"
		fio --name=grid --filename="$FILE" --ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=$qd \
			--runtime=3 --time_based --ramp_time=0.5 --norandommap --randrepeat=0 --output-format=json >"$f" 2>/dev/null
		files+=("$f")
	done
	t3=$(date +%s.%N)
	"$BIN" import fio --output "$TMP/imp$i" "${files[@]}" >/dev/null 2>&1
	read -r fsat fiops < <(sat "$TMP/imp$i/results.json")
	printf "| %d | %.1f | %s | %s | %.1f | %s | %s |\n" "$i" "$(python3 -c "print($t1 - $t0)")" "$qsat" "$qiops" "$(python3 -c "print($t3 - $t2)")" "$fsat" "$fiops"
done
echo
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(date -u +%Y-%m-%dT%H:%MZ)."
