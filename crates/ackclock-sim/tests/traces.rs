//! Trace output: ns-2 text (golden file), tcpdump text and pcap bytes (with
//! the ECN marks a RED queue made).

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{Discipline, DropTail, NodeId, QueueLimit, Red, RedParams};
use ackclock_sim::{Simulation, SizeModel, TcpApp, TcpFlowConfig, Traffic, UdpSourceConfig};
use ackclock_tcp::{AckPolicy, CcKind, Reader, TcpConfig};
use ackclock_trace::tracer::{Capture, Sink, TracedVars};
use common::Shared;
use std::io::Write;

mod common;

fn duplex(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, ms: u64, limit: u32) {
    let rate = Bandwidth::from_bps(bps).unwrap();
    sim.add_duplex(a, b, rate, Duration::from_millis(ms), Discipline::ns2_drop_tail(limit)).unwrap();
}

/// Seed 003's basic1 with ns-2-like Reno for `secs` seconds.
fn basic1(secs: u64, sink: Sink) -> Simulation {
    let mut sim = Simulation::new(1, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    duplex(&mut sim, a, r, 10_000_000, 10, 100);
    duplex(&mut sim, r, b, 800_000, 50, 7);
    let tcp = TcpConfig {
        cc: CcKind::Ns2Reno,
        max_window: None,
        ack_policy: AckPolicy::EverySegment,
        iss: Some(0),
        ..TcpConfig::ns2(960)
    };
    let flow = TcpFlowConfig {
        client: tcp.clone(),
        server: tcp,
        app: TcpApp::Bulk { bytes: None },
        start: Instant::ZERO,
        server_start: Instant::ZERO,
        reader: Reader::AtOnce,
        record_series: false,
        label: None,
    };
    sim.add_tcp_flow("reno", a, b, flow).unwrap();
    sim.tracer().add_sink(sink);
    sim.run(Some(Instant::from_ps(secs * 1_000_000_000_000))).unwrap();
    sim.finish_traces().unwrap();
    sim
}

/// A regression guard on every byte of the trace. After an intended change,
/// regenerate with `UPDATE_GOLDEN=1 cargo test -p ackclock-sim --test traces`
/// and review the diff.
#[test]
fn ns2_trace_of_basic1_matches_the_golden_file() {
    let out = Shared::default();
    basic1(1, Sink::ns2(Box::new(out.clone()), TracedVars::All));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/basic1_1s.tr");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, out.text()).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap();
    assert!(out.text() == golden, "trace differs from {path}");
}

#[test]
fn ns2_trace_first_drop_matches_ns2() {
    // ns-2: "d 0.58616 1 2 tcp 1000 ------- 0 0.0 2.0 28 43".
    let out = Shared::default();
    basic1(2, Sink::ns2(Box::new(out.clone()), TracedVars::None));
    let text = out.text();
    let first_drop = text.lines().find(|l| l.starts_with('d')).unwrap();
    let fields: Vec<&str> = first_drop.split(' ').collect();
    assert_eq!(fields[4], "tcp");
    assert_eq!(fields[10], "28", "{first_drop}");
    let t: f64 = fields[1].parse().unwrap();
    assert!((t - 0.58616).abs() < 0.001, "{first_drop}");
}

#[test]
fn ns2_trace_records_are_in_time_order() {
    let out = Shared::default();
    basic1(2, Sink::ns2(Box::new(out.clone()), TracedVars::None));
    let times: Vec<f64> = out.text().lines().map(|l| l.split(' ').nth(1).unwrap().parse().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
    assert!(times.len() > 500, "a trace of two busy seconds");
}

#[test]
fn tcpdump_text_shows_the_handshake() {
    let out = Shared::default();
    basic1(1, Sink::Tcpdump { out: Box::new(out.clone()), capture: Capture::Node(0) });
    let text = out.text();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("10.0.0.1.20000 > 10.0.0.3.40000: S 0:0(0) win 65535"), "{}", lines[0]);
    assert!(lines[1].contains("10.0.0.3.40000 > 10.0.0.1.20000: S 0:0(0) ack 1 win 65535"), "{}", lines[1]);
    assert!(
        lines[2].contains(": P 1:961(960) ack 1 win 65535") || lines[2].contains(": . 1:961(960) ack 1"),
        "{}",
        lines[2]
    );
}

#[test]
fn pcap_starts_with_a_nanosecond_header_and_raw_ip_records() {
    let out = Shared::default();
    let writer = ackclock_trace::pcap::PcapWriter::new(
        Box::new(out.clone()) as Box<dyn Write + Send + Sync>,
        65535,
        ackclock_trace::pcap::LinkType::Raw,
    )
    .unwrap();
    basic1(1, Sink::Pcap { out: writer, capture: Capture::Channels(vec![0]) });
    let bytes = out.bytes();
    assert_eq!(&bytes[..4], &0xa1b2_3c4du32.to_le_bytes());
    assert_eq!(u32::from_le_bytes(bytes[20..24].try_into().unwrap()), 101, "LINKTYPE_RAW");
    let caplen = u32::from_le_bytes(bytes[32..36].try_into().unwrap()) as usize;
    assert_eq!(caplen, 40, "the SYN: 20 bytes of IPv4 and 20 of TCP");
    assert_eq!(bytes[40], 0x45);
}

#[test]
fn pcap_after_a_red_queue_shows_the_ce_marks_it_made() {
    let mut sim = Simulation::new(3, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    let red = RedParams { ecn: true, ..RedParams::default() };
    let hard = DropTail { limit: QueueLimit::Packets(100), ns2_limit: false };
    let ms = Duration::from_millis(5);
    let (ar, _) = sim
        .add_duplex(a, r, Bandwidth::from_bps(1_000_000).unwrap(), ms, Discipline::Red(Red::new(red, hard)))
        .unwrap();
    let (rb, _) =
        sim.add_duplex(r, b, Bandwidth::from_bps(10_000_000).unwrap(), ms, Discipline::ns2_drop_tail(100)).unwrap();
    // 10% overload keeps RED's average queue between its thresholds.
    let cbr = UdpSourceConfig {
        traffic: Traffic::Cbr { rate: Bandwidth::from_bps(1_100_000).unwrap(), jitter: false },
        size: SizeModel::Fixed(500),
        start: Instant::ZERO,
        stop: Some(Instant::from_ps(8 * 1_000_000_000_000)), // then 2 s to drain
        max_packets: None,
        ecn: true,
        label: None,
    };
    sim.add_udp_flow("f", a, b, cbr).unwrap();
    let out = Shared::default();
    let writer = ackclock_trace::pcap::PcapWriter::new(
        Box::new(out.clone()) as Box<dyn Write + Send + Sync>,
        65535,
        ackclock_trace::pcap::LinkType::Raw,
    )
    .unwrap();
    sim.tracer().add_sink(Sink::Pcap { out: writer, capture: Capture::Channels(vec![rb]) });
    sim.run(Some(Instant::from_ps(10 * 1_000_000_000_000))).unwrap();
    sim.finish_traces().unwrap();
    // Each record: 16 bytes of pcap header, then the IPv4 header (ECN in
    // the low two bits of its second byte).
    let bytes = out.bytes();
    let (mut at, mut ecn_counts) = (24, [0u64; 4]);
    while at < bytes.len() {
        let caplen = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        ecn_counts[usize::from(bytes[at + 16 + 1] & 0b11)] += 1;
        at += 16 + caplen;
    }
    let marks = sim.link_report(ar).unwrap().ecn_marks;
    assert!(marks > 50, "RED marked only {marks} packets");
    assert_eq!(ecn_counts[0b11], marks, "CE on R->B; ECN counts {ecn_counts:?}");
    assert!(ecn_counts[0b10] > 0, "the unmarked rest stays ECT(0); ECN counts {ecn_counts:?}");
    assert_eq!(ecn_counts[0b00] + ecn_counts[0b01], 0);
}
