//! The receiving half: acceptability, reassembly, the advertised window
//! and when to acknowledge.

use crate::config::AckPolicy;
use crate::endpoint::{Endpoint, Reader};
use ackclock_core::{Instant, PS_PER_SEC};

impl Endpoint {
    pub(crate) fn free_buffer(&self) -> u64 {
        u64::from(self.cfg.receive_buffer).saturating_sub(self.unread + self.ooo.bytes())
    }

    /// RFC 1122 §4.2.3.3: the right edge moves only by at least this much.
    fn sws_threshold(&self) -> u64 {
        (u64::from(self.cfg.receive_buffer) / 2).min(u64::from(self.send_mss)).max(1)
    }

    /// The right edge of what we accept: the window we advertised, or with
    /// flow control off (ns-2's agents) anything that fits in the buffer,
    /// since the peer then ignores our window.
    fn receive_edge(&self) -> u64 {
        if self.cfg.flow_control {
            self.rcv_adv
        } else {
            self.rcv_nxt + self.free_buffer()
        }
    }

    /// RFC 9293 §3.10.7.4, the segment acceptability test.
    pub(crate) fn acceptable(&self, seq: u64, len: u32) -> bool {
        let wnd = self.receive_edge().saturating_sub(self.rcv_nxt);
        let in_window = |o: u64| self.rcv_nxt <= o && o < self.rcv_nxt + wnd;
        match (len, wnd) {
            (0, 0) => seq == self.rcv_nxt,
            (0, _) => in_window(seq),
            (_, 0) => false,
            (n, _) => in_window(seq) || in_window(seq + u64::from(n) - 1),
        }
    }

    /// Takes the payload of an acceptable segment starting at `seq`.
    pub(crate) fn process_payload(&mut self, now: Instant, seq: u64, len: u32) {
        if len == 0 {
            return;
        }
        let start = seq.max(self.rcv_nxt);
        let end = (seq + u64::from(len)).min(self.receive_edge().max(self.rcv_nxt));
        if end <= start {
            self.latest_data = Some((seq, true));
            self.acknowledge_duplicate(now, seq, len);
            return;
        }
        self.latest_data = Some((seq, false));
        self.drain(now);
        if start > self.rcv_nxt {
            // RFC 5681 §4.2: out-of-order data is acknowledged at once.
            let before = self.ooo.bytes();
            self.ooo.insert(start, end);
            if self.ooo.bytes() == before {
                self.latest_data = Some((seq, true));
                self.note_duplicate(start, end);
            }
            self.note_out_of_order(start);
            self.ack_now = true;
            return;
        }
        let filled_hole = !self.ooo.is_empty();
        let before = self.rcv_nxt;
        self.rcv_nxt = end;
        while let Some(e) = self.ooo.take_contiguous(self.rcv_nxt) {
            self.rcv_nxt = e;
        }
        self.ooo.discard_below(self.rcv_nxt);
        self.unread += self.rcv_nxt - before;
        self.drain(now);
        if filled_hole && self.gap_fill_acked_now(end) {
            self.ack_now = true;
            return;
        }
        match self.cfg.ack_policy {
            AckPolicy::EverySegment => self.ack_now = true,
            AckPolicy::Delayed { timeout, .. } => {
                // RFC 1122 §4.2.3.2 / RFC 5681 §4.2: at least every second
                // full-sized segment, and within the delayed-ACK timeout.
                self.unacked_bytes += self.rcv_nxt - before;
                if self.quickacks > 0 {
                    self.quickacks -= 1;
                    self.ack_now = true;
                } else if self.unacked_bytes >= 2 * u64::from(self.send_mss) {
                    self.ack_now = true;
                } else if self.delack_deadline.is_none() {
                    self.delack_deadline = Some(now + timeout);
                }
            }
            AckPolicy::Ns2Clock { tick, segments } => {
                self.unacked_bytes += self.rcv_nxt - before;
                if self.unacked_bytes >= u64::from(segments) * u64::from(self.send_mss) {
                    self.ack_now = true;
                } else if self.delack_deadline.is_none() {
                    let tick = tick.as_ps().max(1);
                    self.delack_deadline = Some(Instant::from_ps((now.as_ps() / tick + 1) * tick));
                }
            }
        }
    }

    /// RFC 5681 §4.2: a segment that fills a gap is acknowledged at once;
    /// ns-2's DelAck sink without RFC2581_immediate_ack_ only when it
    /// joins the data above (ending at `end`).
    #[cold]
    #[inline(never)]
    fn gap_fill_acked_now(&self, end: u64) -> bool {
        self.cfg.immediate_gap_ack || self.rcv_nxt > end
    }

    /// Data already received came again: tell the sender where we are (and,
    /// with D-SACK, what it resent), at once unless the policy delays a
    /// repeat of the latest segment.
    pub(crate) fn acknowledge_duplicate(&mut self, now: Instant, seq: u64, len: u32) {
        // RFC 2883: report a duplicate of data already received.
        self.note_duplicate(seq, seq + u64::from(len));
        // With data above a gap it is answered at once (RFC 5681 §4.2),
        // unless gaps wait (`immediate_gap_ack` false).
        let repeat = seq + u64::from(len) == self.rcv_nxt && (self.ooo.is_empty() || !self.cfg.immediate_gap_ack);
        match self.cfg.ack_policy {
            AckPolicy::Delayed { timeout, delay_repeat: true } if repeat && self.delack_deadline.is_none() => {
                self.unacked_bytes += u64::from(len);
                self.delack_deadline = Some(now + timeout);
            }
            _ => self.ack_now = true,
        }
    }

    /// Lets the application read what it could have read by `now`.
    pub(crate) fn drain(&mut self, now: Instant) {
        match self.reader {
            Reader::AtOnce => {
                self.read_total += self.unread;
                self.unread = 0;
            }
            Reader::Paused => {}
            Reader::Rate(rate) => {
                let (since, base) = self.read_origin;
                let elapsed = u128::from(now.saturating_since(since).as_ps());
                let readable = base + (u128::from(rate.bps()) * elapsed / (8 * u128::from(PS_PER_SEC))) as u64;
                let read = readable.saturating_sub(self.read_total).min(self.unread);
                self.read_total += read;
                self.unread -= read;
            }
        }
        if self.unread == 0 && matches!(self.reader, Reader::Rate(_)) {
            // An empty buffer cannot be read ahead: reading restarts from now.
            self.read_origin = (now, self.read_total);
        }
    }

    /// The window field to send, moving the right edge when worthwhile.
    /// With window scaling the edge moves in whole units of the scale.
    pub(crate) fn advertise(&mut self, now: Instant) -> u16 {
        self.drain(now);
        let shift = self.rcv_wscale;
        let free = (self.free_buffer() >> shift).min(u64::from(u16::MAX)) << shift;
        let right = self.rcv_nxt + free;
        if right >= self.rcv_adv + self.sws_threshold() {
            self.rcv_adv = right;
        }
        (self.rcv_adv.saturating_sub(self.rcv_nxt) >> shift).min(u64::from(u16::MAX)) as u16
    }

    /// Whether the sender may be stalled by our small advertised window.
    fn window_nearly_closed(&self) -> bool {
        self.rcv_nxt > 0 && self.rcv_adv.saturating_sub(self.rcv_nxt) < u64::from(self.send_mss)
    }

    /// Sends a window update once reading has opened the window enough.
    pub(crate) fn maybe_window_update(&mut self, now: Instant) {
        if !self.window_nearly_closed() {
            return;
        }
        self.drain(now);
        if self.rcv_nxt + self.free_buffer() >= self.rcv_adv + self.sws_threshold() {
            self.ack_now = true;
        }
    }

    /// When a reading application will have opened the window enough for
    /// an update, if the window is nearly closed.
    pub(crate) fn read_wakeup(&self) -> Option<Instant> {
        let Reader::Rate(rate) = self.reader else { return None };
        if !self.window_nearly_closed() || self.unread == 0 {
            return None;
        }
        let right_now = self.rcv_nxt + self.free_buffer();
        let needed = (self.rcv_adv + self.sws_threshold()).saturating_sub(right_now).min(self.unread);
        let (since, base) = self.read_origin;
        let bits = u128::from(self.read_total - base + needed) * 8;
        let ps = (bits * u128::from(PS_PER_SEC)).div_ceil(u128::from(rate.bps()));
        Some(Instant::from_ps(since.as_ps().saturating_add(ps.min(u128::from(u64::MAX)) as u64)))
    }
}
