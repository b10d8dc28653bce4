#!/usr/bin/env python3
"""`ackclock tcl` vs `ns` on the same ns-2 script, side by side in one run.

    python3 benchmarks/tcl_vs_ns2.py [--repeat 3] [--skip-trace] [ARGS...]

Runs the seed chapter's basic2.tcl unmodified under both simulators with ARGS
(default `0 0.002 8.0 3000`: delayB 0, overhead_ 2 ms, an 8 Mbit/s bottleneck,
3000 simulated seconds, sec. 16.3.10), in scratch directories, interleaved:
both with the script's trace-all (a ~1.8 GB trace each; --skip-trace leaves
these out), then both on a copy with the trace output disabled (the same copy
benchmarks/dumbbell_vs_ns2.py makes). Prints each run's output line (recv0
recv1 ...), wall time and peak RSS, the median of --repeat runs and the
ratio ns-2 / ackclock. Installs ns2 and GNU time with apt-get if missing.

With overhead_ > 0 the two runs are not the same random experiment: each
simulator draws its own random send delays, so the counts differ by chance
(ns-2's own sequence is only reproducible by ns-2).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile

from dumbbell_vs_ns2 import BASIC2, ensure_tools, log, measure, write_notrace_copy


def ackclock_command() -> list[str]:
    return [sys.executable, "-m", "ackclock", "tcl"]


def run(simulator: str, script: str, args: list[str], workdir: str) -> tuple[str, float, int]:
    command = ["ns"] if simulator == "ns-2" else ackclock_command()
    stdout, wall, peak_kib = measure(command + [script] + args, workdir)
    for leftover in ("basic2.tr",):
        path = os.path.join(workdir, leftover)
        if os.path.exists(path):
            os.remove(path)
    return stdout.strip().splitlines()[-1], wall, peak_kib


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-trace", action="store_true", help="only the untraced copies")
    ap.add_argument("args", nargs="*", default=["0", "0.002", "8.0", "3000"])
    opts = ap.parse_args()
    ensure_tools()
    variants = [("basic2.tcl", "trace-all")] if not opts.skip_trace else []
    variants.append(("basic2-notrace.tcl", "no trace"))
    results: dict[tuple[str, str], list[tuple[str, float, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="tcl-bench-") as workdir:
        shutil.copy(BASIC2, workdir)
        write_notrace_copy(os.path.join(workdir, "basic2-notrace.tcl"))
        for attempt in range(opts.repeat):
            for script, label in variants:
                for simulator in ("ackclock", "ns-2"):
                    line, wall, rss = run(simulator, script, opts.args, workdir)
                    results.setdefault((label, simulator), []).append((line, wall, rss))
                    log(
                        f"run {attempt + 1} {label:9} {simulator:8} {wall:7.2f} s "
                        f"{rss / 1024:6.1f} MiB  {line}"
                    )
    log(f"\nbasic2.tcl {' '.join(opts.args)}: median of {opts.repeat} runs")
    log(f"{'trace':9} {'simulator':9} {'wall s':>8} {'peak MiB':>9}  output (last run)")
    for (label, simulator), runs in results.items():
        wall = statistics.median(r[1] for r in runs)
        rss = statistics.median(r[2] for r in runs) / 1024
        log(f"{label:9} {simulator:9} {wall:8.2f} {rss:9.1f}  {runs[-1][0]}")
    for _, label in variants:
        ns2 = statistics.median(r[1] for r in results[(label, "ns-2")])
        ours = statistics.median(r[1] for r in results[(label, "ackclock")])
        log(f"{label}: ackclock is {ns2 / ours:.1f}x faster than ns-2")


if __name__ == "__main__":
    main()
