"""Sec. 16.5: TCP Reno against TCP Vegas (alpha 3, beta 6) on the two-sender
network (renovegas.tcl: bottleneck 8 Mbit/s, overhead 0.002, so each run is
a random draw of ns-2's default generator, seeded by the script's sixth
argument), for queue sizes 10 to 220: the Reno/Vegas goodput ratio, and the
cwnd-against-time graph for queue 20 over the first 300 s. The chapter: the
ratio is about 1.1 over the first 300 s at queue 20 and Vegas is swamped as
the queue grows; its figure is not given as numbers, so real ns-2's runs of
the same script and seeds (tests/fixtures/ns2_vegas.json) are the reference."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.confidence import mean_confidence_interval
from ackclock.experiments.chapter.basic2 import renovegas
from ackclock.experiments.chapter.scripts import ns2_fixture
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report

# recv0 is Reno's packets received, recv1 Vegas's.
ARGV = ["0", "0.002", "8.0", "{end}", "{queue}", "{rng}"]
# The chapter's cwnd graph and its one number: queue 20, first 300 s, ratio about 1.1.
GRAPH_QUEUE, GRAPH_END_S, PUBLISHED_RATIO_Q20 = 20, 300, 1.1


@dataclass(frozen=True)
class Results:
    ratios: pd.DataFrame  # queue, rng, recv0, recv1
    cwnd: pd.DataFrame  # flow, time, cwnd of the graph's run


def run(params: Mapping[str, Any], options: Options) -> Results:
    grid = {"queue": params["queue"], "rng": params["seeds"], "end": params["end"]}
    frame = run_sweep(renovegas(ARGV), grid, options)
    graph = run_sweep(
        renovegas(ARGV, analysis="ackclock.experiments.chapter.traces:cwnd_series"),
        {"queue": GRAPH_QUEUE, "rng": 1, "end": GRAPH_END_S},
        options,
    )
    cwnd = pd.read_parquet(options.out / graph["series.cwnd"].iloc[0])
    return Results(frame[["queue", "rng", "recv0", "recv1"]], cwnd)


def _ns2_ratios(end: int, seeds: list[int]) -> dict[int, list[float]]:
    """ns-2's Reno/Vegas ratios per queue for the same seeds, if it ran the same end time."""
    reference = ns2_fixture("ns2_vegas.json").get("reno_vegas")
    if reference is None or int(reference["args"][3]) != end:
        return {}
    return {
        int(queue): [reno / vegas for seed, (reno, vegas) in enumerate(runs, 1) if seed in seeds]
        for queue, runs in reference["recv"].items()
    }


def _spread(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def write_report(results: Results, params: Mapping[str, Any], out: Path) -> list[Path]:
    seeds, end = list(params["seeds"]), params["end"]
    ns2 = _ns2_ratios(end, seeds)
    frame = results.ratios.assign(ratio=results.ratios["recv0"] / results.ratios["recv1"])
    rows, numbers, notes = [], {}, []
    for queue, runs in frame.groupby("queue", sort=True):
        ours = runs.sort_values("rng")["ratio"].tolist()
        theirs = ns2.get(int(queue), [])
        interval = mean_confidence_interval(ours) if len(ours) > 1 else None
        rows.append(
            [
                queue,
                _spread(theirs) if theirs else None,
                _spread(ours),
                None if interval is None else f"{interval.mean:.3f} ± {interval.half_width:.3f}",
            ]
        )
        numbers[str(queue)] = {"ratios": ours, "ns2": theirs or None}
        if theirs and not min(theirs) * 0.9 <= statistics.median(ours) <= max(theirs) * 1.1:
            notes.append(
                f"- Queue {queue}: ackclock's median ratio {statistics.median(ours):.3f} lies "
                f"outside ns-2's range {min(theirs):.3f}–{max(theirs):.3f} (widened by 10%) "
                "for the same seeds: ackclock's Vegas and ns-2's part here, for a cause not "
                "yet found (benchmarks/ns2/reno_vegas.py compare shows every seed)."
            )
    graph_ratio = _graph_ratio(frame)
    numbers["graph_q20_ratio"] = graph_ratio
    headline = {"end_s": end, "seeds": seeds, "published_q20_ratio": PUBLISHED_RATIO_Q20}
    markdown = "\n\n".join(
        [
            "# TCP Reno against TCP Vegas (seed 003, §16.5)",
            f"`ackclock tcl renovegas.tcl 0 0.002 8.0 {end} QUEUE SEED` for ns-2 generator "
            f"seeds {', '.join(map(str, seeds))}; the Reno/Vegas goodput ratio, median "
            "(min–max) over the seeds, and the mean with its 95% confidence interval.",
            markdown_table(["queue", "ns-2 2.35", "ackclock", "ackclock mean ± 95% CI"], rows),
            (
                f"Queue {GRAPH_QUEUE}, first {GRAPH_END_S} s (the chapter's graph): the chapter "
                f"says the ratio is about {PUBLISHED_RATIO_Q20}; ackclock's seed-1 run gives "
                f"{graph_ratio:.3f}."
                if graph_ratio is not None
                else f"Queue {GRAPH_QUEUE} for {GRAPH_END_S} s is not in this grid."
            ),
            *notes,
            "Not run: the chapter's default alpha 1, beta 3 (ratio 1.02 at queue 10, almost 22 "
            "at 220): renovegas.tcl sets alpha 3, beta 6.",
        ]
    )
    figures = {"goodput_ratio": _ratio_figure(frame, ns2), "cwnd": _cwnd_figure(results.cwnd)}
    return save_report(out, markdown + "\n", headline | {"rows": numbers}, figures)


def _graph_ratio(frame: pd.DataFrame) -> float | None:
    if frame.empty:
        return None
    chosen = frame[(frame["queue"] == GRAPH_QUEUE) & (frame["rng"] == 1)]
    return None if chosen.empty else float(chosen["ratio"].iloc[0])


def _ratio_figure(frame: pd.DataFrame, ns2: Mapping[int, list[float]]) -> Figure:
    figure = Figure(figsize=(6, 4), layout="constrained")
    axes = figure.subplots()
    ours = frame.groupby("queue")["ratio"].median()
    axes.plot(ours.index, ours.values, "o-", label="ackclock (median over seeds)")
    if ns2:
        queues = sorted(q for q in ns2 if q in ours.index)
        axes.plot(
            queues, [statistics.median(ns2[q]) for q in queues], "x--", label="ns-2 2.35 (median)"
        )
    axes.set(xlabel="queue size (packets)", ylabel="Reno/Vegas goodput ratio")
    axes.set_title("Reno vs Vegas (alpha 3, beta 6), 8 Mbit/s")
    axes.legend()
    return figure


def _cwnd_figure(cwnd: pd.DataFrame) -> Figure:
    figure = Figure(figsize=(8, 4), layout="constrained")
    axes = figure.subplots()
    for (_, series), (label, colour) in zip(
        cwnd.groupby("flow", sort=True), [("Reno", "red"), ("Vegas", "green")]
    ):
        axes.step(series["time"], series["cwnd"], where="post", color=colour, label=label)
    axes.set(xlabel="time (s)", ylabel="cwnd (packets)", xlim=(0, GRAPH_END_S))
    axes.set_title(f"cwnd, queue {GRAPH_QUEUE}, alpha 3, beta 6")
    axes.legend()
    return figure
