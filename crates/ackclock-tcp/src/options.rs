//! TCP options: negotiation in the handshake, RFC 7323 timestamps and
//! window scaling, and the SACK blocks a receiver reports (RFC 2018, 2883).
//! An option is used only when both ends offered it.

use crate::endpoint::Endpoint;
use ackclock_core::{Duration, Instant};
use ackclock_wire::ip::IPV4_HEADER_BYTES;
use ackclock_wire::tcp::TCP_HEADER_BYTES;
use ackclock_wire::{SeqNum, TcpOptions, TcpRepr};

/// RFC 7323 §2.3: the largest shift.
const MAX_WINDOW_SHIFT: u8 = 14;
/// SACK blocks kept in recency order, more than the header can carry, so
/// older blocks reappear once newer ones are filled.
const RECENT_BLOCKS: usize = 8;
/// ns-2's sinks report at most three blocks (`max_sack_blocks_`, NSA).
const NS2_SACK_BLOCKS: usize = 3;

impl Endpoint {
    /// Our timestamp clock (RFC 7323 §5.4), offset by the ISN so that
    /// values are not all near zero.
    pub(crate) fn ts_clock(&self, now: Instant) -> u32 {
        let ticks = now.as_ps() / self.cfg.timestamp_granularity.as_ps().max(1);
        (ticks as u32).wrapping_add(self.iss.0)
    }

    /// The shift that fits our receive buffer into 16 bits.
    fn own_window_shift(&self) -> u8 {
        let mut shift = 0;
        while shift < MAX_WINDOW_SHIFT && (self.cfg.receive_buffer >> shift) > u32::from(u16::MAX) {
            shift += 1;
        }
        shift
    }

    /// Options for our SYN (what we offer) or SYN-ACK (what was agreed).
    pub(crate) fn syn_options(&self, now: Instant) -> TcpOptions {
        let answering = self.rcv_nxt > 0;
        let offer = |ours: bool, agreed: bool| if answering { agreed } else { ours };
        TcpOptions {
            mss: self.cfg.mss_option.then(|| self.cfg.mss.min(u32::from(u16::MAX)) as u16),
            sack_permitted: offer(self.cfg.sack, self.sack_ok),
            timestamps: offer(self.cfg.timestamps, self.ts_ok)
                .then(|| (self.ts_clock(now), self.ts_recent.unwrap_or(0))),
            window_scale: offer(self.cfg.window_scale, self.ws_ok).then(|| self.own_window_shift()),
            ..TcpOptions::default()
        }
    }

    /// Records what the peer's SYN or SYN-ACK offered.
    pub(crate) fn negotiate(&mut self, syn: &TcpRepr) {
        self.negotiate_ecn(syn);
        let o = &syn.options;
        self.sack_ok = self.cfg.sack && o.sack_permitted;
        self.ts_ok = self.cfg.timestamps && o.timestamps.is_some();
        if let (true, Some(shift)) = (self.cfg.window_scale, o.window_scale) {
            self.ws_ok = true;
            self.snd_wscale = shift.min(MAX_WINDOW_SHIFT);
            self.rcv_wscale = self.own_window_shift();
        }
        if let Some((tsval, _)) = o.timestamps.filter(|_| self.ts_ok) {
            self.ts_recent = Some(tsval);
        }
    }

    /// Timestamps and SACK blocks for a non-SYN segment.
    pub(crate) fn segment_options(&mut self, now: Instant, o: &mut TcpOptions) {
        if self.ts_ok {
            o.timestamps = Some((self.ts_clock(now), self.ts_recent.unwrap_or(0)));
        }
        if self.cfg.ns2_sacker {
            if self.cfg.sack {
                self.fill_ns2_sack_blocks(o);
            }
        } else if self.sack_ok {
            self.fill_sack_blocks(o);
        }
    }

    /// ns-2's `Sacker::append_ack` (tcp-sink.cc), which ns-2 results depend
    /// on through the ACKs' sizes: the block around the segment just
    /// received (none if it was at or below the cumulative ACK), then the
    /// blocks of earlier ACKs as reported then, newest first, dropping
    /// those the new block covers; everything forgotten once no data is out
    /// of order. (ns-2's D-SACK, off by default, is not modelled.)
    fn fill_ns2_sack_blocks(&mut self, o: &mut TcpOptions) {
        let Some((latest, duplicate)) = self.latest_data else { return };
        let highest = self.ooo.as_slice().last().map_or(self.rcv_nxt, |&(_, end)| end);
        if self.ooo.is_empty() && !self.ns2_sack_stack.is_empty() {
            self.ns2_sack_stack.clear();
            return;
        }
        if self.ooo.is_empty() && !duplicate {
            return;
        }
        let wire = |e: &Endpoint, (s, t): (u64, u64)| (e.irs + s as u32, e.irs + t as u32);
        let mut reported = 0;
        let newest = if latest < self.rcv_nxt {
            (0, self.rcv_nxt)
        } else {
            let block = self.ooo.as_slice().iter().copied().find(|&(s, e)| s <= latest && latest < e);
            let block = block.unwrap_or((latest, latest));
            o.sack.push(wire(self, block));
            reported += 1;
            block
        };
        let mut k = 0;
        while reported < NS2_SACK_BLOCKS && k < self.ns2_sack_stack.len() {
            let (left, right) = self.ns2_sack_stack[k];
            if right > highest {
                break;
            }
            if newest.0 <= left && right <= newest.1 {
                self.ns2_sack_stack.remove(k);
                continue;
            }
            o.sack.push(wire(self, (left, right)));
            reported += 1;
            k += 1;
        }
        if latest >= self.rcv_nxt {
            self.ns2_sack_stack.truncate(NS2_SACK_BLOCKS - 1);
            self.ns2_sack_stack.insert(0, newest);
        }
    }

    /// The segment's TCP bytes on the wire: options as encoded, or ns-2's
    /// TCP header, which counts 8 bytes a SACK block and nothing else; ns-2's
    /// bare packet 0 is its payload with the IP header in it.
    pub fn segment_len(&self, seg: &TcpRepr) -> u32 {
        if self.cfg.ns2_bare_packet0 && seg.payload_len > 0 && seg.seq == self.iss + 1 {
            seg.payload_len.saturating_sub(IPV4_HEADER_BYTES as u32)
        } else if self.cfg.ns2_sacker {
            TCP_HEADER_BYTES + 8 * seg.options.sack.as_slice().len() as u32 + seg.payload_len
        } else {
            seg.wire_len()
        }
    }

    /// RFC 2018 §4: the block holding the latest segment first, then the
    /// other recent blocks; a D-SACK block (RFC 2883) goes before them all.
    fn fill_sack_blocks(&mut self, o: &mut TcpOptions) {
        let room = if o.timestamps.is_some() { 3 } else { 4 };
        let wire = |e: &Endpoint, (s, t): (u64, u64)| (e.irs + s as u32, e.irs + t as u32);
        let mut blocks = [(0, 0); 4];
        let mut n = 0;
        if let Some(d) = self.dsack_pending.take() {
            blocks[0] = d;
            n = 1;
        }
        self.sack_recent.retain(|&k| k > 0);
        for &key in &self.sack_recent {
            if n == room {
                break;
            }
            let holding = self.ooo.as_slice().iter().copied().find(|&(s, e)| s <= key && key < e);
            if let Some(range) = holding.filter(|r| !blocks[..n].contains(r)) {
                blocks[n] = range;
                n += 1;
            }
        }
        for &b in &blocks[..n] {
            o.sack.push(wire(self, b));
        }
    }

    /// Notes out-of-order data at `start` for the SACK blocks.
    pub(crate) fn note_out_of_order(&mut self, start: u64) {
        self.sack_recent.retain(|&k| k != start);
        self.sack_recent.insert(0, start);
        self.sack_recent.truncate(RECENT_BLOCKS);
    }

    /// Notes a duplicate segment for D-SACK.
    pub(crate) fn note_duplicate(&mut self, start: u64, end: u64) {
        if self.sack_ok && self.cfg.dsack {
            self.dsack_pending = Some((start, end));
        }
    }

    /// RFC 7323 §5.3: PAWS rejects a segment whose timestamp is older than
    /// the most recent one accepted.
    pub(crate) fn paws_rejects(&self, seg: &TcpRepr) -> bool {
        match (self.ts_ok, seg.options.timestamps, self.ts_recent) {
            (true, Some((tsval, _)), Some(recent)) => !seg.flags.rst && SeqNum(tsval).lt(SeqNum(recent)),
            _ => false,
        }
    }

    /// RFC 7323 §4.3: remember the peer's timestamp from a segment that
    /// covers the left edge of the window.
    pub(crate) fn note_timestamp(&mut self, seg: &TcpRepr, seq: u64) {
        if let (true, Some((tsval, _))) = (self.ts_ok, seg.options.timestamps) {
            if seq <= self.last_ack_sent {
                self.ts_recent = Some(tsval);
            }
        }
    }

    /// When the tick of our clock that `seg` echoes ended, if it echoes one.
    pub(crate) fn echo_end(&self, seg: &TcpRepr) -> Option<Instant> {
        let (_, tsecr) = seg.options.timestamps.filter(|&(_, ecr)| self.ts_ok && ecr != 0)?;
        let ticks = u64::from(tsecr.wrapping_sub(self.iss.0)) + 1;
        Some(Instant::ZERO + self.cfg.timestamp_granularity * ticks)
    }

    /// RFC 7323 §4.1 RTTM: the RTT a timestamp echo measures.
    pub(crate) fn timestamp_rtt(&self, now: Instant, seg: &TcpRepr) -> Option<Duration> {
        let (_, tsecr) = seg.options.timestamps.filter(|_| self.ts_ok)?;
        let ticks = self.ts_clock(now).wrapping_sub(tsecr);
        (ticks < 1 << 31).then(|| self.cfg.timestamp_granularity * u64::from(ticks))
    }
}
