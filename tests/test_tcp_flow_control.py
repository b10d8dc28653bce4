"""Flow control regressions (issue 11, "What was seen" items 5 and 6): a lost
update of a window below one segment, cwnd growing while the receiver's
window holds the flow, and profile buffers that cap a fast path."""

import ackclock as ac
import pytest


def test_a_lost_update_of_a_small_window_no_longer_stalls_a_slow_reader():
    # A 4 KB receive buffer read at 20 kb/s and 30% ACK loss: windows below
    # a segment are frequent and so are lost updates. Before, 7 of 10
    # transfers never finished (seed 000 sec. 4.2.3's deadlock).
    finished = []
    for seed in range(10):
        sim = ac.Simulator(seed=seed)
        a, b = sim.node("A"), sim.node("B")
        sim.duplex_link(a, b, "10Mb", "10ms")
        sim.link(b, a).set_loss(ac.UniformLoss(0.3))
        server = ac.TcpParams(receive_buffer="4KB")
        flow = sim.tcp(a, b, app=ac.Bulk("100KB"), server_tcp=server, read_rate="20kb")
        sim.run(until=3000)
        finished.append(flow.stats()["completion_time_s"] is not None)
    assert all(finished)


def test_cwnd_stays_put_while_the_receive_window_limits_the_flow():
    # Before: cwnd reached 12,336 segments in 60 s on this path (RFC 7661).
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "100Mb", "25ms", queue=ac.DropTail(limit=1000))
    server = ac.TcpParams(receive_buffer=65535)
    flow = sim.tcp(a, b, app=ac.Bulk(), server_tcp=server)
    sim.run(until=60)
    stats = flow.stats()
    assert stats["cwnd_bytes"] <= 2 * 65535
    assert stats["goodput_bps"] == pytest.approx(65535 * 8 / 0.05, rel=0.05)  # a window per RTT


@pytest.mark.parametrize("profile", ["rfc", "linux"])
def test_profile_buffers_do_not_cap_a_100mbit_100ms_path(profile):
    # Before, the rfc profile's 65,535-byte buffer allowed 5.2 Mbit/s here.
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "100Mb", "50ms", queue=ac.DropTail(limit=2000))
    flow = sim.tcp(a, b, app=ac.Bulk("50MB"), tcp=ac.TcpParams(profile=profile))
    sim.run(until=20)
    # 4 s at 100 Mbit/s, plus slow start; 77 s at 5.2 Mbit/s.
    assert flow.stats()["completion_time_s"] < 8
