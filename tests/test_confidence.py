"""Student-t confidence intervals, checked against published t tables."""

import math

import pytest
from ackclock.confidence import (
    mean_confidence_interval,
    student_t_quantile,
    student_t_two_sided,
)


@pytest.mark.parametrize(
    ("level", "dof", "t"),
    [
        (0.95, 1, 12.7062),
        (0.95, 2, 4.3027),
        (0.95, 3, 3.1824),
        (0.95, 10, 2.2281),
        (0.95, 30, 2.0423),
        (0.95, 49, 2.0096),
        (0.95, 1000, 1.9623),
        (0.99, 7, 3.4995),
        (0.90, 20, 1.7247),
    ],
)
def test_t_quantiles_match_the_table(level, dof, t):
    assert student_t_quantile(level, dof) == pytest.approx(t, abs=5e-5)


def test_interval_is_mean_plus_minus_t_times_standard_error():
    samples = [5.0, 6.0, 7.0, 8.0]  # mean 6.5, sample standard deviation sqrt(5/3)
    ci = mean_confidence_interval(samples, level=0.95)
    half_width = 3.1824 * math.sqrt(5 / 3) / 2
    assert ci.mean == 6.5
    assert ci.half_width == pytest.approx(half_width, rel=1e-4)
    assert (ci.low, ci.high) == pytest.approx((6.5 - half_width, 6.5 + half_width), rel=1e-4)
    assert 6.5 + half_width * 0.99 in ci and 6.5 + half_width * 1.01 not in ci


def test_interval_needs_two_samples():
    with pytest.raises(ValueError, match="at least 2 samples"):
        mean_confidence_interval([1.0])


@pytest.mark.parametrize(
    ("t", "dof", "p"), [(12.7062, 1, 0.95), (2.0096, 49, 0.95), (3.4995, 7, 0.99)]
)
def test_two_sided_probability_inverts_the_quantile(t, dof, p):
    assert student_t_two_sided(t, dof) == pytest.approx(p, abs=1e-5)
    assert student_t_two_sided(-t, dof) == pytest.approx(p, abs=1e-5)


@pytest.mark.parametrize(("level", "dof"), [(1.0, 5), (0.0, 5), (0.95, 0)])
def test_quantile_refuses_a_level_or_dof_out_of_range(level, dof):
    with pytest.raises(ValueError, match="must be"):
        student_t_quantile(level, dof)
