"""Notices from the core (python/ackclock/notices.py): echo replies,
messages and TCP byte marks, at the instant they happen, against times
computed by hand."""

import ackclock as ac
import pytest


def two_nodes():
    """A <-> B at 1 Mb/s with 10 ms of propagation delay each way."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "1Mb", "10ms")
    return sim, a, b


def test_ping_reply_arrives_after_two_transmissions_and_two_delays():
    sim, a, b = two_nodes()
    replies = []
    ping = sim.ping(a, b, lambda rtt: replies.append((sim.now, rtt)), packet_size=64)
    sim.at(0.5, ping.send)
    sim.run()
    # 64 bytes at 1 Mb/s take 512 us, each way; the reply leaves at once.
    rtt = 2 * (64 * 8 / 1e6 + 0.010)
    assert replies == [(pytest.approx(0.5 + rtt, abs=1e-12), pytest.approx(rtt, abs=1e-12))]


def test_pings_sent_together_queue_behind_each_other():
    sim, a, b = two_nodes()
    rtts = []
    ping = sim.ping(a, b, rtts.append, packet_size=125)
    for _ in range(3):
        sim.at(0, ping.send)
    sim.run()
    # 125 bytes take 1 ms: the n-th request waits n-1 ms; replies do not wait.
    assert rtts == pytest.approx([0.022, 0.023, 0.024], abs=1e-12)


def test_messages_arrive_with_what_they_carry_after_their_transmission_and_delay():
    sim, a, b = two_nodes()
    got = []
    there = sim.messages(a, b, lambda data: got.append((sim.now, data)))
    back = sim.messages(b, a, lambda data: got.append((sim.now, data)))

    def answer():
        got.append((sim.now, "asked"))
        back.send(250, {"answer": 1})

    sim.at(0.2, lambda: there.send(125, "question"))
    sim.at(0.2, lambda: there.send(125))  # behind it, carrying nothing
    sim.at(0.5, answer)
    sim.run()
    # 125 bytes take 1 ms at 1 Mb/s, 250 bytes 2 ms; 10 ms to cross.
    assert got == [
        (pytest.approx(0.211, abs=1e-12), "question"),
        (pytest.approx(0.212, abs=1e-12), None),
        (0.5, "asked"),
        (pytest.approx(0.512, abs=1e-12), {"answer": 1}),
    ]
    assert there.stats()["tx_packets"] == 2


def test_byte_marks_fire_in_order_once_each_when_the_bytes_have_arrived():
    sim, a, b = two_nodes()
    flow = sim.tcp(a, b, app=ac.Manual(), tcp=ac.TcpParams(mss=1000))
    fired = []
    sim.at(0.1, lambda: flow.write(3000))
    for mark in (3000, 1000):
        flow.when_received(mark, lambda mark=mark: fired.append((mark, sim.now)))
    sim.run(until=5)
    assert [mark for mark, _ in fired] == [1000, 3000]
    assert fired[0][1] < fired[1][1]
    assert flow.stats()["bytes_delivered"] == 3000


def test_server_answers_on_the_same_connection_from_a_mark():
    sim, a, b = two_nodes()
    flow = sim.tcp(a, b, app=ac.Manual(), tcp=ac.TcpParams(mss=1000))
    times = {}

    def request_arrived():
        times["request"] = sim.now
        flow.write(500, server=True)

    flow.write(100)
    flow.when_received(100, request_arrived)
    flow.when_received(500, lambda: times.setdefault("response", sim.now), server=False)
    sim.run(until=5)
    # It leaves at once: 500 bytes + 52 of headers (IP, TCP with timestamps)
    # take 4.416 ms at 1 Mb/s, plus 10 ms to cross.
    assert times["response"] - times["request"] == pytest.approx(0.014416, abs=1e-9)


def test_a_mark_below_what_has_arrived_fires_at_once():
    sim, a, b = two_nodes()
    flow = sim.tcp(a, b, app=ac.Manual())
    flow.write(100)
    sim.run(until=2)
    fired = []
    flow.when_received(50, lambda: fired.append(sim.now))
    sim.run(until=3)
    assert fired == [pytest.approx(2.0)]


def test_bad_ping_and_mark_arguments_are_refused_by_name():
    sim, a, b = two_nodes()
    with pytest.raises(ac.ConfigError, match="on_reply"):
        sim.ping(a, b, "not callable")
    with pytest.raises(ac.ConfigError, match="on_message"):
        sim.messages(a, b, "not callable")
    with pytest.raises(ac.ConfigError, match="size"):
        sim.messages(a, b, print).send(0)
    flow = sim.tcp(a, b, app=ac.Manual())
    with pytest.raises(ac.ConfigError, match="nbytes"):
        flow.when_received(0, lambda: None)


def test_each_side_writes_closes_and_reports_its_own_sequence_and_state():
    sim, a, b = two_nodes()
    full = ac.TcpParams(profile="ns2", mss=1000, ns2_full_tcp=True)
    flow = sim.tcp(a, b, app=ac.Manual(), tcp=full, server_tcp=full)
    flow.write(5000)
    sim.at(0.2, lambda: flow.write(3000, server=True))
    sim.at(1.0, lambda: flow.close(server=True))
    sim.run(until=1.2)
    # The server's data and FIN are acknowledged: 1 (SYN) + 3000 + 1 (FIN);
    # the client has all its data acknowledged and has not closed.
    assert flow.sequence(server=True) == (3002, 3002)
    assert flow.sequence() == (5001, 5001)
    assert (flow.state(), flow.state(server=True)) == ("close-wait", "fin-wait-2")
