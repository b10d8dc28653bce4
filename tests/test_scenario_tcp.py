"""TCP apps in scenario files: built like the Python API, validated with
one-line messages naming the field path."""

import dataclasses

import ackclock as ac
import pytest
from ackclock.scenario import schema
from conftest import check_scenario_variant

TCP_SCENARIO = """\
[simulation]
seed = 3
until = "5s"

[[nodes]]
name = "A"
[[nodes]]
name = "B"

[[links]]
from = "A"
to = "B"
bandwidth = "1Mb"
delay = "10ms"
queue = { type = "droptail", limit = 20, ns2_limit = true }

[[apps]]
name = "bulk"
type = "tcp"
from = "A"
to = "B"
start = "0.1s"
app = { type = "bulk", bytes = "100KB" }
tcp = { profile = "ns2", cc = "reno", mss = 960, max_window = "unlimited", min_rto = "200ms" }
record = true

[[apps]]
type = "tcp"
from = "B"
to = "A"
server_start = "0.5s"
start = "0.6s"
read_rate = "500kb"
app = { type = "request_response", request = 100, response = "2KB", count = 2, think = "10ms" }
tcp = { cc = "newreno", cc_params = { beta = 0.7 }, delayed_ack = false }
server_tcp = { receive_buffer = "16KB" }

[[apps]]
name = "keys"
type = "tcp"
from = "A"
to = "B"
app = { type = "telnet", mean_interval = "200ms", packet_size = 40 }
"""


def write(tmp_path, text):
    path = tmp_path / "tcp.toml"
    path.write_text(text)
    return path


def same_network_through_the_api():
    sim = ac.Simulator(seed=3)
    a, b = sim.node("A"), sim.node("B")
    sim.duplex_link(a, b, "1Mb", "10ms", queue=ac.DropTail(limit=20, ns2_limit=True))
    sim.tcp(
        a,
        b,
        app=ac.Bulk("100KB"),
        tcp=ac.TcpParams(
            profile="ns2", cc="reno", mss=960, max_window="unlimited", min_rto="200ms"
        ),
        start=0.1,
        record=True,
        name="bulk",
    )
    sim.tcp(
        b,
        a,
        app=ac.RequestResponse(100, "2KB", count=2, think="10ms"),
        tcp=ac.TcpParams(cc="newreno", cc_params={"beta": 0.7}, delayed_ack=False),
        server_tcp=ac.TcpParams(receive_buffer="16KB"),
        server_start="0.5s",
        start=0.6,
        read_rate="500kb",
    )
    sim.tcp(a, b, app=ac.Telnet("200ms", 40), name="keys")
    sim.run(until=5)
    return sim


def test_tcp_scenario_builds_the_same_simulation_as_the_api(tmp_path):
    sim = ac.load_scenario(write(tmp_path, TCP_SCENARIO)).run()
    api = same_network_through_the_api()
    assert sim.results() == api.results()
    assert [f.name for f in sim.flows] == ["bulk", "tcp1", "keys"]
    assert sim.flows[0].series() == api.flows[0].series()
    flows = {flow["id"]: flow for flow in sim.results()["flows"]}
    assert flows["bulk"]["bytes_delivered"] == 100_000
    assert flows["tcp1"]["bytes_delivered"] == 200  # two requests
    assert flows["keys"]["bytes_delivered"] > 0


def test_app_and_tcp_tables_are_optional(tmp_path):
    text = TCP_SCENARIO.split("[[apps]]")[0] + '[[apps]]\ntype = "tcp"\nfrom = "A"\nto = "B"\n'
    sim = ac.load_scenario(write(tmp_path, text)).run()
    (flow,) = sim.results()["flows"]
    assert (flow["kind"], flow["cc"]) == ("tcp_bulk", "newreno")  # the RFC profile
    assert flow["bytes_delivered"] > 100_000  # unlimited, 5 s at 1 Mb/s


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("mss = 960", "mss = 0", "apps[0].tcp.mss: 0 is not a segment size: it must be 1 to 65495"),
        (
            "mss = 960",
            'mss = "big"',
            "apps[0].tcp.mss: 'big' is not a size: it does not start with a number (line 24)",
        ),
        (
            'cc = "reno"',
            'cc = "nosuch"',
            "apps[0].tcp.cc: unknown congestion control 'nosuch' (use tahoe, reno, newreno, ",
        ),
        (
            'cc = "reno"',
            'cc = "reno", colour = "red"',
            "apps[0].tcp.colour: unknown key (allowed: profile, cc, cc_params, mss,",
        ),
        (
            'max_window = "unlimited"',
            'max_window = "lots"',
            "apps[0].tcp.max_window: 'lots' is not a size: it does not start with a number "
            '(or "unlimited") (line 24)',
        ),
        (
            'min_rto = "200ms"',
            'min_rto = "2s", max_rto = "1s"',
            "apps[0].tcp.min_rto: '2s' is not a duration: it must not exceed max_rto ('1s')",
        ),
        (
            'type = "bulk"',
            'type = "ftp"',
            "apps[0].app.type: unknown TCP application type 'ftp' "
            "(use bulk, telnet or request_response) (line 23)",
        ),
        (
            'bytes = "100KB"',
            "size = 100",
            "apps[0].app.size: unknown key (allowed: type, bytes) (line 23)",
        ),
        ("count = 2", "count = 0", "apps[1].app.count: 0 is not a count: it must be at least 1"),
        (
            "beta = 0.7",
            "beta = 2.0",
            "apps[1].tcp.cc_params.beta: 2.0 is not a value: it must be in [0.05, 1]",
        ),
        (
            "beta = 0.7",
            'beta = "high"',
            "apps[1].tcp.cc_params.beta: 'high' is not a number or a flag (line 35)",
        ),
        ("request = 100, ", "", "apps[1].app.request: required key is missing (line 34)"),
        (
            'receive_buffer = "16KB"',
            "receive_buffer = -1",
            "apps[1].server_tcp.receive_buffer: -1 is not a size: it must not be negative "
            "(line 36)",
        ),
        (
            'read_rate = "500kb"',
            'read_rate = "fast"',
            "apps[1].read_rate: 'fast' is not a bandwidth",
        ),
        ("record = true", "record = 1", "apps[0].record: 1 is not valid: input should be a valid"),
        ('to = "A"', 'to = "C"', "apps[1].to: unknown node 'C' (nodes are A, B) (line 30)"),
        (
            'start = "0.1s"',
            'start = "0.1s"\nstop = "1s"',
            "apps[0].stop: unknown key (allowed: type, name, from, to, app, tcp, server_tcp, "
            "start, server_start, read_rate, record) (line 23)",
        ),
        ('read_rate = "500kb"', "read_rate = 0", None),  # a reader that never reads
        ('read_rate = "500kb"', 'read_rate = "0Mb"', None),
    ],
)
def test_bad_tcp_values_give_one_line_with_field_path(tmp_path, old, new, message):
    check_scenario_variant(tmp_path / "tcp.toml", TCP_SCENARIO, old, new, message)


@pytest.mark.parametrize(
    "table",
    [schema.TcpTable, schema.BulkTable, schema.TelnetTable, schema.RequestResponseTable],
)
def test_tcp_tables_have_exactly_the_spec_fields(table):
    spec_fields = {field.name for field in dataclasses.fields(table.spec)}
    assert set(table.model_fields) - {"type"} == spec_fields


def test_tcp_flow_table_has_exactly_the_api_parameters():
    import inspect

    # `label` renames ports and flow ids for front ends that mimic ns-2's traces.
    parameters = set(inspect.signature(ac.Simulator.tcp).parameters) - {
        "self",
        "src",
        "dst",
        "label",
    }
    assert set(schema.TcpFlowTable.model_fields) - {"type", "from_", "to"} == parameters
