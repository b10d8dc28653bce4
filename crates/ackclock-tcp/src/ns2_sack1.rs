//! ns-2's `Agent/TCP/Sack1` sender (tcp-sack1.cc, after Fall and Floyd's
//! 1996 SACK TCP), which the `ns2-sack1` module asks for
//! (`RecoveryRules::ns2_sack1`). Its recovery is not RFC 6675's:
//!
//! * Its scoreboard (ns-2's ScoreBoardRQ, here [`SackedRanges`]) holds the
//!   blocks reported since it was last cleared: on every new ACK outside
//!   recovery, when recovery ends and at a timeout. A duplicate ACK counts
//!   towards a fast retransmit only if it changes the scoreboard, and after
//!   a timeout none counts until new data is acknowledged.
//! * `pipe` counts packets: at the fast retransmit those outstanding less
//!   the duplicate-ACK threshold; one less per ACK and one more per packet
//!   sent, and a partial ACK takes one more off. Recovery sends while
//!   `pipe` < cwnd_: the next hole above the last one resent that has SACKed
//!   data above it, else new data within `window_` of the highest ACK.
//! * A partial ACK restarts the timer and ends its backoff; the ACK that
//!   ends recovery does not open cwnd_ and forgets `recover_`, so that a
//!   fast retransmit may follow at once.
//! * A timeout goes back N from the highest ACK, SACKed packets included.
//!
//! ns-2 counts in packets; offsets map to packet numbers as its traces show
//! them (data packet k starts at offset 1 + (k - 1) mss).

use crate::endpoint::{Endpoint, Phase};
use ackclock_core::Instant;
use ackclock_wire::TcpRepr;

/// SACKed packet ranges [start, end), sorted, disjoint and not adjacent,
/// all above the cumulative ACK; and where the search for the next hole to
/// resend starts (ns-2's `h_seqno_`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SackedRanges {
    ranges: Vec<(u64, u64)>,
    /// The first packet above the cumulative ACK (`sack_min`).
    floor: u64,
    next_resend: Option<u64>,
}

impl SackedRanges {
    pub fn clear(&mut self) {
        self.ranges.clear();
        self.next_resend = None;
    }

    fn covered(&self) -> u64 {
        self.ranges.iter().map(|(s, e)| e - s).sum()
    }

    /// ns-2's `UpdateScoreBoard`: drops what the cumulative ACK `acked`
    /// covers and adds `blocks`; whether anything changed (a moved floor
    /// counts whenever ranges were held).
    pub fn update(&mut self, acked: u64, blocks: impl IntoIterator<Item = (u64, u64)>) -> bool {
        let before = self.covered();
        let mut changed = false;
        if self.floor <= acked {
            self.floor = acked + 1;
            changed = !self.ranges.is_empty();
            let floor = self.floor;
            self.ranges.retain(|&(_, e)| e > floor);
            if let Some(first) = self.ranges.first_mut() {
                first.0 = first.0.max(floor);
            }
        }
        for block in blocks {
            self.add(block);
        }
        changed || self.covered() != before
    }

    fn add(&mut self, (mut start, mut end): (u64, u64)) {
        if end <= start {
            return;
        }
        // Merge with every range it overlaps or touches.
        let first = self.ranges.partition_point(|&(_, e)| e < start);
        let mut last = first;
        while last < self.ranges.len() && self.ranges[last].0 <= end {
            start = start.min(self.ranges[last].0);
            end = end.max(self.ranges[last].1);
            last += 1;
        }
        self.ranges.splice(first..last, [(start, end)]);
    }

    /// ns-2's `nexthole`: the first packet at or after `seq` not SACKed,
    /// provided SACKed ranges lie above it.
    fn hole_with_sacks_above(&self, seq: u64) -> Option<u64> {
        let i = self.ranges.partition_point(|&(_, e)| e < seq);
        let &(start, end) = self.ranges.get(i)?;
        if start > seq {
            Some(seq)
        } else {
            // Inside a range: the hole after it, if another range follows.
            (i + 1 < self.ranges.len()).then_some(end)
        }
    }

    /// ns-2's `GetNextRetran`: the next hole to resend, at or above the
    /// last one resent and above the cumulative ACK.
    pub fn next_resend(&mut self) -> Option<u64> {
        let from = self.next_resend.map_or(self.floor, |n| n.max(self.floor));
        let hole = self.hole_with_sacks_above(from)?;
        self.next_resend = Some(hole.max(from));
        Some(hole)
    }

    /// ns-2's `MarkRetran`: `seq` was resent.
    pub fn mark_resent(&mut self, seq: u64) {
        if self.next_resend.is_none_or(|n| seq >= n) {
            self.next_resend = Some(seq + 1);
        }
    }
}

/// What Sack1 sends outside recovery.
pub(crate) enum Resend {
    /// A segment, written.
    Sent,
    /// Nothing now.
    Hold,
    /// What the window allows, as any sender.
    NewData,
}

/// What ns-2's Sack1 keeps beyond every TCP's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sack1State {
    pub ranges: SackedRanges,
    /// `pipe_`, in packets.
    pipe: i64,
    /// `timeout_`: a timeout came and no new data has been acknowledged
    /// since; duplicate ACKs are ignored.
    after_timeout: bool,
    /// Whether the ACK being processed changed the scoreboard.
    pub news: bool,
    /// The ACK that started recovery sends the retransmission alone
    /// (ns-2's `send_much` waits for the next duplicate ACK).
    entering: bool,
}

impl Endpoint {
    /// The packet number of the segment starting at `offset` (>= 1).
    fn packet_at(&self, offset: u64) -> u64 {
        (offset - 1) / u64::from(self.send_mss) + 1
    }

    /// ns-2's cumulative ACK number for the ACK offset `ack`: the last
    /// packet received in order.
    fn packets_acked(&self, ack: u64) -> u64 {
        ack.saturating_sub(1) / u64::from(self.send_mss)
    }

    /// The packets sent and not cumulatively acknowledged (maxseq_ - highest_ack_).
    fn packets_outstanding(&self) -> u64 {
        let mss = u64::from(self.send_mss);
        self.snd_max.saturating_sub(1).div_ceil(mss) - self.packets_acked(self.snd_una)
    }

    pub(crate) fn is_ns2_sack1(&self) -> bool {
        self.ns2_sack1
    }

    /// The scoreboard's part of an ACK, before the endpoint acts on it:
    /// each branch of ns-2's `Sack1TcpAgent::recv` updates or clears it.
    pub(crate) fn sack1_scoreboard(&mut self, seg: &TcpRepr, ack: u64) {
        let in_recovery = self.phase == Phase::FastRecovery;
        let mss = u64::from(self.send_mss);
        // The blocks as packet ranges [first, one past the last).
        let wire = seg.options.sack.as_slice();
        let mut blocks = [(0, 0); 4];
        for (b, &(l, r)) in blocks.iter_mut().zip(wire) {
            let (l, r) = (self.snd_offset(l), self.snd_offset(r));
            *b = (self.packet_at(l.max(1)), r.saturating_sub(1).div_ceil(mss) + 1);
        }
        let blocks = &blocks[..wire.len()];
        let s = &mut self.sack1;
        s.news = false;
        if ack > self.snd_una {
            if in_recovery && ack < self.recover {
                let acked = ack.saturating_sub(1) / mss;
                s.ranges.update(acked, blocks.iter().copied());
            } else {
                s.ranges.clear();
                s.after_timeout = false;
            }
        } else if ack == self.snd_una && !s.after_timeout {
            let acked = ack.saturating_sub(1) / mss;
            s.news = s.ranges.update(acked, blocks.iter().copied());
        }
    }

    /// `dupack_action`: the fast retransmit resends the first packet and
    /// the pipe starts from what is outstanding.
    pub(crate) fn sack1_enter_recovery(&mut self) {
        let dupacks = i64::from(self.cfg.dupack_threshold);
        let first = self.packets_acked(self.snd_una) + 1;
        let outstanding = self.packets_outstanding() as i64;
        let s = &mut self.sack1;
        s.pipe = outstanding - dupacks;
        s.entering = true;
        s.ranges.mark_resent(first);
        self.retransmit_at = Some(self.snd_una);
    }

    /// An ACK during recovery; `partial` if it acknowledged new data.
    pub(crate) fn sack1_ack_in_recovery(&mut self, now: Instant, partial: bool) {
        self.sack1.entering = false;
        self.sack1.pipe -= 1;
        if partial {
            self.sack1.pipe -= 1;
            self.restart_rto(now);
            self.rtt.clear_backoff();
        }
    }

    /// The ACK that ends recovery forgets `recover_`: a fast retransmit
    /// may follow at once.
    pub(crate) fn sack1_leave_recovery(&mut self) {
        self.recover = 0;
    }

    /// A timeout empties the scoreboard, which then ignores duplicate ACKs
    /// until new data is acknowledged.
    pub(crate) fn sack1_on_timeout(&mut self) {
        self.sack1.ranges.clear();
        self.sack1.after_timeout = true;
    }

    /// `send_much` outside recovery, when the window has room for new data:
    /// once a timeout has set `recover_`, a hole the scoreboard shows goes
    /// first; a hole it may not resend holds everything back. (Only a
    /// delayed send, with ns-2's `overhead_`, finds the scoreboard filled
    /// here: the ACKs that send at once have just cleared it. An early
    /// duplicate ACK's one new packet, ns-2's `send_one`, does not come here.)
    pub(crate) fn sack1_resend(&mut self, now: Instant, seg: &mut TcpRepr) -> Resend {
        let mss = u64::from(self.send_mss);
        let no_room = self.send_limit() < self.snd_nxt + mss;
        if self.limited_transmit_due || self.snd_una >= self.data_end || no_room {
            return Resend::NewData;
        }
        let Some(seq) = self.sack1.ranges.next_resend() else { return Resend::NewData };
        let window = self.cfg.max_window.map_or(u64::MAX, |w| u64::from(w) / mss);
        let limit = self.packets_acked(self.snd_una).saturating_add(window);
        if self.recover == 0 || seq > limit || !self.overhead_allows() {
            return Resend::Hold;
        }
        self.sack1.ranges.mark_resent(seq);
        let offset = 1 + (seq - 1) * mss;
        let len = (self.data_end - offset).min(mss);
        self.emit(now, offset, len, seg);
        Resend::Sent
    }

    /// `send_much` during recovery: while the pipe is below cwnd_, the next
    /// hole, else new data within `window_` of the highest ACK.
    pub(crate) fn sack1_recovery_segment(&mut self, now: Instant, seg: &mut TcpRepr) -> bool {
        let cwnd = self.cwnd_packets() as i64;
        // With ns-2's `overhead_`, every sending waits for a send delay.
        if self.sack1.entering
            || self.sack1.pipe >= cwnd
            || self.snd_una >= self.data_end
            || self.send_gated && !self.delay_allows()
        {
            return false;
        }
        let mss = u64::from(self.send_mss);
        let highest = self.packets_acked(self.snd_una);
        let window = self.cfg.max_window.map_or(u64::MAX, |w| u64::from(w) / mss);
        let limit = highest.saturating_add(window);
        let resend = self.sack1.ranges.next_resend();
        let offset = match resend {
            Some(seq) if seq <= limit => 1 + (seq - 1) * mss,
            Some(_) => return false,
            None if self.snd_nxt < self.data_end && self.packet_at(self.snd_nxt) <= limit => self.snd_nxt,
            None => return false,
        };
        if self.send_gated && !self.burst_allows() {
            return false;
        }
        if let Some(seq) = resend {
            self.sack1.ranges.mark_resent(seq);
        }
        self.sack1.pipe += 1;
        let len = (self.data_end - offset).min(mss);
        self.emit(now, offset, len, seg);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scoreboard_merges_blocks_and_trims_at_the_cumulative_ack() {
        let mut r = SackedRanges::default();
        assert!(r.update(10, [(12, 13)]), "a new block");
        assert!(r.update(10, [(14, 16), (13, 14)]), "merged into one range");
        assert_eq!(r.ranges, vec![(12, 16)]);
        assert!(!r.update(10, [(12, 16)]), "nothing new");
        assert!(r.update(13, []), "the floor moved while ranges were held");
        assert_eq!(r.ranges, vec![(14, 16)]);
        r.clear();
        assert!(!r.update(14, []), "a moved floor with nothing held is no news");
    }

    #[test]
    fn resends_walk_the_holes_that_have_sacked_data_above() {
        // Packets 11 and 13 lost, 12 and 14-15 received, 16 outstanding.
        let mut r = SackedRanges::default();
        r.update(10, [(12, 13), (14, 16)]);
        r.mark_resent(11); // the fast retransmit
        assert_eq!(r.next_resend(), Some(13));
        r.mark_resent(13);
        assert_eq!(r.next_resend(), None, "nothing SACKed above 16");
        // A partial ACK for 13 leaves the hole at 16 without SACKs above.
        r.update(15, []);
        assert_eq!(r.next_resend(), None);
    }

    #[test]
    fn a_hole_is_found_before_the_first_range_from_the_floor() {
        let mut r = SackedRanges::default();
        r.update(3, [(6, 8)]);
        assert_eq!(r.next_resend(), Some(4));
        assert_eq!(r.next_resend(), Some(4), "until it is marked resent");
        r.mark_resent(4);
        assert_eq!(r.next_resend(), Some(5));
    }
}
