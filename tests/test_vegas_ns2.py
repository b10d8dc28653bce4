"""Agent/TCP/Vegas under `ackclock tcl` against real ns-2 2.35 (the fixture
tests/fixtures/ns2_vegas.json, recorded by benchmarks/ns2/reno_vegas.py;
docs/ns2-profile.md describes the agent)."""

from __future__ import annotations

import json
import statistics
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))
import reno_vegas  # noqa: E402

NS2 = json.loads(reno_vegas.FIXTURE.read_text())
ACKCLOCK = [sys.executable, "-m", "ackclock", "tcl"]


@pytest.mark.parametrize("point", ["3/10", "5/10", "7/10"])
def test_one_vegas_flow_follows_ns2s_window_and_acks(point):
    # basic1.tcl with a Vegas sender, deterministic: queue 7 loses nothing,
    # 3 and 5 lose packets (5 also takes a timeout in both).
    queue, end = (int(x) for x in point.split("/"))
    ack, maxseq, _, cwnd, retransmitted, timeouts = reno_vegas.single_vegas(ACKCLOCK, queue, end)
    ns2 = NS2["single"][point]
    assert cwnd == pytest.approx(ns2[3], abs=1e-4)
    assert (timeouts, ack - maxseq) == (ns2[5], ns2[0] - ns2[1])
    # ackclock's first packet is a 40-byte SYN where ns-2's Vegas sends a
    # whole packetSize_: one packet ahead from the start, and a few more
    # after the loss episodes.
    assert 0 < ack - ns2[0] <= 0.08 * ns2[0]
    assert abs(retransmitted - ns2[4]) <= 2


@pytest.mark.parametrize("queue", [20, 110])
def test_reno_against_vegas_splits_the_link_as_in_ns2(queue):
    # Seed 003 sec. 16.5: the Reno/Vegas goodput ratio over 300 s, median of
    # five seeds (overhead_ makes each run a draw), within 10% of ns-2's.
    ours = [reno_vegas.reno_vegas(ACKCLOCK, queue, seed) for seed in range(1, 6)]
    ns2 = NS2["reno_vegas"]["recv"]["3/6"][str(queue)]
    median = statistics.median(reno_vegas.ratios(ours))
    assert median == pytest.approx(statistics.median(reno_vegas.ratios(ns2)), rel=0.10)
