//! Indexing nam text for `ackclock view`: the first open of a long trace
//! costs this per line. The input is real ns-2 2.35 output (basic1.tcl's
//! first 0.6 s, tests/fixtures) repeated with shifted times and packet ids
//! to a million lines, as in a long run of the same network.

use ackclock_trace::view::{read_nam, Builder, OVERVIEW_BINS, ROWS_PER_CHUNK};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write as _;

const COPIES: usize = 3000;

fn trace() -> (String, u64) {
    let head = include_str!("../../../tests/fixtures/basic1-head.nam");
    let (header, packets): (Vec<&str>, Vec<&str>) = head.lines().partition(|l| l.contains("-t *"));
    let mut text = header.join("\n") + "\n";
    for copy in 0..COPIES {
        for line in &packets {
            let words: Vec<&str> = line.split(' ').collect();
            let t: f64 = words[2].parse().unwrap();
            let uid: u64 = words[16].parse().unwrap();
            let shifted = format!("{}", t + copy as f64);
            let _ = writeln!(
                text,
                "{} -t {} {} -i {} {}",
                words[0],
                shifted,
                words[3..15].join(" "),
                uid + 1000 * copy as u64,
                words[17..].join(" ")
            );
        }
    }
    (text, (COPIES * packets.len()) as u64)
}

fn bench(c: &mut Criterion) {
    let (text, lines) = trace();
    let mut group = c.benchmark_group("view_index");
    group.sample_size(10);
    group.throughput(Throughput::Elements(lines));
    group.bench_function("basic1_nam_lines", |b| {
        b.iter(|| {
            let mut builder = Builder::new(Box::new(std::io::sink()), ROWS_PER_CHUNK, OVERVIEW_BINS).unwrap();
            read_nam(text.as_bytes(), &mut builder).unwrap();
            builder.finish().unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
