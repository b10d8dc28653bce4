//! Whole-simulation throughput without TCP: two CBR senders overload a
//! dumbbell bottleneck for 60 simulated seconds. Reports delivered packets
//! per wall second via criterion's throughput.

use ackclock_core::{Bandwidth, Instant};
use ackclock_sim::{Simulation, SizeModel, Traffic, UdpSourceConfig};
use criterion::{criterion_group, criterion_main, Criterion};

mod common;

const SIM_SECONDS: u64 = 60;

fn dumbbell() -> Simulation {
    let mut sim = Simulation::new(1, 0);
    let n: Vec<u32> = ["s1", "s2", "r", "l", "d"].iter().map(|name| sim.add_node(name)).collect();
    common::duplex(&mut sim, n[0], n[2], 80_000_000, 10, 100);
    common::duplex(&mut sim, n[1], n[2], 80_000_000, 10, 100);
    common::duplex(&mut sim, n[2], n[3], 8_000_000, 100, 20);
    common::duplex(&mut sim, n[3], n[4], 80_000_000, 10, 100);
    for (i, &src) in [n[0], n[1]].iter().enumerate() {
        let config = UdpSourceConfig {
            traffic: Traffic::Cbr { rate: Bandwidth::from_bps(5_000_000).unwrap(), jitter: false },
            size: SizeModel::Fixed(1000),
            start: Instant::ZERO,
            stop: None,
            max_packets: None,
            ecn: false,
            label: None,
        };
        sim.add_udp_flow(&format!("cbr{i}"), src, n[4], config).unwrap();
    }
    sim
}

fn delivered(sim: &Simulation) -> u64 {
    (0..sim.flow_count() as u32).map(|f| sim.flow_report(f).unwrap().rx_packets).sum()
}

fn bench(c: &mut Criterion) {
    common::bench_delivered(c, ("udp_dumbbell_60s", "delivered_packets"), SIM_SECONDS, dumbbell, delivered);
}

criterion_group!(benches, bench);
criterion_main!(benches);
