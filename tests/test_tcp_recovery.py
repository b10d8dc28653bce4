"""Loss recovery regressions on the dumbbell of issue 11 ("What was seen"
item 1): 10 Mbit/s, 40 ms RTT, a 33-packet FIFO and Linux-like settings, where
live Linux 6.18 Reno drops 69 packets in the first 3 s and takes no
retransmission timeout."""

import ackclock as ac
import pytest

LINUX_LIKE = {
    "profile": "linux",
    "mss": 1448,
    "initial_window": 10,
    "sack": True,
    "dsack": True,
    "timestamps": True,
    "window_scale": True,
    "abc": True,
    "limited_transmit": True,
    "delayed_ack": True,
    "delayed_ack_timeout": "40ms",
    "min_rto": "200ms",
    "initial_rto": "1s",
    "receive_buffer": "32MiB",
}


def dumbbell(cc):
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    sim.duplex_link(a, r, "1Gb", "1ms")
    bottleneck = sim.duplex_link(r, b, "10Mb", "19ms", queue=ac.DropTail(limit=33, ns2_limit=True))
    flow = sim.tcp(a, b, app=ac.Bulk(), tcp=ac.TcpParams(cc=cc, **LINUX_LIKE), record=True)
    return sim, bottleneck, flow


@pytest.mark.parametrize("cc", ["reno", "newreno"])
def test_a_timeout_during_sack_recovery_does_not_inflate_ssthresh(cc):
    sim, bottleneck, flow = dumbbell(cc)
    sim.run(until=3)
    # Before the fix: an RTO in recovery took ssthresh from a flight that had
    # grown during recovery and Reno re-entered recovery at once, so ssthresh
    # climbed 68 -> 151 -> 171 -> 273 packets and 2341 packets were dropped.
    assert bottleneck.stats()["queue_drops"] < 100  # live Linux: 69
    times, ssthresh = flow.series()["ssthresh"]
    segments = [s / flow.mss for s in ssthresh[1:]]  # after the unbounded start
    assert max(segments) <= 70, segments


@pytest.mark.parametrize("cc", ["reno", "newreno"])
def test_rack_tlp_and_prr_recover_the_slow_start_overshoot_without_a_timeout(cc):
    # Live Linux takes no RTO here; before RACK-TLP and PRR, ackclock took one.
    sim, bottleneck, flow = dumbbell(cc)
    sim.run(until=10)
    stats = flow.stats()
    assert stats["timeouts"] == 0
    assert stats["fast_retransmits"] >= 4  # one per sawtooth tooth
    assert stats["goodput_bps"] > 9.3e6


def newreno_transfer_losing(drops):
    """100 kB of NewReno in 1000-byte segments over 10 Mbit/s, 40 ms RTT,
    losing the data segments `drops` names (ac.DropSegments)."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "10Mb", "20ms")
    sim.link(a, b).set_loss(ac.DropSegments(drops))
    flow = sim.tcp(a, b, app=ac.Bulk(bytes=100_000), tcp=ac.TcpParams(cc="newreno", mss=1000))
    sim.run()
    return flow.stats(), sim.link(a, b).stats()["loss_drops"]


@pytest.mark.parametrize(
    ("drops", "lost", "fast_retransmits", "timeouts"),
    [
        ([4001], 1, 1, 0),  # one hole: three duplicate ACKs, one fast retransmit
        ([4001, 6001], 2, 1, 0),  # two holes in a window: one recovery (RFC 6582)
        ([4001, (4001, 2)], 2, 1, 1),  # the retransmission lost too: a timeout
    ],
)
def test_segments_dropped_by_sequence_number_take_the_recovery_the_rfcs_give(
    drops, lost, fast_retransmits, timeouts
):
    stats, dropped = newreno_transfer_losing(drops)
    assert dropped == lost
    assert (stats["fast_retransmits"], stats["timeouts"]) == (fast_retransmits, timeouts)
    assert stats["retransmits"] == lost
    assert stats["bytes_delivered"] == 100_000


def test_drop_segments_refuses_a_sequence_offset_of_zero():
    with pytest.raises(ac.ConfigError, match="drops"):
        ac.DropSegments([0])
