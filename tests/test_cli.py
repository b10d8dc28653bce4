"""The `ackclock` command: output formats, overrides, and one-line errors."""

import json

import ackclock as ac
import pytest
from conftest import EXAMPLES, run_cli

DUMBBELL = str(EXAMPLES / "udp_dumbbell.toml")

LINK_FIELDS = {
    "from": str,
    "to": str,
    "bandwidth_bps": int,
    "delay_s": float,
    "tx_packets": int,
    "tx_bytes": int,
    "drops": int,
    "queue_drops": int,
    "loss_drops": int,
    "ecn_marks": int,
    "utilization": float,
    "active_s": float,
    "active_utilization": float,
    "mean_queue_packets": float,
    "mean_queue_bytes": float,
}
FLOW_FIELDS = {
    "id": str,
    "src": str,
    "dst": str,
    "kind": str,
    "tx_packets": int,
    "rx_packets": int,
    "tx_bytes": int,
    "rx_bytes": int,
    "lost_packets": int,
    "loss_rate": float,
    "link_drops": dict,
    "mean_delay_s": float,
    "delay_p50_s": float,
    "delay_p95_s": float,
    "delay_p99_s": float,
    "max_delay_s": float,
    "mean_jitter_s": float,
    "active_s": float,
    "throughput_bps": float,
    "goodput_bps": float,
}


def run_json(*args):
    result = run_cli("run", DUMBBELL, "--json", *args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)  # exactly one JSON document, nothing else


def test_run_json_prints_one_object_with_typed_fields():
    document = run_json()
    assert isinstance(document["sim_time_s"], float) and document["sim_time_s"] == 30.0
    assert isinstance(document["events"], int) and document["events"] > 0
    assert isinstance(document["wall_s"], float) and document["wall_s"] > 0
    assert document["seed"] == 1
    assert [(link["from"], link["to"]) for link in document["links"]][:2] == [
        ("s1", "r1"),
        ("r1", "s1"),
    ]
    for link in document["links"]:
        assert {key: type(link[key]) for key in LINK_FIELDS} == LINK_FIELDS
    assert [(f["id"], f["kind"], f["src"], f["dst"]) for f in document["flows"]] == [
        ("cbr1", "cbr", "s1", "d1"),
        ("poisson1", "poisson", "s2", "d2"),
    ]
    for flow in document["flows"]:
        assert {key: type(flow[key]) for key in FLOW_FIELDS} == FLOW_FIELDS


def test_seed_and_until_options_override_the_file():
    default = run_json()
    changed = run_json("--seed", "2", "--until", "10s")
    assert (changed["seed"], changed["sim_time_s"]) == (2, 10.0)
    assert changed["flows"] != default["flows"]


def test_summary_lists_links_and_flows():
    result = run_cli("run", DUMBBELL)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("simulated 30 s in ")
    assert any(line.startswith("r1->r2") and "1.5Mb" in line and "20ms" in line for line in lines)
    assert any(line.startswith("cbr1") and "s1->d1" in line for line in lines)
    assert any(line.startswith("poisson1") and "s2->d2" in line for line in lines)


def test_out_writes_the_same_json_to_results_file(tmp_path):
    result = run_cli("run", DUMBBELL, "--json", "--out", str(tmp_path / "run1"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "run1" / "results.json").read_text() == result.stdout
    assert [p.name for p in (tmp_path / "run1").iterdir()] == ["results.json"]  # no temporary left


def test_help_and_version_succeed():
    assert "run" in run_cli("--help").stdout
    assert run_cli("--version").stdout.startswith("ackclock, version ")


def test_algorithms_lists_every_registered_algorithm_with_its_parameters():
    result = run_cli("algorithms")
    assert result.returncode == 0
    names = [line.split(":")[0] for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert names == [info["name"] for info in ac.congestion_controls()]
    assert "    beta = 0.5 (real, 0.05 to 1): " in result.stdout
    assert "    ns-2 agents: Agent/TCP/Reno\n" in result.stdout
    assert "    ns-2 agents: Agent/TCP/Sack1\n" in result.stdout


SCENARIO = """\
[simulation]
seed = 1
until = "1s"
[[nodes]]
name = "A"
[[nodes]]
name = "B"
[[nodes]]
name = "C"
[[links]]
from = "A"
to = "B"
bandwidth = "1Mb"
delay = "10ms"
[[apps]]
name = "app1"
type = "cbr"
from = "A"
to = "B"
rate = "100kb"
"""

USER_ERRORS = {
    "zero bandwidth": (
        ('bandwidth = "1Mb"', 'bandwidth = "0Mb"'),
        "links[0].bandwidth: '0Mb' is not a bandwidth: it must be greater than zero (line 13)",
    ),
    "negative bandwidth": (
        ('bandwidth = "1Mb"', "bandwidth = -1000000"),
        "links[0].bandwidth: -1000000 is not a bandwidth: it must not be negative (line 13)",
    ),
    "unknown queue type": (
        ('delay = "10ms"', 'delay = "10ms"\nqueue = { type = "fifo" }'),
        "links[0].queue.type: unknown queue type 'fifo' (use droptail, red, step_mark, "
        "codel, fq_codel, pie, drr, sfq, fq or delay_buffer) (line 15)",
    ),
    "undefined node": (
        ('to = "B"\nbandwidth', 'to = "Z"\nbandwidth'),
        "links[0].to: unknown node 'Z' (nodes are A, B, C) (line 12)",
    ),
    "unreachable destination": (('to = "B"\nrate', 'to = "C"\nrate'), "'app1'"),
    "malformed unit": (
        ('delay = "10ms"', 'delay = "10 ms ago"'),
        "links[0].delay: '10 ms ago' is not a duration",
    ),
    "toml syntax": (("seed = 1", "seed = 1 2"), "line 2"),
}


@pytest.mark.parametrize("case", USER_ERRORS, ids=list(USER_ERRORS))
def test_user_mistakes_exit_2_with_one_line_and_no_traceback(tmp_path, case):
    (old, new), fragment = USER_ERRORS[case]
    assert old in SCENARIO
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO.replace(old, new, 1))
    result = run_cli("run", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"ackclock: error: {path}: ")
    assert fragment in result.stderr


def test_the_scenario_used_for_error_cases_is_valid(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO)
    assert run_cli("run", str(path)).returncode == 0


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("run", "missing.toml"), "missing.toml: no such file"),
        (("run", DUMBBELL, "--until", "soon"), "'soon' is not a duration"),
        (("run", DUMBBELL, "--seed", "minus one"), "'--seed'"),
        (("run", DUMBBELL, "--colour"), "No such option"),
        (("run",), "Missing argument 'FILE'"),
        (("experiment", "mm2"), "experiment 'mm2' is not one of ackclock's"),
        (("experiment", "mm1", "--replications", "1"), "'--replications'"),
    ],
)
def test_bad_command_lines_exit_2_with_one_line(args, fragment):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("ackclock: error: ") and result.stderr.count("\n") == 1
    assert fragment in result.stderr and "Traceback" not in result.stderr


def test_core_failure_exits_1_with_its_message(monkeypatch, capsys):
    from ackclock import cli, scenario

    def failing_load(path):
        raise ac.SimulationError("event queue went back in time")

    monkeypatch.setattr(scenario, "load_scenario", failing_load)
    assert cli.main(["run", DUMBBELL]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "event queue went back in time" in error


def test_unwritable_output_directory_exits_2_with_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run_cli("run", DUMBBELL, "--out", str(blocker / "sub"))
    assert result.returncode == 2
    assert result.stderr.startswith("ackclock: error: ") and result.stderr.count("\n") == 1


BASIC1 = str(EXAMPLES / "basic1.toml")
TCP_FIELDS = {
    "cc": str,
    "bytes_sent": int,
    "bytes_delivered": int,
    "retransmits": int,
    "fast_retransmits": int,
    "timeouts": int,
    "timeouts_after_ecn": int,
    "loss_probes": int,
    "ecn_reductions": int,
    "sack_recoveries": int,
    "dsacks": int,
    "segments_received": int,
    "spurious_retransmits": int,
    "undos": int,
    "rtt_min_s": float,
    "rtt_mean_s": float,
    "rtt_max_s": float,
    "cwnd_bytes": int,
    "mean_cwnd_bytes": float,
    "ssthresh_bytes": int,
    "client_state": str,
    "server_state": str,
}


def test_run_json_gives_tcp_flows_every_tcp_key():
    result = run_cli("run", BASIC1, "--json", "--until", "20s")
    assert result.returncode == 0, result.stderr
    (flow,) = json.loads(result.stdout)["flows"]
    assert (flow["id"], flow["kind"], flow["src"], flow["dst"]) == ("reno", "tcp_bulk", "A", "B")
    assert {key: type(flow[key]) for key in TCP_FIELDS} == TCP_FIELDS
    assert flow["completion_time_s"] is None  # an unlimited transfer
    # the data segments' delays: 60 ms of propagation, 10.8 ms of serialization, the queue
    assert 0.0708 <= flow["delay_p50_s"] < flow["max_delay_s"] < 0.0708 + 7 * 0.010
    assert flow["lost_packets"] > 0 and flow["link_drops"] == {"R->B": flow["lost_packets"]}


def test_summary_shows_tcp_connections_in_their_own_table():
    result = run_cli("run", BASIC1, "--until", "20s")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "TCP connections" in lines and "Flows" not in lines
    header = next(line for line in lines if line.startswith("flow "))
    for column in ("cc", "delivered", "goodput", "retx", "timeouts", "mean rtt ms", "done at s"):
        assert column in header
    row = next(line for line in lines if line.startswith("reno "))
    assert " A->B " in row and " ns2-reno " in row and "kb/s" in row and "Established" in row


def test_out_writes_a_series_csv_for_each_recorded_tcp_flow(tmp_path):
    out = tmp_path / "run"
    result = run_cli("run", BASIC1, "--until", "5s", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["results.json", "series-reno.csv"]
    assert f"time series written to {out / 'series-reno.csv'}" in result.stdout
    lines = (out / "series-reno.csv").read_text().splitlines()
    assert lines[:3] == ["time_s,variable,value", "0,cwnd,1920", "0,cwnd_segments,2"]
    rows = [line.split(",") for line in lines[1:]]
    assert {name for _, name, _ in rows} == {
        "cwnd",
        "cwnd_segments",
        "ssthresh",
        "srtt",
        "rto",
        "bytes_in_flight",
        "rwnd",
        "loss_events",
    }
    times = [float(time) for time, _, _ in rows]
    assert times == sorted(times) and times[-1] <= 5.0


def test_tcp_scenario_mistakes_exit_2_with_one_line(tmp_path):
    path = tmp_path / "basic1.toml"
    text = (EXAMPLES / "basic1.toml").read_text()
    path.write_text(text.replace('cc = "reno"', 'cc = "reno", sack = "yes"'))
    result = run_cli("run", str(path))
    assert result.returncode == 2
    assert result.stderr == (
        f"ackclock: error: {path}: apps[0].tcp.sack: 'yes' is not valid: "
        "input should be a valid boolean (line 47)\n"
    )
