"""ns-2's queue and flow monitors: counts of the packets arriving at a link's
queue, leaving it and dropped (`$ns monitor-queue`, `$ns makeflowmon`,
`$ns attach-fmon`), with ns-2's Integrator and Samples objects that give
the average queue and the average wait. The core counts (Simulator.monitor);
these objects read its counts when the script reads their variables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ackclock.handles import Monitor
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.shadow import Kind, Shadow, Var, ns2_real, whole

if TYPE_CHECKING:
    from ackclock.tcl.links import LinkObject
    from ackclock.tcl.world import World

# ns-2's counter variables and the core's counts they are.
COUNTERS = {
    "parrivals_": "arrivals",
    "barrivals_": "arrived_bytes",
    "pdepartures_": "departures",
    "bdepartures_": "departed_bytes",
    "pdrops_": "drops",
    "bdrops_": "dropped_bytes",
    "pkts_": "packets",
    "size_": "bytes",
    "pmarks_": "marks",
}
# RED's early drops, which an ED monitor counts apart (among its drops) when
# attached with an early-drop target (`$ns attach-fmon LINK FMON 1`).
EARLY = {"epdrops_": "early_drops", "ebdrops_": "early_dropped_bytes"}
TOTALS = (
    *COUNTERS.values(),
    *EARLY.values(),
    "packet_seconds",
    "byte_seconds",
    "delay_sum",
    "delay_squares",
)
# Counts that reset to zero; what waits now stays, and so do the marks
# (ns-2's QueueMonitor reset leaves pmarks_).
RESETTABLE = [k for k in TOTALS if k not in ("packets", "bytes", "marks")]
# ns-2's packet type numbers (common/packet.h) for a flow monitor's dump.
PACKET_TYPES = {"tcp": 0, "udp": 1, "cbr": 2, "ack": 5}

Row = dict[str, float]


def counter(monitor: QueueMonitor | FlowRecord, early: bool, name: str) -> str | None:
    """A monitor's counter variable: its count, or 0 for early drops that do
    not reach it apart (as in ns-2)."""
    if name in COUNTERS:
        return str(int(monitor.totals()[COUNTERS[name]]))
    if name in EARLY:
        return str(int(monitor.totals()[EARLY[name]])) if early else "0"
    return None


def _sum(rows: list[Row]) -> Row:
    return {k: sum(r[k] for r in rows) for k in TOTALS}


def reset_baseline(raw: Row) -> Row:
    """What a monitor's `reset` remembers: the resettable counts so far."""
    return {k: raw[k] if k in RESETTABLE else 0.0 for k in TOTALS}


def since_reset(raw: Row, baseline: Row) -> Row:
    """The counts since the reset that left `baseline` (what waits: now)."""
    return {k: raw[k] - baseline[k] if k in RESETTABLE else raw[k] for k in TOTALS}


class QueueMonitor(Shadow):
    variables = {
        **{var: Var(Kind.INT, live=True) for var in COUNTERS},
        "epdrops_": Var(Kind.INT, live=True),
        "ebdrops_": Var(Kind.INT, live=True),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.links: list[LinkObject] = []
        self.monitor: Monitor | None = None
        self.baseline: Row = dict.fromkeys(TOTALS, 0.0)
        self.integrators: dict[str, Integrator] = {}
        self.samples: Samples | None = None
        # whether RED's early drops reach it apart (attach-fmon's edrop)
        self.early = False

    def attach(self, link: LinkObject) -> None:
        if self.monitor is not None:
            raise TclScriptError(f"{self} already monitors a link")
        self.links.append(link)
        self.world.when_built(self._start)

    def _start(self) -> None:
        sim = self.world.built()
        self.monitor = sim.monitor([link.handle for link in self.links if link.handle is not None])

    def rows(self) -> list[Row]:
        if self.monitor is None:
            return []
        self.world.built().flush_traces()
        return [dict(r) for r in self.monitor.counts()]  # type: ignore[arg-type]

    def totals(self) -> Row:
        """The counts since the last reset (what waits: now)."""
        return since_reset(_sum(self.rows()), self.baseline)

    def last_event_s(self) -> float:
        """When a packet last arrived, left or was dropped."""
        return max((row["last_event_s"] for row in self.rows()), default=0.0)

    def live(self, name: str) -> str | None:
        return counter(self, self.early, name)

    def cmd_reset(self) -> None:
        self.baseline = reset_baseline(_sum(self.rows()))

    def _integrator(self, kind: str, given: str = "") -> str:
        if given:
            integrator = self.world.shadow(given, Integrator, "an Integrator")
        elif kind in self.integrators:
            return self.integrators[kind].name
        else:
            integrator = self.world.shadow(self.world.tcl.call("new", "Integrator"), Integrator, "")
        integrator.bind(self, kind)
        self.integrators[kind] = integrator
        return integrator.name

    def cmd_get_bytes_integrator(self) -> str:
        return self._integrator("byte_seconds")

    def cmd_get_pkts_integrator(self) -> str:
        return self._integrator("packet_seconds")

    def cmd_set_bytes_integrator(self, integrator: str) -> None:
        self._integrator("byte_seconds", integrator)

    def cmd_set_pkts_integrator(self, integrator: str) -> None:
        self._integrator("packet_seconds", integrator)

    def cmd_set_delay_samples(self, samples: str) -> None:
        self.samples = self.world.shadow(samples, Samples, "a Samples object")
        self.samples.monitor = self

    def cmd_get_delay_samples(self) -> str:
        if self.samples is None:
            self.cmd_set_delay_samples(self.world.tcl.call("new", "Samples"))
        assert self.samples is not None
        return self.samples.name

    def cmd_set_src_dst(self, src: str, dst: str) -> None: ...

    def cmd_trace(self, channel: str) -> None:
        raise TclScriptError(
            f"{self} trace: per-packet queue monitor lines are not supported; read the "
            "monitor's counters (or trace the link with $ns trace-queue)"
        )


class FlowMonitor(QueueMonitor):
    """QueueMonitor/ED/Flowmon: the same counts, per flow."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        # how flows are told apart (makeflowmon's classifier type)
        self.classifier = args[0] if args else "Fid"
        self.records: dict[tuple[int, ...], FlowRecord] = {}
        self.channel: str | None = None

    def _key(self, row: Row) -> tuple[int, ...]:
        fid, src, dst = int(row["fid"]), int(row["src"]), int(row["dst"])
        return {
            "Fid": (fid,),
            "SrcDest": (src, dst),
            "Dest": (dst,),
        }.get(self.classifier, (fid, src, dst))

    def flow_rows(self) -> dict[tuple[int, ...], list[Row]]:
        grouped: dict[tuple[int, ...], list[Row]] = {}
        for row in self.rows():
            grouped.setdefault(self._key(row), []).append(row)
        return grouped

    def cmd_flows(self) -> str:
        for key, rows in self.flow_rows().items():
            if key not in self.records:
                name = self.world.tcl.call("new", "QueueMonitor/ED/Flow")
                record = self.world.shadow(name, FlowRecord, "a flow")
                record.bind(self, key, rows[0])
                self.records[key] = record
        return " ".join(r.name for r in self.records.values())

    def cmd_attach(self, channel: str) -> None:
        self.world.channels.require_writable(channel)
        self.channel = channel

    def cmd_dump(self) -> None:
        """One line per flow, in ns-2's flow monitor format."""
        if self.channel is None:
            raise TclScriptError(f"{self} dump: attach a channel first ($fmon attach $file)")
        total = self.totals()
        now = self.world.now_s()

        def early(counts: Row) -> tuple[int, int]:
            if not self.early:
                return (0, 0)
            return (int(counts["early_drops"]), int(counts["early_dropped_bytes"]))

        self.cmd_flows()
        for record in self.records.values():
            f = record.totals()
            fields = [
                f"{now:8.3f}",
                record.fid,
                0,
                record.packet_type,
                record.fid,
                record.src,
                record.dst,
                int(f["arrivals"]),
                int(f["arrived_bytes"]),
                *early(f),
                int(total["arrivals"]),
                int(total["arrived_bytes"]),
                *early(total),
                int(total["drops"]),
                int(total["dropped_bytes"]),
                int(f["drops"]),
                int(f["dropped_bytes"]),
                0,
                0,
                0,
            ]
            self.world.write_line(self.channel, " ".join(str(x) for x in fields))

    def cmd_classifier(self, *args: str) -> str:
        """The monitor's flow classifier: the monitor itself answers its
        `lookup` (ns-2's Classifier/Hash, which makeflowmon installs)."""
        return self.name

    def cmd_lookup(self, how: str, src: str, dst: str, fid: str) -> str:
        """ns-2's `$classifier lookup auto SRC DST FID`: the flow's record
        (QueueMonitor/ED/Flow), "" if no packet of it has arrived."""
        self.cmd_flows()
        numbers = [whole(v, f"{self} lookup") for v in (fid, src, dst)]
        row = {"fid": numbers[0], "src": numbers[1], "dst": numbers[2]}
        record = self.records.get(self._key(row))
        return "" if record is None else record.name


class FlowRecord(Shadow):
    """QueueMonitor/ED/Flow: one flow's counts in a flow monitor."""

    variables = {
        **QueueMonitor.variables,
        "src_": Var(Kind.INT),
        "dst_": Var(Kind.INT),
        "flowid_": Var(Kind.INT),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.monitor: FlowMonitor | None = None
        self.key: tuple[int, ...] = ()
        self.fid = self.src = self.dst = 0
        self.packet_type = 0
        self.baseline: Row = dict.fromkeys(TOTALS, 0.0)

    def bind(self, monitor: FlowMonitor, key: tuple[int, ...], first: Row) -> None:
        self.monitor, self.key = monitor, key
        self.fid, self.src, self.dst = int(first["fid"]), int(first["src"]), int(first["dst"])
        self.packet_type = self.world.packet_type(self.fid, self.src)
        for var, value in (("src_", self.src), ("dst_", self.dst), ("flowid_", self.fid)):
            self.set_var(var, str(value))

    def _raw(self) -> Row:
        assert self.monitor is not None
        rows = self.monitor.flow_rows().get(self.key, [])
        return _sum(rows) if rows else dict.fromkeys(TOTALS, 0.0)

    def totals(self) -> Row:
        """The flow's counts since its last reset."""
        return since_reset(self._raw(), self.baseline)

    def cmd_reset(self) -> None:
        self.baseline = reset_baseline(self._raw())

    def live(self, name: str) -> str | None:
        if self.monitor is None:
            return None
        return counter(self, self.monitor.early, name)


class Integrator(Shadow):
    """ns-2's Integrator: `sum_`, the time integral of a monitor's queue
    since the script last set it (usually to 0)."""

    variables = {
        "sum_": Var(Kind.REAL, live=True),
        "lastx_": Var(Kind.REAL),
        "lasty_": Var(Kind.REAL),
    }

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.monitor: QueueMonitor | None = None
        self.kind = ""
        self.offset = 0.0

    def bind(self, monitor: QueueMonitor, kind: str) -> None:
        self.monitor, self.kind = monitor, kind

    def integral(self) -> float:
        """The monitor's integral as ns-2 keeps it: ns-2 adds a point at each
        arrival, departure and drop, so its sum stops at the last one."""
        if self.monitor is None:
            return 0.0
        totals = self.monitor.totals()
        level = totals["bytes" if self.kind == "byte_seconds" else "packets"]
        since = self.world.now_s() - self.monitor.last_event_s()
        return totals[self.kind] - since * level

    def live(self, name: str) -> str | None:
        if name == "sum_" and self.monitor is not None:
            return ns2_real(self.integral() - self.offset)
        return None

    def assigned(self, name: str, value: str) -> None:
        if name == "sum_" and self.monitor is not None:
            self.offset = self.integral() - float(value)

    def cmd_newpoint(self, x: str, y: str) -> None:
        """ns-2 adds a point to the integral; ackclock integrates itself."""

    def cmd_reset(self) -> None:
        self.offset = self.integral()


class Samples(Shadow):
    """ns-2's Samples: the waits of the packets a monitor saw leave."""

    def __init__(self, world: World, name: str, cls: str, ns2_class: str, args: tuple[str, ...]):
        super().__init__(world, name, cls, ns2_class, args)
        self.monitor: QueueMonitor | None = None

    def _stats(self) -> tuple[float, float, float]:
        if self.monitor is None:
            return 0.0, 0.0, 0.0
        t = self.monitor.totals()
        return t["departures"], t["delay_sum"], t["delay_squares"]

    def cmd_mean(self) -> str:
        n, total, _ = self._stats()
        return ns2_real(total / n if n else 0.0)

    def cmd_cnt(self) -> int:
        return int(self._stats()[0])

    def cmd_variance(self) -> str:
        n, total, squares = self._stats()
        if n < 2:
            return ns2_real(0.0)
        return ns2_real(max(0.0, (squares - total * total / n) / (n - 1)))

    def cmd_reset(self) -> None:
        if self.monitor is not None:
            self.monitor.cmd_reset()


class Plumbing(Shadow):
    """ns-2's connectors that route packets inside a node or link (snoop
    queues): ackclock wires these itself, so they only need to exist."""

    def cmd_target(self, *args: str) -> str:
        return ""

    def cmd_drop_target(self, *args: str) -> str:
        return ""

    def cmd_set_monitor(self, monitor: str) -> None: ...
