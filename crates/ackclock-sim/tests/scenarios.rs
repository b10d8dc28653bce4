//! Whole simulations over UDP: exact timings, determinism, stream
//! independence, callbacks, an M/M/1 queue against theory, and the per-flow
//! statistics: every packet received or dropped on a named link, delay and
//! jitter against theory, a link's utilization over its active time.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{
    ChannelConfig, Discipline, DropTail, Jitter, JitterDistribution, LossModel, LossPosition, LossProcess, NodeId,
    QueueLimit, Red, RedParams,
};
use ackclock_sim::{ConfigError, RunOutcome, Simulation, SizeModel, Traffic, UdpSourceConfig};

fn droptail(limit: QueueLimit) -> Discipline {
    Discipline::DropTail(DropTail { limit, ns2_limit: false })
}

fn link(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, delay: Duration, queue: Discipline) -> u32 {
    sim.add_channel(ChannelConfig::new(a, b, Bandwidth::from_bps(bps).unwrap(), delay, queue)).unwrap()
}

fn cbr(bps: u64, size: u32) -> UdpSourceConfig {
    UdpSourceConfig {
        traffic: Traffic::Cbr { rate: Bandwidth::from_bps(bps).unwrap(), jitter: false },
        size: SizeModel::Fixed(size),
        start: Instant::ZERO,
        stop: None,
        max_packets: None,
        ecn: false,
        label: None,
    }
}

fn secs(s: u64) -> Option<Instant> {
    Some(Instant::from_ps(s * 1_000_000_000_000))
}

#[test]
fn cbr_delay_over_two_hops_is_serialization_plus_propagation() {
    let mut sim = Simulation::new(1, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    link(&mut sim, a, r, 10_000_000, Duration::from_millis(10), droptail(QueueLimit::Packets(50)));
    link(&mut sim, r, b, 800_000, Duration::from_millis(50), droptail(QueueLimit::Packets(50)));
    let f = sim.add_udp_flow("f", a, b, cbr(400_000, 1000)).unwrap();
    assert_eq!(sim.run(secs(10)).unwrap(), RunOutcome::Until);
    let r = sim.flow_report(f).unwrap();
    // 0.8 ms + 10 ms on the first hop, 10 ms + 50 ms on the second, no queueing.
    assert_eq!(r.max_delay_s, Some(0.0708));
    assert_eq!(r.mean_delay_s, Some(0.0708));
    assert_eq!(r.tx_packets, 501, "one packet every 20 ms, both ends included");
    assert_eq!(r.rx_packets, 497, "the last four are still in flight at 10 s");
    // 499 whole 10 ms transmissions plus the one begun at 9.9908 s, cut at 10 s.
    let bottleneck = sim.link_report(1).unwrap();
    assert!((bottleneck.utilization - 4.9992 / 10.0).abs() < 1e-12, "{}", bottleneck.utilization);
}

#[test]
fn asymmetric_directions_serialize_at_their_own_rates() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    link(&mut sim, a, b, 10_000_000, Duration::ZERO, droptail(QueueLimit::Unlimited));
    link(&mut sim, b, a, 28_800, Duration::ZERO, droptail(QueueLimit::Unlimited));
    let down = sim.add_udp_flow("down", a, b, UdpSourceConfig { max_packets: Some(1), ..cbr(1_000, 1000) }).unwrap();
    let up = sim.add_udp_flow("up", b, a, UdpSourceConfig { max_packets: Some(1), ..cbr(1_000, 1000) }).unwrap();
    assert_eq!(sim.run(None).unwrap(), RunOutcome::Idle);
    assert_eq!(sim.flow_report(down).unwrap().max_delay_s, Some(0.0008));
    let up_delay = sim.flow_report(up).unwrap().max_delay_s.unwrap();
    assert!((up_delay - 8000.0 / 28_800.0).abs() < 1e-12, "{up_delay}");
}

/// A two-sender dumbbell with Poisson sources and random loss, run for 60 s.
fn lossy_dumbbell(seed: u64, extra_flow: bool) -> (Simulation, Vec<u32>) {
    let (mut sim, flows) = lossy_dumbbell_network(seed, extra_flow);
    sim.run(secs(60)).unwrap();
    (sim, flows)
}

fn lossy_dumbbell_network(seed: u64, extra_flow: bool) -> (Simulation, Vec<u32>) {
    let mut sim = Simulation::new(seed, 0);
    let n: Vec<NodeId> = ["s1", "s2", "r1", "r2", "d"].iter().map(|name| sim.add_node(name)).collect();
    let ms = Duration::from_millis;
    link(&mut sim, n[0], n[2], 10_000_000, ms(1), droptail(QueueLimit::Packets(20)));
    link(&mut sim, n[1], n[2], 10_000_000, ms(3), droptail(QueueLimit::Packets(20)));
    let bottleneck = link(&mut sim, n[2], n[3], 1_500_000, ms(20), droptail(QueueLimit::Packets(10)));
    link(&mut sim, n[3], n[4], 10_000_000, ms(1), droptail(QueueLimit::Packets(20)));
    link(&mut sim, n[4], n[0], 10_000_000, ms(1), droptail(QueueLimit::Packets(20)));
    let loss = LossModel { process: LossProcess::Uniform { p: 0.05 }, position: LossPosition::OnWire, delay: None };
    sim.set_loss(bottleneck, Some(loss)).unwrap();
    let poisson = |ms_mean| UdpSourceConfig {
        traffic: Traffic::Poisson { mean_interval: Duration::from_millis(ms_mean) },
        size: SizeModel::Exponential { mean: 800.0 },
        ..cbr(1, 1)
    };
    let mut flows = vec![
        sim.add_udp_flow("p1", n[0], n[4], poisson(8)).unwrap(),
        sim.add_udp_flow("p2", n[1], n[4], poisson(10)).unwrap(),
    ];
    if extra_flow {
        flows.push(sim.add_udp_flow("back", n[4], n[0], poisson(5)).unwrap());
    }
    (sim, flows)
}

fn summary(sim: &mut Simulation, flows: &[u32]) -> Vec<String> {
    let mut out: Vec<String> = flows.iter().map(|&f| format!("{:?}", sim.flow_report(f).unwrap())).collect();
    out.extend((0..sim.channel_count() as u32).map(|c| format!("{:?}", sim.link_report(c).unwrap())));
    out
}

#[test]
fn same_seed_gives_identical_results() {
    let (mut a, fa) = lossy_dumbbell(7, false);
    let (mut b, fb) = lossy_dumbbell(7, false);
    assert_eq!(summary(&mut a, &fa), summary(&mut b, &fb));
    assert_eq!(a.events(), b.events());
}

#[test]
fn pausing_every_thousand_events_gives_the_results_of_one_run() {
    let (mut whole, flows) = lossy_dumbbell(7, false);
    let (mut paused, _) = lossy_dumbbell_network(7, false);
    let mut pauses = 0;
    while paused.run_at_most(secs(60), 1000).unwrap() == RunOutcome::EventLimit {
        pauses += 1;
    }
    assert_eq!(pauses, whole.events() / 1000);
    assert_eq!(paused.events(), whole.events());
    assert_eq!(paused.now(), whole.now());
    assert_eq!(summary(&mut paused, &flows), summary(&mut whole, &flows));
}

#[test]
fn different_seeds_give_different_results() {
    let (mut a, fa) = lossy_dumbbell(7, false);
    let (mut b, fb) = lossy_dumbbell(8, false);
    assert_ne!(summary(&mut a, &fa), summary(&mut b, &fb));
}

#[test]
fn adding_a_flow_elsewhere_does_not_perturb_other_streams() {
    // The extra flow uses links the forward flows never touch, so their
    // departures, sizes and bottleneck losses must be unchanged.
    let (mut a, fa) = lossy_dumbbell(7, false);
    let (mut b, fb) = lossy_dumbbell(7, true);
    for f in 0..2 {
        assert_eq!(a.flow_report(fa[f]).unwrap(), b.flow_report(fb[f]).unwrap());
    }
    assert_eq!(a.link_report(2).unwrap(), b.link_report(2).unwrap());
}

#[test]
fn callbacks_return_control_at_their_time_and_stop_ends_the_run() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    link(&mut sim, a, b, 1_000_000, Duration::from_millis(1), droptail(QueueLimit::Unlimited));
    sim.add_udp_flow("f", a, b, cbr(100_000, 100)).unwrap();
    let late = sim.schedule_callback(Instant::from_ps(3_000_000_000_000));
    let early = sim.schedule_callback(Instant::from_ps(1_500_000_000_000));
    let cancelled = sim.schedule_callback(Instant::from_ps(2_000_000_000_000));
    assert!(sim.cancel_callback(cancelled));
    assert_eq!(sim.run(secs(10)).unwrap(), RunOutcome::Callback(early));
    assert_eq!(sim.now(), Instant::from_ps(1_500_000_000_000));
    assert_eq!(sim.run(secs(10)).unwrap(), RunOutcome::Callback(late));
    sim.stop();
    assert_eq!(sim.run(secs(10)).unwrap(), RunOutcome::Stopped);
    assert_eq!(sim.now(), Instant::from_ps(3_000_000_000_000), "stop leaves the clock at the callback");
    assert_eq!(sim.run(secs(10)).unwrap(), RunOutcome::Until);
    assert_eq!(sim.now(), Instant::from_ps(10_000_000_000_000));
}

#[test]
fn unreachable_destination_names_the_flow_and_nodes() {
    let mut sim = Simulation::new(1, 0);
    let (a, b, c) = (sim.add_node("A"), sim.add_node("B"), sim.add_node("C"));
    link(&mut sim, a, b, 1_000_000, Duration::ZERO, droptail(QueueLimit::Unlimited));
    sim.add_udp_flow("to-c", a, c, cbr(1_000, 100)).unwrap();
    let err = sim.run(None).unwrap_err();
    assert_eq!(err, ConfigError::Unreachable { flow: "to-c".into(), src: "A".into(), dst: "C".into() });
    assert_eq!(err.to_string(), "flow 'to-c': node 'C' is unreachable from node 'A'");
}

#[test]
fn red_marks_ecn_capable_traffic_and_drops_the_rest() {
    let run = |ecn: bool| {
        let mut sim = Simulation::new(3, 0);
        let (a, b) = (sim.add_node("A"), sim.add_node("B"));
        let params = RedParams { ecn: true, ..RedParams::default() };
        let hard = DropTail { limit: QueueLimit::Packets(100), ns2_limit: false };
        let ch = link(&mut sim, a, b, 1_000_000, Duration::from_millis(5), Discipline::Red(Red::new(params, hard)));
        // 10% overload keeps the average queue between the thresholds.
        sim.add_udp_flow("f", a, b, UdpSourceConfig { ecn, ..cbr(1_100_000, 500) }).unwrap();
        sim.run(secs(30)).unwrap();
        sim.link_report(ch).unwrap()
    };
    let marked = run(true);
    let dropped = run(false);
    assert!(marked.ecn_marks > 100, "{marked:?}");
    assert!(dropped.ecn_marks == 0 && dropped.queue_drops > 100, "{dropped:?}");
    assert!(marked.mean_queue_packets > 5.0 && marked.mean_queue_packets < 100.0, "{marked:?}");
}

#[test]
fn mm1_queue_matches_queueing_theory() {
    // lambda = 1/3, mu = 1/2: mean response 1/(mu - lambda) = 6 s, P(n) = (1-rho) rho^n.
    let mut sim = Simulation::new(11, 0);
    let (src, server) = (sim.add_node("source"), sim.add_node("server"));
    let ch = link(&mut sim, src, server, 8_000, Duration::ZERO, droptail(QueueLimit::Unlimited));
    let jobs = UdpSourceConfig {
        traffic: Traffic::Poisson { mean_interval: Duration::from_secs(3) },
        size: SizeModel::Exponential { mean: 2000.0 },
        max_packets: Some(200_000),
        ..cbr(1, 1)
    };
    let f = sim.add_udp_flow("jobs", src, server, jobs).unwrap();
    assert_eq!(sim.run(None).unwrap(), RunOutcome::Idle);
    let mean = sim.flow_report(f).unwrap().mean_delay_s.unwrap();
    assert!((mean - 6.0).abs() < 0.3, "mean response {mean}");
    let rho: f64 = 2.0 / 3.0;
    let p = sim.occupancy_distribution(ch).unwrap();
    for (n, &measured) in p.iter().enumerate().take(8) {
        let theory = (1.0 - rho) * rho.powi(n as i32);
        assert!((measured - theory).abs() < 0.01, "P({n}) = {measured}, theory {theory}");
    }
}

#[test]
fn every_packet_sent_is_received_or_dropped_on_a_named_link() {
    let mut sim = Simulation::new(3, 0);
    let n: Vec<NodeId> = ["s1", "s2", "r", "d"].iter().map(|name| sim.add_node(name)).collect();
    let ms = Duration::from_millis;
    link(&mut sim, n[0], n[2], 10_000_000, ms(1), droptail(QueueLimit::Packets(1000)));
    link(&mut sim, n[1], n[2], 10_000_000, ms(1), droptail(QueueLimit::Packets(1000)));
    let bottleneck = link(&mut sim, n[2], n[3], 1_000_000, ms(10), droptail(QueueLimit::Packets(5)));
    let loss = LossModel { process: LossProcess::Uniform { p: 0.05 }, position: LossPosition::OnWire, delay: None };
    sim.set_loss(bottleneck, Some(loss)).unwrap();
    // 1.6 Mbit/s into 1 Mbit/s: the queue drops, the wire loses 5%.
    let flows = [
        sim.add_udp_flow("a", n[0], n[3], UdpSourceConfig { max_packets: Some(2000), ..cbr(800_000, 1000) }).unwrap(),
        sim.add_udp_flow("b", n[1], n[3], UdpSourceConfig { max_packets: Some(4000), ..cbr(800_000, 500) }).unwrap(),
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
    link(&mut sim, a, b, 10_000_000, Duration::from_millis(10), droptail(QueueLimit::Packets(50)));
    let f = sim.add_udp_flow("f", a, b, UdpSourceConfig { max_packets: Some(100), ..cbr(400_000, 1000) }).unwrap();
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
    let ch = link(&mut sim, a, b, 100_000_000, Duration::from_millis(5), droptail(QueueLimit::Packets(50)));
    let spread = JitterDistribution::Uniform { low: Duration::ZERO, high: Duration::from_millis(10) };
    sim.set_jitter(ch, Some(Jitter { distribution: spread, reorder: true })).unwrap();
    // One packet every 20 ms: never reordered, each delay independent.
    sim.add_udp_flow("f", a, b, UdpSourceConfig { max_packets: Some(20_000), ..cbr(50_000, 125) }).unwrap();
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
    let ch = link(&mut sim, a, b, 1_000_000, Duration::from_millis(1), droptail(QueueLimit::Packets(50)));
    // back to back at the link's rate for 10 s, then 1990 s of nothing
    sim.add_udp_flow("f", a, b, UdpSourceConfig { stop: secs(10), ..cbr(1_000_000, 1000) }).unwrap();
    sim.run(secs(2000)).unwrap();
    let l = sim.link_report(ch).unwrap();
    let busy = l.tx_packets as f64 * 0.008; // 8 ms per 1000-byte packet
    assert!(busy > 10.0 && busy < 10.01, "{busy}");
    assert!((l.utilization - busy / 2000.0).abs() < 1e-9, "{}", l.utilization);
    assert!((l.active_s - busy).abs() < 1e-9, "{}", l.active_s);
    assert!((l.active_utilization - 1.0).abs() < 1e-12, "{}", l.active_utilization);
}
