"""ns-2.35's token bucket filter (`TBF`, `attach-tbf-agent`): against ns-2
itself on the fixture tests/fixtures/ns2_tbf.tcl (its output in
ns2_tbf.json), and through the Python API."""

from __future__ import annotations

import json
from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
NS2 = json.loads((FIXTURES / "ns2_tbf.json").read_text())


@pytest.mark.parametrize("qlen", ["10", "0"])
def test_shaped_and_policed_sources_match_ns2_exactly(qlen: str, tmp_path: Path) -> None:
    # A shaper (queue of 10, or 0: a second policer) and a policer in front
    # of two CBR sources, a third unshaped, overload a DropTail link: every
    # link's + - r d count and each sink's packets and bytes are ns-2's.
    done = run_cli("tcl", "ns2_tbf.tcl", qlen, str(tmp_path / "tbf.tr"), cwd=FIXTURES)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == NS2[qlen]


def test_a_tbf_on_a_tcp_agent_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "tcp_tbf.tcl"
    script.write_text(
        "set ns [new Simulator]\nset n0 [$ns node]\n"
        "set tcp [new Agent/TCP]\nset tbf [new TBF]\n$ns attach-tbf-agent $n0 $tcp $tbf\n"
    )
    done = run_cli("tcl", str(script))
    assert done.returncode == 2
    assert "attach-tbf: ackclock shapes UDP agents only" in done.stderr


@pytest.mark.parametrize("setting", ["rate_ 0", "qlen_ -1"])
def test_bad_tbf_variables_are_refused_naming_them(setting: str, tmp_path: Path) -> None:
    script = tmp_path / "bad.tcl"
    text = (FIXTURES / "ns2_tbf.tcl").read_text()
    script.write_text(text.replace("$policer set bucket_ 4096", f"$policer set {setting}"))
    done = run_cli("tcl", str(script), "10", str(tmp_path / "bad.tr"))
    assert done.returncode == 2
    assert f"(TBF) {setting}: must be at least" in done.stderr


def delivered(shaper: ac.TokenBucket | None) -> int:
    """1 Mibit/s of 1024-byte packets (128 a second) for 10 s over a 10
    Mbit/s link; binary rates keep the bucket's arithmetic exact."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node(), sim.node()
    sim.duplex_link(a, b, "10Mb", "1ms")
    flow = sim.cbr(a, b, rate=1048576, packet_size=1024, stop=10)
    if shaper is not None:
        flow.shape(shaper)
    sim.run(until=11)
    return flow.stats()["rx_packets"]


def test_a_policer_passes_its_rate_and_a_shaper_delays_instead_of_dropping() -> None:
    # 1281 packets offered (at 0 and at 10 s too). A half-rate policer with
    # a one-packet bucket passes every other one; a shaper with room for all
    # passes 64 a second until 11 s, plus the bucket's one at once.
    assert delivered(None) == 1281
    policed = delivered(ac.TokenBucket(rate=524288, bucket_bits=8192))
    assert policed == 641
    shaped = delivered(ac.TokenBucket(rate=524288, bucket_bits=8192, limit=1000))
    assert shaped == pytest.approx(64 * 11 + 1, abs=1)


def test_bad_shaper_parameters_are_refused_naming_the_field() -> None:
    with pytest.raises(ac.ConfigError, match="limit"):
        ac.TokenBucket(limit=-1).to_native()
    with pytest.raises(ac.ConfigError, match="rate"):
        ac.TokenBucket(rate=0).to_native()
