"""Seed 004: TCP Tahoe through a router whose buffer holds each packet an
exponentially distributed time (mean 0, 1 or 2 round trips, optionally
redrawn while 3 or more), so that packets overtake one another; buffer 5 or
10 packets, retransmission timeout 1, 3 or 5 round trips, 100 or 200 round
trips simulated. The study's numbers come from a toy simulator that moves
whole windows once a round trip (its delays are whole round trips); here
the same router model (`ackclock.DelayBuffer`) sits in front of a packet-level
Tahoe sender, and every time is in round trips of the empty path.

The path: sender -100 Mbit/s, 1 ms- router -1 Mbit/s, 18 ms- receiver, so a
full segment's round trip is 2 x 19 ms + 12.1 ms + the ACK's 0.4 ms, about
50 ms (RTT_S), and the path holds 4 segments besides the buffer. The
sender is the rfc profile's Tahoe with what the study's sender does not
have switched off: it acknowledges every segment, starts from one segment
and has no SACK. Its retransmission timeout is fixed at `timeout` round
trips (initial_rto = min_rto = max_rto): the study's sender has a constant
timer (TIMER_DEFAULT), neither measured from RTT samples nor backed off."""

from __future__ import annotations

import math
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ackclock.confidence import mean_confidence_interval
from ackclock.experiments.study import Options, markdown_table, run_sweep, save_report
from ackclock.simulator import Simulator
from ackclock.specs import DelayBuffer
from ackclock.sweeps import Function
from ackclock.tcp_specs import Bulk, TcpParams

RTT_S = 0.05
BOTTLENECK_BPS = 1_000_000
MSS, SEGMENT_BYTES = 1460, 1512  # on the wire: 40 bytes of headers and 12 of timestamps
PAYLOAD_BPS = BOTTLENECK_BPS * MSS / SEGMENT_BYTES
PARAMETERS = ("mean", "buffer", "timeout", "cap", "rtts")


@dataclass(frozen=True)
class Case:
    """One of the study's runs: its parameters (times in round trips, cap 0
    for none) and what it reports (None where it gives no number)."""

    label: str
    mean: float
    buffer: int = 5
    timeout: float = 3
    cap: float = 0
    rtts: int = 100
    utilization_pct: float | None = None
    drops: int | None = None

    def point(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in PARAMETERS}


# The study's cases, each one change from its mean-1 case. Its buffer-10
# drops are "this initial router overflow of 2"; it did not run mean 2.
CASES = (
    Case("mean 0", 0, utilization_pct=25, drops=23),
    Case("mean 1", 1, utilization_pct=4.9, drops=5),
    Case("mean 2", 2),
    Case("buffer 10", 1, buffer=10, utilization_pct=2.85, drops=2),
    Case("timeout 5 RTTs", 1, timeout=5, utilization_pct=4),
    Case("timeout 1 RTT", 1, timeout=1, utilization_pct=7),
    Case("capped below 3 RTTs", 1, cap=3, utilization_pct=5.3),
    Case("200 RTTs", 1, rtts=200, utilization_pct=4.5),
)
BASE = CASES[1]


def _tahoe(
    sim: Simulator, mean: float, buffer: int, timeout: float, cap: float, rtts: int, record: bool
):
    sender, router, receiver = sim.node("sender"), sim.node("router"), sim.node("receiver")
    sim.duplex_link(sender, router, "100Mb", "1ms")
    queue = DelayBuffer(mean=mean * RTT_S, cap=cap * RTT_S if cap else None, limit=buffer)
    sim.duplex_link(router, receiver, BOTTLENECK_BPS, "18ms", queue=queue)
    rto = timeout * RTT_S
    tcp = TcpParams(
        profile="rfc",
        cc="tahoe",
        delayed_ack=False,
        initial_window=1,
        sack=False,
        initial_rto=rto,
        min_rto=rto,
        max_rto=rto,
    )
    flow = sim.tcp(sender, receiver, app=Bulk(), tcp=tcp, record=record, name="tahoe")
    return flow, router, receiver


def _utilization(flow_stats: Mapping[str, Any], rtts: int) -> float:
    return flow_stats["bytes_delivered"] * 8 / (rtts * RTT_S * PAYLOAD_BPS)


def tahoe_reorder(
    sim: Simulator, mean: float, buffer: int, timeout: float, cap: float, rtts: int
) -> dict[str, float]:
    """One run (a sweep's): the bottleneck's share carrying new data."""
    flow, _, _ = _tahoe(sim, mean, buffer, timeout, cap, rtts, record=False)
    sim.run(until=rtts * RTT_S)
    return {"utilization": _utilization(flow.stats(), rtts)}


def tahoe_reorder_traced(
    sim: Simulator, mean: float, buffer: int, timeout: float, cap: float, rtts: int
) -> dict[str, Any]:
    """One run with the sender's cwnd and flight size, the packets in the
    router's buffer over time and each data packet's time in it."""
    flow, router, receiver = _tahoe(sim, mean, buffer, timeout, cap, rtts, record=True)
    with tempfile.TemporaryDirectory() as directory:
        trace = Path(directory) / "bottleneck.tr"
        sim.trace_queue(router, receiver, trace)
        sim.run(until=rtts * RTT_S)
        buffer_frame, delays = _buffer_and_delays(trace.read_text())
    series = flow.series()
    cwnd_t, cwnd = series["cwnd"]
    flight_t, flight = series["bytes_in_flight"]
    return {
        "utilization": _utilization(flow.stats(), rtts),
        "cwnd": pd.DataFrame({"time": cwnd_t, "bytes": cwnd}),
        "flight": pd.DataFrame({"time": flight_t, "bytes": flight}),
        "buffer": buffer_frame,
        "delays": delays,
    }


def _buffer_and_delays(trace: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """From the bottleneck's ns-2 trace: the packets in the router's buffer
    after each change, and each departing packet's time in it (enqueue '+'
    to dequeue '-', keyed by the packet's unique id, the last field)."""
    times, counts, delays = [], [], []
    arrived: dict[str, float] = {}
    waiting = 0
    for line in trace.splitlines():
        fields = line.split()
        if not fields or fields[0] not in "+-d":
            continue
        event, time, packet = fields[0], float(fields[1]), fields[-1]
        if event == "+":
            arrived[packet] = time
            waiting += 1
        else:
            waiting -= 1
            enqueued = arrived.pop(packet)
            if event == "-":
                delays.append(time - enqueued)
        times.append(time)
        counts.append(waiting)
    # A dropped arrival is traced '+' then 'd' at one instant: keep an instant's last count.
    occupancy = pd.DataFrame({"time": times, "packets": counts})
    return occupancy.drop_duplicates("time", keep="last"), pd.DataFrame({"delay": delays})


def run(params: Mapping[str, Any], options: Options) -> dict[str, Any]:
    """The study's cases (params["seeds"] replications each), the grid in
    params (if any) and one traced run of each case for the figures."""
    cases = {name: [getattr(case, name) for case in CASES] for name in PARAMETERS}
    seeds = params["seeds"]
    frames = [run_sweep(Function(tahoe_reorder), {}, options, seeds, zips=[cases])]
    if params.get("grid"):
        frames.append(run_sweep(Function(tahoe_reorder), params["grid"], options, seeds))
    traced = run_sweep(Function(tahoe_reorder_traced), {}, options, zips=[cases])
    details = {}
    for _, row in traced.iterrows():
        case = next(c for c in CASES if all(row[n] == getattr(c, n) for n in PARAMETERS))
        details[case.label] = {
            name: pd.read_parquet(options.out / row[f"series.{name}"])
            for name in ("cwnd", "flight", "buffer", "delays")
        }
    runs = pd.concat(frames).drop_duplicates(subset=[*PARAMETERS, "replication"])
    return {"runs": runs, "details": details}


def _summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per parameter point: utilization (mean, CI half-width), drops, timeouts."""
    rows = []
    for point, group in runs.groupby(list(PARAMETERS), sort=True):
        values = group["utilization"].tolist()
        half = mean_confidence_interval(values).half_width if len(values) > 1 else math.nan
        rows.append(
            dict(zip(PARAMETERS, point))
            | {
                "utilization": sum(values) / len(values),
                "half_width": half,
                "lowest": min(values),
                "highest": max(values),
                "drops": float(group["link.router->receiver.queue_drops"].mean()),
                "timeouts": float(group["flow.tahoe.timeouts"].mean()),
                "fast_retransmits": float(group["flow.tahoe.fast_retransmits"].mean()),
                "runs": len(values),
            }
        )
    return pd.DataFrame(rows).set_index(list(PARAMETERS))


def write_report(results: Mapping[str, Any], params: Mapping[str, Any], out: Path) -> list[Path]:
    summary = _summary(results["runs"])
    rows, numbers = [], {}
    for case in CASES:
        point = summary.loc[tuple(case.point().values())]
        numbers[case.label] = case.point() | {
            "study_utilization_pct": case.utilization_pct,
            "study_drops": case.drops,
            "utilization_pct": 100 * point["utilization"],
            "half_width_pct": 100 * point["half_width"],
            "lowest_pct": 100 * point["lowest"],
            "highest_pct": 100 * point["highest"],
            "drops": point["drops"],
            "timeouts": point["timeouts"],
            "fast_retransmits": point["fast_retransmits"],
        }
        rows.append(
            [
                case.label,
                case.utilization_pct,
                f"{100 * point['utilization']:.1f} ± {100 * point['half_width']:.1f}",
                case.drops,
                f"{point['drops']:.1f}",
                f"{point['timeouts']:.1f}",
                f"{point['fast_retransmits']:.1f}",
            ]
        )
    trends = _trends(numbers)
    markdown = "\n\n".join(
        [
            "# TCP Tahoe through a reordering router buffer (seed 004)",
            "Tahoe (rfc profile: every segment acknowledged, initial window 1, no SACK; its "
            "timeout fixed, initial_rto = min_rto = max_rto, as the study's constant timer) "
            "over a 1 Mbit/s bottleneck whose buffer holds each packet an exponential time "
            f"(`DelayBuffer`). Times are in round trips of the empty path "
            f"(RTT = {RTT_S * 1e3:g} ms: 2 × 19 ms of propagation and a segment's 12 ms at "
            f"1 Mbit/s); the cases change one parameter each from mean 1, buffer 5, timeout 3, "
            f"100 RTTs. Utilization: new data delivered over the bottleneck's payload capacity "
            f"({PAYLOAD_BPS / 1e6:.3f} Mbit/s); ackclock's are means of {params['seeds']} "
            f"seeds with 95% confidence intervals, the study's one run each.",
            markdown_table(
                [
                    "case",
                    "study utilization %",
                    "ackclock utilization %",
                    "study drops",
                    "ackclock drops",
                    "ackclock timeouts",
                    "ackclock fast retransmits",
                ],
                rows,
            ),
            "## Trends",
            "\n".join(trends),
            "## Why the trends differ",
            _why_trends(numbers, params["seeds"]),
            "## Why the absolute values differ",
            "The study's simulator moves a whole window once per round trip and counts delays in "
            "whole round trips, so a packet delayed by one round trip costs a full round trip of "
            "the sender's time and even its undelayed case uses a quarter of the link. "
            "ackclock sends each segment as ACKs return and delays it by a continuous "
            "exponential time, so a Tahoe sender without delays keeps the 1 Mbit/s link "
            f"{numbers['mean 0']['utilization_pct']:.0f}% busy with a 5-packet buffer, and the "
            "delays cost a fraction of a round trip each. The study's undefined pieces (its "
            "link rate, its utilization's denominator, single runs) also keep its absolute "
            "numbers from being reproduced; its ratios are what carry over.",
            *_grid_lines(summary, params),
        ]
    )
    figures = {
        "utilization": _utilization_figure(summary, numbers),
        "window": _panels(results["details"], _window_panel, "cwnd and flight size (bytes)"),
        "buffer": _panels(results["details"], _buffer_panel, "packets in the router's buffer"),
        "delays": _delay_figure(results["details"][BASE.label]),
    }
    headline = {"rtt_s": RTT_S, "cases": numbers, "trends": trends}
    return save_report(out, markdown + "\n", headline, figures)


def _trends(numbers: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Each study case against the mean-1 case: the study's direction and
    ackclock's, a difference within the two CIs counting as none."""
    base = numbers[BASE.label]
    lines = []
    for case in CASES:
        if case is BASE:
            continue
        ours = numbers[case.label]
        gap = ours["utilization_pct"] - base["utilization_pct"]
        noise = ours["half_width_pct"] + base["half_width_pct"]
        if abs(gap) <= noise:
            ackclock = "no change beyond the noise"
        else:
            ackclock = "higher" if gap > 0 else "lower"
        measured = (
            f"ackclock {ours['utilization_pct']:.1f}% against {base['utilization_pct']:.1f}% "
            f"({ackclock})"
        )
        if case.utilization_pct is None:
            lines.append(f"- {case.label}: not in the study; {measured}.")
            continue
        study = "higher" if case.utilization_pct > BASE.utilization_pct else "lower"
        verdict = "reproduced" if study == ackclock else "not reproduced"
        lines.append(
            f"- {case.label}: the study {case.utilization_pct:g}% against "
            f"{BASE.utilization_pct:g}% ({study}); {measured}: {verdict}."
        )
    return lines


def _why_trends(numbers: Mapping[str, Mapping[str, Any]], seeds: int) -> str:
    """The mechanisms behind the trends ackclock does not share, with its numbers."""
    base = numbers[BASE.label]
    short, long = numbers["timeout 1 RTT"], numbers["timeout 5 RTTs"]
    low = base["lowest_pct"] / base["utilization_pct"] - 1
    high = base["highest_pct"] / base["utilization_pct"] - 1
    changes = {
        case.label: case.utilization_pct / BASE.utilization_pct - 1
        for case in CASES[2:]
        if case.utilization_pct is not None
    }
    within = [
        f"{label} ({change:+.0%})" for label, change in changes.items() if low <= change <= high
    ]
    beyond = [
        f"{label} ({change:+.0%})" for label, change in changes.items() if not low <= change <= high
    ]
    return (
        f"One run of the mean-1 case gives {base['lowest_pct']:.1f}% to "
        f"{base['highest_pct']:.1f}% over {seeds} seeds, {low:+.0%} to {high:+.0%} of the "
        "mean, while the study compares single runs: of its changes from the mean-1 case, "
        f"{', '.join(within) or 'none'} lie within that spread, "
        f"{', '.join(beyond) or 'none'} beyond it. With a mean delay of a round trip the "
        "window seldom outgrows a 5-packet buffer (drops "
        f"{base['drops']:.1f} a run against {numbers['buffer 10']['drops']:.1f} with 10), so "
        "the larger buffer changes little. The timeout acts the other way round from the "
        "study's: in ackclock the round trip includes the buffer's queue and its delays, "
        "so a fixed timeout of one empty-path round trip expires before most ACKs return "
        f"({short['timeouts']:.0f} timeouts a run against {base['timeouts']:.0f} with 3 "
        "RTTs), and every spurious timeout sets cwnd back to one segment; with 5 RTTs "
        f"most delayed packets arrive in time ({long['timeouts']:.1f} timeouts a run) and "
        "the window keeps growing. The study's discrete round trips return every "
        "undelayed ACK within its round, so its short timer fires only for delayed "
        "packets and resends them sooner."
    )


def _grid_lines(summary: pd.DataFrame, params: Mapping[str, Any]) -> list[str]:
    if not params.get("grid"):
        return []
    grid = summary.reset_index()
    rows = [
        [
            f"{r['mean']:g}",
            int(r["buffer"]),
            f"{r['timeout']:g}",
            f"{r['cap']:g}" if r["cap"] else "none",
            int(r["rtts"]),
            f"{100 * r['utilization']:.1f} ± {100 * r['half_width']:.1f}",
            f"{r['drops']:.1f}",
            f"{r['timeouts']:.1f}",
        ]
        for _, r in grid.iterrows()
    ]
    return [
        "## The full grid",
        markdown_table(
            [
                "mean (RTTs)",
                "buffer",
                "timeout (RTTs)",
                "cap (RTTs)",
                "RTTs",
                "utilization %",
                "drops",
                "timeouts",
            ],
            rows,
        ),
    ]


def _utilization_figure(summary: pd.DataFrame, numbers: Mapping[str, Any]) -> Figure:
    figure = Figure(figsize=(12, 4.5), layout="constrained")
    cases, means = figure.subplots(1, 2)
    labels = [case.label for case in CASES]
    x = range(len(labels))
    study = [numbers[label]["study_utilization_pct"] or math.nan for label in labels]
    ours = [numbers[label]["utilization_pct"] for label in labels]
    errors = [numbers[label]["half_width_pct"] for label in labels]
    cases.bar([i - 0.2 for i in x], study, 0.4, label="the study")
    cases.bar([i + 0.2 for i in x], ours, 0.4, yerr=errors, label="ackclock (95% CI)")
    cases.set_xticks(list(x), labels, rotation=30, ha="right")
    cases.set(ylabel="utilization (%)", title="The study's cases")
    cases.legend()
    grid = summary.reset_index()
    grid = grid[(grid["cap"] == 0) & (grid["rtts"] == BASE.rtts)]
    for (buffer, timeout), points in grid.groupby(["buffer", "timeout"], sort=True):
        means.errorbar(
            points["mean"],
            100 * points["utilization"],
            yerr=100 * points["half_width"],
            marker="o",
            capsize=3,
            label=f"buffer {buffer}, timeout {timeout:g} RTTs",
        )
    means.set(
        xlabel="mean delay in the buffer (RTTs)",
        ylabel="utilization (%)",
        title=f"ackclock, {BASE.rtts} RTTs, no cap",
    )
    means.legend(fontsize="small")
    return figure


def _panels(details: Mapping[str, Mapping[str, pd.DataFrame]], draw, ylabel: str) -> Figure:
    figure = Figure(figsize=(12, 10), layout="constrained")
    axes = figure.subplots(4, 2, sharey=True).ravel()
    for panel, case in zip(axes, CASES):
        draw(panel, details[case.label])
        panel.set_title(case.label, fontsize="medium")
        panel.set_xlim(0, case.rtts)
    for panel in axes[-2:]:
        panel.set_xlabel("time (RTTs)")
    figure.supylabel(ylabel)
    return figure


def _window_panel(axes, detail: Mapping[str, pd.DataFrame]) -> None:
    for name, label in (("cwnd", "cwnd"), ("flight", "flight size")):
        frame = detail[name]
        axes.step(frame["time"] / RTT_S, frame["bytes"], where="post", label=label)
    axes.legend(fontsize="small", loc="upper right")


def _buffer_panel(axes, detail: Mapping[str, pd.DataFrame]) -> None:
    frame = detail["buffer"]
    axes.step(frame["time"] / RTT_S, frame["packets"], where="post")


def _delay_figure(detail: Mapping[str, pd.DataFrame]) -> Figure:
    figure = Figure(figsize=(6, 4), layout="constrained")
    axes = figure.subplots()
    delays = detail["delays"]["delay"] / RTT_S
    width = 0.25
    bins = [i * width for i in range(int(delays.max() / width) + 2)]
    axes.hist(delays, bins=bins, label="time in the buffer")
    density = [len(delays) * width * math.exp(-(b + width / 2)) for b in bins]
    axes.plot([b + width / 2 for b in bins], density, "k--", label="exponential, mean 1 RTT")
    axes.set(xlabel="time in the router's buffer (RTTs)", ylabel="packets")
    axes.set_title(f"Delay histogram, {BASE.label} (one run)")
    axes.legend()
    return figure
