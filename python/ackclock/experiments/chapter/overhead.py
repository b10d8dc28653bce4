"""Sec. 16.3.6: phase effects and overhead. basic2.tcl (two Reno senders,
800 kbit/s, 300 s) for delayB 25 to 55 ms, with the senders' overhead_
(a uniform random delay of 0 to overhead seconds before each send) at 0,
0.005, 0.01 and 0.02 s: ratio1 (goodput ratio / RTT ratio) against delayB,
and how much each curve oscillates, as the mean absolute deviation of
ratio1 from its mean. The chapter's deviations: 1.286, 0.638, 0.136, 0.090."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.experiments.chapter.basic2 import basic2
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report

PUBLISHED_DEVIATION = {0.0: 1.286, 0.005: 0.638, 0.01: 0.136, 0.02: 0.090}


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    grid = {"overhead": params["overhead"], "delayB": params["delayB"]}
    return run_sweep(basic2(["{delayB}", "{overhead}"]), grid, options)


def mean_deviation(values: pd.Series) -> float:
    return float((values - values.mean()).abs().mean())


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    rows, numbers, notes = [], {}, []
    for overhead, runs in frame.groupby("overhead", sort=True):
        deviation = mean_deviation(runs["ratio1"])
        published = PUBLISHED_DEVIATION.get(float(overhead))
        rows.append(
            [f"{overhead:g}", published, f"{deviation:.3f}", f"{runs['ratio1'].mean():.3f}"]
        )
        numbers[f"{overhead:g}"] = {"mean_deviation": deviation, "published": published}
        if published is not None and not 0.5 <= deviation / published <= 2:
            notes.append(
                f"- overhead {overhead:g}: ackclock's deviation {deviation:.3f} is "
                f"{deviation / published:.1f} times the chapter's {published}; with overhead > 0 "
                "each run is one draw of ns-2's generator, and the chapter's curve is one draw "
                "of many, sampled at its own delays."
            )
    delays = sorted(frame["delayB"].unique())
    ordered = [n["mean_deviation"] for n in numbers.values()]
    markdown = "\n\n".join(
        [
            "# Phase effects and overhead (seed 003, §16.3.6)",
            "`ackclock tcl basic2.tcl DELAYB OVERHEAD` (300 s, 800 kbit/s) for delayB "
            f"{delays[0]:g} to {delays[-1]:g} ms ({len(delays)} values); the oscillation of "
            "ratio1 against delayB as its mean absolute deviation.",
            markdown_table(
                ["overhead (s)", "chapter deviation", "ackclock deviation", "ackclock mean ratio1"],
                rows,
            ),
            "As in the chapter, the oscillation falls as overhead grows."
            if ordered == sorted(ordered, reverse=True)
            else "Unlike the chapter, the oscillation does not fall steadily as overhead grows.",
            *notes,
        ]
    )
    figure = _figure(frame)
    return save_report(out, markdown + "\n", {"rows": numbers}, {"overhead": figure})


def _figure(frame: pd.DataFrame) -> Figure:
    figure = Figure(figsize=(8, 4), layout="constrained")
    axes = figure.subplots()
    for overhead, runs in frame.groupby("overhead", sort=True):
        runs = runs.sort_values("delayB")
        axes.plot(runs["delayB"], runs["ratio1"], ".-", label=f"overhead {overhead:g} s")
    axes.set(xlabel="delayB (ms)", ylabel="ratio1 (goodput ratio / RTT ratio)")
    axes.set_title("Two Reno senders, 800 kbit/s, 300 s")
    axes.legend()
    return figure
