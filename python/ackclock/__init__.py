"""ackclock: a fast, deterministic packet-level network simulator.

import ackclock as ac
sim = ac.Simulator(seed=1)
a, b = sim.node("A"), sim.node("B")
sim.duplex_link(a, b, bandwidth="10Mb", delay="10ms")
flow = sim.cbr(a, b, rate="1Mb", packet_size=1000, stop="10s")
tcp = sim.tcp(a, b, app=ac.Bulk("1MB"), tcp=ac.TcpParams(cc="reno"))
sim.run()
print(flow.stats(), tcp.stats())
"""

from importlib.metadata import version

from ackclock.confidence import ConfidenceInterval, mean_confidence_interval
from ackclock.errors import ConfigError, ScenarioError, SimulationError, UnitError
from ackclock.handles import Flow, Lan, Link, Node, TcpFlow
from ackclock.network_specs import DV, LinkFailures, Processing, SessionRouting, StaticRouting
from ackclock.results import FlowResult, LinkResult, NicResult, NodeResult, RunResult
from ackclock.simulator import Simulator
from ackclock.specs import (
    RED,
    BitErrors,
    DropList,
    DropTail,
    ExponentialDelay,
    ExponentialSize,
    FlowLabel,
    GilbertElliott,
    LinkParams,
    Periodic,
    TwoStateLoss,
    UniformDelay,
    UniformLoss,
)
from ackclock.tcp_specs import Bulk, Manual, RequestResponse, TcpParams, Telnet, congestion_controls
from ackclock.units import bandwidth_bps, duration_ps, size_bytes

__version__ = version("ackclock")

__all__ = [
    "DV",
    "RED",
    "BitErrors",
    "Bulk",
    "ConfidenceInterval",
    "ConfigError",
    "DropList",
    "DropTail",
    "ExponentialDelay",
    "ExponentialSize",
    "Flow",
    "FlowLabel",
    "FlowResult",
    "GilbertElliott",
    "Lan",
    "Link",
    "LinkFailures",
    "LinkParams",
    "Manual",
    "Periodic",
    "TwoStateLoss",
    "LinkResult",
    "NicResult",
    "Node",
    "NodeResult",
    "Processing",
    "RequestResponse",
    "RunResult",
    "Scenario",
    "ScenarioError",
    "SessionRouting",
    "SimulationError",
    "Simulator",
    "StaticRouting",
    "TcpFlow",
    "TcpParams",
    "Telnet",
    "UniformDelay",
    "UniformLoss",
    "UnitError",
    "bandwidth_bps",
    "congestion_controls",
    "duration_ps",
    "load_scenario",
    "mean_confidence_interval",
    "size_bytes",
]


def __getattr__(name: str) -> object:
    # Scenario files need pydantic, whose import costs about 0.2 s: load it
    # only when asked for (this keeps `ackclock tcl` and the API quick to start).
    if name in ("Scenario", "load_scenario"):
        from ackclock import scenario

        return getattr(scenario, name)
    raise AttributeError(f"module 'ackclock' has no attribute {name!r}")
