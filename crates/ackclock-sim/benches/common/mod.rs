//! What the whole-simulation benches share: run a freshly built simulation
//! for a fixed simulated time and report delivered packets per wall second.

use ackclock_core::Instant;
use ackclock_sim::Simulation;
use criterion::{Criterion, Throughput};

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
