"""OTcl in `ackclock tcl` against OTcl in ns-2.35: each script in
tests/fixtures/otcl prints what ns-2 printed (its .out file, from `ns`)."""

from __future__ import annotations

import pytest
from conftest import ROOT, run_cli

FIXTURES = ROOT / "tests" / "fixtures" / "otcl"


@pytest.mark.parametrize("script", sorted(p.name for p in FIXTURES.glob("*.tcl")))
def test_otcl_script_prints_what_ns2_printed(script: str) -> None:
    done = run_cli("tcl", script, cwd=FIXTURES)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (FIXTURES / script).with_suffix(".out").read_text()
