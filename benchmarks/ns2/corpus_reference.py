#!/usr/bin/env python3
"""Runs the corpus of tests/tcl_corpus under real ns-2 (`ns`) and writes
what it printed and traced to tests/tcl_corpus/expected.json, the fixture
tests/test_tcl_corpus.py compares `ackclock tcl` with.

    python3 benchmarks/ns2/corpus_reference.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tcl_corpus"))

from cases import CASES, EXPECTED, HERE, outputs  # noqa: E402


def main() -> None:
    if shutil.which("ns") is None:
        sys.exit("needs ns-2 (`ns`) on the PATH")
    expected = {}
    for case in CASES:
        with tempfile.TemporaryDirectory(prefix="corpus-ns2-") as tmp:
            work = Path(tmp)
            shutil.copy(HERE / case.script, work)
            before = {p.name for p in work.iterdir()}
            done = subprocess.run(
                ["ns", case.script, *case.argv], cwd=work, capture_output=True, text=True
            )
            if done.returncode != 0:
                sys.exit(f"ns-2 failed on {case.name}: {done.stderr}")
            expected[case.name] = outputs(work, done.stdout, before, case.records)
            print(f"{case.name}: {len(expected[case.name])} outputs")
    EXPECTED.write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {EXPECTED}")


if __name__ == "__main__":
    main()
