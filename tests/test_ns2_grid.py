"""`ackclock tcl` against real ns-2 2.35 on the differential grid of
benchmarks/ns2/grid.py: ns-2's results are the committed fixture
tests/fixtures/ns2_grid_ci.json (`make ns2-fixtures` records them again with
ns-2; `make ns2-grid` compares the larger grid). Deterministic points must
give ns-2's ack_, maxseq_ and bytes_ exactly, and scripts with overhead_
must draw ns-2's random numbers in ns-2's order."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks" / "ns2"))
import grid  # noqa: E402

POINTS = grid.grid("ci")
NS2 = grid.load_fixture("ci")


def exact_fields(flows: list[list[int]]) -> list[list[int]]:
    return [flow[: len(grid.EXACT_FIELDS)] for flow in flows]


def check(point: grid.Point) -> None:
    ours = grid.run_ackclock(point)
    assert exact_fields(ours) == exact_fields(NS2[point.name]), point.name


@pytest.mark.parametrize(
    "point",
    # The sec. 16.3.3 table's rows (one argument) have their own test below.
    [p for p in POINTS if not p.random and len(p.args) > 1],
    ids=lambda p: p.name,
)
def test_deterministic_grid_point_gives_ns2s_ack_maxseq_and_bytes(point: grid.Point) -> None:
    check(point)


@pytest.mark.parametrize("delay_b", grid.DELAYB_TABLE)
def test_chapter_delayb_table_row_gives_ns2s_numbers(delay_b: int) -> None:
    # Seed 003 sec. 16.3.3: phase effects swing the split between the two
    # flows; each row hinges on which packet ns-2 runs first at one instant.
    check(grid.Point("basic2.tcl", "Agent/TCP/Reno", "Agent/TCPSink", (str(delay_b),)))


@pytest.mark.parametrize("run", grid.OVERHEAD_RUNS, ids=" ".join)
def test_overhead_script_draws_ns2s_random_numbers(run: tuple[str, ...]) -> None:
    # Each agent's boot_time_ and every send delay come from ns-2's default
    # generator, in ns-2's order of draws.
    check(grid.Point("basic2.tcl", "Agent/TCP/Reno", "Agent/TCPSink", run))


@pytest.mark.parametrize("run", grid.OVERHEAD_RUNS[1:], ids=" ".join)
def test_sack1_with_overhead_resends_holes_as_ns2s_delayed_send_does(run: tuple[str, ...]) -> None:
    # After a timeout ns-2's Sack1 resends the holes its scoreboard shows
    # when a delayed send (overhead_) fires after duplicate ACKs; the full
    # grid's fixture has these points.
    point = grid.Point("basic2.tcl", "Agent/TCP/Sack1", "Agent/TCPSink/Sack1", run)
    ours = grid.run_ackclock(point)
    assert exact_fields(ours) == exact_fields(grid.load_fixture("full")[point.name]), point.name


def test_the_fixture_holds_every_grid_point() -> None:
    assert sorted(NS2) == sorted(p.name for p in POINTS)


@pytest.mark.parametrize("delay_b", ["5", "10"])
def test_a_backoff_beyond_eight_restarts_the_rtt_estimate_as_ns2s_does(delay_b: str) -> None:
    # Sack1 with a plain TCPSink sees no SACK blocks, so its losses end in
    # timeouts; backed off 16 times, ns-2 moves srtt into rttvar and starts
    # the estimate afresh at the next sample (rtt_backoff), which makes
    # the following RTOs 40 ms longer here. The full grid's fixture has these points.
    point = grid.Point(
        "basic2.tcl", "Agent/TCP/Sack1", "Agent/TCPSink", (delay_b, "0", "0.8", "300", "5")
    )
    ours = grid.run_ackclock(point)
    assert exact_fields(ours) == exact_fields(grid.load_fixture("full")[point.name]), point.name
