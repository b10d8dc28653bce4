//! What the whole-simulation benches share: the dumbbell's links, and
//! running a freshly built simulation for a fixed simulated time to report
//! delivered packets per wall second.

use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_net::{Discipline, NodeId};
use ackclock_sim::Simulation;
use criterion::{Criterion, Throughput};

/// An ns-2 `duplex-link` with a DropTail queue of `limit` packets.
pub fn duplex(sim: &mut Simulation, a: NodeId, b: NodeId, bps: u64, ms: u64, limit: u32) {
    let rate = Bandwidth::from_bps(bps).unwrap();
    sim.add_duplex(a, b, rate, Duration::from_millis(ms), Discipline::ns2_drop_tail(limit)).unwrap();
}

/// Benchmarks `build` + run for `seconds`; the throughput is what
/// `delivered` counts after one probe run.
pub fn bench_delivered(
    c: &mut Criterion,
    (group, function): (&str, &str),
    seconds: u64,
    build: fn() -> Simulation,
    delivered: fn(&Simulation) -> u64,
) {
    let until = Some(Instant::from_ps(seconds * 1_000_000_000_000));
    let mut probe = build();
    probe.run(until).unwrap();
    eprintln!("one run: {} events, {} delivered", probe.events(), delivered(&probe));
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(delivered(&probe)));
    group.sample_size(10);
    group.bench_function(function, |b| {
        b.iter(|| {
            let mut sim = build();
            sim.run(until).unwrap();
            sim
        })
    });
    group.finish();
}
