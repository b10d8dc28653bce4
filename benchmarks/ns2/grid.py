#!/usr/bin/env python3
"""A differential harness: ns-2's TCP agents and sinks under `ackclock tcl` and
under real ns-2 2.35, on a grid of the seed chapter's scripts.

    python3 benchmarks/ns2/grid.py record  [--grid ci|full] [--jobs N]
    python3 benchmarks/ns2/grid.py compare [--grid ci|full] [--show N]

Each grid point is basic1.tcl (one flow, 800 kbit/s bottleneck) or basic2.tcl (two
flows, 0.8 or 8 Mbit/s bottleneck, extra delay delayB on B's path) with its arguments
and with the agents' and sinks' classes replaced (Agent/TCP, /Reno, /Newreno, /Sack1
against Agent/TCPSink, /Sack1, /DelAck). The script is a copy with its traces turned
off and a `finish` that also writes every flow's ack_, maxseq_ (the sender's), bytes_
(the sink's), nrexmit_ and nrexmitpack_ (timeouts and retransmitted packets).

`record` runs ns-2 over the grid and writes its results to
tests/fixtures/ns2_grid_{ci,full}.json (`make ns2-fixtures`); the tests need no ns-2.
`compare` runs ackclock (in this process) over the grid and prints how many points
give ns-2's numbers exactly and the largest differences elsewhere (`make ns2-grid`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

AGENTS = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1")
SINKS = ("Agent/TCPSink", "Agent/TCPSink/Sack1", "Agent/TCPSink/DelAck")
# What `finish` reports per flow, in this order.
FIELDS = ("ack_", "maxseq_", "bytes_", "nrexmit_", "nrexmitpack_")
# The ones that must equal ns-2's; the others help to see why they do not.
EXACT_FIELDS = ("ack_", "maxseq_", "bytes_")
# The sec. 16.3.3 table (seed 003): basic2.tcl DELAYB, Reno and TCPSink, 300 s.
DELAYB_TABLE = (0, 5, 23, 24, 25, 26, 35, 36, 40, 41, 45, 60, 61, 85, 110)
# basic2.tcl with overhead_ > 0 (random send delays from ns-2's generator):
# delayB, overhead, bottleneckBW, endtime (sec. 16.3.5's and 16.3.10's runs).
OVERHEAD_RUNS = (
    ("0", "0.002", "8.0", "300"),
    ("30", "0.02", "0.8", "300"),
    ("5", "0.01", "0.8", "100"),
)

REPORT = """\
proc grid_report {} {
    set out [open grid.out w]
    foreach {tcp sink} {tcp0 end0 tcp1 end1} {
        global $tcp $sink
        if {[info exists $tcp]} {
            set t [set $tcp]
            set s [set $sink]
            puts $out "[$t set ack_] [$t set maxseq_] [$s set bytes_] [$t set nrexmit_] \
[$t set nrexmitpack_]"
        }
    }
    close $out
}
"""

# How a script becomes a grid copy: (regex on a whole line, replacement, lines that
# must match). AGENT and SINK are filled in per grid point.
SUBSTITUTIONS = {
    "basic1.tcl": [
        (r"^set namfile \[open basic1\.nam w\]$", "set namfile [open /dev/null w]", 1),
        (r"^set tracefile \[open basic1\.tr w\]$", "set tracefile [open /dev/null w]", 1),
        (r"^\$ns (nam)?trace-all \$\w+$", r"# \g<0>", 2),
        (r"^\$tcp0 (attach|tracevar) \S+$", r"# \g<0>", 5),
        (r"^set tcp0 \[new Agent/TCP/Reno\]$", "set tcp0 [new AGENT]", 1),
        (r"^set end0 \[new Agent/TCPSink\]$", "set end0 [new SINK]", 1),
        (r"^(\s+)exit 0$", r"\g<1>grid_report\n\g<0>", 1),
    ],
    "basic2.tcl": [
        (r"^set trace \[open basic2\.tr w\]$", "set trace [open /dev/null w]", 1),
        (r"^\$ns trace-all \$trace$", r"# \g<0>", 1),
        (r"^\$tcp[01] (attach|tracevar) \S+$", r"# \g<0>", 6),
        (r"^set (tcp[01]) \[new Agent/TCP/Reno\]$", r"set \g<1> [new AGENT]", 2),
        (r"^set (end[01]) \[new Agent/TCPSink\]$", r"set \g<1> [new SINK]", 2),
        (r"^(\s+)exit 0$", r"\g<1>grid_report\n\g<0>", 1),
    ],
}


@dataclass(frozen=True)
class Point:
    """One grid point: a script, the classes of its agents and sinks, its argv."""

    script: str
    agent: str
    sink: str
    args: tuple[str, ...]

    @property
    def name(self) -> str:
        short = lambda cls: cls.split("/", 1)[1]  # noqa: E731
        return " ".join([self.script, short(self.agent), short(self.sink), *self.args])

    @property
    def random(self) -> bool:
        """Whether the run draws random numbers (basic2.tcl's overhead_ > 0)."""
        return self.script == "basic2.tcl" and len(self.args) > 1 and float(self.args[1]) > 0

    def tcl(self) -> str:
        """The grid copy of the script."""
        text = (HERE / self.script).read_text()
        for pattern, replacement, expected in SUBSTITUTIONS[self.script]:
            text, n = re.subn(pattern, replacement, text, flags=re.MULTILINE)
            assert n == expected, f"{self.script}: {pattern!r} matched {n} lines, not {expected}"
        text = text.replace("AGENT", self.agent).replace("SINK", self.sink)
        return REPORT + text


def grid(kind: str) -> list[Point]:
    """The points of the `ci` grid (what the tests run) or the `full` one."""
    combos = [(a, s) for a in AGENTS for s in SINKS]
    points: list[Point] = []
    if kind == "ci":
        basic1 = [(q, t) for q in ("3", "7", "20") for t in ("10", "100")]
        basic2 = [(d, bw, q, "60") for bw in ("0.8", "8.0") for d, q in (("0", "20"), ("5", "8"))]
    else:
        basic1 = [(str(q), t) for q in range(3, 21) for t in ("10", "100", "300")]
        basic2 = [
            (str(d), bw, q, "300")
            for bw in ("0.8", "8.0")
            for d in (0, 5, 10, 23, 36, 50, 61, 110)
            for q in ("5", "10", "20")
        ]
    for agent, sink in combos:
        points += [Point("basic1.tcl", agent, sink, args) for args in basic1]
        points += [Point("basic2.tcl", agent, sink, (d, "0", bw, t, q)) for d, bw, q, t in basic2]
    reno = ("Agent/TCP/Reno", "Agent/TCPSink")
    points += [Point("basic2.tcl", *reno, (str(d),)) for d in DELAYB_TABLE]
    overhead_combos = [reno] if kind == "ci" else combos
    points += [Point("basic2.tcl", a, s, run) for a, s in overhead_combos for run in OVERHEAD_RUNS]
    return points


def parse_report(text: str) -> list[list[int]]:
    return [[int(float(x)) for x in line.split()] for line in text.splitlines() if line]


@contextlib.contextmanager
def scratch(point: Point) -> Iterator[Path]:
    """A scratch directory holding the point's script copy."""
    with tempfile.TemporaryDirectory(prefix="ns2grid-") as d:
        (Path(d) / point.script).write_text(point.tcl())
        yield Path(d)


def run_ns2(point: Point) -> list[list[int]]:
    with scratch(point) as d:
        done = subprocess.run(
            ["ns", point.script, *point.args], cwd=d, capture_output=True, text=True
        )
        if done.returncode != 0 or not (d / "grid.out").exists():
            raise RuntimeError(f"ns {point.name}: {done.stderr.strip()}")
        return parse_report((d / "grid.out").read_text())


def run_ackclock(point: Point) -> list[list[int]]:
    """Runs the point in this process (the script's stdout goes to this one's)."""
    from ackclock.tcl import run_script

    with scratch(point) as d:
        cwd = os.getcwd()
        os.chdir(d)
        try:
            status = run_script(Path(point.script), list(point.args))
        finally:
            os.chdir(cwd)
        assert status == 0, f"ackclock tcl {point.name}: exit status {status}"
        return parse_report((d / "grid.out").read_text())


def fixture_path(kind: str) -> Path:
    return FIXTURES / f"ns2_grid_{kind}.json"


def load_fixture(kind: str) -> dict[str, list[list[int]]]:
    return json.loads(fixture_path(kind).read_text())["points"]


def record(kind: str, jobs: int) -> None:
    if shutil.which("ns") is None:
        sys.exit("ns (ns-2 2.35) is not installed: apt-get install ns2")
    points = grid(kind)
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(run_ns2, points))
    version = subprocess.run(
        ["ns"], input="puts [ns-version]; exit 0", capture_output=True, text=True
    ).stdout.strip()
    header = {"oracle": f"ns-2 {version}, benchmarks/ns2/grid.py record --grid {kind}"}
    header["fields"] = list(FIELDS)
    # One line per point, so that a re-recording's diff shows what changed.
    lines = [f"{json.dumps(p.name)}: {json.dumps(r)}" for p, r in zip(points, results)]
    text = json.dumps(header)[:-1] + ', "points": {\n' + ",\n".join(lines) + "\n}}\n"
    fixture_path(kind).write_text(text)
    print(f"{len(points)} points written to {fixture_path(kind)}")


def differences(ours: list[list[int]], theirs: list[list[int]]) -> dict[str, int]:
    """The largest absolute difference of each exact field over the flows."""
    return {
        field: max(abs(o[i] - t[i]) for o, t in zip(ours, theirs))
        for i, field in enumerate(FIELDS)
        if field in EXACT_FIELDS
    }


def compare(kind: str, show: int) -> None:
    expected = load_fixture(kind)
    exact = 0
    rows = []
    # Per agent and sink class: points, exact points, largest bytes_ difference.
    combos: dict[tuple[str, str], list[float]] = {}
    for point in grid(kind):
        ours = run_ackclock(point)
        diff = differences(ours, expected[point.name])
        relative = max(abs(o[2] - t[2]) / max(t[2], 1) for o, t in zip(ours, expected[point.name]))
        combo = combos.setdefault((point.agent, point.sink), [0, 0, 0.0])
        combo[0] += 1
        if not any(diff.values()):
            exact += 1
            combo[1] += 1
        else:
            combo[2] = max(combo[2], relative)
            rows.append((relative, point.name, ours, expected[point.name]))
    total = len(grid(kind))
    print(f"{exact} of {total} grid points give ns-2's ack_, maxseq_ and bytes_ exactly")
    print("| agent | sink | exact | largest bytes_ difference |\n| --- | --- | --- | --- |")
    for (agent, sink), (n, same, worst) in combos.items():
        print(f"| {agent} | {sink} | {same} of {n} | {100 * worst:.1f}% |")
    rows.sort(reverse=True)
    for relative, name, ours, theirs in rows[:show]:
        print(f"  {name}: bytes_ off by {100 * relative:.1f}%  ackclock {ours}  ns-2 {theirs}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("--grid", choices=("ci", "full"), default="ci")
    ap.add_argument("--jobs", type=int, default=2, help="ns-2 runs at once (record)")
    ap.add_argument("--show", type=int, default=20, help="differing points to list (compare)")
    opts = ap.parse_args()
    if opts.action == "record":
        record(opts.grid, opts.jobs)
    else:
        compare(opts.grid, opts.show)


if __name__ == "__main__":
    main()
