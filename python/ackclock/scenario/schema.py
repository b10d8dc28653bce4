"""The scenario file schema: which tables and keys exist and what type each
key takes (pydantic v2, strict: no silent type coercion, unknown keys refused).

Value checks (ranges, units) are the Python API's own: unit strings are checked
here with the API's converters, and everything else when the simulation is
built, so a file and a script get the same messages. Keys are the API's
parameter names; a key left out keeps the API's default (see `Table.given`).
"""

from typing import Annotated, Any, Callable, ClassVar, Literal, Optional, Union, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    model_validator,
)
from pydantic import Tag as UnionTag
from pydantic_core import PydanticCustomError

from ackclock import network_specs, specs, tcp_specs, units, wireless
from ackclock.errors import ParameterError


class Table(BaseModel):
    """A TOML table. Optional keys default to None, meaning "not given"."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @classmethod
    def keys(cls) -> list[str]:
        """The keys a file may use (aliases such as "from" included)."""
        return [field.alias or name for name, field in cls.model_fields.items()]

    @model_validator(mode="before")
    @classmethod
    def _refuse_unknown_keys(cls, data: Any) -> Any:
        # Done before pydantic's own `extra="forbid"` to name the allowed keys.
        if isinstance(data, dict):
            for key in data:
                if key not in cls.keys():
                    raise PydanticCustomError(
                        "unknown_key",
                        "unknown key (allowed: {allowed})",
                        {"key": key, "allowed": ", ".join(cls.keys())},
                    )
        return data

    def given(self, *exclude: str) -> dict[str, Any]:
        """The keys the file sets, by Python name, except `exclude`."""
        return {name: getattr(self, name) for name in self.model_fields_set if name not in exclude}


def _checked_by(convert: Callable[[Any, str], object]) -> PlainValidator:
    """Checks a quantity with the API's converter; the raw value is kept (the
    API converts it when the simulation is built)."""

    def validate(value: Any) -> Any:
        try:
            convert(value, "value")
        except ParameterError as error:
            raise PydanticCustomError(
                "invalid_value", "{problem}", {"problem": error.problem}
            ) from None
        return value

    return PlainValidator(validate)


DurationValue = Annotated[Union[str, int, float], _checked_by(units.duration_ps)]
BandwidthValue = Annotated[Union[str, int, float], _checked_by(units.bandwidth_bps)]
RateOrZeroValue = Annotated[Union[str, int, float], _checked_by(units.bandwidth_or_zero_bps)]
SizeValue = Annotated[Union[str, int, float], _checked_by(units.size_bytes)]
MeanSizeValue = Annotated[Union[str, int, float], _checked_by(units.mean_size_bytes)]


def _queue_limit(value: Any) -> Optional[int]:
    if value == "unlimited":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PydanticCustomError(
        "invalid_value",
        '{value} is not a queue limit: give a number or "unlimited"',
        {"value": repr(value)},
    )


QueueLimit = Annotated[Union[int, Literal["unlimited"]], PlainValidator(_queue_limit)]


def _type_among(noun: str, *tables: type[Table]) -> BeforeValidator:
    """Checks the `type` key of a table that may be one of `tables`, so that an
    unknown or missing type gets one clear message listing the choices."""
    tags = [get_args(table.model_fields["type"].annotation)[0] for table in tables]
    choices = " or ".join(", ".join(tags).rsplit(", ", 1))

    def validate(value: Any) -> Any:
        if isinstance(value, dict) and value.get("type") not in tags:
            if "type" in value:
                message = "unknown {noun} type {tag} (use {choices})"
            else:
                message = "missing (the {noun} type: {choices})"
            context = {"noun": noun, "tag": repr(value.get("type")), "choices": choices}
            raise PydanticCustomError("bad_type", message, context)
        return value

    return BeforeValidator(validate)


class SpecTable(Table):
    """A table describing one of the API's spec objects (`spec` is its class)."""

    spec: ClassVar[Callable[..., Any]]

    def to_spec(self) -> Any:
        return self.spec(**self.given("type"))


# --- queues --------------------------------------------------------------------


class _QueueLimits(SpecTable):
    limit: Optional[QueueLimit] = None
    unit: Optional[Literal["packets", "bytes"]] = None
    ns2_limit: Optional[bool] = None


class DropTailTable(_QueueLimits):
    spec = specs.DropTail
    type: Literal["droptail"]


class RedTable(_QueueLimits):
    spec = specs.RED
    type: Literal["red"]
    min_th: Optional[float] = None
    max_th: Optional[float] = None
    max_p: Optional[float] = None
    weight: Optional[float] = None
    gentle: Optional[bool] = None
    ecn: Optional[bool] = None
    mean_packet_size: Optional[SizeValue] = None
    wait: Optional[bool] = None
    byte_mode: Optional[bool] = None
    mark_p: Optional[float] = None
    ns2: Optional[bool] = None
    ns1_compat: Optional[bool] = None
    victim: Optional[Literal["arrival", "front", "random"]] = None


class StepMarkTable(_QueueLimits):
    spec = specs.StepMark
    type: Literal["step_mark"]
    k: int


class _CoDelLaw(SpecTable):
    target: Optional[DurationValue] = None
    interval: Optional[DurationValue] = None
    ecn: Optional[bool] = None
    mtu: Optional[SizeValue] = None


class CoDelTable(_CoDelLaw):
    spec = specs.CoDel
    type: Literal["codel"]
    limit: Optional[QueueLimit] = None
    unit: Optional[Literal["packets", "bytes"]] = None


class FqCoDelTable(_CoDelLaw):
    spec = specs.FQCoDel
    type: Literal["fq_codel"]
    quantum: Optional[SizeValue] = None
    flows: Optional[int] = None
    limit: Optional[int] = None


class PieTable(SpecTable):
    spec = specs.PIE
    type: Literal["pie"]
    limit: Optional[QueueLimit] = None
    unit: Optional[Literal["packets", "bytes"]] = None
    target: Optional[DurationValue] = None
    t_update: Optional[DurationValue] = None
    alpha: Optional[float] = None
    beta: Optional[float] = None
    max_burst: Optional[DurationValue] = None
    ecn: Optional[bool] = None
    mark_threshold: Optional[float] = None
    mean_packet_size: Optional[SizeValue] = None


class DrrTable(SpecTable):
    spec = specs.DRR
    type: Literal["drr"]
    buckets: Optional[int] = None
    blimit: Optional[SizeValue] = None
    quantum: Optional[SizeValue] = None
    mask: Optional[bool] = None


class SfqTable(SpecTable):
    spec = specs.SFQ
    type: Literal["sfq"]
    maxqueue: Optional[int] = None
    buckets: Optional[int] = None


class FqTable(SpecTable):
    spec = specs.FQ
    type: Literal["fq"]
    limit: Optional[int] = None
    rate: Optional[BandwidthValue] = None


class DelayBufferTable(SpecTable):
    spec = specs.DelayBuffer
    type: Literal["delay_buffer"]
    mean: DurationValue
    cap: Optional[DurationValue] = None
    limit: Optional[QueueLimit] = None
    unit: Optional[Literal["packets", "bytes"]] = None


_QUEUE_TABLES = (
    DropTailTable,
    RedTable,
    StepMarkTable,
    CoDelTable,
    FqCoDelTable,
    PieTable,
    DrrTable,
    SfqTable,
    FqTable,
    DelayBufferTable,
)
QueueTable = Annotated[
    Union[_QUEUE_TABLES],
    Field(discriminator="type"),
    _type_among("queue", *_QUEUE_TABLES),
]

# --- error models ----------------------------------------------------------------

Position = Optional[Literal["queue", "wire"]]


class UniformLossTable(SpecTable):
    spec = specs.UniformLoss
    type: Literal["uniform"]
    p: float
    position: Position = None


class BitErrorTable(SpecTable):
    spec = specs.BitErrors
    type: Literal["ber"]
    ber: float
    position: Position = None


class GilbertElliottTable(SpecTable):
    spec = specs.GilbertElliott
    type: Literal["gilbert_elliott"]
    p_good_to_bad: float
    p_bad_to_good: float
    loss_good: Optional[float] = None
    loss_bad: Optional[float] = None
    position: Position = None


class DropListTable(SpecTable):
    spec = specs.DropList
    type: Literal["list"]
    drops: list[int]
    position: Position = None


class DropSegmentsTable(SpecTable):
    spec = specs.DropSegments
    type: Literal["segments"]
    drops: list[Union[int, list[int]]]  # an offset, or [offset, transmission]


LossTable = Annotated[
    Union[UniformLossTable, BitErrorTable, GilbertElliottTable, DropListTable, DropSegmentsTable],
    Field(discriminator="type"),
    _type_among(
        "loss model",
        UniformLossTable,
        BitErrorTable,
        GilbertElliottTable,
        DropListTable,
        DropSegmentsTable,
    ),
]

# --- delay jitter ----------------------------------------------------------------


class ExponentialDelayTable(SpecTable):
    spec = specs.ExponentialDelay
    type: Literal["exponential"]
    mean: DurationValue
    reorder: Optional[bool] = None


class UniformDelayTable(SpecTable):
    spec = specs.UniformDelay
    type: Literal["uniform"]
    low: DurationValue
    high: DurationValue
    reorder: Optional[bool] = None


JitterTable = Annotated[
    Union[ExponentialDelayTable, UniformDelayTable],
    Field(discriminator="type"),
    _type_among("jitter", ExponentialDelayTable, UniformDelayTable),
]

# --- packet sizes ------------------------------------------------------------------


class ExponentialSizeTable(SpecTable):
    spec = specs.ExponentialSize
    type: Literal["exponential"]
    mean: MeanSizeValue


def _size_kind(value: Any) -> str:
    """A table names its distribution; a plain number or string is a fixed size."""
    return str(value.get("type")) if isinstance(value, dict) else "fixed"


# A fixed size (1000, "1500B") or a table such as { type = "exponential", mean = 2000 }.
PacketSizeValue = Annotated[
    Union[
        Annotated[SizeValue, UnionTag("fixed")],
        Annotated[ExponentialSizeTable, UnionTag("exponential")],
    ],
    Discriminator(_size_kind),
    _type_among("packet size", ExponentialSizeTable),
]

# --- TCP ---------------------------------------------------------------------------


def _window_size(value: Any) -> Any:
    if value == "unlimited":
        return value
    try:
        units.size_bytes(value, "value")
    except ParameterError as error:
        raise PydanticCustomError(
            "invalid_value", '{problem} (or "unlimited")', {"problem": error.problem}
        ) from None
    return value


WindowValue = Annotated[Union[str, int, float], PlainValidator(_window_size)]


def _cc_name(value: Any) -> Any:
    if value not in tcp_specs.CONGESTION_CONTROLS:
        raise PydanticCustomError(
            "invalid_value",
            "unknown congestion control {value} (use {choices})",
            {"value": repr(value), "choices": ", ".join(tcp_specs.CONGESTION_CONTROLS)},
        )
    return value


def _cc_param_value(value: Any) -> Any:
    if not isinstance(value, (int, float)):
        raise PydanticCustomError(
            "invalid_value", "{value} is not a number or a flag", {"value": repr(value)}
        )
    return value


class TcpTable(SpecTable):
    """TCP parameters: a profile and overrides (the keys of `TcpParams`)."""

    spec = tcp_specs.TcpParams
    profile: Optional[Literal["rfc", "linux", "ns2"]] = None
    cc: Optional[Annotated[str, PlainValidator(_cc_name)]] = None
    cc_params: Optional[dict[str, Annotated[Any, PlainValidator(_cc_param_value)]]] = None
    mss: Optional[SizeValue] = None
    mss_option: Optional[bool] = None
    initial_window: Optional[int] = None
    syn_loss_window: Optional[int] = None
    handshake: Optional[bool] = None
    first_fast_retransmit: Optional[bool] = None
    ns2_bare_packet0: Optional[bool] = None
    initial_ssthresh: Optional[WindowValue] = None
    max_window: Optional[WindowValue] = None
    abc: Optional[bool] = None
    ns2_arithmetic: Optional[bool] = None
    dupack_threshold: Optional[int] = None
    limited_transmit: Optional[bool] = None
    sack: Optional[bool] = None
    rack: Optional[bool] = None
    ecn: Optional[bool] = None
    ecn_per_packet_echo: Optional[bool] = None
    prr: Optional[bool] = None
    frto: Optional[bool] = None
    undo: Optional[bool] = None
    quickacks: Optional[int] = None
    dsack: Optional[bool] = None
    timestamps: Optional[bool] = None
    timestamp_granularity: Optional[DurationValue] = None
    window_scale: Optional[bool] = None
    initial_rto: Optional[DurationValue] = None
    min_rto: Optional[DurationValue] = None
    max_rto: Optional[DurationValue] = None
    min_rto_before_backoff: Optional[bool] = None
    clock_granularity: Optional[DurationValue] = None
    clock_phase: Optional[DurationValue] = None
    delayed_ack: Optional[bool] = None
    delayed_ack_timeout: Optional[DurationValue] = None
    immediate_gap_ack: Optional[bool] = None
    ns2_full_tcp: Optional[bool] = None
    restart_rto_before_sample: Optional[bool] = None
    ns2_qoption: Optional[bool] = None
    ns2_rtt_counter: Optional[bool] = None
    iss: Optional[int] = None
    receive_buffer: Optional[SizeValue] = None
    flow_control: Optional[bool] = None
    nagle: Optional[bool] = None
    send_overhead: Optional[DurationValue] = None
    max_burst: Optional[int] = None
    persist_min: Optional[DurationValue] = None
    persist_max: Optional[DurationValue] = None
    time_wait: Optional[DurationValue] = None
    syn_retries: Optional[int] = None
    max_retransmits: Optional[int] = None


class BulkTable(SpecTable):
    spec = tcp_specs.Bulk
    type: Literal["bulk"]
    bytes: Optional[SizeValue] = None  # absent: unlimited


class TelnetTable(SpecTable):
    spec = tcp_specs.Telnet
    type: Literal["telnet"]
    mean_interval: DurationValue
    packet_size: SizeValue


class RequestResponseTable(SpecTable):
    spec = tcp_specs.RequestResponse
    type: Literal["request_response"]
    request: SizeValue
    response: SizeValue
    count: Optional[int] = None
    think: Optional[DurationValue] = None


TcpAppTable = Annotated[
    Union[BulkTable, TelnetTable, RequestResponseTable],
    Field(discriminator="type"),
    _type_among("TCP application", BulkTable, TelnetTable, RequestResponseTable),
]

# --- scenario ------------------------------------------------------------------------


class SimulationTable(Table):
    seed: Optional[int] = None
    replication: Optional[int] = None
    until: Optional[DurationValue] = None  # absent: run until no events remain
    max_events: Optional[int] = None  # absent: the API's default bound


class ProcessingTable(SpecTable):
    """A node's processor (`ackclock.Processing`)."""

    spec = network_specs.Processing
    service: DurationValue
    distribution: Optional[Literal["constant", "exponential"]] = None
    limit: Optional[int] = None


class RouteWaitTable(Table):
    """Packets without a route wait at the node (`Node.wait_for_routes`)."""

    packets: int
    timeout: DurationValue


class NodeTable(Table):
    name: str
    processing: Optional[ProcessingTable] = None
    route_wait: Optional[RouteWaitTable] = None


class ReverseTable(Table):
    """Overrides for the to->from direction of a duplex link."""

    bandwidth: Optional[BandwidthValue] = None
    delay: Optional[DurationValue] = None
    queue: Optional[QueueTable] = None
    loss: Optional[LossTable] = None
    jitter: Optional[JitterTable] = None
    cost: Optional[int] = None


class LinkTable(Table):
    name: Optional[str] = None  # for routes, dynamics and traces to refer to
    from_: str = Field(alias="from")
    to: str
    duplex: bool = True
    cost: Optional[int] = None  # routing cost of each direction (default 1)
    bandwidth: BandwidthValue
    delay: DurationValue
    queue: Optional[QueueTable] = None
    loss: Optional[LossTable] = None  # for from->to only; [links.reverse] sets to->from
    jitter: Optional[JitterTable] = None  # likewise
    reverse: Optional[ReverseTable] = None


class _AppTable(Table):
    name: Optional[str] = None
    from_: str = Field(alias="from")
    to: str
    packet_size: Optional[PacketSizeValue] = None
    start: Optional[DurationValue] = None
    stop: Optional[DurationValue] = None
    max_packets: Optional[int] = None
    ecn: Optional[bool] = None


class CbrTable(_AppTable):
    type: Literal["cbr"]
    rate: BandwidthValue


class PoissonTable(_AppTable):
    type: Literal["poisson"]
    mean_interval: DurationValue


class OnOffTable(_AppTable):
    type: Literal["on_off"]
    rate: BandwidthValue
    on_mean: DurationValue
    off_mean: DurationValue


class TcpFlowTable(Table):
    """A TCP connection (`Simulator.tcp`): client on `from`, server on `to`."""

    type: Literal["tcp"]
    name: Optional[str] = None
    from_: str = Field(alias="from")
    to: str
    app: Optional[TcpAppTable] = None  # absent: unlimited bulk transfer
    tcp: Optional[TcpTable] = None
    server_tcp: Optional[TcpTable] = None  # absent: the same as tcp
    start: Optional[DurationValue] = None
    server_start: Optional[DurationValue] = None
    read_rate: Optional[RateOrZeroValue] = None
    record: Optional[bool] = None


AppTable = Annotated[
    Union[CbrTable, PoissonTable, OnOffTable, TcpFlowTable],
    Field(discriminator="type"),
    _type_among("app", CbrTable, PoissonTable, OnOffTable, TcpFlowTable),
]


class LanTable(Table):
    """A contention-free LAN segment (`Simulator.lan`)."""

    nodes: list[str]
    bandwidth: BandwidthValue
    delay: DurationValue
    queue_limit: Optional[int] = None


class FreeSpaceTable(SpecTable):
    spec = wireless.FreeSpace
    type: Literal["free_space"]


class TwoRayGroundTable(SpecTable):
    spec = wireless.TwoRayGround
    type: Literal["two_ray_ground"]


class ShadowingTable(SpecTable):
    spec = wireless.Shadowing
    type: Literal["shadowing"]
    path_loss_exponent: Optional[float] = None
    deviation_db: Optional[float] = None
    reference_distance: Optional[float] = None


PropagationTable = Annotated[
    Union[FreeSpaceTable, TwoRayGroundTable, ShadowingTable],
    Field(discriminator="type"),
    _type_among("propagation model", FreeSpaceTable, TwoRayGroundTable, ShadowingTable),
]


class WirelessPhyTable(SpecTable):
    spec = wireless.WirelessPhy
    tx_power: Optional[float] = None
    frequency: Optional[float] = None
    rx_threshold: Optional[float] = None
    cs_threshold: Optional[float] = None
    capture_threshold: Optional[float] = None
    system_loss: Optional[float] = None
    antenna_height: Optional[float] = None


class Mac80211Table(SpecTable):
    spec = wireless.Mac80211
    data_rate: Optional[BandwidthValue] = None
    basic_rate: Optional[BandwidthValue] = None
    rts_threshold: Optional[int] = None
    short_retry_limit: Optional[int] = None
    long_retry_limit: Optional[int] = None
    cw_min: Optional[int] = None
    cw_max: Optional[int] = None


class RadioNodeTable(Table):
    node: str
    position: list[float]  # [x, y, z] in metres


class RadioTable(Table):
    """A radio channel (`Simulator.radio`) and the nodes on it."""

    propagation: Optional[PropagationTable] = None
    phy: Optional[WirelessPhyTable] = None
    mac: Optional[Mac80211Table] = None
    queue_limit: Optional[int] = None
    # ns-2's link layer: ARP, and its delay each way
    arp: Optional[bool] = None
    ll_delay: Optional[DurationValue] = None
    nodes: list[RadioNodeTable]
    # Keep each node's interface queue and waypoints (ackclock run --out
    # writes radio-queues.csv and positions.csv).
    record: Optional[bool] = None


class MoveTable(Table):
    """ns-2's setdest (`Simulator.move`)."""

    node: str
    at: DurationValue
    to: list[float]  # [x, y] in metres
    speed: float


class RoutingTable(Table):
    """How nodes route (`Simulator.routing`): `protocol` for `nodes` (all by
    default); the other keys are DV's (AODV and DSDV take ns-2's defaults)."""

    protocol: Literal["static", "session", "dv", "aodv", "dsdv"]
    nodes: Optional[list[str]] = None
    record: Optional[bool] = None  # keep every route change (--out writes routes.csv)
    advert_interval: Optional[DurationValue] = None
    infinity: Optional[int] = None
    sizes: Optional[Literal["rip", "ns2"]] = None


class RouteTable(Table):
    """A static route (`Simulator.route`): `node` sends `to`'s packets to the
    neighbour `via`, or on the link named `link`."""

    node: str
    to: str
    via: Optional[str] = None
    link: Optional[str] = None


# A link by name, or [a, b]: every link between a and b.
LinkRef = Union[str, list[str]]


class _ChangeTable(Table):
    link: LinkRef
    at: DurationValue


class LinkDownTable(_ChangeTable):
    type: Literal["down"]


class LinkUpTable(_ChangeTable):
    type: Literal["up"]


class BandwidthChangeTable(_ChangeTable):
    type: Literal["bandwidth"]
    bandwidth: BandwidthValue


class FailuresTable(SpecTable):
    """ns-2's rtmodel (`ackclock.LinkFailures`); `type` is its kind."""

    spec = network_specs.LinkFailures
    type: Literal["deterministic", "exponential"]
    link: LinkRef
    up: Optional[DurationValue] = None
    down: Optional[DurationValue] = None
    start: Optional[DurationValue] = None
    finish: Optional[DurationValue] = None

    def to_spec(self) -> Any:
        return self.spec(kind=self.type, **self.given("type", "link"))


DynamicsTable = Annotated[
    Union[LinkDownTable, LinkUpTable, BandwidthChangeTable, FailuresTable],
    Field(discriminator="type"),
    _type_among("link change", LinkDownTable, LinkUpTable, BandwidthChangeTable, FailuresTable),
]


class TraceTable(Table):
    """A trace file: ns-2 text of every link (or of `link`), a nam animation of
    the whole network, or tcpdump text or a pcap of what `node` sends and
    receives, what leaves on `link` or what passes one `interface`; or a pcap
    of the 802.11 frames at the radio NIC of the node `radio`."""

    type: Literal["ns2", "nam", "tcpdump", "pcap"]
    file: str
    node: Optional[str] = None
    link: Optional[LinkRef] = None  # a link name or [from, to]
    interface: Optional[list[str]] = None  # [node, peer]: node's interface to peer
    radio: Optional[str] = None  # pcap only: a node whose radio NIC is captured
    variables: Optional[bool] = None  # ns2 only: TCP variable records (default true)
    snaplen: Optional[int] = None  # pcap only


class ScenarioFile(Table):
    simulation: SimulationTable = Field(default_factory=SimulationTable)
    nodes: list[NodeTable] = []
    links: list[LinkTable] = []
    lans: list[LanTable] = []
    radios: list[RadioTable] = []
    moves: list[MoveTable] = []
    routing: Optional[RoutingTable] = None
    routes: list[RouteTable] = []
    dynamics: list[DynamicsTable] = []
    apps: list[AppTable] = []
    traces: list[TraceTable] = []
