"""Every ns-2 object of one script, and the ackclock simulation they build.

The script describes the network first; the first `$ns run` builds it
(nodes, links, queues, error models, traces) with ackclock's Python API and
runs it. Connections start when their application first sends, as ns-2's
agents send nothing before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ackclock import _native, specs
from ackclock.handles import Flow, TcpFlow
from ackclock.simulator import Simulator
from ackclock.tcl import registry, wireless
from ackclock.tcl.agents import Agent, FullTcp, PingAgent, TcpAgent, TcpSink, UdpAgent
from ackclock.tcl.dynamics import Dynamics
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.headers import PacketHeaders
from ackclock.tcl.links import LinkObject, Ns2Queue
from ackclock.tcl.nodes import NodeObject
from ackclock.tcl.shadow import Shadow, normalize, ns2_real, whole
from ackclock.tcl.wireless import Wireless
from ackclock.tcp_specs import Manual, Telnet

if TYPE_CHECKING:
    from ackclock.tcl.applications import TcpApp, Traffic
    from ackclock.tcl.applications import Telnet as TelnetApp
    from ackclock.tcl.channels import Channels
    from ackclock.tcl.interp import Interp
    from ackclock.tcl.lan import LanNodeObject
    from ackclock.tcl.randomness import RngObject
    from ackclock.tcl.simulator_object import SimulatorObject

T = TypeVar("T", bound=Shadow)


@dataclass
class NamConfig:
    """What the nam trace's header shows, besides nodes and links."""

    channels: list[str] = field(default_factory=list)
    colors: list[tuple[int, str]] = field(default_factory=list)
    orient: dict[tuple[int, int], str] = field(default_factory=dict)
    queue_positions: list[tuple[int, int, str]] = field(default_factory=list)
    node_colors: dict[int, str] = field(default_factory=dict)
    node_shapes: dict[int, str] = field(default_factory=dict)
    node_labels: dict[int, str] = field(default_factory=dict)


# The latest time a run may reach (the clock's limit is about 53 days).
FOREVER_S = 4.0e6


class World:
    def __init__(self, tcl: Interp, seed: int, channels: Channels, replication: int = 0) -> None:
        self.tcl = tcl
        self.seed = seed
        self.replication = replication
        # ns-2's RNG package, at its default seed; `new RNG` takes its streams
        self.streams = _native.Mrg32k3a([12345] * 6)
        # ns-2's rtglibRNG, which its DV agents draw from: seeded as the
        # default generator is at start-up (stream k for replication k)
        self.routing_rng = _native.Mrg32k3a([seed] * 6)
        for _ in range(replication):
            self.routing_rng = self.routing_rng.next_stream()
        self.channels = channels
        self.shadows: dict[str, Shadow] = {}
        self.simulator: SimulatorObject | None = None
        self.nodes: list[NodeObject] = []
        self.links: dict[tuple[int, int], LinkObject] = {}
        self.lans: list[LanNodeObject] = []
        self.dynamics = Dynamics()
        self.headers = PacketHeaders()
        self.wireless = Wireless()
        self.rngs: list[RngObject] = []
        self.default_rng: RngObject | None = None
        # the polar method's second sample, which ns-2's RNGs share
        self.spare_normal: float | None = None
        self.sim: Simulator | None = None
        # `$ns at` scripts and actions before the run: (time in ps, action)
        self.pending: list[tuple[int, Callable[[], object]]] = []
        # trace-all channels, which links created afterwards write to
        self.trace_all: list[str] = []
        # the channel of `$ns eventtrace-all`: TCP agents created after it
        # write their events there
        self.event_trace: str | None = None
        self.link_traces: list[tuple[LinkObject, str]] = []
        # `$link trace-dynamics`: (link, channel, in nam's format)
        self.dynamics_traces: list[tuple[LinkObject, str, bool]] = []
        self.nam = NamConfig()
        # `trace-annotate` lines so far
        self.annotations = 0
        # what ns-2's C++ printed (printf) into a pipe or file: C's stdout is
        # flushed at exit, after Tcl's, so these lines come last
        self.c_stdout: list[str] = []
        # indexes for `ackclock view` to write
        self.view_paths: list[str] = []
        # the core's trace ids writing into each channel
        self.trace_ids: dict[str, list[int]] = {}
        # what waits for the network to be built (monitors)
        self.on_build: list[Callable[[], object]] = []
        # runs a scheduled script (the interpreter sets it)
        self.run_script: Callable[[str], None] = lambda script: None

    # --- objects ----------------------------------------------------------

    def create(self, name: str, args: tuple[str, ...]) -> Shadow:
        """The Python half of a new ns-2 object (`::ackclock::create`)."""
        cls = self.class_of(name)
        heritage = self.heritage(cls)
        kind, ns2_class = registry.implementation(heritage)
        shadow = kind(self, name, cls, ns2_class, args)
        self.shadows[name] = shadow
        self._init_variables(shadow)
        if isinstance(shadow, TcpAgent):
            shadow.cmd_reset()  # ns-2's agents reset when created
        return shadow

    def _init_variables(self, shadow: Shadow) -> None:
        names = registry.object_variables(registry.own_class(shadow), type(shadow))
        self.tcl.call("::ackclock::init_vars", shadow.name, names)
        # Two Tcl calls for all the variables the shadow knows: there are
        # hundreds in a script, and a call each costs start-up time.
        known = type(shadow).known_variables()
        found = self.tcl.split(self.tcl.call("::ackclock::values", shadow.name, list(known)))
        values = [
            word
            for var, value in zip(found[::2], found[1::2])
            for word in (var, normalize(known[var].kind, value, f"{shadow} {var}"))
        ]
        variables = [word for var, spec in known.items() for word in (var, int(spec.live))]
        self.tcl.call("::ackclock::follow_vars", shadow.name, values, variables)

    def class_of(self, name: str) -> str:
        return self.tcl.call("::otcl::dispatch", name, "info", "class")

    def heritage(self, cls: str) -> list[str]:
        return self.tcl.split(self.tcl.call("::otcl::heritage", cls))

    def shadow(self, name: str, kind: type[T], what: str) -> T:
        obj = self.shadows.get(name)
        if not isinstance(obj, kind):
            raise TclScriptError(f"{name!r} is not {what}")
        return obj

    def agent(self, name: str) -> Agent:
        return self.shadow(name, Agent, "an agent")

    def node(self, name: str) -> NodeObject:
        return self.shadow(name, NodeObject, "a node")

    def destroy(self, name: str) -> None:
        shadow = self.shadows.pop(name, None)
        if shadow is not None:
            shadow.destroy()

    def reseed(self, seed: int) -> None:
        """`ns-random N` / `$defaultRNG seed N`: N > 0 becomes the run's seed
        (0, ns-2's "seed from the clock", keeps it, for reproducibility)."""
        if self.sim is not None:
            raise TclScriptError("the seed must be set before $ns run")
        if seed > 0:
            self.seed = seed

    def new_stream(self) -> _native.Mrg32k3a:
        """The RNG package's next stream (ns-2's `new RNG`)."""
        stream, self.streams = self.streams, self.streams.next_stream()
        return stream

    def seed_streams(self, seed: int) -> _native.Mrg32k3a:
        """Seeds the package with `seed` and takes its first stream; for
        replication k > 0, its stream k instead, so that replications draw
        independent numbers (replication 0 is ns-2's own sequence)."""
        self.streams = _native.Mrg32k3a([seed] * 6)
        for _ in range(self.replication):
            self.streams = self.streams.next_stream()
        return self.new_stream()

    def reset_order(self) -> list[Agent]:
        """The attached agents in the order ns-2's `$ns run` resets them: the
        nodes as Tcl's `array names` lists ns-2's Node_ array (node ids set in
        creation order), each node's agents in attach order."""
        ids = " ".join(f"{node.id} {{}}" for node in self.nodes)
        self.tcl.eval(f"array unset ::ackclock::Node_; array set ::ackclock::Node_ {{{ids}}}")
        order = [int(i) for i in self.tcl.split(self.tcl.eval("array names ::ackclock::Node_"))]
        by_id = {node.id: node for node in self.nodes}
        return [agent for i in order for agent in by_id[i].agents]

    # --- topology ---------------------------------------------------------

    def add_link(self, link: LinkObject) -> None:
        self.unbuilt("links")
        # A second link between the same nodes replaces the first, as in
        # ns-2's table of links (routes use the last one).
        replaced = self.links.get((link.src.id, link.dst.id))
        self.links[(link.src.id, link.dst.id)] = link
        # ns-2's Simulator keeps its links in link_(SRC:DST), which scripts read
        if self.simulator is not None:
            key = f"{link.src.id}:{link.dst.id}"
            self.tcl.set(f"{self.simulator.namespace}::link_({key})", link.name)
        self.link_traces = [(other, c) for other, c in self.link_traces if other is not replaced]
        for channel in self.trace_all:
            self.link_traces.append((link, channel))

    def link(self, src: NodeObject, dst: NodeObject) -> LinkObject:
        try:
            return self.links[(src.id, dst.id)]
        except KeyError:
            raise TclScriptError(f"there is no link from node {src.id} to node {dst.id}") from None

    def trace_link(self, link: LinkObject, channel: str) -> None:
        self.unbuilt("traces")
        self.channels.require_writable(channel)
        self.link_traces.append((link, channel))

    def attach(self, node: NodeObject, agent: Agent, port: str = "") -> None:
        if agent.node is not None:
            raise TclScriptError(f"{agent} is already attached to node {agent.node.id}")
        agent.node = node
        agent.port = whole(port, f"{node} attach") if port else node.next_port
        node.next_port = max(node.next_port, agent.port + 1)
        node.agents.append(agent)

    def detach(self, agent: Agent) -> None:
        """`$ns detach-agent`: the agent sends and receives nothing more."""
        for flow in agent.flows:
            flow.detach(sink=False)
        for flow in agent.inbound:
            flow.detach(sink=True)
        if agent.node is not None:
            agent.node.agents.remove(agent)
        agent.node = None
        if agent.peer is not None and agent.peer.peer is agent:
            agent.peer.peer = None
        agent.peer = None

    def unbuilt(self, what: str) -> None:
        if self.sim is not None:
            raise TclScriptError(f"{what} must be set up before $ns run")

    # --- time -------------------------------------------------------------

    def now_ps(self) -> int:
        return 0 if self.sim is None else self.sim.now_ps

    def now_s(self) -> float:
        """The time as ns-2's clock holds it (`$ns now`, trace annotations)."""
        return 0.0 if self.sim is None else self.sim.now

    def at(self, at_ps: int, action: Callable[[], object]) -> None:
        """Runs `action` when the clock reaches `at_ps` (now if earlier)."""
        if self.sim is None:
            self.pending.append((at_ps, action))
        else:
            self.sim.at(f"{max(at_ps, self.sim.now_ps)}ps", action)

    def when_built(self, action: Callable[[], object]) -> None:
        """Runs `action` once the network is built (now if it is)."""
        if self.sim is None:
            self.on_build.append(action)
        else:
            action()

    def packet_type(self, fid: int, src_node: int) -> int:
        """ns-2's packet type number of the flow `fid` sent from node
        `src_node`: tcp, ack (TCP's reverse direction), cbr or udp."""
        for agent in self.shadows.values():
            if isinstance(agent, Agent) and agent.node is not None and agent.flows:
                if agent.integer("fid_") != fid:
                    continue
                sender = agent.node.id == src_node
                if isinstance(agent, TcpAgent):
                    return 0 if sender else 5
                return 2 if agent.application_kind() == "cbr" else 1
        return 1

    def when_running(self, action: Callable[[], object]) -> None:
        """Runs `action` now if the simulation runs, else at its start, in
        the order of the calls (an application started before `$ns run`)."""
        if self.sim is None:
            self.pending.append((0, action))
        else:
            action()

    # --- flows ------------------------------------------------------------

    def flows_with_fids(self, fids: set[int]) -> list[Flow]:
        return [flow for agent, flow in self._agent_flows() if agent.integer("fid_") in fids]

    def _agent_flows(self) -> list[tuple[Agent, Flow]]:
        return [
            (agent, flow)
            for agent in self.shadows.values()
            if isinstance(agent, Agent)
            for flow in agent.flows
        ]

    def flow_started(self, agent: Agent, flow: Flow) -> None:
        agent.flows.append(flow)
        if agent.peer is not None:
            agent.peer.inbound.append(flow)
        fid = agent.integer("fid_")
        for link in self.links.values():
            link.flow_started(flow, fid)

    def _ends(self, agent: Agent) -> tuple[Any, Any, specs.FlowLabel]:
        src_node, src_port = agent.address()
        if agent.peer is None:
            raise TclScriptError(f"{agent} is not connected: use $ns connect")
        dst_node, dst_port = agent.peer.address()
        assert src_node.handle is not None and dst_node.handle is not None
        return (
            src_node.handle,
            dst_node.handle,
            specs.FlowLabel(src_port, dst_port, agent.integer("fid_")),
        )

    def tcp_write(self, agent: TcpAgent, nbytes: int | None) -> None:
        """The agent's application writes `nbytes` more (None: without end);
        a FullTcp writes on its connection, whichever side opened it."""
        flow, server = self._connection(agent) or (self._start_tcp(agent, Manual()), False)
        if agent.written is None:
            return  # already sending without end
        agent.written = None if nbytes is None else agent.written + nbytes
        flow.write(nbytes, server=server)

    def _connection(self, agent: TcpAgent) -> tuple[TcpFlow, bool] | None:
        """The agent's flow, and whether the agent is its server end."""
        if isinstance(agent, FullTcp):
            return agent.connection()
        flow = agent.flow()
        return None if flow is None else (flow, False)

    def tcp_advance(self, agent: TcpAgent, packets: int, relative: bool) -> None:
        """ns-2's `advance N` (send up to packet N; 0 stops new data) and
        `advanceby N` (N packets more)."""
        mss = agent.segment_size()
        if agent.written is None or (packets == 0 and not relative):
            if packets == 0 and not relative:
                self.tcp_stop(agent)
            return
        target = (agent.written if relative else 0) + packets * mss
        if target > agent.written:
            self.tcp_write(agent, target - agent.written)

    def tcp_stop(self, agent: TcpAgent) -> None:
        connection = self._connection(agent)
        if connection is None:
            return
        flow, server = connection
        if server:
            raise TclScriptError(
                f"{agent}: stopping the listening FullTcp's application is not supported "
                "(send a byte count, or close)"
            )
        flow.stop()

    def tcp_close(self, agent: TcpAgent) -> None:
        connection = self._connection(agent)
        if connection is not None:
            flow, server = connection
            flow.close(server=server)

    def _start_tcp(self, agent: TcpAgent, app: Any) -> TcpFlow:
        sim = self.built()
        src, dst, label = self._ends(agent)
        peer = agent.peer
        if isinstance(agent, FullTcp):
            if not isinstance(peer, FullTcp):
                raise TclScriptError(
                    f"{agent} must connect to another Agent/TCP/FullTcp, not {peer}"
                )
            if agent.listening:
                raise TclScriptError(f"{agent} listens: it sends once {peer} has connected")
            if not peer.listening:
                raise TclScriptError(f"{peer} must listen ($agent listen) before {agent} sends")
            # ns-2's FullTcp resets (and draws its clock phase) as it connects.
            agent.draw_boot_time()
        elif not isinstance(peer, TcpSink):
            raise TclScriptError(f"{agent} must connect to an Agent/TCPSink, not {peer}")
        now = f"{sim.now_ps}ps"
        flow = sim.tcp(
            src,
            dst,
            app=app,
            tcp=agent.params(),
            server_tcp=peer.receiver_params(agent.segment_size()),
            start=now,
            server_start=now,
            label=label,
        )
        self.flow_started(agent, flow)
        event = agent.traced_event()
        if event is not None:
            flow.trace_ns2_events(event)
        return flow

    def start_telnet(self, app: TelnetApp, agent: TcpAgent) -> Flow:
        mss = agent.segment_size()
        return self._start_tcp(agent, Telnet(mean_interval=app.mean_interval(), packet_size=mss))

    def start_udp(self, app: Traffic, agent: Agent) -> Flow:
        if not isinstance(agent, UdpAgent):
            raise TclScriptError(f"{app.cls} cannot run on {agent.cls} (use Agent/UDP)")
        sim = self.built()
        src, dst, label = self._ends(agent)
        registry.check_defaults(app)
        size = app.integer("packetSize_")
        common: dict[str, Any] = {
            "packet_size": size,
            "start": f"{sim.now_ps}ps",
            "label": label,
        }
        # The core's rates are whole bit/s; ns-2's CBR keeps interval_, whose
        # rate (packetSize_ * 8 / interval_) is often a fraction: the
        # nearest whole rate moves each departure by under a microsecond
        # in a thousand.
        rate = round(app.number("rate_"))
        if app.is_a("Application/Traffic/CBR"):
            maxpkts = app.integer("maxpkts_")
            jitter = app.flag("random_")
            flow = sim.cbr(src, dst, rate=rate, max_packets=maxpkts, jitter=jitter, **common)
        elif app.is_a("Application/Traffic/Exponential"):
            flow = sim.on_off(
                src,
                dst,
                rate=rate,
                on_mean=app.number("burst_time_"),
                off_mean=app.number("idle_time_"),
                **common,
            )
        else:
            raise TclScriptError(f"{app.cls} is not supported yet (use CBR or Exponential)")
        if agent.tbf is not None:
            agent.tbf.shape(flow)
        self.flow_started(agent, flow)
        return flow

    def tcpapp_send(self, app: TcpApp, agent: FullTcp, nbytes: int, code: str) -> None:
        """A TcpApp message: `nbytes` bytes from `agent`; `code` runs when
        its peer has received them. The connection is the one the sending
        side opened; its listening side answers on it."""
        self.tcp_write(agent, nbytes)
        connection = agent.connection()
        assert connection is not None
        flow, answering = connection
        app.sent += nbytes
        if code:
            flow.when_received(app.sent, lambda: self.run_script(code), server=not answering)

    def ping(self, agent: PingAgent) -> None:
        """The agent sends an echo request; its answer calls the script's
        `recv` as ns-2's Agent/Ping does."""
        if agent.echo is None:
            peer = agent.peer
            if not isinstance(peer, PingAgent):
                raise TclScriptError(f"{agent} must connect to another Agent/Ping, not {peer}")
            src, dst, label = self._ends(agent)
            answering = str(peer.address()[0].id)

            def on_reply(rtt_s: float) -> None:
                self.run_script(f"{agent.name} recv {answering} {rtt_s * 1000:3.1f}")

            agent.echo = self.built().ping(
                src, dst, on_reply, packet_size=agent.integer("packetSize_"), label=label
            )
            self.flow_started(agent, agent.echo)
        agent.echo.send()

    def udp_send(self, agent: UdpAgent, nbytes: int, data: str | None) -> None:
        """ns-2's UdpAgent::sendmsg: `nbytes` in packets of packetSize_ bytes
        and one of the rest, each carrying `data`; data must fit one packet."""
        size = agent.integer("packetSize_")
        if data is not None and nbytes > size:
            # ns-2 prints this on stdout and sends nothing.
            self.c_print("Error: data greater than maximum UDP packet size")
            return
        if agent.messages is None:
            peer = agent.peer
            src, dst, label = self._ends(agent)
            sender = str(agent.address()[0].id)

            def on_message(carried: object) -> None:
                if carried is not None and peer is not None:
                    self.run_script(f"{peer.name} process_data {sender} {{{carried}}}")

            agent.messages = self.built().messages(src, dst, on_message, label=label)
            self.flow_started(agent, agent.messages)
        pieces = [size] * (nbytes // size) + ([nbytes % size] if nbytes % size else [])
        for piece in pieces:
            agent.messages.send(piece, data)

    # --- running ------------------------------------------------------------

    def run(self) -> None:
        """`$ns run`: builds the network at the first call, then runs until
        no event is left or the script halts it."""
        sim = self.built()
        self.flush_script_channels()
        # The core wants an end for routing's endless updates; ns-2 has none.
        endless = self.dynamics.endless() or wireless.endless(self)
        sim.run(until=FOREVER_S if endless else None)

    def halt(self) -> None:
        if self.sim is not None:
            self.sim.stop()

    def flush_script_channels(self) -> None:
        """What the script wrote into files the core also writes, before the
        core writes more."""
        self.channels.flush(list(self.trace_ids))

    def close_channel(self, channel: str) -> None:
        """The script closes `channel`: the traces into it end now."""
        if self.sim is None:
            for pending in (self.trace_all, self.nam.channels):
                while channel in pending:
                    pending.remove(channel)
            if self.event_trace == channel:
                self.event_trace = None
            self.link_traces = [(link, c) for link, c in self.link_traces if c != channel]
            self.dynamics_traces = [t for t in self.dynamics_traces if t[1] != channel]
            for shadow in self.shadows.values():
                if isinstance(shadow, (Agent, Ns2Queue)) and shadow.trace_channel == channel:
                    shadow.trace_channel = None
            return
        for trace in self.trace_ids.pop(channel, []):
            self.sim.close_trace(trace)

    def finish(self, tcl_usable: bool) -> None:
        """The script ended (or was interrupted): traces complete and closed,
        the script's channels flushed."""
        if self.sim is not None:
            self.sim.close_traces()
        self.channels.flush_all(tcl_usable)
        if self.sim is not None:
            # printed when the first frame went out, but its C stdout is
            # only written out now
            report = wireless.carrier_sense_report(self)
            if sys.stdout.isatty():
                sys.stdout.write("".join(line + "\n" for line in report))
            else:
                self.c_stdout.extend(report)
        if self.c_stdout:
            sys.stdout.write("".join(line + "\n" for line in self.c_stdout))
            sys.stdout.flush()

    def c_print(self, line: str) -> None:
        """A line ns-2's C++ prints with printf (statistics, its errors): on
        a terminal at once, into a pipe or file after all that the script
        printed, where ns-2's lines end up."""
        if sys.stdout.isatty():
            self.run_script(f"puts {{{line}}}")
        else:
            self.c_stdout.append(line)

    def annotate(self, text: str) -> None:
        """`$ns trace-annotate`: a line in the traces at the current time,
        numbered in the nam trace as ns-2 numbers them."""
        now = self.now_s()
        self.annotations += 1
        for channel in self.trace_all:
            self.write_line(channel, f"v {ns2_real(now)} eval {{set sim_annotation {{{text}}}}}")
        self.nam_line(f"v -t {now:.15g} -e sim_annotation {now:.15g} {self.annotations} {text}")

    def nam_line(self, line: str) -> None:
        for channel in self.nam.channels:
            self.write_line(channel, line)

    def write_line(self, channel: str, line: str) -> None:
        """A line into a trace file between the records, in time order."""
        if self.sim is not None:
            self.sim.flush_traces()
        self.tcl.call("puts", channel, line)
        self.tcl.call("flush", channel)

    # --- building -----------------------------------------------------------

    def built(self) -> Simulator:
        """The simulation, built from the description at first use."""
        if self.sim is None:
            from ackclock.tcl.build import build

            self.sim = build(self)
            self.tcl.set("::ackclock::running", "1")
            for action in self.on_build:
                action()
            self.on_build.clear()
            pending, self.pending = self.pending, []
            for at_ps, action in pending:
                self.at(at_ps, action)
        return self.sim

    def variable_traces(self) -> list[tuple[Agent, str]]:
        return [
            (agent, agent.trace_channel)
            for agent in self.shadows.values()
            if isinstance(agent, Agent) and agent.traced and agent.trace_channel is not None
        ]
