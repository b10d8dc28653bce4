"""Mobility models built on `Simulator.move` (ns-2's setdest): the random
waypoint model, as ns-2's `setdest` tool writes movement files for studies.
docs/wireless.md describes it."""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

from ackclock import checks, units
from ackclock.errors import ParameterError
from ackclock.handles import Node
from ackclock.simulator import Simulator


def random_waypoint(
    sim: Simulator,
    node: Node,
    area: Sequence[float],
    speed: Sequence[float],
    pause: units.Duration = 0,
    until: units.Duration = 100,
) -> int:
    """Moves `node` by the random waypoint model until `until`: from where
    it is, it pauses `pause`, then heads for a point drawn uniformly in the
    rectangle (0, 0)-`area` (x, y metres) at a speed drawn uniformly in
    `speed` (min, max m/s), arrives, pauses, and so on. Every leg is one
    `sim.move`, scheduled now; the draws come from a stream of the
    simulator's seed and replication and the node's name, so a run is the
    same for its seed. Returns the number of legs."""
    width, height = _pair(area, "area", "size in metres", positive=True)
    slowest, fastest = _pair(speed, "speed", "speed in m/s", positive=True)
    if slowest > fastest:
        raise ParameterError("speed", f"({slowest:g}, {fastest:g}) is not a (min, max) range")
    wait = units.duration_ps(pause, "pause") / units.PS_PER_S
    end = units.duration_ps(until, "until") / units.PS_PER_S
    import numpy as np  # only when used: `import ackclock` stays light

    x, y, _ = sim.position(node)
    streams = [sim.seed, sim.replication, zlib.crc32(node.name.encode())]
    rng = np.random.default_rng(np.random.SeedSequence(streams))
    t, legs = sim.now + wait, 0
    while t < end:
        tx, ty = rng.uniform(0, width), rng.uniform(0, height)
        v = rng.uniform(slowest, fastest)
        sim.move(node, t, (tx, ty), v)
        legs += 1
        t += math.hypot(tx - x, ty - y) / v + wait
        x, y = tx, ty
    return legs


def _pair(value: object, parameter: str, what: str, positive: bool) -> tuple[float, float]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ParameterError(parameter, f"{value!r} is not a pair of {what}")
    a, b = (checks.real(v, parameter, what, minimum_allowed=not positive) for v in value)
    return a, b
