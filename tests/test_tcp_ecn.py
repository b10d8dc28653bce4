"""ECN end to end (RFC 3168): TCP data is ECN-capable, a marking queue marks
it, the receiver echoes the marks and the sender reduces its window instead
of losing packets (issue 11, "What was seen" item 7)."""

import ackclock as ac


def four_flows_through_red(tcp: ac.TcpParams):
    sim = ac.Simulator(seed=1)
    r, d = sim.node("R"), sim.node("D")
    sources = [sim.node(f"S{i}") for i in range(4)]
    for s in sources:
        sim.duplex_link(s, r, "100Mb", "5ms")
    bottleneck = sim.duplex_link(r, d, "10Mb", "20ms", queue=ac.RED(limit=100, ecn=True))
    flows = [sim.tcp(s, d, app=ac.Bulk(), tcp=tcp) for s in sources]
    return sim, bottleneck, flows


def test_red_with_ecn_marks_tcp_packets_instead_of_dropping_them():
    # Before: 0 marks and 219 drops (TCP packets were never ECN-capable).
    sim, bottleneck, flows = four_flows_through_red(ac.TcpParams(cc="newreno"))
    sim.run(until=2)
    start_drops = bottleneck.stats()["queue_drops"]  # the slow-start burst
    sim.run(until=30)
    stats = bottleneck.stats()
    assert stats["ecn_marks"] > 200
    assert stats["queue_drops"] == start_drops, "no drop once the flows run"
    assert all(f.stats()["ecn_reductions"] > 10 for f in flows)
    assert stats["utilization"] > 0.8


def test_without_ecn_the_same_queue_drops_instead():
    sim, bottleneck, flows = four_flows_through_red(ac.TcpParams(cc="newreno", ecn=False))
    sim.run(until=30)
    stats = bottleneck.stats()
    assert stats["ecn_marks"] == 0
    assert stats["queue_drops"] > 100
    assert all(f.stats()["ecn_reductions"] == 0 for f in flows)
