"""ns-2's applications: what makes agents send.

FTP and Telnet drive a TCP agent; TcpApp sends messages over FullTcp;
CBR, Exponential and Pareto on/off sources drive a UDP agent (ns-2's
Application/Traffic/*).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock.handles import Flow, SourceFlow, TcpFlow
from ackclock.tcl.agents import Agent, FullTcp, TcpAgent
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Kind, Shadow, Var, packet_count, whole

if TYPE_CHECKING:
    from ackclock.tcl.world import World


class Application(Shadow):
    variables = {
        "type_": Var(
            Kind.TEXT, ignored="a label ns-2's tutorial sets; ns-2 does not read it either"
        ),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.agent: Agent | None = None
        self.flow: Flow | None = None

    def cmd_attach_agent(self, agent: str) -> None:
        self.agent = self.world.agent(agent)
        self.agent.application = self

    def cmd_agent(self) -> str:
        return "" if self.agent is None else self.agent.name

    def require_agent(self) -> Agent:
        if self.agent is None:
            raise TclScriptError(f"{self} has no agent: use attach-agent")
        return self.agent

    def taken(self) -> str:
        return "it started" if self.flow is not None else ""

    def cmd_start(self) -> None:
        self.world.when_running(self.begin)

    def cmd_stop(self) -> None:
        self.world.when_running(self.end)

    def begin(self) -> None:
        raise NotImplementedError

    def end(self) -> None:
        if self.flow is not None:
            self.flow.stop()


class Ftp(Application):
    """Application/FTP: an unlimited (or counted) bulk transfer."""

    def tcp(self) -> TcpAgent:
        agent = self.require_agent()
        if not isinstance(agent, TcpAgent):
            raise TclScriptError(f"{self} needs a TCP agent, not {agent.cls}")
        return agent

    def begin(self) -> None:
        self.world.tcp_write(self.tcp(), None)

    def end(self) -> None:
        # ns-2's FTP stop: advance 0, then close
        self.world.tcp_advance(self.tcp(), 0, relative=False)
        self.tcp().cmd_close()

    def cmd_produce(self, packets: str) -> None:
        count = packet_count(packets, f"{self} produce")
        self.world.when_running(lambda: self.world.tcp_advance(self.tcp(), count, False))

    def cmd_producemore(self, packets: str) -> None:
        count = packet_count(packets, f"{self} producemore")
        self.world.when_running(lambda: self.world.tcp_advance(self.tcp(), count, True))

    def cmd_send(self, nbytes: str) -> None:
        # the agent's sendmsg: whole packets for a one-way agent
        count = self.tcp().payload_of(whole(nbytes, f"{self} send"))
        self.world.when_running(lambda: self.world.tcp_write(self.tcp(), count))


class Telnet(Application):
    """Application/Telnet: packets at exponential intervals (mean interval_)."""

    variables = {"interval_": Var(Kind.REAL)}
    follows = frozenset({"interval_"})

    def begin(self) -> None:
        agent = self.require_agent()
        if not isinstance(agent, TcpAgent):
            raise TclScriptError(f"{self} needs a TCP agent, not {agent.cls}")
        self.mean_interval()
        self.flow = self.world.start_telnet(self, agent)

    def mean_interval(self) -> float:
        interval = self.number("interval_")
        if interval <= 0:
            raise TclScriptError(
                f"{self} interval_ {self.var('interval_')}: ns-2's tcplib telnet "
                "distribution (interval_ 0) is not modelled; give a mean interval"
            )
        return interval

    def assigned(self, name: str, value: str) -> None:
        # ns-2's Telnet draws each gap with the interval_ of that moment.
        if isinstance(self.flow, TcpFlow):
            self.flow.set_telnet_interval(self.mean_interval())


class TcpApp(Application):
    """ns-2's Application/TcpApp over Agent/TCP/FullTcp: `send BYTES CODE`
    writes BYTES bytes; at the instant the connected TcpApp's agent has
    received them in order (after the messages sent before), CODE runs in
    the interpreter, as ns-2 evaluates it. Created as ns-2 does, with its
    agent: `new Application/TcpApp $tcp`."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.peer_app: TcpApp | None = None
        # bytes this application sent so far: where its next message ends
        self.sent = 0
        if args:
            self.cmd_attach_agent(args[0])

    def cmd_connect(self, peer: str) -> None:
        self.peer_app = self.world.shadow(peer, TcpApp, "an Application/TcpApp")
        self.peer_app.peer_app = self

    def cmd_dst(self) -> str:
        return "" if self.peer_app is None else self.peer_app.name

    def cmd_send(self, nbytes: str, code: str = "") -> None:
        count = whole(nbytes, f"{self} send")
        if count < 1:
            raise TclScriptError(f"{self} send {nbytes}: a message has at least one byte")
        agent = self.require_agent()
        if not isinstance(agent, FullTcp):
            raise TclScriptError(f"{self} needs an Agent/TCP/FullTcp, not {agent.cls}")
        self.world.when_running(lambda: self.world.tcpapp_send(self, agent, count, code))

    def begin(self) -> None: ...


class Traffic(Application):
    """Application/Traffic/*: UDP sources."""

    variables = {
        "packetSize_": Var(Kind.INT),
        "rate_": Var(Kind.BANDWIDTH),
        "maxpkts_": Var(Kind.INT),
    }

    def begin(self) -> None:
        if self.flow is not None:
            raise TclScriptError(f"{self} was already started once")
        self.flow = self.world.start_udp(self, self.require_agent())

    def assigned(self, name: str, value: str) -> None:
        if isinstance(self.flow, SourceFlow):
            self.retune(self.flow, name, value)

    def retune(self, flow: SourceFlow, name: str, value: str) -> None:
        """The running source follows the script's change of `name`."""
        raise NotImplementedError


class Cbr(Traffic):
    """ns-2's CBR reads rate_, packetSize_, random_ and maxpkts_ at every
    packet (interval_ sets rate_)."""

    variables = {"random_": Var(Kind.BOOL)}
    follows = frozenset({"rate_", "packetSize_", "maxpkts_", "random_"})

    def retune(self, flow: SourceFlow, name: str, value: str) -> None:
        if name == "rate_":
            flow.retune(rate=round(float(value)))
        elif name == "packetSize_":
            flow.retune(packet_size=int(value))
        elif name == "maxpkts_":
            flow.retune(max_packets=max(int(value), 1))
        elif name == "random_":
            flow.retune(jitter=value == "1")


class OnOff(Traffic):
    """Application/Traffic/Exponential and /Pareto: on/off sources. ns-2
    derives the burst's packet interval and mean length from rate_,
    packetSize_ and burst_time_ when the source starts; it draws each idle
    period with the idle_time_ of that moment, and sends packetSize_ bytes
    at each packet."""

    variables = {
        "burst_time_": Var(Kind.TIME),
        "idle_time_": Var(Kind.TIME),
        "shape_": Var(Kind.REAL),
    }
    # (maxpkts_ is no variable of ns-2's on/off sources: it changes nothing)
    follows = frozenset({"idle_time_", "packetSize_", "rate_", "burst_time_", "maxpkts_"})

    def begin(self) -> None:
        super().begin()
        # the spacing of a burst's packets, fixed from now on
        self.burst_interval_s = self.integer("packetSize_") * 8 / round(self.number("rate_"))

    def retune(self, flow: SourceFlow, name: str, value: str) -> None:
        if name == "idle_time_":
            flow.retune(off_mean=float(value))
        elif name == "packetSize_":
            # new sizes at the same spacing: the core's rate scales with them
            size = int(value)
            flow.retune(packet_size=size, rate=round(size * 8 / self.burst_interval_s))
