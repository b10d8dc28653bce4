"""Jain's index, the chapter's goodput/RTT ratios and replication statistics."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from ackclock.analysis import (
    confidence_table,
    fit_power_law,
    goodput_ratio_vs_rtt_ratio,
    jain_fairness,
    mean_confidence_interval,
)
from ackclock.confidence import mean_confidence_interval as original


def test_jain_fairness() -> None:
    assert jain_fairness([5, 5, 5, 5]) == 1.0
    assert jain_fairness([1, 0, 0, 0]) == 0.25  # one flow has everything: 1/n
    assert jain_fairness(pd.Series([1.0, 2.0, 3.0])) == pytest.approx(36 / 42, rel=1e-15)
    # The chapter's equal-delay run, 14863 and 14771 packets:
    # 29634^2 / (2 (14863^2 + 14771^2)) = 878173956 / 878182420 = 0.99999036.
    assert jain_fairness([14863, 14771]) == pytest.approx(878173956 / 878182420, rel=1e-15)
    for bad in ([], [1.0, -1.0], [0, 0], [1.0, math.nan]):
        with pytest.raises(ValueError, match="Jain's index"):
            jain_fairness(bad)


# Sec. 16.3.3's table: delayB (ms), A-D and B-D goodput (packets), and the
# RTT ratio, (RTT ratio)^2 and goodput ratio it prints (3 decimals).
CHAPTER_TABLE = [
    (0, 14863, 14771, 1.000, 1.000, 1.006),
    (5, 4229, 24545, 1.045, 1.093, 0.172),
    (23, 22142, 6879, 1.209, 1.462, 3.219),
    (36, 25790, 3603, 1.327, 1.762, 7.158),
    (61, 25834, 3135, 1.555, 2.417, 8.241),
    (110, 22624, 5941, 2.000, 4.000, 3.808),
]


def test_ratios_reproduce_the_chapters_table() -> None:
    runs = pd.DataFrame(
        CHAPTER_TABLE,
        columns=["delayB", "recv0", "recv1", "rtt_ratio_text", "rtt2_text", "ratio_text"],
    )
    # basic2.tcl: RTTNL = 220 ms for A-D, 220 + 2 delayB for B-D.
    runs["rtt0"] = 220.0
    runs["rtt1"] = 220.0 + 2 * runs["delayB"]
    ratios = goodput_ratio_vs_rtt_ratio(runs, goodput=("recv0", "recv1"))
    assert ratios["rtt_ratio"].round(3).tolist() == runs["rtt_ratio_text"].tolist()
    assert ratios["rtt_ratio2"].round(3).tolist() == runs["rtt2_text"].tolist()
    assert ratios["goodput_ratio"].round(3).tolist() == runs["ratio_text"].tolist()
    assert (ratios["ratio1"] == ratios["goodput_ratio"] / ratios["rtt_ratio"]).all()
    assert (ratios["ratio2"] == ratios["goodput_ratio"] / ratios["rtt_ratio"] ** 2).all()
    assert list(ratios.columns[: len(runs.columns)]) == list(runs.columns)
    with pytest.raises(ValueError, match="goodput0"):
        goodput_ratio_vs_rtt_ratio(runs)


def test_fit_power_law_recovers_k_and_alpha() -> None:
    ratios = pd.DataFrame({"rtt_ratio": [1.0, 1.5, 2.0, 3.0]})
    ratios["goodput_ratio"] = 0.5 * ratios["rtt_ratio"] ** 2
    k, alpha = fit_power_law(ratios)
    assert k == pytest.approx(0.5, rel=1e-12) and alpha == pytest.approx(2.0, rel=1e-12)
    with pytest.raises(ValueError, match="two different RTT ratios"):
        fit_power_law(ratios.iloc[:1])


def test_mean_confidence_interval_is_the_packages_own() -> None:
    assert mean_confidence_interval is original


def test_confidence_table_per_group() -> None:
    frame = pd.DataFrame(
        {"queue": [5, 5, 5, 10, 10], "goodput": [1.0, 2.0, 3.0, 4.0, 4.0]},
    )
    table = confidence_table(frame, "goodput", by="queue")
    # Queue 5: mean 2, s = 1, t(0.975, 2 dof) = 4.302653 -> half width 4.302653 / sqrt 3.
    first = table.iloc[0]
    assert (first["queue"], first["mean"], first["samples"]) == (5, 2.0, 3)
    assert first["half_width"] == pytest.approx(4.302653 / math.sqrt(3), rel=1e-6)
    assert first["half_width"] == original([1.0, 2.0, 3.0]).half_width
    second = table.iloc[1]
    assert (second["mean"], second["half_width"], second["low"], second["high"]) == (4, 0, 4, 4)
    whole = confidence_table(frame, "goodput", level=0.9)
    assert whole.iloc[0]["mean"] == 2.8 and whole.iloc[0]["level"] == 0.9
    with pytest.raises(ValueError, match="at least 2 samples"):
        confidence_table(frame.iloc[:4], "goodput", by="queue")
