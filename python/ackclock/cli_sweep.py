"""`ackclock sweep` and `ackclock results`: parameter sweeps into a results
database, and grouped means with confidence intervals out of it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ackclock.errors import SweepError
from ackclock.exit_status import INTERRUPTED, RUNS_FAILED


def _base_and_defaults(
    base: str, args: tuple[str, ...], columns: str | None, until: str | None
) -> tuple[Any, dict[str, Any]]:
    """The sweep's base and the settings a sweep file gives (empty otherwise)."""
    from ackclock.sweeps.function_base import FunctionBase
    from ackclock.sweeps.scenario_base import ScenarioBase
    from ackclock.sweeps.script_base import ScriptBase
    from ackclock.sweeps.sweep_file import is_sweep_file, load_sweep_file

    names = columns.split(",") if columns else None
    path = Path(base)
    if path.suffix == ".toml":
        from ackclock.errors import ScenarioError
        from ackclock.scenario.load import read_toml

        try:
            data = read_toml(path)[1]
        except ScenarioError as error:
            raise SweepError(str(error)) from None
        if is_sweep_file(data):
            spec = load_sweep_file(path, data)
            settings = {
                "parameters": spec.parameters,
                "zips": spec.zip,
                "replications": spec.replications,
                "seed": spec.seed,
                "db": spec.db,
            }
            argv = args or tuple(spec.argv)
            names = names or spec.columns
            if spec.script is not None:
                return ScriptBase(spec.script, argv, names), settings
            if spec.scenario is not None:
                return ScenarioBase(spec.scenario, until or spec.until), settings
            return FunctionBase(spec.function), settings
        return ScenarioBase(path, until), {}
    if path.suffix == ".tcl":
        return ScriptBase(path, args, names), {}
    if ":" in base:
        return FunctionBase(base), {}
    raise SweepError(
        f"{base}: the base is a scenario or sweep file (.toml), an ns-2 script (.tcl) "
        "or a function (module:function or file.py:function)"
    )


@click.command("sweep", context_settings={"ignore_unknown_options": False, "show_default": True})
@click.argument("base")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUES",
    help="A grid axis: values a,b,c or a range start:stop:step (inclusive); repeat for more.",
)
@click.option(
    "--zip",
    "zips",
    multiple=True,
    metavar="'A=.. B=..'",
    help="Parameters that vary together (same number of values); repeat for more groups.",
)
@click.option("-r", "--replications", type=click.IntRange(min=1), help="Runs per point [1].")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of every run [the base's, or 1].")
@click.option("--columns", help="Names for the fields of a script's last output line (- skips).")
@click.option("--until", help="Simulated time to stop at (scenario files).")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Results database [BASE's name with .db, in the current directory].",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Local workers [one per core].")
@click.option("--threads", is_flag=True, help="Run on threads instead of processes.")
@click.option(
    "--dask",
    metavar="ADDRESS",
    help="Run on a Dask cluster: a scheduler address (tcp://host:8786) or local:N.",
)
@click.option("--shard", metavar="I/N", help="Run only shard I of N (0 <= I < N).")
@click.option("--keep-files", is_flag=True, help="Keep the files each run writes, beside the db.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def sweep_command(
    base: str,
    args: tuple[str, ...],
    params: tuple[str, ...],
    zips: tuple[str, ...],
    replications: int | None,
    seed: int | None,
    columns: str | None,
    until: str | None,
    db: Path | None,
    jobs: int | None,
    threads: bool,
    dask: str | None,
    shard: str | None,
    keep_files: bool,
    quiet: bool,
) -> int:
    """Run BASE over a grid of parameters, storing each run in a database.

    BASE is a scenario file (parameters are field paths: -p
    'links[0].bandwidth=1Mb,2Mb'), an ns-2 script followed by its ARGS, in
    which {NAME} stands for parameter NAME, a function (module:function or
    file.py:function, called as function(sim, **parameters)), or a sweep
    file. Running the same sweep again runs only what is not finished.
    Example (docs/sweeps.md):

    \b
        ackclock sweep basic2.tcl {delayB} -p delayB=0:400:5 \\
            --columns -,-,recv0,recv1,-,-,-,ratio1,ratio2
    """
    from ackclock.errors import SweepInterrupted
    from ackclock.sweeps.grid import parse_assignment
    from ackclock.sweeps.study import parse_shard, sweep

    if threads and dask:
        raise click.UsageError("give --threads or --dask, not both")
    chosen, settings = _base_and_defaults(base, args, columns, until)
    parameters = dict(settings.get("parameters", {}))
    parameters.update(parse_assignment(text) for text in params)
    groups = list(settings.get("zips", []))
    groups += [dict(parse_assignment(part) for part in text.split()) for text in zips]
    database = db or Path(settings.get("db") or Path(base).stem + ".db")
    executor = dask or ("threads" if threads else "processes")
    started = time.perf_counter()
    try:
        frame = sweep(
            chosen,
            parameters,
            zips=groups,
            replications=replications or settings.get("replications", 1),
            seed=seed if seed is not None else settings.get("seed"),
            db=database,
            executor=executor,
            jobs=jobs,
            shard=parse_shard(shard) if shard else None,
            keep_files=keep_files,
            progress=False if quiet else None,
            say=lambda text: click.echo(text, err=True),
        )
    except SweepInterrupted as stopped:
        click.echo(
            f"interrupted: {stopped.finished} of {stopped.total} runs are in {database}; "
            "run the same command again to run the rest",
            err=True,
        )
        return INTERRUPTED
    wall = time.perf_counter() - started
    failed = frame[frame["status"] != "ok"]
    click.echo(
        f"{len(frame)} runs, {len(frame) - len(failed)} ok, {len(failed)} failed, "
        f"{wall:.1f} s; results in {database} (ackclock results {database})"
    )
    if len(failed):
        first = failed.iloc[0]
        setting = ", ".join(f"{name}={first[name]}" for name in frame.attrs["parameters"])
        click.echo(
            f"ackclock: first failure ({setting or 'no parameters'}, replication "
            f"{first['replication']}): {first['error']}",
            err=True,
        )
        return RUNS_FAILED
    return 0


@click.command("results")
@click.argument("dbs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--by", multiple=True, help="Group by this column (repeat) [the parameters].")
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    help="Summarize this result column (repeat) [every numeric result that varies].",
)
@click.option(
    "--level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence level.",
)
@click.option(
    "--export",
    "export_to",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write every run, one row each, to this .csv or .parquet file.",
)
def results_command(
    dbs: tuple[Path, ...],
    by: tuple[str, ...],
    metrics: tuple[str, ...],
    level: float,
    export_to: Path | None,
) -> None:
    """Grouped means of the runs in DBS (one study's databases, e.g. its
    shards) with confidence intervals; export the runs as CSV or Parquet."""
    from ackclock.analysis.export import to_csv, to_parquet
    from ackclock.sweeps.store import load
    from ackclock.sweeps.summary import format_summary, summarize

    writers = {".csv": to_csv, ".parquet": to_parquet}
    if export_to is not None and export_to.suffix.lower() not in writers:
        raise click.BadParameter(
            f"{export_to}: give a .csv or .parquet file", param_hint="--export"
        )
    frame = load(*dbs)
    summary = summarize(frame, by or None, metrics or None, level)
    click.echo(format_summary(summary), nl=False)
    failed = int((frame["status"] != "ok").sum())
    if failed:
        click.echo(f"{failed} failed runs are left out (see their error column)", err=True)
    if export_to is not None:
        writers[export_to.suffix.lower()](frame, export_to)
        click.echo(f"wrote {export_to}")
