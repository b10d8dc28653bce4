"""goodput, goodput_by_flow, link_utilization and throughput_series on small
hand-written traces whose answers are worked out in the comments."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from ackclock.analysis import (
    goodput,
    goodput_by_flow,
    in_order_deliveries,
    link_utilization,
    read_ns2_trace,
    throughput_series,
)


def packets(text: str) -> pd.DataFrame:
    """A packet frame from trace lines; "#" starts a comment."""
    lines = [line.split("#")[0].strip() for line in text.strip().splitlines()]
    frame, _ = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    return frame


# Flow 0 (0.0 -> 2.0 through R = node 1) and one packet of flow 1 (3.0 -> 2.1).
DELIVERIES = packets(
    """
    r 0.1 1 2 tcp 40 ------- 0 0.0 2.0 0 0      # SYN at B: 40 bytes of flow 0
    r 0.1 0 1 tcp 1000 ------- 0 0.0 2.0 1 1    # data 1 at R: not its destination
    r 1.0 1 2 tcp 1000 ------- 0 0.0 2.0 1 1    # data 1 at B
    r 2.0 1 2 tcp 1000 ------- 0 0.0 2.0 3 3    # data 3 at B; 2 is missing
    r 2.5 2 1 ack 40 ------- 0 2.0 0.0 1 4      # an ACK: not data
    r 3.0 1 2 tcp 1000 ------- 0 0.0 2.0 2 5    # data 2 (a retransmission) fills the hole
    r 3.5 1 2 tcp 1000 ------- 0 0.0 2.0 3 6    # data 3 again: a duplicate, not goodput
    r 4.0 1 2 tcp 1000 ------- 1 3.0 2.1 1 7    # flow 1's data 1
    r 5.0 1 2 tcp 1000 ------- 0 0.0 2.0 5 8    # data 5; 4 never arrives
    """
)


def test_goodput_counts_each_packet_once_at_its_first_delivery() -> None:
    # Flow 0 delivers seq 0 (40 B), 1, 3, 2, 5 (1000 B each) by t = 5.0, the
    # last record, which the default window includes: 4040 B / 5 s.
    assert goodput(DELIVERIES, fid=0) == 808.0
    # [1, 3): seq 1 at 1.0 and seq 3 at 2.0; seq 2 arrives at 3.0, outside.
    assert goodput(DELIVERIES, fid=0, start=1, end=3) == 1000.0
    # An explicit end is excluded: seq 5 at 5.0 is out; 40 header bytes off
    # each of seq 0, 1, 3, 2 leaves 0 + 3 * 960 = 2880 B over 5 s.
    assert goodput(DELIVERIES, fid=0, start=0, end=5, header_bytes=40) == 576.0
    # All flows: flow 1 adds 1000 B.
    assert goodput(DELIVERIES) == 1008.0
    # Deliveries on the link 0 -> 1 instead: data 1 at R only, 1000 B / 5 s.
    assert goodput(DELIVERIES, fid=0, link=(0, 1)) == 200.0


def test_in_order_goodput_waits_for_the_hole_to_be_filled() -> None:
    # In order: seq 0 at 0.1, 1 at 1.0, 2 at 3.0, 3 at max(2.0, 3.0) = 3.0;
    # seq 5 never (4 is missing). (40 + 3000) B / 5 s.
    assert goodput(DELIVERIES, fid=0, in_order=True) == 608.0
    # [1, 3): only seq 1; 2 and 3 become deliverable at 3.0.
    assert goodput(DELIVERIES, fid=0, start=1, end=3, in_order=True) == 500.0
    ordered = in_order_deliveries(DELIVERIES, fid=0)
    assert ordered["seq"].tolist() == [0, 1, 2, 3]
    assert ordered["time"].tolist() == [0.1, 1.0, 3.0, 3.0]


def test_goodput_by_flow_has_a_row_per_flow_id() -> None:
    table = goodput_by_flow(DELIVERIES, start=0, end=10)
    assert table.to_dict("list") == {
        "fid": [0, 1],
        "packets": [5, 1],
        "bytes": [4040, 1000],
        "bytes_per_s": [404.0, 100.0],
    }
    ordered = goodput_by_flow(DELIVERIES, start=0, end=10, in_order=True)
    # Flow 1's seq 0 never arrived, so nothing of it is deliverable in order.
    assert ordered["packets"].tolist() == [4, 0]


def test_goodput_rejects_an_empty_window() -> None:
    with pytest.raises(ValueError, match="time window must not be empty"):
        goodput(DELIVERIES, start=3, end=3)


TRANSMISSIONS = packets(
    """
    - 0.0 1 2 tcp 1000 ------- 0 0.0 2.0 1 1    # 8000 bits at 8000 bit/s: busy [0, 1)
    - 1.5 1 2 tcp 500 ------- 0 0.0 2.0 2 2     # busy [1.5, 2.0)
    - 1.5 1 0 ack 40 ------- 0 2.0 0.0 1 3      # another link
    + 2.0 1 2 tcp 1000 ------- 0 0.0 2.0 3 4    # an enqueue is not a transmission
    - 3.5 1 2 tcp 1000 ------- 0 0.0 2.0 3 4    # busy [3.5, 4.5), cut at the window's end
    r 4.0 1 2 tcp 500 ------- 0 0.0 2.0 2 2     # the last record: t = 4.0
    """
)


def test_link_utilization_adds_the_transmission_times_inside_the_window() -> None:
    # [0, 4]: 1 + 0.5 + 0.5 = 2 s busy of 4.
    assert link_utilization(TRANSMISSIONS, 1, 2, 8000) == 0.5
    # [0.5, 4): 0.5 + 0.5 + 0.5 = 1.5 s of 3.5.
    assert link_utilization(TRANSMISSIONS, 1, 2, 8000, start=0.5, end=4) == pytest.approx(
        1.5 / 3.5, rel=1e-15
    )
    # The ACK link: 320 bits at 3200 bit/s = 0.1 s of 4.
    assert link_utilization(TRANSMISSIONS, 1, 0, 3200) == pytest.approx(0.025, rel=1e-15)
    with pytest.raises(ValueError, match="bandwidth_bps must be greater than zero"):
        link_utilization(TRANSMISSIONS, 1, 2, 0)


def test_throughput_series_bins_the_bytes_received_per_flow() -> None:
    series = throughput_series(DELIVERIES, link=(1, 2), bin=2.0, start=0, end=6)
    # Flow 0 on 1 -> 2: [0, 2) 40 + 1000; [2, 4) 1000 + 1000 + 1000 (the
    # duplicate counts: this is throughput); [4, 6) 1000. Flow 1: [4, 6) 1000.
    assert series.to_dict("list") == {
        "time": [0.0, 2.0, 4.0, 0.0, 2.0, 4.0],
        "fid": [0, 0, 0, 1, 1, 1],
        "bytes": [1040, 3000, 1000, 0, 0, 1000],
        "bits_per_s": [4160.0, 12000.0, 4000.0, 0.0, 0.0, 4000.0],
    }
    only_one = throughput_series(DELIVERIES, link=(1, 2), fid=1, bin=3.0, start=0, end=6)
    assert only_one["bytes"].tolist() == [0, 1000]
