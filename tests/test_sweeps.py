"""Sweeps in Python: the rows of scenario files, scripts and functions, on
every executor; the results database, resuming, retries, shards and series."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import ackclock as ac
import pandas as pd
import pytest
from ackclock.sweeps import Script, SweepError, load, summarize, sweep
from ackclock.sweeps.scenario_base import flatten
from conftest import EXAMPLES

DUMBBELL = EXAMPLES / "udp_dumbbell.toml"
BOTTLENECK = "links[2].bandwidth"
VARYING = ["wall_s", "finished_at"]  # the only columns that differ between executors

TCL = """set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b [lindex $argv 0]Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set sink [new Agent/LossMonitor]
$ns attach-agent $b $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 1Mb
$ns at 0.0 "$cbr start"
proc finish {} {
    global sink
    puts "delivered=[$sink set npkts_]"
    puts "[$sink set npkts_] [$sink set bytes_]"
    exit 0
}
$ns at 1.0 "finish"
$ns run
"""


def dumbbell_sweep(db: Path | None, executor="processes", **options) -> pd.DataFrame:
    base = ac.sweeps.Scenario(DUMBBELL, until="3s")
    return sweep(
        base,
        {BOTTLENECK: "1Mb,1.5Mb"},
        replications=2,
        db=db,
        executor=executor,
        progress=False,
        **options,
    )


def poisson(sim: ac.Simulator, interval: str = "5ms", fail: str = "") -> dict:
    if fail and os.path.exists(fail):
        raise RuntimeError(f"failing as asked by {fail}")
    a, b = sim.node("a"), sim.node("b")
    sim.duplex_link(a, b, "2Mb", "10ms")
    flow = sim.poisson(a, b, mean_interval=interval, packet_size=500, stop="1s")
    sim.run(until="2s")
    delays = pd.DataFrame({"rx": [flow.stats()["rx_packets"]]})
    return {"rx": flow.stats()["rx_packets"], "label": f"at {interval}", "table": delays}


def test_a_scenario_sweep_sets_the_field_and_stores_every_scalar(tmp_path: Path) -> None:
    frame = dumbbell_sweep(tmp_path / "s.db")
    assert list(frame[BOTTLENECK]) == ["1Mb", "1Mb", "1.5Mb", "1.5Mb"]
    assert list(frame["replication"]) == [0, 1, 0, 1]
    assert list(frame["link.r1->r2.bandwidth_bps"]) == [1_000_000] * 2 + [1_500_000] * 2
    assert (frame["status"] == "ok").all() and (frame["sim_time_s"] == 3.0).all()
    # replications draw independent streams: the Poisson source differs
    sent = frame["flow.poisson1.tx_packets"]
    assert sent[0] != sent[1]
    # the file's own bandwidth, seed 1, replication 0: the run `ackclock run` makes
    alone = flatten(ac.load_scenario(DUMBBELL).run(until="3s").results())
    assert frame.iloc[2][list(alone)].to_dict() == alone
    assert frame.attrs["parameters"] == [BOTTLENECK]


def test_processes_threads_and_shards_give_the_same_rows(tmp_path: Path) -> None:
    processes = dumbbell_sweep(tmp_path / "p.db").drop(columns=VARYING)
    threads = dumbbell_sweep(tmp_path / "t.db", executor="threads").drop(columns=VARYING)
    pd.testing.assert_frame_equal(processes, threads)
    for index in range(3):
        dumbbell_sweep(tmp_path / f"shard{index}.db", shard=(index, 3))
    shards = load(*(tmp_path / f"shard{i}.db" for i in range(3))).drop(columns=VARYING)
    shards = shards.sort_values(["scenario_hash", "replication"]).reset_index(drop=True)
    ordered = processes.sort_values(["scenario_hash", "replication"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(shards[ordered.columns], ordered)


def test_a_dask_local_cluster_gives_the_same_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=None, processes=True
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = dumbbell_sweep(tmp_path / "d.db", executor=client)
    local = dumbbell_sweep(tmp_path / "p.db")
    pd.testing.assert_frame_equal(on_dask.drop(columns=VARYING), local.drop(columns=VARYING))


def test_a_repeated_sweep_skips_finished_runs_and_retries_failed_ones(tmp_path: Path) -> None:
    marker = tmp_path / "fail"
    marker.write_text("")
    db = tmp_path / "f.db"
    grid = {"interval": ["5ms", "10ms"], "fail": [str(marker), ""]}
    first = sweep(poisson, grid, db=db, progress=False)
    assert list(first["status"]) == ["failed", "ok", "failed", "ok"]
    assert first["error"][0] == f"failing as asked by {marker}"
    marker.unlink()
    second = sweep(poisson, grid, db=db, progress=False)
    assert (second["status"] == "ok").all()
    finished = second["status"] == first["status"]
    # untouched: the same wall time and finishing time
    kept = ["wall_s", "finished_at", "rx"]
    assert second[finished][kept].to_dict() == first[finished][kept].to_dict()
    assert len(load(db)) == 4


def test_function_results_are_columns_and_frames_are_parquet_series(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    frame = sweep(poisson, {"interval": "5ms,20ms"}, replications=2, db=db, progress=False)
    assert list(frame["label"]) == ["at 5ms"] * 2 + ["at 20ms"] * 2
    assert (frame["rx"] == frame["flow.poisson0.rx_packets"]).all()
    assert frame["rx"][0] > frame["rx"][2]  # 200 vs 50 packets a second
    series = pd.read_parquet(db.parent / frame["series.table"][1])
    assert series["rx"].tolist() == [frame["rx"][1]]
    summary = summarize(frame, metrics=["rx"])
    assert list(summary["n"]) == [2, 2]
    assert summary["mean"][0] == frame["rx"][:2].mean()
    assert summary["low"][0] < summary["mean"][0] < summary["high"][0]


def test_a_script_sweep_fills_its_argv_and_reads_its_output(tmp_path: Path) -> None:
    script = tmp_path / "cbr.tcl"
    script.write_text(TCL)
    base = Script(script, ["{bw}"], columns=["packets", "bytes"])
    frame = sweep(base, {"bw": "0.5,2"}, db=tmp_path / "s.db", executor="threads", progress=False)
    assert list(frame["status"]) == ["ok", "ok"]
    assert list(frame["delivered"]) == list(frame["packets"])
    assert frame["packets"][0] < frame["packets"][1]  # 0.5 Mbit/s cannot carry 1 Mbit/s
    assert list(frame["bytes"]) == [p * 210 for p in frame["packets"]]  # CBR's 210-byte packets
    assert not list(tmp_path.glob("*.tr"))


ANALYSIS = """
def count(workdir):
    return {"lines": len((workdir / "note.txt").read_text().splitlines())}
"""


def test_a_script_analysis_reads_the_files_the_run_wrote(tmp_path: Path) -> None:
    script = tmp_path / "note.tcl"
    script.write_text(
        "set f [open note.txt w]\nfor {set i 0} {$i < [lindex $argv 0]} {incr i} "
        '{puts $f $i}\nclose $f\nputs "done=1"\n'
    )
    (tmp_path / "analyse.py").write_text(ANALYSIS)
    analysis = f"{tmp_path / 'analyse.py'}:count"
    base = Script(script, ["{n}"], analysis=analysis)
    frame = sweep(base, {"n": [2, 5]}, db=tmp_path / "a.db", executor="threads", progress=False)
    assert list(frame["lines"]) == [2, 5] and list(frame["done"]) == [1, 1]
    # The analysis is part of what a run is: another one makes new runs, none makes old ones.
    assert "analysis" in base.job({"n": 2}).identity()
    assert "analysis" not in Script(script, ["{n}"]).job({"n": 2}).identity()


def test_a_failing_script_run_keeps_its_last_error_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.tcl"
    script.write_text('puts "[lindex $argv 0]"\nnew NoSuchClass\n')
    frame = sweep(Script(script, ["{x}"]), {"x": [1]}, db=tmp_path / "b.db", progress=False)
    assert frame["status"][0] == "failed"
    assert "NoSuchClass" in frame["error"][0]


@pytest.mark.parametrize(
    ("base", "parameters", "message"),
    [
        (DUMBBELL, {"simulation.seed": [1]}, "is set by the sweep"),
        (DUMBBELL, {"links[9].delay": ["1ms"]}, r"links\[9\] does not exist"),
        (DUMBBELL, {BOTTLENECK: ["fast"]}, r"links\[2\].bandwidth: 'fast' is not a bandwidth"),
        (poisson, {"nope": [1]}, "cannot take the parameters"),
        (poisson, {"status": [1]}, "is a column the results store uses"),
    ],
)
def test_a_bad_sweep_is_refused_before_any_run(tmp_path, base, parameters, message) -> None:
    with pytest.raises(SweepError, match=message):
        sweep(base, parameters, db=tmp_path / "x.db", progress=False)
    assert not (tmp_path / "x.db").exists()


def test_script_parameters_must_reach_its_argv(tmp_path: Path) -> None:
    script = tmp_path / "s.tcl"
    script.write_text("exit 0\n")
    with pytest.raises(SweepError, match=r"put \{bw\} in its argv"):
        sweep(Script(script, ["1"]), {"bw": [1]}, progress=False)
    with pytest.raises(SweepError, match=r"uses \{rate\}, which is not a parameter"):
        sweep(Script(script, ["{rate}"]), {}, progress=False)


def test_a_local_function_cannot_go_to_worker_processes() -> None:
    def local(sim):
        return None

    with pytest.raises(SweepError, match="cannot be sent to worker processes"):
        sweep(local, {}, progress=False)
    assert sweep(local, {}, executor="threads", progress=False)["status"][0] == "ok"


def test_the_database_has_one_row_per_run_with_roles(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    sweep(poisson, {"interval": "5ms,20ms"}, db=db, progress=False)
    with sqlite3.connect(db) as connection:
        roles = dict(connection.execute("SELECT name, role FROM columns"))
        count = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    assert count == 2
    assert roles["interval"] == "parameter" and roles["rx"] == "result"
    assert roles["series.table"] == "series"
