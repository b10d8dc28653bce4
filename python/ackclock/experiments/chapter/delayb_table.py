"""Sec. 16.3.3: two Reno senders through one 800 kbit/s bottleneck
(basic2.tcl, 300 s), the second path's extra delay delayB in ms: each
sender's goodput in packets, the RTT ratio squared (the synchronized-loss
model's prediction) and the actual goodput ratio. The chapter's delayB
values were picked to show how discontinuously the ratio varies (phase
effects, sec. 16.3.4). The scripts are deterministic (overhead 0)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.basic2 import basic2
from ackclock.experiments.chapter.scripts import ns2_reference
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report

# Sec. 16.3.3's table: delayB -> (A-D goodput, B-D goodput, goodput ratio).
PUBLISHED = {
    0: (14863, 14771, 1.006),
    5: (4229, 24545, 0.172),
    23: (22142, 6879, 3.219),
    24: (17683, 9842, 1.797),
    25: (14958, 13754, 1.088),
    26: (24034, 5137, 4.679),
    35: (16932, 11395, 1.486),
    36: (25790, 3603, 7.158),
    40: (20005, 8580, 2.332),
    41: (24977, 4215, 5.926),
    45: (18437, 10211, 1.806),
    60: (18891, 9891, 1.910),
    61: (25834, 3135, 8.241),
    85: (20463, 8206, 2.494),
    110: (22624, 5941, 3.808),
}


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    return run_sweep(basic2(["{delayB}"]), {"delayB": params["delayB"]}, options)


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    ns2 = {row["delayB"]: row for row in ns2_reference()["basic2_delayB_table"]}
    rows, numbers, notes = [], {}, []
    for _, run in frame.iterrows():
        delay = int(run["delayB"])
        published = PUBLISHED.get(delay)
        reference = ns2.get(delay)
        ours = (int(run["recv0"]), int(run["recv1"]))
        rows.append(
            [
                delay,
                f"{run['rttratio']:.3f}",
                f"{run['rttratio2']:.3f}",
                "–" if published is None else f"{published[0]} / {published[1]}",
                "–" if reference is None else f"{reference['recv0']} / {reference['recv1']}",
                f"{ours[0]} / {ours[1]}",
                "–" if published is None else f"{published[2]:.3f}",
                f"{run['actualratio']:.3f}",
            ]
        )
        numbers[str(delay)] = {
            "recv0": ours[0],
            "recv1": ours[1],
            "ratio": run["actualratio"],
            "rtt_ratio_squared": run["rttratio2"],
            "published": None if published is None else list(published),
            "ns2": None if reference is None else [reference["recv0"], reference["recv1"]],
        }
        if published is not None and ours != published[:2]:
            notes.append(
                f"- delayB {delay}: ackclock's goodputs differ from the chapter's by "
                f"{ours[0] - published[0]:+d} / {ours[1] - published[1]:+d} packets."
            )
    compared = [n for n in numbers.values() if n["published"]]
    same = sum([n["recv0"], n["recv1"]] == n["published"][:2] for n in compared)
    same_ns2 = sum([n["recv0"], n["recv1"]] == n["ns2"] for n in numbers.values() if n["ns2"])
    markdown = "\n\n".join(
        [
            "# Two Reno senders with unequal delays (seed 003, §16.3.3)",
            "`ackclock tcl basic2.tcl DELAYB` (300 s, 800 kbit/s bottleneck); goodputs are "
            "packets received from A and from B; the last columns are the goodput ratio A/B.",
            markdown_table(
                [
                    "delayB (ms)",
                    "RTT ratio",
                    "(RTT ratio)²",
                    "chapter goodputs",
                    "ns-2 2.35",
                    "ackclock",
                    "chapter ratio",
                    "ackclock ratio",
                ],
                rows,
            ),
            f"{same} of {len(compared)} rows equal the chapter's goodputs to the packet, "
            f"{same_ns2} ns-2 2.35's. As in the chapter, the ratio jumps between neighbouring "
            "delays (35 -> 36 ms) instead of following (RTT ratio)²: phase effects (§16.3.4).",
            *notes,
        ]
    )
    return save_report(out, markdown + "\n", {"rows": numbers})
