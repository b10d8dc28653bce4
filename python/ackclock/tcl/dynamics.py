"""`$ns rtproto`, `$ns rtmodel` and `$ns rtmodel-at`: how nodes route, and
links that fail and recover (ns-2's tcl/rtglib/dynamics.tcl), kept until
`$ns run` builds the simulation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ackclock.network_specs import (
    DV,
    FailureKind,
    LinkFailures,
    Routing,
    SessionRouting,
    StaticRouting,
)
from ackclock.tcl import ns2_units
from ackclock.tcl.errors import TclScriptError

if TYPE_CHECKING:
    from ackclock.handles import Link
    from ackclock.simulator import Simulator
    from ackclock.tcl.links import LinkObject
    from ackclock.tcl.nodes import NodeObject
    from ackclock.tcl.world import World

# ns-2's routing protocols. Manual and Algorithmic compute ns-2's static
# routes too; DV's updates are ns-2's size, one byte per destination.
ROUTING: dict[str, Routing] = {
    "Static": StaticRouting(),
    "Manual": StaticRouting(),
    "Algorithmic": StaticRouting(),
    "Session": SessionRouting(),
    "DV": DV(sizes="ns2"),
}
# ns-2's rtModel classes that ackclock runs, as LinkFailures kinds.
MODELS: dict[str, FailureKind] = {"Deterministic": "deterministic", "Exponential": "exponential"}


@dataclass
class Dynamics:
    routing: list[tuple[Routing, list[NodeObject] | None]] = field(default_factory=list)
    # (time, "up" or "down", the link directions)
    changes: list[tuple[float, str, list[LinkObject]]] = field(default_factory=list)
    failures: list[tuple[LinkFailures, list[LinkObject]]] = field(default_factory=list)

    def rtproto(self, protocol: str, nodes: list[NodeObject]) -> None:
        if protocol not in ROUTING:
            raise TclScriptError(
                f"rtproto {protocol}: not supported (supported: {', '.join(ROUTING)})"
            )
        self.routing.append((ROUTING[protocol], nodes or None))

    def rtmodel_at(self, at: str, op: str, links: list[LinkObject]) -> None:
        if op not in ("up", "down"):
            raise TclScriptError(f"rtmodel-at {at} {op}: the operation is up or down")
        self.changes.append((ns2_units.seconds(at, "rtmodel-at time"), op, links))

    def rtmodel(self, model: str, parameters: list[str], links: list[LinkObject]) -> None:
        """ns-2's rtModel parameters: {start up down finish}, {start up
        down} or {up down}; "-" keeps the model's default, and so does every
        parameter of an empty list (ns-2's set-parms ignores a list of one)."""
        if model not in MODELS:
            raise TclScriptError(
                f"rtmodel {model}: not supported (supported: {', '.join(MODELS)}, and rtmodel-at)"
            )
        names = {
            4: ("start", "up", "down", "finish"),
            3: ("start", "up", "down"),
            2: ("up", "down"),
            1: (),
            0: (),
        }
        if len(parameters) not in names:
            raise TclScriptError(
                f"rtmodel {model} {{{' '.join(parameters)}}}: give {{start up down ?finish?}} "
                "or {up down}"
            )
        given = {
            name: ns2_units.seconds(value, f"rtmodel {name}")
            for name, value in zip(names[len(parameters)], parameters)
            if value not in ("-", "")
        }
        self.failures.append((LinkFailures(kind=MODELS[model], **given), links))

    def endless(self) -> bool:
        """Whether routing updates go on for ever (DV), so that only the
        script's exit ends a run, as in ns-2."""
        return any(isinstance(protocol, DV) for protocol, _ in self.routing)

    def apply(self, sim: Simulator) -> None:
        for protocol, nodes in self.routing:
            handles = [n.handle for n in nodes if n.handle is not None] if nodes else None
            sim.routing(protocol, handles)
        for at, op, links in self.changes:
            change = sim.link_down if op == "down" else sim.link_up
            change(handles_of(links), at=at)
        for failures, links in self.failures:
            sim.link_failures(handles_of(links), failures=failures)


def handles_of(links: list[LinkObject]) -> list[Link]:
    handles = [link.handle for link in links]
    assert all(h is not None for h in handles), "built before the dynamics"
    return cast("list[Link]", handles)


def links_of(world: World, nodes: list[NodeObject]) -> list[LinkObject]:
    """ns-2's rtModel elements: both directions of the link between two
    nodes, or of every link of one node, in the order ns-2 changes them
    (that of its Tcl array of links, keyed SRC:DST)."""
    if len(nodes) == 2:
        a, b = nodes
        links = [world.link(a, b), world.link(b, a)]
    elif len(nodes) == 1:
        (node,) = nodes
        links = [
            link
            for (src, dst), link in world.links.items()
            if node.id in (src, dst) and (dst, src) in world.links
        ]
    else:
        raise TclScriptError(
            "a link change names one node (all its links) or two (the link between)"
        )
    by_key = {f"{link.src.id}:{link.dst.id}": link for link in links}
    keys = " ".join(by_key)
    order = world.tcl.eval(
        f"apply {{{{keys}} {{foreach k $keys {{set a($k) {{}}}}; array names a}}}} {{{keys}}}"
    )
    return [by_key[key] for key in world.tcl.split(order)]
