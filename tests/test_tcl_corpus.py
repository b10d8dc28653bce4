"""The corpus of ns-2-style scripts (tests/tcl_corpus) under `ackclock tcl`
against real ns-2 2.35's output (tests/tcl_corpus/expected.json, from
benchmarks/ns2/corpus_reference.py): what each prints and the per-link
counts of + - r d records of each trace, exactly or, where the case says
why, within 2% (tests/tcl_corpus/cases.py)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

sys.path.insert(0, str(ROOT / "tests" / "tcl_corpus"))
from cases import CASES, EXPECTED, HERE, TOLERANCE, Case, outputs  # noqa: E402

REFERENCE = json.loads(EXPECTED.read_text())


def agree(ours: str, theirs: str, approximate: bool) -> bool:
    if ours == theirs:
        return True
    try:
        x, y = float(ours), float(theirs)
    except ValueError:
        return False
    return approximate and abs(x - y) <= TOLERANCE * max(abs(y), 1.0)


def compare_lines(ours: list[str], theirs: list[str], case: Case, approximate: bool) -> list[str]:
    ours = [line for line in ours if line.split()[:1] not in ([w] for w in case.skip)]
    theirs = [line for line in theirs if line.split()[:1] not in ([w] for w in case.skip)]
    if len(ours) != len(theirs):
        return [f"{len(ours)} lines where ns-2 has {len(theirs)}: {ours} vs {theirs}"]
    return [
        f"{a!r} vs ns-2's {b!r}"
        for a, b in zip(ours, theirs)
        if len(a.split()) != len(b.split())
        or not all(agree(x, y, approximate) for x, y in zip(a.split(), b.split()))
    ]


def compare_counts(ours: dict[str, int], theirs: dict[str, int], case: Case) -> list[str]:
    keys = (set(ours) | set(theirs)) - set(case.skip)
    return [
        f"{key}: {ours.get(key, 0)} vs ns-2's {theirs.get(key, 0)}"
        for key in sorted(keys)
        if not agree(str(ours.get(key, 0)), str(theirs.get(key, 0)), bool(case.approximate))
    ]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_corpus_script_prints_and_traces_what_ns2_did(case: Case, tmp_path: Path) -> None:
    shutil.copy(HERE / case.script, tmp_path)
    before = {p.name for p in tmp_path.iterdir()}
    done = run_cli("tcl", case.script, *case.argv, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    ours = outputs(tmp_path, done.stdout, before, case.records)
    theirs = REFERENCE[case.name]
    assert set(ours) == set(theirs), "the same files written"
    problems = []
    for name, expected in theirs.items():
        if name in case.skip:
            continue
        if isinstance(expected, dict):
            problems += [f"{name}: {p}" for p in compare_counts(ours[name], expected, case)]
        else:
            # A trace's first records are compared exactly.
            approximate = bool(case.approximate) and not name.endswith(" records")
            problems += [
                f"{name}: {p}" for p in compare_lines(ours[name], expected, case, approximate)
            ]
    assert not problems, problems
