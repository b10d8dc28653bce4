"""The objects an ns-2 script creates (the simulator, nodes, agents,
applications, error models) and how they become an ackclock simulation.

The script describes everything first; the first `$ns run` builds the
network (links, queues, error models, traces) with ackclock's Python API.
Connections are made when their application starts, as ns-2's agents send
nothing before. The TCP is ackclock's one TCP with the ns-2 profile
(docs/tcl.md lists what maps to what).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ackclock import _native, nam, specs, units
from ackclock.handles import Flow, Node, TcpFlow
from ackclock.simulator import Simulator
from ackclock.specs import LossPosition
from ackclock.tcl.classes import ClassVariables, exists, is_a, names
from ackclock.tcl.errors import TclScriptError
from ackclock.tcp_specs import ALGORITHMS, Bulk, TcpParams, Telnet

# The sender variables `tracevar` can follow (ackclock-sim's NS2_VARS).
TRACEABLE = ("cwnd_", "ssthresh_", "ack_", "maxseq_", "rtt_", "srtt_")
TCP_HEADER_BYTES = 40
# The algorithm each ns-2 agent class runs, from the core's registry.
CONGESTION_CONTROL = {
    agent: name for name, info in ALGORITHMS.items() for agent in info["ns2_agents"]
}
# ns-2's TCP-Linux (Agent/TCP/Linux) runs Linux's congestion-control modules:
# `select_ca` takes the registry's algorithms, without ns-2 arithmetic.
LINUX_CA = tuple(name for name in ALGORITHMS if not name.startswith("ns2-"))
# Agent/TCP/Vegas's v_ variables, the ns2-vegas module's parameters.
VEGAS_PARAMS = {"v_alpha_": "alpha", "v_beta_": "beta", "v_gamma_": "gamma"}
# Agent/TCP variables whose ns-2 meaning ackclock does not model, with the
# only value it accepts.
FIXED_TCP_VARIABLES = {"maxburst_": "0", "timestamps_": "0", "syn_": "1"}


T = TypeVar("T", bound="TclObject")


def ns2_time(text: str) -> units.Duration:
    """A time from the script as ns-2 reads it: a plain number is a double (ns-2
    computes times in doubles: [expr 0.1 + 0.2] is 0.30000000000000004, which a
    unit string would have to be exactly), anything else a unit string."""
    try:
        return float(text)
    except ValueError:
        return text


def tcl_number(x: float) -> str:
    """A number as Tcl prints a double (10.0, 0.5)."""
    return repr(float(x))


class TclObject:
    """An instance of an ns-2 class: its variables and its commands. A
    subclass's `cmd_<name>` methods are the commands (`-` becomes `_`)."""

    def __init__(self, world: World, cls: str, name: str) -> None:
        self.world = world
        self.cls = cls
        self.name = name
        self.vars: dict[str, str] = {}

    def command(self, method: str, args: tuple[str, ...]) -> Any:
        if method == "set":
            return self.cmd_set(*args)
        handler = getattr(self, "cmd_" + method.replace("-", "_"), None)
        if handler is None:
            supported = sorted(m[4:].replace("_", "-") for m in dir(self) if m.startswith("cmd_"))
            raise TclScriptError(
                f"{self.cls} has no command {method!r} (supported: {', '.join(supported)})"
            )
        try:
            return handler(*args)
        except TypeError as error:
            raise TclScriptError(f"{self.cls} {method}: wrong arguments {list(args)}") from error

    def cmd_set(self, var: str, *value: str) -> str:
        if var == "class_":
            var = "fid_"  # one variable in ns-2
        if len(value) > 1:
            raise TclScriptError(f"{self.cls} set {var}: give one value, got {list(value)}")
        if value:
            self.assign(var, value[0])
            return value[0]
        return self.read(var)

    def cmd_info(self, what: str) -> str:
        if what != "class":
            raise TclScriptError(f"{self.cls} info: only 'info class' is supported")
        return self.cls

    def assign(self, var: str, value: str) -> None:
        self.vars[var] = value

    def read(self, var: str) -> str:
        live = self.live(var)
        if live is not None:
            return live
        if var in self.vars:
            return self.vars[var]
        return self.world.class_vars.require(self.cls, var)

    def live(self, var: str) -> str | None:
        """A variable the simulation changes, once it does."""
        return None

    def number(self, var: str) -> float:
        value = self.read(var)
        try:
            return float(value)
        except ValueError:
            raise TclScriptError(f"{self.cls} {var} = {value!r} is not a number") from None

    def integer(self, var: str) -> int:
        value = self.number(var)
        if not value.is_integer():
            raise TclScriptError(f"{self.cls} {var} = {value!r} is not a whole number")
        return int(value)


class NodeObject(TclObject):
    def __init__(self, world: World, cls: str, name: str, node_id: int) -> None:
        super().__init__(world, cls, name)
        self.id = node_id
        self.next_port = 0
        self.handle: Node | None = None

    def cmd_id(self) -> int:
        return self.id

    def cmd_attach(self, agent: str, *port: str) -> None:
        self.world.attach(self, self.world.agent(agent))

    # Appearance in nam: accepted, not drawn.
    def cmd_color(self, *args: str) -> None: ...
    def cmd_shape(self, *args: str) -> None: ...
    def cmd_label(self, *args: str) -> None: ...


class Agent(TclObject):
    def __init__(self, world: World, cls: str, name: str) -> None:
        super().__init__(world, cls, name)
        self.node: NodeObject | None = None
        self.port = 0
        self.peer: Agent | None = None
        self.flows: list[Flow] = []
        self.trace_channel: str | None = None
        self.traced: list[str] = []

    def address(self) -> tuple[NodeObject, int]:
        if self.node is None:
            raise TclScriptError(f"{self.name} ({self.cls}) is not attached to a node")
        return self.node, self.port

    def cmd_attach(self, channel: str) -> None:
        self.trace_channel = channel

    def cmd_tracevar(self, var: str) -> None:
        if var not in TRACEABLE:
            raise TclScriptError(f"tracevar {var}: ackclock traces {', '.join(TRACEABLE)}")
        self.traced.append(var)

    def cmd_attach_app(self, kind: str) -> str:
        app = self.world.new(f"Application/{kind}")
        app.command("attach-agent", (self.name,))
        return app.name

    def cmd_reset(self) -> None: ...


class TcpAgent(Agent):
    def __init__(self, world: World, cls: str, name: str) -> None:
        super().__init__(world, cls, name)
        self.linux_ca = "reno"  # Agent/TCP/Linux's select_ca
        self.boot_time = 0.0
        self.cmd_reset()

    def cmd_reset(self) -> None:
        """ns-2's reset draws the agent's clock phase, boot_time_, from the
        default generator (at creation, and for every agent at `$ns run`)."""
        assert self.world.default_rng is not None
        self.boot_time = self.number("tcpTick_") * self.world.default_rng.draw()

    def cmd_select_ca(self, name: str) -> None:
        if not is_a(self.cls, "Agent/TCP/Linux"):
            raise TclScriptError(f"{self.cls} has no command 'select_ca' (Agent/TCP/Linux has)")
        if name not in LINUX_CA:
            raise TclScriptError(f"select_ca {name}: use one of {', '.join(LINUX_CA)}")
        self.linux_ca = name

    def flow(self) -> TcpFlow | None:
        flow = self.flows[-1] if self.flows else None
        return flow if isinstance(flow, TcpFlow) else None

    def live(self, var: str) -> str | None:
        flow = self.flow()
        if flow is None:
            return None
        values = flow.ns2_vars()
        if var in values:
            return tcl_number(values[var]) if var == "cwnd_" else str(values[var])
        stats: Any = flow.stats()
        counters = {
            "ndatapack_": math.ceil(stats["bytes_sent"] / flow.mss),
            "ndatabytes_": stats["bytes_sent"],
            "nrexmitpack_": stats["retransmits"],
            "nrexmit_": stats["timeouts"],
            "ncwndcuts_": stats["fast_retransmits"] + stats["timeouts"],
            "t_seqno_": int(values["maxseq_"]) + 1,
        }
        return str(counters[var]) if var in counters else None

    def params(self) -> TcpParams:
        for var, accepted in FIXED_TCP_VARIABLES.items():
            if float(self.read(var)) != float(accepted):
                raise TclScriptError(
                    f"{self.cls} {var} {self.read(var)} is not supported (only {accepted})"
                )
        mss = self.integer("packetSize_")
        window = self.integer("window_")
        linux = is_a(self.cls, "Agent/TCP/Linux")
        vegas = is_a(self.cls, "Agent/TCP/Vegas")
        if vegas:
            # ns-2's Vegas packets are packetSize_ bytes, headers included.
            mss -= TCP_HEADER_BYTES
        cc_params = {p: self.number(var) for var, p in VEGAS_PARAMS.items()} if vegas else None
        return TcpParams(
            profile="ns2",
            cc=self.linux_ca if linux else CONGESTION_CONTROL[self.cls],
            cc_params=cc_params,
            ns2_arithmetic=False if linux else None,
            sack=is_a(self.cls, "Agent/TCP/Sack1") or linux,
            mss=mss,
            max_window=window * mss,
            initial_ssthresh=window * mss,
            initial_window=self.integer("windowInit_"),
            dupack_threshold=self.integer("numdupacks_"),
            # ns-2's Vegas sends nothing on the first duplicate ACKs.
            limited_transmit=self.number("singledup_") != 0 and not vegas,
            initial_rto=self.number("rtxcur_init_"),
            min_rto=self.number("minrto_"),
            max_rto=self.number("maxrto_"),
            clock_granularity=self.number("tcpTick_"),
            # a random double: to the clock's picosecond
            clock_phase=f"{round(self.boot_time * units.PS_PER_S)}ps",
            send_overhead=self.number("overhead_"),
        )


class TcpSink(Agent):
    def live(self, var: str) -> str | None:
        flows = [f for f in self.world.started_flows(self) if isinstance(f, TcpFlow)]
        if var != "bytes_" or not flows:
            return None
        # ns-2 counts every in-order packet's size, headers included, and the SYN.
        total = 0
        for flow in flows:
            payload = flow.stats()["bytes_delivered"]
            packets = math.ceil(payload / flow.mss)
            total += payload + TCP_HEADER_BYTES * (packets + 1)
        return str(total)

    def params(self, mss: int) -> TcpParams:
        """The sink's parameters; `mss` is its agent's packetSize_, the
        full-sized segment a delayed ACK counts."""
        delayed = self.cls.endswith("/DelAck")
        return TcpParams(
            profile="ns2",
            mss=mss,
            sack=is_a(self.cls, "Agent/TCPSink/Sack1"),
            delayed_ack=delayed,
            delayed_ack_timeout=self.number("interval_") if delayed else None,
        )


class UdpAgent(Agent):
    pass


class UdpSink(Agent):
    """Agent/Null and Agent/LossMonitor."""

    def live(self, var: str) -> str | None:
        flows = self.world.started_flows(self)
        if var not in ("npkts_", "bytes_") or not flows:
            return None
        key = "rx_packets" if var == "npkts_" else "rx_bytes"
        return str(sum(flow.stats()[key] for flow in flows))  # type: ignore[literal-required]


class Application(TclObject):
    def __init__(self, world: World, cls: str, name: str) -> None:
        super().__init__(world, cls, name)
        self.agent: Agent | None = None
        self.flow: Flow | None = None

    def cmd_attach_agent(self, agent: str) -> None:
        self.agent = self.world.agent(agent)

    def cmd_start(self) -> None:
        self.begin(None)

    def cmd_stop(self) -> None:
        if self.flow is not None:
            self.flow.stop()

    def begin(self, packets: int | None) -> None:
        if self.agent is None:
            raise TclScriptError(f"{self.name} ({self.cls}) has no agent: use attach-agent")
        if self.flow is not None:
            raise TclScriptError(f"{self.name} ({self.cls}) was already started once")
        self.flow = self.world.start(self, self.agent, packets)


class Ftp(Application):
    def cmd_produce(self, packets: str) -> None:
        self.begin(int(packets))

    def cmd_send(self, nbytes: str) -> None:
        mss = self.agent.integer("packetSize_") if self.agent else 1
        self.begin(math.ceil(int(nbytes) / mss))


class Cbr(Application):
    def assign(self, var: str, value: str) -> None:
        # ns-2's CBR turns interval_ into rate_ with the current packet size.
        if var == "interval_":
            interval = units.duration_ps(ns2_time(value), "interval_") / units.PS_PER_S
            var, value = "rate_", str(round(self.number("packetSize_") * 8 / interval))
        super().assign(var, value)


class ErrorModel(TclObject):
    def __init__(self, world: World, cls: str, name: str) -> None:
        super().__init__(world, cls, name)
        self.unit = "pkt"
        self.drops: list[int] = []

    def cmd_unit(self, unit: str) -> None:
        if unit not in ("pkt", "packet", "bit"):
            raise TclScriptError(f"ErrorModel unit {unit!r}: use pkt or bit")
        self.unit = "bit" if unit == "bit" else "pkt"

    def cmd_droplist(self, drops: str) -> None:
        self.drops = [int(d) for d in self.world.split_list(drops)]

    # Where dropped packets go and which generator decides: ackclock drops
    # them and draws from the link's own stream.
    def cmd_drop_target(self, *args: str) -> None: ...
    def cmd_ranvar(self, *args: str) -> None: ...

    def spec(self, position: LossPosition) -> specs.LossModel:
        if is_a(self.cls, "ErrorModel/List"):
            # ns-2 counts packets from 0; DropList from 1.
            return specs.DropList(drops=[d + 1 for d in self.drops], position=position)
        rate = self.number("rate_")
        if self.unit == "bit":
            return specs.BitErrors(ber=rate, position=position)
        return specs.UniformLoss(p=rate, position=position)


# ns-2 refuses seeds from 2**31 - 1 on.
MAX_SEED = 2**31 - 1


class RngObject(TclObject):
    """An ns-2 RNG: one stream of ns-2's generator (MRG32k3a), the package's
    next stream when created. The default one (`$defaultRNG`) is what ns-2's
    agents draw from; from `$ns run` on it lives in the simulation, which
    draws the TCP send delays (`overhead_`) from it in event order."""

    def __init__(self, world: World, cls: str, name: str) -> None:
        super().__init__(world, cls, name)
        self.generator = world.new_stream()

    def draw(self) -> float:
        """The next uniform number in (0, 1)."""
        sim = self.world.sim
        if self is self.world.default_rng and sim is not None:
            shared = sim.ns2_rng
            assert shared is not None
            u = shared.next_u01()
            sim.ns2_rng = shared
            return u
        return self.generator.next_u01()

    def cmd_all_seeds(self) -> str:
        sim = self.world.sim
        shared = sim.ns2_rng if sim is not None and self is self.world.default_rng else None
        return " ".join(str(s) for s in (shared or self.generator).state)

    def next_random(self) -> int:
        """ns-2's integer draw, in [0, 2**31)."""
        return int(2147483648.0 * self.draw())

    def cmd_next_random(self) -> str:
        return str(self.next_random())

    def cmd_seed(self, *args: str) -> str:
        """ns-2 seeds with N by making (N, ..., N) the package's seed: this
        generator starts there and the next `new RNG` one stream later."""
        if not args:
            return str(self.generator.state[0])
        seed = self.world.checked_seed(args[-1])
        if self is self.world.default_rng:
            self.world.reseed(seed)
        self.generator = self.world.seed_streams(seed or self.world.seed)
        return ""

    # The RNG's own Tcl procedures in ns-2 (tcl/lib/ns-random.tcl).
    def cmd_uniform(self, a: str, b: str) -> str:
        low = float(a)
        return tcl_number(low + (float(b) - low) * (self.next_random() * 1.0 / MAX_SEED))

    def cmd_integer(self, k: str) -> str:
        return str(self.next_random() % abs(int(k)))

    def cmd_exponential(self, mu: str = "1.0") -> str:
        return tcl_number(-float(mu) * math.log((self.next_random() + 1.0) / (MAX_SEED + 1.0)))


class Passive(TclObject):
    """Random variables: accepted; they draw from ackclock's streams of the
    run's seed."""

    def cmd_use_rng(self, *args: str) -> None: ...


@dataclass
class LinkDecl:
    a: NodeObject
    b: NodeObject
    bandwidth: str
    delay: str
    queue: str
    duplex: bool
    orient: str | None = None


@dataclass
class Topology:
    nodes: list[NodeObject] = field(default_factory=list)
    links: list[LinkDecl] = field(default_factory=list)
    limits: dict[tuple[int, int], int] = field(default_factory=dict)
    losses: list[tuple[ErrorModel, NodeObject, NodeObject, LossPosition]] = field(
        default_factory=list
    )
    queue_positions: list[tuple[int, int, str]] = field(default_factory=list)
    colors: list[tuple[int, str]] = field(default_factory=list)


class World:
    """Every object of one script, by Tcl name, and the simulation they build.

    `eval_global` runs Tcl in the global scope (for `$ns at`); `channel_path`
    maps a Tcl channel opened by the script to its file.
    """

    def __init__(
        self,
        seed: int,
        eval_global: Callable[[str], object],
        channel_path: Callable[[str], str],
        register: Callable[[TclObject], None],
        split_list: Callable[[str], list[str]],
        replication: int = 0,
    ) -> None:
        self.seed = seed
        self.replication = replication
        self.eval_global = eval_global
        self.channel_path = channel_path
        self.register = register
        self.split_list = split_list
        self.class_vars = ClassVariables()
        self.objects: dict[str, TclObject] = {}
        self.topology = Topology()
        self.sim: Simulator | None = None
        self.pending_at: list[tuple[str, str]] = []
        self.trace_all: list[str] = []
        self.trace_queues: list[tuple[NodeObject, NodeObject, str]] = []
        self.nam_channels: list[str] = []
        self.view_paths: list[str] = []  # indexes for `ackclock view`
        self.simulator: TclObject | None = None
        self.streams = _native.Mrg32k3a([12345] * 6)  # the package's default seed
        self.default_rng: RngObject | None = None

    # --- objects --------------------------------------------------------------

    def new(self, cls: str) -> TclObject:
        from ackclock.tcl.simulator_object import SimulatorObject

        if not exists(cls):
            raise TclScriptError(
                f"class {cls!r} is not supported (supported: {', '.join(names())})"
            )
        kinds: list[tuple[str, type[TclObject]]] = [
            ("Simulator", SimulatorObject),
            ("Agent/TCPSink", TcpSink),
            ("Agent/TCP", TcpAgent),
            ("Agent/UDP", UdpAgent),
            ("Agent/Null", UdpSink),
            ("Agent/LossMonitor", UdpSink),
            ("Application/FTP", Ftp),
            ("Application/Traffic/CBR", Cbr),
            ("Application", Application),
            ("ErrorModel", ErrorModel),
            ("RNG", RngObject),
            ("RandomVariable/Uniform", Passive),
            ("RandomVariable/Exponential", Passive),
        ]
        kind = next(k for base, k in kinds if is_a(cls, base))
        if kind is SimulatorObject and self.simulator is not None:
            raise TclScriptError("a script may create only one Simulator")
        obj = self._adopt(kind(self, cls, self._next_name()))
        if kind is SimulatorObject:
            self.simulator = obj
        return obj

    def add_node(self) -> NodeObject:
        node = NodeObject(self, "Node", self._next_name(), len(self.topology.nodes))
        self.topology.nodes.append(node)
        return self._adopt(node)

    def _next_name(self) -> str:
        """ns-2's style of object names: _o1, _o2, ..."""
        return f"_o{len(self.objects) + 1}"

    def _adopt(self, obj: T) -> T:
        """Makes `obj` known by its name, as a Tcl command too."""
        self.objects[obj.name] = obj
        self.register(obj)
        return obj

    def object(self, name: str, kind: type[T], what: str) -> T:
        obj = self.objects.get(name)
        if not isinstance(obj, kind):
            raise TclScriptError(f"{name!r} is not {what}")
        return obj

    def agent(self, name: str) -> Agent:
        return self.object(name, Agent, "an agent")

    def node(self, name: str) -> NodeObject:
        return self.object(name, NodeObject, "a node")

    def new_stream(self) -> _native.Mrg32k3a:
        """The package's next stream (ns-2's `new RNG`)."""
        stream, self.streams = self.streams, self.streams.next_stream()
        return stream

    def seed_streams(self, seed: int) -> _native.Mrg32k3a:
        """Seeds the package with `seed` and takes its first stream."""
        self.streams = _native.Mrg32k3a([seed] * 6)
        return self.new_stream()

    def checked_seed(self, seed: str) -> int:
        try:
            value = int(seed)
        except ValueError:
            raise TclScriptError(f"seed {seed!r} is not a whole number") from None
        if not 0 <= value < MAX_SEED:
            raise TclScriptError(f"seed {value} must be between 0 and {MAX_SEED - 1}")
        return value

    def reseed(self, seed: int) -> None:
        """`ns-random N` / `$defaultRNG seed N`: N > 0 also becomes the run's
        seed for ackclock's own streams; 0 (ns-2: "from the clock") keeps it."""
        if self.sim is not None:
            raise TclScriptError("the default generator must be seeded before $ns run")
        if seed > 0:
            self.seed = seed

    def reset_order(self) -> list[Agent]:
        """The attached agents in the order ns-2's `$ns run` resets them: the
        nodes as Tcl's `array names` lists ns-2's Node_ array (node ids set in
        creation order), each node's agents in attach order."""
        ids = " ".join(f"{node.id} {{}}" for node in self.topology.nodes)
        self.eval_global(f"array unset ::ackclock::Node_; array set ::ackclock::Node_ {{{ids}}}")
        names = str(self.eval_global("join [array names ::ackclock::Node_]"))
        order = [int(i) for i in self.split_list(names)]
        agents = sorted(
            (a for a in self.objects.values() if isinstance(a, Agent) and a.node is not None),
            key=lambda a: a.port,
        )
        return [a for i in order for a in agents if a.address()[0].id == i]

    def attach(self, node: NodeObject, agent: Agent) -> None:
        agent.node, agent.port = node, node.next_port
        node.next_port += 1

    def started_flows(self, agent: Agent) -> list[Flow]:
        return [
            flow
            for a in self.objects.values()
            if isinstance(a, Agent) and a.peer is agent
            for flow in a.flows
        ]

    # --- building and running ---------------------------------------------------

    def built(self) -> Simulator:
        """The simulation, built from the description at first use."""
        if self.sim is None:
            from ackclock.tcl.build import build

            self.sim = build(self)
        return self.sim

    def now_ps(self) -> int:
        return 0 if self.sim is None else self.sim.now_ps

    def at(self, time: str, script: str) -> None:
        if self.sim is None:
            self.pending_at.append((time, script))
        else:
            self.schedule(time, script)

    def schedule(self, time: str, script: str) -> None:
        assert self.sim is not None
        at_ps = max(units.duration_ps(ns2_time(time), "time"), self.sim.now_ps)
        self.sim.at(f"{at_ps}ps", lambda: self.eval_global(script))

    def start(self, app: Application, agent: Agent, packets: int | None) -> Flow:
        """Starts `app` on `agent` now: the connection or UDP flow to its peer."""
        sim = self.built()
        src_node, src_port = agent.address()
        if agent.peer is None:
            raise TclScriptError(f"{agent.name} ({agent.cls}) is not connected: use $ns connect")
        dst_node, dst_port = agent.peer.address()
        assert src_node.handle is not None and dst_node.handle is not None
        label = specs.FlowLabel(src_port, dst_port, agent.integer("fid_"))
        now = f"{sim.now_ps}ps"
        flow: Flow
        if isinstance(agent, TcpAgent):
            if not isinstance(agent.peer, TcpSink):
                raise TclScriptError(f"{agent.name} ({agent.cls}) must connect to an Agent/TCPSink")
            params = agent.params()
            mss = params.mss_bytes
            if is_a(app.cls, "Application/Telnet"):
                app_spec: Any = Telnet(mean_interval=app.number("interval_"), packet_size=mss)
            else:
                app_spec = Bulk(bytes=None if packets is None else packets * mss)
            flow = sim.tcp(
                src_node.handle,
                dst_node.handle,
                app=app_spec,
                tcp=params,
                server_tcp=agent.peer.params(mss),
                start=now,
                server_start=now,
                label=label,
            )
        elif isinstance(agent, UdpAgent):
            flow = self.start_udp(sim, app, src_node.handle, dst_node.handle, now, label)
        else:
            raise TclScriptError(f"{app.cls} cannot run on {agent.cls}")
        agent.flows.append(flow)
        return flow

    def start_udp(
        self,
        sim: Simulator,
        app: Application,
        src: Node,
        dst: Node,
        now: str,
        label: specs.FlowLabel,
    ) -> Flow:
        if is_a(app.cls, "Application/Traffic/CBR") and app.number("random_") != 0:
            raise TclScriptError(
                f"{app.cls} random_ {app.read('random_')} is not supported (only 0)"
            )
        size = app.integer("packetSize_")
        rate = app.read("rate_")
        common: dict[str, Any] = {"packet_size": size, "start": now, "label": label}
        if is_a(app.cls, "Application/Traffic/CBR"):
            return sim.cbr(src, dst, rate=rate, max_packets=app.integer("maxpkts_"), **common)
        if is_a(app.cls, "Application/Traffic/Exponential"):
            return sim.on_off(
                src,
                dst,
                rate=rate,
                on_mean=app.number("burst_time_"),
                off_mean=app.number("idle_time_"),
                **common,
            )
        raise TclScriptError(f"{app.cls} cannot run on a UDP agent (use CBR or Exponential)")

    def nam_preamble(self) -> str:
        t = self.topology
        links = [
            (
                link.a.id,
                link.b.id,
                float(units.bandwidth_bps(link.bandwidth, "bandwidth")),
                units.duration_ps(link.delay, "delay") / units.PS_PER_S,
                link.orient,
            )
            for link in t.links
        ]
        return nam.preamble([n.id for n in t.nodes], links, t.queue_positions, t.colors)
