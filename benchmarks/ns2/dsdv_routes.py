#!/usr/bin/env python3
"""How soon DSDV's bottom-row nodes stop sending straight to the mover of
wireless.tcl once it has left their range, in ns-2 2.35 and in ackclock.

    PYTHONPATH=python python3 benchmarks/ns2/dsdv_routes.py [--seeds N] [--no-jitter]
    PYTHONPATH=python python3 benchmarks/ns2/dsdv_routes.py --log SEED

The mover (node 5) leaves bottom-row node i's 250 m range at
(200 i + 200) / 8.01 s (25.0, 49.9, 74.9 s for nodes 0, 1, 2). A node's
*repair* is the first instant from then on at which its route to the mover
names another node. ns-2's route changes come from its DSDV agents' own log
(`Agent/DSDV set verbose_ 1`, with a trace target given to each agent as
tcl/mobility/dsdv.tcl does: `VS` lines for changes, `VTO ... marking` for routes
a lost neighbour takes down, `VPC` for table dumps), ackclock's from
`Simulator.record_routes`. The seeds are wireless.py's SEEDS. `--log SEED`
prints, for one seed, ns-2's log of the routes to the mover (with their
sequence numbers and settling) and ackclock's next hops to it.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import wireless as harness
from ackclock.analysis.ns2wireless import read_wireless_trace
from ackclock.tcl.interpreter import TclRun

MOVER = 5
SPEED = 8.01  # m/s: 801 m in 100 s
END = 100.0
# ns-2's agents log to a file of their own (node-config gives them no trace
# target), line by line as the script's finish exits without closing it
LOG_HOOK = """
Agent/DSDV set verbose_ 1
set dsdvlog [open dsdv.log w]
fconfigure $dsdvlog -buffering line
proc log-dsdv {} {
    global ns dsdvlog
    foreach node [Node/MobileNode info instances] {
        set target [new Trace/Generic]
        $target target [$ns set nullAgent_]
        $target attach $dsdvlog
        [$node set ragent_] tracetarget $target
    }
}
"""
# a route change: (time, node, next hop or None when the route is down)
Change = tuple[float, int, int | None]


def leaves(node: int) -> float:
    return (200 * node + 200) / SPEED


def script(seed: int, no_jitter: bool) -> str:
    text = harness.variant_script(harness.SCRIPT.read_text(), {"adhocRouting": "DSDV"}, False)
    first = "Agent/DSDV set be_random_ 0" if no_jitter else ""
    return harness.seeded_script(text, seed, first)


def ns2_changes(text: str, workdir: Path) -> tuple[list[Change], str]:
    """ns-2's changes of the next hops to the mover (its agents log every new
    sequence number too), and the agents' log."""
    text = text.replace("set ns [new Simulator]\n", "set ns [new Simulator]\n" + LOG_HOOK, 1)
    text = text.replace("\n$ns run", "\nlog-dsdv\n$ns run")
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "wireless.tcl").write_text(text)
    subprocess.run(["ns", "wireless.tcl"], cwd=workdir, capture_output=True, check=True)
    log = (workdir / "dsdv.log").read_text(errors="replace")
    changes: list[Change] = []
    hops: dict[int, int | None] = {}

    def change(time: str, node: str, hop: int | None) -> None:
        if hops.get(int(node), -1) != hop:
            hops[int(node)] = hop
            changes.append((float(time), int(node), hop))

    update = re.compile(r"VS[DU] (\S+) _(\d+)_ \((\d+),-?\d+->(\d+),-?\d+->\d+,-?\d+->(-?\d+),")
    marked = re.compile(r"VTO (\S+) _(\d+)_ marking (\d+)")
    for line in log.splitlines():
        if match := update.match(line):
            time, node, dst, metric, hop = match.groups()
            if int(dst) == MOVER:
                change(time, node, None if int(metric) == 250 else int(hop))
        elif (match := marked.match(line)) and int(match.group(3)) == MOVER:
            change(match.group(1), match.group(2), None)
    return changes, log


def ackclock_changes(text: str, seed: int, workdir: Path) -> list[Change]:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "wireless.tcl").write_text(text)
    run = TclRun(seed=seed)
    run.world.on_build.append(lambda: run.world.built().record_routes())
    cwd = Path.cwd()
    os.chdir(workdir)
    try:
        run.run(workdir / "wireless.tcl", [])
    finally:
        os.chdir(cwd)
    assert run.world.sim is not None
    changes: list[Change] = []
    for change in run.world.sim.route_changes():
        if change["dst"] == f"n{MOVER}":
            hop = change["next_hop"]
            node = int(change["node"].removeprefix("n"))
            changes.append((change["time_s"], node, None if hop is None else int(hop[1:])))
    return changes


def delivery(workdir: Path) -> str:
    """The cbr packets a run's trace shows delivered to the mover, in bursts
    (receptions less than 1 s apart), and its cbr drops by level and reason."""
    trace = read_wireless_trace(workdir / "wireless.tr")
    cbr = trace[trace["type"] == "cbr"]
    received = cbr[(cbr["event"] == "r") & (cbr["level"] == "AGT") & (cbr["node"] == MOVER)]
    times = received["time"].tolist()
    starts = [0] + [i for i in range(1, len(times)) if times[i] - times[i - 1] > 1.0]
    bursts = ", ".join(
        f"{times[a]:.2f}-{times[b - 1]:.2f} s {b - a}"
        for a, b in zip(starts, [*starts[1:], len(times)], strict=True)
    )
    drops = cbr[cbr["event"] == "d"].groupby(["level", "reason"]).size()
    return f"delivered {len(times)} ({bursts}); cbr drops " + ", ".join(
        f"{level} {reason} {count}" for (level, reason), count in drops.items()
    )


def repair(changes: list[Change], node: int) -> float | None:
    """How long after the mover left `node`'s range the node's route to it
    named another node (None: not by the end of the run); `changes` in time order."""
    left = leaves(node)
    before = [hop for time, at, hop in changes if at == node and time <= left]
    if before and before[-1] not in (None, MOVER):
        return 0.0
    after = (
        time for time, at, hop in changes if at == node and time > left and hop not in (None, MOVER)
    )
    return next((time - left for time in after), None)


def summary(delays: list[float | None]) -> str:
    done = sorted(d for d in delays if d is not None)
    if len(done) < 2:
        return f"{len(done)} of {len(delays)} repaired"
    quartiles = statistics.quantiles(done, n=4)
    return (
        f"mean {statistics.mean(done):5.1f} s, quartiles "
        + ", ".join(f"{q:.1f}" for q in quartiles)
        + f" ({len(delays) - len(done)} of {len(delays)} not by {END:.0f} s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=len(harness.SEEDS), help="how many seeds")
    parser.add_argument("--no-jitter", action="store_true", help="Agent/DSDV set be_random_ 0")
    parser.add_argument("--log", type=int, metavar="SEED", help="one seed's route changes")
    args = parser.parse_args()
    if not 1 <= args.seeds <= len(harness.SEEDS):
        parser.error(f"--seeds {args.seeds}: give 1 to {len(harness.SEEDS)}")
    with tempfile.TemporaryDirectory(prefix="dsdv_routes_") as scratch:
        base = Path(scratch)
        if args.log is not None:
            text = script(args.log, args.no_jitter)
            _, log = ns2_changes(text, base / "ns2")
            ours = ackclock_changes(text, args.log, base / "ackclock")
            print(f"ns-2: {delivery(base / 'ns2')}")
            print(f"ns-2's agents' log of the routes to node {MOVER}: (destination, metric,")
            print("  sequence number and next hop, old -> new, then when it may be advertised)")
            for line in log.splitlines():
                if re.match(rf"VS[DU] \S+ _\d+_ \({MOVER},", line) or "marking" in line:
                    print("  " + line)
            dumps = [line.split() for line in log.splitlines() if line.startswith("VPC")]
            print(
                "ns-2's table dumps (time node):", ", ".join(f"{t} {n[1:-1]}" for _, t, n in dumps)
            )
            print(f"ackclock: {delivery(base / 'ackclock')}")
            print(f"ackclock: next hops to node {MOVER} (time, node, next hop)")
            for time, node, hop in ours:
                print(f"  {time:9.5f} {node} {'down' if hop is None else hop}")
            return 0
        delays: dict[str, list[list[float | None]]] = {"ns-2": [], "ackclock": []}
        for seed in harness.SEEDS[: args.seeds]:
            text = script(seed, args.no_jitter)
            runs = {
                "ns-2": ns2_changes(text, base / f"ns2-{seed}")[0],
                "ackclock": ackclock_changes(text, seed, base / f"ackclock-{seed}"),
            }
            for name, changes in runs.items():
                delays[name].append([repair(changes, node) for node in range(3)])
    print(f"repair after the mover left, over {args.seeds} seeds")
    for node in range(3):
        for name, runs in delays.items():
            print(
                f"node {node} ({leaves(node):.1f} s) {name:8}: {summary([r[node] for r in runs])}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
