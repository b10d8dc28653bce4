"""The Python API against numbers computed by hand."""

import ackclock as ac
import pytest


def one_link():
    """A -> B at 1 Mb/s with 10 ms of propagation delay."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.simplex_link(a, b, "1Mb", "10ms")
    return sim, a, b, link


def test_each_packet_takes_transmission_plus_propagation_delay():
    # 1000-byte packets every 10 ms (800 kb/s) over 1 Mb/s, 10 ms: 8 ms + 10 ms each.
    sim, a, b, link = one_link()
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=100)
    assert sim.run() == "idle"
    stats = flow.stats()
    assert stats["tx_packets"] == stats["rx_packets"] == 100
    assert stats["tx_bytes"] == stats["rx_bytes"] == 100_000
    assert stats["mean_delay_s"] == pytest.approx(0.018, rel=1e-12)
    assert stats["max_delay_s"] == pytest.approx(0.018, rel=1e-12)
    assert stats["delay_p50_s"] == pytest.approx(0.018, rel=0.01)
    assert stats["delay_p99_s"] == pytest.approx(0.018, rel=0.01)
    # The last packet leaves at 990 ms and arrives 18 ms later.
    assert sim.now == pytest.approx(1.008, rel=1e-12)


def test_utilization_is_exactly_busy_fraction_over_whole_intervals():
    sim, a, b, link = one_link()
    sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=100)
    assert sim.run(until="1s") == "until"
    assert sim.now == 1.0
    stats = link.stats()
    assert stats["tx_packets"] == 100
    assert stats["utilization"] == pytest.approx(0.8, rel=1e-12)  # 8 ms busy per 10 ms
    assert stats["mean_queue_packets"] == 0.0  # each packet finds the link idle
    assert stats["drops"] == 0
    assert (stats["from"], stats["to"], stats["bandwidth_bps"], stats["delay_s"]) == (
        "A",
        "B",
        10**6,
        0.01,
    )


def test_occupancy_distribution_matches_busy_fraction():
    sim, a, b, link = one_link()
    sim.cbr(a, b, rate="800kb", packet_size=1000, max_packets=100)
    sim.run(until="1s")
    assert link.occupancy_distribution() == pytest.approx([0.2, 0.8], rel=1e-12)


@pytest.mark.parametrize(("ns2_limit", "delivered"), [(False, 6), (True, 5)])
def test_queue_limit_conventions_differ_by_the_packet_in_service(ns2_limit, delivered):
    # 20 packets reach R 160 us apart, while the 1 Mb/s link needs 8 ms per packet:
    # the first is sent at once and the rest queue. limit=5 holds 5 waiting
    # packets, or with ns-2's convention 4 waiting + the one being sent.
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.simplex_link(a, r, "100Mb", "1ms")
    bottleneck = sim.simplex_link(
        r, b, "1Mb", "1ms", queue=ac.DropTail(limit=5, ns2_limit=ns2_limit)
    )
    flow = sim.cbr(a, b, rate="50Mb", packet_size=1000, max_packets=20)
    sim.run()
    assert flow.stats()["rx_packets"] == delivered
    assert bottleneck.stats()["queue_drops"] == 20 - delivered
    assert bottleneck.stats()["drops"] == 20 - delivered


def test_byte_limited_queue_counts_bytes():
    # Same burst; 2500 bytes hold two 1000-byte packets waiting.
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.simplex_link(a, r, "100Mb", "1ms")
    bottleneck = sim.simplex_link(r, b, "1Mb", "1ms", queue=ac.DropTail(limit=2500, unit="bytes"))
    flow = sim.cbr(a, b, rate="50Mb", packet_size=1000, max_packets=20)
    sim.run()
    assert flow.stats()["rx_packets"] == 3
    assert bottleneck.stats()["queue_drops"] == 17


def test_packets_are_routed_over_several_hops():
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "1Mb", "10ms")
    sim.duplex_link(r, b, "1Mb", "5ms")
    flow = sim.cbr(a, b, rate="100kb", packet_size=1000, max_packets=10)
    sim.run()
    # Two store-and-forward hops: 2 x 8 ms + 10 ms + 5 ms.
    assert flow.stats()["mean_delay_s"] == pytest.approx(0.031, rel=1e-12)
    assert sim.link(a, r).stats()["tx_packets"] == sim.link(r, b).stats()["tx_packets"] == 10
    assert sim.link(r, a).stats()["tx_packets"] == 0


def test_asymmetric_duplex_link_has_its_own_bandwidth_in_each_direction():
    sim = ac.Simulator(seed=1)
    client, server = sim.node("client"), sim.node("server")
    down = sim.duplex_link(
        server, client, "10Mb", "30ms", reverse=ac.LinkParams(bandwidth="28.8kb")
    )
    up = sim.link(client, server)
    # Down: 1000 B (0.8 ms) every 1.6 ms. Up: 36 B (10 ms at 28.8 kb/s) every 20 ms.
    sim.cbr(server, client, rate="5Mb", packet_size=1000)
    sim.cbr(client, server, rate="14.4kb", packet_size=36)
    sim.run(until="1s")
    assert down.stats()["bandwidth_bps"] == 10_000_000 and up.stats()["bandwidth_bps"] == 28_800
    assert up.stats()["delay_s"] == 0.03  # not overridden, so the same as downstream
    assert down.stats()["utilization"] == pytest.approx(0.5, rel=1e-12)
    assert up.stats()["utilization"] == pytest.approx(0.5, rel=1e-12)


def test_callbacks_fire_at_their_time_in_order_and_may_schedule_more():
    sim, a, b, link = one_link()
    fired = []
    sim.at(1.5, lambda: fired.append(("late", sim.now)))
    sim.at("500ms", lambda: fired.append(("early", sim.now)))
    sim.at(1, lambda: fired.append(("first at 1", sim.now)))
    sim.at(1, lambda: fired.append(("second at 1", sim.now)))

    def chain():
        fired.append(("chain", sim.now))
        sim.at(sim.now + 0.25, lambda: fired.append(("chained", sim.now)))

    sim.at(2, chain)
    assert sim.run() == "idle"
    assert fired == [
        ("early", 0.5),
        ("first at 1", 1.0),
        ("second at 1", 1.0),
        ("late", 1.5),
        ("chain", 2.0),
        ("chained", 2.25),
    ]


def test_callback_after_until_waits_for_the_next_run():
    sim, a, b, link = one_link()
    fired = []
    sim.at(5, lambda: fired.append(sim.now))
    assert sim.run(until=4) == "until"
    assert fired == [] and sim.now == 4.0
    sim.run(until=6)
    assert fired == [5.0] and sim.now == 6.0


def test_stop_from_a_callback_ends_the_run_at_that_time():
    sim, a, b, link = one_link()
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000)
    sim.at("7.005s", sim.stop)
    assert sim.run(until="20s") == "stopped"
    assert sim.now == 7.005
    assert flow.stats()["tx_packets"] == 701  # at 0, 10 ms, ..., 7 s
    assert sim.run(until="20s") == "until"  # the next run continues
    assert sim.now == 20.0 and flow.stats()["tx_packets"] == 2001


def test_exception_in_a_callback_propagates():
    sim, a, b, link = one_link()
    sim.at(1, lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        sim.run()
    assert sim.now == 1.0


def results_of(seed, replication=0):
    sim = ac.Simulator(seed=seed, replication=replication)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "10Mb", "1ms")
    sim.duplex_link(r, b, "1Mb", "10ms", queue=ac.DropTail(limit=10))
    sim.link(r, b).set_loss(ac.UniformLoss(0.05))
    sim.link(r, b).set_jitter(ac.ExponentialDelay("1ms"))
    sim.poisson(a, b, mean_interval="5ms", packet_size=ac.ExponentialSize(800))
    sim.on_off(a, b, rate="1Mb", on_mean="200ms", off_mean="300ms", packet_size=500)
    sim.run(until="5s")
    return sim.results()


def test_same_seed_gives_identical_results():
    assert results_of(seed=3) == results_of(seed=3)


def test_different_seed_or_replication_gives_different_results():
    assert results_of(seed=3)["flows"] != results_of(seed=4)["flows"]
    assert results_of(seed=3)["flows"] != results_of(seed=3, replication=1)["flows"]


def test_results_name_nodes_and_flows():
    sim = ac.Simulator(seed=9, replication=2)
    a, b = sim.node(), sim.node()
    sim.simplex_link(a, b, 10**6, 0.001)
    sim.cbr(a, b, 8000, packet_size=100, max_packets=1)
    sim.poisson(a, b, 1, max_packets=1, name="pings")
    sim.run()
    results = sim.results()
    assert (results["seed"], results["replication"]) == (9, 2)
    assert [(link["from"], link["to"]) for link in results["links"]] == [("n0", "n1")]
    assert [(f["id"], f["kind"], f["src"], f["dst"]) for f in results["flows"]] == [
        ("cbr0", "cbr", "n0", "n1"),
        ("pings", "poisson", "n0", "n1"),
    ]
    assert results["events"] == sim.events > 0
    assert results["sim_time_s"] == sim.now


def test_handles_have_readable_reprs():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, "28.8kb", "50ms")
    flow = sim.cbr(a, b, "1Mb")
    assert repr(a) == "Node('A')"
    assert repr(link) == "Link(A->B, 28.8kb, 50ms)"
    assert repr(sim.link(b, a)) == "Link(B->A, 28.8kb, 50ms)"
    assert repr(flow) == "Flow('cbr0', cbr, A->B)"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s, a, b: s.duplex_link(a, b, "0Mb", "1ms"), "bandwidth: '0Mb' is not a bandwidth"),
        (lambda s, a, b: s.duplex_link(a, b, -5, "1ms"), "bandwidth: -5 is not a bandwidth"),
        (lambda s, a, b: s.duplex_link(a, b, "1Mb", "soon"), "delay: 'soon' is not a duration"),
        (lambda s, a, b: s.duplex_link(a, "B", "1Mb", 0), "b: 'B' is not a node of this simulator"),
        (lambda s, a, b: s.duplex_link(a, a, "1Mb", 0), "a link needs two different nodes"),
        (
            lambda s, a, b: s.simplex_link(a, b, "1Mb", 0, queue="fifo"),
            "queue: 'fifo' is not a queue",
        ),
        (
            lambda s, a, b: s.duplex_link(a, b, "1Mb", 0, reverse={"bandwidth": 1}),
            "reverse: {'bandwidth': 1} is not an ackclock.LinkParams",
        ),
        (
            lambda s, a, b: s.cbr(a, b, rate="1Mb", packet_size=20),
            "packet_size: 20 is not a packet size",
        ),
        (lambda s, a, b: s.cbr(a, b, rate="1Mb", stop=0), "stop: 0 is not a stop time"),
        (
            lambda s, a, b: s.cbr(a, b, rate="1Mb", max_packets=0),
            "max_packets: 0 is not a packet count",
        ),
        (lambda s, a, b: s.cbr(a, b, rate="1Mb", ecn=1), "ecn: 1 is not a flag"),
        (
            lambda s, a, b: s.poisson(a, b, mean_interval=0),
            "mean_interval: 0 is not a duration: it must be greater than zero",
        ),
        (lambda s, a, b: s.node("A"), "name: 'A' is already the name of a node"),
        (lambda s, a, b: s.link(b, a), "there is no link B->A"),
        (lambda s, a, b: s.at(-1, print), "time: -1 is not a duration"),
        (lambda s, a, b: s.at(1, "print"), "callback: 'print' is not callable"),
        (lambda s, a, b: s.run(until="later"), "until: 'later' is not a duration"),
        (lambda s, a, b: ac.Simulator(seed=-1), "seed: -1 is not a seed"),
        (lambda s, a, b: ac.Simulator(seed=1.5), "seed: 1.5 is not a seed"),
    ],
)
def test_wrong_arguments_raise_config_error_naming_parameter_and_value(call, message):
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    with pytest.raises(ac.ConfigError) as caught:
        call(sim, a, b)
    assert message in str(caught.value)


def test_nodes_of_another_simulator_are_refused():
    other = ac.Simulator().node("X")
    sim = ac.Simulator()
    with pytest.raises(ac.ConfigError, match="src: Node\\('X'\\) is not a node of this simulator"):
        sim.simplex_link(other, sim.node("A"), "1Mb", 0)


def test_failed_duplex_link_creates_neither_direction():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    with pytest.raises(ac.ConfigError):
        sim.duplex_link(a, b, "1Mb", "1ms", reverse=ac.LinkParams(queue=ac.RED()), queue="bad")
    back = sim.simplex_link(b, a, "1Mb", "1ms")
    assert sim.links == (back,)
    assert sim.link(b, a) is back


def test_unreachable_destination_is_reported_by_run_naming_flow_and_nodes():
    sim = ac.Simulator()
    a, b = sim.node("A"), sim.node("B")
    sim.simplex_link(a, b, "1Mb", "1ms")
    sim.cbr(b, a, "1Mb", name="backwards")
    with pytest.raises(ac.ConfigError) as caught:
        sim.run(until=1)
    assert all(name in str(caught.value) for name in ("'backwards'", "'A'", "'B'"))


def test_cbr_sends_the_packet_due_exactly_at_stop_and_none_after():
    sim = ac.Simulator(seed=1)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "1ms")
    flow = sim.cbr(a, b, rate="8000b", packet_size=1000, stop="2s")  # one packet a second
    sim.run("5s")
    assert flow.stats()["tx_packets"] == 3  # at 0, 1 and 2 s, as ns-2's CBR stop does


def test_jittered_cbr_spreads_its_gaps_around_the_interval_as_ns2s_random_does():
    sim = ac.Simulator(seed=1)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "1ms")
    flow = sim.cbr(a, b, rate="800kb", packet_size=1000, stop="100s", jitter=True)
    steady = sim.cbr(a, b, rate="800kb", packet_size=1000, stop="100s")
    sim.run("101s")
    # 10 ms on average: about as many packets as without jitter, gaps from 5 to 15 ms
    assert flow.stats()["tx_packets"] == pytest.approx(steady.stats()["tx_packets"], rel=0.02)
    assert steady.stats()["tx_packets"] == 10001
    with pytest.raises(ac.ConfigError, match="jitter"):
        sim.cbr(a, b, rate="800kb", jitter="yes")


def test_retuned_cbr_spaces_packets_after_the_scheduled_one_anew():
    # 100 kb/s of 1000-byte packets: 80 ms apart, 13 by 0.96 s. At 1 s,
    # 500-byte packets at 200 kb/s: the packet due at 1.04 s keeps its time
    # (with the new size), the next ones leave 20 ms apart: 49 from 1.04 s
    # to 2 s.
    sim, a, b, link = one_link()
    flow = sim.cbr(a, b, rate="100kb", packet_size=1000, stop=2.0)
    sim.at(1.0, lambda: flow.retune(packet_size=500))
    sim.at(1.0, lambda: flow.retune(rate="200kb"))
    sim.run()
    stats = flow.stats()
    assert stats["tx_packets"] == 13 + 49
    assert stats["tx_bytes"] == 13 * 1000 + 49 * 500


def test_retune_refuses_a_parameter_the_source_lacks():
    sim, a, b, link = one_link()
    flow = sim.on_off(a, b, rate="100kb", on_mean=0.5, off_mean=0.5)
    with pytest.raises(ac.ConfigError, match="jitter"):
        flow.retune(jitter=True)
