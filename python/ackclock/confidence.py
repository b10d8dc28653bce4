"""Confidence intervals for the mean of independent replications, from
Student's t distribution (scipy.stats, imported when first needed: it takes
a tenth of a second to load)."""

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
    """P(|T| <= t) for Student's t with `dof` degrees of freedom."""
    from scipy.stats import t as student_t

    return float(1.0 - 2.0 * student_t.sf(abs(t), dof))


def student_t_quantile(level: float, dof: int) -> float:
    """The t such that P(|T| <= t) = level (e.g. 2.0096 for level 0.95, dof 49)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level {level!r} must be between 0 and 1")
    if dof < 1:
        raise ValueError(f"degrees of freedom {dof!r} must be at least 1")
    from scipy.stats import t as student_t

    return float(student_t.ppf((1.0 + level) / 2.0, dof))


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
