"""Queue length from + - d records; hand-worked answers in the comments."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from ackclock.analysis import (
    queue_changes,
    queue_series,
    read_ns2_trace,
    time_weighted_mean_queue,
)


def packets(text: str) -> pd.DataFrame:
    lines = [line.split("#")[0].strip() for line in text.strip().splitlines()]
    frame, _ = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    return frame


# The queue of R (node 1) towards B (node 2), and one ACK waiting towards A.
QUEUE = packets(
    """
    + 1.0 1 2 tcp 1000 ------- 0 0.0 2.0 1 1   # enqueued and sent at once: stays 0
    - 1.0 1 2 tcp 1000 ------- 0 0.0 2.0 1 1
    + 1.5 1 2 tcp 1000 ------- 0 0.0 2.0 2 2   # 1
    + 2.0 1 2 tcp 1000 ------- 0 0.0 2.0 3 3   # 2 ...
    - 2.0 1 2 tcp 1000 ------- 0 0.0 2.0 2 2   # ... and 1 at the same instant
    + 2.5 1 2 tcp 1000 ------- 0 0.0 2.0 4 4   # 2 ...
    d 2.5 1 2 tcp 1000 ------- 0 0.0 2.0 4 4   # ... drop-tail drops it: 1
    r 2.6 0 1 tcp 1000 ------- 0 0.0 2.0 5 5   # an arrival at R changes nothing
    d 2.6 1 2 tcp 1000 ------- 0 0.0 2.0 5 5   # error-model loss (no +): not from the queue
    - 3.0 1 2 tcp 1000 ------- 0 0.0 2.0 3 3   # 0
    + 3.5 1 0 ack 40 ------- 0 2.0 0.0 1 6     # the ACK queue R -> A: 1 ...
    - 4.5 1 0 ack 40 ------- 0 2.0 0.0 1 6     # ... until 4.5
    r 5.0 1 2 tcp 1000 ------- 0 0.0 2.0 3 3   # the last record, t = 5.0
    """
)


def test_queue_changes_skip_losses_that_never_entered_the_queue() -> None:
    changes = queue_changes(QUEUE, 1, 2)
    assert changes["time"].tolist() == [1.0, 1.0, 1.5, 2.0, 2.0, 2.5, 2.5, 3.0]
    assert changes["change"].tolist() == [1, -1, 1, 1, -1, 1, -1, -1]


def test_queue_series_is_a_step_function_without_zero_length_steps() -> None:
    assert queue_series(QUEUE, 1, 2).to_dict("list") == {"time": [1.5, 3.0], "queue": [1, 0]}
    # All of node 1's queues: the ACK waits from 3.5 to 4.5.
    assert queue_series(QUEUE, 1).to_dict("list") == {
        "time": [1.5, 3.0, 3.5, 4.5],
        "queue": [1, 0, 1, 0],
    }


def test_time_weighted_mean_queue() -> None:
    # 1 packet on [1.5, 3.0), else 0: 1.5 packet-seconds over [0, 5.0].
    assert time_weighted_mean_queue(QUEUE, 1, 2) == 0.3
    # [2, 4]: 1 packet on [2, 3): 1.0 / 2.
    assert time_weighted_mean_queue(QUEUE, 1, 2, start=2, end=4) == 0.5
    # Node 1 as a whole: 1.5 + 1.0 (the ACK) = 2.5 over 5.
    assert time_weighted_mean_queue(QUEUE, 1) == 0.5
    # Past the trace: the queue stays at its last length, 0.
    assert time_weighted_mean_queue(QUEUE, 1, 2, start=0, end=10) == 0.15
    # A queue with no records is empty.
    assert time_weighted_mean_queue(QUEUE, 7) == 0.0


def test_a_window_must_not_be_empty() -> None:
    with pytest.raises(ValueError, match="must not be empty"):
        time_weighted_mean_queue(QUEUE, 1, 2, start=5, end=1)
