//! Per-flow statistics (FlowMonitor) and link activity: every packet sent
//! is received or dropped on a named link, delay and jitter against
//! theory, a link's utilization over its active time, the time-averaged cwnd.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{
    ChannelConfig, Discipline, DropTail, Jitter, JitterDistribution, LossModel, LossPosition, LossProcess, NodeId,
    QueueLimit,
};
use ackclock_sim::{Simulation, SizeModel, TcpApp, TcpFlowConfig, Traffic, UdpSourceConfig};
use ackclock_tcp::{CcKind, Reader, TcpConfig};

fn link(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, delay_ms: u64, limit: u32) -> u32 {
    let queue = Discipline::DropTail(DropTail { limit: QueueLimit::Packets(limit), ns2_limit: false });
    let rate = Bandwidth::from_bps(bps).unwrap();
    sim.add_channel(ChannelConfig::new(a, b, rate, Duration::from_millis(delay_ms), queue)).unwrap()
}

fn cbr(bps: u64, size: u32, packets: Option<u64>) -> UdpSourceConfig {
    UdpSourceConfig {
        traffic: Traffic::Cbr { rate: Bandwidth::from_bps(bps).unwrap() },
        size: SizeModel::Fixed(size),
        start: Instant::ZERO,
        stop: None,
        max_packets: packets,
        ecn: false,
        label: None,
    }
}

fn secs(s: u64) -> Option<Instant> {
    Some(Instant::from_ps(s * 1_000_000_000_000))
}

#[test]
fn every_packet_sent_is_received_or_dropped_on_a_named_link() {
    let mut sim = Simulation::new(3, 0);
    let n: Vec<NodeId> = ["s1", "s2", "r", "d"].iter().map(|name| sim.add_node(name)).collect();
    link(&mut sim, n[0], n[2], 10_000_000, 1, 1000);
    link(&mut sim, n[1], n[2], 10_000_000, 1, 1000);
    let bottleneck = link(&mut sim, n[2], n[3], 1_000_000, 10, 5);
    let loss = LossModel { process: LossProcess::Uniform { p: 0.05 }, position: LossPosition::OnWire };
    sim.set_loss(bottleneck, Some(loss)).unwrap();
    // 1.6 Mbit/s into 1 Mbit/s: the queue drops, the wire loses 5%.
    let flows = [
        sim.add_udp_flow("a", n[0], n[3], cbr(800_000, 1000, Some(2000))).unwrap(),
        sim.add_udp_flow("b", n[1], n[3], cbr(800_000, 500, Some(4000))).unwrap(),
    ];
    sim.run(None).unwrap();
    let link_report = sim.link_report(bottleneck).unwrap();
    let mut lost = 0;
    for f in flows {
        let r = sim.flow_report(f).unwrap();
        assert_eq!(r.tx_packets, r.rx_packets + r.lost_packets, "{r:?}");
        assert!(r.lost_packets > 100, "{r:?}");
        assert_eq!(r.link_drops, vec![(bottleneck, r.lost_packets)]);
        assert_eq!(r.loss_rate, r.lost_packets as f64 / r.tx_packets as f64);
        lost += r.lost_packets;
    }
    assert_eq!(lost, link_report.queue_drops + link_report.loss_drops);
}

#[test]
fn cbr_without_queueing_has_constant_delay_no_jitter_and_exact_rates() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    link(&mut sim, a, b, 10_000_000, 10, 50);
    let f = sim.add_udp_flow("f", a, b, cbr(400_000, 1000, Some(100))).unwrap();
    sim.run(None).unwrap();
    let r = sim.flow_report(f).unwrap();
    assert_eq!((r.mean_delay_s, r.mean_jitter_s), (Some(0.0108), Some(0.0)));
    // first sent at 0, last (the 100th, sent at 1.98 s) delivered 10.8 ms later
    let active = 1.98 + 0.0108;
    assert!((r.active_s.unwrap() - active).abs() < 1e-12);
    assert!((r.throughput_bps - 100.0 * 1000.0 * 8.0 / active).abs() < 1e-6);
    assert!((r.goodput_bps - 100.0 * 972.0 * 8.0 / active).abs() < 1e-6, "payload without UDP/IP headers");
}

#[test]
fn jitter_of_independent_uniform_delays_is_a_third_of_their_range() {
    let mut sim = Simulation::new(5, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let ch = link(&mut sim, a, b, 100_000_000, 5, 50);
    let spread = JitterDistribution::Uniform { low: Duration::ZERO, high: Duration::from_millis(10) };
    sim.set_jitter(ch, Some(Jitter { distribution: spread, reorder: true })).unwrap();
    // One packet every 20 ms: never reordered, each delay independent.
    sim.add_udp_flow("f", a, b, cbr(50_000, 125, Some(20_000))).unwrap();
    sim.run(None).unwrap();
    let r = sim.flow_report(0).unwrap();
    // E|X - Y| = 10 ms / 3 for X, Y independent and uniform on [0, 10 ms];
    // 20 000 samples put the mean within 1% (its standard error is 0.5%).
    let jitter = r.mean_jitter_s.unwrap();
    assert!((jitter - 0.01 / 3.0).abs() < 0.01 * 0.01 / 3.0, "{jitter}");
    assert!((r.mean_delay_s.unwrap() - (0.005 + 0.00001 + 0.005)).abs() < 1e-4);
}

#[test]
fn a_link_saturated_then_idle_is_fully_used_over_its_active_time() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let ch = link(&mut sim, a, b, 1_000_000, 1, 50);
    // back to back at the link's rate for 10 s, then 1990 s of nothing
    sim.add_udp_flow("f", a, b, UdpSourceConfig { stop: secs(10), ..cbr(1_000_000, 1000, None) }).unwrap();
    sim.run(secs(2000)).unwrap();
    let l = sim.link_report(ch).unwrap();
    let busy = l.tx_packets as f64 * 0.008; // 8 ms per 1000-byte packet
    assert!(busy > 10.0 && busy < 10.01, "{busy}");
    assert!((l.utilization - busy / 2000.0).abs() < 1e-9, "{}", l.utilization);
    assert!((l.active_s - busy).abs() < 1e-9, "{}", l.active_s);
    assert!((l.active_utilization - 1.0).abs() < 1e-12, "{}", l.active_utilization);
}

fn reno_transfer(bytes: u64, drops: Vec<u64>) -> (Simulation, u32, u32) {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let data = link(&mut sim, a, b, 1_000_000, 20, 100);
    link(&mut sim, b, a, 1_000_000, 20, 100);
    let loss = LossModel { process: LossProcess::DropList { drops, seen: 0, next: 0 }, position: LossPosition::OnWire };
    sim.set_loss(data, Some(loss)).unwrap();
    let tcp = TcpConfig { cc: CcKind::Reno, ..TcpConfig::ns2(960) };
    let config = TcpFlowConfig {
        client: tcp.clone(),
        server: tcp,
        app: TcpApp::Bulk { bytes: Some(bytes) },
        start: Instant::ZERO,
        server_start: Instant::ZERO,
        reader: Reader::AtOnce,
        record_series: true,
        label: None,
    };
    let f = sim.add_tcp_flow("reno", a, b, config).unwrap();
    sim.run(None).unwrap();
    (sim, f, data)
}

#[test]
fn a_tcp_flow_counts_its_data_segments_and_where_they_were_dropped() {
    let (sim, f, data) = reno_transfer(100 * 960, vec![10, 20, 21]);
    let r = sim.flow_report(f).unwrap();
    let tcp = r.tcp.as_ref().unwrap();
    assert_eq!(tcp.bytes_delivered, 96_000);
    assert_eq!((r.lost_packets, r.link_drops.clone()), (3, vec![(data, 3)]));
    assert_eq!(r.rx_packets, r.tx_packets - 3, "nothing left in flight");
    // 100 data segments, SYN, FIN and the retransmissions (of whole segments),
    // each with 40 bytes of headers
    assert_eq!(r.tx_packets, 100 + 2 + tcp.retransmits);
    assert!(tcp.retransmits >= 3);
    assert_eq!(r.tx_bytes, 960 * (100 + tcp.retransmits) + 40 * r.tx_packets);
    // a segment's delay is at least its 7.68 ms serialization and 20 ms propagation
    assert!(r.delay_p50_s.unwrap() >= 0.02768 && r.mean_jitter_s.unwrap() > 0.0);
}

#[test]
fn mean_cwnd_is_the_time_average_of_the_recorded_window() {
    let (sim, f, _) = reno_transfer(300 * 960, vec![40, 90]);
    let r = sim.flow_report(f).unwrap();
    let tcp = r.tcp.unwrap();
    let end = tcp.completion_time_s.unwrap();
    // integrate the recorded cwnd steps from the start to completion
    let (mut area, mut last) = (0.0, (0.0, 0.0));
    for &(t, var, value) in sim.tcp_series(f).unwrap() {
        let t = t.as_secs_f64();
        if var == 0 && t <= end {
            area += (t - last.0) * last.1;
            last = (t, value);
        }
    }
    area += (end - last.0) * last.1;
    let mean = tcp.mean_cwnd_bytes.unwrap();
    assert!((mean - area / end).abs() < 1e-6 * mean, "{mean} vs {}", area / end);
    assert!(mean > 2.0 * 960.0 && mean < f64::from(tcp.cwnd_bytes).max(40.0 * 960.0));
}
