#!/usr/bin/env python3
"""Seed 003 sec. 16.3.8, overhead against telnet, under ns-2 2.35 and ackclock.

A few points of `ackclock experiment overhead-vs-telnet`'s grid, on the
experiment's own script (basic2-telnet.tcl: basic2.tcl with a telnet
connection beside each bulk one, made by ackclock.experiments.chapter.basic2)
and arguments (DELAYB OVERHEAD 0.8 END 20 DENSITY), for END 1000 (the quick
version) and 3000 s (the chapter's), each for seeds 1..N of ns-2's default
generator: the line `$defaultRNG seed N` goes in front of the script, the
same text for both simulators (ackclock tcl seeds its own streams from it).
overhead_ draws from ns-2's generator, which ackclock reproduces, so an
overhead point should be the same run under both; telnet's intervals come
from ackclock's own streams, so a telnet point compares over the seeds.

    python3 benchmarks/ns2/overhead_telnet.py record  [--seeds N] [--jobs N]
    python3 benchmarks/ns2/overhead_telnet.py compare [--seeds N] [--jobs N]

`record` runs ns-2 and writes tests/fixtures/ns2_overhead_telnet.json (the
experiment's report and the tests need no ns-2); `compare` runs `ackclock
tcl` on the same points and seeds and prints ratio1 of both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ackclock.experiments.chapter.basic2 import TELNET, TELNET_AFTER
from reno_vegas import run, script

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "ns2_overhead_telnet.json"
# (curve, density or overhead, delayB): telnet at the chapter's agreeing 1%, overhead 0.015.
POINTS = (
    ("telnet", 0.01, 0),
    ("telnet", 0.01, 100),
    ("telnet", 0.01, 200),
    ("overhead", 0.015, 100),
    ("overhead", 0.015, 200),
)
ENDS = (1000, 3000)
RTT_NO_LOAD_MS = 220


def one_run(command: list[str], curve: str, value: float, delay: int, end: int, seed: int):
    """recv0 and recv1 of one run."""
    text = f"global defaultRNG\n$defaultRNG seed {seed}\n" + script(
        "basic2.tcl", {TELNET_AFTER: TELNET_AFTER + TELNET}
    )
    density, overhead = (value, 0.0) if curve == "telnet" else (0.0, value)
    fields = run(command, text, [str(delay), str(overhead), "0.8", str(end), "20", str(density)])
    return [int(fields[2]), int(fields[3])]


def points(command: list[str], seeds: int, jobs: int) -> list[dict]:
    """Every point and end time with [recv0, recv1] per seed."""
    keys = [(*point, end) for point in POINTS for end in ENDS]
    runs = [(*key, seed) for key in keys for seed in range(1, seeds + 1)]
    with ThreadPoolExecutor(jobs) as pool:
        recv = list(pool.map(lambda r: one_run(command, *r), runs))
    return [
        {
            "curve": curve,
            "value": value,
            "delayB": delay,
            "end": end,
            "recv": recv[i * seeds : (i + 1) * seeds],
        }
        for i, (curve, value, delay, end) in enumerate(keys)
    ]


def ratio1(point: dict) -> list[float]:
    rtt_ratio = (2 * point["delayB"] + RTT_NO_LOAD_MS) / RTT_NO_LOAD_MS
    return [recv0 / recv1 / rtt_ratio for recv0, recv1 in point["recv"]]


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("action", choices=["record", "compare"])
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    if args.action == "record":
        document = {"points": points(["ns"], args.seeds, args.jobs)}
        FIXTURE.write_text(json.dumps(document, indent=1) + "\n")
        print(f"wrote {FIXTURE}")
        return
    ns2 = json.loads(FIXTURE.read_text())["points"]
    ours = points([sys.executable, "-m", "ackclock", "tcl"], args.seeds, args.jobs)
    print("ratio1: seed 1, mean and min-max over the seeds, ns-2 then ackclock")
    for theirs, mine in zip(ns2, ours):
        a, b = ratio1(theirs)[: args.seeds], ratio1(mine)
        same = sum(x == y for x, y in zip(theirs["recv"], mine["recv"]))
        print(
            f"{theirs['curve']:8s} {theirs['value']:<6g} delayB {theirs['delayB']:3d} "
            f"{theirs['end']:4d} s  ns-2 {a[0]:.3f} {statistics.mean(a):.3f} "
            f"({min(a):.3f}-{max(a):.3f})  ackclock {b[0]:.3f} {statistics.mean(b):.3f} "
            f"({min(b):.3f}-{max(b):.3f})  same runs {same}/{len(b)}"
        )


if __name__ == "__main__":
    main()
