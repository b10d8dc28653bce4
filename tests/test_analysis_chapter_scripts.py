"""The analysis functions against the chapter's own scripts
(benchmarks/ns2/queuesize.py, dup_counter.py, countpeaks.py, run unchanged)
on the chapter's basic1 trace and on a hand-written trace; and, when ns-2 is
installed, on a trace ns-2 writes now."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from ackclock.analysis import (
    count_teeth,
    packets_delivered_twice,
    read_ns2_trace,
    teeth,
    time_weighted_mean_queue,
)

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "benchmarks" / "ns2"
FIXTURE = Path(__file__).parent / "fixtures" / "basic1.tr.gz"

# R = node 1 queues towards B = node 2 and back towards A = node 0; flow 0 is
# 0.0 -> 2.0 (cwnd records from node 0), flow 1 is 1.0 -> 2.1.
HAND_WRITTEN = """\
0.00000  0  0  -1 -1 cwnd_ 1.000
+ 0.5 0 1 tcp 1000 ------- 0 0.0 2.0 1 1
- 0.5 0 1 tcp 1000 ------- 0 0.0 2.0 1 1
r 1 0 1 tcp 1000 ------- 0 0.0 2.0 1 1
+ 1 1 2 tcp 1000 ------- 0 0.0 2.0 1 1
- 1 1 2 tcp 1000 ------- 0 0.0 2.0 1 1
+ 1.5 1 2 tcp 1000 ------- 0 0.0 2.0 2 2
+ 2 1 2 tcp 1000 ------- 0 0.0 2.0 3 3
- 2 1 2 tcp 1000 ------- 0 0.0 2.0 2 2
r 2 1 2 tcp 1000 ------- 0 0.0 2.0 1 1
+ 2.5 1 2 tcp 1000 ------- 1 1.0 2.1 4 4
d 2.5 1 2 tcp 1000 ------- 1 1.0 2.1 4 4
3.00000  1  0  2  1  cwnd_ 10.000
- 3 1 2 tcp 1000 ------- 0 0.0 2.0 3 3
r 3 1 2 tcp 1000 ------- 0 0.0 2.0 2 2
3.20000  1  0  2  1  cwnd_ 5.000
+ 3.5 1 0 ack 40 ------- 0 2.0 0.0 1 5
3.50000  0  0  2  0  cwnd_ 5.000
+ 3.6 1 2 tcp 1000 ---A--- 0 0.0 2.0 2 6
- 3.6 1 2 tcp 1000 ---A--- 0 0.0 2.0 2 6
4.00000  0  0  2  0  cwnd_ 2.500
r 4 1 2 tcp 1000 ------- 0 0.0 2.0 3 3
- 4.5 1 0 ack 40 ------- 0 2.0 0.0 1 5
r 4.6 1 2 tcp 1000 ---A--- 0 0.0 2.0 2 6
5.00000  0  0  2  0  cwnd_ 1.000
r 5.5 1 0 ack 40 ------- 0 2.0 0.0 1 5
+ 5.5 1 2 tcp 1000 ------- 0 0.0 2.0 2 7
- 5.5 1 2 tcp 1000 ------- 0 0.0 2.0 2 7
r 6.5 1 2 tcp 1000 ------- 0 0.0 2.0 2 7
7.00000  1  0  2  1  cwnd_ 6.000
7.50000  1  0  2  1  cwnd_ 3.000
9.00000  0  0  2  0  cwnd_ 2.000
9.50000  0  0  2  0  cwnd_ 1.000
"""


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("traces")
    basic1, hand = directory / "basic1.tr", directory / "hand.tr"
    basic1.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    hand.write_text(HAND_WRITTEN)
    return {"basic1": basic1, "hand": hand}


def run_script(name: str, trace: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / name), str(trace)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("name", ["basic1", "hand"])
def test_mean_queue_agrees_with_queuesize_py(traces: dict[str, Path], name: str) -> None:
    output = run_script("queuesize.py", traces[name])  # "avg queue= 2.28..."
    script = float(output.split("=")[1])
    packets, _ = read_ns2_trace(traces[name])
    # queuesize.py adds up all of node 1's queues; only the order of the
    # floating-point additions differs.
    assert time_weighted_mean_queue(packets, 1) == pytest.approx(script, rel=1e-12, abs=1e-15)
    if name == "basic1":
        # R's queue towards A (ACKs, 10 Mb/s) is never waited in.
        assert time_weighted_mean_queue(packets, 1, 2) == time_weighted_mean_queue(packets, 1)
        assert script == pytest.approx(2.2825688689917, rel=1e-12)
    else:
        # 1 packet on [1.5, 3.0) towards B plus the ACK on [3.5, 4.5): 2.5 / 6.5.
        assert script == pytest.approx(2.5 / 6.5, rel=1e-12)


@pytest.mark.parametrize("name", ["basic1", "hand"])
def test_duplicates_agree_with_dup_counter_py(traces: dict[str, Path], name: str) -> None:
    output = run_script("dup_counter.py", traces[name])  # lines "seqno count"
    script = [tuple(map(int, line.split())) for line in output.splitlines()]
    packets, _ = read_ns2_trace(traces[name])
    ours = packets_delivered_twice(packets, fid=0, node=2, min_size=1000)
    assert list(ours[["seq", "copies"]].itertuples(index=False, name=None)) == script
    # The default selection (data at its destination, all flows) is the same here.
    assert packets_delivered_twice(packets).equals(packets_delivered_twice(packets, fid=0))
    if name == "basic1":
        # Sec. 16.2.6.4: 13 packets, these sequence numbers.
        assert [seq for seq, _ in script] == [43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 60, 61, 62]
    else:
        assert script == [(2, 3)]  # seq 2 at B at 3, 4.6 and 6.5


@pytest.mark.parametrize("name", ["basic1", "hand"])
def test_teeth_agree_with_countpeaks_py(traces: dict[str, Path], name: str) -> None:
    output = run_script("countpeaks.py", traces[name]).split()
    # "flow 0 teeth: A flow 1 teeth: B" / "flow 0 coarse timeouts: C flow 1 coarse timeouts: D"
    script_teeth = [int(output[3]), int(output[7])]
    script_timeouts = [int(output[12]), int(output[17])]
    _, variables = read_ns2_trace(traces[name])
    counts = count_teeth(variables).set_index("flow").reindex(["0.0", "1.0"], fill_value=0)
    assert counts["teeth"].tolist() == script_teeth
    assert counts["coarse_timeouts"].tolist() == script_timeouts
    if name == "basic1":
        assert script_teeth == [3, 0] and script_timeouts == [0, 0]
        # Sec. 16.2.1: the first three teeth after slow start peak at these values.
        assert teeth(variables)["peak"].tolist() == [20.931, 20.934, 20.934]
    else:
        # Flow 0: 5 -> 2.5, 2.5 -> 1 (timeout), 2 -> 1 (timeout); flow 1: 10 -> 5, 6 -> 3.
        assert script_teeth == [3, 2] and script_timeouts == [2, 0]


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not installed")
def test_a_fresh_ns2_run_of_basic1(tmp_path: Path) -> None:
    subprocess.run(
        ["ns", str(SCRIPTS / "basic1.tcl")],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=True,
    )
    packets, variables = read_ns2_trace(tmp_path / "basic1.tr")
    assert len(packets_delivered_twice(packets)) == 13
    peaks = teeth(variables)["peak"]
    assert peaks.tolist() == pytest.approx([20.93] * 3, abs=0.01)
    assert peaks.tolist() == [20.931, 20.934, 20.934]
    fixture_packets, fixture_variables = read_ns2_trace(FIXTURE)
    pd.testing.assert_frame_equal(packets, fixture_packets)
    pd.testing.assert_frame_equal(variables, fixture_variables)
