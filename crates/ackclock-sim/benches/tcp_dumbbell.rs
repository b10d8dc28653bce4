//! Seed 003 §16.3's two-sender dumbbell: 80 Mbit/s access links with 10 ms
//! delay, an 8 Mbit/s bottleneck with 100 ms delay and a 20-packet
//! DropTail queue, two Reno bulk flows of 960-byte segments, 3000 simulated
//! seconds. Throughput is delivered data packets per wall second.

use ackclock_core::Instant;
use ackclock_sim::{Simulation, TcpApp, TcpFlowConfig};
use ackclock_tcp::{CcKind, Reader, TcpConfig};
use criterion::{criterion_group, criterion_main, Criterion};

mod common;

const SIM_SECONDS: u64 = 3000;

fn dumbbell() -> Simulation {
    let mut sim = Simulation::new(1, 0);
    let n: Vec<u32> = ["A", "B", "R", "D"].iter().map(|name| sim.add_node(name)).collect();
    common::duplex(&mut sim, n[0], n[2], 80_000_000, 10, 100);
    common::duplex(&mut sim, n[1], n[2], 80_000_000, 10, 100);
    common::duplex(&mut sim, n[2], n[3], 8_000_000, 100, 20);
    let tcp = TcpConfig { cc: CcKind::Ns2Reno, max_window: Some(65_000 * 960), ..TcpConfig::ns2(960) };
    for (i, &src) in [n[0], n[1]].iter().enumerate() {
        let flow = TcpFlowConfig {
            client: tcp.clone(),
            server: tcp.clone(),
            app: TcpApp::Bulk { bytes: None },
            start: Instant::ZERO,
            server_start: Instant::ZERO,
            reader: Reader::AtOnce,
            record_series: false,
            label: None,
        };
        sim.add_tcp_flow(&format!("reno{i}"), src, n[3], flow).unwrap();
    }
    sim
}

fn delivered_segments(sim: &Simulation) -> u64 {
    (0..sim.flow_count() as u32).map(|f| sim.flow_report(f).unwrap().tcp.unwrap().bytes_delivered / 960).sum()
}

fn bench(c: &mut Criterion) {
    common::bench_delivered(c, ("tcp_dumbbell_3000s", "delivered_segments"), SIM_SECONDS, dumbbell, delivered_segments);
}

criterion_group!(benches, bench);
criterion_main!(benches);
