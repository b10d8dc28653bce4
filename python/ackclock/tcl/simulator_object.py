"""`set ns [new Simulator]`: the commands of ns-2's Simulator object."""

from __future__ import annotations

from ackclock.specs import LossPosition
from ackclock.tcl.errors import TclScriptError
from ackclock.tcl.world import LinkDecl, TclObject, tcl_number

QUEUE_TYPES = ("DropTail", "RED")


class SimulatorObject(TclObject):
    # --- topology -------------------------------------------------------------

    def cmd_node(self) -> str:
        return self.world.add_node().name

    def cmd_duplex_link(self, a: str, b: str, bandwidth: str, delay: str, queue: str) -> None:
        self._link(a, b, bandwidth, delay, queue, duplex=True)

    def cmd_simplex_link(self, a: str, b: str, bandwidth: str, delay: str, queue: str) -> None:
        self._link(a, b, bandwidth, delay, queue, duplex=False)

    def _link(self, a: str, b: str, bandwidth: str, delay: str, queue: str, duplex: bool) -> None:
        if queue not in QUEUE_TYPES:
            raise TclScriptError(
                f"queue type {queue!r} is not supported (supported: {', '.join(QUEUE_TYPES)})"
            )
        self._unbuilt("links")
        link = LinkDecl(self.world.node(a), self.world.node(b), bandwidth, delay, queue, duplex)
        self.world.topology.links.append(link)

    def cmd_queue_limit(self, a: str, b: str, limit: str) -> None:
        self._unbuilt("queue limits")
        src, dst = self.world.node(a), self.world.node(b)
        self.world.topology.limits[(src.id, dst.id)] = int(float(limit))

    def cmd_duplex_link_op(self, a: str, b: str, op: str, *args: str) -> None:
        """nam hints: orient and queuePos are kept for the nam trace; colour and
        label are accepted."""
        src, dst = self.world.node(a), self.world.node(b)
        if op == "orient" and args:
            for link in self.world.topology.links:
                if {link.a.id, link.b.id} == {src.id, dst.id}:
                    link.orient = args[0]
        elif op == "queuePos" and args:
            self.world.topology.queue_positions.append((src.id, dst.id, args[0]))

    def cmd_color(self, fid: str, color: str) -> None:
        self.world.topology.colors.append((int(fid), color))

    def cmd_lossmodel(self, model: str, a: str, b: str) -> None:
        """The error model sits at the head of the link, before its queue."""
        self._loss(model, a, b, "queue")

    def cmd_link_lossmodel(self, model: str, a: str, b: str) -> None:
        """The error model sits on the link, after its queue."""
        self._loss(model, a, b, "wire")

    def _loss(self, model: str, a: str, b: str, position: LossPosition) -> None:
        from ackclock.tcl.world import ErrorModel

        self._unbuilt("error models")
        em = self.world.object(model, ErrorModel, "an ErrorModel")
        self.world.topology.losses.append((em, self.world.node(a), self.world.node(b), position))

    # --- agents -----------------------------------------------------------------

    def cmd_attach_agent(self, node: str, agent: str) -> None:
        self.world.attach(self.world.node(node), self.world.agent(agent))

    def cmd_connect(self, src: str, dst: str) -> None:
        a, b = self.world.agent(src), self.world.agent(dst)
        a.peer, b.peer = b, a

    def cmd_create_connection(
        self, src_type: str, src: str, dst_type: str, dst: str, fid: str
    ) -> str:
        """ns-2's shortcut: two agents, attached and connected; returns the source."""
        agents = []
        for kind, node in ((src_type, src), (dst_type, dst)):
            agent = self.world.agent(self.world.new(f"Agent/{kind}").name)
            self.world.attach(self.world.node(node), agent)
            agents.append(agent)
        agents[0].assign("fid_", fid)
        self.cmd_connect(agents[0].name, agents[1].name)
        return agents[0].name

    # --- time -------------------------------------------------------------------

    def cmd_at(self, time: str, script: str) -> None:
        self.world.at(time, script)

    def cmd_now(self) -> str:
        return tcl_number(self.world.now_ps() / 1e12)

    def cmd_run(self) -> None:
        self.world.built().run()

    def cmd_halt(self) -> None:
        self.world.built().stop()

    def cmd_use_scheduler(self, *args: str) -> None:
        """ackclock has one scheduler; every choice behaves the same."""

    # --- traces -----------------------------------------------------------------

    def cmd_trace_all(self, channel: str) -> None:
        self._unbuilt("traces")
        self.world.trace_all.append(channel)

    def cmd_namtrace_all(self, channel: str) -> None:
        self._unbuilt("traces")
        self.world.nam_channels.append(channel)

    def cmd_trace_queue(self, a: str, b: str, channel: str) -> None:
        self._unbuilt("traces")
        self.world.trace_queues.append((self.world.node(a), self.world.node(b), channel))

    def cmd_flush_trace(self) -> None:
        """Records are written whenever the run pauses; nothing is pending here."""

    def _unbuilt(self, what: str) -> None:
        if self.world.sim is not None:
            raise TclScriptError(f"{what} must be set up before $ns run")
