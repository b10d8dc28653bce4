"""Sec. 16.3.6 to 16.3.7: how much ratio1 (goodput ratio / RTT ratio)
oscillates against delayB when something breaks the senders' synchronization
(overhead_, telnet traffic), measured as the chapter does, as the mean
absolute deviation of ratio1 from its mean over the delays."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ackclock.experiments.study import markdown_table, save_report

NOTED = 0.05  # a relative difference from the chapter's deviation that gets a sentence


@dataclass(frozen=True)
class Randomizer:
    column: str  # the sweep parameter, e.g. "overhead"
    label: str  # how a value reads, with {value}: "overhead {value} s"
    published: Mapping[float, float]  # value -> the chapter's mean deviation
    why: str  # the sentence on a difference from the chapter


def mean_deviation(values: pd.Series) -> float:
    return float((values - values.mean()).abs().mean())


def write_oscillation_report(
    frame: pd.DataFrame, randomizer: Randomizer, title: str, command: str, out: Path
) -> list[Path]:
    column = randomizer.column
    rows, numbers, notes = [], {}, []
    for value, runs in frame.groupby(column, sort=True):
        deviation = mean_deviation(runs["ratio1"])
        published = randomizer.published.get(float(value))
        rows.append([f"{value:g}", published, f"{deviation:.3f}", f"{runs['ratio1'].mean():.3f}"])
        numbers[f"{value:g}"] = {"mean_deviation": deviation, "published": published}
        if published is not None and abs(deviation / published - 1) > NOTED:
            notes.append(
                f"- {randomizer.label.format(value=f'{value:g}')}: ackclock's deviation "
                f"{deviation:.3f} is {deviation / published - 1:+.0%} from the chapter's "
                f"{published}; {randomizer.why}"
            )
    delays = sorted(frame["delayB"].unique())
    ordered = [n["mean_deviation"] for n in numbers.values()]
    markdown = "\n\n".join(
        [
            f"# {title}",
            f"`{command}` for delayB {delays[0]:g} to {delays[-1]:g} ms ({len(delays)} "
            "values); the oscillation of ratio1 against delayB as its mean absolute deviation.",
            markdown_table(
                [column, "chapter deviation", "ackclock deviation", "ackclock mean ratio1"], rows
            ),
            f"As in the chapter, the oscillation falls as {column} grows."
            if ordered == sorted(ordered, reverse=True)
            else f"Unlike the chapter, the oscillation does not fall steadily as {column} grows.",
            *notes,
        ]
    )
    figures = {column: _figure(frame, randomizer, title)}
    return save_report(out, markdown + "\n", {"rows": numbers}, figures)


def _figure(frame: pd.DataFrame, randomizer: Randomizer, title: str) -> Figure:
    figure = Figure(figsize=(8, 4), layout="constrained")
    axes = figure.subplots()
    for value, runs in frame.groupby(randomizer.column, sort=True):
        runs = runs.sort_values("delayB")
        label = randomizer.label.format(value=f"{value:g}")
        axes.plot(runs["delayB"], runs["ratio1"], ".-", label=label)
    axes.set(xlabel="delayB (ms)", ylabel="ratio1 (goodput ratio / RTT ratio)")
    axes.set_title(title)
    axes.legend()
    return figure
