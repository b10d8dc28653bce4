"""CoDel, FQ-CoDel and PIE: against ns-3's queue discs on the same overloaded
link (benchmarks/ns3/fixtures, written by benchmarks/ns3/aqm.py), and in the
TCP scenarios they were designed for."""

from __future__ import annotations

import json
from pathlib import Path

import ackclock as ac
import pytest
from ackclock import analysis
from ackclock.specs import Queue
from conftest import run_cli

NS3 = json.loads((Path(__file__).parents[1] / "benchmarks/ns3/fixtures/aqm.json").read_text())
NS3_QUEUES = {
    "ns3::CoDelQueueDisc": ac.CoDel(limit=1000),
    "ns3::PieQueueDisc": ac.PIE(limit=1000),
    "ns3::FqCoDelQueueDisc": ac.FQCoDel(),
}
PROPAGATION_S = 0.010


def ns3_link_run(scenario: dict) -> tuple[ac.Link, list[ac.Flow]]:
    """ns-3's scenario: point-to-point adds 2 bytes to each 1500-byte
    datagram on the wire, and its sources' rates count UDP payload."""
    ip, overhead = NS3["ip_bytes"], NS3["wire_overhead_bytes"]
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(
        a,
        b,
        round(NS3["link_bps"] * ip / (ip + overhead)),
        f"{PROPAGATION_S}s",
        queue=NS3_QUEUES[scenario["disc"]],
    )
    flows = [
        sim.cbr(a, b, rate=round(r * ip / (ip - 28)), packet_size=ip, stop=NS3["duration_s"])
        for r in scenario["rates_bps"]
    ]
    sim.run(until=NS3["duration_s"] + 1)
    return link, flows


@pytest.mark.parametrize("name", sorted(NS3["scenarios"]))
def test_drops_and_deliveries_match_ns3s_queue_disc(name: str) -> None:
    scenario = NS3["scenarios"][name]
    link, flows = ns3_link_run(scenario)
    drops = link.stats()["queue_drops"]
    assert drops == pytest.approx(scenario["drops"], rel=0.01), "the control law's drop count"
    delivered = [f.stats()["rx_packets"] for f in flows]
    assert delivered == pytest.approx(scenario["delivered_packets"], rel=0.002)


@pytest.mark.parametrize("name", ["codel_overload", "codel_mild_overload", "pie_overload"])
def test_sojourn_times_match_ns3s_within_one_transmission(name: str) -> None:
    # ns-3's device keeps one packet besides the one it sends, so its disc
    # releases each packet one transmission time (1.2 ms) before ackclock's.
    scenario = NS3["scenarios"][name]
    _, (flow,) = ns3_link_run(scenario)
    tx_s = NS3["ip_bytes"] * 8 / NS3["link_bps"]
    sojourn = flow.stats()["mean_delay_s"] - PROPAGATION_S - tx_s
    assert sojourn == pytest.approx(scenario["mean_sojourn_s"] + tx_s, rel=0.02, abs=0.001)


def bulk_flows(queue: Queue, flows: int = 8, rtts_ms: list[int] | None = None, **tcp) -> dict:
    """`flows` Linux NewReno flows over a 10 Mbit/s bottleneck."""
    sim = ac.Simulator(seed=1)
    r, d = sim.node("R"), sim.node("D")
    bottleneck = sim.duplex_link(r, d, "10Mb", "5ms", queue=queue)
    handles = []
    for i, rtt in enumerate(rtts_ms or [40] * flows):
        s = sim.node(f"S{i}")
        sim.duplex_link(s, r, "100Mb", f"{rtt / 2 - 5}ms", queue=ac.DropTail(limit=100_000))
        params = ac.TcpParams(profile="linux", cc="newreno", mss=1448, **tcp)
        handles.append(sim.tcp(s, d, app=ac.Bulk(), tcp=params))
    sim.run(until=60)
    stats = bottleneck.stats()
    goodputs = [f.stats()["goodput_bps"] for f in handles]
    return {
        # Little's law: packets waiting times the 1.2 ms each takes to send
        "queue_delay_s": stats["mean_queue_packets"] * 1500 * 8 / 10e6,
        "utilization": stats["utilization"],
        "drops": stats["queue_drops"],
        "marks": stats["ecn_marks"],
        "jain": analysis.jain_fairness(goodputs),
    }


def test_codel_and_pie_cut_a_fifos_standing_queue_to_near_their_targets() -> None:
    fifo = bulk_flows(ac.DropTail(limit=300))
    codel = bulk_flows(ac.CoDel())
    pie = bulk_flows(ac.PIE())
    assert fifo["queue_delay_s"] > 0.25, "eight flows fill a 300-packet FIFO"
    # Eight flows with a 4-packet share of the pipe cannot all back off
    # enough for 5 ms; CoDel still removes over 90% of the FIFO's delay.
    assert codel["queue_delay_s"] < 0.1 * fifo["queue_delay_s"]
    assert 0.010 <= pie["queue_delay_s"] <= 0.025, "PIE steers toward its 15 ms"
    for aqm in (codel, pie):
        assert aqm["utilization"] > 0.98


def test_fq_codel_shares_the_link_fairly_between_rtts_where_a_fifo_does_not() -> None:
    rtts = [20, 200]
    assert bulk_flows(ac.DropTail(limit=300), rtts_ms=rtts)["jain"] < 0.8
    assert bulk_flows(ac.CoDel(), rtts_ms=rtts)["jain"] < 0.8, "one queue: CoDel is not fair"
    assert bulk_flows(ac.FQCoDel(), rtts_ms=rtts)["jain"] > 0.93


def sparse_flow_delay(queue: Queue) -> float:
    """The queueing delay a 64 kbit/s flow sees beside four bulk flows."""
    sim = ac.Simulator(seed=1)
    r, d = sim.node("R"), sim.node("D")
    sim.duplex_link(r, d, "10Mb", "5ms", queue=queue)
    for i in range(4):
        s = sim.node(f"S{i}")
        sim.duplex_link(s, r, "100Mb", "15ms")
        sim.tcp(s, d, app=ac.Bulk(), tcp=ac.TcpParams(profile="linux", cc="cubic", mss=1448))
    p = sim.node("P")
    sim.duplex_link(p, r, "100Mb", "15ms")
    sparse = sim.cbr(p, d, rate="64kb", packet_size=100, start=5)
    sim.run(until=60)
    unqueued = 0.015 + 0.005 + 100 * 8 / 100e6 + 100 * 8 / 10e6
    return sparse.stats()["mean_delay_s"] - unqueued


def test_fq_codel_lets_a_sparse_flow_pass_the_bulk_queue() -> None:
    # FQ-CoDel serves a newly active queue first: the sparse flow waits at
    # most for the packet in transmission, not behind CoDel's 5 ms.
    assert sparse_flow_delay(ac.FQCoDel()) < 0.002
    assert sparse_flow_delay(ac.CoDel()) > 0.005


@pytest.mark.parametrize("queue", [ac.CoDel(ecn=True), ac.FQCoDel(ecn=True)])
def test_codel_marks_ecn_capable_packets_instead_of_dropping_them(queue: Queue) -> None:
    result = bulk_flows(queue, flows=4, ecn=True)
    assert result["drops"] == 0
    assert result["marks"] > 100
    assert result["utilization"] > 0.95


def test_pie_marks_only_while_its_probability_is_low() -> None:
    # RFC 8033 §5.1: above mark_threshold PIE drops even ECN-capable packets.
    always = bulk_flows(ac.PIE(ecn=True, mark_threshold=1.0), ecn=True)
    never = bulk_flows(ac.PIE(ecn=True, mark_threshold=0.0), ecn=True)
    assert always["drops"] == 0 and always["marks"] > 100
    assert never["marks"] == 0 and never["drops"] > 100


def test_a_codel_drop_is_traced_at_the_dequeue_that_sends_the_next_packet(tmp_path: Path) -> None:
    # CoDel drops only with more than an MTU still waiting, so each drop's
    # 'd' record shares its instant with the '-' of the packet sent instead.
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, "10Mb", "10ms", queue=ac.CoDel())
    sim.cbr(a, b, rate="12Mb", packet_size=1500, stop=5)
    sim.trace_queue(a, b, tmp_path / "codel.tr")
    sim.run(until=6)
    sim.close_traces()
    packets, _ = analysis.read_ns2_trace(tmp_path / "codel.tr")
    assert packets["time"].is_monotonic_increasing
    drops = packets[packets["event"] == "d"]
    assert len(drops) == link.stats()["queue_drops"] > 0
    dequeue_times = set(packets[packets["event"] == "-"]["time"])
    assert set(drops["time"]) <= dequeue_times
    assert (packets["event"] == "-").sum() == link.stats()["tx_packets"]


def test_a_link_going_down_loses_what_codel_holds_and_recovers() -> None:
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "10Mb", "10ms", queue=ac.CoDel())
    flow = sim.cbr(a, b, rate="12Mb", packet_size=1500, stop=4)
    sim.link_down(a, b, at=1.0)
    sim.link_up(a, b, at=2.0)
    sim.run(until=5)
    stats = flow.stats()
    # About a second of traffic is lost while down; the link carries the
    # rest at its rate afterwards (10 of the 12 Mbit/s offered).
    assert 0.25 < stats["loss_rate"] < 0.5
    assert stats["rx_packets"] > 2 * 10e6 / 8 / 1500 * 0.95


def api_cbr_overload(queue: Queue) -> list[int]:
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, "10Mb", "10ms", queue=queue)
    sim.cbr(a, b, rate="12Mb", packet_size=1000, stop=20)
    sim.run(until=21)
    return [link.stats()["queue_drops"], link.stats()["tx_packets"]]


@pytest.mark.parametrize(
    ("tcl_args", "queue"),
    [
        (["CoDel"], ac.CoDel(limit=1000)),
        (["CoDel", "target_", "20ms"], ac.CoDel(limit=1000, target="20ms")),
        (["FQ-CoDel", "flows_", "16"], ac.FQCoDel(limit=1000, flows=16)),
        (["PIE", "qdelay_ref_", "0.005"], ac.PIE(limit=1000, target="5ms")),
    ],
)
def test_tcl_queues_are_the_apis_with_their_variables(tcl_args: list[str], queue: Queue) -> None:
    script = Path(__file__).parent / "fixtures/aqm_cbr.tcl"
    done = run_cli("tcl", str(script), *tcl_args)
    assert done.returncode == 0, done.stderr
    assert [int(x) for x in done.stdout.split()] == api_cbr_overload(queue)
