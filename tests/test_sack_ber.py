"""The sack-ber experiment (seed 002, section 4.1), reduced: fewer and
shorter transfers, two bit-error rates."""

import json
import sqlite3

import pytest
from ackclock.experiments import sack_ber
from conftest import run_cli


def test_ppp_framing_is_accounted_in_rate_and_loss():
    # A 1452-byte segment is a 1492-byte datagram here and a 1500-byte frame in the paper.
    assert sack_ber.DATAGRAM_BYTES == 1492 and sack_ber.FRAME_BYTES == 1500
    assert sack_ber.WIRE_BPS == 9_946_667  # 1492 bytes take the 1.2 ms of 1500 at 10 Mb/s
    assert sack_ber.PAYLOAD_CAPACITY_BPS == pytest.approx(9.68e6)
    ber = 2e-6
    assert 1 - (1 - sack_ber.frame_ber(ber)) ** (8 * 1492) == pytest.approx(
        sack_ber.segment_loss(ber), rel=1e-12
    )
    assert sack_ber.segment_loss(ber) == pytest.approx(0.0237, abs=1e-4)


def test_reduced_run_reaches_payload_capacity_and_sack_beats_reno(tmp_path):
    out = tmp_path / "sack-ber"
    args = ["--seeds", "5", "--bytes", "10MB", "--ber", "0", "--ber", "2e-6", "--out", str(out)]
    result = run_cli("experiment", "sack-ber", *args)
    assert result.returncode == 0, result.stderr
    assert "Reno Mbit/s" in result.stdout and "2e-06" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "report.md",
        "runs.db",
        "sack_ber.json",
        "sack_ber.png",
    ]
    document = json.loads((out / "sack_ber.json").read_text())
    goodput = {(p["ber"], p["sack"]): p["goodput_bps"]["mean"] for p in document["points"]}
    assert len(document["points"][0]["runs"]) == 5
    # Without errors the link is never idle after slow start: within 2% of
    # 10 Mb/s x 1452/1500 (slow start from one segment costs a few ms of 8 s).
    for sack in (False, True):
        assert goodput[(0.0, sack)] == pytest.approx(sack_ber.PAYLOAD_CAPACITY_BPS, rel=0.02)
    # The paper: 2.58 vs 3.94 Mbit/s at 2e-6.
    assert goodput[(2e-6, True)] > goodput[(2e-6, False)]
    assert goodput[(2e-6, False)] < 0.5 * goodput[(0.0, False)]
    report = (out / "report.md").read_text()
    assert report.startswith("# SACK vs. Reno") and "| 2e-06 |" in report


def test_a_rerun_of_sack_ber_only_redraws(tmp_path):
    out = tmp_path / "sack-ber"
    args = ["--seeds", "2", "--bytes", "1MB", "--ber", "1e-6", "--out", str(out)]

    def runs() -> list[tuple]:
        with sqlite3.connect(out / "runs.db") as db:
            return db.execute("SELECT scenario_hash, finished_at FROM runs").fetchall()

    first = run_cli("experiment", "sack-ber", *args)
    assert first.returncode == 0, first.stderr
    before = runs()
    (out / "report.md").unlink()
    again = run_cli("experiment", "sack-ber", *args)
    assert again.returncode == 0, again.stderr
    # The same 2 x 2 runs, none run again; the report is the same.
    assert runs() == before and len(before) == 4
    assert again.stdout == first.stdout


def test_sack_ber_on_dask_gives_the_same_numbers(tmp_path):
    args = ["--seeds", "2", "--bytes", "1MB", "--ber", "1e-6"]
    here = run_cli("experiment", "sack-ber", *args, "--out", str(tmp_path / "here"))
    dask = run_cli(
        "experiment", "sack-ber", *args, "--dask", "local:1", "--out", str(tmp_path / "dask")
    )
    assert here.returncode == 0 and dask.returncode == 0, dask.stderr
    table = [line for line in here.stdout.splitlines() if not line.startswith("wrote")]
    assert table == [line for line in dask.stdout.splitlines() if not line.startswith("wrote")]
