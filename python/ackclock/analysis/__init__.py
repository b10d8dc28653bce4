"""Analysis of packet traces and run results: the seed chapter's scripts
(seed 003, sec. 16.2-16.4) as pure functions, DataFrame in, DataFrame or
number out.

    from ackclock import analysis as an
    packets, variables = an.read_ns2_trace("basic1.tr")
    an.goodput(packets, fid=0, start=0, end=10)           # bytes/s
    an.time_weighted_mean_queue(packets, 1, 2)             # packets
    len(an.packets_delivered_twice(packets))               # 13
    an.count_teeth(variables)                              # teeth, coarse timeouts

Definitions are in each function's docstring and in docs/analysis.md.
"""

from __future__ import annotations

from ackclock.analysis.clusters import cluster_counts, cluster_ids, drop_clusters, loss_events
from ackclock.analysis.duplicates import packets_delivered_twice
from ackclock.analysis.export import to_csv, to_parquet
from ackclock.analysis.fairness import fit_power_law, goodput_ratio_vs_rtt_ratio, jain_fairness
from ackclock.analysis.frames import flows_frame, links_frame, series_frame
from ackclock.analysis.ns2trace import (
    PACKET_COLUMNS,
    VARIABLE_COLUMNS,
    TraceFormatError,
    read_ns2_trace,
)
from ackclock.analysis.ns2wireless import WIRELESS_COLUMNS, gap_clusters, read_wireless_trace
from ackclock.analysis.queue import queue_changes, queue_series, time_weighted_mean_queue
from ackclock.analysis.replications import (
    ConfidenceInterval,
    confidence_table,
    mean_confidence_interval,
)
from ackclock.analysis.teeth import count_teeth, cwnd_frame, teeth
from ackclock.analysis.throughput import (
    first_deliveries,
    goodput,
    goodput_by_flow,
    in_order_deliveries,
    link_utilization,
    throughput_series,
)

__all__ = [
    "PACKET_COLUMNS",
    "VARIABLE_COLUMNS",
    "WIRELESS_COLUMNS",
    "ConfidenceInterval",
    "TraceFormatError",
    "cluster_counts",
    "cluster_ids",
    "confidence_table",
    "count_teeth",
    "cwnd_frame",
    "drop_clusters",
    "first_deliveries",
    "fit_power_law",
    "flows_frame",
    "gap_clusters",
    "goodput",
    "goodput_by_flow",
    "goodput_ratio_vs_rtt_ratio",
    "in_order_deliveries",
    "jain_fairness",
    "link_utilization",
    "links_frame",
    "loss_events",
    "mean_confidence_interval",
    "packets_delivered_twice",
    "queue_changes",
    "queue_series",
    "read_ns2_trace",
    "read_wireless_trace",
    "series_frame",
    "teeth",
    "throughput_series",
    "time_weighted_mean_queue",
    "to_csv",
    "to_parquet",
]
