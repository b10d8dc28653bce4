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

from ackclock.confidence import ConfidenceInterval, mean_confidence_interval
from ackclock.errors import (
    ConfigError,
    ScenarioError,
    ScenarioWarning,
    SimulationError,
    UnitError,
)
from ackclock.handles import Flow, Lan, Link, Node, Radio, RadioNic, SourceFlow, TcpFlow
from ackclock.mobility import random_waypoint
from ackclock.network_specs import (
    AODV,
    DSDV,
    DV,
    LinkFailures,
    Processing,
    SessionRouting,
    StaticRouting,
)
from ackclock.results import FlowResult, LinkResult, NicResult, NodeResult, RunResult
from ackclock.simulator import Simulator
from ackclock.specs import (
    DRR,
    FQ,
    PIE,
    RED,
    SFQ,
    BitErrors,
    CoDel,
    DelayBuffer,
    DropList,
    DropSegments,
    DropTail,
    ExponentialDelay,
    ExponentialSize,
    FlowLabel,
    FQCoDel,
    GilbertElliott,
    HeldAtHead,
    LinkParams,
    Periodic,
    StepMark,
    TokenBucket,
    TwoStateLoss,
    UniformDelay,
    UniformLoss,
)
from ackclock.tcp_specs import Bulk, Manual, RequestResponse, TcpParams, Telnet, congestion_controls
from ackclock.units import bandwidth_bps, duration_ps, size_bytes
from ackclock.wireless import (
    FreeSpace,
    Mac80211,
    RadioTrace,
    Shadowing,
    TwoRayGround,
    WirelessPhy,
)

__all__ = [
    "AODV",
    "DSDV",
    "DV",
    "DRR",
    "FQ",
    "RED",
    "PIE",
    "SFQ",
    "BitErrors",
    "Bulk",
    "CoDel",
    "DelayBuffer",
    "ConfidenceInterval",
    "ConfigError",
    "DropList",
    "DropSegments",
    "DropTail",
    "ExponentialDelay",
    "ExponentialSize",
    "FQCoDel",
    "Flow",
    "FlowLabel",
    "FlowResult",
    "FreeSpace",
    "GilbertElliott",
    "Lan",
    "Link",
    "HeldAtHead",
    "LinkFailures",
    "LinkParams",
    "Mac80211",
    "Manual",
    "Periodic",
    "TwoStateLoss",
    "TwoRayGround",
    "LinkResult",
    "NicResult",
    "Node",
    "NodeResult",
    "Processing",
    "Radio",
    "RadioTrace",
    "RadioNic",
    "RequestResponse",
    "RunResult",
    "Scenario",
    "ScenarioError",
    "ScenarioWarning",
    "SessionRouting",
    "Shadowing",
    "SimulationError",
    "Simulator",
    "StaticRouting",
    "StepMark",
    "TokenBucket",
    "SourceFlow",
    "TcpFlow",
    "TcpParams",
    "Telnet",
    "UniformDelay",
    "UniformLoss",
    "UnitError",
    "WirelessPhy",
    "bandwidth_bps",
    "congestion_controls",
    "duration_ps",
    "load_scenario",
    "mean_confidence_interval",
    "size_bytes",
    "sweep",
    "random_waypoint",
]


def __getattr__(name: str) -> object:
    # Scenario files and sweeps need pydantic, whose import costs about 0.2 s,
    # and the version importlib.metadata (0.05 s): load them only when asked
    # for (this keeps `ackclock tcl` and the API quick to start).
    if name in ("Scenario", "load_scenario"):
        from ackclock import scenario

        return getattr(scenario, name)
    if name in ("sweep", "sweeps"):
        import importlib

        sweeps = importlib.import_module("ackclock.sweeps")
        return sweeps if name == "sweeps" else sweeps.sweep
    if name == "__version__":
        # importlib.metadata, too, costs every command about 0.1 s.
        from importlib.metadata import version

        return version("ackclock")
    raise AttributeError(f"module 'ackclock' has no attribute {name!r}")
