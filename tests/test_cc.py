"""The congestion-control catalogue in whole simulations, each algorithm
against the real thing or the paper it comes from (docs/tcp.md lists them).

The live-Linux figures are the issue's reference runs (Linux 6.18, one flow
through 10 Mbit/s, 40 ms RTT, a 33-packet FIFO, 1500-byte packets, 30 s);
examples/cubic.toml and examples/bbr.toml are that dumbbell.
"""

import sys

import ackclock as ac
import numpy as np
import pandas as pd
import pytest
from ackclock.analysis import jain_fairness
from ackclock.scenario import load_scenario
from conftest import EXAMPLES, ROOT

STEADY = (5.0, 30.0)


def time_mean(series, name, start, end):
    """The time average of a recorded step series over [start, end]."""
    times, values = (np.asarray(x, dtype=float) for x in series[name])
    edges = np.clip(np.append(times, end), start, end)
    return float(np.sum(values * np.diff(edges)) / (end - start))


def reference_run(example):
    sim = load_scenario(EXAMPLES / example).run()
    (flow,) = sim.flows
    return flow, sim.link(sim.nodes[1], sim.nodes[2])


sys.path.insert(0, str(ROOT / "benchmarks" / "linux"))
from sawtooth import teeth  # noqa: E402  (the live runs' own reduction)


def steady_teeth(series):
    """Peak to trough of each tooth in the steady part, as the live runs are
    reduced: PRR takes cwnd down one segment per ACK over a round trip."""
    times, cwnd = series["cwnd_segments"]
    return pd.DataFrame([x for x in teeth(times, cwnd) if x["time"] >= STEADY[0]])


def test_cubic_matches_live_linux_on_the_reference_dumbbell():
    # Linux 6.18: 9.62 Mbit/s, cwnd mean 59, teeth 67 -> 46 every ~2.5 s.
    flow, _ = reference_run("cubic.toml")
    series = flow.series()
    assert flow.stats()["goodput_bps"] == pytest.approx(9.62e6, rel=0.02)
    assert time_mean(series, "cwnd_segments", *STEADY) == pytest.approx(59, rel=0.05)
    found = steady_teeth(series)
    assert len(found) >= 9
    assert found["peak"].median() == pytest.approx(67, rel=0.05)
    assert found["trough"].median() == pytest.approx(46, rel=0.05)
    assert np.diff(found["time"]).mean() == pytest.approx(2.5, rel=0.05)
    # The trough is beta = 0.7 of the peak, in whole segments (Linux).
    assert (found["trough"] == np.floor(0.7 * found["peak"])).all()


def test_bbr_matches_live_linux_on_the_reference_dumbbell():
    # Linux 6.18: 9.48 Mbit/s (98.3% of the link), cwnd mean 77, about 8
    # packets queued, srtt about 50 ms.
    flow, bottleneck = reference_run("bbr.toml")
    series = flow.series()
    assert flow.stats()["goodput_bps"] == pytest.approx(9.48e6, rel=0.02)
    assert bottleneck.stats()["utilization"] == pytest.approx(0.983, abs=0.01)
    assert time_mean(series, "cwnd_segments", *STEADY) == pytest.approx(77, rel=0.05)
    assert abs(bottleneck.stats()["mean_queue_packets"] - 8) <= 2
    assert time_mean(series, "srtt", *STEADY) == pytest.approx(0.050, rel=0.05)


def test_bbr_cycles_its_pacing_gain_around_the_bottleneck_rate():
    flow, _ = reference_run("bbr.toml")
    times, rates = (np.asarray(x) for x in flow.series()["pacing_rate"])
    steady = rates[(times >= STEADY[0]) & (times <= STEADY[1])]
    # The estimate is the link's 833 packets/s of 1448 bytes (10 Mbit/s of
    # 1500-byte packets), paced 1% below: gains 1, 5/4 and 3/4 of it.
    bw = 10e6 / 1500 / 8 * 1448 * 8 * 0.99
    for gain in (1.0, 1.25, 0.75):
        assert np.isclose(steady, gain * bw, rtol=0.01).any(), gain
    assert steady.min() >= 0.74 * bw and steady.max() <= 1.26 * bw


def dumbbell(cc, bandwidth, delay, queue, seconds, **tcp):
    """One flow S -> R -> D through a bottleneck R -> D of `delay` each way."""
    sim = ac.Simulator(seed=1)
    s, r, d = sim.node("S"), sim.node("R"), sim.node("D")
    sim.duplex_link(s, r, "1Gb", "0ms", queue=ac.DropTail(limit=100_000))
    bottleneck = sim.duplex_link(r, d, bandwidth, delay, queue=ac.DropTail(limit=queue))
    params = ac.TcpParams(profile="linux", cc=cc, mss=1448, receive_buffer="256MiB", **tcp)
    flow = sim.tcp(s, d, app=ac.Bulk(), tcp=params, record=True)
    bottleneck.record_queue()
    sim.run(until=seconds)
    return flow, bottleneck


def test_vegas_keeps_alpha_to_beta_segments_queued_without_loss():
    # Brakmo & Peterson: 1 to 3 extra segments in the network, so the
    # bottleneck queue holds about that many and never overflows.
    flow, bottleneck = dumbbell("vegas", "10Mb", "20ms", 33, 30)
    stats = bottleneck.stats()
    assert stats["queue_drops"] == 0 and flow.stats()["retransmits"] == 0
    assert 1.0 <= stats["mean_queue_packets"] <= 3.0
    assert stats["utilization"] > 0.97
    # With alpha 6, beta 10 the queue settles between 6 and 10.
    flow, bottleneck = dumbbell("vegas", "10Mb", "20ms", 33, 30, cc_params={"alpha": 6, "beta": 10})
    assert 6.0 <= bottleneck.stats()["mean_queue_packets"] <= 10.0


def queue_mean(bottleneck, start, end):
    q = bottleneck.queue_series()
    return time_mean({"q": (q["time_s"], q["packets"])}, "q", start, end)


def test_compound_fills_a_long_fat_pipe_in_seconds_and_then_queues_about_gamma():
    # Tan et al. (INFOCOM 2006): from a window of 200 segments on a 833-
    # segment pipe (100 Mbit/s, 100 ms), the delay window grows alpha win^k
    # a round (5.6 at 200, 14 at 600) and fills the pipe within seconds,
    # where Reno's one segment a round needs a minute; then it gives way as
    # the queue passes gamma = 30, holding the window near BDP + gamma while
    # the loss window grows underneath.
    start = {"initial_ssthresh": 200 * 1448}
    ctcp, ctcp_link = dumbbell("compound", "100Mb", "50ms", 2000, 30, **start)
    reno, _ = dumbbell("newreno", "100Mb", "50ms", 2000, 30, **start)
    at = ac.series.value_before
    assert at(ctcp.series(), "cwnd_segments", 8.0) > 833
    assert at(reno.series(), "cwnd_segments", 8.0) < 300
    assert 15 <= queue_mean(ctcp_link, 10.0, 25.0) <= 60
    cwnd = [at(ctcp.series(), "cwnd_segments", t) for t in (10.0, 25.0)]
    assert cwnd[1] - cwnd[0] < 60, "Reno alone would add 150 segments in 15 s"
    assert ctcp_link.stats()["queue_drops"] == 0


def test_highspeed_adds_a_of_w_segments_a_round_at_large_windows():
    # RFC 3649: at w = 1000 segments a(w) = 7.85 a round against Reno's 1.
    # The pipe holds 8333 segments at a 1 s RTT: the window grows without
    # loss, a round's ACKs arriving in the 0.12 s after each whole second
    # (the first round is limited by the receiver's unscaled SYN window).
    start = {"initial_ssthresh": 1000 * 1448, "initial_window": 1000}
    per_round = {}
    for cc in ("highspeed", "newreno"):
        flow, _ = dumbbell(cc, "100Mb", "500ms", 10_000, 7, **start)
        cwnd = [ac.series.value_before(flow.series(), "cwnd_segments", t) for t in (2.5, 6.5)]
        per_round[cc] = (cwnd[1] - cwnd[0]) / 4
    assert per_round["newreno"] == pytest.approx(1.0)
    assert per_round["highspeed"] == pytest.approx(7.9, rel=0.02)


def test_seed001_compound_and_newreno_pairs_share_the_bottleneck_fairly():
    # Seed 001's dumbbell (benchmarks/seed001.py): two flows of one
    # algorithm through 10 Mbit/s and 100 ms; the paper finds both pairs
    # fair, Compound reaching larger windows.
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import seed001

    for cc in ("compound", "newreno"):
        rows = seed001.run(cc, "120s", queue=100, mss=1460, seed=1)
        goodputs = [row["goodput_bps"] for row in rows]
        assert sum(goodputs) == pytest.approx(10e6 * 1460 / 1500, rel=0.1), cc
        assert jain_fairness(goodputs) > 0.99, cc
