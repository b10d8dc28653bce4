"""Fuzzing `ackclock run` with generated scenario files.

Scenarios are drawn table by table from the schema's own keys, each value from
what a user might write for that kind of key (good and bad values) or, now
and then, anything at all; occasionally a key is unknown or a table missing.
Whatever the file, `ackclock run` must end with status 0 (warnings only) or 2
(one error line), never a traceback, a hang or a file written outside its
output directory. `make test` runs a bounded number of cases from a pinned
seed; `make fuzz` many more (see the "fuzz" profile in conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
import tomli_w
from ackclock.cli import main
from ackclock.scenario import schema
from fuzz_values import (
    ANYTHING,
    BANDWIDTHS,
    CHOICES,
    COUNTS,
    DURATIONS,
    FAULT_PERCENT,
    FILES,
    NAMES,
    PROBABILITIES,
    SIZES,
    THRESHOLDS,
    fault,
    mostly,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).parent / "fixtures" / "fuzz"

DURATION_KEYS = {
    "delay", "start", "stop", "until", "mean", "low", "high", "mean_interval", "on_mean",
    "off_mean", "think", "server_start", "timestamp_granularity", "initial_rto", "min_rto",
    "max_rto", "clock_granularity", "delayed_ack_timeout", "send_overhead", "persist_min",
    "persist_max", "time_wait",
}  # fmt: skip
BANDWIDTH_KEYS = {"bandwidth", "rate", "read_rate"}
SIZE_KEYS = {"packet_size", "bytes", "mss", "request", "response", "receive_buffer"}
SIZE_KEYS |= {"mean_packet_size", "initial_ssthresh", "max_window"}
PROBABILITY_KEYS = {"p", "ber", "loss_good", "loss_bad", "p_good_to_bad", "p_bad_to_good"}
PROBABILITY_KEYS |= {"max_p", "weight"}
COUNT_KEYS = {"limit", "count", "max_packets", "seed", "replication", "snaplen", "syn_retries"}
COUNT_KEYS |= {"initial_window", "dupack_threshold", "max_retransmits", "max_events"}

UNIONS = {
    "queue": [schema.DropTailTable, schema.RedTable],
    "loss": [
        schema.UniformLossTable,
        schema.BitErrorTable,
        schema.GilbertElliottTable,
        schema.DropListTable,
    ],
    "jitter": [schema.ExponentialDelayTable, schema.UniformDelayTable],
    "app": [schema.BulkTable, schema.TelnetTable, schema.RequestResponseTable],
    "tcp": [schema.TcpTable],
    "server_tcp": [schema.TcpTable],
    "reverse": [schema.ReverseTable],
    "apps": [schema.CbrTable, schema.PoissonTable, schema.OnOffTable, schema.TcpFlowTable],
}


def value_for(key: str, nodes: list[str], depth: int) -> st.SearchStrategy[object]:
    """What a user might write for `key`: mostly good, sometimes bad, or anything."""
    known = st.sampled_from(nodes) if nodes else NAMES
    if key in DURATION_KEYS:
        return DURATIONS
    if key in BANDWIDTH_KEYS:
        return BANDWIDTHS
    if key in SIZE_KEYS:
        return SIZES
    if key in PROBABILITY_KEYS:
        return PROBABILITIES
    if key in COUNT_KEYS:
        return COUNTS
    if key in ("min_th", "max_th"):
        return THRESHOLDS
    if key in ("from", "to", "node"):
        return mostly(known, NAMES)
    if key == "link":
        return mostly(st.lists(known, min_size=2, max_size=2), st.lists(NAMES, max_size=3))
    if key == "name":
        return NAMES
    if key == "file":
        return FILES
    if key == "drops":
        return mostly(st.lists(st.integers(0, 50), max_size=5), st.lists(st.integers(-2, 2)))
    if key in CHOICES:
        return mostly(CHOICES[key], st.text(max_size=5))
    if key in UNIONS and depth < 3:
        return mostly(table(UNIONS[key], nodes, depth + 1), ANYTHING)
    return mostly(st.booleans(), ANYTHING)


@st.composite
def table(
    draw: st.DrawFn, classes: list[type[schema.Table]], nodes: list[str], depth: int = 0
) -> dict:
    """One table of a class among `classes`: its required keys (one may be
    left out) and a few optional ones, sometimes an unknown key."""
    cls = draw(st.sampled_from(classes))
    keys = [key for key in cls.keys() if key != "type"]
    required = [
        field.alias or name
        for name, field in cls.model_fields.items()
        if field.is_required() and name != "type"
    ]
    percent = draw(FAULT_PERCENT)
    chosen = set(required) | set(draw(st.lists(st.sampled_from(keys), max_size=5)) if keys else [])
    if required and fault(percent, draw(st.integers(0, 99))):
        chosen.discard(draw(st.sampled_from(required)))
    data: dict[str, object] = {}
    if "type" in cls.model_fields:
        tags = cls.model_fields["type"].annotation.__args__  # Literal[...]
        data["type"] = draw(mostly(st.sampled_from(tags), st.text(max_size=8)))
    for key in sorted(chosen):
        data[key] = draw(value_for(key, nodes, depth))
    if fault(percent, draw(st.integers(0, 99))):
        data["colour"] = "red"  # an unknown key
    return data


@st.composite
def scenario(draw: st.DrawFn) -> dict:
    """A chain of two to four nodes with apps between them; at the case's
    fault rate, tables go missing, links and nodes are added anywhere and
    apps connect any two names."""
    percent = draw(FAULT_PERCENT)
    faulty = lambda: fault(percent, draw(st.integers(0, 99)))  # noqa: E731
    nodes = draw(st.lists(st.sampled_from("abcd"), min_size=2, max_size=4, unique=True))
    simulation = draw(table([schema.SimulationTable], nodes))
    simulation["until"] = draw(mostly(st.sampled_from(["0.2s", "1s", "2s"]), DURATIONS))
    chain = list(zip(nodes, nodes[1:]))
    links = []
    for a, b in chain:
        link = draw(table([schema.LinkTable], nodes))
        if not faulty():
            link.update({"from": a, "to": b})
            if "reverse" in link:
                link["duplex"] = True
        links.append(link)
    apps = draw(st.lists(table(UNIONS["apps"], nodes), min_size=1, max_size=3))
    for app in apps:
        if not faulty():
            app["from"], app["to"] = draw(st.permutations(nodes))[:2]
            app.pop("name", None)
    traces = draw(st.lists(table([schema.TraceTable], nodes), max_size=2))
    for trace in traces:
        if not faulty():
            trace.pop("node", None)
            trace.pop("link", None)
            at_node = trace.get("type") != "ns2" and draw(st.booleans())
            if at_node:
                trace["node"] = draw(st.sampled_from(nodes))
            elif trace.get("type") != "ns2" or draw(st.booleans()):
                trace["link"] = list(draw(st.sampled_from(chain)))
    document: dict[str, object] = {
        "simulation": simulation,
        "nodes": [{"name": name} for name in nodes],
        "links": links,
        "apps": apps,
        "traces": traces,
    }
    if faulty():
        document["nodes"].append(draw(table([schema.NodeTable], nodes)))
    if faulty():
        links.append(draw(table([schema.LinkTable], nodes)))
    for key in [key for key in document if faulty()]:
        del document[key]
    return document


def run_scenario(text: str, work: Path) -> tuple[int, str, str]:
    """`ackclock run` on `text` in `work`, in this process (fast): status, stdout, stderr."""
    path = work / "scenario.toml"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["run", str(path), "--out", str(work / "out"), "--max-events", "300000"])
    return status, out.getvalue(), err.getvalue()


def check_run(text: str, work: Path) -> int:
    """The property every scenario file must satisfy; returns the exit status."""
    work.mkdir(parents=True, exist_ok=True)
    before = set(os.listdir(work.parent))
    status, stdout, stderr = run_scenario(text, work)
    lines = stderr.splitlines()
    if status == 2:
        assert len(lines) == 1 and lines[0].startswith("ackclock: error: "), stderr
        assert stdout == ""
    else:
        assert status == 0, stderr
        assert all(line.startswith("ackclock: warning: ") for line in lines), stderr
        assert (work / "out" / "results.json").exists()
    assert set(os.listdir(work.parent)) == before, "a file was written outside the run's directory"
    assert set(os.listdir(work)) <= {"scenario.toml", "out"}
    assert not Path("/tmp/abs.tr").exists()
    return status


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(document=scenario())
def test_any_scenario_runs_or_fails_with_one_line(tmp_path_factory, document):
    work = tmp_path_factory.mktemp("fuzz") / "case"
    event(f"exit status {check_run(tomli_w.dumps(document), work)}")


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.toml")), ids=lambda p: p.stem)
def test_scenarios_that_once_crashed_run_or_fail_with_one_line(tmp_path, path):
    check_run(path.read_text(), tmp_path / "case")
