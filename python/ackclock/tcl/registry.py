"""ns-2's classes and what ackclock does with them: the one registry of the
Tcl front end.

`NS2` holds every class of ns-2.35 with its superclasses and the class
variables it sets (ns2_classes.json, which benchmarks/ns2/dump_classes.tcl
prints from ns-2 itself); every one is an OTcl class in ackclock's
interpreter, so a script may configure any. `IMPLEMENTED` maps the classes
ackclock runs to their Python half; a class deriving from one of them (a
script's own too) runs as it. `UNSUPPORTED` says why some classes scripts
commonly use cannot be created. A variable of an object is one of:

* in its shadow's `variables` (shadow.py's `Var`): used, followed live, or
  ignored with the reason given there (docs/tcl.md lists them);
* any other of ns-2's variables of its class: accepted at ns-2's default,
  refused at any other value where ackclock would have to act on it
  (`check_defaults`);
* anything else: an error naming the closest known variable.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

from ackclock.tcl import (
    agents,
    applications,
    lan,
    links,
    monitors,
    nodes,
    randomness,
    simulator_object,
    wireless,
)
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Shadow, same_value


@dataclass(frozen=True)
class Ns2Class:
    supers: tuple[str, ...]
    defaults: dict[str, str]


def _load() -> dict[str, Ns2Class]:
    raw = json.loads((Path(__file__).parent / "ns2_classes.json").read_text())
    return {
        name: Ns2Class(tuple(entry["super"]), entry["vars"])
        for name, entry in raw.items()
        if name not in ("Object", "Class")
    }


# Queues ns-2.35 lacks that ns-2 patches add (CoDel, PIE) or that scripts
# for later simulators use (FQ-CoDel), with the RFCs' defaults; defined as
# Tcl classes like ns-2's own.
EXTENSIONS: dict[str, Ns2Class] = {
    "Queue/CoDel": Ns2Class(
        ("Queue",),
        {"target_": "0.005", "interval_": "0.1", "maxpacket_": "1500", "setbit_": "false"},
    ),
    "Queue/FQ-CoDel": Ns2Class(
        ("Queue",),
        {
            "target_": "0.005",
            "interval_": "0.1",
            "maxpacket_": "1500",
            "setbit_": "true",
            "flows_": "1024",
            "quantum_": "1514",
        },
    ),
    "Queue/PIE": Ns2Class(
        ("Queue",),
        {
            "qdelay_ref_": "0.015",
            "tUpdate_": "0.015",
            "a_": "0.125",
            "b_": "1.25",
            "max_burst_": "0.15",
            "mean_pktsize_": "1500",
            "setbit_": "false",
            "mark_p_": "0.1",
        },
    ),
}

NS2: dict[str, Ns2Class] = {**_load(), **EXTENSIONS}

IMPLEMENTED: dict[str, type[Shadow]] = {
    "Simulator": simulator_object.SimulatorObject,
    "Node": nodes.NodeObject,
    "LanNode": lan.LanNodeObject,
    "SimpleLink": links.LinkObject,
    "Queue/DropTail": links.Ns2Queue,
    "Queue/RED": links.Ns2Queue,
    "Queue/CoDel": links.CoDelQueue,
    "Queue/FQ-CoDel": links.FqCoDelQueue,
    "Queue/PIE": links.PieQueue,
    "Queue/DRR": links.DrrQueue,
    "Queue/SFQ": links.SfqQueue,
    "Queue/FQ": links.FqQueue,
    "QueueMonitor": monitors.QueueMonitor,
    "QueueMonitor/ED/Flowmon": monitors.FlowMonitor,
    "QueueMonitor/ED/Flow": monitors.FlowRecord,
    "Integrator": monitors.Integrator,
    "Samples": monitors.Samples,
    "SnoopQueue": monitors.Plumbing,
    "ErrorModel": links.ErrorModelObject,
    "ErrorModule": links.ErrorModule,
    "Agent": agents.Agent,
    "Agent/TCP": agents.TcpAgent,
    "Agent/TCP/Newreno": agents.NewrenoAgent,
    "Agent/TCPSink": agents.TcpSink,
    "Agent/TCP/FullTcp": agents.FullTcp,
    "Agent/TCP/Vegas": agents.VegasAgent,
    "Agent/TCP/Linux": agents.LinuxAgent,
    "Agent/UDP": agents.UdpAgent,
    "TBF": agents.TbfObject,
    "Agent/Null": agents.UdpSink,
    "Agent/Ping": agents.PingAgent,
    "Agent/LossMonitor": agents.UdpSink,
    "Application": applications.Application,
    "Application/FTP": applications.Ftp,
    "Application/Telnet": applications.Telnet,
    "Application/TcpApp": applications.TcpApp,
    "Application/Traffic/CBR": applications.Cbr,
    "Application/Traffic/Exponential": applications.OnOff,
    "Application/Traffic/Pareto": applications.OnOff,
    "RNG": randomness.RngObject,
    "RandomVariable": randomness.RandomVariableObject,
    "Trace": links.TraceObject,
    "Node/MobileNode": wireless.MobileNode,
    "Topography": wireless.TopographyObject,
    "God": wireless.GodObject,
    "Channel/WirelessChannel": wireless.ChannelObject,
    "Propagation/TwoRayGround": wireless.PropagationObject,
    "Propagation/FreeSpace": wireless.PropagationObject,
    "Propagation/Shadowing": wireless.PropagationObject,
}

# Classes scripts commonly use that ackclock cannot run, with the reason.
UNSUPPORTED: dict[str, str] = {
    "Agent/TCP/Asym": "asymmetric-path TCP is not modelled",
    "Agent/TCP/RFC793edu": "the RFC 793 teaching TCP is not modelled",
    "Agent/TCP/SackRH": "Rate-Halving SACK TCP is not modelled",
    "Agent/TCP/FS": "Fast Start TCP is not modelled",
    "Agent/TCP/Int": "TCP/Int is not modelled",
    "Agent/TCP/Session": "TCP session sharing is not modelled",
    "Agent/TCP/BayFullTcp": "Berkeley's BayFullTcp is not modelled; use Agent/TCP/FullTcp",
    "Agent/TFRC": "TFRC is not implemented",
    "Agent/SCTP": "SCTP is not implemented",
    "Agent/DCCP": "DCCP is not implemented",
    "Agent/RTP": "RTP is not implemented",
    "Agent/SRM": "SRM (reliable multicast) is not implemented",
    "Agent/rtProto/DV": "routing agents are the core's: use $ns rtproto DV",
    "Agent/rtProto/LS": "link-state routing is not implemented (use $ns rtproto DV or Session)",
    "Agent/rtProto/Session": "routing agents are the core's: use $ns rtproto Session",
    "Agent/DSDV": "a wireless node's routing agent: use $ns node-config -adhocRouting DSDV",
    "Agent/AODV": "a wireless node's routing agent: use $ns node-config -adhocRouting AODV",
    "Agent/DSRAgent": "DSR is not modelled",
    "Agent/TORA": "TORA is not modelled",
    "Queue/CBQ": "CBQ (class-based queueing) is not implemented",
    "Queue/REM": "REM is not implemented",
    "Queue/PI": "PI AQM is not implemented",
    "Queue/Vq": "the virtual queue AQM is not implemented",
    "Queue/dsRED": "DiffServ queues are not implemented",
    "Application/Traffic/Trace": "trace-driven traffic is not implemented",
    "Application/Traffic/RealAudio": "RealAudio traffic is not implemented",
    "Application/Worm": "worm models are not implemented",
    "Application/PackMimeHTTP": "PackMime web traffic is not implemented",
    "Http": "ns-2's web cache models are not implemented",
    "PagePool": "ns-2's web traffic pages are not implemented",
    "Mac": "a wired MAC is made by $ns make-lan (which models the base Mac)",
    "Channel": "a wired channel is made by $ns make-lan",
}


def implementation(heritage: list[str]) -> tuple[type[Shadow], str]:
    """The Python half for an object whose class has precedence list
    `heritage`, and the ns-2 class it implements; a clear error when
    ackclock cannot run that class."""
    for cls in heritage:
        if cls in UNSUPPORTED:
            raise TclScriptError(f"{cls}: {UNSUPPORTED[cls]}")
        if cls in IMPLEMENTED:
            return IMPLEMENTED[cls], cls
    ns2 = next(c for c in heritage if c in NS2)
    raise TclScriptError(
        f"{ns2} is an ns-2 class that ackclock does not implement "
        f"(ackclock implements: {', '.join(supported_classes())})"
    )


def queue_types() -> list[str]:
    """The queue types `duplex-link` and `simplex-link` accept (Queue/TYPE)."""
    return sorted(c.removeprefix("Queue/") for c in IMPLEMENTED if c.startswith("Queue/"))


def supported_classes() -> list[str]:
    return sorted(c for c in NS2 if _implemented(c))


def _implemented(cls: str) -> bool:
    current = cls
    while current in NS2:
        if current in UNSUPPORTED:
            return False
        if current in IMPLEMENTED:
            return True
        supers = NS2[current].supers
        if not supers:
            return False
        current = supers[0]
    return False


def ancestors(cls: str) -> list[str]:
    """`cls` and the ns-2 classes it derives from, nearest first."""
    found: list[str] = []
    pending = [cls]
    while pending:
        current = pending.pop(0)
        if current in NS2 and current not in found:
            found.append(current)
            pending.extend(NS2[current].supers)
    return found


def descendants(cls: str) -> list[str]:
    return [c for c in NS2 if cls in ancestors(c)]


def ns2_variables(cls: str) -> dict[str, str]:
    """ns-2's variables of objects of `cls`, with their defaults."""
    merged: dict[str, str] = {}
    for current in reversed(ancestors(cls)):
        merged.update(NS2[current].defaults)
    return merged


def own_class(shadow: Shadow) -> str:
    """The nearest ns-2 class of an object, whose variables it has: a
    subclass that another class's shadow implements (Agent/TCP/Newreno as
    Agent/TCP) adds its own."""
    return next(c for c in shadow.heritage if c in NS2)


def object_variables(ns2_class: str, shadow: type[Shadow]) -> list[str]:
    """The variables an object gets from its class defaults when created."""
    return sorted(set(ns2_variables(ns2_class)) | set(shadow.known_variables()))


def check_object_variable(ns2_class: str, shadow: type[Shadow], var: str, what: str) -> None:
    """`$obj set var value` for a variable the object does not have yet."""
    known = object_variables(ns2_class, shadow)
    if var not in known:
        raise TclScriptError(f"{what} has no variable {var!r}{_closest(var, known)}")


def _closest(var: str, known: list[str]) -> str:
    close = difflib.get_close_matches(var, known, n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def check_defaults(shadow: Shadow, names: list[str] | None = None) -> None:
    """Refuses ns-2 variables the object changed from ns-2's default that
    ackclock would have to act on but does not model (the ones its shadow
    neither uses nor declares ignored)."""
    known = shadow.known_variables()
    cls = own_class(shadow)
    defaults = ns2_variables(cls)
    for var in names if names is not None else sorted(defaults):
        if var in known or var not in defaults:
            continue
        value = shadow.world.tcl.get(f"{shadow.namespace}::{var}")
        if value is not None and not same_value(value, defaults[var]):
            raise TclScriptError(
                f"{shadow} {var} {value} is not supported: ackclock does not model "
                f"{cls}'s {var} (only ns-2's default {defaults[var]})"
            )


def class_definitions() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """Every ns-2 class, superclasses first, as (name, superclasses, class
    variables and their values, flat), for one call to Tcl (tkinter passes
    the tuples as lists: no quoting, no script to parse)."""
    definitions: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    done: set[str] = {"Object", "Class"}

    def define(name: str) -> None:
        if name in done:
            return
        done.add(name)
        entry = NS2[name]
        for super_ in entry.supers:
            if super_ in NS2:
                define(super_)
        supers = tuple(s for s in entry.supers if s in NS2 or s == "Object") or ("Object",)
        defaults = tuple(word for item in entry.defaults.items() for word in item)
        definitions.append((name, supers, defaults))

    for name in NS2:
        define(name)
    return tuple(definitions)
