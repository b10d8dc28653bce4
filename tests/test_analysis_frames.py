"""ackclock results and series as DataFrames, and atomic CSV/Parquet export."""

from __future__ import annotations

from pathlib import Path

import ackclock as ac
import pandas as pd
import pytest
from ackclock.analysis import (
    count_teeth,
    flows_frame,
    links_frame,
    series_frame,
    to_csv,
    to_parquet,
)
from ackclock.series import rows


@pytest.fixture(scope="module")
def run() -> tuple[ac.Simulator, ac.TcpFlow]:
    sim = ac.Simulator(seed=3)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, bandwidth="1Mb", delay="10ms")
    sim.cbr(a, b, rate="100kb", packet_size=500, stop="1s")
    tcp = sim.tcp(a, b, app=ac.Bulk("20kB"), tcp=ac.TcpParams(cc="reno"), record=True)
    sim.run(until="2s")
    return sim, tcp


def test_series_frame_is_the_long_format_of_the_series_csv(
    run: tuple[ac.Simulator, ac.TcpFlow],
) -> None:
    _, tcp = run
    series = tcp.series()
    frame = series_frame(series)
    assert list(frame.columns) == ["time", "variable", "value"]
    assert [tuple(row) for row in frame.itertuples(index=False)] == rows(series)
    named = series_frame({"bulk": series, "copy": series})
    assert list(named.columns) == ["flow", "time", "variable", "value"]
    assert named["flow"].value_counts().to_dict() == {"bulk": len(frame), "copy": len(frame)}
    # The long frame feeds the cwnd analyses (cwnd_segments is chosen).
    assert count_teeth(named, start=0)["flow"].tolist() == ["bulk", "copy"]


def test_results_as_frames(run: tuple[ac.Simulator, ac.TcpFlow]) -> None:
    sim, _ = run
    result = sim.results()
    links = links_frame(result)
    assert links[["seed", "replication", "from", "to"]].values.tolist() == [
        [3, 0, "A", "B"],
        [3, 0, "B", "A"],
    ]
    assert links["tx_packets"].tolist() == [link["tx_packets"] for link in result["links"]]
    flows = flows_frame([result, result])
    assert flows["id"].tolist() == ["cbr0", "tcp1", "cbr0", "tcp1"]
    assert pd.isna(flows.loc[0, "bytes_delivered"]) and flows.loc[1, "bytes_delivered"] > 0


def test_csv_and_parquet_are_written_atomically(tmp_path: Path) -> None:
    frame = pd.DataFrame({"time": [0.0, 1.5], "variable": ["cwnd", "cwnd"], "value": [1.0, 2.0]})
    csv = to_csv(frame, tmp_path / "out" / "series.csv")
    assert csv.read_text() == "time,variable,value\n0.0,cwnd,1.0\n1.5,cwnd,2.0\n"
    parquet = to_parquet(frame, tmp_path / "out" / "series.parquet")
    assert pd.read_parquet(parquet).equals(frame)
    # Overwriting leaves no temporary files behind.
    to_csv(frame.iloc[:1], csv)
    assert csv.read_text() == "time,variable,value\n0.0,cwnd,1.0\n"
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == [
        "series.csv",
        "series.parquet",
    ]
