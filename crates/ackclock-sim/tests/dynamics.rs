//! Links that go down, come up and change rate during a run, and how
//! static, session and user-given routes react.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{ChannelId, Discipline, NextHop, NodeId, Router};
use ackclock_sim::{
    ConfigError, FailureModel, FlowLabel, LinkChange, RouteChange, Simulation, SizeModel, Traffic, UdpSourceConfig,
};
use ackclock_trace::tracer::{Sink, TracedVars};
use common::Shared;

mod common;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn at_ms(n: u64) -> Instant {
    Instant::ZERO + ms(n)
}

/// A duplex link with ns-2's default DropTail queue (50 packets).
fn duplex(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, delay: Duration) -> (ChannelId, ChannelId) {
    let rate = Bandwidth::from_bps(bps).unwrap();
    sim.add_duplex(a, b, rate, delay, Discipline::ns2_drop_tail(50)).unwrap()
}

/// CBR of 1000-byte packets, one every `interval_ms`.
fn cbr(interval_ms: u64) -> UdpSourceConfig {
    UdpSourceConfig {
        traffic: Traffic::Cbr { rate: Bandwidth::from_bps(8_000_000 / interval_ms).unwrap(), jitter: false },
        size: SizeModel::Fixed(1000),
        start: Instant::ZERO,
        stop: None,
        max_packets: None,
        ecn: false,
        label: None,
    }
}

/// Drops duplicated `v` lines: ns-2 writes a link change once per
/// `rtmodel` registered on the link, ackclock once.
fn without_repeated_link_lines(trace: &str) -> String {
    let mut out = String::new();
    let mut last = "";
    for line in trace.lines() {
        if !(line.starts_with('v') && line == last) {
            out.push_str(line);
            out.push('\n');
        }
        last = line;
    }
    out
}

#[test]
fn a_link_going_down_drops_its_queue_and_wire_as_ns2_does() {
    // benchmarks/ns2/link_down.tcl: 2 Mb/s of CBR into a 1 Mb/s link that
    // is down from 0.1 s to 0.2 s.
    let mut sim = Simulation::new(1, 0);
    let (n0, n1) = (sim.add_node("n0"), sim.add_node("n1"));
    let (forward, reverse) = duplex(&mut sim, n0, n1, 1_000_000, ms(10));
    let label = Some(FlowLabel { src_port: 0, dst_port: 0, fid: 0 });
    let flow = UdpSourceConfig { label, ..cbr(4) };
    sim.add_udp_flow("cbr", n0, n1, flow).unwrap();
    // ns-2 takes n1->n0 down first (the order of its links_ array).
    sim.schedule_link_change(at_ms(100), &[reverse, forward], LinkChange::Down).unwrap();
    sim.schedule_link_change(at_ms(200), &[reverse, forward], LinkChange::Up).unwrap();
    let out = Shared::default();
    sim.tracer().add_sink(Sink::ns2(Box::new(out.clone()), TracedVars::None));
    // ns-2's `finish` at 0.3 s runs before the packet due then.
    sim.run(Some(Instant::from_ps(at_ms(300).as_ps() - 1))).unwrap();
    sim.finish_traces().unwrap();
    let ours = out.text();
    let ns2 =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/link_down.tr")).unwrap();
    assert_eq!(ours, without_repeated_link_lines(&ns2));
    let link = sim.link_report(forward).unwrap();
    // 12 queued and 2 in transmission or on the wire at 0.1 s, and the 25
    // sent while the link was down (untraced, as in ns-2).
    assert_eq!(link.down_drops, 14 + 25);
    assert!(link.up);
}

/// A chain A - B - C with CBR from A to C, one packet every 10 ms.
fn chain() -> (Simulation, [NodeId; 3], [(ChannelId, ChannelId); 2], u32) {
    let mut sim = Simulation::new(1, 0);
    let n = ["A", "B", "C"].map(|name| sim.add_node(name));
    let ab = duplex(&mut sim, n[0], n[1], 10_000_000, ms(10));
    let bc = duplex(&mut sim, n[1], n[2], 10_000_000, ms(10));
    let f = sim.add_udp_flow("cbr", n[0], n[2], cbr(10)).unwrap();
    (sim, n, [ab, bc], f)
}

#[test]
fn static_routes_keep_sending_into_a_down_link() {
    let (mut sim, _, [_, bc], f) = chain();
    sim.schedule_link_change(at_ms(1000), &[bc.0, bc.1], LinkChange::Down).unwrap();
    sim.schedule_link_change(at_ms(2000), &[bc.0, bc.1], LinkChange::Up).unwrap();
    sim.run(Some(at_ms(3000))).unwrap();
    // Packet k leaves A at 10k ms, reaches B at 10k + 10.8 ms and C at
    // 10k + 21.6 ms. Packet 98 is on the B-C wire at 1 s; packets 99 to
    // 198 reach B while the link is down.
    assert_eq!(sim.link_report(bc.0).unwrap().down_drops, 1 + 100);
    let r = sim.flow_report(f).unwrap();
    assert_eq!(r.tx_packets, 301);
    assert_eq!(r.rx_packets, 301 - 101 - 3, "packets 298-300 are still on their way");
    assert_eq!(r.max_delay_s, Some(0.0216), "nothing waits: the lost packets are gone");
}

#[test]
fn session_routing_moves_traffic_at_once_and_back() {
    // A triangle: A-C direct, and A-B-C. The direct link fails for a second.
    let mut sim = Simulation::new(1, 0);
    let n = ["A", "B", "C"].map(|name| sim.add_node(name));
    let ac = duplex(&mut sim, n[0], n[2], 10_000_000, ms(10));
    let ab = duplex(&mut sim, n[0], n[1], 10_000_000, ms(10));
    duplex(&mut sim, n[1], n[2], 10_000_000, ms(10));
    for node in n {
        sim.set_router(node, Router::Session).unwrap();
    }
    let f = sim.add_udp_flow("cbr", n[0], n[2], cbr(10)).unwrap();
    sim.record_routes();
    sim.schedule_link_change(at_ms(1005), &[ac.0, ac.1], LinkChange::Down).unwrap();
    sim.schedule_link_change(at_ms(2005), &[ac.0, ac.1], LinkChange::Up).unwrap();
    sim.run(Some(at_ms(3000))).unwrap();
    let a_to_c: Vec<(u64, Option<NextHop>)> = sim
        .route_changes()
        .iter()
        .filter(|c| (c.node, c.dst) == (n[0], n[2]))
        .map(|c| (c.time.as_ps() / 1_000_000_000, c.via))
        .collect();
    assert_eq!(
        a_to_c,
        vec![(0, Some(NextHop::Link(ac.0))), (1005, Some(NextHop::Link(ab.0))), (2005, Some(NextHop::Link(ac.0)))]
    );
    // Only packet 100, on the A-C wire at 1.005 s, is lost.
    assert_eq!(sim.link_report(ac.0).unwrap().down_drops, 1);
    let r = sim.flow_report(f).unwrap();
    assert_eq!(r.rx_packets, r.tx_packets - 1 - 2, "two still on their way at the end");
    assert_eq!(r.max_delay_s, Some(0.0216), "two hops while the direct link was down");
}

#[test]
fn user_routes_override_shortest_paths() {
    let mut sim = Simulation::new(1, 0);
    let n = ["A", "B", "C"].map(|name| sim.add_node(name));
    let ac = duplex(&mut sim, n[0], n[2], 10_000_000, ms(10));
    let ab = duplex(&mut sim, n[0], n[1], 10_000_000, ms(10));
    let bc = duplex(&mut sim, n[1], n[2], 10_000_000, ms(10));
    sim.add_route(n[0], n[2], ab.0).unwrap();
    let f = sim.add_udp_flow("cbr", n[0], n[2], UdpSourceConfig { max_packets: Some(5), ..cbr(10) }).unwrap();
    sim.run(None).unwrap();
    assert_eq!(sim.flow_report(f).unwrap().rx_packets, 5);
    assert_eq!(sim.link_report(ab.0).unwrap().tx_packets, 5);
    assert_eq!(sim.link_report(bc.0).unwrap().tx_packets, 5);
    assert_eq!(sim.link_report(ac.0).unwrap().tx_packets, 0);
    assert_eq!(sim.routes(n[0]).unwrap(), vec![None, Some(NextHop::Link(ab.0)), Some(NextHop::Link(ab.0))]);
}

#[test]
fn user_routes_are_checked() {
    let mut sim = Simulation::new(1, 0);
    let n = ["A", "B", "C"].map(|name| sim.add_node(name));
    let ab = duplex(&mut sim, n[0], n[1], 10_000_000, ms(10));
    duplex(&mut sim, n[1], n[2], 10_000_000, ms(10));
    let err = sim.add_route(n[1], n[2], ab.0).unwrap_err();
    assert_eq!(err.to_string(), "via: 0 is invalid: the link does not leave node 'B'");
    // B sends C's packets back to A, and A to B: a loop.
    sim.add_route(n[0], n[2], ab.0).unwrap();
    sim.add_route(n[1], n[2], ab.1).unwrap();
    sim.add_udp_flow("looping", n[0], n[2], cbr(10)).unwrap();
    let err = sim.run(None).unwrap_err();
    assert_eq!(err, ConfigError::RoutingLoop { flow: "looping".into(), dst: "C".into(), node: "A".into() });
    let err = sim.set_router(n[0], Router::Session).unwrap_err();
    assert!(err.to_string().contains("only static routing keeps them"), "{err}");
}

#[test]
fn parallel_links_carry_traffic_on_the_first_unless_routed_otherwise() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let first = duplex(&mut sim, a, b, 10_000_000, ms(10));
    let second = duplex(&mut sim, a, b, 1_000_000, ms(50));
    let f = sim.add_udp_flow("cbr", a, b, UdpSourceConfig { max_packets: Some(3), ..cbr(10) }).unwrap();
    sim.run(None).unwrap();
    assert_eq!(sim.link_report(first.0).unwrap().tx_packets, 3);
    assert_eq!(sim.flow_report(f).unwrap().max_delay_s, Some(0.0108));
    sim.add_route(a, b, second.0).unwrap();
    let g = sim.add_udp_flow("cbr2", a, b, UdpSourceConfig { max_packets: Some(3), ..cbr(10) }).unwrap();
    sim.run(None).unwrap();
    assert_eq!(sim.link_report(second.0).unwrap().tx_packets, 3);
    assert_eq!(sim.flow_report(g).unwrap().max_delay_s, Some(0.058));
}

#[test]
fn a_rate_change_applies_to_packets_not_yet_sent() {
    // One packet at 0.5 s on 10 Mb/s (0.8 ms), one at 1.5 s after the
    // link slowed to 1 Mb/s (8 ms); 10 ms of propagation each.
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let (ab, _) = duplex(&mut sim, a, b, 10_000_000, ms(10));
    let one_at = |t| UdpSourceConfig { start: at_ms(t), max_packets: Some(1), ..cbr(10) };
    let early = sim.add_udp_flow("early", a, b, one_at(500)).unwrap();
    let late = sim.add_udp_flow("late", a, b, one_at(1500)).unwrap();
    sim.schedule_link_change(at_ms(1000), &[ab], LinkChange::Bandwidth(Bandwidth::from_bps(1_000_000).unwrap()))
        .unwrap();
    sim.run(None).unwrap();
    assert_eq!(sim.flow_report(early).unwrap().max_delay_s, Some(0.0108));
    assert_eq!(sim.flow_report(late).unwrap().max_delay_s, Some(0.018));
    assert_eq!(sim.link_report(ab).unwrap().bandwidth_bps, 1_000_000);
}

#[test]
fn a_rate_change_moves_the_traced_departures_of_waiting_packets() {
    // Three packets queued at once on 8 Mb/s (1 ms each); at 0.5 ms the
    // rate halves: the second and third leave at 1 and 3 ms, not 1 and 2.
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let (ab, _) = duplex(&mut sim, a, b, 8_000_000, ms(1));
    let burst = UdpSourceConfig {
        traffic: Traffic::Cbr { rate: Bandwidth::from_bps(8_000_000_000).unwrap(), jitter: false },
        max_packets: Some(3),
        ..cbr(10)
    };
    sim.add_udp_flow("burst", a, b, burst).unwrap();
    sim.schedule_link_change(
        Instant::from_ps(500_000_000),
        &[ab],
        LinkChange::Bandwidth(Bandwidth::from_bps(4_000_000).unwrap()),
    )
    .unwrap();
    let out = Shared::default();
    sim.tracer().add_sink(Sink::ns2(Box::new(out.clone()), TracedVars::None));
    sim.run(None).unwrap();
    sim.finish_traces().unwrap();
    let text = out.text();
    let times = |event: &str| -> Vec<String> {
        text.lines().filter(|l| l.starts_with(event)).map(|l| l.split(' ').nth(1).unwrap().to_string()).collect()
    };
    assert_eq!(times("-"), ["0", "0.001", "0.003"]);
    assert_eq!(times("r"), ["0.002", "0.004", "0.006"]);
}

#[test]
fn a_deterministic_failure_model_writes_ns2s_link_records() {
    let mut sim = Simulation::new(1, 0);
    let (a, b) = (sim.add_node("A"), sim.add_node("B"));
    let (ab, ba) = duplex(&mut sim, a, b, 10_000_000, ms(10));
    let model = FailureModel { finish: Some(at_ms(6000)), ..FailureModel::ns2(false) };
    sim.add_failure_model(&[ab, ba], model).unwrap();
    let out = Shared::default();
    sim.tracer().add_sink(Sink::ns2(Box::new(out.clone()), TracedVars::None));
    sim.run(None).unwrap();
    sim.finish_traces().unwrap();
    let text = out.text();
    let expected = [
        "v 2.5 link-down 0 1",
        "v 2.5 link-down 1 0",
        "v 3.5 link-up 0 1",
        "v 3.5 link-up 1 0",
        "v 5.5 link-down 0 1",
        "v 5.5 link-down 1 0",
        "v 6 link-up 0 1",
        "v 6 link-up 1 0",
    ];
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    assert_eq!(sim.now(), at_ms(6000), "nothing is scheduled after finish");
}

#[test]
fn route_changes_are_recorded_only_when_asked() {
    let (mut sim, n, [_, bc], _) = chain();
    for node in n {
        sim.set_router(node, Router::Session).unwrap();
    }
    sim.schedule_link_change(at_ms(500), &[bc.0, bc.1], LinkChange::Down).unwrap();
    sim.run(Some(at_ms(1000))).unwrap();
    assert_eq!(sim.route_changes(), &[] as &[RouteChange]);
    assert_eq!(sim.routes(n[0]).unwrap()[n[2] as usize], None, "C is cut off");
}
