"""Optional dependencies: what needs an extra names it when it is missing, and
`import ackclock` loads none of the heavy libraries."""

import subprocess
import sys
from pathlib import Path

HIDE = (
    "import sys\n"
    "class Hide:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in {hidden!r}:\n"
    "            raise ModuleNotFoundError(name)\n"
    "sys.meta_path.insert(0, Hide())\n"
)


def _run_without(modules: set[str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HIDE.format(hidden=modules) + code],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_plot_without_matplotlib_names_the_plot_extra(tmp_path: Path) -> None:
    trace = tmp_path / "t.tr"
    trace.write_text("+ 0.1 0 1 tcp 1000 ------- 0 0.0 1.0 0 0\n")
    code = (
        "from ackclock.cli import main\n"
        f"sys.exit(main(['plot', 'throughput', {str(trace)!r}, '-o', {str(tmp_path / 'p.png')!r}]))"
    )
    done = _run_without({"matplotlib"}, code)
    assert done.returncode == 2
    assert done.stderr == (
        "ackclock: error: plotting needs matplotlib, not installed: pip install 'ackclock[plot]'\n"
    )
    assert not (tmp_path / "p.png").exists()


def test_parquet_without_pyarrow_names_the_parquet_extra(tmp_path: Path) -> None:
    code = (
        "import pandas as pd\n"
        "from ackclock.analysis import to_parquet\n"
        "from ackclock.extras import MissingExtraError\n"
        "try:\n"
        f"    to_parquet(pd.DataFrame({{'a': [1]}}), {str(tmp_path / 'a.parquet')!r})\n"
        "except MissingExtraError as error:\n"
        "    print(error)\n"
    )
    done = _run_without({"pyarrow"}, code)
    assert (
        done.stdout
        == "writing Parquet needs pyarrow, not installed: pip install 'ackclock[parquet]'\n"
    )


def test_import_ackclock_loads_no_heavy_library() -> None:
    code = (
        "import sys, ackclock\n"
        "heavy = ('numpy', 'pandas', 'scipy', 'pydantic', 'matplotlib', 'pyarrow', 'dask',\n"
        "         'click', 'tqdm', 'importlib.metadata')\n"
        "print([name for name in heavy if name in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "[]\n", done.stderr


def test_cli_loads_no_sweep_or_scenario_library() -> None:
    # `ackclock tcl` and `ackclock --help` must not pay for pandas and
    # pydantic (about 0.4 s), which only sweeps and scenario files need.
    code = (
        "import sys, ackclock.cli\n"
        "heavy = ('numpy', 'pandas', 'scipy', 'pydantic', 'dask', 'ackclock.sweeps')\n"
        "print([name for name in heavy if name in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "[]\n", done.stderr
