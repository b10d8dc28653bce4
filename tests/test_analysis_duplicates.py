"""packets_delivered_twice on a hand-written trace."""

from __future__ import annotations

import io

import pandas as pd
from ackclock.analysis import packets_delivered_twice, read_ns2_trace


def packets(text: str) -> pd.DataFrame:
    lines = [line.split("#")[0].strip() for line in text.strip().splitlines()]
    frame, _ = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    return frame


RECEPTIONS = packets(
    """
    r 1.0 1 2 tcp 1000 ------- 0 0.0 2.0 1 1   # seq 1 once
    r 1.1 1 2 tcp 1000 ------- 0 0.0 2.0 2 2   # seq 2 ...
    r 1.2 0 1 tcp 1000 ------- 0 0.0 2.0 2 3   # (at R: not its destination)
    r 1.3 1 2 tcp 1000 ------- 0 0.0 2.0 2 3   # ... twice ...
    r 1.4 1 2 tcp 1000 ------- 0 0.0 2.0 2 4   # ... three times
    r 1.5 2 1 ack 40 ------- 0 2.0 0.0 2 5
    r 1.6 1 0 ack 40 ------- 0 2.0 0.0 2 5     # ACK 2 at A ...
    r 1.7 1 0 ack 40 ------- 0 2.0 0.0 2 6     # ... and a duplicate ACK: not data
    r 1.8 1 2 tcp 1000 ------- 1 3.0 2.1 1 7   # flow 1, seq 1 ...
    r 1.9 1 2 tcp 1000 ------- 1 3.0 2.1 1 8   # ... twice
    r 2.0 1 2 tcp 500 ------- 0 0.0 2.0 5 9    # a 500-byte seq 5 ...
    r 2.1 1 2 tcp 500 ------- 0 0.0 2.0 5 10   # ... twice
    """
)


def test_every_data_packet_received_twice_or_more_at_its_destination() -> None:
    twice = packets_delivered_twice(RECEPTIONS)
    assert twice.to_dict("list") == {
        "fid": [0, 0, 1],
        "src_node": [0, 0, 3],
        "src_port": [0, 0, 0],
        "dst_node": [2, 2, 2],
        "dst_port": [0, 0, 1],
        "seq": [2, 5, 1],
        "copies": [3, 2, 2],
    }


def test_selections_by_flow_node_and_size() -> None:
    assert packets_delivered_twice(RECEPTIONS, fid=0)["seq"].tolist() == [2, 5]
    # dup_counter.py's selection: r at node 2, size >= 1000, flow 0.
    chapter = packets_delivered_twice(RECEPTIONS, fid=0, node=2, min_size=1000)
    assert chapter[["seq", "copies"]].values.tolist() == [[2, 3]]
    # At R each data packet arrived once.
    assert packets_delivered_twice(RECEPTIONS, node=1).empty
