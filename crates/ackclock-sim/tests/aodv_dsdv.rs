//! AODV and DSDV driven by the engine: messages cross a LAN and a link,
//! routes are installed and the packets waiting for them go.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{aodv::AodvConfig, dsdv::DsdvConfig, Discipline, NextHop, NodeId, Router};
use ackclock_sim::{LanConfig, Simulation, SizeModel, Traffic, UdpSourceConfig};

fn rate(bps: u64) -> Bandwidth {
    Bandwidth::from_bps(bps).unwrap()
}

/// A, B and C on a LAN, D linked to C; `router` on every node, and a CBR
/// flow from A to D from `start`.
fn lan_and_link(router: Router, start: f64, stop: f64) -> (Simulation, Vec<NodeId>, Vec<u32>, u32) {
    let mut sim = Simulation::new(1, 0);
    let n: Vec<NodeId> = ["A", "B", "C", "D"].iter().map(|name| sim.add_node(name)).collect();
    let nics = sim.add_lan(&n[..3], LanConfig::switched(rate(10_000_000), Duration::from_millis(1), 50)).unwrap();
    sim.add_duplex(n[2], n[3], rate(10_000_000), Duration::from_millis(5), Discipline::ns2_drop_tail(50)).unwrap();
    for &node in &n {
        sim.set_router(node, router.clone()).unwrap();
    }
    let cbr = UdpSourceConfig {
        traffic: Traffic::Cbr { rate: rate(80_000), jitter: false },
        size: SizeModel::Fixed(1000),
        start: Instant::from_secs_f64(start),
        stop: Some(Instant::from_secs_f64(stop)),
        max_packets: None,
        ecn: false,
        label: None,
    };
    let f = sim.add_udp_flow("cbr", n[0], n[3], cbr).unwrap();
    (sim, n, nics, f)
}

#[test]
fn aodv_finds_a_route_on_demand_and_the_waiting_packets_go() {
    // One packet every 100 ms from 1 s to 2 s.
    let (mut sim, n, nics, f) = lan_and_link(Router::Aodv(AodvConfig::default()), 1.0, 2.0);
    sim.run(Some(Instant::from_secs_f64(3.0))).unwrap();
    let r = sim.flow_report(f).unwrap();
    assert_eq!(r.rx_packets, r.tx_packets, "the first packet waited for the route");
    assert_eq!(sim.routes(n[0]).unwrap()[n[3] as usize], Some(NextHop::Nic { nic: nics[0], neighbor: n[2] }));
    // The first packet waits for the request to reach D (48 bytes across
    // the LAN and the link, C jittering its rebroadcast by up to 10 ms) and
    // the reply to come back (44 bytes), then takes 0.816 + 1 + 0.816 + 5 ms
    // (1020 bytes: AODV adds ns-2's 20-byte IP header at the source).
    let discovery = (0.0384 + 1.0 + 0.0384 + 5.0 + 0.0352 + 5.0 + 0.0352 + 1.0) / 1000.0;
    let first = r.max_delay_s.unwrap() - 0.007632;
    assert!((discovery..discovery + 0.010).contains(&first), "{first}");
    assert_eq!(sim.node_report(n[0]).unwrap().no_route_drops, 0);
}

#[test]
fn dsdv_learns_the_routes_from_its_updates() {
    // The settling time keeps two-hop routes out of updates for a while.
    let (mut sim, n, nics, f) = lan_and_link(Router::Dsdv(DsdvConfig::default()), 100.0, 101.0);
    sim.run(Some(Instant::from_secs_f64(102.0))).unwrap();
    let r = sim.flow_report(f).unwrap();
    assert_eq!((r.tx_packets, r.rx_packets), (11, 11));
    assert_eq!(sim.routes(n[0]).unwrap()[n[3] as usize], Some(NextHop::Nic { nic: nics[0], neighbor: n[2] }));
}
