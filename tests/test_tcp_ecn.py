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


def step_marked_flow(cc: str, k: int = 20) -> tuple[ac.Link, ac.TcpFlow]:
    """One linux-profile flow (PRR) through a 10 Mbit/s, 40 ms RTT bottleneck
    (BDP 33 packets) that marks above `k` waiting packets and holds 300."""
    sim = ac.Simulator(seed=1)
    s, r, d = sim.node("S"), sim.node("R"), sim.node("D")
    sim.duplex_link(s, r, "1Gb", "0ms", queue=ac.DropTail(limit=100_000))
    bottleneck = sim.duplex_link(r, d, "10Mb", "20ms", queue=ac.StepMark(k=k, limit=300))
    tcp = ac.TcpParams(
        profile="linux", cc=cc, mss=1448, ecn=True, ecn_per_packet_echo=cc == "dctcp"
    )
    flow = sim.tcp(s, d, app=ac.Bulk(), tcp=tcp)
    sim.run(until=30)
    return bottleneck, flow


def test_with_prr_an_ecn_echo_brings_the_window_down_instead_of_letting_it_run_away():
    # Before: PRR's count of what was sent ignored the CWR state, so cwnd
    # grew to 10,000 segments after the first echo: 42,000 drops in 30 s.
    bottleneck, flow = step_marked_flow("reno")
    stats = bottleneck.stats()
    assert stats["queue_drops"] == 0
    assert flow.stats()["ecn_reductions"] > 20
    assert stats["mean_queue_packets"] < 20


def test_dctcp_keeps_the_queue_near_k_at_full_rate_without_loss():
    # RFC 8257 / Alizadeh et al. 2010: with K above BDP / 7 the link stays
    # busy and the queue oscillates just below K; no packet is lost.
    bottleneck, flow = step_marked_flow("dctcp", k=20)
    stats = bottleneck.stats()
    assert stats["queue_drops"] == 0
    assert stats["utilization"] > 0.98
    assert 12 <= stats["mean_queue_packets"] <= 20
    assert flow.stats()["ecn_reductions"] > 100


def test_dctcp_negotiates_ecn_and_echoes_every_mark_unless_told_otherwise():
    # As Linux does for an algorithm that needs ECN: `cc="dctcp"` alone
    # behaves as with ecn=True and the per-packet echo; ecn=False still wins.
    def run(**ecn: bool) -> tuple[dict, dict]:
        sim = ac.Simulator(seed=1)
        s, r, d = sim.node("S"), sim.node("R"), sim.node("D")
        sim.duplex_link(s, r, "1Gb", "0ms", queue=ac.DropTail(limit=100_000))
        bottleneck = sim.duplex_link(r, d, "10Mb", "20ms", queue=ac.StepMark(k=20, limit=300))
        tcp = ac.TcpParams(profile="linux", cc="dctcp", mss=1448, **ecn)
        flow = sim.tcp(s, d, app=ac.Bulk(), tcp=tcp)
        sim.run(until=30)
        return bottleneck.stats(), flow.stats()

    implied, explicit = run(), run(ecn=True, ecn_per_packet_echo=True)
    assert implied == explicit
    assert implied[0]["queue_drops"] == 0 and implied[1]["ecn_reductions"] > 100
    without = run(ecn=False)
    assert without[0]["ecn_marks"] == 0 and without[0]["queue_drops"] > 0
