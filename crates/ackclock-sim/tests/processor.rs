//! Nodes whose processor takes time per packet (seed 000 §4.1): exact
//! delays, a bounded queue, and the processor as a queue against theory.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{Discipline, DropTail, NodeId, ProcessorConfig, QueueLimit, ServiceTime};
use ackclock_sim::{Simulation, SizeModel, Traffic, UdpSourceConfig};

fn secs(s: f64) -> Instant {
    Instant::from_secs_f64(s)
}

fn link(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, delay: Duration) {
    let rate = Bandwidth::from_bps(bps).unwrap();
    let queue = Discipline::DropTail(DropTail { limit: QueueLimit::Unlimited, ns2_limit: false });
    sim.add_duplex(a, b, rate, delay, queue).unwrap();
}

fn cpu(service: ServiceTime, queue_limit: Option<u32>) -> Option<ProcessorConfig> {
    Some(ProcessorConfig { service, queue_limit })
}

fn source(traffic: Traffic, bytes: u32, packets: u64) -> UdpSourceConfig {
    UdpSourceConfig {
        traffic,
        size: SizeModel::Fixed(bytes),
        start: Instant::ZERO,
        stop: None,
        max_packets: Some(packets),
        ecn: false,
        label: None,
    }
}

#[test]
fn each_processor_on_the_path_adds_its_service_time() {
    // A -> R -> B, 10 Mb/s and 10 ms each way; R takes 1 ms per packet and
    // B 0.5 ms; one packet every 20 ms, so nothing waits.
    let mut sim = Simulation::new(1, 0);
    let n: Vec<NodeId> = ["A", "R", "B"].iter().map(|name| sim.add_node(name)).collect();
    link(&mut sim, n[0], n[1], 10_000_000, Duration::from_millis(10));
    link(&mut sim, n[1], n[2], 10_000_000, Duration::from_millis(10));
    sim.set_processor(n[1], cpu(ServiceTime::Constant(Duration::from_millis(1)), None)).unwrap();
    sim.set_processor(n[2], cpu(ServiceTime::Constant(Duration::from_micros(500)), None)).unwrap();
    let cbr = Traffic::Cbr { rate: Bandwidth::from_bps(400_000).unwrap(), jitter: false };
    let f = sim.add_udp_flow("cbr", n[0], n[2], source(cbr, 1000, 10)).unwrap();
    sim.run(None).unwrap();
    let r = sim.flow_report(f).unwrap();
    // 2 x (0.8 ms + 10 ms) on the links, 1 ms at R, 0.5 ms at B.
    assert_eq!((r.rx_packets, r.max_delay_s, r.mean_delay_s), (10, Some(0.0231), Some(0.0231)));
    let router = sim.node_report(n[1]).unwrap().processor.unwrap();
    assert_eq!((router.packets, router.drops, router.mean_wait_s), (10, 0, Some(0.0)));
    assert!(sim.node_report(n[0]).unwrap().processor.is_none());
}

#[test]
fn a_bounded_processor_queue_drops_what_does_not_fit() {
    // 20 packets arrive 0.1 ms apart at a node that needs 1 ms for each and
    // lets 4 wait.
    let mut sim = Simulation::new(1, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    link(&mut sim, a, r, 1_000_000_000, Duration::ZERO);
    link(&mut sim, r, b, 1_000_000_000, Duration::ZERO);
    sim.set_processor(r, cpu(ServiceTime::Constant(Duration::from_millis(1)), Some(4))).unwrap();
    // 100-byte packets every 0.1 ms (8 Mb/s); 0.8 us on each link.
    let cbr = Traffic::Cbr { rate: Bandwidth::from_bps(8_000_000).unwrap(), jitter: false };
    let f = sim.add_udp_flow("cbr", a, b, source(cbr, 100, 20)).unwrap();
    sim.run(None).unwrap();
    // Packet 0 is in service until 1 ms; 1-4 wait; 5-9 find four waiting;
    // packet 10 arrives as 0 leaves and 1 starts, and takes its place;
    // 11-19 find four waiting again.
    let p = sim.node_report(r).unwrap().processor.unwrap();
    assert_eq!((p.packets, p.drops, p.max_waiting), (6, 14, 4));
    assert_eq!(sim.flow_report(f).unwrap().rx_packets, 6);
}

/// Poisson arrivals of tiny packets at a router with a processor (the
/// links are nearly instantaneous): mean wait and drop ratio.
fn queue(service: ServiceTime, queue_limit: Option<u32>, seed: u64) -> (f64, f64) {
    let mut sim = Simulation::new(seed, 0);
    let (a, r, b) = (sim.add_node("A"), sim.add_node("R"), sim.add_node("B"));
    link(&mut sim, a, r, 100_000_000_000, Duration::ZERO);
    link(&mut sim, r, b, 100_000_000_000, Duration::ZERO);
    sim.set_processor(r, cpu(service, queue_limit)).unwrap();
    let poisson = Traffic::Poisson { mean_interval: Duration::from_millis(2) };
    sim.add_udp_flow("poisson", a, b, source(poisson, 28, 100_000)).unwrap();
    sim.run(Some(secs(300.0))).unwrap();
    let p = sim.node_report(r).unwrap().processor.unwrap();
    (p.mean_wait_s.unwrap(), p.drops as f64 / (p.packets + p.drops + u64::from(p.waiting)) as f64)
}

#[test]
fn a_constant_service_time_queues_as_m_d_1() {
    // rho = 0.5 at 1 ms per packet: Pollaczek-Khinchine gives a mean wait
    // of rho / (2 mu (1 - rho)) = 0.5 ms.
    let (wait, _) = queue(ServiceTime::Constant(Duration::from_millis(1)), None, 1);
    assert!((wait - 0.0005).abs() < 0.0005 * 0.05, "{wait}");
}

#[test]
fn an_exponential_service_time_queues_as_m_m_1() {
    // rho / (mu (1 - rho)) = 1 ms.
    let (wait, _) = queue(ServiceTime::Exponential { mean: Duration::from_millis(1) }, None, 1);
    assert!((wait - 0.001).abs() < 0.001 * 0.05, "{wait}");
}

#[test]
fn a_bounded_m_m_1_blocks_as_m_m_1_k() {
    // Room for 3 (one in service, two waiting) at rho = 0.5:
    // P(block) = (1 - rho) rho^3 / (1 - rho^4) = 1/15.
    let (_, blocked) = queue(ServiceTime::Exponential { mean: Duration::from_millis(1) }, Some(2), 1);
    assert!((blocked - 1.0 / 15.0).abs() < 1.0 / 15.0 * 0.05, "{blocked}");
}
