"""A progress bar for one long run on stderr (tqdm): simulated time against
the end time, events per wall second, and the time left.

It appears only once a run has taken `DELAY_S` of wall time, so short runs
print nothing; pass its `report` method as `Simulator.run(progress=...)`.
"""

from __future__ import annotations

import sys
import time
from typing import Any

DELAY_S = 1.5


class RunProgress:
    """The bar for a run ending at `until_s` simulated seconds (None: open)."""

    def __init__(self, until_s: float | None, start_s: float = 0.0) -> None:
        from tqdm import tqdm

        self._start_s = start_s
        total = None if until_s is None else until_s - start_s
        unit = "simulated s"
        counts = ("{n:.1f}/{total:.1f} " if total else "{n:.1f} ") + unit
        self._bar: Any = tqdm(
            total=total,
            file=sys.stderr,
            delay=DELAY_S,
            dynamic_ncols=True,
            bar_format="{l_bar}{bar}| " + counts + " [{elapsed}<{remaining}{postfix}]",
        )
        self._last = (time.monotonic(), 0)

    def report(self, sim_time_s: float, events: int) -> None:
        now = time.monotonic()
        then, events_then = self._last
        if now > then:
            self._bar.set_postfix_str(f"{(events - events_then) / (now - then):.3g} events/s")
        self._last = (now, events)
        self._bar.update(sim_time_s - self._start_s - self._bar.n)

    def close(self) -> None:
        self._bar.close()
