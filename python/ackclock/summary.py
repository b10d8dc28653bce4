"""The human-readable summary `ackclock run` prints: one table of link
directions, one of UDP flows, one of TCP connections and one of the nodes that
route dynamically, have a processor or dropped packets (each table only when
there is something to show)."""

from __future__ import annotations

from ackclock.results import FlowResult, LinkResult, NodeResult, RunResult
from ackclock.tables import format_table
from ackclock.units import PS_PER_S, format_bandwidth, format_duration, format_size


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def _rate(bps: float) -> str:
    """A measured bit rate to 4 significant digits: 735.1kb/s, 2.576Mb/s."""
    for unit, scale in (("Gb/s", 1e9), ("Mb/s", 1e6), ("kb/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:.4g}{unit}"
    return f"{bps:.4g}b/s"


def _seconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.3f}"


def is_tcp(flow: FlowResult) -> bool:
    return flow["kind"].startswith("tcp_")


def _link_table(links: list[LinkResult]) -> str:
    rows = [
        [
            f"{link['from']}->{link['to']}",
            format_bandwidth(link["bandwidth_bps"]),
            format_duration(round(link["delay_s"] * PS_PER_S)),
            str(link["tx_packets"]),
            str(link["drops"]),
            f"{link['utilization'] * 100:.1f}%",
            f"{link['mean_queue_packets']:.2f}",
        ]
        for link in links
    ]
    return format_table(
        ["link", "bandwidth", "delay", "tx pkts", "drops", "util", "mean queue"], rows
    )


def _udp_table(flows: list[FlowResult]) -> str:
    rows = [
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
        for flow in flows
    ]
    return format_table(
        ["flow", "kind", "path", "tx pkts", "rx pkts", "mean delay ms", "p95 ms", "max ms"],
        rows,
        align="lll" + "r" * 5,
    )


def _tcp_table(flows: list[FlowResult]) -> str:
    rows = [
        [
            flow["id"],
            flow["kind"].removeprefix("tcp_"),
            f"{flow['src']}->{flow['dst']}",
            flow.get("cc", "-"),
            format_size(flow.get("bytes_delivered", 0)),
            _rate(flow.get("goodput_bps", 0.0)),
            str(flow.get("retransmits", 0)),
            str(flow.get("fast_retransmits", 0)),
            str(flow.get("timeouts", 0)),
            _ms(flow.get("rtt_mean_s")),
            _seconds(flow.get("completion_time_s")),
            flow.get("client_state", "-"),
        ]
        for flow in flows
    ]
    return format_table(
        [
            "flow",
            "app",
            "path",
            "cc",
            "delivered",
            "goodput",
            "retx",
            "fast retx",
            "timeouts",
            "mean rtt ms",
            "done at s",
            "client",
        ],
        rows,
        align="llll" + "r" * 7 + "l",
    )


def _shows(node: NodeResult) -> bool:
    """Whether a node has more to tell than a static router that dropped nothing."""
    dropped = node["no_route_drops"] or node["ttl_drops"]
    return node["routing"] != "static" or "processor" in node or bool(dropped)


def _node_table(nodes: list[NodeResult]) -> str:
    rows = []
    for node in nodes:
        cpu = node.get("processor")
        rows.append(
            [
                node["name"],
                node["routing"],
                str(node["no_route_drops"]),
                str(node["ttl_drops"]),
                "-" if cpu is None else str(cpu["packets"]),
                "-" if cpu is None else str(cpu["drops"]),
                "-" if cpu is None else f"{cpu['utilization'] * 100:.1f}%",
                "-" if cpu is None else _ms(cpu["mean_wait_s"]),
            ]
        )
    headers = ["node", "routing", "no route", "ttl", "cpu pkts", "cpu drops", "cpu util"]
    return format_table([*headers, "cpu wait ms"], rows, align="ll" + "r" * 6)


def format_summary(results: RunResult, wall_s: float) -> str:
    heading = (
        f"simulated {results['sim_time_s']:g} s in {wall_s:.3f} s wall time, "
        f"{results['events']} events, seed {results['seed']}"
    )
    parts = [heading, f"Links\n{_link_table(results['links'])}"]
    udp = [flow for flow in results["flows"] if not is_tcp(flow)]
    tcp = [flow for flow in results["flows"] if is_tcp(flow)]
    if udp or not tcp:
        parts.append(f"Flows\n{_udp_table(udp)}")
    if tcp:
        parts.append(f"TCP connections\n{_tcp_table(tcp)}")
    nodes = [node for node in results["nodes"] if _shows(node)]
    if nodes:
        parts.append(f"Nodes\n{_node_table(nodes)}")
    return "\n\n".join(parts) + "\n"
