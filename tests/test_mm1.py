"""The M/M/1 experiment (seed 000, section 2.2) against queueing theory."""

import json

from ackclock.experiments import mm1
from conftest import run_cli


def test_mm1_matches_theory_over_50_replications_of_10000_jobs(tmp_path):
    # A 95% interval misses 6.0 for about 1 seed in 20 (with the core's current
    # random streams, seeds 1 and 7 of 0..11 do, by about 0.002-0.008 s), so one
    # fixed seed is tested. P_n stays within 0.01 of theory for every seed.
    result = run_cli("experiment", "mm1", "--seed", "0", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    numbers = json.loads((tmp_path / "mm1.json").read_text())
    assert (numbers["replications"], numbers["jobs"]) == (50, 10_000)
    response = numbers["mean_response_s"]
    assert response["ci_low"] <= 6.0 <= response["ci_high"]
    assert response["ci_high"] - response["ci_low"] < 0.3
    for state in numbers["occupancy"]:
        assert abs(state["measured"] - (1 / 3) * (2 / 3) ** state["n"]) <= 0.01, state
    assert len(numbers["occupancy"]) == 11
    assert (tmp_path / "mm1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "is inside" in result.stdout


def test_mm1_is_reproducible_and_replications_are_independent():
    first = mm1.run(seed=3, replications=3, jobs=500)
    again = mm1.run(seed=3, replications=3, jobs=500)
    assert first == again
    means = [r.mean_response_s for r in first.replications]
    assert len(set(means)) == 3
