"""TCP connections through the Python API: exact small cases worked out by
hand, the applications, and argument checking."""

import ackclock as ac
import pytest

# ns-2-like Reno: 960-byte segments (1000-byte packets), initial window 2, an
# ACK per segment, no options and no handshake options.
NS2_RENO = ac.TcpParams(profile="ns2", cc="reno", mss=960)


def two_nodes(bandwidth="1Mb", delay="10ms"):
    """A <-> B, 1 Mb/s and 10 ms each way: a 1000-byte packet takes 8 ms to
    send, a 40-byte one 0.32 ms."""
    sim = ac.Simulator(seed=1)
    a, b = sim.node("A"), sim.node("B")
    link = sim.duplex_link(a, b, bandwidth, delay, queue=ac.DropTail(limit=100))
    return sim, a, b, link


def test_lossless_transfer_delivers_exactly_the_bytes_at_the_computed_time():
    sim, a, b, _ = two_nodes()
    flow = sim.tcp(a, b, app=ac.Bulk(10 * 960), tcp=NS2_RENO)
    assert sim.run() == "idle"
    stats = flow.stats()
    assert stats["bytes_delivered"] == stats["bytes_sent"] == 9600
    # SYN, 10 segments and FIN arrive, each with 40 bytes of TCP/IP headers
    assert (stats["rx_packets"], stats["rx_bytes"], stats["lost_packets"]) == (12, 10080, 0)
    assert (stats["retransmits"], stats["timeouts"]) == (0, 0)
    assert (stats["client_state"], stats["server_state"]) == ("Closed", "Closed")
    # SYN and SYN-ACK: 2 x (0.32 + 10) ms. The first two segments go out; the
    # link idles until the first ACK returns 8 + 10 + 0.32 + 10 ms after the
    # first was sent; from then on ACKs arrive every 8 ms and open the window
    # faster than the link drains, so segments 3..10 leave back to back
    # (8 x 8 ms) and the last arrives 10 ms after it is sent.
    handshake = 2 * 0.01032
    assert stats["completion_time_s"] == pytest.approx(handshake + 0.02832 + 0.064 + 0.010)
    assert stats["rtt_min_s"] == pytest.approx(handshake)  # the SYN's
    assert stats["goodput_bps"] == pytest.approx(9600 * 8 / stats["completion_time_s"])


def test_one_dropped_segment_is_repaired_by_one_fast_retransmit():
    # The 10th packet from A to B (a data segment, after the SYN and the
    # handshake's ACK) is lost; the segments behind it bring three duplicate ACKs.
    sim, a, b, link = two_nodes()
    link.set_loss(ac.DropList([10]))
    flow = sim.tcp(a, b, app=ac.Bulk(30 * 960), tcp=NS2_RENO)
    sim.run()
    stats = flow.stats()
    assert link.stats()["loss_drops"] == 1
    assert (stats["retransmits"], stats["fast_retransmits"], stats["timeouts"]) == (1, 1, 0)
    assert stats["bytes_delivered"] == 30 * 960
    assert stats["bytes_sent"] == 31 * 960


def test_request_response_completes_every_exchange():
    sim, a, b, _ = two_nodes()
    app = ac.RequestResponse(request=100, response="5KB", count=3, think="50ms")
    flow = sim.tcp(a, b, app=app, tcp=NS2_RENO)
    sim.run()
    stats = flow.stats()
    assert stats["kind"] == "tcp_request_response"
    assert stats["bytes_delivered"] == 3 * 100  # the requests, at the server
    assert (stats["client_state"], stats["server_state"]) == ("Closed", "Closed")
    # Three exchanges of at least one round trip plus the 5 ms of sending a
    # response each, and two 50 ms pauses, after the handshake.
    assert stats["completion_time_s"] > 0.0206 + 3 * (0.0206 + 0.040) + 2 * 0.050


def test_telnet_writes_packets_at_exponential_intervals():
    sim, a, b, _ = two_nodes()
    flow = sim.tcp(a, b, app=ac.Telnet(mean_interval="100ms", packet_size=100), tcp=NS2_RENO)
    sim.run(until="10s")
    stats = flow.stats()
    assert stats["kind"] == "tcp_telnet"
    writes = stats["bytes_delivered"] / 100
    assert writes.is_integer() and 60 < writes < 140  # about 100 expected
    assert stats["completion_time_s"] is None and stats["client_state"] == "Established"


def test_connection_to_a_port_not_yet_listening_is_refused():
    sim, a, b, _ = two_nodes()
    flow = sim.tcp(a, b, app=ac.Bulk(9600), tcp=NS2_RENO, start=0, server_start="1s")
    sim.run(until="10s")
    stats = flow.stats()
    assert stats["client_state"] == "Closed"  # reset by the closed port
    assert stats["server_state"] == "Listen"
    assert stats["bytes_delivered"] == 0 and stats["completion_time_s"] is None


def test_a_server_that_never_reads_closes_the_window():
    sim, a, b, _ = two_nodes()
    server = ac.TcpParams(receive_buffer=65535)
    flow = sim.tcp(a, b, app=ac.Bulk("1MB"), server_tcp=server, read_rate=0, record=True)
    sim.run(until="30s")
    stats = flow.stats()
    assert stats["bytes_delivered"] <= 65535  # the server's receive buffer
    assert stats["client_state"] == "Established" and stats["completion_time_s"] is None
    times, rwnd = flow.series()["rwnd"]
    assert rwnd[-1] < flow.mss  # no room for another full segment


def test_read_rate_paces_the_transfer():
    # All but the last 64 KB (which fit in the receive buffer) wait for a
    # reader draining 100 kb/s.
    sim, a, b, _ = two_nodes()
    server = ac.TcpParams(receive_buffer=65535)
    flow = sim.tcp(a, b, app=ac.Bulk(960_000), server_tcp=server, read_rate="100kb")
    sim.run()
    stats = flow.stats()
    assert stats["bytes_delivered"] == 960_000
    assert stats["completion_time_s"] == pytest.approx((960_000 - 65535) * 8 / 100e3, rel=0.01)


def test_duplicated_packets_are_delivered_once():
    sim, a, b, link = two_nodes()
    link.set_duplication(1.0)
    flow = sim.tcp(a, b, app=ac.Bulk(96_000), tcp=NS2_RENO)
    sim.run()
    stats = flow.stats()
    assert stats["bytes_delivered"] == 96_000 and stats["retransmits"] == 0


def test_mss_is_negotiated_down_to_what_the_server_offers():
    sim, a, b, _ = two_nodes()
    flow = sim.tcp(a, b, app=ac.Bulk(10_000), server_tcp=ac.TcpParams(mss=536), record=True)
    assert flow.mss == 536
    # Without the MSS option a client uses its own MSS; with it, 536 when the
    # server offers none.
    assert sim.tcp(a, b, tcp=NS2_RENO, server_tcp=ac.TcpParams(mss=500)).mss == 960
    assert sim.tcp(a, b, server_tcp=NS2_RENO).mss == 536
    sim.run(until="10s")
    assert flow.stats()["bytes_delivered"] == 10_000
    times, cwnd = flow.series()["cwnd"]
    # The RFC profile's initial window of 4 segments, re-sized when the SYN-ACK arrives.
    assert cwnd[:2] == [4 * 1460, 4 * 536]


def test_series_needs_record_and_gives_cwnd_in_segments():
    sim, a, b, _ = two_nodes()
    plain = sim.tcp(a, b, app=ac.Bulk(9600), tcp=NS2_RENO, name="plain")
    recorded = sim.tcp(a, b, app=ac.Bulk(9600), tcp=NS2_RENO, record=True)
    sim.run()
    with pytest.raises(ac.ConfigError, match=r"'plain' was not recorded: pass record=True"):
        plain.series()
    series = recorded.series()
    assert list(series) == [
        "cwnd",
        "cwnd_segments",
        "ssthresh",
        "srtt",
        "rto",
        "bytes_in_flight",
        "rwnd",
        "loss_events",
    ]
    times, cwnd = series["cwnd"]
    assert series["cwnd_segments"] == (times, [value / 960 for value in cwnd])
    assert cwnd[0] == 2 * 960 and series["loss_events"][1] == [0.0]
    rows = recorded.series_rows()
    assert len(rows) == sum(len(t) for t, _ in series.values())
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    assert rows[0] == (0.0, "cwnd", 1920.0)


def test_tcp_params_convert_units_and_keep_profile_values_unset():
    assert ac.TcpParams().to_native() == {"profile": "rfc"}
    native = ac.TcpParams(
        profile="ns2",
        cc="newreno",
        mss="1KB",
        min_rto="200ms",
        max_rto=60,
        initial_ssthresh="unlimited",
        max_window="64KB",
        receive_buffer="1MiB",
        delayed_ack=False,
        sack=True,
        timestamp_granularity="1ms",
    ).to_native()
    assert native == {
        "profile": "ns2",
        "cc": "newreno",
        "mss": 1000,
        "min_rto_ps": 200 * 10**9,
        "max_rto_ps": 60 * 10**12,
        "initial_ssthresh": 2**31 - 1,
        "max_window": 64_000,
        "receive_buffer": 2**20,
        "delayed_ack": False,
        "sack": True,
        "timestamp_granularity_ps": 10**9,
    }
    assert ac.TcpParams(max_window="unlimited").to_native()["max_window"] == 2**32 - 1
    assert ac.Bulk().to_native() == {"type": "bulk", "bytes": None}
    assert ac.Telnet("10ms", 40).to_native() == {
        "type": "telnet",
        "mean_interval_ps": 10**10,
        "packet_size": 40,
    }
    assert ac.RequestResponse("1KB", 100, count=2, think=0.5).to_native() == {
        "type": "request_response",
        "request": 1000,
        "response": 100,
        "count": 2,
        "think_ps": 5 * 10**11,
    }


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ac.TcpParams(profile="bsd"), "profile: 'bsd' is not one of rfc, linux, ns2"),
        (lambda: ac.TcpParams(cc="nosuch"), "cc: 'nosuch' is not one of tahoe, reno, newreno, "),
        (
            lambda: ac.TcpParams(cc="reno", cc_params={"gamma": 1}),
            "cc_params.gamma: reno has no parameter 'gamma' (it has: alpha, beta)",
        ),
        (
            lambda: ac.TcpParams(cc="reno", cc_params={"beta": 2}),
            "cc_params.beta: 2 is not a value: it must be in [0.05, 1]",
        ),
        (
            lambda: ac.TcpParams(cc_params={"beta": 0.7}),
            "cc_params: parameters belong to an algorithm: give cc too",
        ),
        (lambda: ac.TcpParams(cc="reno", cc_params=[1]), "cc_params: [1] is not a mapping"),
        (lambda: ac.TcpParams(mss=0), "mss: 0 is not a segment size: it must be 1 to 65495"),
        (lambda: ac.TcpParams(mss="1.5kb"), "mss: '1.5kb' is not a size"),
        (lambda: ac.TcpParams(initial_window=0), "initial_window: 0 is not a window"),
        (lambda: ac.TcpParams(max_window="lots"), "max_window: 'lots' is not a size"),
        (lambda: ac.TcpParams(max_window=0), "max_window: 0 is not a size: it must be at least 1"),
        (lambda: ac.TcpParams(receive_buffer="8GB"), "receive_buffer: '8GB' is not a size"),
        (lambda: ac.TcpParams(min_rto="-1s"), "min_rto: '-1s' is not a duration"),
        (
            lambda: ac.TcpParams(min_rto="2s", max_rto="1s"),
            "min_rto: '2s' is not a duration: it must not exceed max_rto ('1s')",
        ),
        (lambda: ac.TcpParams(initial_rto=0), "initial_rto: 0 is not a duration"),
        (lambda: ac.TcpParams(sack="yes"), "sack: 'yes' is not a flag"),
        (lambda: ac.TcpParams(dupack_threshold=0), "dupack_threshold: 0 is not a count"),
        (lambda: ac.TcpParams(syn_retries=1.5), "syn_retries: 1.5 is not a count"),
        (lambda: ac.Bulk(bytes=-1), "bytes: -1 is not a size"),
        (lambda: ac.Telnet(0, 100), "mean_interval: 0 is not a duration"),
        (lambda: ac.Telnet("1s", 0), "packet_size: 0 is not a size"),
        (lambda: ac.RequestResponse(0, 100), "request: 0 is not a size"),
        (lambda: ac.RequestResponse(100, 100, count=0), "count: 0 is not a count"),
    ],
)
def test_invalid_tcp_specs_fail_on_construction_naming_field_and_value(make, message):
    with pytest.raises(ac.ConfigError) as caught:
        make()
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"app": "ftp"}, "app: 'ftp' is not a TCP application: use ackclock.Bulk"),
        ({"tcp": {"cc": "reno"}}, "tcp: {'cc': 'reno'} is not TCP parameters"),
        ({"server_tcp": "rfc"}, "server_tcp: 'rfc' is not TCP parameters"),
        ({"read_rate": "fast"}, "read_rate: 'fast' is not a bandwidth"),
        ({"read_rate": -1}, "read_rate: -1 is not a bandwidth: it must not be negative"),
        ({"start": "-1s"}, "start: '-1s' is not a duration"),
        ({"record": 1}, "record: 1 is not a flag"),
        ({"name": " x"}, "name: ' x' is not a name"),
    ],
)
def test_tcp_argument_errors_name_the_parameter(arguments, message):
    sim, a, b, _ = two_nodes()
    with pytest.raises(ac.ConfigError) as caught:
        sim.tcp(a, b, **arguments)
    assert message in str(caught.value)
    assert sim.flows == ()


def test_reno_beta_sets_the_share_of_the_flight_kept_after_a_loss():
    # The same single loss with beta 0.5 and 0.875: the flight at the loss is
    # the same, so ssthresh scales with beta.
    ssthresh = {}
    for beta in (0.5, 0.875):
        sim, a, b, link = two_nodes()
        link.set_loss(ac.DropList([20]))
        tcp = ac.TcpParams(cc="reno", cc_params={"beta": beta}, mss=960, sack=False)
        flow = sim.tcp(a, b, app=ac.Bulk(60 * 960), tcp=tcp)
        sim.run()
        assert flow.stats()["fast_retransmits"] == 1
        ssthresh[beta] = flow.stats()["ssthresh_bytes"]
    assert ssthresh[0.875] == pytest.approx(1.75 * ssthresh[0.5], abs=1)


def test_a_parameter_the_ns2_module_lacks_is_refused_when_the_flow_is_added():
    sim, a, b, _ = two_nodes()
    tcp = ac.TcpParams(profile="ns2", cc="reno", cc_params={"beta": 0.7})
    with pytest.raises(ac.ConfigError) as caught:
        sim.tcp(a, b, tcp=tcp)
    message = "tcp.cc_params.beta: 0.7 is invalid: unknown parameter (use one of ns2-reno's:"
    assert message in str(caught.value)


def test_the_registry_lists_every_algorithm_with_its_parameters():
    algorithms = {a["name"]: a for a in ac.congestion_controls()}
    assert {"tahoe", "reno", "newreno", "ns2-reno"} <= set(algorithms)
    beta = next(p for p in algorithms["reno"]["params"] if p["name"] == "beta")
    assert (beta["kind"], beta["default"], beta["min"], beta["max"]) == ("real", 0.5, 0.05, 1.0)
    assert algorithms["ns2-tahoe"]["ns2_agents"] == ["Agent/TCP"]


def test_the_tcp_docs_describe_every_registered_algorithm():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "tcp.md").read_text()
    missing = [a["name"] for a in ac.congestion_controls() if f"`{a['name']}`" not in text]
    assert missing == []


def test_tcp_flows_are_named_and_placed_like_udp_flows():
    sim, a, b, _ = two_nodes()
    first = sim.tcp(a, b)
    second = sim.tcp(b, a, app=ac.Telnet("1s", 10))
    assert (first.name, first.kind, second.name, second.kind) == (
        "tcp0",
        "tcp_bulk",
        "tcp1",
        "tcp_telnet",
    )
    assert repr(first) == "TcpFlow('tcp0', tcp_bulk, A->B)"
    with pytest.raises(ac.ConfigError, match="'tcp0' is already the name of a flow"):
        sim.tcp(a, b, name="tcp0")
    with pytest.raises(ac.ConfigError, match="two different nodes"):
        sim.tcp(a, a)
    sim.run(until="1s")
    with pytest.raises(ac.ConfigError, match=r"server_start: 0.5 is in the past"):
        sim.tcp(a, b, start=2, server_start=0.5)
    with pytest.raises(ac.ConfigError, match=r"p: 1.5 is not a probability"):
        sim.link(a, b).set_duplication(1.5)


def test_tcp_params_cover_every_key_of_the_native_tcp_spec():
    import ast
    from pathlib import Path

    stubs = ast.parse((Path(ac.__file__).parent / "_native.pyi").read_text())
    (spec,) = [node for node in stubs.body if getattr(node, "name", None) == "TcpSpec"]
    native_keys = {item.target.id for item in spec.body if isinstance(item, ast.AnnAssign)}
    every = ac.TcpParams(
        profile="linux",
        cc="reno",
        cc_params={"beta": 0.7},
        mss=1000,
        mss_option=True,
        initial_window=2,
        syn_loss_window=1,
        handshake=True,
        first_fast_retransmit=True,
        ns2_bare_packet0=False,
        initial_ssthresh=10_000,
        max_window=20_000,
        abc=True,
        ns2_arithmetic=False,
        dupack_threshold=3,
        limited_transmit=True,
        sack=True,
        rack=True,
        prr=True,
        frto=True,
        undo=True,
        ecn=True,
        ecn_per_packet_echo=False,
        quickacks=16,
        dsack=True,
        timestamps=True,
        timestamp_granularity="1ms",
        window_scale=True,
        initial_rto="1s",
        min_rto="200ms",
        max_rto="60s",
        min_rto_before_backoff=False,
        clock_granularity="1ms",
        clock_phase="250us",
        delayed_ack=True,
        delayed_ack_timeout="40ms",
        immediate_gap_ack=False,
        receive_buffer="64KB",
        flow_control=True,
        nagle=False,
        send_overhead="2ms",
        max_burst=4,
        persist_min="5s",
        persist_max="60s",
        time_wait="1s",
        syn_retries=3,
        max_retransmits=10,
        ns2_full_tcp=True,
        restart_rto_before_sample=True,
        ns2_qoption=True,
        ns2_rtt_counter=True,
        iss=1000,
    )
    assert set(every.to_native()) == native_keys
