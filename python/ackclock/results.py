"""Results in the shape users see (and `ackclock run --json` prints): nodes by
name instead of id, a flow identified by its name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from ackclock._native import FlowStats, LinkStats, NicStats, NodeStats, ProcessorStats, Results

# Functional syntax because "from" is a keyword.
LinkResult = TypedDict(
    "LinkResult",
    {
        "from": str,
        "to": str,
        "bandwidth_bps": int,
        "delay_s": float,
        "tx_packets": int,
        "tx_bytes": int,
        "drops": int,
        "queue_drops": int,
        "loss_drops": int,
        "down_drops": int,
        "up": bool,
        "ecn_marks": int,
        "utilization": float,
        "active_s": float,
        "active_utilization": float,
        "mean_queue_packets": float,
        "mean_queue_bytes": float,
    },
)


class _FlowResult(TypedDict):
    id: str  # the flow's name
    src: str
    dst: str
    kind: str
    tx_packets: int
    tx_bytes: int
    rx_packets: int
    rx_bytes: int
    lost_packets: int
    loss_rate: float
    link_drops: dict[str, int]  # drops by link "from->to"
    mean_delay_s: float | None
    delay_p50_s: float | None
    delay_p95_s: float | None
    delay_p99_s: float | None
    max_delay_s: float | None
    mean_jitter_s: float | None
    active_s: float | None
    throughput_bps: float
    goodput_bps: float


class FlowResult(_FlowResult, total=False):
    """A flow's statistics; the keys below this line are present for TCP flows only."""

    cc: str
    bytes_sent: int
    bytes_delivered: int
    retransmits: int
    fast_retransmits: int
    timeouts: int
    timeouts_after_ecn: int
    loss_probes: int
    ecn_reductions: int
    sack_recoveries: int
    dsacks: int
    segments_received: int
    spurious_retransmits: int
    undos: int
    rtt_min_s: float | None
    rtt_mean_s: float | None
    rtt_max_s: float | None
    completion_time_s: float | None
    cwnd_bytes: int
    mean_cwnd_bytes: float | None
    ssthresh_bytes: int
    client_state: str
    server_state: str


class _NodeResult(TypedDict):
    name: str
    routing: str
    no_route_drops: int
    ttl_drops: int
    waiting: int


class NodeResult(_NodeResult, total=False):
    """A node's statistics; `processor` is present when it has one."""

    processor: ProcessorStats


class NicResult(TypedDict):
    """A NIC on a shared medium, named by its node."""

    node: str
    medium: int
    tx_packets: int
    tx_bytes: int
    rx_packets: int
    queue_drops: int
    rx_errors: int
    link_failures: int
    arp_drops: int
    queued: int
    utilization: float


class RunResult(TypedDict):
    sim_time_s: float
    events: int
    seed: int
    replication: int
    links: list[LinkResult]
    flows: list[FlowResult]
    nodes: list[NodeResult]
    nics: list[NicResult]


def link_result(stats: LinkStats, src: str, dst: str) -> LinkResult:
    """The core's link statistics with node names in place of ids."""
    named = {"from": src, "to": dst}
    rest = {key: value for key, value in stats.items() if key not in ("id", "src", "dst")}
    return cast("LinkResult", {**named, **rest})


def flow_result(stats: FlowStats, src: str, dst: str, link_names: Mapping[int, str]) -> FlowResult:
    """The core's flow statistics, identified by the flow's name, with its
    drops by link named "from->to" (`link_names` by channel id)."""
    named = {"id": stats["name"], "src": src, "dst": dst}
    rest = {key: value for key, value in stats.items() if key not in ("id", "name", "src", "dst")}
    rest["link_drops"] = {link_names[channel]: drops for channel, drops in stats["link_drops"]}
    return cast("FlowResult", {**named, **rest})


def node_result(stats: NodeStats) -> NodeResult:
    """The core's node statistics, identified by the node's name."""
    return cast("NodeResult", {key: value for key, value in stats.items() if key != "id"})


def nic_result(stats: NicStats, node: str) -> NicResult:
    """The core's NIC statistics with the node's name in place of its id."""
    rest = {key: value for key, value in stats.items() if key not in ("id", "node")}
    return cast("NicResult", {"node": node, **rest})


def run_result(results: Results, node_names: Sequence[str]) -> RunResult:
    """The whole run; `node_names[i]` is the name of node id i."""
    link_names = {
        s["id"]: f"{node_names[s['src']]}->{node_names[s['dst']]}" for s in results["links"]
    }
    return {
        "sim_time_s": results["sim_time_s"],
        "events": results["events"],
        "seed": results["seed"],
        "replication": results["replication"],
        "links": [
            link_result(s, node_names[s["src"]], node_names[s["dst"]]) for s in results["links"]
        ],
        "flows": [
            flow_result(s, node_names[s["src"]], node_names[s["dst"]], link_names)
            for s in results["flows"]
        ],
        "nodes": [node_result(s) for s in results["nodes"]],
        "nics": [nic_result(s, node_names[s["node"]]) for s in results["nics"]],
    }
