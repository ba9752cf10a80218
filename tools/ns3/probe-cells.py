#!/usr/bin/env python3
"""Compares SyncSim's transfer with ns-3's on arbitrary cells, over many seeds.

usage: probe-cells.py SYNCSIM_BENCH [NS3_PROGRAM] [--seeds N] [--cell "BYTES DOWN UP ONE_WAY LOSS [QUEUE]"]...

For each cell runs `SYNCSIM_BENCH transfer ... SEED` and `NS3_PROGRAM ... SEED` for seeds 1..N (default 60) and
prints both medians, their ratio, p10/p90 and the two-sample Kolmogorov-Smirnov statistic D with its critical
value at 5%. Without --cell it runs the nine cells of docs/fidelity.md, "Other cells (branch fid8)"."""
import argparse, statistics, subprocess
from concurrent.futures import ThreadPoolExecutor

parser = argparse.ArgumentParser()
parser.add_argument("bench")
parser.add_argument("ns3", nargs="?", default="/tmp/ns3-transfer")
parser.add_argument("--seeds", type=int, default=60)
parser.add_argument("--cell", action="append")
args = parser.parse_args()
cells = args.cell or [
    "300000 96 96 300 0", "50000 14.4 9.6 700 0.02", "1000000 10000 2000 300 0", "1000000 10000 2000 300 0.02",
    "500000 30000 15000 1 0.05", "200000 1000 500 50 0.10", "300000 500 100 150 0.01 10",
    "2000000 50000 10000 20 0.005", "100000 64 32 1000 0.03",
]

def run(cmd):
    return float(subprocess.run(["nice", "-n", "10", *cmd], capture_output=True, text=True).stdout.split()[0])

def quantile(xs, p):
    xs = sorted(xs); k = (len(xs) - 1) * p; f = int(k); c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)

def ks(a, b):
    return max(abs(sum(v <= x for v in a) / len(a) - sum(v <= x for v in b) / len(b)) for x in set(a + b))

n = args.seeds
with ThreadPoolExecutor(2) as pool:
    for cell in cells:
        a = cell.split()
        ours = list(pool.map(lambda s: run([args.bench, "transfer", *a[:5], str(s), *a[5:]]), range(1, n + 1)))
        ns3 = list(pool.map(lambda s: run([args.ns3, *a[:5], str(s), *a[5:]]), range(1, n + 1)))
        mo, mn = statistics.median(ours), statistics.median(ns3)
        crit = 1.358 * (2 / n) ** 0.5
        print(f"{cell:32s} ours {mo:9.1f} ns-3 {mn:9.1f} ratio {mo / mn:5.2f}  p10/p90 ours "
              f"{quantile(ours, .1):.0f}/{quantile(ours, .9):.0f} ns-3 {quantile(ns3, .1):.0f}/{quantile(ns3, .9):.0f}"
              f"  KS D {ks(ours, ns3):.3f} (critical {crit:.3f})", flush=True)
