"""Drop clusters and loss events on a hand-written trace, and against the
chapter's own clustering code (sec. 16.4.4)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from ackclock.analysis import (
    cluster_counts,
    cluster_ids,
    drop_clusters,
    loss_events,
    read_ns2_trace,
)


def packets(text: str) -> pd.DataFrame:
    lines = [line.split("#")[0].strip() for line in text.strip().splitlines()]
    frame, _ = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    return frame


DROPS = packets(
    """
    d 1.0 1 2 tcp 1000 ------- 0 0.0 3.0 10 1
    d 1.5 1 2 tcp 1000 ------- 1 1.0 3.1 20 2
    d 2.0 1 2 tcp 1000 ------- 0 0.0 3.0 11 3   # 2.0 <= 1.0 + 1: still the first cluster
    d 2.4 1 2 tcp 1000 ------- 0 0.0 3.0 12 4   # > 2.0: a new cluster
    d 5.0 1 2 tcp 1000 ------- 1 1.0 3.1 21 5
    d 9.0 1 2 tcp 1000 ------- 0 0.0 3.0 13 6
    d 9.5 0 1 tcp 1000 ------- 0 0.0 3.0 14 7   # on another link
    + 10.0 0 1 tcp 1000 ------- 2 0.1 3.2 1 8   # flow 2 never loses a packet
    """
)


def test_drop_clusters_start_at_the_first_drop_and_last_one_granularity() -> None:
    clusters = drop_clusters(DROPS, 1.0)
    assert clusters.to_dict("list") == {
        "cluster": [0, 1, 2, 3],
        "start": [1.0, 2.4, 5.0, 9.0],
        "end": [2.0, 2.4, 5.0, 9.5],
        "drops": [3, 1, 1, 2],
        "drops_fid0": [2, 1, 0, 2],
        "drops_fid1": [1, 0, 1, 0],
        "drops_fid2": [0, 0, 0, 0],
    }


def test_drop_cluster_selections_and_the_gap_rule() -> None:
    # Gaps 0.5, 0.5, 0.4 keep 1.0 .. 2.4 together; then 2.6 and 4.0 split.
    gap = drop_clusters(DROPS, 1.0, rule="gap")
    assert gap["drops"].tolist() == [4, 1, 2]
    assert drop_clusters(DROPS, 1.0, link=(1, 2))["drops"].tolist() == [3, 1, 1, 1]
    assert drop_clusters(DROPS, 1.0, start=2.2, end=9.0)["drops"].tolist() == [1, 1]
    assert drop_clusters(DROPS, 10.0)["drops"].tolist() == [7]


def test_cluster_counts_is_the_chapters_clusterdict() -> None:
    counts = cluster_counts(drop_clusters(DROPS.loc[DROPS["fid"] < 2], 1.0))
    assert counts.to_dict("list") == {
        "drops_fid0": [0, 1, 2, 2],
        "drops_fid1": [1, 0, 0, 1],
        "clusters": [1, 1, 1, 1],
    }
    twice = pd.concat([drop_clusters(DROPS, 1.0)] * 2)
    assert cluster_counts(twice)["clusters"].tolist() == [2, 2, 2, 2]


def test_loss_events_per_flow_and_shared() -> None:
    # Clusters: {0, 1, 0}, {0}, {1}, {0, 0}. Flow 0: 3 events, one shared
    # with flow 1; flow 1: 2 events, one shared; flow 2: none.
    events = loss_events(DROPS, 1.0)
    assert events.to_dict("list") == {
        "flow": [0, 1, 2],
        "losses": [5, 2, 0],
        "events": [3, 2, 0],
        "alone": [2, 1, 0],
        "shared": [1, 1, 0],
    }
    # The gap rule merges the first two clusters: {0, 1, 0, 0}, {1}, {0, 0}.
    assert loss_events(DROPS, 1.0, rule="gap")["events"].tolist() == [2, 2, 0]


def chapter_clusters(
    drops: list[tuple[float, int]], granularity: float
) -> dict[tuple[int, int], int]:
    """The chapter's sec. 16.4.4 fragment, made whole: dcstart begins before
    any drop, and the final cluster is counted too (the text's fragment
    leaves it out)."""
    clusterdict: dict[tuple[int, int], int] = {}
    dcstart, dropcluster = -np.inf, (0, 0)

    def addtocluster(cluster: tuple[int, int], flow: int) -> tuple[int, int]:
        return (cluster[0] + 1, cluster[1]) if flow == 0 else (cluster[0], cluster[1] + 1)

    for time, flow in drops:
        if time > dcstart + granularity:
            dcstart = time
            if dropcluster != (0, 0):
                clusterdict[dropcluster] = clusterdict.get(dropcluster, 0) + 1
            dropcluster = addtocluster((0, 0), flow)
        else:
            dropcluster = addtocluster(dropcluster, flow)
    if dropcluster != (0, 0):
        clusterdict[dropcluster] = clusterdict.get(dropcluster, 0) + 1
    return clusterdict


def test_drop_clusters_agree_with_the_chapters_algorithm() -> None:
    rng = np.random.default_rng(20261122)
    times = np.cumsum(rng.exponential(0.7, size=400)).round(6)
    flows = rng.integers(0, 2, size=400)
    lines = [
        f"d {time} 1 2 tcp 1000 ------- {flow} {flow}.0 3.{flow} {index} {index}"
        for index, (time, flow) in enumerate(zip(times, flows))
    ]
    frame, _ = read_ns2_trace(io.StringIO("\n".join(lines) + "\n"))
    for granularity in (0.5, 1.0, 2.0, 3.0):
        counts = cluster_counts(drop_clusters(frame, granularity))
        ours = {(int(a), int(b)): int(n) for a, b, n in counts.values.tolist()}
        assert ours == chapter_clusters(list(zip(times, flows)), granularity)


def test_cluster_ids_checks_its_arguments() -> None:
    assert cluster_ids([], 1.0).tolist() == []
    assert cluster_ids([0.0, 1.0, 1.0, 2.5], 1.0).tolist() == [0, 0, 0, 1]
    assert cluster_ids([0.0, 1.0, 1.0, 2.5], 1.0, rule="gap").tolist() == [0, 0, 0, 1]
    with pytest.raises(ValueError, match="granularity must be greater than zero"):
        cluster_ids([0.0], 0)
    with pytest.raises(ValueError, match="rule must be one of start, gap"):
        cluster_ids([0.0], 1.0, rule="nearest")
    with pytest.raises(ValueError, match="sorted"):
        cluster_ids([1.0, 0.0], 1.0)
