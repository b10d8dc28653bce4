//! Raw event throughput: a steady-state "hold" workload, where each popped
//! event schedules one successor at a random offset, keeping the pending
//! set at a fixed size, as a simulation does.

use ackclock_core::{Duration, EventQueue, Instant, RngStreams};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::RngExt;

const EVENTS: u64 = 100_000;

fn hold(c: &mut Criterion) {
    let mut group = c.benchmark_group("event_queue_hold");
    group.throughput(Throughput::Elements(EVENTS));
    for pending in [16usize, 1_024, 65_536] {
        group.bench_function(format!("pending_{pending}"), |b| {
            b.iter_batched(
                || {
                    let mut rng = RngStreams::new(1, 0).stream("bench");
                    let mut q = EventQueue::new();
                    for i in 0..pending {
                        q.schedule(Instant::from_ps(rng.random_range(0..1_000_000)), i as u32);
                    }
                    (q, rng)
                },
                |(mut q, mut rng)| {
                    for _ in 0..EVENTS {
                        let (now, e) = q.pop().expect("the pending set never empties");
                        q.schedule(now + Duration::from_ps(rng.random_range(0..1_000_000)), e);
                    }
                    q
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, hold);
criterion_main!(benches);
