//! Stage one of indexing: packet events (from nam text or straight from a
//! simulation) become hops, one per packet per link direction, and the
//! whole-run series. Events arrive in time order; a hop is handed to the
//! chunk writer once it has ended and every hop that started before it has
//! been handed on, so hops leave in order of their start.
//!
//! Wired records pair by (packet id, link direction): `+` starts a hop in
//! the queue, `-` (or `h`) starts its transmission, `r` or `d` ends it.
//! Wireless records (those with `-k`, written by ns-2's CMU trace) name the
//! node where they happen and the next hop (-1: broadcast): a transmission
//! starts at an `h` below the agent level and ends when the packet shows up
//! at its next hop (or, broadcast, at any other node), or is dropped.

use super::chunks::{Chunks, Hop, END_DROPPED, END_RECEIVED, END_UNKNOWN};
use super::overview::{Merge, Overview};
use super::topology::Topology;
use super::IndexError;
use crate::tracer::Output;
use rustc_hash::FxHashMap;
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;

/// One packet record: the fields of a nam `+ - h r d` line.
pub struct PacketLine<'a> {
    pub kind: u8,
    pub time: f64,
    pub from: i64,
    pub to: i64,
    pub ptype: &'a [u8],
    pub size: i64,
    pub fid: i64,
    pub uid: i64,
    pub attr: i64,
    /// `node.port` of the packet's source and destination (wired records).
    pub src: &'a [u8],
    pub dst: &'a [u8],
    pub seq: i64,
    pub flags: &'a [u8],
    /// The trace level of a wireless record (AGT, RTR, MAC, IFQ).
    pub layer: Option<&'a [u8]>,
}

/// What makes packets of one conversation look alike: the key of their colour
/// and of the throughput series.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Conv {
    ptype: String,
    fid: i64,
    attr: i64,
    src: String,
    dst: String,
    layer: Option<String>,
}

impl Conv {
    fn matches(&self, p: &PacketLine) -> bool {
        self.fid == p.fid
            && self.attr == p.attr
            && self.ptype.as_bytes() == p.ptype
            && self.src.as_bytes() == p.src
            && self.dst.as_bytes() == p.dst
            && self.layer.as_deref().map(str::as_bytes) == p.layer
    }

    /// The node the packet is for: the node part of `dst`.
    fn dst_node(&self) -> Option<i64> {
        self.dst.split('.').next().and_then(|n| n.parse().ok())
    }
}

struct Slot {
    hop: Hop,
    open: bool,
    /// Its key in `wired` or `wireless`, to forget it when it is forced out.
    key: (i64, u32),
    wireless: bool,
}

/// A wired link direction's queue, for the whole-run series.
#[derive(Clone, Copy, Default)]
struct QueueLevel {
    packets: f64,
    since: f64,
}

/// Overview columns of one direction and of one conversation.
#[derive(Clone, Copy)]
struct DirColumns {
    queue_max: usize,
    queue_integral: usize,
    departed_bytes: usize,
    drops: usize,
}

/// Builds the viewer's index of one trace.
pub struct Builder {
    out: Output,
    topology: Topology,
    convs: Vec<Conv>,
    conv_index: FxHashMap<Conv, u32>,
    /// Recently used conversations, checked before hashing.
    recent: [u32; 4],
    conv_delivered: Vec<usize>,
    flags: Vec<String>,
    ptypes: Vec<String>,
    series: Vec<(String, String, String)>,
    series_columns: Vec<[usize; 3]>,
    dir_columns: Vec<Option<DirColumns>>,
    queues: Vec<QueueLevel>,
    wired: FxHashMap<(i64, u32), u64>,
    wireless: FxHashMap<(i64, u32), Vec<u64>>,
    /// Hops by order of start, from number `first` on.
    slots: VecDeque<Slot>,
    first: u64,
    max_pending: usize,
    /// Mean duration of ended wireless transmissions: how long one that
    /// never arrives is shown.
    air_time: (f64, f64),
    chunks: Chunks,
    overview: Overview,
    last_time: f64,
    first_time: Option<f64>,
    events: u64,
    ignored: BTreeMap<char, u64>,
}

/// Hops held back waiting for an earlier one to end, past which the oldest
/// is written as never ending.
const MAX_PENDING: usize = 1 << 20;
/// A wireless transmission that has not arrived after this long never will.
const MAX_AIR_S: f64 = 1.0;
const MAGIC: &[u8; 8] = b"ACKVIEW1";
const END_MAGIC: &[u8; 8] = b"ACKVEND1";
/// The index format's version, in its header.
pub const FORMAT_VERSION: u32 = 1;

impl Builder {
    pub fn new(mut out: Output, rows_per_chunk: usize, overview_bins: usize) -> std::io::Result<Self> {
        out.write_all(MAGIC)?;
        Ok(Builder {
            out,
            topology: Topology::default(),
            convs: Vec::new(),
            conv_index: FxHashMap::default(),
            recent: [u32::MAX; 4],
            conv_delivered: Vec::new(),
            flags: Vec::new(),
            ptypes: Vec::new(),
            series: Vec::new(),
            series_columns: Vec::new(),
            dir_columns: Vec::new(),
            queues: Vec::new(),
            wired: FxHashMap::default(),
            wireless: FxHashMap::default(),
            slots: VecDeque::new(),
            first: 0,
            max_pending: MAX_PENDING,
            air_time: (0.0, 0.0),
            chunks: Chunks::new(rows_per_chunk, MAGIC.len() as u64),
            overview: Overview::new(overview_bins),
            last_time: f64::NEG_INFINITY,
            first_time: None,
            events: 0,
            ignored: BTreeMap::new(),
        })
    }

    /// Nodes, links, colours and the rest that is not packets.
    pub fn topology(&mut self) -> &mut Topology {
        &mut self.topology
    }

    pub fn ignored(&mut self, letter: u8) {
        *self.ignored.entry(letter as char).or_default() += 1;
    }

    /// A traced variable of the agent at node.port `agent` (its peer at
    /// `peer`): one series per agent and name, whatever the peer (ns-2 prints
    /// -1 -1 before the connection). An agent not yet attached (-1) has none.
    pub fn variable(&mut self, t: f64, agent: (&str, &str), peer: (&str, &str), name: &str, value: f64) {
        if agent.0 == "-1" {
            return;
        }
        let is = |key: &str, (node, port): (&str, &str)| {
            key.len() == node.len() + 1 + port.len() && key.starts_with(node) && key.ends_with(port)
        };
        let s = match self.series.iter().position(|(a, _, n)| n == name && is(a, agent)) {
            Some(s) => s,
            None => {
                let s = self.series.len();
                let columns = [
                    self.overview.add_column(format!("var_min:{s}"), Merge::Min),
                    self.overview.add_column(format!("var_max:{s}"), Merge::Max),
                    self.overview.add_column(format!("var_last:{s}"), Merge::Last),
                ];
                self.series.push((format!("{}.{}", agent.0, agent.1), String::new(), name.to_string()));
                self.series_columns.push(columns);
                s
            }
        };
        if peer.0 != "-1" && !is(&self.series[s].1, peer) {
            self.series[s].1 = format!("{}.{}", peer.0, peer.1);
        }
        for c in self.series_columns[s] {
            self.overview.add(c, t, value);
        }
        self.chunks.variable(t, s as u32, value);
    }

    // --- packets ------------------------------------------------------------------

    pub fn packet(&mut self, p: &PacketLine) -> Result<(), String> {
        if p.time < self.last_time {
            return Err(format!(
                "time {} comes after {}: packet records must be in time order",
                p.time, self.last_time
            ));
        }
        self.last_time = p.time;
        self.first_time.get_or_insert(p.time);
        self.events += 1;
        if self.chunks.fall_s == 0.0 {
            // Drops fall for as long as a packet takes over the longest link.
            self.chunks.fall_s = self.topology.max_delay().filter(|&d| d > 0.0).unwrap_or(0.05).min(1.0);
        }
        let conv = self.conv(p);
        match p.layer {
            None => self.wired_packet(p, conv),
            Some(layer) => self.wireless_packet(p, conv, layer),
        }
        self.release().map_err(|e| format!("writing the index: {e}"))
    }

    fn conv(&mut self, p: &PacketLine) -> u32 {
        for &c in &self.recent {
            if (c as usize) < self.convs.len() && self.convs[c as usize].matches(p) {
                return c;
            }
        }
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let key = Conv {
            ptype: text(p.ptype),
            fid: p.fid,
            attr: p.attr,
            src: text(p.src),
            dst: text(p.dst),
            layer: p.layer.map(text),
        };
        let c = match self.conv_index.get(&key) {
            Some(&c) => c,
            None => {
                let c = self.convs.len() as u32;
                self.conv_delivered.push(self.overview.add_column(format!("delivered:{c}"), Merge::Sum));
                self.conv_index.insert(key.clone(), c);
                self.convs.push(key);
                c
            }
        };
        self.recent.rotate_right(1);
        self.recent[0] = c;
        c
    }

    fn flags(&mut self, flags: &[u8]) -> u16 {
        match self.flags.iter().position(|f| f.as_bytes() == flags) {
            Some(i) => i as u16,
            None if self.flags.len() < usize::from(u16::MAX) => {
                self.flags.push(String::from_utf8_lossy(flags).into_owned());
                (self.flags.len() - 1) as u16
            }
            None => u16::MAX,
        }
    }

    fn ptype(&mut self, ptype: &[u8]) -> u32 {
        match self.ptypes.iter().position(|p| p.as_bytes() == ptype) {
            Some(i) => i as u32,
            None => {
                self.ptypes.push(String::from_utf8_lossy(ptype).into_owned());
                (self.ptypes.len() - 1) as u32
            }
        }
    }

    fn new_hop(&mut self, p: &PacketLine, dir: u32, conv: u32, key: (i64, u32), wireless: bool) -> u64 {
        let flags = self.flags(p.flags);
        let hop = Hop {
            t_start: p.time,
            t_deq: f64::NAN,
            t_end: f64::INFINITY,
            end: END_UNKNOWN,
            dir,
            uid: p.uid as f64,
            size: p.size.clamp(0, i64::from(u32::MAX)) as u32,
            conv,
            seq: p.seq.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            flags,
        };
        self.slots.push_back(Slot { hop, open: true, key, wireless });
        self.first + self.slots.len() as u64 - 1
    }

    fn slot(&mut self, number: u64) -> &mut Slot {
        &mut self.slots[(number - self.first) as usize]
    }

    fn end_hop(&mut self, number: u64, t: f64, end: u8) {
        let slot = self.slot(number);
        slot.open = false;
        slot.hop.t_end = t;
        slot.hop.end = end;
        if slot.wireless && end == END_RECEIVED {
            let d = t - slot.hop.t_deq;
            self.air_time = (self.air_time.0 + d, self.air_time.1 + 1.0);
        }
    }

    fn dir_columns(&mut self, dir: u32) -> DirColumns {
        let d = dir as usize;
        if self.dir_columns.len() <= d {
            self.dir_columns.resize(d + 1, None);
            self.queues.resize(d + 1, QueueLevel::default());
        }
        if let Some(c) = self.dir_columns[d] {
            return c;
        }
        let name = |what: &str| format!("{what}:{d}");
        let c = DirColumns {
            queue_max: self.overview.add_column(name("queue_max"), Merge::Max),
            queue_integral: self.overview.add_column(name("queue_integral"), Merge::Sum),
            departed_bytes: self.overview.add_column(name("departed_bytes"), Merge::Sum),
            drops: self.overview.add_column(name("drops"), Merge::Sum),
        };
        self.dir_columns[d] = Some(c);
        c
    }

    fn queue_change(&mut self, dir: u32, t: f64, delta: f64) {
        let c = self.dir_columns(dir);
        let q = &mut self.queues[dir as usize];
        let (level, since) = (q.packets, q.since);
        q.packets = (level + delta).max(0.0);
        q.since = t;
        let now = q.packets;
        self.overview.integrate(c.queue_integral, since, t, level);
        self.overview.add(c.queue_max, t, now);
    }

    fn departed(&mut self, dir: u32, t: f64, size: i64) {
        let c = self.dir_columns(dir);
        self.overview.add(c.departed_bytes, t, size as f64);
    }

    fn dropped(&mut self, dir: u32, t: f64) {
        let c = self.dir_columns(dir);
        self.overview.add(c.drops, t, 1.0);
    }

    fn delivered(&mut self, conv: u32, t: f64, size: i64) {
        self.overview.add(self.conv_delivered[conv as usize], t, size as f64);
    }

    fn wired_packet(&mut self, p: &PacketLine, conv: u32) {
        let dir = self.topology.dir(p.from, p.to);
        let key = (p.uid, dir);
        let open = self.wired.get(&key).copied();
        match p.kind {
            b'+' => {
                if let Some(old) = open {
                    self.end_hop(old, p.time, END_UNKNOWN);
                }
                let n = self.new_hop(p, dir, conv, key, false);
                self.wired.insert(key, n);
                self.queue_change(dir, p.time, 1.0);
            }
            b'-' | b'h' => {
                let n = match open {
                    Some(n) => n,
                    None => {
                        let n = self.new_hop(p, dir, conv, key, false);
                        self.wired.insert(key, n);
                        n
                    }
                };
                let queued = open.is_some();
                let hop = &mut self.slot(n).hop;
                if hop.t_deq.is_nan() {
                    hop.t_deq = p.time;
                    if queued {
                        self.queue_change(dir, p.time, -1.0);
                    }
                    self.departed(dir, p.time, p.size);
                }
            }
            b'r' => {
                if let Some(n) = open {
                    self.wired.remove(&key);
                    self.end_hop(n, p.time, END_RECEIVED);
                }
                if self.convs[conv as usize].dst_node() == Some(p.to) {
                    self.delivered(conv, p.time, p.size);
                }
            }
            _ => {
                let n = match open {
                    Some(n) => {
                        self.wired.remove(&key);
                        if self.slot(n).hop.t_deq.is_nan() {
                            self.queue_change(dir, p.time, -1.0);
                        }
                        n
                    }
                    None => self.new_hop(p, dir, conv, key, false),
                };
                self.end_hop(n, p.time, END_DROPPED);
                self.dropped(dir, p.time);
            }
        }
    }

    /// Ends the transmissions of packet `key` that arrive at `node`.
    fn arrive(&mut self, key: (i64, u32), node: i64, t: f64) {
        let Some(list) = self.wireless.get_mut(&key) else { return };
        let mut arrived = Vec::new();
        let slots = &self.slots;
        let first = self.first;
        list.retain(|&n| {
            let (from, to) = self.topology.dirs[slots[(n - first) as usize].hop.dir as usize];
            let here = to == node || (to == -1 && from != node);
            if here {
                arrived.push(n);
            }
            !here
        });
        if list.is_empty() {
            self.wireless.remove(&key);
        }
        for n in arrived {
            self.end_hop(n, t, END_RECEIVED);
        }
    }

    fn wireless_packet(&mut self, p: &PacketLine, conv: u32, layer: &[u8]) {
        let key = (p.uid, self.ptype(p.ptype));
        let agent = layer == b"AGT";
        match p.kind {
            b'h' if !agent => {
                self.arrive(key, p.from, p.time);
                let dir = self.topology.dir(p.from, p.to);
                let sender = self.wireless.get(&key).and_then(|list| {
                    list.iter().copied().find(|&n| {
                        self.topology.dirs[self.slots[(n - self.first) as usize].hop.dir as usize].0 == p.from
                    })
                });
                // A second `h` of the same packet at the same node (routing, then
                // MAC level): the first was its queueing, this its transmission.
                let n = sender.unwrap_or_else(|| {
                    let n = self.new_hop(p, dir, conv, key, true);
                    self.wireless.entry(key).or_default().push(n);
                    n
                });
                self.slot(n).hop.t_deq = p.time;
                self.departed(dir, p.time, p.size);
            }
            b'r' => {
                self.arrive(key, p.from, p.time);
                if agent {
                    self.delivered(conv, p.time, p.size);
                }
            }
            b'd' => {
                let dir = self.topology.dir(p.from, p.to);
                let own = self.wireless.get_mut(&key).and_then(|list| {
                    let slots = &self.slots;
                    let i = list.iter().position(|&n| {
                        self.topology.dirs[slots[(n - self.first) as usize].hop.dir as usize].0 == p.from
                    })?;
                    Some(list.swap_remove(i))
                });
                let n = own.unwrap_or_else(|| self.new_hop(p, dir, conv, key, true));
                self.end_hop(n, p.time, END_DROPPED);
                self.dropped(dir, p.time);
            }
            _ => self.arrive(key, p.from, p.time),
        }
    }

    /// Hands the ended hops at the front on to the chunks; forces out the
    /// oldest when too many wait, and gives up on lost wireless transmissions.
    fn release(&mut self) -> std::io::Result<()> {
        loop {
            let Some(front) = self.slots.front() else { return Ok(()) };
            if front.open {
                let lost = front.wireless && self.last_time - front.hop.t_start > MAX_AIR_S;
                if !lost && self.slots.len() <= self.max_pending {
                    return Ok(());
                }
                let key = front.key;
                let end = if front.wireless {
                    let mean = if self.air_time.1 > 0.0 { self.air_time.0 / self.air_time.1 } else { 1e-3 };
                    front.hop.t_deq.max(front.hop.t_start) + mean
                } else {
                    f64::INFINITY
                };
                self.forget(key, self.first, front.wireless);
                let front = self.slots.front_mut().expect("checked");
                front.open = false;
                front.hop.t_end = end;
            }
            let slot = self.slots.pop_front().expect("checked");
            self.first += 1;
            self.chunks.push(slot.hop, self.topology.dirs.len(), &mut self.out)?;
        }
    }

    fn forget(&mut self, key: (i64, u32), number: u64, wireless: bool) {
        if wireless {
            if let Some(list) = self.wireless.get_mut(&key) {
                list.retain(|&n| n != number);
            }
        } else if self.wired.get(&key) == Some(&number) {
            self.wired.remove(&key);
        }
    }

    /// Ends the hops still open (as never ending), writes the last chunk,
    /// the header and the trailer; returns the header.
    pub fn finish(mut self) -> Result<Value, IndexError> {
        for slot in &mut self.slots {
            slot.open = false;
        }
        self.wired.clear();
        self.wireless.clear();
        self.release().map_err(IndexError::Io)?;
        let t_last = self.last_time.max(self.first_time.unwrap_or(0.0));
        self.chunks.finish(t_last, self.topology.dirs.len(), &mut self.out).map_err(IndexError::Io)?;
        // The overview: f32 columns, one after another.
        let bins = self.overview.bins;
        let overview_offset = self.chunks.bytes;
        let mut blob = Vec::with_capacity(bins * 4 * self.overview.columns.len());
        for c in &self.overview.columns {
            c.values[..bins].iter().for_each(|&v| blob.extend_from_slice(&(v as f32).to_le_bytes()));
        }
        self.out.write_all(&blob).map_err(IndexError::Io)?;
        let header = self.header(overview_offset, blob.len() as u64, t_last);
        let text = serde_json::to_vec(&header).expect("a JSON value serializes");
        let meta_offset = overview_offset + blob.len() as u64;
        self.out.write_all(&text).map_err(IndexError::Io)?;
        let mut trailer = Vec::with_capacity(24);
        trailer.extend_from_slice(&meta_offset.to_le_bytes());
        trailer.extend_from_slice(&(text.len() as u64).to_le_bytes());
        trailer.extend_from_slice(END_MAGIC);
        self.out.write_all(&trailer).map_err(IndexError::Io)?;
        self.out.flush().map_err(IndexError::Io)?;
        Ok(header)
    }

    fn header(&self, overview_offset: u64, overview_length: u64, t_last: f64) -> Value {
        let c = &self.chunks;
        let mut header = self.topology.to_json();
        let fields = json!({
            "format": FORMAT_VERSION,
            "t_first": self.first_time.unwrap_or(0.0),
            "t_last": t_last,
            "packet_records": self.events,
            "hops": c.index.iter().map(|i| u64::from(i.rows - i.snapshot)).sum::<u64>(),
            "fall_s": c.fall_s,
            "convs": self.convs.iter().map(|k| json!({
                "ptype": k.ptype, "fid": k.fid, "attr": k.attr, "src": k.src, "dst": k.dst, "layer": k.layer,
            })).collect::<Vec<_>>(),
            "flags": self.flags,
            "series": self.series.iter().map(|(agent, peer, name)| json!({"agent": agent, "peer": peer, "name": name})).collect::<Vec<_>>(),
            "chunks": {
                "t0": c.index.iter().map(|i| i.t0).collect::<Vec<_>>(),
                "t1": c.index.iter().map(|i| i.t1).collect::<Vec<_>>(),
                "offset": c.index.iter().map(|i| i.offset).collect::<Vec<_>>(),
                "length": c.index.iter().map(|i| i.length).collect::<Vec<_>>(),
            },
            "overview": {
                "offset": overview_offset,
                "length": overview_length,
                "bin_s": self.overview.bin_s,
                "bins": self.overview.bins,
                "columns": self.overview.columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            },
            "ignored": self.ignored,
        });
        header.as_object_mut().expect("an object").extend(fields.as_object().expect("an object").clone());
        header
    }
}
