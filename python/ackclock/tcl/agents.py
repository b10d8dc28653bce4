"""ns-2's agents: the ends of flows, attached to nodes.

ns-2's one-way TCP agents (Agent/TCP and its variants, with an
Agent/TCPSink) are ackclock's TCP with the ns2 profile; Agent/TCP/FullTcp
is ackclock's TCP with SYN/FIN (two-way, ns-2's FullTcp). Agent/UDP sends
what its application produces to an Agent/Null or Agent/LossMonitor.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any, ClassVar

from ackclock import specs, units
from ackclock._native import NS2_VARS
from ackclock.handles import EchoFlow, Flow, MessageFlow, TcpFlow
from ackclock.tcl import tracevars
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Kind, Shadow, Var, packet_count, whole
from ackclock.tcp_specs import ALGORITHMS, TcpParams

if TYPE_CHECKING:
    from ackclock.tcl.nodes import NodeObject
    from ackclock.tcl.world import World

# The sender variables `tracevar` can follow.
TRACEABLE = tuple(NS2_VARS)
TCP_HEADER_BYTES = 40

# The algorithm each ns-2 agent class runs, from the core's registry.
CONGESTION_CONTROL = {
    agent: name for name, info in ALGORITHMS.items() for agent in info["ns2_agents"]
}
# Agents the registry does not name, and the one whose window arithmetic
# they share in ns-2: FACK recovers like Sack1 (docs/tcl.md), FullTcp's
# variants like the one-way agents of the same name.
SAME_WINDOW_AS = {
    "Agent/TCP/Fack": "Agent/TCP/Sack1",
    "Agent/TCP/FullTcp": "Agent/TCP/Reno",
    "Agent/TCP/FullTcp/Tahoe": "Agent/TCP",
    "Agent/TCP/FullTcp/Newreno": "Agent/TCP/Newreno",
    "Agent/TCP/FullTcp/Sack": "Agent/TCP/Sack1",
}
# ...and which of them recover losses with SACK.
SACK_AGENTS = ("Agent/TCP/Sack1", "Agent/TCP/Fack", "Agent/TCP/FullTcp/Sack")
# ns-2's TCP-Linux (Agent/TCP/Linux) runs Linux's congestion-control modules:
# `select_ca` takes the registry's algorithms, without ns-2 arithmetic.
LINUX_CA = tuple(name for name in ALGORITHMS if not name.startswith("ns2-"))
# Agent/TCP/Vegas's v_ variables, the ns2-vegas module's parameters.
VEGAS_PARAMS = {"v_alpha_": "alpha", "v_beta_": "beta", "v_gamma_": "gamma"}
# The agents whose new ACKs open cwnd_ through ns-2's recv_newack_helper,
# which control_increase_ gates, and the one whose sends all pass through
# send_much and send_one, which QOption_ watches.
CONTROL_INCREASE_AGENTS = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1")
QOPTION_AGENTS = ("Agent/TCP",)


class Agent(Shadow):
    variables = {
        "fid_": Var(Kind.INT),
        "packetSize_": Var(Kind.INT),
        "agent_addr_": Var(Kind.INT, live=True),
        "agent_port_": Var(Kind.INT, live=True),
        "dst_addr_": Var(Kind.INT, live=True),
        "dst_port_": Var(Kind.INT, live=True),
        # the node attach-agent put it on (ns-2's Node attach sets it)
        "node_": Var(Kind.TEXT, live=True),
        "prio_": Var(Kind.INT, ignored="only ns-2's priority queues read it"),
        "flags_": Var(Kind.INT, ignored="ns-2's internal flag bits"),
        "debug_": Var(Kind.BOOL, ignored="no debugging output"),
    }
    # Live counters a script may set during the run (ns-2's monitoring
    # scripts zero a sink's bytes_): they count on from the value set.
    counters: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        # what each counter the script set had counted until then, less the value set
        self.counted: dict[str, int] = {}
        self.node: NodeObject | None = None
        self.port = -1
        self.peer: Agent | None = None
        self.flows: list[Flow] = []
        # flows this agent is the sink of
        self.inbound: list[Flow] = []
        self.trace_channel: str | None = None
        self.traced: list[str] = []
        self.application: Shadow | None = None

    def address(self) -> tuple[NodeObject, int]:
        if self.node is None:
            raise TclScriptError(f"{self} is not attached to a node: use $ns attach-agent")
        return self.node, self.port

    def live(self, name: str) -> str | None:
        if name == "node_":
            return "" if self.node is None else self.node.name
        if name in ("agent_addr_", "agent_port_"):
            return str(
                -1 if self.node is None else (self.node.id if name == "agent_addr_" else self.port)
            )
        if name in ("dst_addr_", "dst_port_"):
            peer = self.peer
            if peer is None or peer.node is None:
                return "-1"
            return str(peer.node.id if name == "dst_addr_" else peer.port)
        return None

    def taken(self) -> str:
        return "its connection started" if self.flows or self.inbound else ""

    def assigned(self, name: str, value: str) -> None:
        shown = self.live(name) if name in self.counters else None
        if shown is not None:
            self.counted[name] = self.counted.get(name, 0) + int(shown) - int(value)

    def application_kind(self) -> str:
        app = self.application
        return "cbr" if app is not None and app.is_a("Application/Traffic/CBR") else ""

    def cmd_attach(self, channel: str) -> None:
        """The trace file for this agent's traced variables."""
        self.world.channels.require_writable(channel)
        self.trace_channel = channel

    def cmd_tracevar(self, var: str) -> None:
        if var not in TRACEABLE:
            raise TclScriptError(f"tracevar {var}: ackclock traces {', '.join(TRACEABLE)}")
        self.world.unbuilt("variable traces")
        self.traced.append(var)

    cmd_trace = cmd_tracevar

    def cmd_attach_tbf(self, tbf: str) -> None:
        raise TclScriptError(f"{self} attach-tbf: ackclock shapes UDP agents only (Agent/UDP)")

    def cmd_attach_app(self, kind: str) -> str:
        app = self.world.tcl.call("new", f"Application/{kind}")
        self.world.tcl.call(app, "attach-agent", self.name)
        return app

    def cmd_attach_source(self, kind: str) -> str:
        return self.cmd_attach_app(kind)

    def cmd_port(self) -> int:
        return self.port

    def cmd_addr(self) -> int:
        return -1 if self.node is None else self.node.id

    def cmd_dst_addr(self) -> int:
        return int(self.live("dst_addr_") or -1)

    def cmd_dst_port(self) -> int:
        return int(self.live("dst_port_") or -1)

    def cmd_reset(self) -> None: ...

    def cmd_target(self, *args: str) -> str:
        return ""


class TcpAgent(Agent):
    """ns-2's one-way TCP senders: Agent/TCP (Tahoe), /Reno, /Newreno,
    /Sack1, /Fack (SACK recovery; see docs/tcl.md)."""

    variables = {
        "window_": Var(Kind.REAL),
        "windowInit_": Var(Kind.INT),
        "numdupacks_": Var(Kind.INT),
        "singledup_": Var(Kind.BOOL),
        "rtxcur_init_": Var(Kind.REAL),
        "minrto_": Var(Kind.REAL),
        "rfc2988_": Var(Kind.BOOL),
        "precisionReduce_": Var(Kind.BOOL),
        "timerfix_": Var(Kind.BOOL),
        "control_increase_": Var(Kind.INT),
        "QOption_": Var(Kind.INT),
        "EnblRTTCtr_": Var(Kind.INT),
        "syn_": Var(Kind.BOOL),
        "delay_growth_": Var(Kind.BOOL),
        "useHeaders_": Var(Kind.BOOL),
        "windowInitOption_": Var(Kind.INT),
        "bugfix_ss_": Var(Kind.BOOL),
        "maxburst_": Var(Kind.INT),
        "bugFix_": Var(Kind.BOOL),
        "updated_rttvar_": Var(Kind.BOOL, ignored="ns-2.35 defines it but its C++ never reads it"),
        "maxrto_": Var(Kind.REAL),
        "tcpTick_": Var(Kind.REAL),
        "overhead_": Var(Kind.REAL),
        "ecn_": Var(Kind.BOOL),
        "old_ecn_": Var(Kind.BOOL),
        "noFastRetrans_": Var(Kind.BOOL),
        # read from the simulation
        "cwnd_": Var(Kind.REAL, live=True),
        "ssthresh_": Var(Kind.INT, live=True),
        "ack_": Var(Kind.INT, live=True),
        "maxseq_": Var(Kind.INT, live=True),
        "rtt_": Var(Kind.INT, live=True),
        "srtt_": Var(Kind.INT, live=True),
        "rttvar_": Var(Kind.INT, live=True),
        "backoff_": Var(Kind.INT, live=True),
        "t_seqno_": Var(Kind.INT, live=True),
        "ndatapack_": Var(Kind.INT, live=True),
        "ndatabytes_": Var(Kind.INT, live=True),
        "nrexmitpack_": Var(Kind.INT, live=True),
        "nrexmitbytes_": Var(Kind.INT, live=True),
        "nackpack_": Var(Kind.INT, live=True),
        "nrexmit_": Var(Kind.INT, live=True),
        "ncwndcuts_": Var(Kind.INT, live=True),
        # without effect on what ackclock computes
        "trace_all_oneline_": Var(Kind.BOOL, ignored="trace layout only"),
        "nam_tracevar_": Var(Kind.BOOL, ignored="nam variable display"),
        "print_request_": Var(Kind.BOOL, ignored="Quick-Start debugging output"),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        # bytes its application wrote so far; None once it writes without end
        self.written: int | None = 0
        # ns-2's boot_time_: where in a tick its RTT clock starts
        self.boot_time = 0.0
        # the traceable variables' values before the run, as traced
        self.held: dict[str, str] = {}
        # ns-2 gives an event trace to the TCP agents created after
        # `$ns eventtrace-all`
        self.event_traced = world.event_trace is not None

    def traced_event(self) -> str | None:
        """What ns-2's agent calls its fast retransmit in the event trace,
        if its events are traced (FullTcp's are not written)."""
        if not self.event_traced or isinstance(self, FullTcp):
            return None
        for cls, event in (
            ("Agent/TCP/Sack1", "FAST_RECOVERY"),
            ("Agent/TCP/Newreno", "NEWRENO_FAST_RETX"),
            ("Agent/TCP/Reno", "RENO_FAST_RETX"),
        ):
            if self.is_a(cls):
                return event
        return "FAST_RETX"

    def cmd_reset(self) -> None:
        """ns-2's reset draws the agent's clock phase, boot_time_, from the
        default generator (when created, and for every agent at `$ns run`),
        and sets the traceable variables, tracing those it changes."""
        self.draw_boot_time()
        before, self.held = self.held, tracevars.after_reset(self)
        for var in dict.fromkeys(self.traced):
            if self.held[var] != before.get(var):
                self.write_var(var)

    def draw_boot_time(self) -> None:
        rng = self.world.default_rng
        if rng is not None:
            self.boot_time = self.number("tcpTick_") * rng.draw()

    def cmd_tracevar(self, var: str) -> None:
        super().cmd_tracevar(var)
        self.write_var(var)

    cmd_trace = cmd_tracevar

    def assigned(self, name: str, value: str) -> None:
        if name not in self.held:
            return
        text = tracevars.assigned_text(name, value)
        if text != self.held[name]:
            self.held[name] = text
            if name in self.traced:
                self.write_var(name)

    def write_var(self, var: str) -> None:
        """ns-2's trace line of a variable's value before the run."""
        if self.trace_channel is None:
            return
        here = tracevars.NOWHERE if self.node is None else (self.node.id, self.port)
        peer = self.peer
        there = (
            tracevars.NOWHERE if peer is None or peer.node is None else (peer.node.id, peer.port)
        )
        text = tracevars.line(here, there, var, self.held[var])
        self.world.tcl.call("puts", self.trace_channel, text)

    def flow(self) -> TcpFlow | None:
        flow = self.flows[-1] if self.flows else None
        return flow if isinstance(flow, TcpFlow) else None

    def live(self, name: str) -> str | None:
        flow = self.flow()
        if flow is None:
            return self.reset_value(name) or super().live(name)
        values = flow.ns2_vars()
        if name in values:
            # ns-2 keeps cwnd_ in a TracedDouble, which reads back as %g.
            return format(values[name], "g") if name == "cwnd_" else str(values[name])
        stats: Any = flow.stats()
        counters = {
            "ndatapack_": math.ceil(stats["bytes_sent"] / flow.mss),
            "ndatabytes_": self.data_bytes(stats["bytes_sent"], flow.mss),
            "nrexmitpack_": stats["retransmits"],
            "nrexmitbytes_": self.data_bytes(stats["retransmits"] * flow.mss, flow.mss),
            "nackpack_": stats["segments_received"],
            "nrexmit_": stats["timeouts"] - stats["timeouts_after_ecn"],
            "ncwndcuts_": stats["fast_retransmits"] + stats["timeouts"],
            "t_seqno_": int(values["maxseq_"]) + 1,
        }
        return str(counters[name]) if name in counters else super().live(name)

    def reset_value(self, name: str) -> str | None:
        """What ns-2's agent reset (at attach-agent) leaves in a variable
        until the agent sends."""
        if self.node is None:
            return None
        if name == "cwnd_":
            slow = self.flag("syn_") and self.flag("delay_growth_")
            return "1" if slow else self.var("windowInit_")
        if name in ("ack_", "maxseq_"):
            return "-1"
        if name == "ssthresh_":
            return str(int(self.number("window_")))
        return None

    def congestion_control(self) -> str:
        for cls in self.heritage:
            cls = SAME_WINDOW_AS.get(cls, cls)
            if cls in CONGESTION_CONTROL:
                return CONGESTION_CONTROL[cls]
        raise TclScriptError(f"{self}: no congestion control stands for {self.ns2_class}")

    def segment_size(self) -> int:
        """Payload bytes per segment: packetSize_, to which ns-2 adds the
        40-byte TCP/IP header, or without `useHeaders_` packetSize_ with
        the header in it."""
        size = self.integer("packetSize_")
        if self.flag("useHeaders_"):
            return size
        if size <= TCP_HEADER_BYTES:
            raise TclScriptError(
                f"{self} packetSize_ {size} with useHeaders_ false: "
                f"a packet must be larger than its {TCP_HEADER_BYTES}-byte header"
            )
        return size - TCP_HEADER_BYTES

    def bare_packet0(self) -> bool:
        """Whether packet 0 is data without the header bytes: ns-2 adds
        `useHeaders_`'s 40 bytes to every packet but packet 0 (tcp.cc's
        output), which is data when there is no SYN."""
        return self.flag("useHeaders_") and not self.opens_with_syn()

    def opens_with_syn(self) -> bool:
        """ns-2's syn_ and delay_growth_: both true, a SYN (packet 0) and
        windowInit_ once it is acknowledged; both false, no SYN and data
        from packet 0 on at windowInit_."""
        syn, growth = self.flag("syn_"), self.flag("delay_growth_")
        if syn != growth:
            raise TclScriptError(
                f"{self} syn_ {self.var('syn_')} with delay_growth_ "
                f"{self.var('delay_growth_')} is not supported: ackclock models both "
                "true (a SYN, then windowInit_) or both false (no SYN)"
            )
        return syn

    def windows(self) -> tuple[int, int]:
        """The initial window (windowInitOption_ 1: windowInit_; 2: 4, 3 or
        2 packets by packetSize_, ns-2's initial_window()) and the one after
        a lost SYN (ns-2 falls back to option 1, and with bugfix_ss_ from
        windowInit_ to one packet)."""
        option, static = self.integer("windowInitOption_"), self.integer("windowInit_")
        if option == 1:
            return static, 1 if self.flag("bugfix_ss_") and static > 1 else static
        if option == 2:
            size = self.integer("packetSize_")
            return (4 if size <= 1095 else 3 if size < 2190 else 2), static
        raise TclScriptError(f"{self} windowInitOption_ {option}: ns-2 has options 1 and 2")

    def params(self) -> TcpParams:
        from ackclock.tcl.registry import check_defaults

        check_defaults(self)
        mss = self.segment_size()
        window = int(self.number("window_"))
        initial_window, syn_loss_window = self.windows()
        qoption = self.integer("QOption_") != 0
        self.refuse_unless("QOption_", QOPTION_AGENTS)
        self.refuse_unless("control_increase_", CONTROL_INCREASE_AGENTS)
        return TcpParams(
            profile="ns2",
            cc=self.congestion_control(),
            cc_params=self.cc_params(),
            ns2_arithmetic=self.ns2_arithmetic(),
            sack=any(self.is_a(agent) for agent in SACK_AGENTS) or self.is_a("Agent/TCP/Linux"),
            mss=mss,
            max_window=window * mss,
            initial_ssthresh=window * mss,
            initial_window=initial_window,
            syn_loss_window=syn_loss_window,
            handshake=self.opens_with_syn(),
            first_fast_retransmit=self.flag("bugfix_ss_"),
            ns2_bare_packet0=self.bare_packet0(),
            dupack_threshold=self.dupack_threshold(),
            limited_transmit=self.flag("singledup_") and self.sends_on_early_dupacks(),
            ecn=self.ecn(),
            initial_rto=self.number("rtxcur_init_"),
            min_rto=self.number("minrto_"),
            min_rto_before_backoff=self.flag("rfc2988_"),
            restart_rto_before_sample=not self.flag("timerfix_"),
            ns2_qoption=qoption,
            # ns-2 reads EnblRTTCtr_ only with QOption_
            ns2_rtt_counter=qoption and self.integer("EnblRTTCtr_") != 0,
            max_rto=self.number("maxrto_"),
            clock_granularity=self.number("tcpTick_"),
            # a random double: to the clock's picosecond
            clock_phase=f"{round(self.boot_time * units.PS_PER_S)}ps",
            send_overhead=self.number("overhead_"),
            # ns-2 sends without a limit for maxburst_ 0 (or below)
            max_burst=max(self.integer("maxburst_"), 0) or None,
        )

    def refuse_unless(self, var: str, agents: tuple[str, ...]) -> None:
        """Refuses `var` set (non-zero) on other ns-2 classes than `agents`
        (ns-2's others send or open cwnd_ their own way)."""
        from ackclock.tcl.registry import NS2

        nearest = next(c for c in self.heritage if c in NS2)
        if self.integer(var) != 0 and nearest not in agents:
            raise TclScriptError(
                f"{self} {var} {self.var(var)} is not supported: ackclock models it for "
                f"{', '.join(agents)} only"
            )

    def cc_params(self) -> dict[str, float | bool] | None:
        """The ns-2 modules' parameters where the script leaves ns-2's
        defaults: whole-packet halving (precisionReduce_ false), a second
        fast retransmit within a window (bugFix_ false), cwnd_ opened only
        when the window was full (control_increase_ 1), and with ECN
        old_ecn_ 1 (the window grows on all but the first of consecutive
        ECN-Echo ACKs)."""
        ns2_defaults = {
            "precision_reduce": self.flag("precisionReduce_"),
            "bug_fix": self.flag("bugFix_"),
        }
        params: dict[str, float | bool] = {
            name: False for name, on in ns2_defaults.items() if not on
        }
        if self.integer("control_increase_") != 0:
            params["control_increase"] = True
        if self.ecn() and self.flag("old_ecn_"):
            params["old_ecn"] = True
        return params or None

    def ecn(self) -> bool:
        """ecn_: ns-2's ECN for the one-way agents whose reaction is tcp.cc's
        ecn() (the ns2 profile's ECN, docs/tcl.md)."""
        if not self.flag("ecn_"):
            return False
        if type(self) not in (TcpAgent, NewrenoAgent) or self.is_a("Agent/TCP/Fack"):
            raise TclScriptError(
                f"{self} ecn_ {self.var('ecn_')} is not supported: ackclock models ns-2's ECN "
                "for Agent/TCP, /Reno, /Newreno and /Sack1"
            )
        return True

    def dupack_threshold(self) -> int:
        """numdupacks_; with noFastRetrans_ (read by Agent/TCP's recv alone)
        a count never reached: no fast retransmit, only timeouts."""
        never = self.flag("noFastRetrans_") and self.congestion_control() == "ns2-tahoe"
        if not never:
            return self.integer("numdupacks_")
        if self.flag("singledup_"):
            raise TclScriptError(
                f"{self} noFastRetrans_ true with singledup_ 1 is not supported: ackclock "
                "sends limited transmit's segments up to numdupacks_ duplicate ACKs only "
                "while fast retransmit can follow"
            )
        return 2**32 - 1

    def ns2_arithmetic(self) -> bool | None:
        return None

    def sends_on_early_dupacks(self) -> bool:
        return True

    # What an application asks of it (Application/FTP's start, produce,
    # producemore, send and stop call these, as in ns-2).
    def cmd_send(self, nbytes: str) -> None:
        count = whole(nbytes, f"{self} send")
        self.world.tcp_write(self, None if count < 0 else self.payload_of(count))

    def payload_of(self, nbytes: int) -> int:
        """What `send nbytes` queues: ns-2's one-way agents send whole
        packets, nbytes / packetSize_ rounded up."""
        return math.ceil(nbytes / self.integer("packetSize_")) * self.segment_size()

    def data_bytes(self, payload: int, mss: int) -> int:
        """ns-2's ndatabytes_ for `payload` bytes sent: a one-way agent
        counts packetSize_ a data packet (its size before headers are
        added, with or without useHeaders_)."""
        return math.ceil(payload / mss) * self.integer("packetSize_")

    def cmd_advance(self, packets: str) -> None:
        self.world.tcp_advance(self, packet_count(packets, f"{self} advance"), relative=False)

    def cmd_advanceby(self, packets: str) -> None:
        self.world.tcp_advance(self, packet_count(packets, f"{self} advanceby"), relative=True)

    def cmd_close(self) -> None:
        """One-way TCP has no FIN: ns-2's close only stops new data."""
        self.world.tcp_stop(self)


class NewrenoAgent(TcpAgent):
    """ns-2's Agent/TCP/Newreno: the ns2-newreno module, with its own
    variables for the partial ACKs of a recovery."""

    variables = {
        "newreno_changes1_": Var(Kind.INT),
        "partial_window_deflation_": Var(Kind.INT),
        "exit_recovery_fix_": Var(Kind.INT),
    }

    def cc_params(self) -> dict[str, float | bool] | None:
        """TcpAgent's, and each of these variables the script set away from
        ns-2's default (the ns2-newreno parameter of the same name without
        the underscore): the timer restarted on every partial ACK
        (newreno_changes1_ 0), the inflation ended by one
        (partial_window_deflation_ 0), recovery ended at the packets out
        (exit_recovery_fix_ 1)."""
        from ackclock.tcl.registry import ns2_variables

        defaults = ns2_variables(self.ns2_class)
        params = super().cc_params() or {}
        for var in self.variables:
            on = self.integer(var) != 0
            if on != (int(defaults[var]) != 0):
                params[var.removesuffix("_")] = on
        return params or None


class FullTcp(TcpAgent):
    """ns-2's two-way TCP with SYN and FIN: ackclock's TCP with its
    handshake and ns-2's FullTcp conventions (`ns2_full_tcp`): the ACK of
    the SYN-ACK alone before the data, Nagle (nodelay_), segments of
    segsize_ bytes, each side acknowledging every full segment at once (or
    every second one with segsperack_ 2) and the rest at the next tick of
    its interval_ clock, no sending on the first duplicate ACKs. The
    passive side is the one `listen` was called on."""

    variables = {
        "segsize_": Var(Kind.INT),
        "segsperack_": Var(Kind.INT),
        "interval_": Var(Kind.TIME),
        # ns-2's FullTcp always opens with a SYN and sizes its own headers
        "syn_": Var(Kind.BOOL, ignored="FullTcp always opens with a SYN exchange"),
        "delay_growth_": Var(Kind.BOOL, ignored="FullTcp always opens with a SYN exchange"),
        "useHeaders_": Var(Kind.BOOL, ignored="FullTcp's segments are segsize_ bytes of data"),
        "nodelay_": Var(Kind.BOOL),
        "iss_": Var(Kind.INT),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.listening = False

    def cmd_listen(self) -> None:
        self.listening = True

    def connection(self) -> tuple[TcpFlow, bool] | None:
        """The connection this agent is an end of, once open, and whether
        it is the listening (server) end: the flow belongs to the side that
        opened it."""
        flow = self.flow()
        if flow is not None:
            return flow, False
        peer = self.peer
        if isinstance(peer, FullTcp) and (flow := peer.flow()) is not None:
            return flow, True
        return None

    def live(self, name: str) -> str | None:
        connection = self.connection()
        if connection is None:
            return super().live(name)
        flow, server = connection
        if name in ("ack_", "maxseq_", "t_seqno_"):
            # ns-2's passive side resets once its FIN is acknowledged.
            if server and flow.state(server=True) == "closed":
                return "0" if name == "t_seqno_" else "-1"
            # FullTcp counts sequence numbers in bytes from iss_, as on the wire.
            acked, sent = flow.sequence(server=server)
            return str(self.integer("iss_") + (acked if name == "ack_" else sent))
        if server:
            return None  # its other variables keep their values from before the run
        return super().live(name)

    def cmd_close(self) -> None:
        self.world.tcp_close(self)

    def sends_on_early_dupacks(self) -> bool:
        return False  # ns-2's FullTcp waits for numdupacks_ duplicate ACKs

    def segment_size(self) -> int:
        return self.integer("segsize_")

    def opens_with_syn(self) -> bool:
        return True

    def payload_of(self, nbytes: int) -> int:
        return nbytes  # FullTcp sends bytes

    def data_bytes(self, payload: int, mss: int) -> int:
        return payload

    def params(self) -> TcpParams:
        per_ack = self.integer("segsperack_")
        if per_ack not in (1, 2):
            raise TclScriptError(f"{self} segsperack_ {per_ack}: ackclock acknowledges 1 or 2")
        return dataclasses.replace(
            super().params(),
            ns2_full_tcp=True,
            iss=self.integer("iss_"),
            nagle=not self.flag("nodelay_"),
            delayed_ack=per_ack == 2,
            delayed_ack_timeout=self.number("interval_"),
        )

    def receiver_params(self, mss: int) -> TcpParams:
        return self.params()


class VegasAgent(TcpAgent):
    """ns-2's Agent/TCP/Vegas: the ns2-vegas module with v_alpha_, v_beta_
    and v_gamma_; its packets are packetSize_ bytes, headers included."""

    variables = {
        "v_alpha_": Var(Kind.REAL),
        "v_beta_": Var(Kind.REAL),
        "v_gamma_": Var(Kind.REAL),
    }

    def segment_size(self) -> int:
        return self.integer("packetSize_") - TCP_HEADER_BYTES

    def opens_with_syn(self) -> bool:
        if not (self.flag("syn_") and self.flag("delay_growth_")):
            raise TclScriptError(
                f"{self}: syn_ and delay_growth_ other than true are not modelled for Vegas"
            )
        return True

    def cc_params(self) -> dict[str, float | bool] | None:
        return {param: self.number(var) for var, param in VEGAS_PARAMS.items()}

    def sends_on_early_dupacks(self) -> bool:
        return False  # ns-2's Vegas sends nothing on the first duplicate ACKs


class LinuxAgent(TcpAgent):
    """ns-2's Agent/TCP/Linux (TCP-Linux): a Linux congestion-control module
    chosen with `select_ca`, with SACK and without ns-2's window arithmetic."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.linux_ca = "reno"

    def cmd_select_ca(self, name: str) -> None:
        if name not in LINUX_CA:
            raise TclScriptError(f"select_ca {name}: use one of {', '.join(LINUX_CA)}")
        self.linux_ca = name

    def congestion_control(self) -> str:
        return self.linux_ca

    def ns2_arithmetic(self) -> bool | None:
        return False


class TcpSink(Agent):
    counters = follows = frozenset({"bytes_"})
    variables = {
        "bytes_": Var(Kind.INT, live=True),
        "interval_": Var(Kind.TIME),
        # read by the DelAck sinks only (receiver_params)
        "SYN_immediate_ack_": Var(Kind.BOOL),
        "RFC2581_immediate_ack_": Var(Kind.BOOL),
    }

    def live(self, name: str) -> str | None:
        flows = [f for f in self.inbound if isinstance(f, TcpFlow)]
        if name != "bytes_" or not flows:
            return super().live(name)
        # ns-2 counts every in-order packet's size, headers included (the
        # payload is the agent's packetSize_ less them without useHeaders_,
        # and packet 0 without a SYN gets none), and the SYN once it arrived.
        total = 0
        for flow in flows:
            stats: Any = flow.stats()
            payload = stats["bytes_delivered"]
            packets = math.ceil(payload / flow.mss)
            syn = stats["server_state"] not in ("Listen", "Closed") and self.syn_from_peer()
            headers = packets + syn - (packets > 0 and self.bare_packet0_from_peer())
            total += payload + TCP_HEADER_BYTES * headers
        return str(total - self.counted.get(name, 0))

    def syn_from_peer(self) -> bool:
        peer = self.peer
        return not isinstance(peer, TcpAgent) or peer.opens_with_syn()

    def bare_packet0_from_peer(self) -> bool:
        peer = self.peer
        return isinstance(peer, TcpAgent) and peer.bare_packet0()

    def receiver_params(self, mss: int) -> TcpParams:
        """The sink's parameters; `mss` is its agent's segment size, the
        full-sized segment a delayed ACK counts."""
        from ackclock.tcl.registry import check_defaults

        check_defaults(self)
        delayed = self.is_a("Agent/TCPSink/DelAck") or self.is_a("Agent/TCPSink/Sack1/DelAck")
        peer = self.peer
        return TcpParams(
            profile="ns2",
            mss=mss,
            sack=self.is_a("Agent/TCPSink/Sack1"),
            # every ns-2 sink echoes ECN; it is on where its agent uses it
            ecn=isinstance(peer, TcpAgent) and peer.ecn(),
            delayed_ack=delayed,
            delayed_ack_timeout=self.number("interval_") if delayed else None,
            quickacks=self.immediate_first_acks() if delayed else None,
            # RFC2581_immediate_ack_ false: a segment that fills the first
            # of several gaps waits like any in-order one
            immediate_gap_ack=self.flag("RFC2581_immediate_ack_") if delayed else None,
        )

    def immediate_first_acks(self) -> int:
        """A DelAck sink acknowledges packet 0 at once with
        SYN_immediate_ack_ (the handshake does for a SYN; without one, the
        first data packet is acknowledged at once)."""
        syn = self.syn_from_peer()
        if self.flag("SYN_immediate_ack_"):
            return 0 if syn else 1
        if syn:
            raise TclScriptError(
                f"{self} SYN_immediate_ack_ false is not supported with its agent's syn_ "
                "true: ackclock's handshake answers the SYN at once"
            )
        return 0


class UdpAgent(Agent):
    """ns-2's Agent/UDP. Besides carrying a source's packets, `send NBYTES
    ?DATA?` sends NBYTES now in packetSize_ pieces to the connected agent;
    a packet with DATA calls that agent's `process_data FROM {DATA}` when it
    arrives (FROM: the sending node), as ns-2's UdpAgent::recv does. A TBF
    attached to it (`attach-tbf`) shapes its source's packets."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.messages: MessageFlow | None = None
        self.tbf: TbfObject | None = None

    def cmd_send(self, nbytes: str, data: str | None = None) -> None:
        count = whole(nbytes, f"{self} send")
        self.world.when_running(lambda: self.world.udp_send(self, count, data))

    def cmd_attach_tbf(self, tbf: str) -> None:
        """A token bucket between this agent and its node (ns-2's
        `attach-tbf`, which `$ns attach-tbf-agent` calls)."""
        self.tbf = self.world.shadow(tbf, TbfObject, "a TBF")


class TbfObject(Shadow):
    """ns-2.35's TBF (adc/tbf.cc): rate_ tokens (bits) per second, at most
    bucket_ of them (full at the first packet), at most qlen_ packets waiting
    for tokens (0: a policer). Shapes the UDP agent it is attached to."""

    variables = {
        "rate_": Var(Kind.BANDWIDTH),
        "bucket_": Var(Kind.INT),
        "qlen_": Var(Kind.INT),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        # shaping a started source, which took its variables
        self.shaping = False

    def shape(self, flow: Flow) -> None:
        rate, bucket, qlen = self.number("rate_"), self.integer("bucket_"), self.integer("qlen_")
        for var, value, least in (("rate_", rate, 1), ("bucket_", bucket, 0), ("qlen_", qlen, 0)):
            if value < least:
                raise TclScriptError(f"{self} {var} {value:g}: must be at least {least}")
        flow.shape(specs.TokenBucket(rate=rate, bucket_bits=bucket, limit=qlen))
        self.shaping = True

    def taken(self) -> str:
        return "its agent's source started" if self.shaping else ""

    # ns-2's plumbing (attach-tbf wires it): the agent's packets pass through it.
    def cmd_target(self, *args: str) -> str:
        return ""

    def cmd_drop_target(self, *args: str) -> str:
        return ""


class PingAgent(Agent):
    """ns-2's Agent/Ping: `send` sends an echo request of packetSize_ bytes
    to the Ping agent it is connected to, which answers; when the answer
    arrives the agent calls the script's `recv FROM RTT` (FROM the
    answering node, RTT in milliseconds printed as ns-2 prints it, %3.1f)."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.echo: EchoFlow | None = None

    def cmd_send(self) -> None:
        self.world.when_running(lambda: self.world.ping(self))

    def cmd_oneway(self) -> None:
        raise TclScriptError(f"{self} oneway: one-way ping delays are not modelled")

    def cmd_start_WL_brdcast(self) -> None:
        raise TclScriptError(f"{self} start-WL-brdcast: broadcast pings are not modelled")


class UdpSink(Agent):
    """Agent/Null and Agent/LossMonitor."""

    counters = follows = frozenset({"npkts_", "bytes_"})

    variables = {
        "npkts_": Var(Kind.INT, live=True),
        "bytes_": Var(Kind.INT, live=True),
        "nlost_": Var(Kind.INT, live=True),
        "lastPktTime_": Var(Kind.REAL, live=True),
        "expected_": Var(Kind.INT, live=True),
    }

    def live(self, name: str) -> str | None:
        flows = self.inbound
        if name not in ("npkts_", "bytes_", "nlost_") or not flows:
            return super().live(name)
        if name == "nlost_":
            return "0"
        key = "rx_packets" if name == "npkts_" else "rx_bytes"
        total = sum(flow.stats()[key] for flow in flows)  # type: ignore[literal-required]
        return str(total - self.counted.get(name, 0))

    def cmd_clear(self) -> None:
        raise TclScriptError(f"{self} clear: resetting a LossMonitor's counters is not supported")
