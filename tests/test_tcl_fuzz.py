"""The Tcl front end under the fuzzer (tests/tcl_fuzz.py): generated and
mutated ns-2 scripts end with their exit status or one error line naming the
script's line, never another failure. `make fuzz` runs thousands of cases;
this runs a pinned few hundred, and every input that once broke the promise."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcl_fuzz
from ackclock.tcl import run_script

CASES = 200
SEED = 20261123


@pytest.mark.parametrize("block", range(4))
def test_fuzzed_scripts_end_with_their_status_or_one_located_error_line(block: int) -> None:
    size = CASES // 4
    outcomes = [
        tcl_fuzz.run_case(tcl_fuzz.case(SEED, i), 5.0, run_script)
        for i in range(block * size, (block + 1) * size)
    ]
    assert len(outcomes) == size


@pytest.mark.parametrize("script", sorted(p.name for p in tcl_fuzz.CRASHES.glob("*.tcl")))
def test_inputs_that_once_crashed_end_with_one_located_error_line(script: str) -> None:
    outcome = tcl_fuzz.run_case((tcl_fuzz.CRASHES / script).read_text(), 5.0, run_script)
    assert outcome == "error"


def test_the_fuzzer_mixes_finished_runs_and_errors() -> None:
    outcomes = [tcl_fuzz.run_case(tcl_fuzz.case(SEED, i), 5.0, run_script) for i in range(30)]
    kinds = {o.split()[0] for o in outcomes}
    assert {"exit", "error"} <= kinds, "the grammar must reach both full runs and mistakes"


def test_mutations_change_real_scripts() -> None:
    import random

    original = Path(tcl_fuzz.SEEDS[0]).read_text()
    assert tcl_fuzz.mutate(original, random.Random(1)) != original
