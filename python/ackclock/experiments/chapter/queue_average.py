"""Sec. 16.2.6.3: one Reno sender (basic1-long.tcl, transit capacity 30
packets) with a queue limit above the transit capacity, 1000 s: the
time-averaged queue at R as queuesize.py computes it. The chapter: "about
23.76" for queue limit 40; its theory: cwnd between 30 + Q and half that,
so the queue between Q and (30 + Q)/2 - 30, on average (3Q - 30)/4 (22.5)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.scripts import ns2_reference, one_sender_runs
from ackclock.experiments.study import Options, markdown_table, save_report

TRANSIT_PACKETS = 30
PUBLISHED = {40: 23.76}  # queue limit -> average queue, 1000 s
PUBLISHED_END_S = 1000


def theory(queue: int) -> float:
    return (3 * queue - TRANSIT_PACKETS) / 4


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    return one_sender_runs("basic1-long.tcl", "mean_queue", dict(params), options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    reference = ns2_reference()["basic1_long_q40"]
    ns2 = {reference["queue_limit"]: reference["avg_queue"]} if end == PUBLISHED_END_S else {}
    published = PUBLISHED if end == PUBLISHED_END_S else {}
    rows, numbers, notes = [], {}, []
    for queue, average in zip(frame["queue"], frame["avg_queue"]):
        rows.append(
            [
                queue,
                published.get(queue),
                None if queue not in ns2 else f"{ns2[queue]:.6f}",
                f"{average:.6f}",
                f"{theory(queue):.2f}",
            ]
        )
        numbers[str(queue)] = {
            "avg_queue": average,
            "published": published.get(queue),
            "ns2": ns2.get(queue),
            "theory": theory(queue),
        }
        if queue in ns2:
            same = "equals" if abs(average - ns2[queue]) < 1e-9 else "differs from"
            notes.append(
                f"- Queue limit {queue}: ackclock's {average:.4f} {same} ns-2 2.35's "
                f"{ns2[queue]:.4f} (the chapter rounds it to {published[queue]}); "
                f"the theory's {theory(queue):.1f} is {average - theory(queue):+.2f} off, as in "
                "the chapter: the theory averages over RTTs, but an RTT lasts longer while the "
                "queue is long, so the time average is higher."
            )
        else:
            notes.append(
                f"- Queue limit {queue}: {average - theory(queue):+.2f} packets from the theory."
            )
    markdown = "\n\n".join(
        [
            "# Time-averaged queue above the transit capacity (seed 003, §16.2.6.3)",
            f"`ackclock tcl basic1-long.tcl QUEUE {end}`, then the time average of the "
            "packets waiting at R (queuesize.py's computation, "
            "`ackclock.analysis.time_weighted_mean_queue`).",
            markdown_table(
                ["queue limit", "chapter", "ns-2 2.35", "ackclock", "theory (3Q-30)/4"], rows
            ),
            *notes,
        ]
    )
    return save_report(out, markdown + "\n", {"end_s": end, "rows": numbers})
