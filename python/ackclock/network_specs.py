"""Value objects for the network layer: how nodes route, how links fail, how
long a node takes to handle a packet.

Like `ackclock.specs`, each is a frozen dataclass validated on construction
whose `to_native()` returns the dict `ackclock._native` takes. Defaults are
ns-2's where ns-2 has the concept (docs/routing.md, docs/link-dynamics.md,
docs/processing.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Union, cast

from ackclock import checks, units
from ackclock.errors import ParameterError
from ackclock.specs import Spec, _not_a

if TYPE_CHECKING:
    from ackclock._native import (
        AodvRoutingSpec,
        DsdvRoutingSpec,
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


class StaticRouting(Spec):
    """Shortest paths over link costs, computed before the run (ns-2's default).
    Links that go down later do not change them: packets keep going into the
    dead link, as in ns-2. Routes given with `Simulator.route` take precedence."""

    def to_native(self) -> StaticRoutingSpec:
        return {"type": "static"}


class SessionRouting(Spec):
    """Shortest paths over the links that are up, recomputed at once whenever a
    link goes down or comes up (ns-2's `rtproto Session`)."""

    def to_native(self) -> SessionRoutingSpec:
        return {"type": "session"}


class DV(Spec):
    """Distance-vector routing with ns-2's `rtproto DV` behaviour: periodic
    updates every `advert_interval` (jittered by +-10%), triggered updates on
    every change, poisoned reverse, `infinity` as the unreachable metric.
    `sizes` "rip" gives updates RIPv2's size (32 + 20 bytes per node), "ns2"
    ns-2's (one byte per node)."""

    advert_interval: units.Duration = 2
    infinity: int = 32
    sizes: DvSizes = "rip"

    def to_native(self) -> DvRoutingSpec:
        interval = units.positive_duration_ps(self.advert_interval, "advert_interval")
        sizes = checks.choice(self.sizes, "sizes", ("rip", "ns2"))
        header, entry = (32, 20) if sizes == "rip" else (0, 1)
        return {
            "type": "dv",
            "advert_interval_ps": interval,
            "infinity": checks.integer(self.infinity, "infinity", "metric", minimum=2),
            "header_bytes": header,
            "entry_bytes": entry,
        }


class AODV(Spec):
    """Ad hoc on-demand distance vector routing as ns-2 2.35 compiles it
    (`-adhocRouting AODV`: link-layer detection and local repair, no hellos;
    docs/aodv.md). A node without a route floods a route request and its
    packets wait (at most `queue_len` of them, each at most `queue_timeout`);
    routes live `active_route_timeout` after their last packet. The defaults
    are ns-2's constants: ACTIVE_ROUTE_TIMEOUT, MY_ROUTE_TIMEOUT,
    REV_ROUTE_LIFE, BCAST_ID_SAVE, RREQ_RETRIES, MAX_RREQ_TIMEOUT, TTL_START,
    TTL_INCREMENT, TTL_THRESHOLD, NETWORK_DIAMETER, NODE_TRAVERSAL_TIME, the
    0.5 s route-cache timer, the 10 ms broadcast jitter, AODV_LOCAL_REPAIR,
    AODV_RTQ_MAX_LEN and AODV_RTQ_TIMEOUT."""

    active_route_timeout: units.Duration = 10
    my_route_timeout: units.Duration = 10
    rev_route_life: units.Duration = 6
    bcast_id_save: units.Duration = 6
    rreq_retries: int = 3
    max_rreq_timeout: units.Duration = 10
    ttl_start: int = 5
    ttl_increment: int = 2
    ttl_threshold: int = 7
    network_diameter: int = 30
    node_traversal_time: units.Duration = 0.03
    purge_interval: units.Duration = 0.5
    broadcast_jitter: units.Duration = 0.01
    local_repair: bool = True
    queue_len: int = 64
    queue_timeout: units.Duration = 30

    def to_native(self) -> AodvRoutingSpec:
        positive = units.positive_duration_ps
        return {
            "type": "aodv",
            "active_route_timeout_ps": positive(self.active_route_timeout, "active_route_timeout"),
            "my_route_timeout_ps": positive(self.my_route_timeout, "my_route_timeout"),
            "rev_route_life_ps": positive(self.rev_route_life, "rev_route_life"),
            "bcast_id_save_ps": positive(self.bcast_id_save, "bcast_id_save"),
            "rreq_retries": checks.integer(self.rreq_retries, "rreq_retries", maximum=2**32 - 1),
            "max_rreq_timeout_ps": positive(self.max_rreq_timeout, "max_rreq_timeout"),
            "ttl_start": _hops(self.ttl_start, "ttl_start"),
            "ttl_increment": _hops(self.ttl_increment, "ttl_increment"),
            "ttl_threshold": _hops(self.ttl_threshold, "ttl_threshold"),
            "network_diameter": _hops(self.network_diameter, "network_diameter"),
            "node_traversal_time_ps": positive(self.node_traversal_time, "node_traversal_time"),
            "purge_interval_ps": positive(self.purge_interval, "purge_interval"),
            "broadcast_jitter_ps": units.duration_ps(self.broadcast_jitter, "broadcast_jitter"),
            "local_repair": checks.flag(self.local_repair, "local_repair"),
            "queue_len": checks.integer(self.queue_len, "queue_len", "packet count"),
            "queue_timeout_ps": positive(self.queue_timeout, "queue_timeout"),
        }


def _hops(value: Any, parameter: str) -> int:
    return checks.integer(value, parameter, "hop count", minimum=1, maximum=255)


class DSDV(Spec):
    """Destination-sequenced distance vector routing as ns-2 2.35's
    `-adhocRouting DSDV` (docs/dsdv.md): full table dumps every
    `periodic_update_interval` (perup_, times 0.75..1), triggered updates of
    changed routes once they have settled (settling time starting at `wst0`,
    smoothed with `alpha`), at least `min_triggered_interval` apart; a
    neighbour unheard for `min_update_periods` periods is lost. ns-2 ignores
    MAC failures unless `use_mac` (use_mac_, off). `be_random` (be_random_)
    jitters the first update by up to `startup_jitter` and every update by up
    to `broadcast_jitter`. Up to `queue_len` packets wait for a route."""

    periodic_update_interval: units.Duration = 15
    min_update_periods: int = 3
    wst0: units.Duration = 6
    alpha: float = 0.875
    use_mac: bool = False
    be_random: bool = True
    min_triggered_interval: units.Duration = 1
    broadcast_jitter: units.Duration = 0.01
    startup_jitter: units.Duration = 2
    queue_len: int = 5

    def to_native(self) -> DsdvRoutingSpec:
        return {
            "type": "dsdv",
            "periodic_update_interval_ps": units.positive_duration_ps(
                self.periodic_update_interval, "periodic_update_interval"
            ),
            "min_update_periods": checks.integer(
                self.min_update_periods, "min_update_periods", minimum=1, maximum=2**32 - 1
            ),
            "wst0_ps": units.duration_ps(self.wst0, "wst0"),
            "alpha": checks.probability(self.alpha, "alpha"),
            "use_mac": checks.flag(self.use_mac, "use_mac"),
            "be_random": checks.flag(self.be_random, "be_random"),
            "min_triggered_interval_ps": units.duration_ps(
                self.min_triggered_interval, "min_triggered_interval"
            ),
            "broadcast_jitter_ps": units.duration_ps(self.broadcast_jitter, "broadcast_jitter"),
            "startup_jitter_ps": units.duration_ps(self.startup_jitter, "startup_jitter"),
            "queue_len": checks.integer(self.queue_len, "queue_len", "packet count"),
        }


Routing = Union[StaticRouting, SessionRouting, DV, AODV, DSDV]


def routing_spec(routing: Any, parameter: str) -> RoutingSpec:
    if not isinstance(routing, (StaticRouting, SessionRouting, DV, AODV, DSDV)):
        raise _not_a(
            routing,
            parameter,
            "a routing protocol",
            "ackclock.StaticRouting(), SessionRouting(), DV(...), AODV(...) or DSDV(...)",
        )
    return routing.to_native()


class LinkFailures(Spec):
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
                spec["up_ps" if parameter == "up" else "down_ps"] = units.positive_duration_ps(
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


class Processing(Spec):
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
