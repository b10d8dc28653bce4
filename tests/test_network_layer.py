"""The network layer through the Python API: parallel links, routing (static,
session, user routes, DV), links going down and up, node processors and
LANs, with their results and errors."""

import ackclock as ac
import pytest


def ring(n, routing=None):
    sim = ac.Simulator(seed=1)
    if routing is not None:
        sim.routing(routing)
    nodes = [sim.node(f"n{i}") for i in range(n)]
    for i in range(n):
        sim.duplex_link(nodes[i], nodes[(i + 1) % n], "1Mb", "10ms")
    return sim, nodes


def test_two_nodes_may_have_parallel_links_each_with_its_handle():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    fast = sim.duplex_link(a, b, "10Mb", "1ms")
    slow = sim.duplex_link(a, b, "1Mb", "50ms")
    assert fast.reverse is not None and fast.reverse.reverse is fast
    assert (slow.src, slow.dst, slow.reverse.src) == (a, b, b)
    with pytest.raises(ac.ConfigError, match="there are 2 links A->B: use the Link that"):
        sim.link(a, b)
    flow = sim.cbr(a, b, rate="800kb", max_packets=3)
    sim.run()
    assert fast.stats()["tx_packets"] == 3 and slow.stats()["tx_packets"] == 0
    assert flow.stats()["max_delay_s"] == pytest.approx(0.0018)


def test_session_routing_reroutes_at_once_and_records_the_changes():
    sim, n = ring(3, ac.SessionRouting())
    flow = sim.cbr(n[0], n[1], rate="400kb", stop="3s")
    sim.record_routes()
    sim.link_down(n[0], n[1], at="1.005s")
    sim.link_up(n[0], n[1], at="2.005s")
    sim.run(until="4s")
    a_to_b = [
        (c["time_s"], c["next_hop"])
        for c in sim.route_changes()
        if c["node"] == "n0" and c["dst"] == "n1"
    ]
    assert a_to_b == [(0.0, "n1"), (1.005, "n2"), (2.005, "n1")]
    assert n[0].routes() == {"n1": "n1", "n2": "n2"}
    assert sim.link(n[0], n[1]).stats()["down_drops"] == 1  # the packet on the wire at 1.005 s
    stats = flow.stats()
    assert stats["rx_packets"] == stats["tx_packets"] - 1


def test_a_static_route_overrides_the_shortest_path_and_is_checked():
    sim = ac.Simulator()
    a, b, c = sim.node("A"), sim.node("B"), sim.node("C")
    sim.duplex_link(a, c, "10Mb", "10ms")
    ab = sim.duplex_link(a, b, "10Mb", "10ms")
    sim.duplex_link(b, c, "10Mb", "10ms")
    sim.route(a, c, ab)
    assert a.routes()["C"] == "B"
    with pytest.raises(ac.ConfigError, match="via: Link\\(A->B.*does not leave B"):
        sim.route(b, c, ab)
    with pytest.raises(ac.ConfigError, match="only a node with static routing takes routes"):
        sim.routing(ac.DV(), [b])
        sim.route(b, a, ab.reverse)


def test_dv_converges_and_a_run_without_an_end_time_is_refused():
    sim, n = ring(5, ac.DV())
    flow = sim.cbr(n[0], n[2], rate="100kb", start="1s", stop="2s")
    with pytest.raises(
        ac.ConfigError, match="until: .*runs a routing protocol that sends updates for ever"
    ):
        sim.run()
    sim.run(until="3s")
    assert flow.stats()["rx_packets"] == flow.stats()["tx_packets"]
    assert all(node["routing"] == "dv" for node in sim.results()["nodes"])
    assert n[0].routes() == {"n1": "n1", "n2": "n1", "n3": "n4", "n4": "n4"}


def test_packets_without_a_route_wait_when_asked_to():
    sim = ac.Simulator()
    sim.routing(ac.DV())
    a, b, c = sim.node("A"), sim.node("B"), sim.node("C")
    sim.duplex_link(a, b, "10Mb", "10ms", queue=ac.DropTail(limit=None))
    sim.duplex_link(b, c, "10Mb", "10ms", queue=ac.DropTail(limit=None))
    a.wait_for_routes(packets=1000, timeout="2s")
    flow = sim.cbr(a, c, rate="1Mb", stop="1s")
    sim.run(until="2s")
    assert flow.stats()["rx_packets"] == flow.stats()["tx_packets"]
    assert a.stats()["no_route_drops"] == 0


def test_link_failures_follow_ns2s_deterministic_rtmodel():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, "1Mb", "10ms")
    sim.link_failures(link, failures=ac.LinkFailures("deterministic", finish="6s"))
    sim.run(until="2.6s")
    assert (link.stats()["up"], link.reverse.stats()["up"]) == (False, False)
    sim.run(until="4s")
    assert link.stats()["up"]
    with pytest.raises(
        ac.ConfigError, match="finish: '1s' is not a finish time: it is before start"
    ):
        ac.LinkFailures(start="2s", finish="1s")
    with pytest.raises(
        ac.ConfigError, match="kind: 'weibull' is not one of deterministic, exponential"
    ):
        ac.LinkFailures("weibull")


def test_a_rate_change_slows_later_packets():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, "10Mb", "10ms")
    link.set_bandwidth("1Mb", at="1s")
    early = sim.cbr(a, b, rate="1Mb", start="0.5s", max_packets=1)
    late = sim.cbr(a, b, rate="1Mb", start="1.5s", max_packets=1)
    sim.run()
    assert early.stats()["max_delay_s"] == pytest.approx(0.0108)
    assert late.stats()["max_delay_s"] == pytest.approx(0.018)
    with pytest.raises(ac.ConfigError, match="at: .* is in the past"):
        link.down(at="0.5s")


def test_a_node_processor_adds_its_service_time_and_reports():
    sim = ac.Simulator()
    a = sim.node("A")
    r = sim.node("R", processing=ac.Processing("1ms", limit=10))
    b = sim.node("B")
    sim.duplex_link(a, r, "10Mb", "10ms")
    sim.duplex_link(r, b, "10Mb", "10ms")
    flow = sim.cbr(a, b, rate="100kb", max_packets=5)
    sim.run()
    assert flow.stats()["max_delay_s"] == pytest.approx(2 * 0.0108 + 0.001)
    cpu = r.stats()["processor"]
    assert (cpu["packets"], cpu["drops"], cpu["mean_wait_s"]) == (5, 0, 0.0)
    assert "processor" not in a.stats()
    r.set_processing(None)
    assert "processor" not in r.stats()
    with pytest.raises(
        ac.ConfigError, match="distribution: 'uniform' is not one of constant, exponential"
    ):
        ac.Processing("1ms", distribution="uniform")
    with pytest.raises(ac.ConfigError, match="processing: 'fast' is not a processor"):
        sim.node("C", processing="fast")


def test_a_lan_carries_packets_between_its_nodes():
    sim = ac.Simulator()
    a, b, c = sim.node("A"), sim.node("B"), sim.node("C")
    lan = sim.lan([a, b, c], "10Mb", "1ms", queue_limit=20)
    flow = sim.cbr(a, c, rate="1Mb", max_packets=10)
    sim.run()
    assert flow.stats()["max_delay_s"] == pytest.approx(0.0018)
    nics = {nic["node"]: nic for nic in lan.stats()}
    assert (nics["A"]["tx_packets"], nics["B"]["rx_packets"], nics["C"]["rx_packets"]) == (
        10,
        0,
        10,
    )
    assert [nic["node"] for nic in sim.results()["nics"]] == ["A", "B", "C"]
    with pytest.raises(ac.ConfigError, match="nodes: a LAN needs at least two nodes"):
        sim.lan([a], "10Mb", "1ms")


def test_results_name_nodes_and_count_drops_for_want_of_a_route():
    sim, n = ring(3, ac.StaticRouting())
    flow = sim.cbr(n[0], n[1], rate="400kb", stop="2s")
    sim.link_down(n[0], n[1], at="1s")
    sim.run(until="2s")
    nodes = {node["name"]: node for node in sim.results()["nodes"]}
    assert set(nodes) == {"n0", "n1", "n2"}
    assert nodes["n0"]["routing"] == "static"
    # Static routes keep sending into the dead link, which drops them.
    link = sim.link(n[0], n[1]).stats()
    assert link["down_drops"] > 0 and link["drops"] == link["down_drops"]
    assert flow.stats()["rx_packets"] + link["down_drops"] == flow.stats()["tx_packets"]
