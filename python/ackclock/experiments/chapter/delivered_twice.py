"""Sec. 16.2.6.4: basic1.tcl (one Reno sender, 10 s) and dup_counter.py:
the data packets B receives twice. The chapter: 13, sequence numbers 43,
45, ..., 57, 58, ..., 62, all from the slow start's losses."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.scripts import ns2_reference, one_sender_runs
from ackclock.experiments.study import Options, markdown_table, save_report

# basic1.tcl's defaults, the chapter's run.
CHAPTER_RUN = (7, 10)  # queue limit, end time (s)
PUBLISHED = [43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 60, 61, 62]


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    return one_sender_runs("basic1.tcl", "delivered_twice", dict(params), options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    ns2 = ns2_reference()["basic1_10s"]["delivered_twice"]
    rows, numbers, notes = [], {}, []
    for queue, end, count, seqnos in zip(
        frame["queue"], frame["end"], frame["delivered_twice"], frame["seqnos"]
    ):
        chapter_run = (queue, end) == CHAPTER_RUN
        ours = [int(s) for s in str(seqnos).split(",") if s]
        rows.append(
            [
                queue,
                end,
                len(PUBLISHED) if chapter_run else None,
                ns2["count"] if chapter_run else None,
                count,
                ", ".join(map(str, ours)),
            ]
        )
        numbers[str(queue)] = {
            "delivered_twice": count,
            "seqnos": ours,
            "published": PUBLISHED if chapter_run else None,
            "ns2": ns2["seqnos"] if chapter_run else None,
        }
        if chapter_run:
            same = ours == PUBLISHED == ns2["seqnos"]
            notes.append(
                f"- Queue limit {queue}, {end} s (the chapter's run): "
                + (
                    "the same packets as the chapter's and ns-2 2.35's."
                    if same
                    else f"ackclock's packets differ from the chapter's {PUBLISHED}."
                )
            )
    markdown = "\n\n".join(
        [
            "# Packets delivered twice (seed 003, §16.2.6.4)",
            "`ackclock tcl basic1.tcl QUEUE END`, then dup_counter.py's count "
            "(`ackclock.analysis.packets_delivered_twice`, flow 0 at B).",
            markdown_table(
                [
                    "queue limit",
                    "end (s)",
                    "chapter",
                    "ns-2 2.35",
                    "ackclock",
                    "ackclock's seq numbers",
                ],
                rows,
            ),
            *notes,
        ]
    )
    return save_report(out, markdown + "\n", {"rows": numbers})
