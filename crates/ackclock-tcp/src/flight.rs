//! Per-segment send state: a record for every transmitted segment until it
//! is cumulatively acknowledged, saying when it was (last) sent and what the
//! connection had delivered by then. Delivery-rate estimation
//! (draft-cheng-iccrg-delivery-rate-estimation, Linux tcp_rate.c),
//! per-segment RTT samples and RACK (RFC 8985) stand on it.
//!
//! The records live in a ring ordered by sequence offset that grows to the
//! largest flight and then allocates nothing. A retransmission or SACK block
//! that starts or ends inside a record splits it (rare: only when segment
//! boundaries changed), as Linux fragments an skb.
//!
//! Each record also carries the loss state: SACKed, deemed lost, and whether
//! a retransmission of it is in flight. Byte totals of the three are kept so
//! that RFC 6675's pipe costs nothing: a record counts once in flight unless
//! SACKed or deemed lost, and once more while its retransmission is out
//! (Linux `packets_out - (sacked_out + lost_out) + retrans_out`).

use crate::cc::{Oldest, RateSample};
use ackclock_core::{Duration, Instant};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SentSegment {
    /// Sequence offsets [start, end).
    pub start: u64,
    pub end: u64,
    /// The latest transmission.
    pub sent_at: Instant,
    /// The connection's delivered count, and when it last grew, at that
    /// transmission (P.delivered, P.delivered_time).
    pub delivered: u64,
    pub delivered_at: Instant,
    /// Of `delivered`, bytes acknowledged with ECN-Echo.
    pub delivered_ce: u64,
    /// When the send phase this transmission belongs to began
    /// (P.first_sent_time).
    pub first_tx_at: Instant,
    /// Sent while the application left the window unused.
    pub app_limited: bool,
    /// Sent more than once (Karn: its RTT is ambiguous).
    pub retransmitted: bool,
    pub sacked: bool,
    /// Deemed lost (RFC 6675 IsLost, RACK, or a timeout).
    pub lost: bool,
    /// A retransmission of it is in flight.
    pub rtx_out: bool,
}

impl SentSegment {
    #[inline]
    fn len(&self) -> u64 {
        self.end - self.start
    }
}

/// The records in offset order, in a ring whose capacity doubles when full
/// (a power of two, so an index wraps with a mask).
#[derive(Clone, Debug, Default, PartialEq)]
struct Ring {
    buf: Vec<SentSegment>,
    head: usize,
    len: usize,
}

impl Ring {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn slot(&self, i: usize) -> usize {
        (self.head + i) & (self.buf.len() - 1)
    }

    /// The `i`th oldest record.
    #[inline]
    fn get(&self, i: usize) -> &SentSegment {
        &self.buf[self.slot(i)]
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> &mut SentSegment {
        let slot = self.slot(i);
        &mut self.buf[slot]
    }

    #[inline]
    fn back(&self) -> &SentSegment {
        self.get(self.len - 1)
    }

    #[inline]
    fn front(&self) -> Option<&SentSegment> {
        (self.len > 0).then(|| self.get(0))
    }

    /// A new last record, to be written.
    #[inline]
    fn push_back(&mut self) -> &mut SentSegment {
        if self.len == self.buf.len() {
            self.grow();
        }
        self.len += 1;
        self.get_mut(self.len - 1)
    }

    #[cold]
    fn grow(&mut self) {
        let mut grown = vec![SentSegment::default(); (2 * self.buf.len()).max(16)];
        for (i, slot) in grown.iter_mut().enumerate().take(self.len) {
            *slot = *self.get(i);
        }
        self.buf = grown;
        self.head = 0;
    }

    #[inline]
    fn pop_front(&mut self) {
        self.head = self.slot(1);
        self.len -= 1;
    }

    /// Inserts `s` so that it becomes the `i`th record.
    fn insert(&mut self, i: usize, s: SentSegment) {
        self.push_back();
        for k in (i + 1..self.len).rev() {
            *self.get_mut(k) = *self.get(k - 1);
        }
        *self.get_mut(i) = s;
    }

    /// The first index whose record fails `pred` (records are ordered).
    fn partition_point(&self, pred: impl Fn(&SentSegment) -> bool) -> usize {
        let (mut low, mut high) = (0, self.len);
        while low < high {
            let mid = (low + high) / 2;
            if pred(self.get(mid)) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    #[cfg(test)]
    fn iter(&self) -> impl Iterator<Item = &SentSegment> {
        (0..self.len).map(|i| self.get(i))
    }
}

/// The sample being built while one ACK is processed (the draft's `rs`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Delivery {
    /// Bytes delivered by this ACK.
    bytes: u64,
    /// From the most recently sent delivered segment: its send state.
    prior: Option<SentSegment>,
    /// Its send-phase length (send_elapsed).
    send_interval: Duration,
    rtt: Option<Duration>,
    /// The most recently sent delivered segment whose delivery is not
    /// ambiguous, for RACK: its send time, end and RTT.
    pub rack: Option<(Instant, u64, Duration)>,
    /// A segment never resent was delivered below one delivered before it:
    /// the network reorders (RFC 8985 §6.2, Linux `tcp_check_sack_reordering`).
    pub reordered: bool,
    /// The smallest end of a delivered segment never resent (F-RTO asks
    /// whether one sent before a timeout was delivered).
    pub original_end: Option<u64>,
    /// When the timestamp tick the ACK echoes ended: a retransmission sent
    /// since was not what the ACK acknowledges (RFC 8985 §6.2 step 2).
    pub echo_end: Option<Instant>,
    /// The highest end delivered before this ACK, and the minimum RTT.
    fack: u64,
    min_rtt: Option<Duration>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Flight {
    segments: Ring,
    conn: Totals,
    marks: Marks,
    /// Keeps no records (`without_records`).
    off: bool,
}

/// Bytes of the records that are SACKed, deemed lost (and not SACKed), and
/// retransmitted with the retransmission in flight (and not SACKed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Marks {
    sacked: u64,
    lost: u64,
    rtx_out: u64,
}

impl Marks {
    #[inline]
    fn add(&mut self, s: &SentSegment) {
        self.sacked += if s.sacked { s.len() } else { 0 };
        self.lost += if s.lost { s.len() } else { 0 };
        self.rtx_out += if s.rtx_out { s.len() } else { 0 };
    }

    #[inline]
    fn remove(&mut self, s: &SentSegment) {
        self.sacked -= if s.sacked { s.len() } else { 0 };
        self.lost -= if s.lost { s.len() } else { 0 };
        self.rtx_out -= if s.rtx_out { s.len() } else { 0 };
    }
}

/// The connection's delivery state (the draft's C.*).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Totals {
    /// C.delivered: bytes acknowledged or SACKed so far, and when it last grew.
    delivered: u64,
    delivered_at: Instant,
    /// Of `delivered`, bytes whose ACKs carried ECN-Echo.
    delivered_ce: u64,
    /// C.first_sent_time: send time of the most recently delivered segment.
    first_tx_at: Instant,
    /// C.app_limited: the delivered count at which the current
    /// application-limited phase ends; 0 when not application-limited.
    app_limited_until: u64,
    min_rtt: Option<Duration>,
    /// The highest end of a segment delivered (acknowledged or SACKed).
    fack: u64,
}

impl Delivery {
    /// Bytes delivered so far by this ACK.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Flight {
    /// A flight that records nothing, for a sender that reads none of it (no
    /// SACK, RACK, undo or ECN, and an algorithm without rate samples): it
    /// stays empty, so the ACK path skips every per-segment step.
    pub fn without_records() -> Self {
        Flight { off: true, ..Flight::default() }
    }

    /// The bookkeeping of one ACK's deliveries, to pass to `on_sack`,
    /// `on_ack` and `sample`.
    pub fn delivery(&self) -> Delivery {
        Delivery { fack: self.conn.fack, min_rtt: self.conn.min_rtt, ..Delivery::default() }
    }

    pub fn min_rtt(&self) -> Option<Duration> {
        self.conn.min_rtt
    }

    /// The first unacknowledged segment.
    pub fn oldest(&self) -> Option<Oldest> {
        self.segments.front().map(|s| Oldest { sent_at: s.sent_at, retransmitted: s.retransmitted })
    }

    /// Bytes delivered so far (C.delivered).
    pub fn delivered(&self) -> u64 {
        self.conn.delivered
    }

    /// Records the transmission of [start, end) at `now`: new data gets a
    /// record, a retransmission refreshes the records it covers.
    #[inline]
    pub fn on_transmit(&mut self, now: Instant, start: u64, end: u64) {
        if self.off {
            return;
        }
        let c = &mut self.conn;
        if self.segments.is_empty() {
            // Nothing in flight: a new send phase starts now.
            c.first_tx_at = now;
            c.delivered_at = now;
        }
        let fresh = SentSegment {
            start,
            end,
            sent_at: now,
            delivered: c.delivered,
            delivered_at: c.delivered_at,
            delivered_ce: c.delivered_ce,
            first_tx_at: c.first_tx_at,
            app_limited: c.app_limited_until != 0,
            retransmitted: false,
            sacked: false,
            lost: false,
            rtx_out: false,
        };
        if self.segments.is_empty() || start >= self.segments.back().end {
            *self.segments.push_back() = fresh;
        } else {
            self.on_retransmit(fresh);
        }
    }

    /// A transmission of sequence space sent before: the records it covers
    /// take its send state.
    #[cold]
    fn on_retransmit(&mut self, fresh: SentSegment) {
        let (start, end, high) = (fresh.start, fresh.end, self.segments.back().end);
        let first = self.split_at(start);
        let last = self.split_at(end.min(high));
        for i in first..last {
            let old = *self.segments.get(i);
            let new = SentSegment {
                start: old.start,
                end: old.end,
                retransmitted: true,
                sacked: old.sacked,
                lost: old.lost,
                rtx_out: !old.sacked,
                ..fresh
            };
            self.marks.remove(&old);
            self.marks.add(&new);
            *self.segments.get_mut(i) = new;
        }
        if end > high {
            *self.segments.push_back() = SentSegment { start: high, retransmitted: true, ..fresh };
        }
    }

    /// The index of the record starting at `offset`, splitting the record
    /// that holds it if needed; the number of records if none ends above it.
    fn split_at(&mut self, offset: u64) -> usize {
        let i = self.segments.partition_point(|s| s.end <= offset);
        if i == self.segments.len() || self.segments.get(i).start >= offset {
            return i;
        }
        let s = *self.segments.get(i);
        self.segments.get_mut(i).end = offset;
        self.segments.insert(i + 1, SentSegment { start: offset, ..s });
        i + 1
    }

    /// The cumulative ACK reached `ack`: records below it leave the ring,
    /// and what was not SACKed before counts as delivered.
    pub fn on_ack(&mut self, now: Instant, ack: u64, ece: bool, d: &mut Delivery) {
        while let Some(front) = self.segments.front() {
            if front.start >= ack {
                break;
            }
            if front.end > ack {
                // A partial ACK of the record: deliver what it covers.
                let old = *front;
                if !old.sacked {
                    self.conn.delivered += ack - old.start;
                    d.bytes += ack - old.start;
                }
                let new = SentSegment { start: ack, ..old };
                self.marks.remove(&old);
                self.marks.add(&new);
                *self.segments.get_mut(0) = new;
                break;
            }
            if !front.sacked {
                self.conn.deliver(now, front, ece, d);
            }
            self.marks.remove(front);
            self.segments.pop_front();
        }
    }

    /// The peer SACKed [start, end): the records it covers are delivered.
    pub fn on_sack(&mut self, now: Instant, start: u64, end: u64, ece: bool, d: &mut Delivery) {
        if self.segments.is_empty() {
            return;
        }
        let (low, high) = (self.segments.get(0).start, self.segments.back().end);
        let (start, end) = (start.max(low), end.min(high));
        if start >= end {
            return;
        }
        let first = self.split_at(start);
        let last = self.split_at(end);
        for i in first..last {
            let old = *self.segments.get(i);
            if !old.sacked {
                let new = SentSegment { sacked: true, lost: false, rtx_out: false, ..old };
                self.marks.remove(&old);
                self.marks.add(&new);
                *self.segments.get_mut(i) = new;
                self.conn.deliver(now, &old, ece, d);
            }
        }
    }

    // --- loss state ---

    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// The `i`th record from the oldest.
    pub fn get(&self, i: usize) -> &SentSegment {
        self.segments.get(i)
    }

    pub fn sacked_bytes(&self) -> u64 {
        self.marks.sacked
    }

    /// Bytes deemed lost and not SACKed.
    pub fn lost_bytes(&self) -> u64 {
        self.marks.lost
    }

    /// Bytes retransmitted whose retransmission is in flight.
    pub fn retransmitted_out(&self) -> u64 {
        self.marks.rtx_out
    }

    /// Where the first record deemed lost and not being resent starts.
    pub fn first_lost(&self) -> Option<u64> {
        (0..self.segments.len()).map(|i| self.segments.get(i)).find(|s| s.lost && !s.rtx_out).map(|s| s.start)
    }

    /// Where the last record not SACKed starts.
    pub fn last_unsacked(&self) -> Option<u64> {
        (0..self.segments.len()).rev().map(|i| self.segments.get(i)).find(|s| !s.sacked).map(|s| s.start)
    }

    /// RFC 6675 SetPipe for a FlightSize of `flight` bytes: what is not
    /// SACKed and not deemed lost, plus the retransmissions in flight.
    pub fn pipe(&self, flight: u64) -> u64 {
        (flight - self.marks.sacked - self.marks.lost) + self.marks.rtx_out
    }

    /// Deems the `i`th record lost. With `resend`, a retransmission of it in
    /// flight is deemed lost too, so that it may be sent again (RACK, a
    /// timeout); RFC 6675's IsLost leaves a retransmission be.
    pub fn set_lost(&mut self, i: usize, resend: bool) {
        let old = *self.segments.get(i);
        let new = SentSegment { lost: true, rtx_out: old.rtx_out && !resend, ..old };
        if old.sacked || new == old {
            return;
        }
        self.marks.remove(&old);
        self.marks.add(&new);
        *self.segments.get_mut(i) = new;
    }

    /// A retransmission timeout: everything not SACKed is deemed lost and no
    /// retransmission is in flight any more (RFC 6675 §5.1, Linux
    /// `tcp_timeout_mark_lost`).
    pub fn all_lost(&mut self) {
        for i in 0..self.segments.len() {
            self.set_lost(i, true);
        }
    }

    /// A timeout proved spurious: nothing is deemed lost any more (Linux
    /// `tcp_undo_cwnd_reduction` with `unmark_loss`).
    pub fn clear_lost(&mut self) {
        for i in 0..self.segments.len() {
            let old = *self.segments.get(i);
            if old.lost {
                let new = SentSegment { lost: false, ..old };
                self.marks.remove(&old);
                self.marks.add(&new);
                *self.segments.get_mut(i) = new;
            }
        }
    }

    /// The index of the first record that ends above `offset`.
    pub fn index_after(&self, offset: u64) -> usize {
        self.segments.partition_point(|s| s.end <= offset)
    }

    /// The first offset at or after `offset` that no SACKed record covers.
    pub fn next_unsacked(&self, mut offset: u64) -> u64 {
        for i in self.index_after(offset)..self.segments.len() {
            let s = self.segments.get(i);
            if !s.sacked || s.start > offset {
                break;
            }
            offset = s.end;
        }
        offset
    }

    /// Where the run of unSACKed records from `offset` ends, at most `limit`.
    pub fn hole_end(&self, offset: u64, limit: u64) -> u64 {
        (self.index_after(offset)..self.segments.len())
            .map(|i| self.segments.get(i))
            .find(|s| s.sacked && s.start >= offset)
            .map_or(limit, |s| s.start.min(limit))
    }

    /// tcp_rate_gen: the rate sample of an ACK, after `on_ack` and `on_sack`.
    pub fn sample(&mut self, now: Instant, d: &Delivery, rs: &mut RateSample) {
        if let Some(rtt) = d.rtt {
            self.note_rtt(rtt);
        }
        let c = &mut self.conn;
        if c.app_limited_until != 0 && c.delivered > c.app_limited_until {
            c.app_limited_until = 0;
        }
        rs.acked_sacked = d.bytes.min(u64::from(u32::MAX)) as u32;
        rs.rtt = d.rtt;
        let Some(prior) = d.prior else { return };
        rs.prior_delivered = Some(prior.delivered);
        rs.is_app_limited = prior.app_limited;
        // The longer of the send and ACK phases, so that ACK compression
        // cannot inflate the rate.
        let interval = d.send_interval.max(now.saturating_since(prior.delivered_at));
        if c.min_rtt.is_some_and(|m| interval < m) {
            return;
        }
        rs.delivered = c.delivered - prior.delivered;
        rs.interval = interval;
        rs.delivered_ce = c.delivered_ce - prior.delivered_ce;
    }

    /// An RTT sample from elsewhere (the handshake, a timestamp echo) for
    /// the minimum RTT.
    pub fn note_rtt(&mut self, rtt: Duration) {
        self.conn.min_rtt = Some(self.conn.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    /// Sending stopped for want of data with room in the window: samples
    /// until this flight is delivered understate the path.
    pub fn note_app_limited(&mut self, in_flight: u64) {
        self.conn.app_limited_until = (self.conn.delivered + in_flight).max(1);
    }
}

/// RFC 8985 RACK_sent_after: (t1, end1) was sent after (t2, end2).
pub(crate) fn sent_after(t1: Instant, end1: u64, t2: Instant, end2: u64) -> bool {
    t1 > t2 || (t1 == t2 && end1 > end2)
}

impl Totals {
    /// tcp_rate_skb_delivered: counts `s` and keeps the send state of the
    /// most recently sent segment delivered.
    #[inline]
    fn deliver(&mut self, now: Instant, s: &SentSegment, ece: bool, d: &mut Delivery) {
        self.delivered += s.len();
        self.delivered_at = now;
        if ece {
            self.delivered_ce += s.len();
        }
        d.bytes += s.len();
        self.fack = self.fack.max(s.end);
        d.reordered |= !s.retransmitted && s.end <= d.fack;
        if !s.retransmitted && d.original_end.is_none_or(|e| s.end < e) {
            d.original_end = Some(s.end);
        }
        let rtt = now - s.sent_at;
        // RFC 8985 §6.2 step 2: a retransmitted segment delivered sooner than
        // a round trip, or by an ACK echoing an earlier timestamp, was
        // delivered by its original.
        let ambiguous =
            s.retransmitted && (d.min_rtt.is_some_and(|m| rtt < m) || d.echo_end.is_some_and(|end| s.sent_at >= end));
        if !ambiguous && d.rack.is_none_or(|(t, end, _)| sent_after(s.sent_at, s.end, t, end)) {
            d.rack = Some((s.sent_at, s.end, rtt));
        }
        let newer = d.prior.is_none_or(|p| sent_after(s.sent_at, s.end, p.sent_at, p.end));
        if newer {
            d.prior = Some(*s);
            d.send_interval = s.sent_at.saturating_since(s.first_tx_at);
            self.first_tx_at = s.sent_at;
            // Karn: a retransmitted segment's RTT is ambiguous.
            d.rtt = (!s.retransmitted).then(|| now - s.sent_at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Instant {
        Instant::from_ps(x * 1_000_000_000)
    }

    /// Sends `n` segments of 1000 bytes from offset 1 at `t`.
    fn sent(f: &mut Flight, t: Instant, n: u64) {
        for k in 0..n {
            f.on_transmit(t, 1 + k * 1000, 1 + (k + 1) * 1000);
        }
    }

    fn ack(f: &mut Flight, t: Instant, ack: u64) -> RateSample {
        let mut d = f.delivery();
        f.on_ack(t, ack, false, &mut d);
        let mut rs = RateSample::default();
        f.sample(t, &d, &mut rs);
        rs
    }

    #[test]
    fn a_flight_acknowledged_one_rtt_later_samples_its_rate() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 10);
        let rs = ack(&mut f, ms(100), 1 + 10_000);
        assert_eq!((rs.acked_sacked, rs.delivered, rs.interval), (10_000, 10_000, Duration::from_millis(100)));
        assert_eq!(rs.rtt, Some(Duration::from_millis(100)));
        assert_eq!(f.segments.len(), 0);
    }

    #[test]
    fn a_flight_without_records_stays_empty_and_samples_nothing() {
        let mut f = Flight::without_records();
        sent(&mut f, ms(0), 10);
        assert_eq!((f.len(), f.oldest()), (0, None));
        let rs = ack(&mut f, ms(100), 1 + 10_000);
        assert_eq!((rs.delivered, rs.rtt, f.delivered()), (0, None, 0));
    }

    #[test]
    fn the_interval_is_the_longer_of_the_send_and_ack_phases() {
        // Sent over 50 ms, acknowledged all at once 100 ms after the first:
        // the ACK phase (100 ms since the first send) is the longer.
        let mut f = Flight::default();
        for k in 0..5 {
            f.on_transmit(ms(10 * k), 1 + k * 1000, 1 + (k + 1) * 1000);
        }
        let rs = ack(&mut f, ms(100), 1 + 5000);
        assert_eq!((rs.delivered, rs.interval), (5000, Duration::from_millis(100)));
        assert_eq!(rs.rtt, Some(Duration::from_millis(60)), "of the last segment sent");
    }

    #[test]
    fn sacked_segments_are_delivered_once() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 4);
        let mut d = f.delivery();
        f.on_sack(ms(100), 1001, 3001, false, &mut d);
        let mut rs = RateSample::default();
        f.sample(ms(100), &d, &mut rs);
        assert_eq!(rs.acked_sacked, 2000);
        let rs = ack(&mut f, ms(110), 1 + 4000);
        assert_eq!(rs.acked_sacked, 2000, "only the first and last segment are new");
        assert_eq!(f.conn.delivered, 4000);
    }

    #[test]
    fn a_retransmission_splits_records_and_gives_no_rtt() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 3);
        f.on_transmit(ms(300), 501, 1501);
        let starts: Vec<(u64, bool)> = f.segments.iter().map(|s| (s.start, s.retransmitted)).collect();
        assert_eq!(starts, vec![(1, false), (501, true), (1001, true), (1501, false), (2001, false)]);
        let rs = ack(&mut f, ms(400), 1501);
        assert_eq!(rs.rtt, None, "the newest delivered segment was retransmitted");
        assert_eq!(rs.acked_sacked, 1500);
    }

    #[test]
    fn the_ring_keeps_order_across_wrap_around_and_growth() {
        let mut f = Flight::default();
        for k in 0..40u64 {
            f.on_transmit(ms(k), 1 + k * 10, 11 + k * 10);
            if k % 3 == 0 {
                ack(&mut f, ms(k), 1 + (k / 2) * 10);
            }
        }
        let starts: Vec<u64> = f.segments.iter().map(|s| s.start).collect();
        let expected: Vec<u64> = (19..40).map(|k| 1 + k * 10).collect();
        assert_eq!(starts, expected);
        f.on_transmit(ms(50), 205, 215);
        let ends: Vec<u64> = f.segments.iter().take(4).map(|s| s.end).collect();
        assert_eq!(ends, vec![201, 205, 211, 215], "split inside the ring");
    }

    #[test]
    fn a_retransmission_past_the_highest_record_adds_the_tail() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 2);
        f.on_transmit(ms(300), 1501, 2501);
        let ends: Vec<u64> = f.segments.iter().map(|s| s.end).collect();
        assert_eq!(ends, vec![1001, 1501, 2001, 2501]);
    }

    #[test]
    fn samples_after_an_idle_application_are_marked_app_limited_until_delivered() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 2);
        f.note_app_limited(2000);
        f.on_transmit(ms(10), 2001, 3001);
        assert!(!ack(&mut f, ms(100), 2001).is_app_limited, "sent before the bubble");
        assert!(ack(&mut f, ms(110), 3001).is_app_limited);
        assert_eq!(f.conn.app_limited_until, 0, "the bubble is delivered");
    }

    #[test]
    fn an_interval_shorter_than_the_minimum_rtt_is_no_sample() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 1);
        ack(&mut f, ms(100), 1001);
        // Sent at 200, resent at 250, and the original's ACK comes at 290:
        // 90 ms cannot be a round trip on a path whose minimum is 100 ms.
        f.on_transmit(ms(200), 1001, 2001);
        f.on_transmit(ms(250), 1001, 2001);
        let rs = ack(&mut f, ms(290), 2001);
        assert_eq!((rs.delivered, rs.interval, rs.rtt), (0, Duration::ZERO, None));
        assert_eq!(rs.acked_sacked, 1000);
    }

    #[test]
    fn bytes_acknowledged_with_ecn_echo_are_counted() {
        let mut f = Flight::default();
        sent(&mut f, ms(0), 2);
        let mut d = f.delivery();
        f.on_ack(ms(100), 1001, true, &mut d);
        f.on_ack(ms(100), 2001, false, &mut d);
        let mut rs = RateSample::default();
        f.sample(ms(100), &d, &mut rs);
        assert_eq!((rs.delivered, rs.delivered_ce), (2000, 1000));
    }
}
