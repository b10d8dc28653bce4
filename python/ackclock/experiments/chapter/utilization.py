"""Sec. 16.2.6: one Reno sender over a 800 kbit/s bottleneck (basic1-long.tcl:
50 ms + 100 ms, transit capacity 30 packets), 1000 s per run: packets
received and bottleneck utilization for queue limits 3 to 30. Theory
(chapter 13.7): about 75% for a queue near 0, 87.5% when the queue is a
third of the window (10 here), 100% from a queue of the transit capacity."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.experiments.chapter.scripts import chapter_script, ns2_reference
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report
from ackclock.sweeps import Script

PACKETS_PER_S = 100  # 800 kbit/s of 1000-byte packets
# Sec. 16.2.6's table: queue limit -> packets received in 1000 s.
PUBLISHED = {3: 79767, 4: 80903, 5: 83313, 8: 87169, 10: 89320, 12: 91382}
PUBLISHED |= {16: 94570, 20: 97261, 22: 98028, 26: 99041, 30: 99567}
PUBLISHED_END_S = 1000


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    base = Script(chapter_script("basic1-long.tcl"), ["{queue}", "{end}"], ["-", "received"])
    return run_sweep(base, {"queue": params["queue"], "end": params["end"]}, options)


def _ns2_received() -> dict[int, int]:
    rows = ns2_reference()["basic1_long_utilization"]
    return {row["queue_limit"]: row["received"] for row in rows}


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    comparable = end == PUBLISHED_END_S
    ns2 = _ns2_received() if comparable else {}
    rows, numbers, notes = [], {}, []
    for queue, received in zip(frame["queue"], frame["received"]):
        published = PUBLISHED.get(queue) if comparable else None
        utilization = 100 * received / (PACKETS_PER_S * end)
        rows.append([queue, published, ns2.get(queue), received, f"{utilization:.1f}"])
        numbers[str(queue)] = {
            "received": received,
            "utilization_pct": utilization,
            "published": published,
            "ns2": ns2.get(queue),
        }
        if published is not None and received != published:
            notes.append(
                f"- Queue limit {queue}: ackclock received {received - published:+d} packets "
                f"({100 * (received / published - 1):+.3f}%) against the chapter."
            )
    if comparable:
        same = [
            sum(n["received"] == n[key] for n in numbers.values()) for key in ("published", "ns2")
        ]
        summary = (
            f"{same[0]} of {len(numbers)} rows equal the chapter's to the packet, "
            f"{same[1]} of {len(numbers)} ns-2 2.35's."
        )
    else:
        summary = f"The chapter ran {PUBLISHED_END_S} s; these runs ran {end} s, so no comparison."
    markdown = "\n\n".join(
        [
            "# Single-sender utilization against queue limit (seed 003, §16.2.6)",
            f"`ackclock tcl basic1-long.tcl QUEUE {end}` (the chapter's script, 800 kbit/s "
            "bottleneck, transit capacity 30 packets); *received* is the packets B received, "
            f"of {PACKETS_PER_S * end} the bottleneck can carry.",
            markdown_table(
                ["queue limit", "chapter", "ns-2 2.35", "ackclock", "ackclock utilization %"], rows
            ),
            summary,
            *notes,
            "Theory (§13.7): about 75% for a queue near 0, 87.5% for queue 10 (the chapter "
            "measured 89.3%), close to 100% from queue 30.",
        ]
    )
    return save_report(
        out, markdown + "\n", {"end_s": end, "rows": numbers}, {"utilization": _figure(numbers)}
    )


def _figure(numbers: Mapping[str, Mapping[str, Any]]) -> Figure:
    figure = Figure(figsize=(6, 4), layout="constrained")
    axes = figure.subplots()
    queues = [int(q) for q in numbers]
    axes.plot(queues, [n["utilization_pct"] for n in numbers.values()], "o-", label="ackclock")
    published = [(int(q), n["published"] / 10**3) for q, n in numbers.items() if n["published"]]
    if published:
        axes.plot(*zip(*published), "x", markersize=9, label="chapter (§16.2.6)")
    axes.axhline(75, color="grey", linestyle=":", label="theory, queue 0: 75%")
    axes.set(xlabel="queue limit (packets)", ylabel="bottleneck utilization (%)")
    axes.set_title("One Reno sender, 1000 s")
    axes.legend()
    return figure
