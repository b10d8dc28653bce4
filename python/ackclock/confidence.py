"""Confidence intervals for the mean of independent replications.

Uses Student's t distribution, whose quantile is computed here (no SciPy): the
two-sided probability A(t|v) = P(|T| <= t) has a closed form for integer
degrees of freedom v (Abramowitz & Stegun 26.7.3), and is inverted by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ackclock import checks
from ackclock.errors import ParameterError


@dataclass(frozen=True)
class ConfidenceInterval:
    mean: float
    half_width: float
    level: float
    samples: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


def student_t_two_sided(t: float, dof: int) -> float:
    """P(|T| <= t) for Student's t with `dof` degrees of freedom (A&S 26.7.3)."""
    theta = math.atan(t / math.sqrt(dof))
    cos2 = math.cos(theta) ** 2
    # term_k = (2*4*...(2k)) / (1*3*...(2k+1)) cos^(2k) for odd dof, and
    # (1*3*...(2k-1)) / (2*4*...(2k)) cos^(2k) for even dof; the sums stop at cos^(dof-2).
    term = 1.0
    total = 1.0
    if dof % 2 == 1:
        for k in range(1, (dof - 1) // 2):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        series = math.sin(theta) * math.cos(theta) * total if dof > 1 else 0.0
        return 2.0 / math.pi * (theta + series)
    for k in range(1, dof // 2):
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def student_t_quantile(level: float, dof: int) -> float:
    """The t such that P(|T| <= t) = level (e.g. 2.0096 for level 0.95, dof 49)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level {level!r} must be between 0 and 1")
    if dof < 1:
        raise ValueError(f"degrees of freedom {dof!r} must be at least 1")
    low, high = 0.0, 1.0
    while student_t_two_sided(high, dof) < level:
        high *= 2.0
    for _ in range(100):
        middle = (low + high) / 2.0
        if student_t_two_sided(middle, dof) < level:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def mean_confidence_interval(samples: Sequence[float], level: float = 0.95) -> ConfidenceInterval:
    """Mean of `samples` with its Student-t confidence interval (needs >= 2
    finite samples; anything else raises ConfigError, a ValueError)."""
    if isinstance(samples, (str, bytes)) or not isinstance(samples, Iterable):
        raise ParameterError("samples", f"{samples!r} is not a sequence of numbers")
    values = [checks.real(x, "samples", "sample", minimum=-math.inf) for x in samples]
    level = checks.real(level, "level", "confidence level", 0.0, 1.0, minimum_allowed=False)
    n = len(values)
    if n < 2:
        raise ParameterError("samples", f"a confidence interval needs at least 2 samples, got {n}")
    if level == 1.0:
        raise ParameterError("level", "1.0 is not a confidence level: it must be below 1")
    # Computed on samples scaled into [-1, 1], so that huge ones cannot overflow.
    scale = max(abs(x) for x in values) or 1.0
    scaled = [x / scale for x in values]
    mean = math.fsum(scaled) / n
    deviation = math.sqrt(math.fsum((x - mean) ** 2 for x in scaled) / (n - 1))
    half_width = student_t_quantile(level, n - 1) * deviation / math.sqrt(n) * scale
    return ConfidenceInterval(mean=mean * scale, half_width=half_width, level=level, samples=n)
