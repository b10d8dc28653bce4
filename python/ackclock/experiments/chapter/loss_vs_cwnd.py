"""Sec. 16.2.6.5: loss rate against cwnd, part 1. basic1.tcl (one Reno
sender, queue 7) run to 1000 s: 94915 packets ACKed and 512 loss events, so
p = 0.00539 and the model of sec. 14.5 predicts a mean cwnd of 1.225/sqrt(p)
= 16.7; the chapter approximates the true mean by 3/4 of the peak (20.935),
15.7. ackclock also measures the mean directly, as cwnd's time average."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.scripts import ns2_reference, one_sender_runs
from ackclock.experiments.study import Options, markdown_table, save_report

K = 1.225
CHAPTER_RUN = (7, 1000)  # queue limit, end time (s)
PUBLISHED = {"acked": 94915, "loss_events": 512, "peak": 20.935}


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    return one_sender_runs("basic1.tcl", "sawtooth", dict(params), options)


def derived(acked: float, losses: float, peak: float) -> dict[str, float]:
    p = losses / acked
    return {"p": p, "model_cwnd": K / math.sqrt(p), "three_quarters_peak": 0.75 * peak}


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    reference = ns2_reference()["basic1_1000s"]
    ns2 = {
        "acked": reference["packets_acked"],
        "loss_events": reference["loss_events"],
        "peak": reference["cwnd_peak_max"],
    }
    sections, numbers = [], {}
    for _, run in frame.iterrows():
        queue, end = int(run["queue"]), int(run["end"])
        ours = {key: run[key] for key in ("acked", "loss_events", "peak")}
        ours |= derived(ours["acked"], ours["loss_events"], ours["peak"])
        ours["mean_cwnd"] = run["mean_cwnd"]
        chapter_run = (queue, end) == CHAPTER_RUN
        columns = [("chapter", PUBLISHED), ("ns-2 2.35", ns2)] if chapter_run else []
        columns = [
            (name, values | derived(values["acked"], values["loss_events"], values["peak"]))
            for name, values in columns
        ]
        columns.append(("ackclock", ours))
        labels = {
            "acked": "packets ACKed",
            "loss_events": "loss events (after 3 s)",
            "p": "p = losses / ACKed",
            "model_cwnd": f"{K}/√p",
            "peak": "highest cwnd peak",
            "three_quarters_peak": "3/4 of the peak",
            "mean_cwnd": "cwnd's time average after 3 s",
        }
        rows = [
            [label, *(_format(values.get(key)) for _, values in columns)]
            for key, label in labels.items()
        ]
        model_off = ours["model_cwnd"] / ours["mean_cwnd"] - 1
        peak_off = ours["three_quarters_peak"] / ours["mean_cwnd"] - 1
        sections += [
            f"## Queue limit {queue}, {end} s",
            markdown_table(["", *(name for name, _ in columns)], rows),
            f"The model's {ours['model_cwnd']:.1f} is {model_off:+.1%} from cwnd's time "
            f"average {ours['mean_cwnd']:.1f}, the chapter's 3/4-of-peak estimate "
            f"{peak_off:+.1%}.",
        ]
        numbers[f"{queue}/{end}"] = {
            "ackclock": ours,
            "published": PUBLISHED if chapter_run else None,
            "ns2": ns2 if chapter_run else None,
        }
    markdown = "\n\n".join(
        [
            "# Loss rate against cwnd, one sender (seed 003, §16.2.6.5)",
            "`ackclock tcl basic1.tcl QUEUE END`, then the trace's cwnd_ and ack_ records "
            "(`ackclock.analysis.teeth`).",
            *sections,
        ]
    )
    return save_report(out, markdown + "\n", {"rows": numbers})


def _format(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.5f}" if value < 0.1 else f"{value:.3f}"
    return f"{value:g}"
