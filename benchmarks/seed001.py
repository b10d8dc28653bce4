#!/usr/bin/env python3
"""Seed 001 (Singh & Kumar, "Simulative Analysis of High Speed TCP Variant using
OMNeT++"): two flows of one algorithm on a dumbbell, once with Compound TCP and
once with NewReno.

    S1 ==\\                          /== D1
          R1 ---- 10 Mb/s ---- R2
    S2 ==/        100 ms          \\== D2
          (access links 100 Mb/s, 1 ms)

The paper gives the rates and the 100 ms propagation delay; not the queue (its
OMNeT++ default is 100 packets), the segment size or the run's length, which are
options here. It reports each flow's throughput and cwnd over time, and fairness.

    python3 benchmarks/seed001.py [--cc compound newreno] [--until 120s] [--queue 100]
"""

from __future__ import annotations

import argparse

import ackclock as ac
from ackclock.analysis import jain_fairness


def run(cc: str, until: str, queue: int, mss: int, seed: int) -> list[dict[str, float]]:
    sim = ac.Simulator(seed=seed)
    r1, r2 = sim.node("R1"), sim.node("R2")
    sim.duplex_link(r1, r2, "10Mb", "100ms", queue=ac.DropTail(limit=queue))
    flows = []
    for i in (1, 2):
        s, d = sim.node(f"S{i}"), sim.node(f"D{i}")
        sim.duplex_link(s, r1, "100Mb", "1ms", queue=ac.DropTail(limit=queue))
        sim.duplex_link(r2, d, "100Mb", "1ms", queue=ac.DropTail(limit=queue))
        tcp = ac.TcpParams(cc=cc, mss=mss, receive_buffer="16MiB")
        flows.append(sim.tcp(s, d, app=ac.Bulk(), tcp=tcp, record=True, name=f"{cc}{i}"))
    sim.run(until=until)
    rows = []
    for flow in flows:
        times, cwnd = flow.series()["cwnd_segments"]
        held = [b - a for a, b in zip(times, [*times[1:], sim.now])]
        stats = flow.stats()
        rows.append(
            {
                "goodput_bps": stats["goodput_bps"],
                "cwnd_mean": sum(c * h for c, h in zip(cwnd, held)) / sim.now,
                "cwnd_max": max(cwnd),
                "loss_events": stats["fast_retransmits"] + stats["timeouts"],
            }
        )
    return rows


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--cc", nargs="+", default=["compound", "newreno"])
    p.add_argument("--until", default="120s")
    p.add_argument("--queue", type=int, default=100, help="packets, every queue")
    p.add_argument("--mss", type=int, default=1460)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print("algorithm  flow  goodput Mb/s  cwnd mean  cwnd max  loss events")
    for cc in args.cc:
        rows = run(cc, args.until, args.queue, args.mss, args.seed)
        for i, row in enumerate(rows, 1):
            print(
                f"{cc:9s}  {i:4d}  {row['goodput_bps'] / 1e6:12.2f}  {row['cwnd_mean']:9.1f}"
                f"  {row['cwnd_max']:8.1f}  {row['loss_events']:11.0f}"
            )
        fairness = jain_fairness(row["goodput_bps"] for row in rows)
        print(f"{cc:9s}  Jain's fairness {fairness:.4f}")


if __name__ == "__main__":
    main()
