//! The index read back: hops, snapshots and header from nam text, real
//! ns-2 2.35 output included (tests/fixtures).

use super::chunks::Hop;
use super::*;
use serde_json::Value;
use std::path::PathBuf;

/// A chunk decoded the simple way (the browser's decoder is viewer/src/format.ts).
#[derive(Debug)]
struct Chunk {
    t0: f64,
    snapshot: usize,
    hops: Vec<Hop>,
    counters: Vec<f64>,
    vars: Vec<(f64, f64, u32)>,
}

fn chunks(bytes: &[u8], header: &Value) -> Vec<Chunk> {
    let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    let f64_at = |b: &[u8], i: usize| f64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let offsets = header["chunks"]["offset"].as_array().unwrap();
    offsets
        .iter()
        .map(|o| {
            let b = &bytes[o.as_u64().unwrap() as usize..];
            let (n, snapshot, nv, nd) =
                (u32_at(b, 0) as usize, u32_at(b, 4) as usize, u32_at(b, 8) as usize, u32_at(b, 12) as usize);
            let f = |col: usize, i: usize| f64_at(b, 32 + 8 * (col * n + i));
            let after_f64 = 32 + 8 * (4 * n + 5 * nd + 2 * nv);
            let u = |col: usize, i: usize| u32_at(b, after_f64 + 4 * (col * n + i));
            let ends = after_f64 + 4 * (4 * n + nv) + 2 * n;
            let hops = (0..n)
                .map(|i| Hop {
                    t_start: f(0, i),
                    t_deq: f(1, i),
                    t_end: f(2, i),
                    uid: f(3, i),
                    dir: u(0, i),
                    size: u(1, i),
                    conv: u(2, i),
                    seq: u(3, i) as i32,
                    flags: u16::from_le_bytes(b[ends - 2 * n + 2 * i..][..2].try_into().unwrap()),
                    end: b[ends + i],
                })
                .collect();
            let counters = (0..5 * nd).map(|i| f64_at(b, 32 + 8 * (4 * n + i))).collect();
            let var_base = 32 + 8 * (4 * n + 5 * nd);
            let vars = (0..nv)
                .map(|i| {
                    (
                        f64_at(b, var_base + 8 * i),
                        f64_at(b, var_base + 8 * (nv + i)),
                        u32_at(b, after_f64 + 16 * n + 4 * i),
                    )
                })
                .collect();
            Chunk { t0: f64_at(b, 16), snapshot, hops, counters, vars }
        })
        .collect()
}

fn index_text(text: &str, rows_per_chunk: usize) -> Result<(Vec<u8>, Value), IndexError> {
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut builder = Builder::new(Box::new(Shared(out.clone())), rows_per_chunk, 64).unwrap();
    nam_text::read(text.as_bytes(), &mut builder)?;
    let header = builder.finish()?;
    let bytes = out.lock().unwrap().clone();
    Ok((bytes, header))
}

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name);
    std::fs::read_to_string(path).unwrap()
}

/// (time, kind, from, to, uid) of the packet lines of nam text.
fn packet_lines(text: &str) -> Vec<(f64, char, i64, i64, i64)> {
    text.lines()
        .filter(|l| l.len() > 2 && "+-hrd".contains(&l[..1]) && &l[1..2] == " ")
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let flag = |f: &str| w[w.iter().position(|x| *x == f).unwrap() + 1];
            (
                flag("-t").parse().unwrap(),
                l.as_bytes()[0] as char,
                flag("-s").parse().unwrap(),
                flag("-d").parse().unwrap(),
                flag("-i").parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_header_of_ns2s_basic1_keeps_its_topology_and_colours() {
    let (_, h) = index_text(&fixture("basic1-head.nam"), 64).unwrap();
    assert_eq!(h["nodes"].as_array().unwrap().len(), 3);
    let links = h["links"].as_array().unwrap();
    assert_eq!((links[1]["src"].as_i64(), links[1]["dst"].as_i64()), (Some(1), Some(2)));
    assert_eq!((links[1]["bandwidth"].as_f64(), links[1]["delay"].as_f64()), (Some(800_000.0), Some(0.05)));
    assert_eq!(links[0]["orient"], "right");
    assert_eq!(h["colors"]["0"], "Red");
    let dirs = h["dirs"].as_array().unwrap();
    let r_to_b = dirs.iter().find(|d| d["from"] == 1 && d["to"] == 2).unwrap();
    assert_eq!((r_to_b["queue_pos"].as_str(), r_to_b["link"].as_u64()), (Some("0.5"), Some(1)));
    assert_eq!(h["fall_s"], 0.05);
    assert_eq!(h["convs"][0]["src"], "0.0");
    assert_eq!(h["flags"][0], "-------");
}

#[test]
fn every_hop_of_basic1_matches_the_records_of_ns2s_nam_file_in_every_chunk_size() {
    let text = fixture("basic1-head.nam");
    let lines = packet_lines(&text);
    for rows_per_chunk in [7, 64, 1 << 15] {
        let (bytes, h) = index_text(&text, rows_per_chunk).unwrap();
        let dirs = h["dirs"].as_array().unwrap();
        let dir_of = |i: u32| (dirs[i as usize]["from"].as_i64().unwrap(), dirs[i as usize]["to"].as_i64().unwrap());
        let chunks = chunks(&bytes, &h);
        let mut seen = 0;
        for c in &chunks {
            for &Hop { t_start, t_deq, t_end, uid, dir, size, end, .. } in &c.hops[c.snapshot..] {
                seen += 1;
                let (from, to) = dir_of(dir);
                let of_hop: Vec<_> = lines.iter().filter(|l| l.4 == uid as i64 && (l.2, l.3) == (from, to)).collect();
                assert_eq!(of_hop[0].0, t_start);
                assert_eq!(of_hop[0].1, '+');
                let last = of_hop.last().unwrap();
                match end {
                    1 => assert_eq!((last.1, last.0), ('r', t_end)),
                    2 => assert_eq!((last.1, last.0, t_deq.is_nan()), ('d', t_end, true)),
                    _ => assert!(t_end.is_infinite() && last.0 <= 1.0),
                }
                match of_hop.iter().find(|l| l.1 == '-') {
                    Some(dequeue) => assert_eq!(dequeue.0, t_deq),
                    None => assert!(t_deq.is_nan()),
                }
                assert!(size == 40 || size == 1000);
            }
            // The snapshot holds exactly the hops started before t0 and not ended by it.
            for &Hop { t_start, t_end, end, .. } in &c.hops[..c.snapshot] {
                assert!(t_start < c.t0 && (t_end >= c.t0 || (end == 2 && t_end + 0.05 >= c.t0)));
            }
        }
        assert_eq!(seen, lines.iter().filter(|l| l.1 == '+').count());
        assert_eq!(h["hops"].as_u64().unwrap() as usize, seen);
        let drops: Vec<_> =
            chunks.iter().flat_map(|c| c.hops[c.snapshot..].iter()).filter(|h| h.end == 2).map(|h| h.t_end).collect();
        assert_eq!(drops, [0.58616, 0.59616]);
    }
}

#[test]
fn chunk_counters_count_the_events_before_the_chunk() {
    let text = fixture("basic1-head.nam");
    let lines = packet_lines(&text);
    let (bytes, h) = index_text(&text, 16).unwrap();
    let dirs = h["dirs"].as_array().unwrap();
    for c in chunks(&bytes, &h).iter().skip(1) {
        for (d, dir) in dirs.iter().enumerate() {
            let (from, to) = (dir["from"].as_i64().unwrap(), dir["to"].as_i64().unwrap());
            let count = |kind: char| {
                lines.iter().filter(|l| l.1 == kind && (l.2, l.3) == (from, to) && l.0 < c.t0).count() as f64
            };
            assert_eq!(&c.counters[5 * d..5 * d + 2], &[count('+'), count('-')]);
            assert_eq!((c.counters[5 * d + 3], c.counters[5 * d + 4]), (count('r'), count('d')));
        }
    }
}

#[test]
fn wireless_hops_run_from_sender_to_next_hop() {
    // Real ns-2 2.35 records (the seed's wireless.tcl), trimmed: node 0
    // sends to 1 at the routing level, 1 forwards to 5, 5's agent receives.
    let text = "\
n -t * -s 0  -x 0 -y 50 -Z 0 -z 10  -v circle -c black
n -t * -s 5  -x 0 -y 200 -Z 0 -z 20  -v circle -c black
W -t * -x 801 -y 300
n -t 0.000000 -s 5 -x 0.000000 -y 200.000000 -U 8.010000 -V 0.000000 -T 99.875156
h -t 30.003200000 -s 0 -d -1 -p cbr -e 512 -c 2 -a 0 -i 1465 -k AGT
+ -t 30.003200000 -s 0 -d 1 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR 
- -t 30.003200000 -s 0 -d 1 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR
h -t 30.003200000 -s 0 -d 1 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR
+ -t 30.008738000 -s 1 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR 
- -t 30.008738000 -s 1 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR
h -t 30.008738000 -s 1 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1465 -k RTR
r -t 30.015039553 -s 5 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1465 -k AGT
h -t 30.1 -s 0 -d -1 -p AODV -e 48 -c 2 -a 0 -i 7 -k RTR
r -t 30.10141 -s 1 -d -1 -p AODV -e 48 -c 2 -a 0 -i 7 -k RTR
d -t 30.2 -s 0 -d 5 -p cbr -e 532 -c 2 -a 0 -i 1466 -k RTR
";
    let (bytes, h) = index_text(text, 64).unwrap();
    assert_eq!(h["wireless"]["width"], 801.0);
    assert_eq!(h["motions"][0], serde_json::json!([0.0, 5, 0.0, 200.0, 8.01, 0.0, 99.875156]));
    let dirs = h["dirs"].as_array().unwrap();
    let hops: Vec<_> = chunks(&bytes, &h)[0]
        .hops
        .iter()
        .map(|x| {
            (
                dirs[x.dir as usize]["from"].as_i64().unwrap(),
                dirs[x.dir as usize]["to"].as_i64().unwrap(),
                x.t_deq,
                x.t_end,
                x.end,
            )
        })
        .collect();
    let nan_as_minus_one = |x: f64| if x.is_nan() { -1.0 } else { x };
    let hops: Vec<_> = hops.into_iter().map(|(a, b, c, d, e)| (a, b, nan_as_minus_one(c), d, e)).collect();
    assert_eq!(
        hops,
        [
            (0, 1, 30.0032, 30.008738, 1),
            (1, 5, 30.008738, 30.015039553, 1),
            (0, -1, 30.1, 30.10141, 1),
            (0, 5, -1.0, 30.2, 2)
        ]
    );
}

#[test]
fn ns2_variable_lines_and_labels_and_annotations_are_kept() {
    let text = "\
n -t 0 -s 0 -S DLABEL -l \"Sender A\" -L \"\"
V -t * -v 1.0a5 -a 0
l -t * -s 0 -d 1 -S UP -r 1000000 -D 0.01 -c blue
0.00000  0  0  -1 -1 cwnd_ 1.000 
v -t 0.2 -e sim_annotation 0.2 1 cbr started, now with spaces
0.12086  0  0  2  0  cwnd_ 2.000 
n -t 0.29999999999999999 -s 1 -S DLABEL -l \"Late label\" -L \"\"
l -t 0.4 -s 0 -d 1 -S DOWN
m -t 0.6 -s 0 -n m1 -c blue -h circle
";
    let (bytes, h) = index_text(text, 64).unwrap();
    assert_eq!(h["nodes"][0]["label"], "Sender A");
    assert_eq!(h["annotations"][0], serde_json::json!([0.2, "cbr started, now with spaces"]));
    assert_eq!(h["series"], serde_json::json!([{"agent": "0.0", "peer": "2.0", "name": "cwnd_"}]));
    let kinds: Vec<_> = h["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["node-label", "link-state", "mark"]);
    assert_eq!(chunks(&bytes, &h)[0].vars, [(0.0, 1.0, 0), (0.12086, 2.0, 0)]);
    assert_eq!(h["ignored"]["V"], 1);
}

#[test]
fn bad_lines_are_reported_with_their_number() {
    let err = |text: &str| index_text(text, 64).unwrap_err().to_string();
    assert_eq!(err("V -t * -v 1.0a5\n+ -t 0.5x -s 0 -d 1 -i 1\n"), "line 2: -t '0.5x' is not a number");
    assert_eq!(
        err("+ -t 1 -s 0 -d 1 -i 1\n\n- -t 0.5 -s 0 -d 1 -i 1\n"),
        "line 3: time 0.5 comes after 1: packet records must be in time order"
    );
    assert_eq!(err("+ -t 1 -d 1 -i 1\n"), "line 1: no -s");
    assert_eq!(err("hello world\n"), "line 1: 'hello' is not a nam record");
    assert_eq!(err("1.0 2 3\n"), "line 1: '1.0 2 3' is neither a nam record nor an ns-2 variable record");
}
