"""Sec. 16.4.4: clusters of packet drops. basic2.tcl with equal paths
(delayB 0, 800 kbit/s, 3000 s) and the senders' overhead_ at 0, 0.0012,
0.003, 0.0055 and 0.008 s: for each drop cluster (the drops within 2 s of
the cluster's first, after slow start), how many packets each flow lost.
The chapter: every cluster is (1, 1) up to 0.0055; at 0.008 the clusterdict
is {(1,1): 674, (1,2): 1, (2,1): 1}; at 0.02 the pairs spread out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.basic2 import basic2
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report

ANALYSIS = "ackclock.experiments.chapter.traces:drop_cluster_counts"
# overhead -> the chapter's clusterdict, as "d0,d1:count" pairs ("only (1,1)" where it
# gives no count).
PUBLISHED = {0.0: None, 0.0012: None, 0.003: None, 0.0055: None, 0.008: "1,1:674 1,2:1 2,1:1"}
# Overhead 0.02: the chapter's diagram is an image; its text gives one entry.
PUBLISHED_ENTRY = {0.02: ((2, 1), 91)}


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    argv = ["0", "{overhead}", "0.8", str(params["end"])]
    return run_sweep(basic2(argv, ANALYSIS), {"overhead": params["overhead"]}, options)


def parse_clusterdict(text: str) -> dict[tuple[int, int], int]:
    pairs = {}
    for item in text.split():
        drops, count = item.split(":")
        d0, d1 = drops.split(",")
        pairs[(int(d0), int(d1))] = int(count)
    return pairs


def _shown(pairs: Mapping[tuple[int, int], int]) -> str:
    return "{" + ", ".join(f"({a},{b}): {n}" for (a, b), n in pairs.items()) + "}"


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    rows, numbers, notes = [], {}, []
    for overhead, text, events in zip(
        frame["overhead"], frame["clusterdict"], frame["loss_events"]
    ):
        ours = parse_clusterdict(str(text))
        known = float(overhead) in PUBLISHED
        published = PUBLISHED.get(float(overhead))
        theirs = parse_clusterdict(published) if published else None
        only_11 = set(ours) == {(1, 1)}
        entry = PUBLISHED_ENTRY.get(float(overhead))
        if entry is not None:
            (pair, count), got = entry, ours.get(entry[0], 0)
            chapter = f"({pair[0]},{pair[1]}): {count} (the one entry its text gives)"
            if got != count:
                notes.append(
                    f"- overhead {overhead:g}: ackclock has {got} ({pair[0]},{pair[1]}) clusters, "
                    f"the chapter {count}; with overhead > 0 a run is one draw of ns-2's generator."
                )
        elif not known:
            chapter = None
        elif theirs is None:
            chapter = "only (1,1)"
        else:
            chapter = _shown(theirs)
        rows.append([f"{overhead:g}", chapter, _shown(ours), events])
        numbers[f"{overhead:g}"] = {
            "clusters": {f"{a},{b}": n for (a, b), n in ours.items()},
            "loss_events": events,
            "published": None
            if theirs is None
            else {f"{a},{b}": n for (a, b), n in theirs.items()},
            "published_only_1_1": known and theirs is None,
            "published_entry": None if entry is None else [*entry[0], entry[1]],
        }
        if known and theirs is None and not only_11:
            notes.append(
                f"- overhead {overhead:g}: the chapter has only (1,1) clusters, ackclock also "
                f"{_shown({k: v for k, v in ours.items() if k != (1, 1)})}."
            )
        elif theirs is not None and ours != theirs:
            notes.append(
                f"- overhead {overhead:g}: ackclock's {ours.get((1, 1), 0)} (1,1) clusters "
                f"against the chapter's {theirs.get((1, 1), 0)} "
                f"({ours.get((1, 1), 0) / theirs.get((1, 1), 1) - 1:+.1%}); with overhead > 0 "
                "a run is one draw of ns-2's generator, and the odd (1,2) and (2,1) clusters "
                "are rare events of that draw."
            )
    markdown = "\n\n".join(
        [
            "# Clusters of packet drops (seed 003, §16.4.4)",
            f"`ackclock tcl basic2.tcl 0 OVERHEAD 0.8 {end}` (equal paths), then teeth.py's "
            "clusterdict (`ackclock.analysis.drop_clusters` and `cluster_counts`): "
            "(flow-0 drops, flow-1 drops): clusters, for drops after 3 s, a cluster being the "
            "drops within 2 s of its first.",
            markdown_table(["overhead (s)", "chapter", "ackclock", "ackclock loss events"], rows),
            *notes,
        ]
    )
    return save_report(out, markdown + "\n", {"end_s": end, "rows": numbers})
