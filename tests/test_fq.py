"""ns-2.35's fair queueing (`duplex-link ... FQ`): against ns-2 itself on the
fixture tests/fixtures/ns2_fq.tcl (its output in ns2_fq.json), and through
the Python API and scenario files."""

from __future__ import annotations

import json
from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
NS2 = json.loads((FIXTURES / "ns2_fq.json").read_text())


@pytest.mark.parametrize("mode", ["udp", "tcp"])
def test_fq_bottleneck_matches_ns2_counts_and_sinks_exactly(mode: str, tmp_path: Path) -> None:
    # Three CBR sources (flow ids against their start order) overload the
    # FQ link by a quarter; each flow's queue overflows. Every link's
    # + - r d count and each sink's packets and bytes are ns-2's, with and
    # without a TCP flow competing.
    trace = tmp_path / "fq.tr"
    done = run_cli("tcl", "ns2_fq.tcl", mode, str(trace), cwd=FIXTURES)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == NS2[mode]


def test_fq_link_ignores_the_queue_limit_and_refuses_red_flow_queues(tmp_path: Path) -> None:
    # ns-2's queue-limit sets the FQ object's limit_, which FQ never reads.
    script = (FIXTURES / "ns2_fq.tcl").read_text()
    limited = tmp_path / "limited.tcl"
    limited.write_text(script.replace("$ns queue-limit $d $r 100", "$ns queue-limit $r $d 5"))
    done = run_cli("tcl", str(limited), "udp", str(tmp_path / "a.tr"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == NS2["udp"]
    red = tmp_path / "red.tcl"
    red.write_text("FQLink set queueManagement_ RED\n" + script)
    done = run_cli("tcl", str(red), "udp", str(tmp_path / "b.tr"))
    assert done.returncode == 2
    assert "FQLink queueManagement_ RED is not supported" in done.stderr


def sources_through_fq(limit: int) -> list[int]:
    """1000-byte packets at 2 and 0.5 Mbit/s share a 1 Mbit/s FQ link for
    10 s; the packets each delivers."""
    sim = ac.Simulator(seed=1)
    a, b, r, d = sim.node(), sim.node(), sim.node(), sim.node()
    sim.duplex_link(a, r, "10Mb", "1ms")
    sim.duplex_link(b, r, "10Mb", "1ms")
    sim.duplex_link(r, d, "1Mb", "10ms", queue=ac.FQ(limit=limit))
    flows = [
        sim.cbr(a, d, rate="2Mb", packet_size=1000, stop=10),
        sim.cbr(b, d, rate="0.5Mb", packet_size=1000, stop=10),
    ]
    sim.run(until=10)
    return [f.stats()["rx_packets"] for f in flows]


def test_the_light_flow_gets_all_it_sends_and_the_heavy_one_the_rest() -> None:
    # 1 Mbit/s = 125 packets/s: the 0.5 Mbit/s flow sends 62.5/s and keeps
    # them all (625 in 10 s), the 2 Mbit/s one gets the other 62.5/s.
    heavy, light = sources_through_fq(50)
    assert light == pytest.approx(625, abs=2)
    assert heavy == pytest.approx(625, abs=52), "less the packets still queued at 10 s"


def test_scenario_tables_name_fq() -> None:
    from ackclock.scenario.schema import QueueTable
    from pydantic import TypeAdapter

    fq = TypeAdapter(QueueTable).validate_python({"type": "fq", "limit": 20, "rate": "2Mb"})
    assert fq.to_spec() == ac.FQ(limit=20, rate="2Mb")
    assert fq.to_spec().to_native() == {"type": "fq", "limit": 20, "secs_per_byte": 4e-06}


def test_a_zero_limit_is_refused_naming_the_field() -> None:
    with pytest.raises(ac.ConfigError, match="limit"):
        ac.FQ(limit=0).to_native()
