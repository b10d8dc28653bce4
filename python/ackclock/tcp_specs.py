"""Value objects describing a TCP connection: its parameters and the
application driving it.

Like `ackclock.specs`, each is a frozen dataclass validated on construction
whose `to_native()` returns the dict `ackclock._native` takes. `TcpParams`
starts from a named profile ("rfc", "linux" or "ns2"); every parameter left at
None keeps the profile's value (see docs/python-api.md for the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Union, cast

from ackclock import _native, checks, units
from ackclock.errors import ParameterError
from ackclock.specs import Spec

if TYPE_CHECKING:
    from ackclock._native import (
        BulkAppSpec,
        CcParamInfo,
        CongestionControlInfo,
        ManualAppSpec,
        RequestResponseAppSpec,
        TcpAppSpec,
        TcpSpec,
        TelnetAppSpec,
    )

Profile = Literal["rfc", "linux", "ns2"]
PROFILES = ("rfc", "linux", "ns2")
# The core's registry of congestion-control algorithms, by name: each with its
# summary, its parameters (name, kind, default, min, max, help) and the ns-2
# agent classes it stands for.
ALGORITHMS = {a["name"]: a for a in _native.congestion_controls()}
CONGESTION_CONTROLS = tuple(ALGORITHMS)


def congestion_controls() -> list[CongestionControlInfo]:
    """The congestion-control algorithms `TcpParams(cc=...)` takes: name,
    summary, parameters (name, kind, default, min, max, help) and the ns-2
    agent classes each stands for in Tcl scripts."""
    return _native.congestion_controls()


# The core keeps window sizes and counts as 32-bit unsigned integers.
U32_MAX = 2**32 - 1
# What the core uses for an unbounded initial ssthresh (RFC 5681: "arbitrarily high").
UNBOUNDED_SSTHRESH = 2**31 - 1
# The largest payload of one segment: an IPv4 datagram (65535 bytes) less the
# IPv4 and TCP headers without options.
MAX_MSS = 65535 - 40

# The profiles' MSS and whether they send the MSS option, for the MSS a
# connection ends up using (see `effective_mss`).
PROFILE_MSS = {"rfc": 1460, "linux": 1460, "ns2": 1000}
PROFILE_MSS_OPTION = {"rfc": True, "linux": True, "ns2": False}
# RFC 9293 3.7.1: the MSS assumed when the peer sends no MSS option.
DEFAULT_PEER_MSS = 536

Unlimited = Literal["unlimited"]
WindowSize = Union[units.Size, Unlimited]
"""A size in bytes, or "unlimited"."""


def _u32_size(value: Any, parameter: str, minimum: int = 0) -> int:
    size = units.size_bytes(value, parameter)
    if size < minimum:
        raise ParameterError(parameter, f"{value!r} is not a size: it must be at least {minimum}")
    if size > U32_MAX:
        raise ParameterError(
            parameter, f"{value!r} is not a size: it must be at most {U32_MAX} bytes"
        )
    return size


def _window(value: Any, parameter: str, unlimited: int) -> int:
    """A window size in bytes; "unlimited" is the core's `unlimited` value."""
    if value == "unlimited":
        return unlimited
    return _u32_size(value, parameter, minimum=1)


def _u32_count(value: Any, parameter: str, what: str, minimum: int = 0) -> int:
    count = checks.integer(value, parameter, what, minimum)
    if count > U32_MAX:
        raise ParameterError(parameter, f"{value!r} is not a {what}: it is too large")
    return count


class TcpParams(Spec):
    """The parameters of one TCP endpoint: a profile plus overrides.

    Times are durations ("200ms", 0.2), sizes are sizes ("64KB", 65535);
    `initial_window` is in segments. None keeps the profile's value.
    `initial_ssthresh` and `max_window` also take "unlimited". `cc` names an
    algorithm of `ackclock.congestion_controls()` and `cc_params` sets its
    parameters by name.
    """

    profile: Profile = "rfc"
    cc: str | None = None
    cc_params: Mapping[str, float | bool] | None = None
    mss: units.Size | None = None
    mss_option: bool | None = None
    initial_window: int | None = None
    syn_loss_window: int | None = None
    handshake: bool | None = None
    first_fast_retransmit: bool | None = None
    ns2_bare_packet0: bool | None = None
    initial_ssthresh: WindowSize | None = None
    max_window: WindowSize | None = None
    abc: bool | None = None
    ns2_arithmetic: bool | None = None
    dupack_threshold: int | None = None
    limited_transmit: bool | None = None
    sack: bool | None = None
    rack: bool | None = None
    ecn: bool | None = None
    ecn_per_packet_echo: bool | None = None
    prr: bool | None = None
    frto: bool | None = None
    undo: bool | None = None
    quickacks: int | None = None
    dsack: bool | None = None
    timestamps: bool | None = None
    timestamp_granularity: units.Duration | None = None
    window_scale: bool | None = None
    initial_rto: units.Duration | None = None
    min_rto: units.Duration | None = None
    max_rto: units.Duration | None = None
    min_rto_before_backoff: bool | None = None
    clock_granularity: units.Duration | None = None
    clock_phase: units.Duration | None = None
    delayed_ack: bool | None = None
    delayed_ack_timeout: units.Duration | None = None
    immediate_gap_ack: bool | None = None
    # ns-2's FullTcp: the SYN-ACK's and a FIN's ACKs alone; ACKs at once
    # (every segment, or every second with delayed_ack) or at the ticks of
    # a delayed_ack_timeout clock; traces number bytes.
    ns2_full_tcp: bool | None = None
    # ns-2's timerfix_ false: a new ACK restarts the timer with the RTO from
    # before its RTT sample.
    restart_rto_before_sample: bool | None = None
    # ns-2's QOption_ (and EnblRTTCtr_): the window is cut when sending
    # resumes after an idle or application-limited spell.
    ns2_qoption: bool | None = None
    ns2_rtt_counter: bool | None = None
    # The initial sequence number (ns-2's iss_); None draws one.
    iss: int | None = None
    receive_buffer: units.Size | None = None
    flow_control: bool | None = None
    nagle: bool | None = None
    send_overhead: units.Duration | None = None
    max_burst: int | None = None
    persist_min: units.Duration | None = None
    persist_max: units.Duration | None = None
    time_wait: units.Duration | None = None
    syn_retries: int | None = None
    max_retransmits: int | None = None

    def to_native(self) -> TcpSpec:
        native: dict[str, Any] = {"profile": checks.choice(self.profile, "profile", PROFILES)}

        def put(key: str, name: str, convert: Any) -> None:
            value = getattr(self, name)
            if value is not None:
                native[key] = convert(value, name)

        put("cc", "cc", lambda v, n: checks.choice(v, n, CONGESTION_CONTROLS))
        put("cc_params", "cc_params", lambda v, n: _cc_params(v, n, self.cc))
        put("mss", "mss", _mss)
        put("initial_window", "initial_window", lambda v, n: _u32_count(v, n, "window", 1))
        put("syn_loss_window", "syn_loss_window", lambda v, n: _u32_count(v, n, "window", 1))
        put("initial_ssthresh", "initial_ssthresh", lambda v, n: _window(v, n, UNBOUNDED_SSTHRESH))
        put("max_window", "max_window", lambda v, n: _window(v, n, U32_MAX))
        put("dupack_threshold", "dupack_threshold", lambda v, n: _u32_count(v, n, "count", 1))
        put("timestamp_granularity_ps", "timestamp_granularity", units.positive_duration_ps)
        put("initial_rto_ps", "initial_rto", units.positive_duration_ps)
        put("min_rto_ps", "min_rto", units.duration_ps)
        put("max_rto_ps", "max_rto", units.positive_duration_ps)
        put("clock_granularity_ps", "clock_granularity", units.duration_ps)
        put("clock_phase_ps", "clock_phase", units.duration_ps)
        put("delayed_ack_timeout_ps", "delayed_ack_timeout", units.positive_duration_ps)
        put("receive_buffer", "receive_buffer", lambda v, n: _u32_size(v, n, minimum=1))
        put("send_overhead_ps", "send_overhead", units.duration_ps)
        put("max_burst", "max_burst", lambda v, n: _u32_count(v, n, "count", 1))
        put("persist_min_ps", "persist_min", units.positive_duration_ps)
        put("persist_max_ps", "persist_max", units.positive_duration_ps)
        put("time_wait_ps", "time_wait", units.duration_ps)
        put("syn_retries", "syn_retries", lambda v, n: _u32_count(v, n, "count"))
        put("quickacks", "quickacks", lambda v, n: _u32_count(v, n, "count"))
        put("max_retransmits", "max_retransmits", lambda v, n: _u32_count(v, n, "count"))
        put("iss", "iss", lambda v, n: _u32_count(v, n, "sequence number"))
        for flag in _FLAGS:
            put(flag, flag, checks.flag)
        _in_order(native, self.min_rto, self.max_rto, "min_rto", "max_rto")
        _in_order(native, self.persist_min, self.persist_max, "persist_min", "persist_max")
        return cast("TcpSpec", native)

    @property
    def mss_bytes(self) -> int:
        """The MSS this endpoint sends with (before negotiation): `mss` or the profile's."""
        return PROFILE_MSS[self.profile] if self.mss is None else units.size_bytes(self.mss)

    @property
    def sends_mss_option(self) -> bool:
        if self.mss_option is None:
            return PROFILE_MSS_OPTION[self.profile]
        return self.mss_option


_FLAGS = (
    "mss_option",
    "handshake",
    "first_fast_retransmit",
    "ns2_bare_packet0",
    "abc",
    "ns2_arithmetic",
    "limited_transmit",
    "sack",
    "rack",
    "prr",
    "frto",
    "undo",
    "ecn",
    "ecn_per_packet_echo",
    "dsack",
    "timestamps",
    "window_scale",
    "min_rto_before_backoff",
    "delayed_ack",
    "immediate_gap_ack",
    "ns2_full_tcp",
    "restart_rto_before_sample",
    "ns2_qoption",
    "ns2_rtt_counter",
    "flow_control",
    "nagle",
)


def _in_order(native: dict[str, Any], low: Any, high: Any, low_name: str, high_name: str) -> None:
    """Refuses low > high when both durations are given."""
    low_ps, high_ps = native.get(f"{low_name}_ps"), native.get(f"{high_name}_ps")
    if low_ps is not None and high_ps is not None and low_ps > high_ps:
        raise ParameterError(
            low_name, f"{low!r} is not a duration: it must not exceed {high_name} ({high!r})"
        )


def _cc_params(value: Any, parameter: str, cc: str | None) -> dict[str, float]:
    """Parameter values of the algorithm `cc`, checked against the registry."""
    if not isinstance(value, Mapping):
        raise ParameterError(parameter, f"{value!r} is not a mapping of parameter names to values")
    if cc is None:
        raise ParameterError(parameter, "parameters belong to an algorithm: give cc too")
    known = {p["name"]: p for p in ALGORITHMS[cc]["params"]}
    native = {}
    for name, given in value.items():
        field = f"{parameter}.{name}"
        param = known.get(name)
        if param is None:
            has = ", ".join(known) or "none"
            raise ParameterError(field, f"{cc} has no parameter {name!r} (it has: {has})")
        native[name] = _param_value(given, field, param)
    return native


def _param_value(value: Any, parameter: str, param: CcParamInfo) -> float:
    """A value of the kind ("real", "integer" or "flag") and range `param` says."""
    if param["kind"] == "flag":
        return float(checks.flag(value, parameter))
    low, high = param["min"], param["max"]
    if param["kind"] == "integer":
        return float(checks.integer(value, parameter, "whole number", int(low), int(high)))
    return checks.real(value, parameter, "value", low, high)


def _mss(value: Any, parameter: str) -> int:
    mss = units.size_bytes(value, parameter)
    if not 1 <= mss <= MAX_MSS:
        raise ParameterError(
            parameter,
            f"{value!r} is not a segment size: it must be 1 to {MAX_MSS} bytes "
            "(payload, without headers)",
        )
    return mss


def effective_mss(client: TcpParams, server: TcpParams) -> int:
    """The payload size the client sends: its own MSS, lowered to the MSS the
    server offers when the client uses the MSS option (536 if the server
    offers none, RFC 9293 3.7.1); ns-2-style endpoints just use their own."""
    if not client.sends_mss_option:
        return client.mss_bytes
    offered = server.mss_bytes if server.sends_mss_option else DEFAULT_PEER_MSS
    return min(client.mss_bytes, offered)


# --- applications ------------------------------------------------------------------


class Bulk(Spec):
    """Sends `bytes` as fast as TCP allows, then closes; None sends forever
    (ns-2's FTP)."""

    bytes: units.Size | None = None

    def to_native(self) -> BulkAppSpec:
        size = None if self.bytes is None else units.size_bytes(self.bytes, "bytes")
        return {"type": "bulk", "bytes": size}


class Telnet(Spec):
    """Writes `packet_size` bytes at exponentially distributed intervals of
    mean `mean_interval` (an interactive session)."""

    mean_interval: units.Duration
    packet_size: units.Size

    def to_native(self) -> TelnetAppSpec:
        return {
            "type": "telnet",
            "mean_interval_ps": units.positive_duration_ps(self.mean_interval, "mean_interval"),
            "packet_size": _u32_size(self.packet_size, "packet_size", minimum=1),
        }


class RequestResponse(Spec):
    """`count` exchanges: the client sends `request` bytes, the server answers
    with `response` bytes, and the client waits `think` before the next."""

    request: units.Size
    response: units.Size
    count: int = 1
    think: units.Duration = 0

    def to_native(self) -> RequestResponseAppSpec:
        return {
            "type": "request_response",
            "request": _positive_size(self.request, "request"),
            "response": _positive_size(self.response, "response"),
            "count": _u32_count(self.count, "count", "count", minimum=1),
            "think_ps": units.duration_ps(self.think, "think"),
        }


class Manual(Spec):
    """Writes only what `TcpFlow.write` asks, and closes on `TcpFlow.close`
    (ns-2's agents driven by `advance`, `send` and `close`)."""

    def to_native(self) -> ManualAppSpec:
        return {"type": "manual"}


def _positive_size(value: Any, parameter: str) -> int:
    size = units.size_bytes(value, parameter)
    if size == 0:
        raise ParameterError(parameter, f"{value!r} is not a size: it must be at least 1 byte")
    return size


TcpApp = Union[Bulk, Telnet, RequestResponse, Manual]


def tcp_spec(params: Any, parameter: str) -> TcpSpec:
    if not isinstance(params, TcpParams):
        raise ParameterError(parameter, f"{params!r} is not TCP parameters: use ackclock.TcpParams")
    return params.to_native()


def app_spec(app: Any, parameter: str) -> TcpAppSpec:
    if not isinstance(app, (Bulk, Telnet, RequestResponse, Manual)):
        raise ParameterError(
            parameter,
            f"{app!r} is not a TCP application: use ackclock.Bulk, Telnet, RequestResponse "
            "or Manual",
        )
    return app.to_native()
