#!/usr/bin/env python3
"""ab.py — two qdsweep builds and fio, alternating on one file: A → B → fio per round.

Usage: bench/ab.py -a BIN_A -b BIN_B -f FILE [-r SECONDS] [-n ROUNDS] [SHAPE ...]
  SHAPE is ENGINE:IODEPTHxNUMJOBS (default io_uring:1x1 io_uring:16x1 io_uring:128x1
  io_uring:1x16 io_uring:4x8 io_uring:32x8). FILE must be laid out already (1 GiB or more),
  e.g. with `qdsweep run --filename=FILE --size=1g --runtime=0.1`.
Prints, per shape and program, the median IOPS, in flight (fio: IOPS × mean lat), CPU
seconds per million I/Os (user + system of the process and its children) and mean latency,
with the same options as fio-vs-qdsweep.sh: 4k randread, direct=1, time-based.
"""
import argparse, json, os, statistics, subprocess

p = argparse.ArgumentParser()
p.add_argument("-a", required=True)
p.add_argument("-b", required=True)
p.add_argument("-f", required=True)
p.add_argument("-r", type=float, default=4)
p.add_argument("-n", type=int, default=3)
p.add_argument("shapes", nargs="*", default=["io_uring:1x1", "io_uring:16x1", "io_uring:128x1",
                                             "io_uring:1x16", "io_uring:4x8", "io_uring:32x8"])
o = p.parse_args()

def common(eng, qd, nj):
    return [f"--filename={o.f}", f"--ioengine={eng}", "--direct=1", "--rw=randread", "--bs=4k",
            f"--iodepth={qd}", f"--numjobs={nj}", f"--runtime={o.r}", "--time_based", "--size=1g",
            "--output-format=json"]

def timed(argv):
    before = os.times()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return json.loads(out[out.index("{"):]), cpu

def qdsweep(binary, eng, qd, nj):
    d, cpu = timed([binary, "run", "--ramp_time=0"] + common(eng, qd, nj) + ["--output-format=qdsweep-json"])
    return d["iops"], d["inflight_mean"], cpu / d["total_ios"] * 1e6, d["lat_ns"]["mean"] / 1e3

def fio(eng, qd, nj):
    d, cpu = timed(["fio", "--name=ab", "--time_based", "--group_reporting", "--norandommap",
                    "--randrepeat=0"] + common(eng, qd, nj))
    r = d["jobs"][0]["read"]
    return r["iops"], r["iops"] * r["lat_ns"]["mean"] / 1e9, cpu / r["total_ios"] * 1e6, r["lat_ns"]["mean"] / 1e3

for shape in o.shapes:
    eng, split = shape.split(":")
    qd, nj = (int(x) for x in split.split("x"))
    res = {"A": [], "B": [], "fio": []}
    for _ in range(o.n):
        res["A"].append(qdsweep(o.a, eng, qd, nj))
        res["B"].append(qdsweep(o.b, eng, qd, nj))
        res["fio"].append(fio(eng, qd, nj))
    for k, v in res.items():
        m = [statistics.median(x[i] for x in v) for i in range(4)]
        print(f"{eng} {qd}x{nj} {k:3} IOPS {m[0]:7.0f}  in flight {m[1]:7.2f}  CPU s/MIO {m[2]:5.2f}  "
              f"lat µs {m[3]:7.1f}  rounds {[round(x[0]) for x in v]}", flush=True)
