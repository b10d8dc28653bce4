"""The human-readable summary `ackclock run` prints: one table of link
directions and one of flows."""

from __future__ import annotations

from ackclock.results import RunResult
from ackclock.tables import format_table
from ackclock.units import PS_PER_S, format_bandwidth, format_duration


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def format_summary(results: RunResult, wall_s: float) -> str:
    links = [
        [
            f"{link['from']}->{link['to']}",
            format_bandwidth(link["bandwidth_bps"]),
            format_duration(round(link["delay_s"] * PS_PER_S)),
            str(link["tx_packets"]),
            str(link["drops"]),
            f"{link['utilization'] * 100:.1f}%",
            f"{link['mean_queue_packets']:.2f}",
        ]
        for link in results["links"]
    ]
    flows = [
        [
            flow["id"],
            flow["kind"],
            f"{flow['src']}->{flow['dst']}",
            str(flow["tx_packets"]),
            str(flow["rx_packets"]),
            _ms(flow["mean_delay_s"]),
            _ms(flow["delay_p95_s"]),
            _ms(flow["max_delay_s"]),
        ]
        for flow in results["flows"]
    ]
    heading = (
        f"simulated {results['sim_time_s']:g} s in {wall_s:.3f} s wall time, "
        f"{results['events']} events, seed {results['seed']}"
    )
    link_table = format_table(
        ["link", "bandwidth", "delay", "tx pkts", "drops", "util", "mean queue"], links
    )
    flow_table = format_table(
        ["flow", "kind", "path", "tx pkts", "rx pkts", "mean delay ms", "p95 ms", "max ms"],
        flows,
        align="lll" + "r" * 5,
    )
    return f"{heading}\n\nLinks\n{link_table}\n\nFlows\n{flow_table}\n"
