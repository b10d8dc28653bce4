#!/usr/bin/env python3
"""How many of ns-2.35's own scripts run unmodified under `ackclock tcl`, and
how many give ns-2's results.

    python3 benchmarks/ns2_corpus.py [--only ex|tests] [--jobs 2] [--timeout 120]
                                     [--filter SUBSTRING] [--json out.json]

Takes ns-2.35's tcl/ex examples and the TCP validation suites
(tcl/test/test-suite-{tcp,newreno,sack,testReno,tcpVariants,simple,red,
tcp-init-win,rfc2581}.tcl, one case per test, run as ns-2's test-all script
runs them: `ns test-suite-X.tcl TEST QUIET`, with the perl helpers of ns-2's
bin/) from ns-2's source tree (--source, a git directory, read with `git
show`), and runs each case under real ns-2 (`ns`) and under ackclock, each
in a fresh copy of its directory. A case

* counts only if ns-2 itself finishes it (exit status 0, within --timeout);
* runs under ackclock if ackclock exits with ns-2's status;
* matches if, moreover, what it prints and every file ns-2 wrote agree:
  numbers within 2% (relative), other words equal; ns-2 trace files by
  their per-link counts of + - r d records; nam traces are not compared.

Prints one line per case, a summary, and the most common reasons ackclock
stopped (its one-line errors).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

SOURCE = Path("/work/.mirror/hbatmit+ns2.35/repo")
SUITES = (
    "tcp",
    "newreno",
    "sack",
    "testReno",
    "tcpVariants",
    "simple",
    "red",
    "tcp-init-win",
    "rfc2581",
)
TOLERANCE = 0.02


@dataclass
class Case:
    name: str
    directory: str  # tcl/ex or tcl/test
    argv: list[str]
    output: str | None  # the file a test suite's verdict is made from


@dataclass
class Outcome:
    case: str
    ns2_ok: bool
    runs: bool = False
    matches: bool = False
    error: str = ""
    detail: str = ""


def git_files(source: Path, prefix: str) -> list[str]:
    listing = subprocess.run(
        ["git", "-C", str(source), "ls-tree", "-r", "--name-only", "HEAD", prefix],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return listing.split()


def extract(source: Path, root: Path) -> None:
    """ns-2's tcl/ex, tcl/test (without its saved outputs) and bin/ under root."""
    for prefix in ("tcl/ex/", "tcl/test/", "bin/"):
        for name in git_files(source, prefix):
            if "/test-output-" in name:
                continue
            data = subprocess.run(
                ["git", "-C", str(source), "show", f"HEAD:{name}"], capture_output=True
            ).stdout
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            if prefix == "bin/":
                path.chmod(0o755)


def cases(root: Path, only: str | None) -> list[Case]:
    found = []
    if only in (None, "ex"):
        for script in sorted((root / "tcl/ex").glob("*.tcl")):
            found.append(Case(f"ex/{script.name}", "tcl/ex", [script.name], None))
    if only in (None, "tests"):
        for suite in SUITES:
            text = (root / f"tcl/test/test-suite-{suite}.tcl").read_text(errors="replace")
            for test in re.findall(r"^Class Test/(\S+)", text, re.M):
                found.append(
                    Case(
                        f"{suite}/{test}",
                        "tcl/test",
                        [f"test-suite-{suite}.tcl", test, "QUIET"],
                        "temp.rands",
                    )
                )
    return found


def run(command: list[str], cwd: Path, timeout: int) -> tuple[int | None, str, str]:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=timeout, errors="replace"
        )
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def workspace(root: Path, case: Case, simulator: str) -> Path:
    """A copy of the case's directory, with bin/ beside it as ns-2 has it."""
    base = Path(tempfile.mkdtemp(prefix=f"corpus-{simulator}-"))
    shutil.copytree(root / case.directory, base / case.directory)
    os.symlink(root / "bin", base / "bin")
    return base / case.directory


def outputs(directory: Path, before: set[str]) -> dict[str, Path]:
    return {p.name: p for p in directory.iterdir() if p.is_file() and p.name not in before}


def numbers_agree(a: str, b: str) -> str:
    """ "" if the texts agree word for word, numbers within TOLERANCE; else why not."""
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb):
        return f"{len(wa)} words vs ns-2's {len(wb)}"
    for x, y in zip(wa, wb):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return f"{x!r} vs ns-2's {y!r}"
        if abs(fx - fy) > TOLERANCE * max(abs(fy), 1e-9) and abs(fx - fy) > 1e-6:
            return f"{x} vs ns-2's {y}"
    return ""


def trace_counts(text: str) -> collections.Counter[tuple[str, str, str]] | None:
    """Per-link counts of + - r d records, or None if not an ns-2 trace."""
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    records = 0
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 12 and fields[0] in "+-rd" and len(fields[0]) == 1:
            counts[(fields[0], fields[2], fields[3])] += 1
            records += 1
    return counts if records else None


def files_agree(ours: Path, theirs: Path) -> str:
    a = ours.read_text(errors="replace")
    b = theirs.read_text(errors="replace")
    if theirs.suffix == ".nam":
        return ""
    ca, cb = trace_counts(a), trace_counts(b)
    if cb is not None:
        if ca is None:
            return f"{ours.name}: no trace records"
        for key in set(ca) | set(cb):
            x, y = ca.get(key, 0), cb.get(key, 0)
            if abs(x - y) > TOLERANCE * max(y, 1):
                return f"{ours.name}: {key[0]} {key[1]}->{key[2]} {x} vs ns-2's {y}"
        return ""
    why = numbers_agree(a, b)
    return f"{ours.name}: {why}" if why else ""


def check(root: Path, case: Case, ackclock: list[str], timeout: int) -> Outcome:
    ns_dir = workspace(root, case, "ns")
    ours_dir = workspace(root, case, "ackclock")
    before = {p.name for p in ns_dir.iterdir()}
    try:
        ns_status, ns_out, _ = run(["ns", *case.argv], ns_dir, timeout)
        if ns_status is None or ns_status != 0:
            return Outcome(case.name, ns2_ok=False)
        status, out, err = run([*ackclock, *case.argv], ours_dir, timeout)
        outcome = Outcome(case.name, ns2_ok=True)
        if status != ns_status:
            lines = [line for line in err.splitlines() if line.strip()]
            outcome.error = lines[-1] if lines else f"exit status {status}"
            return outcome
        outcome.runs = True
        theirs = outputs(ns_dir, before)
        mine = outputs(ours_dir, before)
        if case.output is not None:
            theirs = {k: v for k, v in theirs.items() if k == case.output}
        why = numbers_agree(out, ns_out)
        why = f"stdout: {why}" if why else ""
        for name, path in sorted(theirs.items()):
            if why:
                break
            why = files_agree(mine[name], path) if name in mine else f"{name} not written"
        outcome.matches = not why
        outcome.detail = why
        return outcome
    finally:
        shutil.rmtree(ns_dir.parent.parent, ignore_errors=True)
        shutil.rmtree(ours_dir.parent.parent, ignore_errors=True)


def reason(error: str) -> str:
    """An error line without its script position, for grouping."""
    text = re.sub(r"^ackclock: error: ", "", error)
    text = re.sub(r'^[^:]*:\d+( \(in [^)]*\))?: "[^"]*": ', "", text)
    text = re.sub(r"_o\d+", "_oN", text)
    return text[:140]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--only", choices=("ex", "tests"))
    ap.add_argument("--filter", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--json", type=Path)
    opts = ap.parse_args()
    ackclock = [sys.executable, "-m", "ackclock", "tcl"]
    with tempfile.TemporaryDirectory(prefix="ns2-corpus-") as tmp:
        root = Path(tmp)
        extract(opts.source, root)
        todo = [c for c in cases(root, opts.only) if opts.filter in c.name]
        with ThreadPoolExecutor(opts.jobs) as pool:
            results = list(pool.map(lambda c: check(root, c, ackclock, opts.timeout), todo))
    for r in results:
        verdict = (
            "ns-2 fails"
            if not r.ns2_ok
            else ("matches" if r.matches else ("runs" if r.runs else "stops"))
        )
        print(f"{r.case:48} {verdict:10} {r.error or r.detail}")
    for examples in (True, False):
        chosen = [r for r in results if r.case.startswith("ex/") == examples]
        counted = [r for r in chosen if r.ns2_ok]
        label = "tcl/ex examples" if examples else "validation tests"
        print(
            f"{label}: {len(chosen)} cases, {len(counted)} finish under ns-2; under ackclock "
            f"{sum(r.runs for r in counted)} run, {sum(r.matches for r in counted)} match"
        )
    blockers = collections.Counter(reason(r.error) for r in results if r.ns2_ok and r.error)
    print("\nmost common reasons ackclock stops:")
    for text, count in blockers.most_common(25):
        print(f"{count:4}  {text}")
    if opts.json:
        opts.json.write_text(json.dumps([asdict(r) for r in results], indent=1))


if __name__ == "__main__":
    main()
