"""Records the execution profile that optimised builds compile with
(profile-guided optimisation, see pgo/README.md): builds the Python module
instrumented, runs the training scenarios with it and merges what they
counted into pgo/ackclock.profdata.

    python3 pgo/record.py            # or: make pgo

Needs llvm-profdata that reads the raw profiles of rustc's LLVM: rustup's
llvm-tools component, or Debian's llvm-19 (apt-get install llvm-19).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILE = ROOT / "pgo" / "ackclock.profdata"
sys.path.insert(0, str(ROOT / "benchmarks"))
from dumbbell_vs_ns2 import write_notrace_copy  # noqa: E402

# What the profile is trained on: the ns-2 front end in ns-2's event order
# (basic2 without traces, as benchmarks/tcl_vs_ns2.py times it, and with
# trace-all), Reno and Vegas, and every example scenario through the Python
# API (ns-2's and Linux's TCP, CUBIC, BBR, RED with ECN, UDP, routing,
# wireless), and the engine's own benchmarks. Each runs for a fraction of a
# second to a second, so that no workload's code is left cold.
NS2_SCRIPTS = [
    ("basic2-notrace.tcl", ["0", "0.002", "8.0", "1000"]),
    (str(ROOT / "benchmarks" / "ns2" / "basic2.tcl"), ["0", "0.002", "0.8", "300"]),
    (str(ROOT / "benchmarks" / "ns2" / "renovegas.tcl"), []),
]
EXAMPLES = sorted(glob.glob(str(ROOT / "examples" / "*.toml")))


def llvm_profdata() -> str:
    """rustup's llvm-profdata, else the newest one on PATH."""
    sysroot = subprocess.run(
        ["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    candidates = glob.glob(f"{sysroot}/lib/rustlib/*/bin/llvm-profdata")
    versioned = [
        name
        for path in os.environ.get("PATH", "").split(os.pathsep)
        for name in glob.glob(f"{path}/llvm-profdata-[0-9]*")
    ]
    candidates += sorted(versioned, key=lambda p: int(p.rsplit("-", 1)[1]), reverse=True)
    candidates += [p for p in [shutil.which("llvm-profdata")] if p]
    if not candidates:
        raise SystemExit(
            "no llvm-profdata: rustup component add llvm-tools, or apt-get install llvm-19"
        )
    return candidates[0]


def build_instrumented(work: Path) -> Path:
    """A copy of the Python package whose native module counts what runs."""
    env = dict(os.environ, ACKCLOCK_PGO_RECORD=str(work / "raw"))
    target = work / "target"
    subprocess.run(
        ["cargo", "build", "--release", "-p", "ackclock-py", "--target-dir", str(target)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    tree = work / "python"
    shutil.copytree(ROOT / "python", tree, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(target / "release" / "lib_native.so", tree / "ackclock" / "_native.abi3.so")
    return tree


def train_benchmarks(work: Path) -> None:
    """The engine's criterion benchmarks, once each: their build names the
    crates apart from the Python module's, so it needs profile entries of
    its own."""
    env = dict(os.environ, ACKCLOCK_PGO_RECORD=str(work / "raw"))
    bench = ["cargo", "bench", "--workspace", "--exclude", "ackclock-py", "--bench", "*"]
    subprocess.run(
        [*bench, "--target-dir", str(work / "target"), "--", "--test"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def train(tree: Path, work: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree))
    runs = work / "runs"
    runs.mkdir()
    write_notrace_copy(runs / "basic2-notrace.tcl")
    commands = [
        [sys.executable, "-m", "ackclock", "tcl", script, *args] for script, args in NS2_SCRIPTS
    ]
    commands += [
        [sys.executable, "-m", "ackclock", "run", example, "--json"] for example in EXAMPLES
    ]
    for command in commands:
        print(
            "training:", " ".join(Path(c).name if "/" in c else c for c in command[2:]), flush=True
        )
        subprocess.run(command, cwd=runs, env=env, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    try:
        record()
    except subprocess.CalledProcessError as failed:
        command = " ".join(map(str, failed.cmd))
        raise SystemExit(f"pgo: {command} exited with {failed.returncode}") from None


def record() -> None:
    profdata = llvm_profdata()
    with tempfile.TemporaryDirectory(prefix="ackclock-pgo-") as tmp:
        work = Path(tmp)
        tree = build_instrumented(work)
        train(tree, work)
        train_benchmarks(work)
        raw = sorted(glob.glob(str(work / "raw" / "*.profraw")))
        merged = work / "ackclock.profdata"
        subprocess.run([profdata, "merge", "--sparse", "-o", str(merged), *raw], check=True)
        shutil.move(merged, PROFILE)
    print(f"wrote {PROFILE.relative_to(ROOT)} ({PROFILE.stat().st_size} bytes) with {profdata}")


if __name__ == "__main__":
    main()
