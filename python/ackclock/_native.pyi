"""Type stubs for the Rust extension module `ackclock._native`.

This is the whole surface the Python layer builds on. All times are integer
picoseconds (`*_ps`), bandwidths integer bit/s, sizes integer bytes. Every
configuration dict is checked by Rust; a bad key or value raises ConfigError
whose message names the key and the value.

Trace files: each trace_* method opens its file at once under a temporary name
beside it (a path that cannot be written raises OSError naming it); the file
takes its real name when run() first returns and is flushed whenever run()
returns. A write error (a full disk) raises OSError naming the file and
removes it. Paths that are not regular files (/dev/null, FIFOs) are written
in place.
"""

from typing import Callable, Literal, TypedDict, final

NS2_VARS: list[str]
"""The sender variables ns-2's `tracevar` can follow, in the core's order."""

class UnitError(ValueError):
    """A unit string could not be parsed; the message quotes it."""

class ConfigError(ValueError):
    """A builder argument is invalid; the message names the field and value."""

class SimulationError(RuntimeError):
    """An internal failure inside the core (a bug, never a user mistake)."""

def parse_duration(text: str) -> int:
    """'50ms', '1.5s', '10us', bare number = seconds -> picoseconds (exact)."""

def parse_bandwidth(text: str) -> int:
    """'10Mb', '800Kb', '28.8kb', '1GB' (bytes), bare number = bit/s -> bit/s."""

def parse_size(text: str) -> int:
    """'1500', '1500B', '100MB', '8MiB' -> bytes."""

class CcParamInfo(TypedDict):
    name: str
    kind: Literal["real", "integer", "flag"]  # a flag is 0 or 1
    default: float
    min: float  # inclusive
    max: float
    help: str

class CongestionControlInfo(TypedDict):
    name: str
    summary: str
    params: list[CcParamInfo]
    ns2_agents: list[str]  # the ns-2 agent classes it stands for in Tcl scripts

def congestion_controls() -> list[CongestionControlInfo]:
    """The core's registry of congestion-control algorithms."""

def index_nam(input: str, output: str) -> str:
    """Indexes the nam trace `input` into the viewer's file `output` (written
    whole or not at all); returns its JSON header. A line that cannot be read
    raises ConfigError naming the file, the line number and the value."""

# --- configuration dicts -----------------------------------------------------
# Queue disciplines. `limit` None = unlimited. `unit` says what limit counts.
# `ns2_limit` True = ns-2's convention: the limit counts the packet being
# transmitted (an arrival is dropped when waiting + 1 >= limit); False = the
# limit counts waiting packets only (dropped when waiting >= limit).
class DropTailSpec(TypedDict, total=False):
    type: Literal["droptail"]
    limit: int | None
    unit: Literal["packets", "bytes"]
    ns2_limit: bool

# RED (Floyd & Jacobson 1993) with ns-2's defaults when a key is absent:
# min_th 5, max_th 15 (in `unit`s), max_p 0.1, weight 0.002, gentle True,
# ecn False (mark ECN-capable packets instead of dropping them early),
# mean_packet_size 500 (bytes; for the idle-time decay of the average).
class RedSpec(TypedDict, total=False):
    type: Literal["red"]
    limit: int | None
    unit: Literal["packets", "bytes"]
    ns2_limit: bool
    min_th: float
    max_th: float
    max_p: float
    weight: float
    gentle: bool
    ecn: bool
    mean_packet_size: int
    wait: bool  # early drops 1/p to 2/p packets apart (ns-2's wait_)
    byte_mode: bool  # count bytes; large packets more likely dropped (ns-2's bytes_)
    mark_p: float | None  # with ecn: mark only while p <= mark_p, else drop
    ns2: bool  # ns-2's red.cc details
    ns1_compat: bool  # ns-2's ns1_compat_: forced drops keep the count
    victim: Literal["arrival", "front", "random"]  # with ns2: a forced drop's packet

# DCTCP's step marking (RFC 8257): an ECN-capable arrival that finds `k` or
# more packets waiting is marked CE; `limit` drops as DropTail does.
class StepMarkSpec(TypedDict, total=False):
    type: Literal["step_mark"]
    k: int
    limit: int | None
    unit: Literal["packets", "bytes"]
    ns2_limit: bool

# CoDel (RFC 8289): drops or marks at dequeue once the sojourn time has
# stayed above target_ps for interval_ps; at most `mtu` bytes waiting never
# count as a standing queue.
class CoDelSpec(TypedDict):
    type: Literal["codel"]
    limit: int | None
    unit: Literal["packets", "bytes"]
    target_ps: int
    interval_ps: int
    mtu: int
    ecn: bool

# FQ-CoDel (RFC 8290): `flows` queues by flow number, deficit round robin
# of `quantum` bytes, CoDel on each queue, `limit` packets in all.
class FqCoDelSpec(TypedDict):
    type: Literal["fq_codel"]
    target_ps: int
    interval_ps: int
    mtu: int
    ecn: bool
    quantum: int
    flows: int
    limit: int

# PIE (RFC 8033): random early drop at enqueue with a probability a PI
# controller updates every t_update_ps from the measured queueing delay.
class PieSpec(TypedDict):
    type: Literal["pie"]
    limit: int | None
    unit: Literal["packets", "bytes"]
    target_ps: int
    t_update_ps: int
    alpha: float
    beta: float
    max_burst_ps: int
    ecn: bool
    mark_threshold: float
    mean_packet_size: int

# A buffer holding each packet an exponential time of mean mean_ps (drawn
# again at or above cap_ps) before it may leave: seed 004's reordering.
class DelayBufferSpec(TypedDict, total=False):
    type: Literal["delay_buffer"]
    limit: int | None
    unit: Literal["packets", "bytes"]
    mean_ps: int
    cap_ps: int

# ns-2.35's Queue/DRR: `buckets` queues by a hash of the source node
# (`mask`: low 4 address bits cleared), `quantum` bytes of credit per visit,
# the fattest queue's head dropped while more than `blimit` bytes wait.
class DrrSpec(TypedDict):
    type: Literal["drr"]
    buckets: int
    blimit: int
    quantum: int
    mask: bool

# ns-2.35's Queue/SFQ: `buckets` queues by a hash of source + destination
# node, one packet each in turn, arrivals refused by share of `maxqueue`.
class SfqSpec(TypedDict):
    type: Literal["sfq"]
    maxqueue: int
    buckets: int

# ns-2.35's FQ (FQLink): a DropTail queue of `limit` packets per flow id,
# the head with the smallest finish time sent; `secs_per_byte` defaults to
# the link's rate's.
class FqSpec(TypedDict, total=False):
    type: Literal["fq"]
    limit: int
    secs_per_byte: float

# ns-2.35's TBF between a UDP source and its node: `bucket_bits` tokens at
# most, filled at `rate_bps`, at most `limit` packets waiting (0: a policer).
class TokenBucketSpec(TypedDict):
    rate_bps: float
    bucket_bits: int
    limit: int

QueueSpec = (
    DropTailSpec
    | RedSpec
    | StepMarkSpec
    | CoDelSpec
    | FqCoDelSpec
    | PieSpec
    | DrrSpec
    | SfqSpec
    | FqSpec
    | DelayBufferSpec
)

# Error (loss) models, one per link direction. `position`: "queue" drops the
# packet at the link head before it enters the queue (ns-2's `lossmodel`);
# "wire" (default) lets it use the link and discards it on arrival.
# Any of them with position "queue" may give delay_ps: the packets it picks
# are held that long at the link head, then queued, instead of lost (ns-2's
# ErrorModel with delay_pkt_).
class UniformLossSpec(TypedDict, total=False):
    type: Literal["uniform"]
    p: float  # per-packet loss probability in [0, 1]
    position: Literal["queue", "wire"]
    delay_ps: int

class BitErrorSpec(TypedDict, total=False):
    type: Literal["ber"]
    ber: float  # bit-error rate in [0, 1]; loss prob = 1 - (1-ber)^(8*size)
    position: Literal["queue", "wire"]
    delay_ps: int

class GilbertElliottSpec(TypedDict, total=False):
    type: Literal["gilbert_elliott"]
    p_good_to_bad: float  # per-packet transition probabilities
    p_bad_to_good: float
    loss_good: float  # loss probability in each state (defaults 0 and 1)
    loss_bad: float
    position: Literal["queue", "wire"]
    delay_ps: int

class DropListSpec(TypedDict, total=False):
    type: Literal["list"]
    drops: list[int]  # 1-based indices of the packets (in crossing order) to drop
    position: Literal["queue", "wire"]
    delay_ps: int

class PeriodicLossSpec(TypedDict, total=False):
    type: Literal["periodic"]
    period: int  # packets (or bytes) between losses
    offset: int  # count before the first loss
    burst: int  # losses continue while the count since one is below this
    bytes: bool  # count bytes instead of packets
    inverted: bool  # keep only those packets (ns-2's default_drop_)
    position: Literal["queue", "wire"]
    delay_ps: int

class TwoStateLossSpec(TypedDict, total=False):
    type: Literal["two_state"]
    # ("constant" or "exponential", value, None) or ("uniform", low, high)
    good: tuple[str, float, float | None]
    bad: tuple[str, float, float | None]
    bytes: bool  # lengths in bytes instead of packets
    position: Literal["queue", "wire"]
    delay_ps: int

# TCP data segments by sequence number: [offset from the sender's ISN of the
# first data byte (the first segment is 1, as tcpdump numbers it), which
# transmission of it (1 = the first)]; always at the link head.
class DropSegmentsSpec(TypedDict, total=False):
    type: Literal["segments"]
    drops: list[tuple[int, int]]
    position: Literal["queue", "wire"]
    delay_ps: int

LossSpec = (
    UniformLossSpec
    | BitErrorSpec
    | GilbertElliottSpec
    | DropListSpec
    | PeriodicLossSpec
    | TwoStateLossSpec
    | DropSegmentsSpec
)

# Extra random delay added to the propagation delay of each packet.
# reorder False: a packet never overtakes an earlier one (arrival is pushed
# back to the previous arrival); True: packets may arrive out of order.
class ExponentialJitterSpec(TypedDict, total=False):
    type: Literal["exponential"]
    mean_ps: int
    reorder: bool

class UniformJitterSpec(TypedDict, total=False):
    type: Literal["uniform"]
    low_ps: int
    high_ps: int
    reorder: bool

JitterSpec = ExponentialJitterSpec | UniformJitterSpec

# Traffic patterns of a UDP source.
class CbrSpec(TypedDict):
    type: Literal["cbr"]
    rate_bps: int  # interval = mean packet size * 8 / rate
    jitter: bool  # ns-2's random_: each gap the interval times uniform [0.5, 1.5)

class PoissonSpec(TypedDict):
    type: Literal["poisson"]
    mean_interval_ps: int  # exponential inter-arrival times

class OnOffSpec(TypedDict):
    type: Literal["on_off"]
    rate_bps: int  # sending rate while on
    on_mean_ps: int  # exponential on and off period lengths
    off_mean_ps: int

TrafficSpec = CbrSpec | PoissonSpec | OnOffSpec

# Packet sizes: the IP datagram size on the wire (IPv4 20 + UDP 8 bytes of
# header included), so at least 28 and at most 65535; a drawn size is
# rounded to whole bytes and clamped into that range.
class FixedSizeSpec(TypedDict):
    type: Literal["fixed"]
    bytes: int

class ExponentialSizeSpec(TypedDict):
    type: Literal["exponential"]
    mean_bytes: float

SizeSpec = FixedSizeSpec | ExponentialSizeSpec

# TCP. Every key is optional: a profile supplies the rest.
#   profile "rfc" (default): RFC values: MSS 1460, initial window 4, min RTO 1 s,
#     delayed ACK 200 ms, Nagle, 64 KB receive buffer, NewReno, SACK, timestamps
#     and window scaling offered (each is used only if the peer offers it too).
#   profile "linux": Linux's reno, initial window 10, min RTO 200 ms, ABC, limited
#     transmit, RACK-TLP, PRR, F-RTO and undo, 40 ms delayed ACKs with 16 quick ACKs,
#     6 MiB buffer.
#   profile "ns2": ns-2 Agent/TCP: no options, mss = packetSize_ (default 1000),
#     initial window 2, 10 ms clock ticks, min RTO 200 ms, initial RTO 3 s, an ACK
#     per segment, window cap 20 segments, no flow control, Tahoe, no options,
#     ns-2's window arithmetic.
class TcpSpec(TypedDict, total=False):
    profile: Literal["rfc", "linux", "ns2"]
    sack: bool  # offer SACK (RFC 2018), recover with RFC 6675 (rfc/linux: True)
    rack: bool  # with SACK: RACK-TLP loss detection, RFC 8985 (linux: True)
    ecn: bool  # offer ECN, RFC 3168 (rfc: True; linux, ns2: False)
    ecn_per_packet_echo: bool  # echo CE per packet as DCTCP needs (RFC 8257 3.2)
    prr: bool  # with SACK: proportional rate reduction in recovery, RFC 6937 (linux: True)
    frto: bool  # F-RTO after a timeout, RFC 5682 (linux: True)
    undo: bool  # undo what Eifel timestamps or D-SACK show spurious, RFC 3522/3708 (linux: True)
    quickacks: int  # delayed ACKs: the first N data segments are ACKed at once (linux: 16)
    dsack: bool  # report duplicates with D-SACK (RFC 2883)
    timestamps: bool  # offer RFC 7323 timestamps (RTTM, PAWS)
    timestamp_granularity_ps: int  # timestamp clock tick (default 1 ms)
    window_scale: bool  # offer RFC 7323 window scaling
    cc: str  # a name from congestion_controls()
    cc_params: dict[str, float]  # the algorithm's parameters by name
    mss: int  # payload bytes per segment
    mss_option: bool
    initial_window: int  # segments
    syn_loss_window: int  # segments, after a retransmitted SYN
    handshake: bool  # False: no SYN, both ends start established (ns-2 syn_ false)
    first_fast_retransmit: bool  # False: ns-2's bugfix_ss_ 0 (recover_ starts at packet 0)
    ns2_bare_packet0: bool  # without a SYN, ns-2's packet 0 gets no header bytes
    initial_ssthresh: int | None  # bytes; None = unbounded (absent: the profile's)
    max_window: int | None  # bytes (ns-2's window_); None = no cap (absent: the profile's)
    abc: bool  # RFC 3465 appropriate byte counting
    ns2_arithmetic: bool  # the algorithm's ns-2 module (reno -> ns2-reno) and tick RTT clock
    dupack_threshold: int
    limited_transmit: bool  # RFC 3042
    initial_rto_ps: int
    min_rto_ps: int
    max_rto_ps: int
    min_rto_before_backoff: bool  # RFC 6298; False: min_rto bounds the backed-off RTO
    clock_granularity_ps: int
    clock_phase_ps: int  # ns-2 boot_time_: where the tick clock starts; random if absent
    delayed_ack: bool  # False: an ACK per segment
    delayed_ack_timeout_ps: int
    immediate_gap_ack: bool  # False: a segment that leaves a gap above it is ACKed as in-order data
    ns2_full_tcp: bool  # ns-2's FullTcp: lone ACKs of SYN-ACK and FIN, its delayed-ACK clock
    restart_rto_before_sample: bool  # ns-2 timerfix_ false
    ns2_qoption: bool  # ns-2 QOption_: window cuts after idle or application-limited spells
    ns2_rtt_counter: bool  # ns-2 EnblRTTCtr_: those spells in counted RTT rounds
    receive_buffer: int  # bytes
    flow_control: bool  # respect the peer's window
    nagle: bool
    max_burst: int  # ns-2 maxburst_: segments per event where send_much sends
    send_overhead_ps: int  # ns-2 overhead_: uniform random delay before sending new data
    persist_min_ps: int
    persist_max_ps: int
    time_wait_ps: int
    syn_retries: int
    iss: int  # the initial sequence number (ns-2's iss_); random if absent
    max_retransmits: int

class BulkAppSpec(TypedDict, total=False):
    type: Literal["bulk"]
    bytes: int | None  # None: unlimited (ns-2's FTP)

class TelnetAppSpec(TypedDict):
    type: Literal["telnet"]
    mean_interval_ps: int  # exponential gaps between writes
    packet_size: int  # bytes per write

class RequestResponseAppSpec(TypedDict, total=False):
    type: Literal["request_response"]
    request: int  # bytes
    response: int  # bytes
    count: int  # exchanges (default 1)
    think_ps: int  # client pause between a response and the next request

class ManualAppSpec(TypedDict):
    type: Literal["manual"]  # writes only through Sim.tcp_write

TcpAppSpec = BulkAppSpec | TelnetAppSpec | RequestResponseAppSpec | ManualAppSpec

# --- routing, link changes, processors --------------------------------------------
class StaticRoutingSpec(TypedDict):
    type: Literal["static"]  # shortest paths computed before the run (default)

class SessionRoutingSpec(TypedDict):
    type: Literal["session"]  # shortest paths recomputed at every link change

# ns-2's rtproto DV; absent keys take ns-2's values with RIPv2 message sizes.
class DvRoutingSpec(TypedDict, total=False):
    type: Literal["dv"]
    advert_interval_ps: int  # mean time between periodic updates (2 s)
    infinity: int  # the metric meaning unreachable (32)
    header_bytes: int  # update size = header_bytes + entry_bytes * nodes (32, 20)
    entry_bytes: int

# ns-2's AODV; absent keys take ns-2's constants (docs/aodv.md).
class AodvRoutingSpec(TypedDict, total=False):
    type: Literal["aodv"]
    active_route_timeout_ps: int  # ACTIVE_ROUTE_TIMEOUT (10 s)
    my_route_timeout_ps: int  # MY_ROUTE_TIMEOUT (10 s)
    rev_route_life_ps: int  # REV_ROUTE_LIFE (6 s)
    bcast_id_save_ps: int  # BCAST_ID_SAVE (6 s)
    rreq_retries: int  # RREQ_RETRIES (3)
    max_rreq_timeout_ps: int  # MAX_RREQ_TIMEOUT (10 s)
    ttl_start: int  # TTL_START (5)
    ttl_increment: int  # TTL_INCREMENT (2)
    ttl_threshold: int  # TTL_THRESHOLD (7)
    network_diameter: int  # NETWORK_DIAMETER (30)
    node_traversal_time_ps: int  # NODE_TRAVERSAL_TIME (30 ms)
    purge_interval_ps: int  # the route cache timer (0.5 s)
    broadcast_jitter_ps: int  # the most a broadcast is delayed (10 ms)
    local_repair: bool  # AODV_LOCAL_REPAIR (True)
    queue_len: int  # AODV_RTQ_MAX_LEN (64)
    queue_timeout_ps: int  # AODV_RTQ_TIMEOUT (30 s)

# ns-2's DSDV; absent keys take Agent/DSDV's defaults (docs/dsdv.md).
class DsdvRoutingSpec(TypedDict, total=False):
    type: Literal["dsdv"]
    periodic_update_interval_ps: int  # perup_ (15 s)
    min_update_periods: int  # min_update_periods_ (3)
    wst0_ps: int  # wst0_ (6 s)
    alpha: float  # alpha_ (0.875)
    use_mac: bool  # use_mac_ (False)
    be_random: bool  # be_random_ (True)
    min_triggered_interval_ps: int  # DSDV_MIN_TUP_PERIOD (1 s)
    broadcast_jitter_ps: int  # DSDV_BROADCAST_JITTER (10 ms)
    startup_jitter_ps: int  # DSDV_STARTUP_JITTER (2 s)
    queue_len: int  # MAX_QUEUE_LENGTH (5)

RoutingSpec = (
    StaticRoutingSpec | SessionRoutingSpec | DvRoutingSpec | AodvRoutingSpec | DsdvRoutingSpec
)

class LinkDownSpec(TypedDict):
    type: Literal["down"]

class LinkUpSpec(TypedDict):
    type: Literal["up"]

class BandwidthChangeSpec(TypedDict):
    type: Literal["bandwidth"]
    bandwidth_bps: int

LinkChangeSpec = LinkDownSpec | LinkUpSpec | BandwidthChangeSpec

# ns-2's rtmodel: up for `up_ps`, down for `down_ps` (exactly, or exponential
# with these means), from start_ps (default 0.5 s) to finish_ps (none).
class FailureModelSpec(TypedDict, total=False):
    type: Literal["deterministic", "exponential"]
    up_ps: int  # default 2 s (deterministic), 10 s (exponential)
    down_ps: int  # default 1 s
    start_ps: int
    finish_ps: int | None

# A node's processor: each packet takes service_ps (constant, or exponential
# with that mean); queue_limit packets may wait (None: unlimited).
class ProcessingSpec(TypedDict, total=False):
    service_ps: int
    distribution: Literal["constant", "exponential"]
    queue_limit: int | None

class FreeSpaceSpec(TypedDict):
    type: Literal["free_space"]

class TwoRayGroundSpec(TypedDict):
    type: Literal["two_ray_ground"]

class ShadowingSpec(TypedDict, total=False):
    type: Literal["shadowing"]
    path_loss_exponent: float  # 2.0
    deviation_db: float  # 4.0
    reference_distance: float  # metres, 1.0

PropagationSpec = FreeSpaceSpec | TwoRayGroundSpec | ShadowingSpec

class MacSpec(TypedDict, total=False):
    """A radio's 802.11 DCF MAC (ns-2's Mac/802_11)."""

    data_rate_bps: int
    basic_rate_bps: int
    rts_threshold: int
    short_retry_limit: int
    long_retry_limit: int
    cw_min: int
    cw_max: int

class PhySpec(TypedDict, total=False):
    # ns-2's Phy/WirelessPhy and Antenna/OmniAntenna defaults when absent
    tx_power: float  # watts, 0.28183815
    frequency: float  # Hz, 914e6
    rx_threshold: float  # watts, 3.652e-10
    cs_threshold: float  # watts, 1.559e-11
    capture_threshold: float  # 10.0
    system_loss: float  # 1.0
    antenna_height: float  # metres above the node, 1.5

# A next hop: ("link", channel id, neighbour node) or ("nic", nic id, neighbour node).
NextHop = tuple[Literal["link", "nic"], int, int]

# --- results -------------------------------------------------------------------
class MonitorCounts(TypedDict):
    channel: int
    fid: int
    src: int  # node ids
    dst: int
    arrivals: int
    arrived_bytes: int
    departures: int
    departed_bytes: int
    marks: int  # of the departures, those marked Congestion Experienced
    drops: int
    dropped_bytes: int
    early_drops: int  # of the drops, RED's early (random) ones
    early_dropped_bytes: int
    packets: int  # waiting now
    bytes: int
    packet_seconds: float  # time integrals of packets and bytes waiting
    byte_seconds: float
    delay_sum: float  # seconds waited by the departed packets
    delay_squares: float
    last_event_s: float  # when a packet last arrived, left or was dropped

class LinkStats(TypedDict):
    id: int
    src: int  # node ids
    dst: int
    bandwidth_bps: int
    delay_s: float
    tx_packets: int  # packets that started transmission
    tx_bytes: int
    drops: int  # queue_drops + loss_drops + down_drops
    queue_drops: int  # refused by the queue discipline (full or RED)
    loss_drops: int  # removed by the error model
    down_drops: int  # lost because the link was down
    up: bool  # whether the link is up now
    ecn_marks: int
    utilization: float  # busy time / elapsed time
    active_s: float  # first transmission's start to the last one's end (or now)
    active_utilization: float  # busy time / active_s
    mean_queue_packets: float  # time average of packets waiting (not in service)
    mean_queue_bytes: float

class FlowStats(TypedDict, total=False):
    id: int
    name: str
    src: int
    dst: int
    kind: str  # "cbr" | "poisson" | "on_off" | "tcp_bulk" | "tcp_telnet" | "tcp_request_response"
    # Packets from src to dst at the network layer (for TCP the data
    # direction: segments with retransmissions, SYN and FIN), IP bytes.
    tx_packets: int
    tx_bytes: int
    rx_packets: int
    rx_bytes: int
    lost_packets: int  # dropped on the way (queues, error models, no route)
    loss_rate: float  # lost_packets / tx_packets
    link_drops: list[tuple[int, int]]  # (channel id, drops) in order of first drop
    mean_delay_s: float | None  # None before the first packet arrives
    delay_p50_s: float | None  # percentiles within 1% relative error
    delay_p95_s: float | None
    delay_p99_s: float | None
    max_delay_s: float | None
    mean_jitter_s: float | None  # |delay change| of consecutive deliveries (RFC 3393)
    active_s: float | None  # first packet sent to last delivered
    throughput_bps: float  # rx_bytes over active_s
    goodput_bps: float  # application bytes: UDP payload over active_s; TCP below
    # TCP flows only. goodput_bps is bytes_delivered over start..completion (or now).
    cc: str
    bytes_sent: int  # payload bytes on the wire, retransmissions included
    bytes_delivered: int  # received in order by the server, readable by its application
    retransmits: int
    fast_retransmits: int
    timeouts: int
    timeouts_after_ecn: int  # ns-2 profile: timeouts soon after an ECN cut, ssthresh kept
    loss_probes: int  # tail loss probes sent (RFC 8985)
    ecn_reductions: int  # window reductions for ECN echoes (RFC 3168)
    sack_recoveries: int  # loss recoveries paced by the SACK scoreboard (RFC 6675)
    dsacks: int  # D-SACK blocks received (RFC 2883)
    segments_received: int  # by the client (a one-way sender's ACKs)
    spurious_retransmits: int  # retransmissions a D-SACK showed unnecessary
    undos: int  # window reductions undone as spurious (F-RTO, Eifel, D-SACK)
    rtt_min_s: float | None
    rtt_mean_s: float | None
    rtt_max_s: float | None
    completion_time_s: float | None
    mss: int  # the client's send MSS after negotiation
    cwnd_bytes: int
    mean_cwnd_bytes: float | None  # time average from start to completion (or now)
    ssthresh_bytes: int
    client_state: str  # RFC 9293 state names, e.g. "Established", "Closed"
    server_state: str

class ProcessorStats(TypedDict):
    packets: int  # handled
    drops: int  # refused by the full queue
    utilization: float  # busy time / elapsed time
    mean_wait_s: float | None  # mean time waiting before handling
    max_waiting: int  # the most packets an arrival found waiting
    waiting: int  # packets waiting now

class NodeStats(TypedDict, total=False):
    id: int
    name: str
    routing: str  # "static" | "session" | "dv"
    no_route_drops: int  # dropped for want of a route
    ttl_drops: int  # dropped when their time to live ran out
    waiting: int  # packets waiting for a route now
    processor: ProcessorStats  # present when the node has a processor

class NicStats(TypedDict):
    id: int
    node: int
    medium: int
    tx_packets: int
    tx_bytes: int
    rx_packets: int  # received for its node (or broadcast)
    queue_drops: int  # refused by the full interface queue
    rx_errors: int
    link_failures: int  # packets the MAC gave up on
    queued: int  # in the interface queue now
    utilization: float

class Results(TypedDict):
    sim_time_s: float
    events: int
    seed: int
    replication: int
    links: list[LinkStats]
    flows: list[FlowStats]
    nodes: list[NodeStats]
    nics: list[NicStats]

RunOutcome = Literal["until", "idle", "stopped", "callback", "notice"]

@final
class Mrg32k3a:
    """ns-2's default random-number generator (L'Ecuyer's MRG32k3a): a state
    of six integers, uniform draws in (0, 1), and the start of the next of
    its streams (2**127 draws ahead)."""

    def __new__(cls, seed: list[int] | tuple[int, int, int, int, int, int]) -> Mrg32k3a: ...
    def next_u01(self) -> float: ...
    @property
    def state(self) -> list[int]: ...
    def next_stream(self) -> Mrg32k3a: ...
    def next_substream(self) -> Mrg32k3a: ...

@final
class Sim:
    """One simulation. Build nodes, channels and flows, then run."""

    def __new__(cls, seed: int = 1, replication: int = 0) -> Sim: ...
    @property
    def now_ps(self) -> int: ...
    @property
    def now_s(self) -> float:
        """The time in seconds: under ns-2's order, the double ns-2's clock holds."""
    @property
    def events(self) -> int:
        """Events processed so far."""
    def add_node(self, name: str) -> int:
        """Returns the node id (0, 1, 2, ... in creation order)."""
    def node_name(self, node: int) -> str: ...
    def add_channel(
        self,
        src: int,
        dst: int,
        bandwidth_bps: int,
        delay_ps: int,
        queue: QueueSpec,
        loss: LossSpec | None = None,
        jitter: JitterSpec | None = None,
    ) -> int:
        """A simplex link src->dst; returns the channel id (0, 1, ...).
        A duplex link is two channels; two nodes may have several. Raises
        ConfigError for an unknown node, src == dst or a bad spec."""
    def set_cost(self, channel: int, cost: int) -> None:
        """The channel's routing cost (ns-2's `$ns cost`; default 1, at least 1)."""
    def set_router(self, node: int, router: RoutingSpec) -> None:
        """How the node makes its routes (default static)."""
    def add_route(self, node: int, dst: int, channel: int) -> None:
        """A static route: node sends dst's packets on channel (which leaves node)."""
    def set_route_wait(self, node: int, capacity: int, timeout_ps: int) -> None:
        """Packets without a route wait at the node (at most capacity, each for
        at most timeout_ps) instead of being dropped."""
    def record_routes(self) -> None:
        """Starts recording every route change."""
    def route_changes(self) -> list[tuple[float, int, int, NextHop | None]]:
        """(time_s, node, dst, new next hop or None) since record_routes()."""
    def routes(self, node: int) -> list[NextHop | None]:
        """The node's next hop towards each node id, now."""
    def change_links(self, channels: list[int], change: LinkChangeSpec) -> None:
        """Takes channels down, up or to a new rate now."""
    def schedule_link_change(self, at_ps: int, channels: list[int], change: LinkChangeSpec) -> None:
        """The same at a time (not in the past)."""
    def add_failure_model(self, channels: list[int], model: FailureModelSpec) -> None:
        """The channels fail and recover over and over (ns-2's rtmodel)."""
    def set_processor(self, node: int, processing: ProcessingSpec | None = None) -> None:
        """Gives the node a processor (None removes it)."""
    def add_lan(
        self,
        nodes: list[int],
        bandwidth_bps: int,
        delay_ps: int,
        queue_limit: int,
        ll_delay_ps: int,
        mac: str,
    ) -> list[int]:
        """A contention-free LAN joining the nodes; returns their NIC ids."""
    def add_radio(
        self,
        propagation: PropagationSpec,
        phy: PhySpec,
        mac: MacSpec,
        queue_limit: int,
        ll_delay_ps: int,
        arp: bool,
    ) -> int:
        """A radio channel whose NICs have ns-2's link layer (`ll_delay_ps`
        each way, ARP if `arp`); returns its medium id."""
    def attach_radio(self, medium: int, node: int, x: float, y: float, z: float) -> int:
        """Gives a node a NIC on a radio channel at (x, y, z); returns the NIC."""
    def schedule_move(self, node: int, at_ps: int, x: float, y: float, speed: float) -> None:
        """ns-2's setdest at `at_ps`."""
    def position(self, node: int) -> tuple[float, float, float]: ...
    def position_series(
        self, node: int
    ) -> tuple[list[float], list[float], list[float], list[float]]:
        """A radio node's waypoints: (times_s, xs, ys, zs)."""
    def node_stats(self, node: int) -> NodeStats: ...
    def nic_stats(self, nic: int) -> NicStats: ...
    def record_nic_queue(self, nic: int) -> None:
        """Starts recording a NIC's interface queue at every change."""
    def nic_queue_series(self, nic: int) -> tuple[list[float], list[int], list[int]]:
        """(times_s, waiting packets, waiting bytes) of a NIC's interface queue
        after each instant that changed it; empty if never asked."""
    def set_loss(self, channel: int, loss: LossSpec | None = None) -> None: ...
    def queue_now(self, channel: int) -> tuple[int, int, float | None]:
        """(packets, bytes) waiting in a channel's queue now, and RED's average
        queue (None for other queues)."""
    def add_loss(
        self,
        channel: int,
        loss: LossSpec,
        flows: list[int] | None = None,
        all_but: bool = False,
    ) -> int:
        """Adds a loss model to a channel for the listed flows (every flow when
        None, every other one with `all_but`); packets meet a channel's models in
        the order added. Returns the model's index on the channel."""
    def add_loss_flow(self, channel: int, index: int, flow: int) -> None:
        """Names one more flow in the filter of loss model `index`."""
    def set_jitter(self, channel: int, jitter: JitterSpec | None = None) -> None: ...
    def add_udp_flow(
        self,
        name: str,
        src: int,
        dst: int,
        traffic: TrafficSpec,
        size: SizeSpec,
        start_ps: int = 0,
        stop_ps: int | None = None,
        max_packets: int | None = None,
        ecn: bool = False,
        label: tuple[int, int, int] | None = None,  # (src port, dst port, trace flow id)
    ) -> int:
        """A UDP source on `src` sending to a counting sink on `dst`; returns the
        flow id (0, 1, ...). Whether dst is reachable is checked by run(), which
        raises ConfigError naming the flow and both nodes."""
    def add_tcp_flow(
        self,
        name: str,
        src: int,
        dst: int,
        tcp: TcpSpec,
        app: TcpAppSpec,
        start_ps: int = 0,
        server_start_ps: int = 0,
        read_rate_bps: int | None = None,
        record_series: bool = False,
        server_tcp: TcpSpec | None = None,
        label: tuple[int, int, int] | None = None,  # (src port, dst port, trace flow id)
    ) -> int:
        """A TCP connection: client on src, server on dst (listening from
        server_start_ps; before that its port answers with RST). The server
        application reads at read_rate_bps (None: at once, 0: never) and closes
        when the client's FIN arrives. server_tcp defaults to tcp."""
    def record_queue(self, channel: int) -> None:
        """Starts recording the channel's waiting queue at every change."""
    def queue_series(self, channel: int) -> tuple[list[float], list[int], list[int]]:
        """(times_s, waiting packets, waiting bytes) at every change since
        record_queue(), up to now; empty if never asked."""
    def set_duplication(self, channel: int, p: float) -> None:
        """The far end receives each packet twice with probability p."""
    def tcp_series(self, flow: int) -> dict[str, tuple[list[float], list[float]]]:
        """{name: (times_s, values)} recorded on change for a flow added with
        record_series=True: cwnd, ssthresh (bytes), srtt, rto (s),
        bytes_in_flight, rwnd (bytes), loss_events (count)."""
    def shape_flow(self, flow: int, shaper: TokenBucketSpec) -> None:
        """Puts a token bucket between a UDP flow's source and its node;
        before the flow's first packet."""
    def retune_flow(
        self, flow: int, traffic: TrafficSpec, size: SizeSpec, max_packets: int | None = None
    ) -> None:
        """A UDP traffic source sends with these parameters from now on; the
        departure already scheduled keeps its time."""
    def set_telnet_interval(self, flow: int, mean_interval_ps: int) -> None:
        """A telnet application's mean gap between writes, from its next
        write on."""
    def stop_flow(self, flow: int) -> None:
        """Stops a flow's sender now: a UDP source sends no more; a TCP
        application writes no more, but what it wrote is still delivered."""
    def tcp_sequence(self, flow: int, server: bool) -> tuple[int, int]:
        """(highest byte acknowledged, highest byte sent) of a TCP flow's
        client (or `server`), counted from its initial sequence number."""
    def tcp_state(self, flow: int, server: bool) -> str:
        """The connection state of a TCP flow's client (or `server`), RFC
        9293's name in lower case ("established", "close-wait", ...)."""
    def detach(self, flow: int, sink: bool) -> None:
        """Takes the source (or, with `sink`, the sink) of a flow off its node:
        it sends and receives nothing more."""
    def tcp_write(self, flow: int, bytes: int | None = None, server: bool = False) -> None:
        """The client (or with `server`, the server) of a TCP flow writes
        `bytes` more (None: without end)."""
    def add_echo_flow(
        self, name: str, src: int, dst: int, size: int, label: tuple[int, int, int]
    ) -> int:
        """An echo flow (ns-2's Agent/Ping pair) of `size`-byte packets,
        `label` (src port, dst port, trace flow id); returns the flow id."""
    def ping(self, flow: int) -> None:
        """Sends an echo request now; when its reply reaches the source, run()
        returns ("notice", None)."""
    def add_message_flow(self, name: str, src: int, dst: int, label: tuple[int, int, int]) -> int:
        """A message flow (ns-2's `$udp send`): packets sent on demand from
        `src` to `dst`; returns the flow id."""
    def post_message(self, flow: int, size: int) -> int:
        """Sends a `size`-byte packet on a message flow now and returns its
        sequence number; when it reaches the sink, run() returns
        ("notice", None)."""
    def watch_received(self, flow: int, server: bool, bytes: int) -> None:
        """run() returns ("notice", None) once the client (or `server`) of a TCP
        flow has received `bytes` bytes in order; replaces that end's watch."""
    def take_notice(self) -> tuple[int, bool, int] | None:
        """The notice run() last returned for, once: (flow, at the server end,
        value): an echo reply's request send time (ps), a message's sequence
        number, or the bytes the TCP end has received."""
    def tcp_close(self, flow: int, server: bool) -> None:
        """The client (or `server`) of a TCP flow closes its side (FIN after
        its data)."""
    def trace_tcp_events(self, flow: int, fast_retransmit: str) -> None:
        """ns-2's event-trace lines (E) of a TCP sender, into the ns-2 traces opened
        with events: TIMEOUT, the fast retransmit as its agent names it (FAST_RETX,
        RENO_FAST_RETX, NEWRENO_FAST_RETX or FAST_RECOVERY), SLOW_START."""
    def ns2_vars(self, flow: int) -> dict[str, float | int]:
        """A TCP sender's variables now, in ns-2's units: cwnd_ (packets, a
        float), ssthresh_, ack_, maxseq_ (packets), rtt_ (ticks), srtt_ (ticks/8)."""
    def use_ns2_order(self) -> None:
        """Orders events at one instant as ns-2 does (before any link or flow)."""
    def set_ns2_delay(self, channel: int, delay_s: float) -> None:
        """Under ns-2's order: the double ns-2 has for the channel's delay."""
    ns2_rng: Mrg32k3a | None
    """ns-2's default generator, shared by the TCP flows for their send delays
    (overhead_) in event order; None (the default) gives each flow its own
    stream. Reading returns a copy of its state as far as the run has drawn."""
    routing_rng: Mrg32k3a | None
    """ns-2's routing generator (rtglibRNG), shared by the DV nodes started
    afterwards for their update times in event order; None gives each node
    its own stream. Reading returns a copy of its state."""
    def schedule_callback(self, at_ps: int) -> int:
        """Schedules a wake-up; run() returns ("callback", id) when it is due."""
    def cancel_callback(self, callback_id: int) -> bool: ...
    def run(
        self, until_ps: int | None = None, on_pause: Callable[[], object] | None = None
    ) -> tuple[RunOutcome, int | None]:
        """Processes events up to and including `until_ps` (or until none remain).
        Returns ("callback", id) when a scheduled callback is due (call it, then
        call run() again with the same limit), ("notice", None) right after a
        watched event (see take_notice), ("stopped", None) after stop(),
        ("until", None) when the limit was reached (the clock is then exactly
        until_ps), ("idle", None) when no events remain.

        Every few thousand events the run pauses between two events: Python's
        signal handlers run, then `on_pause()`. An exception from either ends
        the run there (traces written up to now); run() can be called again."""
    def trace_ns2(
        self,
        path: str,
        channels: list[int] | None = None,
        variables: bool = True,
        traced: list[tuple[int, int, str]] | None = None,
        append: bool = False,
        radio: tuple[bool, bool, bool, bool] | None = None,
        traced_initial: bool = True,
        events: bool = False,
        tcp_header: bool = False,
        lans: list[tuple[int, int]] = ...,
    ) -> int:
        """Writes ns-2 trace lines (+ - r d) for every channel, or only the given
        ones, and (h + - d r) for the NICs of the LANs `lans` lists as (medium,
        node id naming it) (with `tcp_header`, ns-2's show_tcphdr_: a FullTcp packet's ACK
        number, flags, header length and SACK length at the end of its line);
        with `radio` (newtrace, agent, router, mac), radio nodes' records in
        ns-2's wireless layouts; and (with variables) ns-2 variable records
        of every TCP sender:
        cwnd_ ssthresh_ ack_ maxseq_ (packets), rtt_ (ticks), srtt_ (ticks/8);
        `traced` (node, port, variable) triples instead select variables of the
        senders at those addresses, like ns-2's tracevar. Each flow's initial
        values come first, with peer `-1 -1` (the `traced` ones' only with
        `traced_initial`).
        The file is created now (under a temporary name, or with `append`
        opened to add at its end; OSError naming it if it cannot be); records
        are written in time order as the run proceeds and flushed when run()
        returns. Returns an id for close_trace."""
    def trace_nam(
        self,
        path: str,
        preamble: str,
        append: bool = False,
        lans: list[tuple[int, int]] = ...,
    ) -> int:
        """Writes ns-2 nam packet events (+ - h r d, as namtrace-all does) for every
        channel and the LANs `lans` (as trace_ns2), after `preamble`: the header
        lines (V A c n l X L q), written once before the first event (see
        ackclock.nam.preamble). The file is opened now; `append` and the id as
        trace_ns2."""
    def trace_red(
        self, path: str, channel: int, queue: bool, average: bool, append: bool = False
    ) -> int:
        """ns-2's trace of a RED queue's variables (`$redq trace curq_`, `trace
        ave_`): `Q TIME CURQ` (queue) and `a TIME AVE` (average) lines when they
        change at an arrival. `append` and the id as trace_ns2."""
    def trace_link_changes(self, path: str, links: list[tuple[int, bool]], append: bool) -> int:
        """Only links going down and up (ns-2's `$link trace-dynamics`): for each
        (channel, nam) in order, that channel's changes as ns-2's trace writes
        them or, with nam, as its nam trace does. `append` and the id as
        trace_ns2."""
    def add_monitor(self, channels: list[int] | None = None) -> int:
        """A queue/flow monitor of the given channels (all when None); its id."""
    def monitor_counts(self, monitor: int) -> list[MonitorCounts]:
        """The monitor's counts now, one row per (channel, fid, src, dst)."""
    def close_trace(self, trace: int) -> None:
        """Writes what is due to one trace and closes its file; the run goes on."""
    def flush_traces(self) -> None:
        """Writes the records due so far and flushes every trace file."""
    def trace_view(self, path: str, preamble: str) -> None:
        """Writes the viewer's index (`ackclock view`) of every channel's packets and
        the TCP senders' cwnd_ and ssthresh_, with the topology of the nam header
        lines in `preamble`. Created now under a temporary name (ConfigError if it
        cannot be), complete under `path` once the traces are closed."""
    def trace_tcpdump(
        self,
        path: str,
        channels: list[int] | None = None,
        node: int | None = None,
        interface: tuple[int, int | None] | None = None,
    ) -> None:
        """tcpdump-style text of packets starting transmission on `channels`, or
        sent and received at `node`, or at one interface: starting transmission
        on channel interface[0] or arriving from channel interface[1] (give
        exactly one). Node n is 10.0.0.(n+1)."""
    def trace_pcap(
        self,
        path: str,
        channels: list[int] | None = None,
        node: int | None = None,
        snaplen: int = 65535,
        interface: tuple[int, int | None] | None = None,
    ) -> None:
        """A pcap file (nanosecond timestamps, raw IPv4) with exact header bytes and
        valid checksums; payload bytes are zeros, cut at snaplen."""
    def trace_pcap_nic(self, path: str, nic: int, snaplen: int = 65535) -> None:
        """A pcap file of the 802.11 frames (IEEE802_11) a radio NIC sends and
        hears, each at its first bit there."""
    def close_traces(self) -> None:
        """Writes what is due, flushes and closes every trace file. Records of
        transmissions scheduled after now are dropped."""
    def discard_traces(self) -> None:
        """Closes every trace file without writing more; files that no run()
        has completed yet (still under their temporary names) are removed."""
    def stop(self) -> None:
        """Ends the current run() at the next event boundary."""
    def link_stats(self, channel: int) -> LinkStats: ...
    def flow_stats(self, flow: int) -> FlowStats: ...
    def occupancy_distribution(self, channel: int) -> list[float]:
        """Fraction of elapsed time with n packets in the system (waiting plus
        in service) on this channel, for n = 0, 1, 2, ...; empty at time zero."""
    def results(self) -> Results: ...
