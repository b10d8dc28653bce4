//! NICs on a shared medium, through the contention-free LAN: frames reach
//! every NIC, only the addressed node takes them, routing goes across.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{dv::DvConfig, Discipline, LanMac, NextHop, NodeId, Router};
use ackclock_sim::{LanConfig, Simulation, SizeModel, Traffic, UdpSourceConfig};

fn rate(bps: u64) -> Bandwidth {
    Bandwidth::from_bps(bps).unwrap()
}

fn cbr(bps: u64, packets: u64) -> UdpSourceConfig {
    UdpSourceConfig {
        traffic: Traffic::Cbr { rate: rate(bps), jitter: false },
        size: SizeModel::Fixed(1000),
        start: Instant::ZERO,
        stop: None,
        max_packets: Some(packets),
        ecn: false,
        label: None,
    }
}

fn lan_of(names: &[&str], queue_limit: usize) -> (Simulation, Vec<NodeId>, Vec<u32>) {
    let mut sim = Simulation::new(1, 0);
    let n: Vec<NodeId> = names.iter().map(|name| sim.add_node(name)).collect();
    let nics = sim.add_lan(&n, LanConfig::switched(rate(10_000_000), Duration::from_millis(1), queue_limit)).unwrap();
    (sim, n, nics)
}

#[test]
fn a_frame_reaches_every_nic_and_only_its_addressee_takes_it() {
    let (mut sim, n, nics) = lan_of(&["A", "B", "C"], 50);
    let f = sim.add_udp_flow("cbr", n[0], n[2], cbr(1_000_000, 10)).unwrap();
    sim.run(None).unwrap();
    let r = sim.flow_report(f).unwrap();
    assert_eq!(r.rx_packets, 10);
    // 1000 bytes at 10 Mb/s, then 1 ms across the LAN.
    assert_eq!(r.max_delay_s, Some(0.0018));
    assert_eq!(r.mean_delay_s, Some(0.0018));
    let (a, b, c) =
        (sim.nic_report(nics[0]).unwrap(), sim.nic_report(nics[1]).unwrap(), sim.nic_report(nics[2]).unwrap());
    assert_eq!((a.tx_packets, a.tx_bytes), (10, 10_000));
    assert_eq!((b.rx_packets, c.rx_packets), (0, 10), "B hears every frame and keeps none");
    assert_eq!(sim.packets_in_network(), 0, "every copy is freed");
}

#[test]
fn a_full_interface_queue_drops_packets() {
    // 40 packets at once into a queue of 5: one is sent at once, five wait.
    let (mut sim, n, nics) = lan_of(&["A", "B"], 5);
    let burst = cbr(8_000_000_000, 40);
    let f = sim.add_udp_flow("burst", n[0], n[1], burst).unwrap();
    sim.run(None).unwrap();
    let nic = sim.nic_report(nics[0]).unwrap();
    assert_eq!(nic.tx_packets, 6);
    assert_eq!(nic.queue_drops, 34);
    assert_eq!(sim.flow_report(f).unwrap().rx_packets, 6);
}

#[test]
fn nics_send_without_contention() {
    // Two senders at the LAN's full rate each deliver it all.
    let (mut sim, n, _) = lan_of(&["A", "B", "C"], 1000);
    let from_a = sim.add_udp_flow("a", n[0], n[2], cbr(10_000_000, 100)).unwrap();
    let from_b = sim.add_udp_flow("b", n[1], n[2], cbr(10_000_000, 100)).unwrap();
    sim.run(None).unwrap();
    for f in [from_a, from_b] {
        let r = sim.flow_report(f).unwrap();
        assert_eq!((r.rx_packets, r.max_delay_s), (100, Some(0.0018)), "nobody waits");
    }
}

#[test]
fn static_routes_cross_a_lan_between_links() {
    // D - A over a link, then A, B, C on a LAN: D reaches C through A.
    let (mut sim, n, nics) = lan_of(&["A", "B", "C"], 50);
    let d = sim.add_node("D");
    let (da, _) =
        sim.add_duplex(d, n[0], rate(10_000_000), Duration::from_millis(5), Discipline::ns2_drop_tail(50)).unwrap();
    let f = sim.add_udp_flow("cbr", d, n[2], cbr(1_000_000, 10)).unwrap();
    sim.run(None).unwrap();
    assert_eq!(sim.routes(d).unwrap()[n[2] as usize], Some(NextHop::Link(da)));
    assert_eq!(sim.routes(n[0]).unwrap()[n[2] as usize], Some(NextHop::Nic { nic: nics[0], neighbor: n[2] }));
    let r = sim.flow_report(f).unwrap();
    // 0.8 ms + 5 ms on the link, 0.8 ms + 1 ms across the LAN.
    assert_eq!((r.rx_packets, r.max_delay_s), (10, Some(0.0076)));
}

#[test]
fn dv_learns_routes_across_a_lan() {
    let (mut sim, n, _) = lan_of(&["A", "B", "C"], 50);
    let d = sim.add_node("D");
    sim.add_duplex(n[2], d, rate(10_000_000), Duration::from_millis(5), Discipline::ns2_drop_tail(50)).unwrap();
    for node in [n[0], n[1], n[2], d] {
        sim.set_router(node, Router::Dv(DvConfig::default())).unwrap();
    }
    let late = UdpSourceConfig { start: Instant::from_secs_f64(1.0), ..cbr(1_000_000, 10) };
    let f = sim.add_udp_flow("cbr", n[0], d, late).unwrap();
    sim.run(Some(Instant::from_secs_f64(2.0))).unwrap();
    assert_eq!(sim.flow_report(f).unwrap().rx_packets, 10, "A learnt D's route through C");
}

#[test]
fn ns2_s_lan_delays_by_its_link_layer_and_channel_and_holds_the_next_frame_for_the_mac() {
    // ns-2's make-lan: LL 1 ms each way, Channel 4 us, base Mac at 2 Mb/s.
    let mut sim = Simulation::new(1, 0);
    let n: Vec<NodeId> = ["A", "B", "C"].iter().map(|name| sim.add_node(name)).collect();
    let config = LanConfig {
        rate: rate(2_000_000),
        delay: Duration::from_micros(4),
        queue_limit: 50,
        link_layer_delay: Duration::from_millis(1),
        mac: LanMac::Ns2,
    };
    let nics = sim.add_lan(&n, config).unwrap();
    // Two 436-byte packets 0.436 us apart.
    let burst = UdpSourceConfig { size: SizeModel::Fixed(436), ..cbr(8_000_000_000, 2) };
    let f = sim.add_udp_flow("burst", n[0], n[2], burst).unwrap();
    sim.run(None).unwrap();
    let r = sim.flow_report(f).unwrap();
    // The first is up 1 ms + 4 us + 1 ms after it was sent, not after its
    // transmission; the second waits for the MAC, busy (436 + 64) bytes at
    // 2 Mb/s = 2 ms with the first.
    let (first, second) = (0.002_004, 0.004_004 - 0.000_000_436);
    assert_eq!(r.rx_packets, 2);
    assert!((r.max_delay_s.unwrap() - second).abs() < 1e-12, "{:?}", r.max_delay_s);
    assert!((r.mean_delay_s.unwrap() - (first + second) / 2.0).abs() < 1e-12, "{:?}", r.mean_delay_s);
    let a = sim.nic_report(nics[0]).unwrap();
    assert_eq!((a.tx_packets, a.tx_bytes), (2, 872), "the header costs time, not counted bytes");
}
