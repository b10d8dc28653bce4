"""The corpus of ns-2-style scripts in tests/tcl_corpus: how each is run and
what of its output is compared with real ns-2's (expected.json, written by
benchmarks/ns2/corpus_reference.py with `ns`).

Every printed line and every ns-2 trace file is compared: words equal,
numbers equal -- or within TOLERANCE where a case names a reason (random
draws ackclock makes from its own generator, or a difference in TCP's
arithmetic that docs/tcl.md documents).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected.json"
TOLERANCE = 0.02


@dataclass(frozen=True)
class Case:
    script: str
    argv: tuple[str, ...] = ()
    # Outputs compared within TOLERANCE instead of exactly, with why.
    approximate: str = ""
    # Outputs left out of the comparison, with why: a printed line by its
    # first word, a trace count ("d 1 2": drops from node 1 to 2), a file.
    skip: dict[str, str] = field(default_factory=dict)
    # How many of each trace's first records are compared line for line.
    records: int = 0

    @property
    def name(self) -> str:
        return " ".join((self.script.removesuffix(".tcl"), *self.argv))


CASES = [
    Case("tutorial.tcl"),
    Case("losses.tcl"),
    Case("parse.tcl"),
    Case("fulltcp.tcl", records=400),
    Case("fulltcp-delack.tcl", records=400),
    Case(
        "fulltcp-twoway.tcl",
        records=535,
        approximate="two-way FullTcp through losses: from 0.63936 s two receptions of one "
        "instant come in the other order, and from 1.24 s the listening side's "
        "retransmission timer expires 10 ms before ns-2's",
    ),
    Case("suite.tcl", ("reno",), approximate="two Reno flows sharing a queue"),
    Case("ping.tcl"),
    Case("udpdata.tcl"),
    Case("tcpapp.tcl", records=200),
    Case("red-monitor.tcl"),
]


def trace_counts(text: str) -> dict[str, int] | None:
    """Counts of + - r d records per link direction ("+ 0 1"), or None if
    the text is not an ns-2 trace."""
    counts: collections.Counter[str] = collections.Counter()
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 12 and fields[0] in ("+", "-", "r", "d"):
            counts[" ".join(fields[:1] + fields[2:4])] += 1
    return dict(sorted(counts.items())) if counts else None


def outputs(directory: Path, stdout: str, before: set[str], records: int) -> dict[str, object]:
    """What a run produced: its printed lines, and per trace file its counts
    (and its first `records` lines, under "NAME records")."""
    found: dict[str, object] = {"stdout": stdout.splitlines()}
    for path in sorted(directory.iterdir()):
        if path.name in before or path.suffix == ".nam" or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        counts = trace_counts(text)
        found[path.name] = counts if counts is not None else text.splitlines()
        if counts is not None and records:
            found[f"{path.name} records"] = text.splitlines()[:records]
    return found
