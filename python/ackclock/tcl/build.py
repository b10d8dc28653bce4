"""Turns a script's description into an ackclock simulation at `$ns run`."""

from __future__ import annotations

from ackclock import specs
from ackclock.handles import Node
from ackclock.simulator import Simulator
from ackclock.tcl.world import Agent, LinkDecl, TcpAgent, World


def build(world: World) -> Simulator:
    # `$ns run` resets every agent: each TCP agent draws its boot_time_ again.
    for agent in world.reset_order():
        if isinstance(agent, TcpAgent):
            agent.cmd_reset()
    sim = Simulator(seed=world.seed, replication=world.replication, ns2_order=True)
    assert world.default_rng is not None
    sim.ns2_rng = world.default_rng.generator
    t = world.topology
    for node in t.nodes:
        node.handle = sim.node(f"n{node.id}")
    for link in t.links:
        _add_link(world, sim, link)
    for model, a, b, position in t.losses:
        assert a.handle is not None and b.handle is not None
        sim.link(a.handle, b.handle).set_loss(model.spec(position))
    _add_traces(world, sim)
    world.sim = sim  # so that the scripts scheduled so far go into it
    for time, script in world.pending_at:
        world.schedule(time, script)
    world.pending_at.clear()
    return sim


def _add_link(world: World, sim: Simulator, link: LinkDecl) -> None:
    directions = [(link.a, link.b), (link.b, link.a)] if link.duplex else [(link.a, link.b)]
    for src, dst in directions:
        assert src.handle is not None and dst.handle is not None
        sim.simplex_link(
            src.handle,
            dst.handle,
            link.bandwidth,
            link.delay,
            queue=_queue(world, link.queue, world.topology.limits.get((src.id, dst.id))),
        )


def _queue(world: World, kind: str, limit: int | None) -> specs.Queue:
    cls = f"Queue/{kind}"
    value = world.class_vars.require
    if limit is None:
        limit = int(float(value(cls, "limit_")))
    if kind == "DropTail":
        return specs.DropTail(limit=limit, ns2_limit=True)
    return specs.RED(
        limit=limit,
        ns2_limit=True,
        min_th=float(value(cls, "thresh_")),
        max_th=float(value(cls, "maxthresh_")),
        max_p=1 / float(value(cls, "linterm_")),
        weight=float(value(cls, "q_weight_")),
        gentle=value(cls, "gentle_") in ("1", "true"),
        ecn=value(cls, "setbit_") in ("1", "true"),
        mean_packet_size=int(float(value(cls, "mean_pktsize_"))),
    )


def _add_traces(world: World, sim: Simulator) -> None:
    """One ns-2 trace file per path: its links' records and the variables of
    the agents attached to it."""
    files: dict[str, tuple[list | None, list[tuple[Node, int, str]]]] = {}
    for channel in world.trace_all:
        files[world.channel_path(channel)] = (None, [])
    for a, b, channel in world.trace_queues:
        links, _ = files.setdefault(world.channel_path(channel), ([], []))
        if links is not None:
            assert a.handle is not None and b.handle is not None
            links.append(sim.link(a.handle, b.handle))
    for agent in world.objects.values():
        if isinstance(agent, Agent) and agent.traced and agent.trace_channel is not None:
            node, port = agent.address()
            assert node.handle is not None
            _, traced = files.setdefault(world.channel_path(agent.trace_channel), ([], []))
            traced += [(node.handle, port, var) for var in agent.traced]
    for path, (links, traced) in files.items():
        sim.trace_ns2(path, links, variables=False, traced=traced or None)
    for channel in world.nam_channels:
        sim.trace_nam(world.channel_path(channel), world.nam_preamble())
    for path in world.view_paths:
        sim.trace_view(path, world.nam_preamble())
