# One entry point for developers and CI. `make test` is what .ci/run calls.
PYTHON ?= python3

.PHONY: install test test-rust test-python test-viewer lint fmt bench

install:
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[dev]'

test: install lint test-rust test-viewer test-python

# Property tests draw from a pinned seed so that every run checks the same cases.
test-rust:
	PROPTEST_RNG_SEED=20261122 cargo test --workspace --exclude ackclock-py

test-python:
	$(PYTHON) -m pytest

# The browser viewer's own build and unit tests; `check` fails if the bundle
# shipped in python/ackclock/view/static is not what the sources build to.
test-viewer:
	cd viewer && npm ci --no-audit --no-fund --loglevel=error && npm test && npm run check

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	$(PYTHON) -m ruff check python tests benchmarks
	$(PYTHON) -m mypy.stubtest ackclock._native --allowlist python/stubtest-allowlist.txt

fmt:
	cargo fmt --all
	$(PYTHON) -m ruff check --fix python tests benchmarks

bench:
	cargo bench --workspace --exclude ackclock-py

# Fuzzing beyond the pinned cases `make test` runs: thousands of generated
# and mutated ns-2 scripts with a fresh seed (failures land in
# tests/fixtures/tcl_fuzz/ as regression tests).
fuzz:
	$(PYTHON) tests/tcl_fuzz.py --cases 5000 --seed $$(date +%s)
