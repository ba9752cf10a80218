#!/usr/bin/env python3
"""The capture round trip over the catalog (docs/roundtrip.md).

For every catalog scenario and pinned seed: run it with --pcap, emit a scenario from the capture
(`syncsim replay CAPTURE --run`), and run both the original and the emitted scenario against the reference engine
and every mutant. Prints a Markdown table (scenario x mutant: original/emitted verdict, P pass, F fail, E error; a lone verdict
where the original passes and the emitted run was skipped), the agreement and the
misses.

Agreement = (pairs where the original catches the mutant and the emitted scenario does too, while passing with the
reference engine) / (pairs where the original catches it), over (scenario, seed, mutant); separately, every emitted
scenario must pass with the reference engine when its original does.

usage: scripts/roundtrip.py [--syncsim PATH] [--jobs N] [--only NAME ...] > table.md
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile


def verdict(command):
    """Runs a syncsim command with --json; returns ('pass'|'fail'|'error', first violation)."""
    done = subprocess.run(command + ["--json"], capture_output=True, text=True)
    if done.returncode == 2:
        return "error", (done.stderr.strip().splitlines() or ["?"])[-1]
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            run = json.loads(line)
            first = run["violations"][0] if run["violations"] else None
            what = None
            if first:
                what = first.get("check") or first.get("description") or str(first)
            return run["verdict"], what
    return "error", done.stderr.strip()[-200:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--syncsim", default=".build/release/syncsim")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--seeds-per-scenario", type=int, default=None,
                        help="only the first N pinned seeds of each scenario (a quicker table)")
    args = parser.parse_args()
    syncsim = args.syncsim
    listing = json.loads(subprocess.run([syncsim, "list", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
    mutants = [line.split()[0] for line in subprocess.run([syncsim, "list", "--mutants"], capture_output=True,
                                                            text=True, check=True).stdout.splitlines()
               if line and not line.startswith(" ")]
    scenarios = [(entry["name"], entry["seeds"][:args.seeds_per_scenario]) for entry in listing
                 if args.only is None or entry["name"] in args.only]
    workdir = tempfile.mkdtemp(prefix="syncsim-roundtrip-")
    jobs = []
    for name, seeds in scenarios:
        for seed in seeds:
            jobs.append((name, seed))

    def one(job):
        name, seed = job
        pcap = os.path.join(workdir, f"{name}-{seed}.pcapng")
        made = subprocess.run([syncsim, "run", name, "--seed", str(seed), "--pcap", pcap], capture_output=True,
                              text=True)
        row = {}
        for mutant in [None] + mutants:
            extra = ["--mutant", mutant] if mutant else []
            original = verdict([syncsim, "run", name, "--seed", str(seed)] + extra)
            if made.returncode == 2 or not os.path.exists(pcap):
                emitted = ("error", "no capture")
            elif mutant and original[0] != "fail":
                # Only pairs the original catches count for agreement: the emitted run is skipped.
                emitted = ("-", None)
            else:
                emitted = verdict([syncsim, "replay", pcap, "--run", "--seed", str(seed)] + extra)
            row[mutant or "reference"] = (original, emitted)
        print(f"done {name} seed {seed}", file=sys.stderr, flush=True)
        return job, row

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = dict(pool.map(one, jobs))

    caught = agreed = 0
    reference_fails = []
    misses = []
    print("| scenario | seed | " + " | ".join(["reference"] + mutants) + " |")
    print("|---|---|" + "---|" * (len(mutants) + 1))
    for (name, seed), row in results.items():
        cells = []
        # An emitted scenario that fails with the reference engine fails with every engine: its failures with a
        # mutant are no catch.
        emitted_sound = row["reference"][1][0] == "pass"
        for key in ["reference"] + mutants:
            (original, why_o), (emitted, why_e) = row[key]
            cells.append(f"{original[0].upper()}/{emitted[0].upper()}" if emitted != "-" else original[0].upper())
            if key == "reference":
                if original == "pass" and emitted != "pass":
                    reference_fails.append(f"{name} seed {seed}: emitted {emitted} with the reference ({why_e})")
            elif original == "fail":
                caught += 1
                if emitted == "fail" and emitted_sound:
                    agreed += 1
                elif emitted == "fail":
                    misses.append(f"{name} seed {seed} x {key}: original fails ({why_o}), emitted fails with the "
                                  "reference engine too")
                else:
                    misses.append(f"{name} seed {seed} x {key}: original fails ({why_o}), emitted {emitted}"
                                  + (f" ({why_e})" if why_e else ""))
        print(f"| {name} | {seed} | " + " | ".join(cells) + " |")
    print()
    share = 100.0 * agreed / caught if caught else 100.0
    print(f"agreement: {agreed} of {caught} caught (scenario, seed, mutant) triples = {share:.1f}%")
    print(f"emitted scenarios failing with the reference engine: {len(reference_fails)}")
    for line in reference_fails:
        print(f"- {line}")
    print()
    print("misses:")
    for line in misses:
        print(f"- {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
