"""teeth, count_teeth and cwnd_frame on hand-written cwnd records."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from ackclock.analysis import count_teeth, cwnd_frame, loss_events, read_ns2_trace, teeth


def variables(text: str) -> pd.DataFrame:
    lines = [line.split("#")[0].rstrip() for line in text.strip().splitlines()]
    _, frame = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    return frame


# Flow 0.0 (node 0) and flow 1.0 (node 1); teeth are counted from t = 3.
CWND = variables(
    """
    0.00000  -1 -1 -1 -1 cwnd_ 1.000    # before attach: no flow
    0.00000  0  0  -1 -1 cwnd_ 1.000
    1.00000  0  0  2  0  cwnd_ 8.000
    2.00000  0  0  2  0  cwnd_ 4.000    # a decrease before 3 s: ignored
    3.00000  1  0  2  1  cwnd_ 10.000   # flow 1's first record from 3 s on: no tooth
    3.20000  1  0  2  1  cwnd_ 5.000    # flow 1 tooth (10 -> 5)
    3.50000  0  0  2  0  cwnd_ 5.000    # flow 0's first record from 3 s on
    4.00000  0  0  2  0  cwnd_ 2.500    # flow 0 tooth (5 -> 2.5)
    4.50000  0  0  2  0  ack_ 10        # not cwnd_
    5.00000  0  0  2  0  cwnd_ 1.000    # flow 0 tooth, coarse timeout (2.5 -> 1)
    6.00000  0  0  2  0  cwnd_ 2.000
    7.00000  1  0  2  1  cwnd_ 6.000
    7.50000  1  0  2  1  cwnd_ 3.000    # flow 1 tooth (6 -> 3)
    9.00000  0  0  2  0  cwnd_ 1.000    # flow 0 tooth, coarse timeout (2 -> 1)
    """
)


def test_teeth_are_decreases_from_the_start_time_on() -> None:
    found = teeth(CWND)
    assert found.to_dict("list") == {
        "flow": ["1.0", "0.0", "0.0", "1.0", "0.0"],
        "time": [3.2, 4.0, 5.0, 7.5, 9.0],
        "peak": [10.0, 5.0, 2.5, 6.0, 2.0],
        "cwnd": [5.0, 2.5, 1.0, 3.0, 1.0],
        "timeout": [False, False, True, False, True],
    }
    # From t = 0 the decrease at 2.0 (8 -> 4) counts too.
    assert teeth(CWND, start=0)["time"].tolist() == [2.0, 3.2, 4.0, 5.0, 7.5, 9.0]


def test_count_teeth_per_flow_with_coarse_timeouts_and_clusters() -> None:
    counts = count_teeth(CWND, granularity=1.0)
    # Flow 0's teeth at 4.0, 5.0, 9.0: {4.0, 5.0} (5.0 <= 4.0 + 1) and {9.0}.
    assert counts.to_dict("list") == {
        "flow": ["0.0", "1.0"],
        "teeth": [3, 2],
        "coarse_timeouts": [2, 0],
        "tooth_clusters": [2, 2],
    }
    assert count_teeth(CWND, granularity=0.5)["tooth_clusters"].tolist() == [3, 2]
    assert "tooth_clusters" not in count_teeth(CWND).columns


def test_loss_responses_shared_between_flows() -> None:
    # All teeth: 3.2 (1), 4.0 (0), 5.0 (0), 7.5 (1), 9.0 (0). With granularity
    # 1 from each cluster's start: {3.2, 4.0} shared, {5.0}, {7.5}, {9.0}.
    events = loss_events(teeth(CWND), 1.0)
    assert events.to_dict("list") == {
        "flow": ["1.0", "0.0"],
        "losses": [2, 3],
        "events": [2, 3],
        "alone": [1, 2],
        "shared": [1, 1],
    }
    # With the gap rule 3.2, 4.0, 5.0 (gaps 0.8, 1.0) are one event.
    gap = loss_events(teeth(CWND), 1.0, rule="gap")
    assert gap[["events", "alone", "shared"]].values.tolist() == [[2, 1, 1], [2, 1, 1]]
    with pytest.raises(ValueError, match="packet frame only"):
        loss_events(teeth(CWND), 1.0, start=3)


def test_ackclock_series_use_cwnd_in_segments() -> None:
    # TcpFlow.series(): cwnd in bytes and cwnd_segments = cwnd / mss.
    series = {
        "cwnd": ([0.0, 1.0, 2.0, 3.0], [1000.0, 8000.0, 4000.0, 1000.0]),
        "cwnd_segments": ([0.0, 1.0, 2.0, 3.0], [1.0, 8.0, 4.0, 1.0]),
        "loss_events": ([0.0, 2.0, 3.0], [0.0, 1.0, 2.0]),
    }
    found = teeth(series, start=0)
    assert found[["time", "peak", "cwnd", "timeout"]].values.tolist() == [
        [2.0, 8.0, 4.0, False],
        [3.0, 4.0, 1.0, True],
    ]
    several = count_teeth({"a": series, "b": series}, start=0)
    assert several[["flow", "teeth", "coarse_timeouts"]].values.tolist() == [
        ["a", 2, 1],
        ["b", 2, 1],
    ]
    in_bytes = teeth(series, start=0, variable="cwnd", timeout_cwnd=1000)
    assert in_bytes["timeout"].tolist() == [False, True]


def test_cwnd_frame_accepts_pairs_long_frames_and_plain_frames() -> None:
    pair = cwnd_frame(([0.0, 1.0], [2.0, 1.0]), flow="x")
    assert pair.to_dict("list") == {"flow": ["x", "x"], "time": [0.0, 1.0], "cwnd": [2.0, 1.0]}
    long = pd.DataFrame(
        {
            "time_s": [0.0, 0.0, 1.0],
            "variable": ["cwnd", "cwnd_segments", "cwnd_segments"],
            "value": [2000.0, 2.0, 1.0],
        }
    )
    assert cwnd_frame(long)["cwnd"].tolist() == [2.0, 1.0]
    plain = pd.DataFrame({"time": [0.0, 1.0], "cwnd": [3.0, 2.0], "flow": [7, 7]})
    assert cwnd_frame(plain)["flow"].tolist() == ["7", "7"]
    # ns-2 records with source -1 -1 belong to no flow.
    assert "-1.-1" not in set(cwnd_frame(CWND)["flow"])
    with pytest.raises(ValueError, match="has no 'cwnd_segments'"):
        cwnd_frame({"rto": ([0.0], [1.0])}, variable="cwnd_segments")
