#!/bin/sh
# Sweeps 4k random reads with fio at iodepth 1, 4, 16 and 64, one JSON file
# per depth, then turns them into a qdsweep result:
#
#   sh run-fio-sweep.sh && qdsweep import fio --output fio-import fio-qd*.json
#
# Runs about 12 s on a 256 MiB scratch file in the current directory.
set -eu
for qd in 1 4 16 64; do
	fio --name=randread-qd$qd --filename=fio.scratch --size=256m \
		--rw=randread --bs=4k --direct=1 --ioengine=io_uring \
		--iodepth=$qd --numjobs=1 --time_based --runtime=2 --ramp_time=0.5 \
		--randseed=1 --output-format=json --output=fio-qd$qd.json
done
rm -f fio.scratch
