"""`set ns [new Simulator]`: the commands of ns-2's Simulator object."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ackclock.tcl.dynamics import links_of
from ackclock.tcl.errors import NestedTclError, TclScriptError
from ackclock.tcl.links import ErrorModelObject
from ackclock.tcl.shadow import Shadow, ns2_real, whole
from ackclock.tcl.wireless import WirelessCommands

if TYPE_CHECKING:
    from ackclock.tcl.world import World


# "150.0.0001": a number with a fraction appended to it (ns-2 reads 150.0).
_APPENDED_FRACTION = re.compile(r"(\d+\.\d*)\.\d+")


class SimulatorObject(WirelessCommands, Shadow):
    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        if world.simulator is not None:
            raise TclScriptError("a script may create only one Simulator")
        world.simulator = self
        self.next_event = 0
        self.cancelled: set[int] = set()

    # --- topology -----------------------------------------------------------

    def cmd_node(self, *address: str) -> str:
        wireless = self.world.wireless.wireless_nodes()
        return self.world.tcl.call("new", "Node/MobileNode" if wireless else "Node", *address)

    def cmd_simplex_link(self, a: str, b: str, bandwidth: str, delay: str, queue: str) -> None:
        self._link(a, b, bandwidth, delay, queue)

    def cmd_duplex_link(self, a: str, b: str, bandwidth: str, delay: str, queue: str) -> None:
        self._link(a, b, bandwidth, delay, queue)
        self._link(b, a, bandwidth, delay, queue)

    def _link(self, a: str, b: str, bandwidth: str, delay: str, queue: str) -> str:
        from ackclock.tcl.registry import queue_types  # the registry imports this module

        kind = queue.removeprefix("Queue/")
        if kind not in queue_types():
            raise TclScriptError(
                f"queue type {queue!r} is not supported (supported: {', '.join(queue_types())})"
            )
        src, dst = self.world.node(a), self.world.node(b)
        if src is dst:
            raise TclScriptError(f"a link needs two different nodes, got node {src.id} twice")
        q = self.world.tcl.call("new", f"Queue/{kind}")
        return self.world.tcl.call("new", "SimpleLink", a, b, bandwidth, delay, q)

    def cmd_link(self, a: str, b: str) -> str:
        return self.world.link(self.world.node(a), self.world.node(b)).name

    def cmd_queue_limit(self, a: str, b: str, limit: str) -> None:
        link = self.world.link(self.world.node(a), self.world.node(b))
        self.world.unbuilt("queue limits")
        self.world.tcl.call(link.queue.name, "set", "limit_", limit)

    def cmd_duplex_link_op(self, a: str, b: str, op: str, *args: str) -> None:
        self._link_op(a, b, op, args, duplex=True)

    def cmd_simplex_link_op(self, a: str, b: str, op: str, *args: str) -> None:
        self._link_op(a, b, op, args, duplex=False)

    def _link_op(self, a: str, b: str, op: str, args: tuple[str, ...], duplex: bool) -> None:
        """nam's drawing hints: orient and queuePos are written to the nam
        trace; colour, label and the rest are accepted."""
        src, dst = self.world.node(a), self.world.node(b)
        self.world.link(src, dst)
        if op == "orient" and args:
            self.world.nam.orient[(src.id, dst.id)] = args[0]
        elif op == "queuePos" and args:
            # ns-2 writes the reverse direction's line first, at the same position
            if duplex:
                self.world.nam.queue_positions.append((dst.id, src.id, args[0]))
            self.world.nam.queue_positions.append((src.id, dst.id, args[0]))
        elif op not in ("color", "label", "label-color", "label-at", "dynamics", "add-annotation"):
            raise TclScriptError(
                f"duplex-link-op {op}: supported are orient, queuePos, color, label, label-color, "
                "label-at"
            )

    def cmd_color(self, fid: str, color: str) -> None:
        self.world.nam.colors.append((whole(fid, "color"), color))

    def cmd_lossmodel(self, model: str, a: str, b: str) -> None:
        """The error model at the head of the link, before its queue."""
        self._loss(model, a, b, "errormodule")

    def cmd_link_lossmodel(self, model: str, a: str, b: str) -> None:
        """The error model on the link, after its queue."""
        self._loss(model, a, b, "insert-linkloss")

    def _loss(self, model: str, a: str, b: str, command: str) -> None:
        self.world.shadow(model, ErrorModelObject, "an ErrorModel")
        link = self.world.link(self.world.node(a), self.world.node(b))
        self.world.tcl.call(link.name, command, model)

    def cmd_rtproto(self, protocol: str, *nodes: str) -> None:
        self.world.unbuilt("routing")
        self.world.dynamics.rtproto(protocol, [self.world.node(n) for n in nodes])

    def cmd_rtmodel(self, model: str, parameters: str, *nodes: str) -> str:
        self.world.unbuilt("link failures")
        links = links_of(self.world, [self.world.node(n) for n in nodes])
        self.world.dynamics.rtmodel(model, self.world.tcl.split(parameters), links)
        return ""

    def cmd_rtmodel_at(self, at: str, op: str, *nodes: str) -> None:
        self.world.unbuilt("link changes")
        links = links_of(self.world, [self.world.node(n) for n in nodes])
        self.world.dynamics.rtmodel_at(at, op, links)

    def cmd_set_address_format(self, *args: str) -> None:
        """Addresses do not change routing in ackclock: flat, def, expanded
        and hierarchical are accepted; `$ns node ADDR` keeps the address."""
        if args and args[0] not in ("def", "expanded", "hierarchical", "flat"):
            raise TclScriptError(f"set-address-format {args[0]}: use def, expanded or hierarchical")

    def cmd_make_lan(self, *args: str) -> str:
        """`$ns make-lan ?-trace on|off? "NODES" BW DELAY ?LL? ?IFQ? ?MAC?
        ?CHANNEL? ?PHY? ?IFQLEN?` (ns-2's order; -trace is the 802.3 MAC's)."""
        trace = {}
        if args[:1] == ("-trace",):
            trace = {"mactrace": args[1] if len(args) > 1 else ""}
            args = args[2:]
        if len(args) < 3:
            raise TclScriptError('make-lan: give "NODES" BANDWIDTH DELAY')
        names = ("llType", "ifqType", "macType", "chanType", "phyType", "ifqLen")
        return self._lan(args[0], args[1], args[2], {**dict(zip(names, args[3:])), **trace})

    def cmd_newLan(self, nodes: str, bandwidth: str, delay: str, *options: str) -> str:
        """`$ns newLan NODES BW DELAY -llType LL -ifqType ... -macType ...`."""
        if len(options) % 2:
            raise TclScriptError(f"newLan: option {options[-1]} has no value")
        parts = {options[i].lstrip("-"): options[i + 1] for i in range(0, len(options), 2)}
        return self._lan(nodes, bandwidth, delay, parts)

    def _lan(self, nodes: str, bandwidth: str, delay: str, parts: dict[str, str]) -> str:
        from ackclock.tcl.lan import LanNodeObject

        self.world.unbuilt("LANs")
        members = [self.world.node(n) for n in self.world.tcl.split(nodes)]
        lan = self.world.shadow(self.world.tcl.call("new", "LanNode"), LanNodeObject, "a LAN")
        lan.join(members, bandwidth, delay, parts)
        return lan.name

    def cmd_multicast(self, *args: str) -> None:
        raise TclScriptError("multicast is not implemented")

    # --- agents ---------------------------------------------------------------

    def cmd_attach_agent(self, node: str, agent: str) -> None:
        self.world.attach(self.world.node(node), self.world.agent(agent))

    def cmd_attach_tbf_agent(self, node: str, agent: str, tbf: str) -> None:
        self.cmd_attach_agent(node, agent)
        self.world.tcl.call(agent, "attach-tbf", tbf)

    def cmd_detach_agent(self, node: str, agent: str) -> None:
        self.world.detach(self.world.agent(agent))

    def cmd_connect(self, src: str, dst: str) -> str:
        a, b = self.world.agent(src), self.world.agent(dst)
        a.peer, b.peer = b, a
        return src

    def cmd_simplex_connect(self, src: str, dst: str) -> str:
        a, b = self.world.agent(src), self.world.agent(dst)
        a.peer = b
        return src

    def cmd_create_connection(
        self, src_type: str, src: str, dst_type: str, dst: str, fid: str
    ) -> str:
        """ns-2's shortcut: two agents, attached and connected; returns the source."""
        agents = self._connection(src_type, src, dst_type, dst, fid)
        return agents[0]

    def cmd_create_connection_list(
        self, src_type: str, src: str, dst_type: str, dst: str, fid: str
    ) -> str:
        return " ".join(self._connection(src_type, src, dst_type, dst, fid))

    def _connection(self, src_type: str, src: str, dst_type: str, dst: str, fid: str) -> list[str]:
        agents = []
        for kind, node in ((src_type, src), (dst_type, dst)):
            agent = self.world.tcl.call("new", f"Agent/{kind}")
            self.cmd_attach_agent(node, agent)
            agents.append(agent)
        self.world.tcl.call(agents[0], "set", "fid_", fid)
        self.cmd_connect(*agents)
        return agents

    # --- time -------------------------------------------------------------------

    def cmd_at(self, time: str, script: str, where: str = "") -> int:
        """Runs `script` in the global scope at `time`; returns an event id
        for `cancel`. `where`: the script's file and line (ns2.tcl's `at`)."""
        at_ps = self._time(time)
        site = self.world.tcl.split(where)
        return self._schedule(at_ps, script, (site[0], int(site[1])) if len(site) == 2 else None)

    def cmd_at_now(self, script: str) -> int:
        return self._schedule(self.world.now_ps(), script)

    def cmd_after(self, delay: str, script: str) -> int:
        return self._schedule(self.world.now_ps() + self._time(delay), script)

    def _schedule(self, at_ps: int, script: str, site: tuple[str, int] | None = None) -> int:
        self.next_event += 1
        event = self.next_event

        def run() -> None:
            if event in self.cancelled:
                return
            try:
                self.world.run_script(script)
            except NestedTclError as error:
                if error.site is None:
                    error.site = site
                raise

        self.world.at(at_ps, run)
        return event

    def cmd_cancel(self, event: str) -> None:
        self.cancelled.add(whole(event, "cancel"))

    def _time(self, text: str) -> int:
        """A time `$ns at` takes: seconds, as a number. ns-2 reads it with C's
        atof, so scripts' `$opt(stop).0001` (150.0.0001 with stop 150.0) is
        150.0; that idiom is taken, other trailing text is refused."""
        idiom = _APPENDED_FRACTION.fullmatch(text)
        try:
            seconds = float(idiom.group(1) if idiom else text)
        except ValueError:
            raise TclScriptError(f"{text!r} is not a time in seconds") from None
        if not seconds >= 0 or seconds == float("inf"):
            raise TclScriptError(f"time {text!r} must be a finite number of seconds, 0 or more")
        return round(seconds * 1e12)

    def cmd_now(self) -> str:
        return ns2_real(self.world.now_s())

    def cmd_run(self) -> None:
        self.world.run()

    def cmd_halt(self) -> None:
        self.world.halt()

    def cmd_is_started(self) -> int:
        return int(self.world.sim is not None)

    def cmd_use_scheduler(self, *args: str) -> None:
        """ackclock has one scheduler; every choice behaves the same."""

    def cmd_delay_parse(self, text: str) -> str:
        return self.world.tcl.call("time_parse", text)

    def cmd_bw_parse(self, text: str) -> str:
        return self.world.tcl.call("bw_parse", text)

    # --- lookups ------------------------------------------------------------------

    def cmd_get_node_by_id(self, node_id: str) -> str:
        try:
            return self.world.nodes[int(node_id)].name
        except (ValueError, IndexError):
            raise TclScriptError(f"there is no node {node_id}") from None

    def cmd_get_number_of_nodes(self) -> int:
        return len(self.world.nodes)

    def cmd_all_nodes_list(self) -> str:
        return " ".join(n.name for n in self.world.nodes)

    def cmd_get_ns_traceall(self) -> str:
        return self.world.trace_all[-1] if self.world.trace_all else ""

    def cmd_get_nam_traceall(self) -> str:
        return self.world.nam.channels[-1] if self.world.nam.channels else ""

    # --- traces -------------------------------------------------------------------

    def cmd_trace_all(self, channel: str) -> None:
        self.world.unbuilt("traces")
        self.world.channels.require_writable(channel)
        self.world.trace_all.append(channel)

    def cmd_eventtrace_all(self, *channel: str) -> None:
        """ns-2's event trace: the TCP agents created from now on write their
        timeouts, fast retransmits and slow starts (E lines) into `channel`,
        or the trace-all file."""
        self.world.unbuilt("the event trace")
        target = channel[0] if channel else self.cmd_get_ns_traceall()
        if not target:
            raise TclScriptError("eventtrace-all: give a channel (or call trace-all first)")
        self.world.channels.require_writable(target)
        self.world.event_trace = target

    def cmd_namtrace_all(self, channel: str) -> None:
        self.world.unbuilt("traces")
        self.world.channels.require_writable(channel)
        self.world.nam.channels.append(channel)

    def cmd_namtrace_config(self, channel: str) -> None:
        raise TclScriptError(
            "namtrace-config: a nam file of configuration lines alone (nodes, links, colours, "
            "annotations; packets only from namtrace-queue) is not modelled; namtrace-all "
            "writes both"
        )

    def cmd_trace_queue(self, a: str, b: str, *channel: str) -> None:
        link = self.world.link(self.world.node(a), self.world.node(b))
        target = channel[0] if channel else self.cmd_get_ns_traceall()
        if not target:
            raise TclScriptError("trace-queue: give a channel (or call trace-all first)")
        self.world.trace_link(link, target)

    def cmd_namtrace_queue(self, a: str, b: str, *channel: str) -> None:
        """The queue's packets in the nam trace: every link is in it already."""
        self.world.link(self.world.node(a), self.world.node(b))

    def cmd_flush_trace(self) -> None:
        """Records are written whenever the run pauses; nothing is pending here."""

    def cmd_trace_annotate(self, text: str) -> None:
        self.world.annotate(text)

    def cmd_set_animation_rate(self, rate: str) -> None:
        step = self.world.tcl.call("time_parse", rate)
        self.world.nam_line(f"v -t {self.cmd_now()} set_rate_ext {step} 1")

    def cmd_puts_ns_traceall(self, text: str) -> None:
        for channel in self.world.trace_all:
            self.world.write_line(channel, text)

    def cmd_puts_nam_traceall(self, text: str) -> None:
        self.world.nam_line(text)

    def cmd_monitor_queue(self, a: str, b: str, qtrace: str, interval: str = "0.1") -> str:
        link = self.world.link(self.world.node(a), self.world.node(b))
        return self.world.tcl.call(link.name, "init-monitor", self.name, qtrace, interval)

    def cmd_delay(self, a: str, b: str, *delay: str) -> str:
        """A link's delay (ns-2's `$ns delay n1 n2 ?delay?`)."""
        link = self.world.link(self.world.node(a), self.world.node(b))
        if delay:
            self.world.unbuilt("link delays")
            link.set_delay(delay[0])
        return ns2_real(link.delay_s)

    def cmd_bandwidth(self, a: str, b: str, *bandwidth: str) -> str:
        link = self.world.link(self.world.node(a), self.world.node(b))
        if bandwidth:
            self.world.unbuilt("link bandwidths")
            link.set_bandwidth(bandwidth[0])
        return ns2_real(link.bandwidth_bps)

    def cmd_makeflowmon(self, kind: str, *args: str) -> str:
        if kind not in ("Fid", "SrcDestFid", "SrcDest", "Dest"):
            raise TclScriptError(f"makeflowmon {kind}: supported are Fid, SrcDestFid, SrcDest")
        return self.world.tcl.call("new", "QueueMonitor/ED/Flowmon", kind)

    def cmd_attach_fmon(self, link: str, monitor: str, edrop: str = "0") -> None:
        """With `edrop` other than 0, RED's early drops reach the monitor
        apart (epdrops_, ebdrops_; still among its drops), as in ns-2."""
        from ackclock.tcl.monitors import QueueMonitor

        self.world.tcl.call(link, "attach-monitors", "", "", "", monitor)
        fmon = self.world.shadow(monitor, QueueMonitor, "a QueueMonitor")
        fmon.early = edrop != "0"

    def cmd_instance(self) -> str:
        return self.name

    def cmd_nullagent(self) -> str:
        return ""
