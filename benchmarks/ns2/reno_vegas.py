#!/usr/bin/env python3
"""TCP Vegas under ns-2 2.35 and ackclock.

* Seed 003 sec. 16.5, Reno against Vegas: renovegas.tcl (basic2.tcl with the
  second sender a Vegas with alpha 3 and beta 6, or Vegas's defaults 1 and 3)
  with bottleneckBW 8.0 and overhead_ 0.002 for queue sizes 10 to 220, each
  with several seeds of the default generator. The overhead_ makes each run a
  random draw: seed 1 (ns-2's default) gives a Reno/Vegas ratio of 1.085 at
  queue 20 with alpha 3, other seeds 0.93 to 1.08.
* One Vegas flow, deterministic: basic1.tcl (seed 003 sec. 16.2) with its sender
  an Agent/TCP/Vegas of 1000-byte packets, for queue limits that lose packets
  (3, 5) and one that does not (7), 10 and 100 s; each run reports the sender's
  ack_, maxseq_, cwnd_, nrexmitpack_ and nrexmit_ and the sink's bytes_.

    python3 benchmarks/ns2/reno_vegas.py record  [--seeds N] [--jobs N]
    python3 benchmarks/ns2/reno_vegas.py compare [--seeds N] [--jobs N]

`record` runs ns-2 and writes tests/fixtures/ns2_vegas.json (the tests need no
ns-2); `compare` runs `ackclock tcl` on the same points and prints, per queue
size, the Reno/Vegas goodput ratio of each (median and spread over the seeds),
and the single-flow runs side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent.parent / "tests" / "fixtures" / "ns2_vegas.json"
QUEUES = tuple(range(10, 221, 10))
ARGS = ("0", "0.002", "8.0", "300")  # delayB, overhead, bottleneckBW, endtime
ALPHA_BETA = ((3, 6), (1, 3))  # renovegas.tcl's, and Vegas's defaults


# One Vegas flow: basic1.tcl's queue limit and end time.
SINGLE = tuple((queue, end) for queue in (3, 5, 7) for end in (10, 100))
BASIC1_VEGAS = {
    "set tcp0 [new Agent/TCP/Reno]": "set tcp0 [new Agent/TCP/Vegas]",
    "$tcp0 set packetSize_ 960": "$tcp0 set packetSize_ 1000",
    "global ns namfile tracefile": "global ns namfile tracefile tcp0 end0\n"
    '        puts "[$tcp0 set ack_] [$tcp0 set maxseq_] [$end0 set bytes_] [$tcp0 set cwnd_]'
    ' [$tcp0 set nrexmitpack_] [$tcp0 set nrexmit_]"',
}
# Trace files the runs do not need (basic2's would be 190 MB a run).
NO_TRACES = ("$ns trace-all $tracefile", "$ns trace-all $trace", "$ns namtrace-all $namfile")


def script(name: str, changes: dict[str, str]) -> str:
    """A chapter script with `changes` made and without its trace files."""
    text = (HERE / name).read_text()
    for old, new in changes.items():
        if old not in text:
            sys.exit(f"reno_vegas.py: {name} has no line {old!r}")
        text = text.replace(old, new)
    for trace in NO_TRACES:
        text = text.replace(trace, "")
    return text


def run(command: list[str], text: str, args: list[str]) -> list[str]:
    """The last line a script prints, split."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "script.tcl"
        path.write_text(text)
        done = subprocess.run([*command, str(path), *args], cwd=tmp, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"reno_vegas.py: {' '.join(command)} failed: {done.stderr.strip()}")
    return done.stdout.split("\n")[-2].split()


def reno_vegas(
    command: list[str], queue: int, seed: int, alpha_beta: tuple[int, int] = ALPHA_BETA[0]
) -> tuple[int, int]:
    """recv0 and recv1 (packets received by each sink) of one renovegas.tcl run."""
    args = [*ARGS, str(queue), str(seed), *map(str, alpha_beta)]
    fields = run(command, script("renovegas.tcl", {}), args)
    return int(fields[2]), int(fields[3])


def single_vegas(command: list[str], queue: int, end: int) -> list[float]:
    """ack_, maxseq_, bytes_, cwnd_, nrexmitpack_, nrexmit_ of one Vegas flow."""
    fields = run(command, script("basic1.tcl", BASIC1_VEGAS), [str(queue), str(end)])
    return [float(f) for f in fields]


def grid(command: list[str], seeds: int, jobs: int) -> dict[str, dict[str, list[list[int]]]]:
    """{"alpha/beta": {queue: [[recv0, recv1] per seed]}}."""
    points = [(q, s, ab) for ab in ALPHA_BETA for q in QUEUES for s in range(1, seeds + 1)]
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda p: reno_vegas(command, *p), points))
    table: dict[str, dict[str, list[list[int]]]] = {
        f"{a}/{b}": {str(q): [] for q in QUEUES} for a, b in ALPHA_BETA
    }
    for (q, _, (a, b)), recv in zip(points, results):
        table[f"{a}/{b}"][str(q)].append(list(recv))
    return table


def singles(command: list[str]) -> dict[str, list[float]]:
    """{"queue/end": fields} for the single-flow runs."""
    return {f"{q}/{end}": single_vegas(command, q, end) for q, end in SINGLE}


def ratios(runs: list[list[int]]) -> list[float]:
    return [reno / vegas for reno, vegas in runs]


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("action", choices=["record", "compare"])
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    if args.action == "record":
        document = {
            "reno_vegas": {"args": ARGS, "recv": grid(["ns"], args.seeds, args.jobs)},
            "single": singles(["ns"]),
        }
        FIXTURE.write_text(json.dumps(document, indent=1) + "\n")
        print(f"wrote {FIXTURE}")
        return
    ns2 = json.loads(FIXTURE.read_text())
    ackclock = [sys.executable, "-m", "ackclock", "tcl"]
    ours = grid(ackclock, args.seeds, args.jobs)
    print("Reno/Vegas goodput ratio, median (min-max) over the seeds; runs equal to ns-2's")
    for pair, table in ours.items():
        print(f"alpha/beta {pair}\nqueue  ns-2                   ackclock")
        for q in QUEUES:
            theirs = ns2["reno_vegas"]["recv"][pair][str(q)][: args.seeds]
            a, b = ratios(theirs), ratios(table[str(q)])
            same = sum(x == y for x, y in zip(theirs, table[str(q)]))
            print(
                f"{q:5d}  {statistics.median(a):6.3f} ({min(a):.3f}-{max(a):.3f})"
                f"  {statistics.median(b):6.3f} ({min(b):.3f}-{max(b):.3f})  {same}/{len(b)}"
            )
    print("\nOne Vegas flow: ack_ maxseq_ bytes_ cwnd_ nrexmitpack_ nrexmit_")
    for point, fields in singles(ackclock).items():
        print(f"{point:7s} ns-2 {ns2['single'][point]}\n        ours {fields}")


if __name__ == "__main__":
    main()
