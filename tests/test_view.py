"""`ackclock view` without a browser: which index each kind of input gets,
the cache, the local server's answers, the offline export and the errors.
The browser side is tests/test_view_browser.py."""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from threading import Thread

import ackclock as ac
import pytest
from ackclock import _native
from ackclock.view import index as view_index
from ackclock.view import index_for, page
from ackclock.view.server import make_server
from conftest import ROOT, run_cli

FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACKCLOCK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_committed_index_fixture_is_what_the_core_writes(tmp_path: Path) -> None:
    # viewer/test decodes tests/fixtures/basic1-head.ackview: it must be current.
    _native.index_nam(str(FIXTURES / "basic1-head.nam"), str(tmp_path / "x.ackview"))
    assert (tmp_path / "x.ackview").read_bytes() == (FIXTURES / "basic1-head.ackview").read_bytes()


def test_a_nam_trace_is_indexed_once_and_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "basic1.nam"
    shutil.copy(FIXTURES / "basic1-head.nam", trace)
    calls: list[str] = []
    real = _native.index_nam
    monkeypatch.setattr(
        view_index._native, "index_nam", lambda src, out: calls.append(src) or real(src, out)
    )
    first = index_for(trace)
    enqueued = sum(line.startswith("+ ") for line in trace.read_text().splitlines())
    assert (first.header["hops"], first.title) == (enqueued, "basic1.nam")
    assert index_for(trace).path == first.path and len(calls) == 1
    trace.write_text(trace.read_text() + "r -t 0.6 -s 1 -d 2 -p tcp -e 1000 -i 999\n")
    assert index_for(trace).path != first.path and len(calls) == 2
    index_for(trace, fresh=True)
    assert len(calls) == 3


def test_a_scenario_runs_and_its_nodes_keep_their_names(tmp_path: Path) -> None:
    scenario = tmp_path / "pair.toml"
    scenario.write_text(
        """
[simulation]
until = "2s"
[[nodes]]
name = "client"
[[nodes]]
name = "server"
[[links]]
from = "client"
to = "server"
bandwidth = "1Mb"
delay = "20ms"
queue = { type = "droptail", limit = 5 }
[[apps]]
name = "bulk"
type = "tcp"
from = "client"
to = "server"
app = { type = "bulk" }
[[traces]]
type = "ns2"
file = "pair.tr"
"""
    )
    h = index_for(scenario).header
    assert [n["label"] for n in h["nodes"]] == ["client", "server"]
    assert [(link["bandwidth"], link["delay"]) for link in h["links"]] == [(1e6, 0.02)]
    assert {s["name"] for s in h["series"]} == {"cwnd_", "ssthresh_"}
    assert h["hops"] > 100 and 1.9 < h["t_last"] <= 2.0
    # The scenario's own trace files are not written where the user is.
    assert not (tmp_path / "pair.tr").exists() and not Path("pair.tr").exists()


def test_an_ns2_script_runs_with_its_arguments_and_nam_hints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "basic1.tcl"
    shutil.copy(ROOT / "benchmarks" / "ns2" / "basic1.tcl", script)
    index = index_for(script, ["7", "2.0"])
    h = index.header
    assert index.title == "basic1.tcl 7 2.0"
    assert [link["orient"] for link in h["links"]] == ["right", "right"]
    assert h["colors"] == {"0": "Red"}
    assert {d["queue_pos"] for d in h["dirs"] if (d["from"], d["to"]) == (1, 2)} == {"0.5"}
    assert 1.99 < h["t_last"] <= 2.0
    assert (tmp_path / "basic1.nam").exists()  # the script's own files, as under ns
    assert index_for(script, ["7", "3.0"]).path != index.path


def test_a_results_directory_views_its_nam_trace(tmp_path: Path) -> None:
    with pytest.raises(ac.ConfigError, match="no nam trace"):
        index_for(tmp_path)
    shutil.copy(FIXTURES / "basic1-head.nam", tmp_path / "run.nam")
    assert index_for(tmp_path).title == "run.nam"
    shutil.copy(FIXTURES / "basic1-head.nam", tmp_path / "other.nam")
    with pytest.raises(ac.ConfigError, match=r"several nam traces \(other.nam, run.nam\)"):
        index_for(tmp_path)


def test_a_simulator_writes_the_index_of_its_own_topology(tmp_path: Path) -> None:
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "1Mb", "10ms")
    sim.cbr(a, b, rate="100Kb", packet_size=500)
    sim.trace_view(tmp_path / "cbr.ackview")
    sim.trace_nam(tmp_path / "cbr.nam")
    sim.run(until="1s")
    assert not (tmp_path / "cbr.ackview").exists()  # complete only once closed
    sim.close_traces()
    h = view_index.ViewIndex(tmp_path / "cbr.ackview", "cbr").header
    assert [n["label"] for n in h["nodes"]] == ["A", "B"]
    assert h["convs"][0]["ptype"] == "cbr"
    # One hop per packet entering a link: the nam trace of the same run says how many.
    nam = (tmp_path / "cbr.nam").read_text().splitlines()
    assert h["hops"] == sum(line.startswith("+ ") for line in nam) > 20


@pytest.fixture
def served() -> Iterator[str]:
    index = index_for(FIXTURES / "basic1-head.nam")
    server = make_server(index)
    Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def test_the_server_serves_the_page_and_byte_ranges_of_the_index(served: str) -> None:
    index = index_for(FIXTURES / "basic1-head.nam")
    assert b'data-title="basic1-head.nam"' in _get(served + "/")
    assert _get(served + "/viewer.js").startswith(b"// ackclock viewer")
    assert int(_get(served + "/index?size")) == index.size
    assert _get(served + "/index?offset=0&length=8") == b"ACKVIEW1"
    tail = _get(served + f"/index?offset={index.size - 8}&length=8")
    assert tail == b"ACKVEND1"
    for bad, status in [("/index?offset=0&length=999999999", 400), ("/nothing", 404)]:
        with pytest.raises(urllib.error.HTTPError) as caught:
            _get(served + bad)
        assert caught.value.code == status
        caught.value.close()


def test_the_export_is_one_file_with_everything_inlined(tmp_path: Path) -> None:
    index = index_for(FIXTURES / "basic1-head.nam")
    page.export(index, tmp_path / "basic1.html")
    text = (tmp_path / "basic1.html").read_text()
    assert 'id="ackclock-index"' in text and "<style>" in text
    assert 'src="' not in text and 'href="viewer.css"' not in text


def test_an_index_too_large_to_export_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page, "MAX_EXPORT_BYTES", 1000)
    with pytest.raises(ac.ConfigError, match="too large for one offline page"):
        page.export(index_for(FIXTURES / "basic1-head.nam"), tmp_path / "big.html")
    assert list(tmp_path.glob("*.html")) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "V -t * -v 1.0a5 -a 0\n+ -t 0.1 -s 0 -d 1 -i 1\n+ -t 0.x -s 0 -d 1 -i 2\n",
            "bad.nam: line 3: -t '0.x' is not a number",
        ),
        (
            "+ -t 0.2 -s 0 -d 1 -i 1\n- -t 0.1 -s 0 -d 1 -i 1\n",
            "bad.nam: line 2: time 0.1 comes after 0.2: packet records must be in time order",
        ),
        ("+ -t 0.2 -d 1 -i 1\n", "bad.nam: line 1: no -s"),
    ],
)
def test_a_bad_nam_line_is_one_error_line_naming_it(
    tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / "bad.nam").write_text(content)
    result = run_cli("view", "--export", str(tmp_path / "out.html"), str(tmp_path / "bad.nam"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"ackclock: error: {tmp_path}/{message}"]
    assert not (tmp_path / "out.html").exists()


def test_cli_errors_name_the_problem(tmp_path: Path) -> None:
    missing = run_cli("view", str(tmp_path / "missing.nam"))
    assert missing.returncode == 2
    assert "missing.nam: no such file or directory" in missing.stderr
    nam = tmp_path / "t.nam"
    shutil.copy(FIXTURES / "basic1-head.nam", nam)
    extra = run_cli("view", str(nam), "1")
    assert extra.returncode == 2 and "arguments (1) are for ns-2 scripts only" in extra.stderr


def test_cli_export_writes_the_page(tmp_path: Path) -> None:
    nam = tmp_path / "t.nam"
    shutil.copy(FIXTURES / "basic1-head.nam", nam)
    result = run_cli("view", "--export", str(tmp_path / "t.html"), str(nam))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"wrote {tmp_path / 't.html'}"
