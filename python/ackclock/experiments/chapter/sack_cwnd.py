"""Sec. 16.4.3: loss rate against cwnd, part 2: the two-sender network with
SACK TCP (basic2.tcl with Agent/TCP/Sack1 and Agent/TCPSink/Sack1,
bottleneck 8 Mbit/s, overhead 0.002, 3000 s) for delayB 0 to 400 ms. For
each flow the chapter compares the true average cwnd, packets ACKed times
RTTnoLoad (220 ms, and 220 + 2 delayB for flow 1) over the run's length,
with the estimate K/sqrt(p), K = 1.225, p the flow's loss responses (teeth
after 3 s) over its packets; the estimates come out within about 5%."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ackclock.experiments.chapter.basic2 import basic2_sack
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report

ANALYSIS = "ackclock.experiments.chapter.traces:loss_responses"
K = 1.225
RTT_NO_LOAD_S = 0.220  # basic2.tcl's RTTNL
# delayB -> (true avg cwnd0, estimated cwnd0, true avg cwnd1, estimated cwnd1), 3000 s.
PUBLISHED = {
    0: (89.2, 93.5, 87.7, 92.2),
    10: (92.5, 95.9, 95.6, 99.2),
    20: (95.6, 99.2, 98.9, 101.9),
    40: (104.9, 108.9, 103.3, 105.6),
    70: (117.0, 121.6, 101.5, 102.8),
    100: (121.9, 126.9, 104.1, 104.1),
    150: (125.2, 129.8, 112.7, 109.7),
    200: (133.0, 137.5, 95.9, 93.3),
    250: (133.4, 138.2, 81.0, 78.6),
    300: (134.6, 138.8, 74.2, 70.9),
    350: (135.2, 139.1, 69.8, 68.4),
    400: (137.2, 140.6, 60.4, 58.5),
}
PUBLISHED_END_S = 3000


def run(params: Mapping[str, Any], options: Options) -> pd.DataFrame:
    argv = ["{delayB}", "0.002", "8.0", str(params["end"])]
    script = basic2_sack(argv, options.out, ANALYSIS)
    return run_sweep(script, {"delayB": params["delayB"]}, options).assign(end=params["end"])


def flow_cwnds(acked: float, responses: float, rtt_s: float, end_s: float) -> tuple[float, float]:
    """(true average cwnd, K / sqrt(p)) of one flow, as the chapter computes them."""
    true = acked * rtt_s / end_s
    estimate = K / math.sqrt(responses / acked) if responses else math.inf
    return true, estimate


def write_report(frame: pd.DataFrame, params: Mapping[str, Any], out: Path) -> list[Path]:
    end = params["end"]
    comparable = end == PUBLISHED_END_S
    rows, numbers = [], {}
    for _, run in frame.sort_values("delayB").iterrows():
        delay = int(run["delayB"])
        rtts = (RTT_NO_LOAD_S, RTT_NO_LOAD_S + 2 * delay / 1000)
        flows = [flow_cwnds(run[f"recv{i}"], run[f"responses{i}"], rtts[i], end) for i in (0, 1)]
        errors = [estimate / true - 1 for true, estimate in flows]
        published = PUBLISHED.get(delay)
        chapter = (
            [None] * 2
            if published is None
            else [
                f"{published[0]} / {published[1]} ({published[1] / published[0] - 1:+.1%})",
                f"{published[2]} / {published[3]} ({published[3] / published[2] - 1:+.1%})",
            ]
        )
        ours = [f"{t:.1f} / {e:.1f} ({err:+.1%})" for (t, e), err in zip(flows, errors)]
        rows.append([delay, chapter[0], ours[0], chapter[1], ours[1]])
        numbers[str(delay)] = {
            "true_cwnd": [flows[0][0], flows[1][0]],
            "estimated_cwnd": [flows[0][1], flows[1][1]],
            "error": errors,
            "loss_responses": [int(run["responses0"]), int(run["responses1"])],
            "timeouts": [int(run["timeouts0"]), int(run["timeouts1"])],
            "published": None if published is None else list(published),
        }
    note = (
        "The chapter's runs last 3000 s like these."
        if comparable
        else f"These runs last {end} s, the chapter's {PUBLISHED_END_S} s (`--full`): fewer "
        "losses, so p and the estimate are rougher."
    )
    markdown = "\n\n".join(
        [
            "# Loss rate against cwnd with SACK, two senders (seed 003, §16.4.3)",
            f"`ackclock tcl basic2-sack.tcl DELAYB 0.002 8.0 {end}` (both connections SACK TCP). "
            "Per flow: true average cwnd (packets ACKed x RTTnoLoad / run length) / "
            f"K/sqrt(p) with K = {K} and p = loss responses / packets (error).",
            markdown_table(
                ["delayB (ms)", "chapter flow 0", "ackclock flow 0", "chapter flow 1",
                 "ackclock flow 1"],
                rows,
            ),
            note,
        ]
    )  # fmt: skip
    return save_report(out, markdown + "\n", {"end_s": end, "rows": numbers})
