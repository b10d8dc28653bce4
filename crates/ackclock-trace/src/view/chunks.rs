//! Stage two of indexing: complete hops, in order of their start, become
//! time chunks. A chunk holds every hop that starts in it plus a snapshot
//! of the hops still queued, in flight or falling (dropped less than
//! `fall_s` ago) at its start, so that one chunk alone draws any instant
//! in it: seeking reads one chunk.
//!
//! Chunk layout (little-endian; columns aligned to their size):
//!
//! | bytes        | what |
//! |--------------|------|
//! | 4 × u32      | rows, snapshot rows (the first ones), variable rows, link directions |
//! | 2 × f64      | t0, t1 |
//! | f64 × rows   | t_start, t_deq (NaN: never sent), t_end (inf: never ended), uid |
//! | f64 × dirs×5 | counters at t0 per direction: arrivals, departures, bytes departed, received, dropped |
//! | f64 × vars   | variable times, then values (the first rows: each series' value at t0) |
//! | u32 × rows   | direction, size, conversation, sequence (i32) |
//! | u32 × vars   | variable series |
//! | u16 × rows   | flags string |
//! | u8 × rows    | end: 0 unknown, 1 received, 2 dropped |

use std::collections::VecDeque;
use std::io::{self, Write};

pub const END_UNKNOWN: u8 = 0;
pub const END_RECEIVED: u8 = 1;
pub const END_DROPPED: u8 = 2;

/// One packet's passage over one link direction (or one wireless hop).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hop {
    pub t_start: f64,
    pub t_deq: f64,
    pub t_end: f64,
    pub end: u8,
    pub dir: u32,
    pub uid: f64,
    pub size: u32,
    pub conv: u32,
    pub seq: i32,
    pub flags: u16,
}

impl Hop {
    /// Per direction: arrivals, departures, bytes departed, received, dropped,
    /// counting only this hop's events before `t`.
    fn count_before(&self, t: f64, counters: &mut [f64; 5]) {
        if self.t_start < t {
            counters[0] += 1.0;
        }
        if self.t_deq < t {
            counters[1] += 1.0;
            counters[2] += f64::from(self.size);
        }
        if self.t_end < t {
            match self.end {
                END_RECEIVED => counters[3] += 1.0,
                END_DROPPED => counters[4] += 1.0,
                _ => {}
            }
        }
    }
}

pub struct ChunkIndex {
    pub t0: f64,
    pub t1: f64,
    pub offset: u64,
    pub length: u64,
    pub rows: u32,
    /// Of which the first ones are the snapshot (hops of earlier chunks).
    pub snapshot: u32,
}

pub struct Chunks {
    /// Hops per chunk, past which a chunk ends at the next new start time.
    rows_per_chunk: usize,
    pub fall_s: f64,
    /// Hops from earlier chunks still alive (or falling) at `t0`.
    alive: Vec<Hop>,
    rows: Vec<Hop>,
    t0: Option<f64>,
    /// (time, series, value) not yet in a chunk, in time order.
    vars: VecDeque<(f64, u32, f64)>,
    /// Each series' latest (time, value) in the chunks written.
    var_last: Vec<Option<(f64, f64)>>,
    /// Counters of hops no longer in any snapshot, per direction.
    retired: Vec<[f64; 5]>,
    pub index: Vec<ChunkIndex>,
    pub bytes: u64,
}

impl Chunks {
    pub fn new(rows_per_chunk: usize, offset: u64) -> Self {
        Chunks {
            rows_per_chunk,
            fall_s: 0.0,
            alive: Vec::new(),
            rows: Vec::new(),
            t0: None,
            vars: VecDeque::new(),
            var_last: Vec::new(),
            retired: Vec::new(),
            index: Vec::new(),
            bytes: offset,
        }
    }

    pub fn variable(&mut self, t: f64, series: u32, value: f64) {
        self.vars.push_back((t, series, value));
    }

    /// Adds a complete hop; hops come in order of `t_start`.
    pub fn push(&mut self, hop: Hop, dirs: usize, out: &mut dyn Write) -> io::Result<()> {
        let t0 = *self.t0.get_or_insert(hop.t_start);
        if self.rows.len() >= self.rows_per_chunk && self.rows.last().is_some_and(|h| hop.t_start > h.t_start) {
            self.cut(t0, hop.t_start, dirs, out)?;
            self.t0 = Some(hop.t_start);
        }
        self.rows.push(hop);
        Ok(())
    }

    /// Writes what is left as the last chunk.
    pub fn finish(&mut self, t_last: f64, dirs: usize, out: &mut dyn Write) -> io::Result<()> {
        let t0 = self.t0.or(self.vars.front().map(|v| v.0));
        if let Some(t0) = t0 {
            self.cut(t0, f64::INFINITY, dirs, out)?;
            if let Some(last) = self.index.last_mut() {
                last.t1 = t_last.max(last.t0);
            }
        }
        Ok(())
    }

    fn still_shown(&self, h: &Hop, t: f64) -> bool {
        h.t_end >= t || (h.end == END_DROPPED && h.t_end + self.fall_s >= t)
    }

    fn cut(&mut self, t0: f64, t1: f64, dirs: usize, out: &mut dyn Write) -> io::Result<()> {
        self.retired.resize(dirs, [0.0; 5]);
        let mut counters = self.retired.clone();
        for h in &self.alive {
            h.count_before(t0, &mut counters[h.dir as usize]);
        }
        // Each series' value at t0, then the changes in [t0, t1).
        let mut vars: Vec<(f64, u32, f64)> =
            self.var_last.iter().enumerate().filter_map(|(s, last)| last.map(|(t, v)| (t, s as u32, v))).collect();
        while self.vars.front().is_some_and(|v| v.0 < t1) {
            let (t, s, v) = self.vars.pop_front().expect("checked");
            if self.var_last.len() <= s as usize {
                self.var_last.resize(s as usize + 1, None);
            }
            self.var_last[s as usize] = Some((t, v));
            vars.push((t, s, v));
        }
        let snapshot = self.alive.len();
        let rows: Vec<Hop> = self.alive.drain(..).chain(self.rows.drain(..)).collect();
        let bytes = encode(t0, t1, &rows, snapshot, &counters, &vars);
        out.write_all(&bytes)?;
        self.index.push(ChunkIndex {
            t0,
            t1,
            offset: self.bytes,
            length: bytes.len() as u64,
            rows: rows.len() as u32,
            snapshot: snapshot as u32,
        });
        self.bytes += bytes.len() as u64;
        for h in rows {
            if self.still_shown(&h, t1) {
                self.alive.push(h);
            } else {
                h.count_before(f64::INFINITY, &mut self.retired[h.dir as usize]);
            }
        }
        Ok(())
    }
}

fn encode(t0: f64, t1: f64, rows: &[Hop], snapshot: usize, counters: &[[f64; 5]], vars: &[(f64, u32, f64)]) -> Vec<u8> {
    let mut b = Vec::with_capacity(32 + rows.len() * 51 + vars.len() * 20 + counters.len() * 40 + 8);
    for n in [rows.len(), snapshot, vars.len(), counters.len()] {
        b.extend_from_slice(&(n as u32).to_le_bytes());
    }
    b.extend_from_slice(&t0.to_le_bytes());
    b.extend_from_slice(&t1.to_le_bytes());
    let f64s =
        |b: &mut Vec<u8>, f: &dyn Fn(&Hop) -> f64| rows.iter().for_each(|h| b.extend_from_slice(&f(h).to_le_bytes()));
    f64s(&mut b, &|h| h.t_start);
    f64s(&mut b, &|h| h.t_deq);
    f64s(&mut b, &|h| h.t_end);
    f64s(&mut b, &|h| h.uid);
    counters.iter().flatten().for_each(|c| b.extend_from_slice(&c.to_le_bytes()));
    vars.iter().for_each(|v| b.extend_from_slice(&v.0.to_le_bytes()));
    vars.iter().for_each(|v| b.extend_from_slice(&v.2.to_le_bytes()));
    let u32s =
        |b: &mut Vec<u8>, f: &dyn Fn(&Hop) -> u32| rows.iter().for_each(|h| b.extend_from_slice(&f(h).to_le_bytes()));
    u32s(&mut b, &|h| h.dir);
    u32s(&mut b, &|h| h.size);
    u32s(&mut b, &|h| h.conv);
    u32s(&mut b, &|h| h.seq as u32);
    vars.iter().for_each(|v| b.extend_from_slice(&v.1.to_le_bytes()));
    rows.iter().for_each(|h| b.extend_from_slice(&h.flags.to_le_bytes()));
    rows.iter().for_each(|h| b.push(h.end));
    b.resize(b.len().next_multiple_of(8), 0);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(t_start: f64, t_deq: f64, t_end: f64, end: u8) -> Hop {
        Hop { t_start, t_deq, t_end, end, dir: 0, uid: 0.0, size: 100, conv: 0, seq: 0, flags: 0 }
    }

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn a_chunk_snapshots_the_hops_alive_and_falling_at_its_start() {
        let mut out = Vec::new();
        let mut c = Chunks::new(3, 0);
        c.fall_s = 0.5;
        c.push(hop(0.0, 0.1, 0.2, END_RECEIVED), 1, &mut out).unwrap(); // gone by 1.0
        c.push(hop(0.5, 0.6, 5.0, END_RECEIVED), 1, &mut out).unwrap(); // alive at 1.0
        c.push(hop(0.7, f64::NAN, 0.8, END_DROPPED), 1, &mut out).unwrap(); // falling until 1.3
        c.push(hop(1.0, 1.0, 1.5, END_RECEIVED), 1, &mut out).unwrap();
        c.finish(2.0, 1, &mut out).unwrap();
        assert_eq!(c.index.len(), 2);
        assert_eq!((c.index[0].t0, c.index[0].t1, c.index[0].rows), (0.0, 1.0, 3));
        // Chunk 2: the two hops still shown at 1.0, then its own.
        let second = &out[c.index[1].offset as usize..];
        assert_eq!((u32_at(second, 0), u32_at(second, 4)), (3, 2));
        assert_eq!((c.index[1].t0, c.index[1].t1), (1.0, 2.0));
        // Counters at 1.0: three arrivals, two departures (200 bytes), one received, one dropped.
        let counters: Vec<f64> =
            (0..5).map(|i| f64::from_le_bytes(second[32 + 3 * 32 + 8 * i..][..8].try_into().unwrap())).collect();
        assert_eq!(counters, [3.0, 2.0, 200.0, 1.0, 1.0]);
    }
}
