# One entry point for developers and CI. `make test` is what .ci/run calls.
PYTHON ?= python3

.PHONY: install test test-rust test-python test-viewer lint fmt bench pgo fuzz ns2-fixtures ns2-grid

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
	$(PYTHON) -m ruff check python tests benchmarks pgo
	$(PYTHON) -m mypy.stubtest ackclock._native --allowlist python/stubtest-allowlist.txt

fmt:
	cargo fmt --all
	$(PYTHON) -m ruff check --fix python tests benchmarks pgo

bench:
	cargo bench --workspace --exclude ackclock-py

# Records the execution profile optimised builds compile with (pgo/README.md);
# needs llvm-profdata (rustup component add llvm-tools, or apt-get install llvm-19).
pgo:
	$(PYTHON) pgo/record.py

# Long fuzzing, on demand (make test runs the same fuzzers briefly, from a
# pinned seed): the Rust parsers' properties with many more cases, and many
# more generated scenarios and API call sequences, new ones each time
# (every tests/test_fuzz_*.py; the statistics show cases run and outcomes),
# and thousands of generated and mutated ns-2 scripts with a fresh seed
# (failures land in tests/fixtures/tcl_fuzz/ as regression tests).
FUZZ_CASES ?= 100000
fuzz:
	PROPTEST_CASES=$(FUZZ_CASES) cargo test -p ackclock-core -p ackclock-wire --lib
	HYPOTHESIS_PROFILE=fuzz $(PYTHON) -m pytest $(wildcard tests/test_fuzz_*.py) --hypothesis-show-statistics
	$(PYTHON) tests/tcl_fuzz.py --cases 5000 --seed $$(date +%s)

# ns-2's results on the differential grid, recorded with real ns-2 2.35 (apt-get
# install ns2) as the fixtures the tests compare with; about 10 minutes.
ns2-fixtures:
	python3 benchmarks/ns2/grid.py record --grid ci
	python3 benchmarks/ns2/grid.py record --grid full

# ackclock on the full grid against the recorded ns-2 results: how many points
# agree exactly, and the largest differences.
ns2-grid:
	$(PYTHON) benchmarks/ns2/grid.py compare --grid full
