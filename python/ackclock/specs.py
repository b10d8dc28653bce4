"""Value objects describing queues, error models, delay jitter and packet sizes.

Each is a frozen dataclass validated on construction (so a mistake is reported
where it is made) whose `to_native()` returns the dict `ackclock._native`
takes. Names and defaults follow ns-2 where ns-2 has the concept.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from dataclasses import Field, FrozenInstanceError, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Union, cast, dataclass_transform

from ackclock import checks, units
from ackclock.errors import ConfigError, ParameterError

if TYPE_CHECKING:
    from ackclock._native import (
        BitErrorSpec,
        CoDelSpec,
        DelayBufferSpec,
        DropListSpec,
        DropSegmentsSpec,
        DropTailSpec,
        DrrSpec,
        ExponentialJitterSpec,
        ExponentialSizeSpec,
        FqCoDelSpec,
        FqSpec,
        GilbertElliottSpec,
        JitterSpec,
        LossSpec,
        PeriodicLossSpec,
        PieSpec,
        QueueSpec,
        RedSpec,
        SfqSpec,
        SizeSpec,
        StepMarkSpec,
        TokenBucketSpec,
        TwoStateLossSpec,
        UniformJitterSpec,
        UniformLossSpec,
    )

QueueUnit = Literal["packets", "bytes"]
RedVictim = Literal["arrival", "front", "random"]
RED_VICTIMS = ("arrival", "front", "random")
LossPosition = Literal["queue", "wire"]

# Smallest and largest IP datagram a UDP source can send (IPv4 + UDP headers = 28 bytes).
MIN_PACKET_BYTES = 28
MAX_PACKET_BYTES = 65535


class _CheckedArguments(type):
    """Makes a value called with arguments it does not take (a misspelt
    keyword, a missing value) raise `ConfigError`, like any other mistake,
    rather than the dataclass constructor's TypeError."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        try:
            _signature(cls).bind(None, *args, **kwargs)
        except TypeError as error:
            raise ConfigError(f"{cls.__name__}(): {error}") from None
        return super().__call__(*args, **kwargs)


@functools.cache
def _signature(cls: type) -> inspect.Signature:
    return inspect.signature(cls.__init__)  # type: ignore[misc]


@dataclass_transform(frozen_default=True)
class Value(metaclass=_CheckedArguments):
    """An immutable value object: each subclass is a dataclass whose
    instances are equal when their fields are, hash by them, show as their
    constructor call and cannot be changed (dataclasses.FrozenInstanceError).

    These methods live here rather than in each class because a frozen
    dataclass compiles six methods of its own, and the 41 value classes
    compiling theirs cost every `import ackclock` about 17 ms; a subclass
    compiles only its `__init__`."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(eq=False, repr=False)(cls)

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self) if f.compare)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == cast(Value, other)._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        # Only `__init__` sets a field, once.
        if name in self.__dict__ or name not in self.__dataclass_fields__:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class Spec(Value):
    """Validates a spec on construction by building its native dict once."""

    def __post_init__(self) -> None:
        self.to_native()

    def to_native(self) -> Any:
        raise NotImplementedError


class FlowLabel(Spec):
    """How a flow names itself in headers and traces: its source and
    destination ports and its trace flow id (ns-2's `fid_`). Without one a
    flow gets unique ports and its index as id."""

    src_port: int
    dst_port: int
    fid: int = 0

    def to_native(self) -> tuple[int, int, int]:
        return (
            checks.integer(self.src_port, "src_port", "port", maximum=65535),
            checks.integer(self.dst_port, "dst_port", "port", maximum=65535),
            checks.integer(self.fid, "fid", "flow id", maximum=2**32 - 1),
        )


def label_native(label: Any, parameter: str) -> tuple[int, int, int] | None:
    if label is None:
        return None
    if not isinstance(label, FlowLabel):
        raise _not_a(label, parameter, "a flow label", "FlowLabel(src_port, dst_port, fid)")
    return label.to_native()


def _queue_limits(limit: Any, unit: Any, ns2_limit: Any) -> tuple[int | None, QueueUnit, bool]:
    checked_limit = None if limit is None else checks.integer(limit, "limit", "queue limit")
    checked_unit = cast(QueueUnit, checks.choice(unit, "unit", ("packets", "bytes")))
    return checked_limit, checked_unit, checks.flag(ns2_limit, "ns2_limit")


class DropTail(Spec):
    """A FIFO queue that drops arrivals when full (ns-2's Queue/DropTail).

    `limit` counts `unit`s (None = unlimited). With `ns2_limit` the limit also
    counts the packet in transmission, as in ns-2: limit N holds N-1 waiting.
    """

    limit: int | None = 50
    unit: QueueUnit = "packets"
    ns2_limit: bool = False

    def to_native(self) -> DropTailSpec:
        limit, unit, ns2_limit = _queue_limits(self.limit, self.unit, self.ns2_limit)
        return {"type": "droptail", "limit": limit, "unit": unit, "ns2_limit": ns2_limit}


class RED(Spec):
    """Random Early Detection (Floyd & Jacobson 1993) with ns-2's defaults.

    Thresholds are in `unit`s; `ecn` marks ECN-capable packets instead of
    dropping them early; `mean_packet_size` sets how fast the average decays
    while the queue is idle. ns-2's variants: `wait` spaces early drops
    between 1/p and 2/p packets apart (not up to 1/p); `byte_mode` counts
    arrivals in bytes and drops large packets more often; `mark_p` marks
    only while the base probability is at most mark_p and drops beyond it;
    `ns2` takes ns-2's RED to the last rounding (red.cc: the first arrival
    above min_th only starts the count, no early drop while at most one
    packet waits, idle time in whole packets, a forced drop once `limit`
    units wait; early drops draw from the simulation's `ns2_rng` when it has
    one); `ns1_compat` (ns-2's ns1_compat_) keeps the count of arrivals since
    the last early drop across forced drops, as ns-1 did. `victim` (with
    `ns2`) is the packet a forced drop takes: the "arrival", ns-2's
    drop_front_ ("front": the one behind the head) or drop_rand_ ("random":
    any waiting one or the arrival, drawn uniformly).
    """

    limit: int | None = 50
    unit: QueueUnit = "packets"
    ns2_limit: bool = False
    min_th: float = 5.0
    max_th: float = 15.0
    max_p: float = 0.1
    weight: float = 0.002
    gentle: bool = True
    ecn: bool = False
    mean_packet_size: units.Size = 500
    wait: bool = False
    byte_mode: bool = False
    mark_p: float | None = None
    ns2: bool = False
    ns1_compat: bool = False
    victim: RedVictim = "arrival"

    def to_native(self) -> RedSpec:
        limit, unit, ns2_limit = _queue_limits(self.limit, self.unit, self.ns2_limit)
        min_th = checks.real(self.min_th, "min_th", "threshold", minimum_allowed=False)
        max_th = checks.real(self.max_th, "max_th", "threshold")
        if max_th <= min_th:
            raise ParameterError(
                "max_th",
                f"{self.max_th!r} is not a threshold: it must exceed min_th ({self.min_th!r})",
            )
        mean_packet_size = packet_bytes(self.mean_packet_size, "mean_packet_size")
        return {
            "type": "red",
            "limit": limit,
            "unit": unit,
            "ns2_limit": ns2_limit,
            "min_th": min_th,
            "max_th": max_th,
            "max_p": checks.probability(self.max_p, "max_p"),
            "weight": checks.real(self.weight, "weight", "weight", 0.0, 1.0, minimum_allowed=False),
            "gentle": checks.flag(self.gentle, "gentle"),
            "ecn": checks.flag(self.ecn, "ecn"),
            "mean_packet_size": mean_packet_size,
            "wait": checks.flag(self.wait, "wait"),
            "byte_mode": checks.flag(self.byte_mode, "byte_mode"),
            "mark_p": None if self.mark_p is None else checks.probability(self.mark_p, "mark_p"),
            "ns2": checks.flag(self.ns2, "ns2"),
            "ns1_compat": checks.flag(self.ns1_compat, "ns1_compat"),
            "victim": cast(RedVictim, checks.choice(self.victim, "victim", RED_VICTIMS)),
        }


class StepMark(Spec):
    """DCTCP's step marking (RFC 8257 §3.1): an ECN-capable packet that finds
    `k` or more packets waiting is marked CE; the queue drops arrivals beyond
    `limit` like DropTail.
    """

    k: int = 20
    limit: int | None = 50
    unit: QueueUnit = "packets"
    ns2_limit: bool = False

    def to_native(self) -> StepMarkSpec:
        limit, unit, ns2_limit = _queue_limits(self.limit, self.unit, self.ns2_limit)
        k = checks.integer(self.k, "k", "marking threshold", maximum=2**32 - 1)
        return {"type": "step_mark", "k": k, "limit": limit, "unit": unit, "ns2_limit": ns2_limit}


def _codel_params(
    target: units.Duration, interval: units.Duration, mtu: units.Size, ecn: Any
) -> dict[str, Any]:
    return {
        "target_ps": units.duration_ps(target, "target"),
        "interval_ps": units.positive_duration_ps(interval, "interval"),
        "mtu": packet_bytes(mtu, "mtu"),
        "ecn": checks.flag(ecn, "ecn"),
    }


class CoDel(Spec):
    """CoDel (RFC 8289), an AQM that acts at dequeue: once packets have
    waited more than `target` for a whole `interval`, it drops the head (or,
    with `ecn`, marks ECN-capable packets), ever more often (interval/sqrt(n)
    apart) until the delay falls below `target`. At most `mtu` bytes waiting
    never count as a standing queue. `limit` drops arrivals like DropTail.
    Defaults are RFC 8289's and Linux's `codel`.
    """

    target: units.Duration = "5ms"
    interval: units.Duration = "100ms"
    ecn: bool = False
    mtu: units.Size = 1500
    limit: int | None = 1000
    unit: QueueUnit = "packets"

    def to_native(self) -> CoDelSpec:
        limit, unit, _ = _queue_limits(self.limit, self.unit, False)
        return cast(
            "CoDelSpec",
            {
                "type": "codel",
                "limit": limit,
                "unit": unit,
                **_codel_params(self.target, self.interval, self.mtu, self.ecn),
            },
        )


class FQCoDel(Spec):
    """FQ-CoDel (RFC 8290): `flows` queues (flow number modulo `flows`)
    served by deficit round robin, `quantum` bytes a turn, newly active
    queues first, each with its own CoDel (`target`, `interval`, `ecn`,
    `mtu` as in `CoDel`). Beyond `limit` packets in all, the head of the
    queue with the most bytes is dropped. Defaults are RFC 8290's and
    Linux's `fq_codel` (ECN on).
    """

    target: units.Duration = "5ms"
    interval: units.Duration = "100ms"
    ecn: bool = True
    mtu: units.Size = 1500
    quantum: units.Size = 1514
    flows: int = 1024
    limit: int = 10240

    def to_native(self) -> FqCoDelSpec:
        return cast(
            "FqCoDelSpec",
            {
                "type": "fq_codel",
                "quantum": units.size_bytes(self.quantum, "quantum"),
                "flows": checks.integer(self.flows, "flows", "number of queues", 1, 2**32 - 1),
                "limit": checks.integer(self.limit, "limit", "queue limit", 1, 2**32 - 1),
                **_codel_params(self.target, self.interval, self.mtu, self.ecn),
            },
        )


class PIE(Spec):
    """PIE (RFC 8033): drops (or, with `ecn`, marks while the probability
    is at most `mark_threshold`) arrivals at random with a probability that
    a PI controller moves every `t_update` by `alpha` (per second of delay
    above `target`) and `beta` (per second of delay growth). New bursts pass
    for `max_burst`; nothing is dropped early while at most two
    `mean_packet_size` packets wait. The delay is the last departure's
    sojourn time. `limit` drops arrivals like DropTail. Defaults are RFC
    8033's and Linux's `pie`.
    """

    target: units.Duration = "15ms"
    t_update: units.Duration = "15ms"
    alpha: float = 0.125
    beta: float = 1.25
    max_burst: units.Duration = "150ms"
    ecn: bool = False
    mark_threshold: float = 0.1
    mean_packet_size: units.Size = 1500
    limit: int | None = 1000
    unit: QueueUnit = "packets"

    def to_native(self) -> PieSpec:
        limit, unit, _ = _queue_limits(self.limit, self.unit, False)
        return {
            "type": "pie",
            "limit": limit,
            "unit": unit,
            "target_ps": units.duration_ps(self.target, "target"),
            "t_update_ps": units.positive_duration_ps(self.t_update, "t_update"),
            "alpha": checks.real(self.alpha, "alpha", "gain"),
            "beta": checks.real(self.beta, "beta", "gain"),
            "max_burst_ps": units.duration_ps(self.max_burst, "max_burst"),
            "ecn": checks.flag(self.ecn, "ecn"),
            "mark_threshold": checks.probability(self.mark_threshold, "mark_threshold"),
            "mean_packet_size": packet_bytes(self.mean_packet_size, "mean_packet_size"),
        }


class DRR(Spec):
    """ns-2's deficit round robin (`Queue/DRR`): `buckets` queues by a hash
    of the source node (with `mask`, of its address with the low four bits
    cleared), served in a ring, `quantum` bytes of credit per visit. While
    more than `blimit` bytes wait, the head of the queue holding the most
    bytes is dropped. Defaults are ns-2.35's.
    """

    buckets: int = 10
    blimit: units.Size = 25000
    quantum: units.Size = 250
    mask: bool = False

    def to_native(self) -> DrrSpec:
        quantum = units.size_bytes(self.quantum, "quantum")
        if quantum < 1:
            raise ParameterError("quantum", f"{self.quantum!r} must be at least 1 byte")
        return {
            "type": "drr",
            "buckets": checks.integer(self.buckets, "buckets", "number of buckets", 1, 2**32 - 1),
            "blimit": units.size_bytes(self.blimit, "blimit"),
            "quantum": quantum,
            "mask": checks.flag(self.mask, "mask"),
        }


class FQ(Spec):
    """ns-2's fair queueing (`duplex-link ... FQ`): a DropTail queue of
    `limit` packets per flow id (the flow's head of line included, as ns-2
    counts it); a free link sends the head with the smallest finish time,
    a flow's finish time advancing by its head's transmission time at `rate`
    times the number of flows with a head. `rate` defaults to the link's,
    as ns-2 sets it; `limit` to ns-2.35's 50.
    """

    limit: int = 50
    rate: units.Bandwidth | None = None

    def to_native(self) -> FqSpec:
        spec: FqSpec = {
            "type": "fq",
            "limit": checks.integer(self.limit, "limit", "queue limit", 1, 2**32 - 1),
        }
        if self.rate is not None:
            spec["secs_per_byte"] = 8 / units.bandwidth_bps(self.rate, "rate")
        return spec


class TokenBucket(Spec):
    """ns-2's token bucket filter (`TBF`, `attach-tbf-agent`) between a UDP
    source and its node (`Flow.shape`): `bucket_bits` tokens at most, filled
    at `rate`, full at the first packet. A packet leaves when the bucket holds
    its size in bits (spending them), else waits behind the others, at most
    `limit` waiting (0: dropped, a policer). Defaults are ns-2.35's.
    """

    rate: units.Bandwidth = "64kb"
    bucket_bits: int = 1024
    limit: int = 0

    def to_native(self) -> TokenBucketSpec:
        return {
            "rate_bps": float(units.bandwidth_bps(self.rate, "rate")),
            "bucket_bits": checks.integer(self.bucket_bits, "bucket_bits", "bucket", 0, 2**63 - 1),
            "limit": checks.integer(self.limit, "limit", "queue limit", 0, 2**32 - 1),
        }


class SFQ(Spec):
    """ns-2's stochastic fair queueing (`Queue/SFQ`): `buckets` queues by a
    hash of source plus destination node, served one packet each in turn.
    An arrival is refused when its queue holds half the room left of
    `maxqueue` packets or more, or, with fewer than `buckets` places left,
    more than `maxqueue / buckets`. Defaults are ns-2.35's.
    """

    maxqueue: int = 40
    buckets: int = 16

    def to_native(self) -> SfqSpec:
        return {
            "type": "sfq",
            "maxqueue": checks.integer(self.maxqueue, "maxqueue", "queue limit", 1, 2**32 - 1),
            "buckets": checks.integer(self.buckets, "buckets", "number of buckets", 1, 2**32 - 1),
        }


def _position(position: Any) -> LossPosition:
    return cast(LossPosition, checks.choice(position, "position", ("queue", "wire")))


class UniformLoss(Spec):
    """Each packet is lost independently with probability `p`.

    `position` "wire" lets a lost packet use the link and discards it on
    arrival; "queue" drops it before the queue, like ns-2's `lossmodel`.
    """

    p: float
    position: LossPosition = "wire"

    def to_native(self) -> UniformLossSpec:
        return {
            "type": "uniform",
            "p": checks.probability(self.p, "p"),
            "position": _position(self.position),
        }


class BitErrors(Spec):
    """Independent bit errors at rate `ber`: a packet of s bytes is lost with
    probability 1 - (1 - ber)^(8 s)."""

    ber: float
    position: LossPosition = "wire"

    def to_native(self) -> BitErrorSpec:
        return {
            "type": "ber",
            "ber": checks.probability(self.ber, "ber"),
            "position": _position(self.position),
        }


class GilbertElliott(Spec):
    """Bursty loss: a two-state (good/bad) Markov chain stepped once per packet,
    losing packets with probability `loss_good` or `loss_bad` in each state."""

    p_good_to_bad: float
    p_bad_to_good: float
    loss_good: float = 0.0
    loss_bad: float = 1.0
    position: LossPosition = "wire"

    def to_native(self) -> GilbertElliottSpec:
        return {
            "type": "gilbert_elliott",
            "p_good_to_bad": checks.probability(self.p_good_to_bad, "p_good_to_bad"),
            "p_bad_to_good": checks.probability(self.p_bad_to_good, "p_bad_to_good"),
            "loss_good": checks.probability(self.loss_good, "loss_good"),
            "loss_bad": checks.probability(self.loss_bad, "loss_bad"),
            "position": _position(self.position),
        }


class DropList(Spec):
    """Drops exactly the listed packets: 1-based positions in the order packets
    cross the link direction (1 = the first packet)."""

    drops: Sequence[int]
    position: LossPosition = "wire"

    def __post_init__(self) -> None:
        if isinstance(self.drops, (str, bytes)) or not isinstance(self.drops, Sequence):
            raise ParameterError("drops", f"{self.drops!r} is not a list of packet numbers")
        # Stored as a tuple so that the spec stays immutable and hashable.
        object.__setattr__(self, "drops", tuple(self.drops))
        super().__post_init__()

    def to_native(self) -> DropListSpec:
        drops = [checks.integer(index, "drops", "packet number", minimum=1) for index in self.drops]
        return {"type": "list", "drops": drops, "position": _position(self.position)}


class DropSegments(Spec):
    """Drops TCP data segments chosen by sequence number: each entry is the
    offset of a segment's first data byte from its sender's ISN (the first
    segment of the stream is 1, as tcpdump numbers it), or a pair (offset,
    transmission) to drop a later transmission of it (1 = the first, 2 = its
    first retransmission). Acts at the link head; other packets pass."""

    drops: Sequence[int | tuple[int, int]]

    def __post_init__(self) -> None:
        if isinstance(self.drops, (str, bytes)) or not isinstance(self.drops, Sequence):
            raise ParameterError("drops", f"{self.drops!r} is not a list of sequence offsets")
        object.__setattr__(self, "drops", tuple(self.drops))
        super().__post_init__()

    def to_native(self) -> DropSegmentsSpec:
        return {"type": "segments", "drops": [_segment(d) for d in self.drops]}


def _segment(drop: Any) -> tuple[int, int]:
    offset, transmission = drop if isinstance(drop, (tuple, list)) and len(drop) == 2 else (drop, 1)
    return (
        checks.integer(offset, "drops", "sequence offset", minimum=1, maximum=2**32 - 1),
        checks.integer(transmission, "drops", "transmission number", minimum=1, maximum=2**32 - 1),
    )


class Periodic(Spec):
    """ns-2's periodic error model: counting packets (or, with `bytes`,
    bytes) that reach it, the first loss when the count reaches `offset`,
    then one each `period`, each followed by losses while the count since
    it stays below `burst`. `inverted` keeps only those packets and loses
    the others (ns-2's default_drop_)."""

    period: int
    offset: int = 0
    burst: int = 0
    bytes: bool = False
    inverted: bool = False
    position: LossPosition = "wire"

    def to_native(self) -> PeriodicLossSpec:
        return {
            "type": "periodic",
            "period": checks.integer(self.period, "period", "count", minimum=1),
            "offset": checks.integer(self.offset, "offset", "count"),
            "burst": checks.integer(self.burst, "burst", "count"),
            "bytes": checks.flag(self.bytes, "bytes"),
            "inverted": checks.flag(self.inverted, "inverted"),
            "position": _position(self.position),
        }


StretchLength = Union[tuple[str, float], tuple[str, float, float]]
"""("constant", n), ("exponential", mean) or ("uniform", low, high)."""


class TwoStateLoss(Spec):
    """ns-2's two-state error model: good and bad stretches alternate, their
    lengths in packets (or, with `bytes`, bytes) drawn from `good` and
    `bad`; a packet that reaches into a bad stretch is lost."""

    good: StretchLength
    bad: StretchLength
    bytes: bool = False
    position: LossPosition = "wire"

    def to_native(self) -> TwoStateLossSpec:
        return {
            "type": "two_state",
            "good": _stretch(self.good, "good"),
            "bad": _stretch(self.bad, "bad"),
            "bytes": checks.flag(self.bytes, "bytes"),
            "position": _position(self.position),
        }


def _stretch(length: Any, parameter: str) -> tuple[str, float, float | None]:
    if not isinstance(length, tuple) or len(length) not in (2, 3) or not isinstance(length[0], str):
        raise ParameterError(
            parameter,
            f"{length!r} is not a length: use ('constant', n), ('exponential', mean) "
            "or ('uniform', low, high)",
        )
    values = [checks.real(v, parameter, "length") for v in length[1:]]
    return (length[0], values[0], values[1] if len(values) == 2 else None)


class HeldAtHead(Spec):
    """The packets `model` picks are held `delay` seconds at the link head
    and then queued, instead of lost (ns-2's ErrorModel with delay_pkt_):
    they arrive late and out of order. `model` acts before the queue
    (position "queue")."""

    model: LossModel
    delay: float

    def to_native(self) -> LossSpec:
        spec = loss_spec(self.model, "model")
        assert spec is not None
        if spec.get("position") != "queue":
            raise ParameterError(
                "model", f"{self.model!r} acts on the wire: give it position='queue'"
            )
        spec["delay_ps"] = units.duration_ps(self.delay, "delay")
        return spec


class ExponentialDelay(Spec):
    """Adds an exponentially distributed delay of mean `mean` to each packet.

    Without `reorder` a packet never overtakes an earlier one (its arrival is
    pushed back to the previous arrival)."""

    mean: units.Duration
    reorder: bool = False

    def to_native(self) -> ExponentialJitterSpec:
        return {
            "type": "exponential",
            "mean_ps": units.duration_ps(self.mean, "mean"),
            "reorder": checks.flag(self.reorder, "reorder"),
        }


class UniformDelay(Spec):
    """Adds a delay drawn uniformly from [low, high] to each packet."""

    low: units.Duration
    high: units.Duration
    reorder: bool = False

    def to_native(self) -> UniformJitterSpec:
        low_ps = units.duration_ps(self.low, "low")
        high_ps = units.duration_ps(self.high, "high")
        if high_ps < low_ps:
            raise ParameterError(
                "high", f"{self.high!r} is not a duration: it must be at least low ({self.low!r})"
            )
        return {
            "type": "uniform",
            "low_ps": low_ps,
            "high_ps": high_ps,
            "reorder": checks.flag(self.reorder, "reorder"),
        }


class ExponentialSize(Spec):
    """Packet sizes drawn from an exponential distribution of mean `mean` bytes,
    rounded to whole bytes and clamped to 28..65535."""

    mean: units.Size

    def to_native(self) -> ExponentialSizeSpec:
        return {"type": "exponential", "mean_bytes": units.mean_size_bytes(self.mean, "mean")}


LossModel = Union[
    UniformLoss, BitErrors, GilbertElliott, DropList, Periodic, TwoStateLoss, HeldAtHead
]
Jitter = Union[ExponentialDelay, UniformDelay]
PacketSize = Union[units.Size, ExponentialSize]
"""A fixed size in bytes (number or string such as "1500B") or a distribution."""


class LinkParams(Value):
    """Overrides for the reverse direction of a duplex link; None keeps the
    forward direction's value."""

    bandwidth: units.Bandwidth | None = None
    delay: units.Duration | None = None
    queue: Queue | None = None

    def __post_init__(self) -> None:
        if self.bandwidth is not None:
            units.bandwidth_bps(self.bandwidth, "bandwidth")
        if self.delay is not None:
            units.duration_ps(self.delay, "delay")
        if self.queue is not None:
            queue_spec(self.queue, "queue")


def _not_a(value: Any, parameter: str, what: str, use: str) -> ParameterError:
    return ParameterError(parameter, f"{value!r} is not {what}: use {use}")


class DelayBuffer(Spec):
    """A router buffer that holds each packet for a random, exponentially
    distributed time of mean `mean` before it may leave (delays at or above
    `cap`, if given, are drawn again), so that packets overtake one another:
    seed 004's model of reordering. A packet holds its place in the buffer
    until it is sent; arrivals beyond `limit` are dropped."""

    mean: units.Duration
    cap: units.Duration | None = None
    limit: int | None = 5
    unit: QueueUnit = "packets"

    def to_native(self) -> DelayBufferSpec:
        limit, unit, _ = _queue_limits(self.limit, self.unit, False)
        spec: DelayBufferSpec = {
            "type": "delay_buffer",
            "limit": limit,
            "unit": unit,
            "mean_ps": units.duration_ps(self.mean, "mean"),
        }
        if self.cap is not None:
            spec["cap_ps"] = units.positive_duration_ps(self.cap, "cap")
        return spec


Queue = Union[DropTail, RED, StepMark, CoDel, FQCoDel, PIE, DRR, SFQ, FQ, DelayBuffer]
QUEUES = (DropTail, RED, StepMark, CoDel, FQCoDel, PIE, DRR, SFQ, FQ, DelayBuffer)


def queue_spec(queue: Any, parameter: str) -> QueueSpec:
    if not isinstance(queue, QUEUES):
        names = ", ".join(f"ackclock.{q.__name__}(...)" for q in QUEUES)
        raise _not_a(queue, parameter, "a queue", names)
    return queue.to_native()


def loss_spec(loss: Any, parameter: str) -> LossSpec | None:
    if loss is None:
        return None
    models = (
        UniformLoss,
        BitErrors,
        GilbertElliott,
        DropList,
        DropSegments,
        Periodic,
        TwoStateLoss,
        HeldAtHead,
    )
    if not isinstance(loss, models):
        raise _not_a(
            loss,
            parameter,
            "a loss model",
            "ackclock.UniformLoss, BitErrors, GilbertElliott, DropList, DropSegments, Periodic, "
            "TwoStateLoss, HeldAtHead or None",
        )
    return loss.to_native()


def jitter_spec(jitter: Any, parameter: str) -> JitterSpec | None:
    if jitter is None:
        return None
    if not isinstance(jitter, (ExponentialDelay, UniformDelay)):
        raise _not_a(
            jitter, parameter, "a jitter model", "ackclock.ExponentialDelay, UniformDelay or None"
        )
    return jitter.to_native()


def packet_size_spec(size: Any, parameter: str) -> SizeSpec:
    if isinstance(size, ExponentialSize):
        return size.to_native()
    return {"type": "fixed", "bytes": packet_bytes(size, parameter)}


def packet_bytes(size: Any, parameter: str) -> int:
    """A packet size in bytes, checked against the sizes an IP datagram can have."""
    fixed = units.size_bytes(size, parameter)
    if not MIN_PACKET_BYTES <= fixed <= MAX_PACKET_BYTES:
        raise ParameterError(
            parameter,
            f"{size!r} is not a packet size: it must be {MIN_PACKET_BYTES} to {MAX_PACKET_BYTES} "
            "bytes (the IP datagram, headers included)",
        )
    return fixed
