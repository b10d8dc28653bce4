"""Sec. 16.3.8: overhead against telnet. ratio1 against delayB 0 to 400 ms
(steps of 5, 3000 s, 800 kbit/s, queue 20) with the two ways of breaking
the senders' synchronization side by side: telnet traffic of 250-byte
packets at densities 0.5% to 5% (basic2-telnet.tcl; the chapter's figure has
four telnet curves, taken here as 0.5, 1, 2 and 5%) and overhead_ 0.01,
0.015 and 0.02 s (basic2.tcl). The chapter: telnet at 1% "is in excellent
agreement with the use of overhead"; smaller densities give a larger
ratio1, larger densities a smaller one."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from ackclock.experiments.chapter.oscillation import mean_deviation
from ackclock.experiments.chapter.scripts import ns2_fixture
from ackclock.experiments.chapter.telnet import telnet_runs
from ackclock.experiments.study import Options, markdown_table, save_report

RTT_NO_LOAD_MS = 220  # basic2.tcl's RTTNL: ratio1 = goodput ratio / ((2 delayB + 220) / 220)
AGREEING_DENSITY = 0.01  # the telnet curve the chapter finds agreeing with overhead


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    # One sweep of basic2-telnet.tcl: the telnet curves without overhead, the
    # overhead curves without telnet (density 0: basic2.tcl's own traffic).
    densities, overheads = list(params["density"]), list(params["overhead"])
    frame = telnet_runs(
        densities + [0.0] * len(overheads),
        [0.0] * len(densities) + overheads,
        params["delayB"],
        params["end"],
        options,
    )
    telnet = frame["density"] > 0
    return frame.assign(
        curve=telnet.map({True: "telnet", False: "overhead"}),
        value=frame["density"].where(telnet, frame["overhead"]),
    )[["curve", "value", "delayB", "seed", "recv0", "recv1", "ratio1"]]


def _label(curve: str, value: float) -> str:
    return f"telnet {value:.1%}" if curve == "telnet" else f"overhead {value:g} s"


def _curves(frame: pd.DataFrame) -> dict[tuple[str, float], pd.Series]:
    """ratio1 against delayB per curve, telnet densities first."""
    return {
        (curve, float(value)): runs.set_index("delayB")["ratio1"].sort_index()
        for (curve, value), runs in frame.sort_values(
            ["curve", "value"], ascending=[False, True]
        ).groupby(["curve", "value"], sort=False)
    }


def _ns2_rows(frame: pd.DataFrame, end: int) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """ns-2 2.35's ratio1 at the points benchmarks/ns2/overhead_telnet.py
    ran for this run length, beside ackclock's for the same generator seed."""
    rows, numbers = [], []
    for point in ns2_fixture("ns2_overhead_telnet.json").get("points", []):
        chosen = frame[
            (frame["curve"] == point["curve"])
            & (frame["value"] == point["value"])
            & (frame["delayB"] == point["delayB"])
        ]
        if point["end"] != end or chosen.empty:
            continue
        seed = int(chosen["seed"].iloc[0])
        recv = [int(chosen["recv0"].iloc[0]), int(chosen["recv1"].iloc[0])]
        rtt_ratio = (2 * point["delayB"] + RTT_NO_LOAD_MS) / RTT_NO_LOAD_MS
        theirs = [recv0 / recv1 / rtt_ratio for recv0, recv1 in point["recv"]]
        ours = recv[0] / recv[1] / rtt_ratio
        same_seed = theirs[seed - 1] if seed <= len(theirs) else None
        rows.append(
            [
                _label(point["curve"], point["value"]),
                point["delayB"],
                None if same_seed is None else f"{same_seed:.3f}",
                f"{ours:.3f}",
                f"{statistics.median(theirs):.3f} ({min(theirs):.3f}–{max(theirs):.3f})",
            ]
        )
        numbers.append(
            {
                "curve": point["curve"],
                "value": point["value"],
                "delayB": point["delayB"],
                "seed": seed,
                "ratio1": ours,
                "ns2_same_seed": same_seed,
                "same_run": seed <= len(theirs) and point["recv"][seed - 1] == recv,
                "ns2_seeds": theirs,
            }
        )
    return rows, numbers


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    curves = _curves(frame)
    overheads = [key for key in curves if key[0] == "overhead"]
    rows, numbers = [], {}
    for key, ratio1 in curves.items():
        differences = {
            f"{other[1]:g}": float((ratio1 - curves[other]).abs().mean()) for other in overheads
        }
        rows.append(
            [
                _label(*key),
                f"{ratio1.mean():.3f}",
                f"{mean_deviation(ratio1):.3f}",
                *(f"{d:.3f}" for d in differences.values()),
            ]
        )
        numbers[f"{key[0]} {key[1]:g}"] = {
            "mean_ratio1": float(ratio1.mean()),
            "mean_abs_difference": differences,
        }
    telnet = sorted(
        (value, curves[curve, value].mean()) for curve, value in curves if curve == "telnet"
    )
    # The chapter's claim, against the agreeing 1%: smaller densities give a larger
    # ratio1, larger ones a smaller.
    pivot = dict(telnet).get(AGREEING_DENSITY)
    sides = pivot is not None and all(
        (mean > pivot) if value < AGREEING_DENSITY else (mean < pivot)
        for value, mean in telnet
        if value != AGREEING_DENSITY
    )
    falls = all(a[1] > b[1] for a, b in itertools.pairwise(telnet))
    # The telnet curve closest to the overhead curves on average (the chapter: 1%).
    closest = min(
        (value for value, _ in telnet),
        key=lambda value: statistics.mean(
            numbers[f"telnet {value:g}"]["mean_abs_difference"].values()
        ),
    )
    ns2_rows, ns2_numbers = _ns2_rows(frame, end)
    delays = sorted(frame["delayB"].unique())
    headline = {
        "end_s": end,
        "delays": len(delays),
        "curves": numbers,
        "smaller_density_larger_ratio1": sides,
        "telnet_ratio1_falls_steadily": falls,
        "closest_telnet_density": closest,
        "ns2": ns2_numbers,
    }
    markdown = "\n\n".join(
        [
            "# overhead against telnet (seed 003, §16.3.8)",
            f"`ackclock tcl basic2-telnet.tcl DELAYB OVERHEAD 0.8 {end} 20 DENSITY`, each "
            "telnet curve with overhead 0 and each overhead curve with density 0 (no telnet), "
            f"for delayB "
            f"{delays[0]:g} to {delays[-1]:g} ms ({len(delays)} values; the chapter: 0 to 400 "
            "by 5, 3000 s). Telnet densities 0.5, 1, 2 and 5% stand for the chapter's four "
            "reddish curves (it gives their range only). Per curve: ratio1's mean over the "
            "delays, its mean absolute deviation (the oscillation), and its mean absolute "
            "difference from each overhead curve, delay by delay.",
            markdown_table(
                [
                    "curve",
                    "mean ratio1",
                    "mean deviation",
                    *(f"mean abs difference from overhead {v:g}" for _, v in overheads),
                ],
                rows,
            ),
            _claims(telnet, sides, falls, closest, numbers),
            *_ns2_text(ns2_rows, end),
        ]
    )
    figures = {"overhead_vs_telnet": _figure(curves)}
    return save_report(out, markdown + "\n", headline, figures)


def _claims(
    telnet: list[tuple[float, float]],
    sides: bool,
    falls: bool,
    closest: float,
    numbers: dict[str, Any],
) -> str:
    means = ", ".join(f"{mean:.3f} at {value:.1%}" for value, mean in telnet)
    agreeing = numbers.get(f"telnet {AGREEING_DENSITY:g}")
    agreement = (
        ""
        if agreeing is None
        else " Telnet 1% differs from the overhead curves by "
        + ", ".join(f"{d:.3f} ({o} s)" for o, d in agreeing["mean_abs_difference"].items())
        + " on average"
    )
    return (
        f"Telnet's mean ratio1: {means}; "
        + (
            "as in the chapter, densities below 1% give a larger ratio1 and those above a "
            "smaller one"
            if sides
            else "unlike the chapter, the densities do not fall on either side of 1% as their "
            "size says"
        )
        + (
            "."
            if falls
            else " (not steadily: past 1%, §16.3.7 says, telnet's window limits it and the "
            "curves converge)."
        )
        + agreement
        + f"; the telnet curve closest to the overhead curves is {closest:.1%}"
        + (" (the chapter's)." if closest == AGREEING_DENSITY else ", not the chapter's 1%.")
    )


def _ns2_text(rows: list[list[Any]], end: int) -> list[str]:
    if not rows:
        return [
            f"ns-2 2.35 has not run {end} s at these points "
            "(benchmarks/ns2/overhead_telnet.py record)."
        ]
    return [
        "ns-2 2.35 on the same scripts and arguments (tests/fixtures/ns2_overhead_telnet.json, "
        "benchmarks/ns2/overhead_telnet.py): overhead_ draws from ns-2's generator, which "
        "ackclock reproduces, so the same seed gives the same run; telnet's intervals come "
        "from ackclock's own streams, so there only the spread over ns-2's seeds compares.",
        markdown_table(
            [
                "curve",
                "delayB",
                "ns-2 ratio1, same seed",
                "ackclock ratio1",
                "ns-2 median (min–max) over seeds",
            ],
            rows,
        ),
    ]


def _figure(curves: Mapping[tuple[str, float], pd.Series]) -> Figure:
    figure = Figure(figsize=(9, 4.5), layout="constrained")
    axes = figure.subplots()
    # As the chapter's figure: telnet in reds, overhead in greens, darker for larger values.
    for curve, colours in (("telnet", "Reds"), ("overhead", "Greens")):
        keys = [key for key in curves if key[0] == curve]
        for i, key in enumerate(keys):
            colour = colormaps[colours](0.45 + 0.5 * i / max(1, len(keys) - 1))
            ratio1 = curves[key]
            axes.plot(ratio1.index, ratio1.values, "-", color=colour, label=_label(*key))
    axes.set(xlabel="delayB (ms)", ylabel="ratio1 (goodput ratio / RTT ratio)")
    axes.set_title("overhead against telnet: 800 kbit/s, queue 20")
    axes.legend(ncols=2)
    return figure
