"""Instructions executed by an engine benchmark, counted by valgrind's
cachegrind: unlike wall time, the count is the same on every run, so a
change of a fraction of a percent between two commits is visible on a busy
machine, and the per-function and per-line diff says where it comes from.

    python3 benchmarks/instructions.py                  # this tree
    python3 benchmarks/instructions.py --base 042c6d6   # and a commit, diffed

The benchmark binary runs in criterion's test mode: one probe run and one
timed iteration, i.e. the simulation twice. Each tree builds in its own
target directory under --work (line tables on, so that lines can be named).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COUNT_LINE = re.compile(r"^\s*([0-9,]+) \([ 0-9.]+%\)\s+(.*)$")


def build(tree: Path, target: Path, bench: str) -> Path:
    """The bench binary of `tree`, built with line tables into `target`."""
    env = {
        "CARGO_TARGET_DIR": str(target),
        "CARGO_PROFILE_BENCH_DEBUG": "line-tables-only",
        "CARGO_PROFILE_RELEASE_DEBUG": "line-tables-only",
    }
    command = [
        "cargo",
        "bench",
        "-p",
        "ackclock-sim",
        "--bench",
        bench,
        "--no-run",
        "--message-format=json",
    ]
    done = subprocess.run(
        command, cwd=tree, env={**os.environ, **env}, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"instructions: cargo could not build {tree}:\n{done.stderr[-2000:]}")
    out = done.stdout
    executables = re.findall(r'"executable":"([^"]+)"', out)
    if not executables:
        sys.exit(f"instructions: cargo built no executable for bench {bench!r}")
    return Path(executables[-1])


def count(binary: Path, out: Path) -> None:
    subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            f"--cachegrind-out-file={out}",
            str(binary),
        ],
        check=True,
        capture_output=True,
    )


def by_function(profile: Path, tree: Path) -> collections.Counter[str]:
    """Instructions per `file:function`, paths relative to the tree."""
    text = subprocess.run(
        ["cg_annotate", "--auto=no", "--threshold=0", str(profile)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    counts: collections.Counter[str] = collections.Counter()
    for line in text.splitlines():
        match = COUNT_LINE.match(line)
        if match:
            name = match.group(2).replace(f"{tree}/", "")
            counts[re.sub(r"/rustc/[0-9a-f]+/", "", name)] += int(match.group(1).replace(",", ""))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--bench", default="tcp_dumbbell", help="a bench of ackclock-sim (default tcp_dumbbell)"
    )
    parser.add_argument(
        "--base", help="a commit to compare with (built in a worktree under --work)"
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/ackclock-instructions"))
    parser.add_argument("--top", type=int, default=15, help="functions to list in the diff")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    trees = {"this tree": ROOT}
    if args.base:
        worktree = args.work / "base"
        if worktree.exists():
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, check=True
            )
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(worktree), args.base], cwd=ROOT, check=True
        )
        trees = {args.base: worktree, **trees}
    profiles = {}
    for label, tree in trees.items():
        # A target directory per tree: cargo's fingerprints name the sources by path.
        key = hashlib.sha1(str(tree).encode()).hexdigest()[:12]
        binary = build(tree, args.work / f"target-{key}", args.bench)
        profile = args.work / f"cachegrind-{key}.out"
        count(binary, profile)
        profiles[label] = by_function(profile, tree)
        print(
            f"{label}: {profiles[label]['PROGRAM TOTALS']:,} instructions ({args.bench}, two runs)"
        )
    if args.base:
        old, new = profiles[args.base], profiles["this tree"]
        total = old["PROGRAM TOTALS"]
        change = 100 * (new["PROGRAM TOTALS"] - total) / total
        print(f"change: {change:+.2f}%; largest per file:function:")
        diffs = sorted(
            ((new[k] - old[k], k) for k in set(old) | set(new) if k != "PROGRAM TOTALS"),
            key=lambda r: -abs(r[0]),
        )
        for diff, name in diffs[: args.top]:
            print(f"  {diff:+15,d}  {name}")


if __name__ == "__main__":
    main()
