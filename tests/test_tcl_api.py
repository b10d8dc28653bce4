"""`ackclock tcl`: the ns-2 commands scripts use beyond the chapter's, and
the errors for what is not supported."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

TOPOLOGY = """
set ns [new Simulator]
set A [$ns node]
set B [$ns node]
$ns duplex-link $A $B 1Mb 10ms DropTail
"""

TCP_PAIR = """
set tcp [new Agent/TCP/Reno]
$ns attach-agent $A $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $B $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
"""


def run_tcl(tmp_path: Path, body: str, *args: str):
    (tmp_path / "s.tcl").write_text(body)
    return run_cli("tcl", "s.tcl", *args, cwd=tmp_path)


def test_argv_argc_and_exit_status_reach_the_script(tmp_path: Path) -> None:
    done = run_tcl(tmp_path, 'puts "$argc [lindex $argv 1]"\nexit 3\n', "a", "b")
    assert (done.returncode, done.stdout) == (3, "2 b\n")


def test_class_variables_set_defaults_and_objects_read_them_back(tmp_path: Path) -> None:
    script = (
        "Agent/TCP set window_ 65000\n"
        "set t [new Agent/TCP/Reno]\n"
        'puts "[$t set window_] [$t set windowInit_] [$t set packetSize_]"\n'
        "$t set packetSize_ 960\n"
        'puts "[$t set packetSize_] [Agent/TCP set window_] [$t info class]"\n'
    )
    done = run_tcl(tmp_path, script)
    assert done.stdout == "65000 2 1000\n960 65000 Agent/TCP/Reno\n", done.stderr


def test_agent_variables_follow_the_simulation(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + TCP_PAIR
        + (
            '$ns at 0.0 "$ftp start"\n'
            'proc done {} { global tcp sink; puts "[$tcp set ack_] [$sink set bytes_]"; exit 0 }\n'
            '$ns at 2.0 "done"\n'
            "$ns run\n"
        )
    )
    done = run_tcl(tmp_path, script)
    ack, received = (int(x) for x in done.stdout.split())
    # 1 Mbit/s carries 120 packets of 1040 bytes per second.
    assert 150 < ack < 240
    packets, syn = divmod(received, 1040)
    assert syn == 40, "bytes_ counts each in-order packet with its headers, and the SYN"
    assert ack <= packets <= ack + 5, "the sink is ahead of the sender by the ACKs in flight"


def test_ftp_stop_ends_new_data_and_now_reports_the_time(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + TCP_PAIR
        + (
            '$ns at 0.0 "$ftp start"\n'
            '$ns at 1.0 "$ftp stop"\n'
            'proc done {} { global ns tcp; puts "[$ns now] [$tcp set maxseq_]"; exit 0 }\n'
            "$ns at 1.5 {puts [$tcp set maxseq_]}\n"
            '$ns at 3.0 "done"\n'
            "$ns run\n"
        )
    )
    lines = run_tcl(tmp_path, script).stdout.split("\n")
    at_stop = int(lines[0])
    now, at_end = lines[1].split()
    assert (now, int(at_end)) == ("3", at_stop), "nothing new after the stop"


# A CBR source at A (500 bytes every 10 ms) counted by a LossMonitor at B.
CBR_TO_MONITOR = (
    "set udp [new Agent/UDP]\n"
    "$ns attach-agent $A $udp\n"
    "set mon [new Agent/LossMonitor]\n"
    "$ns attach-agent $B $mon\n"
    "$ns connect $udp $mon\n"
    "set cbr [new Application/Traffic/CBR]\n"
    "$cbr set packetSize_ 500\n"
    "$cbr set interval_ 0.01\n"
    "$cbr attach-agent $udp\n"
)


def test_cbr_over_udp_with_interval_counts_packets_at_a_loss_monitor(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + CBR_TO_MONITOR
        + (
            '$ns at 0.0 "$cbr start"\n'
            '$ns at 1.0 "$cbr stop"\n'
            '$ns at 2.0 {puts "[$cbr set rate_] [$mon set npkts_] [$mon set bytes_]"; exit 0}\n'
            "$ns run\n"
        )
    )
    done = run_tcl(tmp_path, script)
    # One 500-byte packet every 10 ms from 0 until the stop at 1 s (ns-2: the
    # stop, scheduled first, comes before the packet due at the same time).
    assert done.stdout == "400000 100 50000\n", done.stderr


def test_error_model_list_drops_the_listed_packets_before_the_queue(tmp_path: Path) -> None:
    # As in ns-2, trace-all traces the links created after it.
    script = (
        TOPOLOGY.replace(
            "$ns duplex-link", "set f [open out.tr w]\n$ns trace-all $f\n$ns duplex-link"
        )
        + TCP_PAIR
        + (
            "set em [new ErrorModel/List]\n"
            "$em droplist {3}\n"
            "$ns lossmodel $em $A $B\n"
            '$ns at 0.0 "$ftp start"\n'
            '$ns at 1.0 "close $f; exit 0"\n'
            "$ns run\n"
        )
    )
    assert run_tcl(tmp_path, script).returncode == 0
    drops = [line.split() for line in (tmp_path / "out.tr").read_text().splitlines()]
    drops = [d for d in drops if d[0] == "d"]
    # ns-2 counts from 0: the fourth packet (the SYN is 0), data packet 3.
    assert [(d[2], d[3], d[4], d[10]) for d in drops] == [("0", "1", "tcp", "3")]


def test_trace_queue_writes_only_that_link_direction(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + TCP_PAIR
        + (
            "set f [open q.tr w]\n"
            "$ns trace-queue $A $B $f\n"
            '$ns at 0.0 "$ftp start"\n'
            '$ns at 1.0 "exit 0"\n'
            "$ns run\n"
        )
    )
    assert run_tcl(tmp_path, script).returncode == 0
    records = (tmp_path / "q.tr").read_text().splitlines()
    assert records and all(line.split()[2:4] == ["0", "1"] for line in records)


def test_vegas_packets_are_packet_size_bytes_headers_included(tmp_path: Path) -> None:
    # ns-2's Agent/TCP/Vegas, unlike the other agents, sends packetSize_
    # bytes in all (seed 003, sec. 16.5).
    script = (
        TOPOLOGY
        + TCP_PAIR.replace("Agent/TCP/Reno", "Agent/TCP/Vegas")
        + (
            "$tcp set packetSize_ 1000\n$tcp set v_alpha_ 3\n$tcp set v_beta_ 6\n"
            "$ns trace-queue $A $B [open q.tr w]\n"
            '$ns at 0.0 "$ftp start"\n$ns at 2.0 "exit 0"\n$ns run\n'
        )
    )
    assert run_tcl(tmp_path, script).returncode == 0
    sizes = {line.split()[5] for line in (tmp_path / "q.tr").read_text().splitlines()}
    assert sizes == {"40", "1000"}, "the SYN and data packets of packetSize_ bytes"


def test_select_ca_picks_an_agent_tcp_linux_algorithm_or_names_the_choices(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + TCP_PAIR.replace("Agent/TCP/Reno", "Agent/TCP/Linux")
        + ("$tcp select_ca cubic\nputs ok\n$tcp select_ca westwood\n")
    )
    done = run_tcl(tmp_path, script)
    assert (done.returncode, done.stdout) == (2, "ok\n")
    assert "select_ca westwood: use one of " in done.stderr
    choices = done.stderr.split("use one of ")[1].strip().split(", ")
    assert {"reno", "cubic", "highspeed", "vegas", "bbr"} <= set(choices)
    assert not any(choice.startswith("ns2-") for choice in choices)


def test_unknown_class_lists_the_supported_ones(tmp_path: Path) -> None:
    done = run_tcl(tmp_path, "set x [new Agent/SCTP]\n")
    assert done.returncode == 2
    assert "s.tcl:1:" in done.stderr
    assert "Agent/SCTP: SCTP is not implemented" in done.stderr


def test_unknown_command_in_a_scheduled_procedure_names_procedure_and_line(
    tmp_path: Path,
) -> None:
    script = (
        TOPOLOGY + 'proc finish {} {\n  global ns\n  $ns teleport\n}\n$ns at 1 "finish"\n$ns run\n'
    )
    done = run_tcl(tmp_path, script)
    assert done.returncode == 2
    # The procedure's third line is the script's eighth.
    assert 's.tcl:8 (in finish): "$ns teleport"' in done.stderr
    assert "Simulator has no command 'teleport'" in done.stderr
    assert "duplex-link" in done.stderr, "the supported commands are listed"


def test_unsupported_queue_type_is_refused_with_the_supported_ones(tmp_path: Path) -> None:
    body = "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
    done = run_tcl(tmp_path, body + "$ns duplex-link $a $b 1Mb 10ms CBQ\n")
    assert done.returncode == 2
    assert (
        "queue type 'CBQ' is not supported"
        " (supported: CoDel, DRR, DropTail, FQ, FQ-CoDel, PIE, RED, SFQ)" in done.stderr
    )


def test_plain_tcl_errors_keep_their_message_and_line(tmp_path: Path) -> None:
    done = run_tcl(tmp_path, "set a 1\nputs $nothing\n")
    assert done.returncode == 2
    assert "s.tcl:2:" in done.stderr
    assert 'can\'t read "nothing": no such variable' in done.stderr


def test_default_rng_and_ns_random_seed_the_run(tmp_path: Path) -> None:
    script = TOPOLOGY + (
        "set em [new ErrorModel]\n"
        "$em set rate_ 0.05\n"
        "$ns lossmodel $em $A $B\n"
        + TCP_PAIR
        + '$ns at 0.0 "$ftp start"\n'
        + "$ns at 5.0 {puts [$tcp set ack_]; exit 0}\n"
    )
    acks = {
        seeding: run_tcl(tmp_path, seeding + script + "$ns run\n").stdout
        for seeding in ("", "$defaultRNG seed 7\n", "ns-random 7\n", "ns-random 8\n")
    }
    assert acks["$defaultRNG seed 7\n"] == acks["ns-random 7\n"], "both seed the same run"
    assert len(set(acks.values())) == 3, "another seed, other losses"


def test_delack_sink_acknowledges_every_second_packet(tmp_path: Path) -> None:
    script = (
        TOPOLOGY.replace(
            "$ns duplex-link", "set f [open out.tr w]\n$ns trace-all $f\n$ns duplex-link"
        )
        + TCP_PAIR.replace("Agent/TCPSink", "Agent/TCPSink/DelAck")
        + ('$ns at 0.0 "$ftp start"\n$ns at 2.0 "exit 0"\n$ns run\n')
    )
    assert run_tcl(tmp_path, script).returncode == 0
    records = [line.split() for line in (tmp_path / "out.tr").read_text().splitlines()]
    data = sum(1 for r in records if r[0] == "r" and r[3] == "1" and r[4] == "tcp")
    acks = sum(1 for r in records if r[0] == "+" and r[2] == "1" and r[4] == "ack")
    assert data > 100
    assert abs(acks - data / 2) < 0.05 * data, (acks, data)


def test_telnet_sends_packets_at_its_mean_interval(tmp_path: Path) -> None:
    script = (
        TOPOLOGY
        + TCP_PAIR.replace("Application/FTP", "Application/Telnet")
        + (
            "$ftp set interval_ 0.1\n"
            '$ns at 0.0 "$ftp start"\n'
            "$ns at 100.0 {puts [$tcp set ack_]; exit 0}\n"
            "$ns run\n"
        )
    )
    done = run_tcl(tmp_path, script)
    # About 1000 packets in 100 s at one every 0.1 s on average.
    assert 900 < int(done.stdout) < 1100, done.stdout + done.stderr


def test_ns2s_generator_draws_ns2s_numbers(tmp_path: Path) -> None:
    # Printed by ns-2 2.35 for the same script: the default generator seeded
    # with 1 at start-up, `new RNG` one stream (2**127 draws) later, and a
    # reseed.
    script = (
        "puts [ns-random]\nputs [ns-random]\nputs [$defaultRNG all-seeds]\n"
        "set r [new RNG]\nputs [$r all-seeds]\nputs [$r next-random]\n"
        "$r seed 7\nputs [$r next-random]\nns-random 3\nputs [ns-random]\n"
    )
    ns2 = [
        "729236",
        "1193744747",
        "1 592852 592852 1 4294101466 1908070559",
        "2662865579 741857976 4206142246 3352832365 2519202871 655500294",
        "357444843",
        "5036723",
        "2165065",
    ]
    assert run_tcl(tmp_path, script).stdout.splitlines() == ns2


def test_tcp_agents_draw_boot_time_when_created_and_when_the_run_starts(tmp_path: Path) -> None:
    # ns-2 2.35: each TCP agent draws its clock phase when created and again
    # when `$ns run` resets every node's agents; sinks draw nothing.
    script = (
        TOPOLOGY
        + TCP_PAIR
        + "set tcp2 [new Agent/TCP/Newreno]\n$ns attach-agent $B $tcp2\n"
        + "puts [$defaultRNG all-seeds]\n"
        + "$ns at 0.0 {puts [$defaultRNG all-seeds]; exit 0}\n$ns run\n"
    )
    assert run_tcl(tmp_path, script).stdout.splitlines() == [
        "1 592852 592852 1 4294101466 1908070559",
        "592852 3185751641 3581159857 1908070559 3124743091 3202675884",
    ]


def test_docs_list_every_ignored_variable_and_refused_class() -> None:
    from ackclock.tcl import registry
    from conftest import ROOT

    docs = (ROOT / "docs" / "tcl.md").read_text()
    ignored = {
        var
        for shadow in registry.IMPLEMENTED.values()
        for var, spec in shadow.known_variables().items()
        if spec.ignored
    }
    assert [var for var in sorted(ignored) if f"`{var}`" not in docs] == []
    refused = [cls.split("/")[-1] for cls in registry.UNSUPPORTED]
    assert [cls for cls in refused if cls not in docs] == []


def test_ns2s_random_number_shortcuts_draw_from_the_default_generator(tmp_path: Path) -> None:
    script = (
        "set a [uniform 2 3]\n"
        "set b [exponential 1.0]\n"
        "set c [integer 5]\n"
        'puts "[expr {$a >= 2 && $a < 3}] [expr {$b > 0}] [expr {$c >= 0 && $c < 5}]"\n'
    )
    assert run_tcl(tmp_path, script).stdout == "1 1 1\n"


def test_replications_draw_other_ns2_numbers_and_replication_0_draws_ns2s(
    tmp_path: Path,
) -> None:
    # Replication k > 0 takes stream k of ns-2's generator after each
    # seeding: independent numbers; replication 0 gives ns-2's own.
    (tmp_path / "s.tcl").write_text("puts [ns-random]\n$defaultRNG seed 5\nputs [ns-random]\n")
    draws = [
        run_cli("tcl", "--replication", str(k), "s.tcl", cwd=tmp_path).stdout.split()
        for k in (0, 1, 2)
    ]
    assert draws[0][0] == "729236"  # ns-2 2.35, as in the test above
    assert len({tuple(d) for d in draws}) == 3
    assert len({d[1] for d in draws}) == 3, "a reseed keeps the replication's stream"


def test_cbr_random_1_jitters_the_departures(tmp_path: Path) -> None:
    # ns-2's CBR random_ 1: each interval 0.5 to 1.5 times the nominal 10 ms.
    # ns-2 2.35 on this script (seeds 0-4 of `ns-random`) counts 1000-1013.
    script = (
        TOPOLOGY.replace("set A", "set f [open out.tr w]\n$ns trace-all $f\nset A", 1)
        + CBR_TO_MONITOR
        + "$cbr set random_ 1\n"
        '$ns at 0.0 "$cbr start"\n'
        '$ns at 10.0 "$cbr stop"\n'
        '$ns at 11.0 {puts "[$mon set npkts_]"; close $f; exit 0}\n'
        "$ns run\n"
    )
    done = run_tcl(tmp_path, script)
    assert 995 <= int(done.stdout) <= 1020, done.stdout
    sent = [
        float(line.split()[1])
        for line in (tmp_path / "out.tr").read_text().splitlines()
        if line.startswith("+ ") and line.split()[2:4] == ["0", "1"]
    ]
    gaps = [b - a for a, b in zip(sent, sent[1:])]
    assert 0.005 <= min(gaps) < 0.006 and 0.014 < max(gaps) <= 0.015


PING_PAIR = """
set p [new Agent/Ping]
$ns attach-agent $A $p
set q [new Agent/Ping]
$ns attach-agent $B $q
$ns connect $p $q
Agent/Ping instproc recv {from rtt} {
    global ns
    puts "[format %.6f [$ns now]] [[$self set node_] id] $from $rtt"
}
"""


def test_ping_answer_calls_recv_with_the_node_and_rtt_in_ms(tmp_path: Path) -> None:
    script = TOPOLOGY + PING_PAIR + '$ns at 1 "$p send"\n$ns at 2 "$q send"\n$ns run\n'
    done = run_tcl(tmp_path, script)
    # 64 bytes take 0.512 ms at 1 Mb/s, each way, plus 10 ms each way.
    assert (done.returncode, done.stdout) == (0, "1.021024 0 1 21.0\n2.021024 1 0 21.0\n")


def test_ping_oneway_and_a_ping_to_another_agent_are_refused(tmp_path: Path) -> None:
    done = run_tcl(tmp_path, TOPOLOGY + PING_PAIR + "$p oneway\n")
    assert done.returncode == 2
    assert "oneway: one-way ping delays are not modelled" in done.stderr
    script = TOPOLOGY + PING_PAIR + "set u [new Agent/UDP]\n$ns attach-agent $B $u\n"
    done = run_tcl(tmp_path, script + '$ns connect $p $u\n$ns at 1 "$p send"\n$ns run\n')
    assert done.returncode == 2
    assert "must connect to another Agent/Ping" in done.stderr


def test_udp_data_calls_process_data_and_an_unconnected_sender_is_refused(
    tmp_path: Path,
) -> None:
    agents = (
        "set u [new Agent/UDP]\n$ns attach-agent $A $u\n"
        "set v [new Agent/UDP]\n$ns attach-agent $B $v\n"
        "Agent/UDP instproc process_data {from data} {\n"
        '    global ns\n    puts "[format %.6f [$ns now]] $from $data"\n}\n'
    )
    script = TOPOLOGY + agents + '$ns connect $u $v\n$ns at 1 "$u send 125 {a b}"\n$ns run\n'
    done = run_tcl(tmp_path, script)
    # 125 bytes take 1 ms at 1 Mb/s, plus 10 ms (ns-2 2.35 prints the same).
    assert (done.returncode, done.stdout) == (0, "1.011000 0 a b\n")
    done = run_tcl(tmp_path, TOPOLOGY + agents + '$ns at 1 "$u send 10 x"\n$ns run\n')
    assert done.returncode == 2
    assert "is not connected: use $ns connect" in done.stderr


def test_tcpapp_needs_a_fulltcp_agent(tmp_path: Path) -> None:
    script = TOPOLOGY + TCP_PAIR + "set app [new Application/TcpApp $tcp]\n$app send 10 {}\n"
    done = run_tcl(tmp_path, script)
    assert done.returncode == 2
    assert "needs an Agent/TCP/FullTcp, not Agent/TCP/Reno" in done.stderr


FULLTCP_PAIR = """
set c [new Agent/TCP/FullTcp]
set s [new Agent/TCP/FullTcp]
$ns attach-agent $A $c
$ns attach-agent $B $s
$ns connect $c $s
$s listen
set ftp [new Application/FTP]
$ftp attach-agent $s
"""


def test_the_listening_fulltcp_sends_only_on_its_peers_connection(tmp_path: Path) -> None:
    done = run_tcl(tmp_path, TOPOLOGY + FULLTCP_PAIR + '$ns at 1 "$ftp send 100"\n$ns run\n')
    assert done.returncode == 2
    assert "listens: it sends once" in done.stderr
    script = TOPOLOGY + FULLTCP_PAIR + '$ns at 1 "$c advance 1"\n$ns at 2 "$ftp start"\n'
    done = run_tcl(tmp_path, script + '$ns at 3 "$ftp stop"\n$ns run\n')
    assert done.returncode == 2
    assert "stopping the listening FullTcp's application is not supported" in done.stderr


CBR_FLOW_2 = (
    "set u [new Agent/UDP]\n$u set fid_ 2\n$ns attach-agent $A $u\n"
    "set n [new Agent/LossMonitor]\n$ns attach-agent $B $n\n$ns connect $u $n\n"
    "set c [new Application/Traffic/CBR]\n$c attach-agent $u\n"
)


def test_a_cbr_interval_with_a_fractional_rate_runs_and_telnet_interval_0_is_refused(
    tmp_path: Path,
) -> None:
    cbr = CBR_FLOW_2 + (
        "$c set packetSize_ 190\n$c set interval_ 0.003\n"
        '$ns at 0 "$c start"\n$ns at 1 {puts [$n set npkts_]; exit 0}\n$ns run\n'
    )
    # 190 * 8 / 0.003 = 506666.67 bit/s, as ns-2 counts: 334 departures
    # in [0, 1), of which those after 1 s - 11.52 ms (1.52 ms of
    # transmission, 10 ms of delay) arrive too late: 330, ns-2's count.
    done = run_tcl(tmp_path, TOPOLOGY + cbr)
    assert (done.returncode, done.stdout) == (0, "330\n")
    telnet = 'set t [$tcp attach-app Telnet]\n$t set interval_ 0\n$ns at 0 "$t start"\n$ns run\n'
    done = run_tcl(tmp_path, TOPOLOGY + TCP_PAIR + telnet)
    assert done.returncode == 2
    assert "tcplib telnet distribution (interval_ 0) is not modelled" in done.stderr


def test_a_flow_monitors_classifier_looks_flows_up_by_flow_id(tmp_path: Path) -> None:
    script = (
        TOPOLOGY + CBR_FLOW_2 + "$c set maxpkts_ 10\n"
        "set fmon [$ns makeflowmon Fid]\n$ns attach-fmon [$ns link $A $B] $fmon\n"
        '$ns at 0 "$c start"\n'
        "$ns at 5 {set fcl [$fmon classifier]\n"
        ' puts "[[$fcl lookup auto 0 0 2] set pdepartures_] <[$fcl lookup auto 0 0 7]>"; exit 0}\n'
        "$ns run\n"
    )
    done = run_tcl(tmp_path, script)
    # The ten packets of flow 2 crossed the link; no flow 7 (as ns-2 2.35 prints).
    assert (done.returncode, done.stdout) == (0, "10 <>\n"), done.stderr


def test_a_flow_records_reset_counts_from_then_on_as_ns2_does(tmp_path: Path) -> None:
    script = TOPOLOGY + (
        "foreach i {1 2} {\n set u($i) [new Agent/UDP]\n $u($i) set fid_ 2\n"
        " $ns attach-agent $A $u($i)\n set n($i) [new Agent/Null]\n $ns attach-agent $B $n($i)\n"
        " $ns connect $u($i) $n($i)\n set c($i) [new Application/Traffic/CBR]\n"
        " $c($i) attach-agent $u($i)\n}\n$c(1) set maxpkts_ 10\n$c(2) set maxpkts_ 3\n"
        "set fmon [$ns makeflowmon Fid]\n$ns attach-fmon [$ns link $A $B] $fmon\n"
        '$ns at 0 "$c(1) start"\n'
        "$ns at 1 {set f [[$fmon classifier] lookup auto 0 0 2]\n"
        " puts [$f set pdepartures_]; $f reset}\n"
        '$ns at 2 "$c(2) start"\n'
        '$ns at 5 {puts "[$f set pdepartures_] [$f set parrivals_] [$fmon set pdepartures_]"\n'
        " exit 0}\n$ns run\n"
    )
    done = run_tcl(tmp_path, script)
    # ns-2 2.35 prints the same: the flow's 10, then 3 since its reset,
    # while the monitor's own total (not reset) holds all 13.
    assert (done.returncode, done.stdout) == (0, "10\n3 3 13\n"), done.stderr


def test_packet_counts_are_read_as_ns2s_atoi_reads_them(tmp_path: Path) -> None:
    # ns-2 2.35 prints "6 6280": produce 2.7758 advances to packet 2, then 3
    # and 1 more packets (tcp.cc reads the counts with atoi).
    script = (
        TOPOLOGY
        + TCP_PAIR
        + (
            '$ns at 0.0 "$ftp produce 2.7758"\n'
            '$ns at 1.0 "$ftp producemore 3.9"\n'
            '$ns at 2.0 "$tcp advanceby 1.5"\n'
            "proc done {} {\n"
            '    global tcp sink; puts "[$tcp set maxseq_] [$sink set bytes_]"; exit 0\n'
            "}\n"
            '$ns at 3.0 "done"\n'
            "$ns run\n"
        )
    )
    done = run_tcl(tmp_path, script)
    assert done.stdout == "6 6280\n", done.stderr
    done = run_tcl(tmp_path, script.replace("producemore 3.9", "producemore x"))
    assert done.returncode == 2
    assert "producemore: expected a number but got 'x'" in done.stderr
