"""Value objects for the network layer: how nodes route, how links fail, how
long a node takes to handle a packet.

Like `ackclock.specs`, each is a frozen dataclass validated on construction
whose `to_native()` returns the dict `ackclock._native` takes. Defaults are
ns-2's where ns-2 has the concept (docs/routing.md, docs/link-dynamics.md,
docs/processing.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from ackclock import checks, units
from ackclock.errors import ParameterError
from ackclock.specs import _not_a, _Spec
from ackclock.tcp_specs import _positive_duration

if TYPE_CHECKING:
    from ackclock._native import (
        DvRoutingSpec,
        FailureModelSpec,
        ProcessingSpec,
        RoutingSpec,
        SessionRoutingSpec,
        StaticRoutingSpec,
    )

DvSizes = Literal["rip", "ns2"]
FailureKind = Literal["deterministic", "exponential"]
ServiceDistribution = Literal["constant", "exponential"]


@dataclass(frozen=True)
class StaticRouting(_Spec):
    """Shortest paths over link costs, computed before the run (ns-2's default).
    Links that go down later do not change them: packets keep going into the
    dead link, as in ns-2. Routes given with `Simulator.route` take precedence."""

    def to_native(self) -> StaticRoutingSpec:
        return {"type": "static"}


@dataclass(frozen=True)
class SessionRouting(_Spec):
    """Shortest paths over the links that are up, recomputed at once whenever a
    link goes down or comes up (ns-2's `rtproto Session`)."""

    def to_native(self) -> SessionRoutingSpec:
        return {"type": "session"}


@dataclass(frozen=True)
class DV(_Spec):
    """Distance-vector routing with ns-2's `rtproto DV` behaviour: periodic
    updates every `advert_interval` (jittered by +-10%), triggered updates on
    every change, poisoned reverse, `infinity` as the unreachable metric.
    `sizes` "rip" gives updates RIPv2's size (32 + 20 bytes per node), "ns2"
    ns-2's (one byte per node)."""

    advert_interval: units.Duration = 2
    infinity: int = 32
    sizes: DvSizes = "rip"

    def to_native(self) -> DvRoutingSpec:
        interval = _positive_duration(self.advert_interval, "advert_interval")
        sizes = checks.choice(self.sizes, "sizes", ("rip", "ns2"))
        header, entry = (32, 20) if sizes == "rip" else (0, 1)
        return {
            "type": "dv",
            "advert_interval_ps": interval,
            "infinity": checks.integer(self.infinity, "infinity", "metric", minimum=2),
            "header_bytes": header,
            "entry_bytes": entry,
        }


Routing = Union[StaticRouting, SessionRouting, DV]


def routing_spec(routing: Any, parameter: str) -> RoutingSpec:
    if not isinstance(routing, (StaticRouting, SessionRouting, DV)):
        raise _not_a(
            routing,
            parameter,
            "a routing protocol",
            "ackclock.StaticRouting(), SessionRouting() or DV(...)",
        )
    return routing.to_native()


@dataclass(frozen=True)
class LinkFailures(_Spec):
    """A link that fails and recovers over and over (ns-2's `rtmodel`): up from
    `start` for an up period, down for a down period, and so on until
    `finish` (when a link that is down comes back up). "deterministic" periods
    are exactly `up` and `down` (ns-2's defaults 2 s and 1 s); "exponential"
    ones are drawn with these means (defaults 10 s and 1 s)."""

    kind: FailureKind = "exponential"
    up: units.Duration | None = None
    down: units.Duration | None = None
    start: units.Duration = 0.5
    finish: units.Duration | None = None

    def to_native(self) -> FailureModelSpec:
        kind = cast(FailureKind, checks.choice(self.kind, "kind", ("deterministic", "exponential")))
        spec: FailureModelSpec = {"type": kind, "start_ps": units.duration_ps(self.start, "start")}
        for parameter, value in (("up", self.up), ("down", self.down)):
            if value is not None:
                spec["up_ps" if parameter == "up" else "down_ps"] = _positive_duration(
                    value, parameter
                )
        if self.finish is not None:
            finish = units.duration_ps(self.finish, "finish")
            if finish < spec["start_ps"]:
                raise ParameterError(
                    "finish", f"{self.finish!r} is not a finish time: it is before start"
                )
            spec["finish_ps"] = finish
        return spec


@dataclass(frozen=True)
class Processing(_Spec):
    """A node's processor (seed 000 sec. 4.1, OMNeT++'s ProcessorManager): it
    handles every packet the node receives or sends, one at a time in arrival
    order, for `service` each ("constant"), or for a time drawn from an
    exponential distribution of mean `service`. With a `limit`, packets that
    find that many waiting are dropped."""

    service: units.Duration
    distribution: ServiceDistribution = "constant"
    limit: int | None = None

    def to_native(self) -> ProcessingSpec:
        distribution = cast(
            ServiceDistribution,
            checks.choice(self.distribution, "distribution", ("constant", "exponential")),
        )
        limit = None if self.limit is None else checks.integer(self.limit, "limit", "queue limit")
        return {
            "service_ps": units.duration_ps(self.service, "service"),
            "distribution": distribution,
            "queue_limit": limit,
        }


def processing_spec(processing: Any, parameter: str) -> ProcessingSpec | None:
    if processing is None:
        return None
    if not isinstance(processing, Processing):
        raise _not_a(processing, parameter, "a processor", "ackclock.Processing(...) or None")
    return processing.to_native()
