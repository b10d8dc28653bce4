"""The two-sender scripts of sec. 16.3 to 16.5 (basic2.tcl, renovegas.tcl):
their argv and the columns of the line they end with."""

from __future__ import annotations

from collections.abc import Sequence

from ackclock.experiments.chapter.scripts import chapter_script
from ackclock.sweeps import Script

# "delayB overhead recv0 recv1 rttratio rttratio2 actualratio ratio1 ratio2";
# recv0 is A's packets received (the short path), recv1 B's.
COLUMNS = ["-", "-", "recv0", "recv1", "rttratio", "rttratio2", "actualratio", "ratio1", "ratio2"]


def basic2(argv: Sequence[str], analysis: str | None = None) -> Script:
    """basic2.tcl [delayB [overhead [bottleneckBW [endtime [queuesize]]]]]."""
    return Script(chapter_script("basic2.tcl"), argv, COLUMNS, analysis)


def renovegas(argv: Sequence[str], analysis: str | None = None) -> Script:
    """renovegas.tcl, basic2.tcl's argv and a sixth, ns-2's generator seed."""
    return Script(chapter_script("renovegas.tcl"), argv, COLUMNS, analysis)
