"""The two-sender scripts of sec. 16.3 to 16.5 (basic2.tcl, renovegas.tcl):
their argv and the columns of the line they end with."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ackclock.experiments.chapter.scripts import chapter_script
from ackclock.files import write_atomically
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


# Sec. 16.4.2: "The SACK TCP sender is specified in ns-2 via Agent/TCP/Sack1 ...
# creating the receiver with Agent/TCPSink/Sack1."
SACK_CHANGES = {
    "[new Agent/TCP/Reno]": "[new Agent/TCP/Sack1]",
    "[new Agent/TCPSink]": "[new Agent/TCPSink/Sack1]",
}


def basic2_sack(argv: Sequence[str], directory: Path) -> Script:
    """basic2.tcl with both connections SACK TCP, as the chapter changes it,
    written into `directory` (the study's output directory)."""
    text = chapter_script("basic2.tcl").read_text()
    for old, new in SACK_CHANGES.items():
        if text.count(old) != 2:
            raise ValueError(f"basic2.tcl no longer creates two {old}: cannot make it SACK")
        text = text.replace(old, new)
    path = directory / "basic2-sack.tcl"
    write_atomically(path, text.encode())
    return Script(path, argv, COLUMNS)
