"""Turns a script's description into an ackclock simulation at `$ns run`."""

from __future__ import annotations

from ackclock import nam
from ackclock.handles import Lan, Link, Node
from ackclock.simulator import Simulator
from ackclock.tcl import registry, wireless
from ackclock.tcl.agents import TcpAgent
from ackclock.tcl.lan import LanNodeObject
from ackclock.tcl.links import LinkObject, Ns2Queue
from ackclock.tcl.world import World


def build(world: World) -> Simulator:
    # `$ns run` resets every agent: each TCP agent draws its boot_time_ again.
    for agent in world.reset_order():
        if isinstance(agent, TcpAgent):
            agent.cmd_reset()
    world.headers.check(world)
    sim = Simulator(seed=world.seed, replication=world.replication, ns2_order=True)
    assert world.default_rng is not None
    sim.ns2_rng = world.default_rng.generator
    sim.routing_rng = world.routing_rng
    for node in world.nodes:
        # ns-2's equal-cost multipath (multiPath_ 1) is not modelled
        registry.check_defaults(node, ["multiPath_"])
        node.handle = sim.node(f"n{node.id}")
    for link in world.links.values():
        _add_link(sim, link)
    for lan in world.lans:
        lan.build(sim)
    wireless.build(world, sim)
    world.dynamics.apply(sim)
    _add_traces(world, sim)
    return sim


def _add_link(sim: Simulator, link: LinkObject) -> None:
    assert link.src.handle is not None and link.dst.handle is not None
    link.handle = sim.simplex_link(
        link.src.handle,
        link.dst.handle,
        f"{link.bandwidth_bps}bps",
        link.delay_s,  # ns-2's double, which ns-2's order computes with
        queue=link.queue.spec(),
    )
    link.install_losses()


def _add_traces(world: World, sim: Simulator) -> None:
    """One ns-2 trace per channel: its links' records and the variables of
    the agents attached to it; RED queues' traced variables; and the nam
    traces."""
    traces: dict[str, tuple[list, list[tuple[Node, int, str]], list[tuple[Lan, Node]]]] = {}
    for link, channel in world.link_traces:
        assert link.handle is not None
        traces.setdefault(channel, ([], [], []))[0].append(link.handle)
    for agent, channel in world.variable_traces():
        node, port = agent.address()
        assert node.handle is not None
        traces.setdefault(channel, ([], [], []))[1].extend(
            (node.handle, port, v) for v in agent.traced
        )
    for lan in world.lans:
        for channel in lan.trace_channels:
            traces.setdefault(channel, ([], [], []))[2].append(_named(lan))
    # trace-all also shows the wireless nodes (ns-2's cmu-trace records).
    radio = world.wireless.radio_trace() if wireless.endless(world) else None
    for channel in world.trace_all:
        traces.setdefault(channel, ([], [], []))
    if world.event_trace is not None:
        traces.setdefault(world.event_trace, ([], [], []))
    # ns-2's show_tcphdr_: FullTcp records end with their TCP header fields.
    tcp_header = wireless.class_variable(world, "Trace", "show_tcphdr_") != "0"
    for channel, (links, traced, lans) in traces.items():
        path = world.channels.require_writable(channel)
        shown = radio if channel in world.trace_all else None
        world.trace_ids.setdefault(channel, []).append(
            sim.trace_ns2(
                path,
                links,
                variables=False,
                traced=traced or None,
                append=True,
                radio=shown,
                # the agents wrote the initial values (tracevars.py)
                traced_initial=False,
                events=channel == world.event_trace,
                tcp_header=tcp_header,
                lans=lans,
            )
        )
    # one trace per channel, so that its records keep the script's order
    changes: dict[str, list[tuple[Link, bool]]] = {}
    for link, channel, in_nam in world.dynamics_traces:
        assert link.handle is not None
        changes.setdefault(channel, []).append((link.handle, in_nam))
    for channel, links in changes.items():
        path = world.channels.require_writable(channel)
        world.trace_ids.setdefault(channel, []).append(
            sim.trace_link_changes(path, links, append=True)
        )
    for link in world.links.values():
        if isinstance(link.queue, Ns2Queue):
            red = link.queue.trace_red(sim)
            if red is not None:
                assert link.queue.trace_channel is not None
                world.trace_ids.setdefault(link.queue.trace_channel, []).append(red)
    header = wireless.nam_preamble(world) or nam_preamble(world)
    for channel in world.nam.channels:
        path = world.channels.require_writable(channel)
        lans = [_named(lan) for lan in world.lans]
        world.trace_ids.setdefault(channel, []).append(
            sim.trace_nam(path, header, append=True, lans=lans)
        )
    for path in world.view_paths:
        sim.trace_view(path, nam_preamble(world))


def _named(lan: LanNodeObject) -> tuple[Lan, Node]:
    """A LAN and the node its records name it by (ns-2's LanNode id)."""
    assert lan.lan is not None and lan.handle is not None
    return lan.lan, lan.handle


def nam_preamble(world: World) -> str:
    duplex: dict[frozenset[int], LinkObject] = {}
    for link in world.links.values():
        duplex.setdefault(frozenset((link.src.id, link.dst.id)), link)
    links = [
        (
            link.src.id,
            link.dst.id,
            float(link.bandwidth_bps),
            link.delay_s,
            world.nam.orient.get((link.src.id, link.dst.id)),
        )
        for link in duplex.values()
    ]
    lans = [
        (lan.id, lan.bandwidth_text, lan.delay_text, [m.id for m in lan.members])
        for lan in world.lans
    ]
    return nam.preamble(
        [n.id for n in world.nodes if not isinstance(n, LanNodeObject)],
        links,
        world.nam.queue_positions,
        world.nam.colors,
        lans,
    )
