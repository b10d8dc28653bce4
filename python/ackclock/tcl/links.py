"""ns-2's links and what sits on them: SimpleLink (`$ns link $a $b`),
queues, error models and the error module, and monitors."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ackclock import specs
from ackclock.specs import LossPosition
from ackclock.tcl import ns2_units
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Kind, Shadow, Var, ns2_real, parse_bool, whole

if TYPE_CHECKING:
    from ackclock.handles import Flow, Link
    from ackclock.simulator import Simulator
    from ackclock.tcl.nodes import NodeObject
    from ackclock.tcl.world import World


class LinkObject(Shadow):
    """One direction of a link (`new SimpleLink SRC DST BW DELAY QUEUE`, as
    `$ns simplex-link` and `duplex-link` make them)."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        if len(args) < 5:
            raise TclScriptError("new SimpleLink: give SRC DST BANDWIDTH DELAY QUEUE")
        self.src: NodeObject = world.node(args[0])
        self.dst: NodeObject = world.node(args[1])
        self.set_bandwidth(args[2])
        self.set_delay(args[3])
        self.queue: QueueObject = world.shadow(args[4], QueueObject, "a queue")
        self.queue.attach(self)
        self.losses: list[tuple[ErrorModelObject | ErrorModule, LossPosition]] = []
        # each core loss model with the flow ids it takes (or all but those)
        self.loss_filters: list[tuple[int, set[int], bool]] = []
        self.handle: Link | None = None
        self.dynamic = False
        for var, value in (
            ("fromNode_", self.src.name),
            ("toNode_", self.dst.name),
            ("queue_", self.queue.name),
        ):
            self.set_var(var, value)
        world.add_link(self)

    def set_bandwidth(self, text: str) -> None:
        self.bandwidth_bps = ns2_units.bandwidth_bps(text, "bandwidth")
        self.set_var("bandwidth_", ns2_real(self.bandwidth_bps))

    def set_delay(self, text: str) -> None:
        self.delay_ps = ns2_units.duration_ps(text, "delay")
        # the double ns-2 computes, which its nam trace prints
        self.delay_s = ns2_units.seconds(text, "delay")
        self.set_var("delay_", ns2_real(self.delay_s))

    def cmd_src(self) -> str:
        return self.src.name

    def cmd_dst(self) -> str:
        return self.dst.name

    def cmd_queue(self) -> str:
        return self.queue.name

    def cmd_bw(self) -> str:
        return ns2_real(self.bandwidth_bps)

    def cmd_delay(self) -> str:
        return ns2_real(self.delay_s)

    def cmd_qsize(self) -> int:
        return self.queue.integer("limit_")

    def cmd_cost(self, cost: str) -> None:
        self.set_var("cost_", cost)

    def cmd_cost_(self) -> str:
        return self.world.tcl.get(f"{self.namespace}::cost_") or "1"

    def cmd_link(self) -> str:
        """ns-2's delay element of the link; its bandwidth_ and delay_ are
        the link's own here."""
        return self.name

    def cmd_up_(self) -> str:
        return "up"

    def cmd_errormodule(self, *model: str) -> str:
        """The error model or module at the link's head, before the queue."""
        return self._loss(model, "queue")

    def cmd_insert_linkloss(self, *model: str) -> str:
        """The error model after the queue, on the wire."""
        return self._loss(model, "wire")

    def cmd_install_error(self, model: str) -> None:
        self._loss((model,), "wire")

    def _loss(self, model: tuple[str, ...], position: LossPosition) -> str:
        if not model:
            current = [em.name for em, p in self.losses if p == position]
            return current[-1] if current else ""
        self.world.unbuilt("error models")
        em = self.world.shadows.get(model[0])
        if not isinstance(em, (ErrorModelObject, ErrorModule)):
            raise TclScriptError(f"{model[0]!r} is not an ErrorModel or ErrorModule")
        self.losses = [(m, p) for m, p in self.losses if p != position] + [(em, position)]
        return em.name

    def cmd_trace(self, ns: str, channel: str, *op: str) -> None:
        self.world.trace_link(self, channel)

    def cmd_nam_trace(self, ns: str, channel: str) -> None: ...

    def cmd_trace_dynamics(self, ns: str, channel: str, op: str = "") -> None:
        """The link's up and down records into `channel`, in ns-2's trace
        format or (op "nam") nam's."""
        self.world.unbuilt("traces")
        self.world.channels.require_writable(channel)
        self.world.dynamics_traces.append((self, channel, op == "nam"))

    def cmd_dynamic(self) -> None:
        self.dynamic = True

    def cmd_attach_monitors(self, insnoop: str, outsnoop: str, dropsnoop: str, qmon: str) -> None:
        from ackclock.tcl.monitors import QueueMonitor

        self.world.shadow(qmon, QueueMonitor, "a QueueMonitor").attach(self)
        self.set_var("qMonitor_", qmon)

    def install_losses(self) -> None:
        """Puts the link's error models into the core: the one at the head
        before the queue, then the one on the wire."""
        assert self.handle is not None
        order = sorted(self.losses, key=lambda entry: entry[1] != "queue")
        for em, position in order:
            if isinstance(em, ErrorModule):
                for model, fids, all_but in em.parts():
                    flows = self.world.flows_with_fids(fids)
                    index = self.handle.add_loss(model.spec(position), flows, all_but)
                    self.loss_filters.append((index, fids, all_but))
                    model.installed = True
            else:
                self.handle.add_loss(em.spec(position))
                em.installed = True

    def flow_started(self, flow: Flow, fid: int) -> None:
        """A new flow: the error modules that pick models by flow id learn it."""
        assert self.handle is not None
        for index, fids, _ in self.loss_filters:
            if fid in fids:
                self.handle.add_loss_flow(index, flow)


class QueueObject(Shadow):
    """A link direction's queue; each kind of queue says how it becomes a
    queue of the core (`spec`)."""

    variables = {
        "limit_": Var(Kind.INT),
        "curq_": Var(Kind.INT, live=True),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.link: LinkObject | None = None

    def attach(self, link: LinkObject) -> None:
        """The queue becomes `link`'s."""
        self.link = link

    def spec(self) -> specs.Queue:
        raise NotImplementedError  # every queue class the registry maps overrides it

    def taken(self) -> str:
        return "the network was built" if self.link is not None and self.link.handle else ""

    def live(self, name: str) -> str | None:
        if self.link is None or self.link.handle is None:
            return None
        packets, size, _ = self.link.handle.queue_now()
        return str(packets) if name == "curq_" else None

    # ns-2's queue plumbing: the link wires these itself.
    def cmd_target(self, *args: str) -> str:
        return ""

    def cmd_drop_target(self, *args: str) -> str:
        return ""

    def cmd_reset(self) -> None: ...


class Ns2Queue(QueueObject):
    """ns-2.35's own queues: Queue/DropTail, and Queue/RED (ns-2.35's RED, with its automatic
    parameters: q_weight_ 0, -1 or -2, thresh_ and maxthresh_ 0)."""

    # the variables `$redq trace` follows (red.cc traces these two lines)
    TRACEABLE = ("curq_", "ave_")

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.traced: set[str] = set()
        self.trace_channel: str | None = None

    variables = {
        "thresh_": Var(Kind.REAL),
        "maxthresh_": Var(Kind.REAL),
        "q_weight_": Var(Kind.REAL),
        "linterm_": Var(Kind.REAL),
        "gentle_": Var(Kind.BOOL),
        "setbit_": Var(Kind.BOOL),
        "mean_pktsize_": Var(Kind.INT),
        "bytes_": Var(Kind.BOOL),
        "queue_in_bytes_": Var(Kind.BOOL),
        "wait_": Var(Kind.BOOL),
        "use_mark_p_": Var(Kind.BOOL),
        "mark_p_": Var(Kind.REAL),
        "targetdelay_": Var(Kind.TIME),
        "ave_": Var(Kind.REAL, live=True),
        "cur_max_p_": Var(Kind.REAL, live=True),
        "ns1_compat_": Var(Kind.BOOL),
        # RED's forced-drop victim; DropTail's drop_front_ is refused in spec()
        "drop_front_": Var(Kind.BOOL),
        "drop_rand_": Var(Kind.BOOL),
        "drop_tail_": Var(
            Kind.BOOL, ignored="ns-2 drops the arrival unless drop_front_ or drop_rand_"
        ),
        "summarystats_": Var(Kind.BOOL),
        "debug_": Var(Kind.BOOL, ignored="no debugging output"),
        "thresh_queue_": Var(Kind.REAL, ignored="ns-2 derives it from thresh_"),
        "maxthresh_queue_": Var(Kind.REAL, ignored="ns-2 derives it from maxthresh_"),
        "idle_pktsize_": Var(Kind.INT, ignored="ns-2 only uses it with cautious_ 3"),
        "interval_": Var(Kind.REAL, ignored="adaptive RED only (adaptive_ 0)"),
        "alpha_": Var(Kind.REAL, ignored="adaptive RED only (adaptive_ 0)"),
        "beta_": Var(Kind.REAL, ignored="adaptive RED only (adaptive_ 0)"),
        "top_": Var(Kind.REAL, ignored="adaptive RED only (adaptive_ 0)"),
        "bottom_": Var(Kind.REAL, ignored="adaptive RED only (adaptive_ 0)"),
    }

    def spec(self) -> specs.Queue:
        from ackclock.tcl.registry import check_defaults

        check_defaults(self)
        limit = self.integer("limit_")
        if self.ns2_class == "Queue/DropTail":
            if self.flag("drop_front_"):
                raise TclScriptError(
                    f"{self} drop_front_ true is not supported: ackclock does not model "
                    "Queue/DropTail's drop_front_ (only ns-2's default false)"
                )
            return specs.DropTail(limit=limit, ns2_limit=True)
        assert self.link is not None
        return self._red(limit, self.link)

    def _red(self, limit: int, link: LinkObject) -> specs.Queue:
        """ns-2.35's RED (red.cc's initialization): a weight of 0, -1 or -2
        and thresholds of 0 are computed from the link; with queue_in_bytes_
        the thresholds and limit are in mean_pktsize_ bytes."""
        mean = self.integer("mean_pktsize_")
        ptc = link.bandwidth_bps / (8.0 * mean)  # mean-sized packets per second
        weight = self.number("q_weight_")
        if weight == 0:
            weight = 1 - math.exp(-1 / ptc)
        elif weight == -1:
            rtt = max(0.1, 3 * (link.delay_s + 1 / ptc))
            weight = 1 - math.exp(-1 / (10 * rtt * ptc))
        elif weight == -2:
            weight = 1 - math.exp(-10 / ptc)
        min_th = self.number("thresh_") or max(5.0, self.number("targetdelay_") * ptc / 2)
        max_th = self.number("maxthresh_") or 3 * min_th
        in_bytes = self.flag("queue_in_bytes_")
        scale = mean if in_bytes else 1
        return specs.RED(
            limit=limit * scale,
            unit="bytes" if in_bytes else "packets",
            min_th=min_th * scale,
            max_th=max_th * scale,
            max_p=1 / self.number("linterm_"),
            weight=weight,
            gentle=self.flag("gentle_"),
            ecn=self.flag("setbit_"),
            mean_packet_size=mean,
            wait=self.flag("wait_"),
            byte_mode=self.flag("bytes_"),
            mark_p=self.mark_limit() if self.flag("use_mark_p_") else None,
            ns2=True,
            ns1_compat=self.flag("ns1_compat_"),
            # red.cc looks at drop_front_ first; drop_tail_ is the fallback
            victim="front"
            if self.flag("drop_front_")
            else "random"
            if self.flag("drop_rand_")
            else "arrival",
        )

    def mark_limit(self) -> float:
        """ns-2 2.35 marks while the probability is below mark_p_ (strictly;
        beyond the ramp it is 1, marked only for a mark_p_ above 1); the
        core marks while it is at most its mark_p: the next double down."""
        limit = self.number("mark_p_")
        return 1.0 if limit > 1.0 else math.nextafter(max(limit, 0.0), 0.0)

    def cmd_trace(self, var: str) -> None:
        """`$redq trace VAR`: lines for VAR's changes in the attached file."""
        self.world.unbuilt("RED traces")
        if not self.is_a("Queue/RED"):
            raise TclScriptError(f"{self} trace {var}: only RED queues have traced variables")
        if var not in self.TRACEABLE:
            raise TclScriptError(
                f"{self} trace {var}: ackclock traces RED's curq_ and ave_ (not prob_ or "
                "cur_max_p_)"
            )
        self.traced.add(var)

    def cmd_attach(self, channel: str) -> None:
        self.world.unbuilt("RED traces")
        self.world.channels.require_writable(channel)
        self.trace_channel = channel

    def trace_red(self, sim: Simulator) -> int | None:
        """The core's trace of the variables the script traces, if any."""
        if self.trace_channel is None or not self.traced or self.link is None:
            return None
        assert self.link.handle is not None
        return sim.trace_red(
            self.world.channels.require_writable(self.trace_channel),
            self.link.handle,
            queue="curq_" in self.traced,
            average="ave_" in self.traced,
            append=True,
        )

    def cmd_printstats(self) -> None:
        """ns-2's print_summarystats: the queue's time average since the
        start, in packets or (queue_in_bytes_) bytes, and the time; zeros
        unless summarystats_ was set, as ns-2 keeps the average only then."""
        in_bytes = self.flag("queue_in_bytes_")
        average, time = 0.0, 0.0
        if self.flag("summarystats_") and self.link is not None and self.link.handle is not None:
            stats = self.link.handle.stats()
            average = stats["mean_queue_bytes" if in_bytes else "mean_queue_packets"]
            time = self.world.now_s()
        unit = " (in bytes)" if in_bytes else ""
        self.world.c_print(f"True average queue: {average:5.3f}{unit} time: {time:5.3f}")

    def live(self, name: str) -> str | None:
        if self.link is None or self.link.handle is None:
            return None
        packets, size, average = self.link.handle.queue_now()
        if name == "curq_":
            return str(size if self.flag("queue_in_bytes_") else packets)
        if name == "ave_" and average is not None:
            return format(average, "g")  # a TracedDouble in ns-2
        if name == "cur_max_p_":
            return ns2_real(1 / self.number("linterm_"))
        return None


class CoDelQueue(QueueObject):
    """Queue/CoDel (RFC 8289), as the CoDel patch for ns-2 names it (ns-2.35
    itself has no CoDel): target_ and interval_ in seconds, maxpacket_ the
    MTU below which the queue is never standing, setbit_ to mark with ECN."""

    variables = {
        "target_": Var(Kind.TIME),
        "interval_": Var(Kind.TIME),
        "maxpacket_": Var(Kind.INT),
        "setbit_": Var(Kind.BOOL),
    }

    def spec(self) -> specs.Queue:
        return specs.CoDel(limit=self.integer("limit_"), **self.control_law())

    def control_law(self) -> dict[str, Any]:
        """CoDel's parameters from the script's variables."""
        return {
            "target": self.number("target_"),
            "interval": self.number("interval_"),
            "mtu": self.integer("maxpacket_"),
            "ecn": self.flag("setbit_"),
        }


class FqCoDelQueue(CoDelQueue):
    """Queue/FQ-CoDel (RFC 8290; ns-2.35 has none): CoDel's variables plus
    flows_ queues served quantum_ bytes a turn; limit_ counts all queues."""

    variables = {
        "flows_": Var(Kind.INT),
        "quantum_": Var(Kind.INT),
    }

    def spec(self) -> specs.Queue:
        return specs.FQCoDel(
            limit=self.integer("limit_"),
            flows=self.integer("flows_"),
            quantum=self.integer("quantum_"),
            **self.control_law(),
        )


class PieQueue(QueueObject):
    """Queue/PIE (RFC 8033), as the PIE patch for ns-2 names it (ns-2.35
    itself has no PIE): qdelay_ref_ the target delay, tUpdate_ the update
    period, a_ and b_ the controller's gains, max_burst_, mean_pktsize_,
    setbit_ to mark with ECN while the probability is at most mark_p_."""

    variables = {
        "qdelay_ref_": Var(Kind.TIME),
        "tUpdate_": Var(Kind.TIME),
        "a_": Var(Kind.REAL),
        "b_": Var(Kind.REAL),
        "max_burst_": Var(Kind.TIME),
        "mean_pktsize_": Var(Kind.INT),
        "setbit_": Var(Kind.BOOL),
        "mark_p_": Var(Kind.REAL),
    }

    def spec(self) -> specs.Queue:
        return specs.PIE(
            limit=self.integer("limit_"),
            target=self.number("qdelay_ref_"),
            t_update=self.number("tUpdate_"),
            alpha=self.number("a_"),
            beta=self.number("b_"),
            max_burst=self.number("max_burst_"),
            mean_packet_size=self.integer("mean_pktsize_"),
            ecn=self.flag("setbit_"),
            mark_threshold=self.number("mark_p_"),
        )


class DrrQueue(QueueObject):
    """ns-2.35's Queue/DRR: buckets_ queues by source node (mask_: its low 4
    address bits cleared), quantum_ bytes of credit per visit, blimit_ bytes
    waiting in all. limit_ (so `$ns queue-limit`) is ignored, as in ns-2;
    the commands blimit, buckets, quantum and mask set the variables."""

    variables = {
        "buckets_": Var(Kind.INT),
        "blimit_": Var(Kind.INT),
        "quantum_": Var(Kind.INT),
        "mask_": Var(Kind.BOOL),
    }

    def spec(self) -> specs.Queue:
        return specs.DRR(
            buckets=self.integer("buckets_"),
            blimit=self.integer("blimit_"),
            quantum=self.integer("quantum_"),
            mask=self.flag("mask_"),
        )

    def cmd_blimit(self, value: str) -> None:
        self.set_var("blimit_", value)

    def cmd_buckets(self, value: str) -> None:
        self.set_var("buckets_", value)

    def cmd_quantum(self, value: str) -> None:
        self.set_var("quantum_", value)

    def cmd_mask(self, value: str) -> None:
        self.set_var("mask_", value)


class SfqQueue(QueueObject):
    """ns-2.35's Queue/SFQ: buckets_ queues by source plus destination node,
    served a packet each in turn, maxqueue_ packets waiting in all. limit_
    (so `$ns queue-limit`) is ignored, as in ns-2; the command `limit` sets
    maxqueue_ and `buckets` buckets_."""

    variables = {
        "maxqueue_": Var(Kind.INT),
        "buckets_": Var(Kind.INT),
    }

    def spec(self) -> specs.Queue:
        return specs.SFQ(maxqueue=self.integer("maxqueue_"), buckets=self.integer("buckets_"))

    def cmd_limit(self, value: str) -> None:
        self.set_var("maxqueue_", value)

    def cmd_buckets(self, value: str) -> None:
        self.set_var("buckets_", value)


class FqQueue(QueueObject):
    """ns-2.35's Queue/FQ behind the FQLink `duplex-link ... FQ` builds: a
    DropTail queue per flow id, each `Queue/DropTail set limit_` packets
    (the class's, read when the simulation starts, as ns-2 makes them for
    each new flow); the link sets secsPerByte_ from its bandwidth. limit_
    (so `$ns queue-limit`) is ignored, as in ns-2."""

    variables = {"secsPerByte_": Var(Kind.REAL)}

    def attach(self, link: LinkObject) -> None:
        super().attach(link)
        self.set_var("secsPerByte_", ns2_real(8.0 / link.bandwidth_bps))

    def class_value(self, cls: str, var: str) -> str:
        """`var` as a new `cls` object would get it: the class's or its
        nearest superclass's (`$cls set var` reads the class's own)."""
        script = "foreach c [::otcl::heritage CLS] { if {![catch {$c set VAR} v]} { return $v } }"
        return self.world.tcl.eval(script.replace("CLS", cls).replace("VAR", var))

    def spec(self) -> specs.Queue:
        management = self.class_value("FQLink", "queueManagement_")
        if management != "DropTail":
            raise TclScriptError(
                f"FQLink queueManagement_ {management} is not supported: ackclock's FQ "
                "keeps a DropTail queue per flow (ns-2's default)"
            )
        for var in ("drop_front_", "queue_in_bytes_"):
            value = self.class_value("Queue/DropTail", var)
            if parse_bool(value, f"Queue/DropTail {var}"):
                raise TclScriptError(
                    f"Queue/DropTail {var} {value} is not supported with FQ: ackclock's "
                    "per-flow queues drop arrivals and count packets (ns-2's default)"
                )
        limit = whole(self.class_value("Queue/DropTail", "limit_"), "Queue/DropTail limit_")
        return specs.FQ(limit=limit, rate=8.0 / self.number("secsPerByte_"))


class ErrorModelObject(Shadow):
    """ErrorModel (uniform loss of packets, bytes or bits), /Uniform, /List,
    /Periodic, /TwoState, /Expo. Dropped packets vanish, as with ns-2's
    default drop target."""

    variables = {
        "rate_": Var(Kind.REAL),
        "enable_": Var(Kind.BOOL),
        "period_": Var(Kind.REAL),
        "offset_": Var(Kind.REAL),
        "delay_pkt_": Var(Kind.BOOL),
        "delay_": Var(Kind.TIME),
        "burstlen_": Var(Kind.REAL),
        "default_drop_": Var(Kind.BOOL),
        "bandwidth_": Var(Kind.BANDWIDTH, ignored="only used for time units, which are refused"),
        "debug_": Var(Kind.BOOL, ignored="no debugging output"),
    }
    UNITS = ("pkt", "byte", "bit")

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.unit = "pkt"
        # in the core, which took its variables
        self.installed = False
        self.drops: list[int] = []
        self.ranvars: dict[int, str] = {}
        if self.is_a("ErrorModel/Uniform") and args:
            self.set_var("rate_", args[0])
            self.cmd_unit(*args[1:2])
        elif self.is_a("ErrorModel/Expo") and args:
            # ErrorModel/Expo {good bad} ?unit?: exponential stretches of those means
            means = world.tcl.split(args[0])
            for state, mean in enumerate(means[:2]):
                rv = world.tcl.call("new", "RandomVariable/Exponential")
                world.tcl.call(rv, "set", "avg_", mean)
                self.ranvars[state] = rv
            self.cmd_unit(*args[1:2])
        elif self.is_a("ErrorModel/TwoState") and len(args) >= 2:
            self.ranvars = {0: args[0], 1: args[1]}
            self.cmd_unit(*args[2:3])

    def taken(self) -> str:
        return "it was put on its link" if self.installed else ""

    def cmd_unit(self, *unit: str) -> str:
        if not unit:
            return self.unit
        aliases = {"packet": "pkt", "pkts": "pkt", "bytes": "byte", "bits": "bit"}
        name = aliases.get(unit[0], unit[0])
        if name not in self.UNITS:
            raise TclScriptError(
                f"{self} unit {unit[0]!r}: ackclock supports pkt, byte and bit (time units are "
                "not modelled)"
            )
        self.unit = name
        return self.unit

    def cmd_droplist(self, drops: str) -> None:
        self.drops = [whole(d, f"{self} droplist") for d in self.world.tcl.split(drops)]

    def cmd_ranvar(self, *args: str) -> str:
        """The random variables of a two-state model's stretches; for other
        models, the uniform draws come from the link's own stream."""
        if len(args) == 2:
            self.ranvars[whole(args[0], f"{self} ranvar")] = args[1]
        if len(args) == 1:
            return self.ranvars.get(whole(args[0], f"{self} ranvar"), "")
        return ""

    # Where dropped packets go: ackclock drops them.
    def cmd_drop_target(self, *args: str) -> str:
        return ""

    def cmd_target(self, *args: str) -> str:
        return ""

    def cmd_reset(self) -> None: ...

    def spec(self, position: LossPosition) -> specs.LossModel:
        """The core's model; with delay_pkt_, the packets it picks are held
        delay_ seconds before the queue instead of dropped (ns-2 schedules
        them to its target then)."""
        from ackclock.tcl.registry import check_defaults

        check_defaults(self)
        model = self._picks(position)
        if not self.flag("delay_pkt_"):
            return model
        if position != "queue":
            raise TclScriptError(
                f"{self} delay_pkt_: ackclock delays packets at the link head (errormodule, "
                "lossmodel), not after the queue"
            )
        return specs.HeldAtHead(model, self.number("delay_"))

    def _picks(self, position: LossPosition) -> specs.LossModel:
        if not self.flag("enable_"):
            return specs.DropList(drops=[], position=position)
        if self.is_a("ErrorModel/List"):
            # ns-2 counts packets from 0; DropList from 1.
            return specs.DropList(drops=[d + 1 for d in self.drops], position=position)
        if self.is_a("ErrorModel/Periodic"):
            return self._periodic(position)
        if self.is_a("ErrorModel/TwoState"):
            return self._two_state(position)
        rate = self.number("rate_")
        if self.unit == "bit":
            return specs.BitErrors(ber=rate, position=position)
        if self.unit == "byte":
            # a byte is lost with probability rate_: as bit errors at the
            # rate that loses a byte as often
            return specs.BitErrors(ber=1 - (1 - rate) ** 0.125, position=position)
        return specs.UniformLoss(p=rate, position=position)

    def _periodic(self, position: LossPosition) -> specs.LossModel:
        if self.unit == "bit":
            raise TclScriptError(f"{self}: periodic losses count packets or bytes, not bits")
        return specs.Periodic(
            period=max(1, int(self.number("period_"))),
            offset=int(self.number("offset_")),
            burst=math.ceil(self.number("burstlen_")),
            bytes=self.unit == "byte",
            inverted=self.flag("default_drop_"),
            position=position,
        )

    def _two_state(self, position: LossPosition) -> specs.LossModel:
        from ackclock.tcl.randomness import RandomVariableObject

        if self.unit == "bit" or set(self.ranvars) != {0, 1}:
            raise TclScriptError(
                f"{self}: a two-state model needs its two random variables (ranvar 0 and 1) "
                "and counts packets or bytes"
            )
        lengths = [
            self.world.shadow(self.ranvars[i], RandomVariableObject, "a RandomVariable").stretch()
            for i in (0, 1)
        ]
        return specs.TwoStateLoss(
            good=lengths[0], bad=lengths[1], bytes=self.unit == "byte", position=position
        )


class ErrorModule(Shadow):
    """`new ErrorModule Fid`: error models chosen by the packet's flow id
    (`bind $em fid ?last?`), the others going to `default` (or passing)."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        if args and args[0] not in ("Fid", "Hash/Fid"):
            raise TclScriptError(f"new ErrorModule {args[0]}: ackclock classifies by Fid only")
        self.models: list[ErrorModelObject] = []
        self.bound: list[tuple[ErrorModelObject, set[int]]] = []
        self.default: ErrorModelObject | None = None

    def cmd_insert(self, model: str) -> None:
        self.models.append(self.world.shadow(model, ErrorModelObject, "an ErrorModel"))

    def cmd_bind(self, model: str, first: str, last: str = "") -> None:
        em = self.world.shadow(model, ErrorModelObject, "an ErrorModel")
        what = f"{self} bind"
        fids = set(range(whole(first, what), whole(last or first, what) + 1))
        self.bound.append((em, fids))

    def cmd_default(self, model: str) -> None:
        self.default = (
            None if model == "pass" else self.world.shadow(model, ErrorModelObject, "an ErrorModel")
        )

    def cmd_errormodels(self) -> str:
        return " ".join(m.name for m in self.models)

    def cmd_target(self, *args: str) -> str:
        return ""

    def cmd_drop_target(self, *args: str) -> str:
        return ""

    def cmd_classifier(self, *args: str) -> str:
        return ""

    def parts(self) -> list[tuple[ErrorModelObject, set[int], bool]]:
        """(model, flow ids, all but those ids) in the order packets meet them."""
        parts = [(em, fids, False) for em, fids in self.bound]
        if self.default is not None:
            every_bound = set().union(*(fids for _, fids in self.bound))
            parts.append((self.default, every_bound, True))
        return parts


class TraceObject(Shadow):
    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        raise TclScriptError(
            "Trace objects are not implemented yet; use $ns trace-all or trace-queue"
        )
