//! TCP over simulated links: sawtooth and utilization against ns-2's
//! numbers, loss recovery without timeouts, end-to-end delivery, and the
//! per-flow statistics of a TCP flow (segments, drops, time-averaged cwnd).

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{Discipline, LossModel, LossPosition, LossProcess, NodeId};
use ackclock_sim::{Simulation, TcpApp, TcpFlowConfig};
use ackclock_tcp::{AckPolicy, CcKind, Reader, TcpConfig};

fn duplex(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, delay: Duration, limit: u32) -> (u32, u32) {
    let rate = Bandwidth::from_bps(bps).unwrap();
    sim.add_duplex(a, b, rate, delay, Discipline::ns2_drop_tail(limit)).unwrap()
}

/// ns-2-like Reno: initial window 2, an ACK per segment, 960-byte
/// segments, 200 ms minimum RTO, no cap on the window.
fn ns2_like_reno() -> TcpConfig {
    TcpConfig {
        cc: CcKind::Ns2Reno,
        max_window: None,
        initial_ssthresh: None,
        ack_policy: AckPolicy::EverySegment,
        ..TcpConfig::ns2(960)
    }
}

fn bulk(cfg: TcpConfig) -> TcpFlowConfig {
    TcpFlowConfig {
        client: cfg.clone(),
        server: cfg,
        app: TcpApp::Bulk { bytes: None },
        start: Instant::ZERO,
        server_start: Instant::ZERO,
        reader: Reader::AtOnce,
        record_series: true,
        label: None,
    }
}

/// Seed 003's basic1 (A-R 10 Mbit/s, R-B 800 kbit/s, queue `limit` at R).
fn basic1(ar: Duration, rb: Duration, limit: u32, secs: u64) -> (Simulation, u32, u32) {
    let mut sim = Simulation::new(1, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    duplex(&mut sim, a, r, 10_000_000, ar, 100);
    let (bottleneck, _) = duplex(&mut sim, r, b, 800_000, rb, limit);
    let f = sim.add_tcp_flow("reno", a, b, bulk(ns2_like_reno())).unwrap();
    sim.run(Some(Instant::from_ps(secs * 1_000_000_000_000))).unwrap();
    (sim, f, bottleneck)
}

/// cwnd (in segments) just before each loss response after `from`: the
/// tops of the sawtooth teeth.
fn cwnd_peaks(sim: &Simulation, flow: u32, from: Instant) -> Vec<f64> {
    let (mut settled, mut pending, mut at) = (0.0, 0.0, Instant::ZERO);
    let mut peaks = Vec::new();
    for &(t, var, value) in sim.tcp_series(flow).unwrap() {
        if t != at {
            settled = pending;
            at = t;
        }
        match var {
            0 => pending = value / 960.0,
            6 if t >= from => peaks.push(settled),
            _ => {}
        }
    }
    peaks
}

#[test]
fn basic1_sawtooth_peaks_are_regular_and_near_ns2() {
    let (mut sim, f, bottleneck) = basic1(Duration::from_millis(10), Duration::from_millis(50), 7, 1000);
    // After the slow-start overshoot and its cascade of halvings.
    let peaks = cwnd_peaks(&sim, f, Instant::from_ps(100 * 1_000_000_000_000));
    let (lo, hi) = peaks.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let util = sim.link_report(bottleneck).unwrap().utilization;
    assert!(peaks.len() > 400, "{} teeth in 900 s (ns-2: 512 loss events in 1000 s)", peaks.len());
    assert!((hi - lo) / hi < 0.02, "peak spread {lo}..{hi}");
    assert!((hi - 20.935).abs() < 0.5, "peak {hi}");
    assert!(util >= 0.93, "utilization {util}");
}

#[test]
fn basic1_long_delay_utilization_follows_the_seed_table() {
    // Seed 003 §16.2.6: A-R 10 Mbit/s 50 ms, R-B 800 kbit/s 100 ms, 1000 s.
    for (limit, published) in [(5, 0.833), (8, 0.872), (16, 0.946)] {
        let (mut sim, _, bottleneck) = basic1(Duration::from_millis(50), Duration::from_millis(100), limit, 1000);
        let util = sim.link_report(bottleneck).unwrap().utilization;
        println!("queue {limit}: utilization {util:.4} (published {published})");
        assert!((util - published).abs() <= 0.02, "queue {limit}: utilization {util}, published {published}");
    }
}

/// One Linux-like flow over 1 Gbit/s with a 60 ms RTT and an 8 MB receive
/// buffer, for 10 s: (bottleneck utilization, goodput in bit/s).
fn long_fat_pipe(window_scale: bool) -> (f64, f64) {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let (forward, _) = duplex(&mut sim, a, b, 1_000_000_000, Duration::from_millis(30), 10_000);
    let tcp = TcpConfig { receive_buffer: 8 << 20, window_scale, ..TcpConfig::linux() };
    let flow = TcpFlowConfig { record_series: false, ..bulk(tcp) };
    let f = sim.add_tcp_flow("f", a, b, flow).unwrap();
    sim.run(Some(Instant::from_ps(10 * 1_000_000_000_000))).unwrap();
    let util = sim.link_report(forward).unwrap().utilization;
    (util, sim.flow_report(f).unwrap().goodput_bps)
}

#[test]
fn window_scaling_fills_a_long_fat_pipe() {
    let (util, _) = long_fat_pipe(true);
    assert!(util > 0.9, "utilization {util}");
}

#[test]
fn without_window_scaling_throughput_is_capped_at_64k_per_rtt() {
    // Seed 000 §5.1.3: 65535 bytes per 60 ms round trip = 8.7 Mbit/s.
    let (_, goodput) = long_fat_pipe(false);
    let cap = 65_535.0 * 8.0 / 0.060;
    assert!(goodput < cap && goodput > 0.9 * cap, "goodput {goodput}, cap {cap}");
}

/// A Reno transfer of `bytes` from A to B over 1 Mbit/s, 20 ms, losing the
/// data packets numbered in `drops` (1, 2, ... on the A->B wire).
fn lossy_transfer(bytes: u64, drops: Vec<u64>) -> (Simulation, u32, u32) {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let (data, _) = duplex(&mut sim, a, b, 1_000_000, Duration::from_millis(20), 100);
    let loss = LossModel {
        process: LossProcess::DropList { drops, seen: 0, next: 0 },
        position: LossPosition::OnWire,
        delay: None,
    };
    sim.set_loss(data, Some(loss)).unwrap();
    let config = TcpFlowConfig { app: TcpApp::Bulk { bytes: Some(bytes) }, ..bulk(ns2_like_reno()) };
    let f = sim.add_tcp_flow("reno", a, b, config).unwrap();
    sim.run(None).unwrap();
    (sim, f, data)
}

#[test]
fn a_tcp_flow_counts_its_data_segments_and_where_they_were_dropped() {
    let (sim, f, data) = lossy_transfer(100 * 960, vec![10, 20, 21]);
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
    // a segment's delay is at least its 8 ms serialization and 20 ms propagation
    assert!(r.delay_p50_s.unwrap() >= 0.028 && r.mean_jitter_s.unwrap() > 0.0);
}

#[test]
fn mean_cwnd_is_the_time_average_of_the_recorded_window() {
    let (sim, f, _) = lossy_transfer(300 * 960, vec![40, 90]);
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
    assert!(mean > 2.0 * 960.0 && mean < 40.0 * 960.0, "{mean}");
}
