"""The `linux` profile against live Linux 6.18 (benchmarks/linux): Reno on a
10 Mbit/s, 40 ms, 33-packet dumbbell for 30 s, built as the namespace
harness builds it (the whole delay on the ACK path), reduced to the same
numbers by the same code, within 5% of the three live runs' mean."""

from __future__ import annotations

import json
import sys

import ackclock as ac
import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks" / "linux"))
from sawtooth import from_ackclock  # noqa: E402

FIXTURE = ROOT / "benchmarks" / "linux" / "fixtures" / "reno_10mbit_40ms_q33.json"


def live_dumbbell(cc: str, fixture: dict) -> dict:
    config = fixture["runs"][0]["config"]
    sim = ac.Simulator(seed=1)
    a, r, b = sim.node("A"), sim.node("R"), sim.node("B")
    rtt = f"{config['rtt_ms']}ms"
    sim.duplex_link(a, r, "10Gb", 0, reverse=ac.LinkParams(delay=rtt))
    queue = ac.DropTail(limit=config["queue_packets"], ns2_limit=True)
    rate = config["rate"].replace("mbit", "Mb")
    bottleneck = sim.duplex_link(
        r, b, rate, 0, queue=queue, reverse=ac.LinkParams(bandwidth="10Gb")
    )
    tcp = ac.TcpParams(profile="linux", cc=cc, mss=config["mss"])
    flow = sim.tcp(a, b, app=ac.Bulk(), tcp=tcp, record=True)
    sim.run(until=config["duration_s"])
    return from_ackclock(sim, flow, bottleneck, config)


@pytest.fixture(scope="module")
def reno() -> tuple[dict, dict]:
    fixture = json.loads(FIXTURE.read_text())
    return live_dumbbell("reno", fixture)["summary"], fixture["mean"]


@pytest.mark.parametrize(
    "metric", ["goodput_bps", "cwnd_mean", "peak_median", "trough_median", "period_s"]
)
def test_linux_profile_reno_matches_live_linux_within_5_percent(reno, metric):
    simulated, live = reno
    assert simulated[metric] == pytest.approx(live[metric], rel=0.05)


def test_linux_profile_reno_takes_no_timeout_like_live_linux(reno):
    simulated, live = reno
    assert simulated["timeouts"] == live["timeouts"] == 0
