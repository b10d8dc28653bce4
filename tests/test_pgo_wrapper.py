"""pgo/rustc-wrapper, through which cargo runs every rustc call: the recorded
profile goes to optimised builds of this repository's crates and nowhere
else (pgo/README.md)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ackclock.scenario.load import tomllib

ROOT = Path(__file__).resolve().parent.parent
WRAPPER = ROOT / "pgo" / "rustc-wrapper"
PROFILE = ROOT / "pgo" / "ackclock.profdata"
OPTIMISED = ["--crate-name", "ackclock_sim", "-C", "opt-level=3", "src/lib.rs"]
USE = [f"-Cprofile-use={PROFILE}", "-Cllvm-args=-no-pgo-warn-mismatch"]


def rustc_arguments(args: list[str], manifest_dir: Path, **env: str) -> list[str]:
    """The arguments the wrapper passes on to rustc (here: to printf)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("ACKCLOCK_PGO")}
    environment.update(env, CARGO_MANIFEST_DIR=str(manifest_dir))
    out = subprocess.run(
        [str(WRAPPER), "printf", r"%s\n", *args],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.splitlines()


def test_cargo_runs_rustc_through_the_wrapper() -> None:
    config = tomllib.loads((ROOT / ".cargo" / "config.toml").read_text())
    assert (ROOT / config["build"]["rustc-wrapper"]).resolve() == WRAPPER
    assert os.access(WRAPPER, os.X_OK)
    assert PROFILE.stat().st_size > 0


def test_an_optimised_build_of_our_crate_uses_the_profile() -> None:
    crate = ROOT / "crates" / "ackclock-sim"
    assert rustc_arguments(OPTIMISED, crate) == OPTIMISED + USE


def test_dependencies_and_unoptimised_builds_are_passed_through_unchanged() -> None:
    registry = Path.home() / ".cargo" / "registry" / "src" / "index" / "pyo3-0.22.0"
    assert rustc_arguments(OPTIMISED, registry) == OPTIMISED
    debug = ["--crate-name", "ackclock_sim", "-C", "opt-level=0", "src/lib.rs"]
    assert rustc_arguments(debug, ROOT / "crates" / "ackclock-sim") == debug


def test_ackclock_pgo_0_switches_the_profile_off() -> None:
    crate = ROOT / "crates" / "ackclock-sim"
    assert rustc_arguments(OPTIMISED, crate, ACKCLOCK_PGO="0") == OPTIMISED


def test_recording_instruments_our_crates_instead() -> None:
    crate = ROOT / "crates" / "ackclock-core"
    args = rustc_arguments(OPTIMISED, crate, ACKCLOCK_PGO_RECORD="/tmp/raw")
    assert args == [*OPTIMISED, "-Cprofile-generate=/tmp/raw"]
