"""Output files: every path is checked before the run, each trace has its own
file inside the output directory, and nothing half-written is ever left."""

from __future__ import annotations

from pathlib import Path

import ackclock as ac
import pytest
from conftest import run_cli, two_node_scenario

NETWORK = (
    two_node_scenario("2s")
    + """
[[apps]]
type = "cbr"
from = "a"
to = "b"
rate = "1Mb"
"""
)


def scenario(tmp_path: Path, *trace_files: str, extra: str = "") -> Path:
    path = tmp_path / "scenario.toml"
    traces = "".join(f'\n[[traces]]\ntype = "ns2"\nfile = "{file}"\n' for file in trace_files)
    path.write_text(NETWORK + extra + traces)
    return path


def run_fails(*args: str, message: str) -> None:
    result = run_cli("run", *args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("ackclock: error: ")
    assert message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def line_of_file(path: Path, file: str) -> int:
    """The line of `file = "FILE"` in the scenario at `path`."""
    return path.read_text().splitlines().index(f'file = "{file}"') + 1


def files_in(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def test_two_traces_naming_one_file_are_refused_before_anything_is_written(tmp_path):
    path = scenario(tmp_path, "all.tr", "sub/../all.tr")
    out = tmp_path / "out"
    run_fails(
        str(path),
        "--out",
        str(out),
        message=f"traces[1].file: '{out}/sub/../all.tr' is already a trace file of this "
        f"simulation (line {line_of_file(path, 'sub/../all.tr')})",
    )
    assert files_in(tmp_path / "out") == ["sub"]


def test_trace_all_twice_on_one_file_is_refused(sim, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sim.trace_all(tmp_path / "x.tr")
    with pytest.raises(ac.ConfigError, match="path: 'x.tr' is already a trace file"):
        sim.trace_nam("x.tr")
    with pytest.raises(ac.ConfigError, match="is already a trace file"):
        sim.pcap(str(tmp_path / "x.tr"), node=sim.node())


@pytest.mark.parametrize("file", ["../escape.tr", "/tmp/ackclock-escape.tr", "a/../../escape.tr"])
def test_a_trace_outside_the_output_directory_is_refused(tmp_path, file):
    out = tmp_path / "out"
    path = scenario(tmp_path, file)
    run_fails(
        str(path),
        "--out",
        str(out),
        message=f"traces[0].file: '{file}' is outside the output directory '{out}' "
        f"(ackclock run --trace-anywhere allows it) (line {line_of_file(path, file)})",
    )
    assert not (tmp_path / "escape.tr").exists() and not Path("/tmp/ackclock-escape.tr").exists()


def test_trace_anywhere_lets_a_trace_leave_the_output_directory(tmp_path):
    path = scenario(tmp_path, "../beside.tr")
    result = run_cli("run", str(path), "--out", str(tmp_path / "out"), "--trace-anywhere")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "beside.tr").read_text().startswith("+ 0 0 1 cbr")


def test_without_out_traces_stay_in_the_current_directory(tmp_path):
    (tmp_path / "work").mkdir()
    result = run_cli("run", str(scenario(tmp_path, "../up.tr")), cwd=tmp_path / "work")
    assert result.returncode == 2
    assert "is outside the output directory" in result.stderr


def test_a_trace_may_not_overwrite_the_scenario_or_the_results(tmp_path):
    path = scenario(tmp_path, "scenario.toml")
    result = run_cli("run", str(path), cwd=tmp_path)
    assert result.returncode == 2
    assert "'scenario.toml' is the scenario file itself" in result.stderr
    out = tmp_path / "out"
    run_fails(
        str(scenario(tmp_path, "results.json")),
        "--out",
        str(out),
        message=f"trace file '{out}/results.json' is also written by --out",
    )
    assert files_in(out) == []


def test_a_failed_run_leaves_no_trace_and_keeps_an_old_one(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.tr").write_text("an earlier run's trace\n")
    unreachable = '[[nodes]]\nname = "c"\n[[apps]]\ntype = "cbr"\nfrom = "a"\nto = "c"\nrate = 1\n'
    path = scenario(tmp_path, "old.tr", "new.tr", extra=unreachable)
    run_fails(str(path), "--out", str(out), message="node 'c' is unreachable from node 'a'")
    assert files_in(out) == ["old.tr"]
    assert (out / "old.tr").read_text() == "an earlier run's trace\n"


def test_a_full_disk_is_a_file_error_naming_the_path(tmp_path):
    path = scenario(tmp_path, "/dev/full", "kept.tr")
    out = tmp_path / "out"
    run_fails(
        str(path),
        "--out",
        str(out),
        "--trace-anywhere",
        message="ackclock: error: /dev/full: No space left on device\n",
    )
    assert files_in(out) == []  # the other trace of the failed run is not kept either


def test_the_api_reports_a_full_disk_as_os_error_and_removes_nothing_else(sim, tmp_path):
    a, b = sim.node(), sim.node()
    sim.duplex_link(a, b, "1Mb", "1ms")
    sim.cbr(a, b, rate="100kb")
    sim.trace_all("/dev/full")
    with pytest.raises(OSError) as caught:
        sim.run(until="1s")
    assert caught.value.filename == "/dev/full"
    assert caught.value.strerror == "No space left on device"
    assert Path("/dev/full").is_char_device()


def test_a_trace_appears_when_run_returns_and_replaces_an_old_file_only_then(sim, tmp_path):
    a, b = sim.node(), sim.node()
    sim.duplex_link(a, b, "1Mb", "1ms")
    sim.cbr(a, b, rate="100kb")
    path = tmp_path / "x.tr"
    path.write_text("old\n")
    sim.trace_all(path)
    assert path.read_text() == "old\n"
    [temporary] = [p for p in tmp_path.iterdir() if p.name != "x.tr"]
    assert temporary.name.startswith(".x.tr.") and temporary.name.endswith(".tmp")
    sim.run(until="1s")
    assert path.read_text().startswith("+ 0 0 1 cbr")
    assert files_in(tmp_path) == ["x.tr"]


def test_discarded_traces_leave_nothing(sim, tmp_path):
    sim.trace_all(tmp_path / "x.tr")
    sim.pcap(tmp_path / "x.pcap", node=sim.node())
    sim.discard_traces()
    assert files_in(tmp_path) == []
    sim.trace_all(tmp_path / "x.tr")  # its file is free again


@pytest.mark.parametrize(
    ("path", "error"),
    [("", ac.ConfigError), ("a\0b", ac.ConfigError), (5, ac.ConfigError), (".", IsADirectoryError)],
)
def test_a_trace_path_that_names_no_writable_file_is_refused(
    sim, tmp_path, monkeypatch, path, error
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error):
        sim.trace_all(path)
    assert files_in(tmp_path) == []


def test_out_must_name_a_directory_that_can_be_written(tmp_path):
    path = str(scenario(tmp_path))
    run_fails(path, "--out", "", message="'' is not a directory name")
    (tmp_path / "file").write_text("")
    run_fails(path, "--out", str(tmp_path / "file"), message="is a file")
    run_fails(path, "--out", "/proc/ackclock", message="cannot create '/proc/ackclock'")
    assert (tmp_path / "file").read_text() == ""
