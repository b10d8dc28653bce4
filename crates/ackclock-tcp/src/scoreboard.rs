//! The RFC 6675 SACK scoreboard: which outstanding data the receiver holds,
//! which is deemed lost, how much is in the network (`pipe`) and what to
//! send next (`NextSeg`).
//!
//! Offsets are the endpoint's send offsets; `una` is HighACK + 1 in the
//! RFC's terms and `high_data` is HighData + 1 (snd_max).

use crate::reassembly::Ranges;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scoreboard {
    sacked: Ranges,
    /// One past the highest retransmitted offset (HighRxt + 1).
    pub high_rxt: u64,
    /// RescueRxt + 1, once a rescue retransmission was sent this recovery.
    pub rescue_rxt: Option<u64>,
}

/// What NextSeg says to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextSeg {
    /// Retransmit from this offset (rules 1 and 3).
    Retransmit(u64),
    /// Send new data (rule 2).
    NewData,
    /// The rescue retransmission from this offset (rule 4).
    Rescue(u64),
}

impl Scoreboard {
    /// Records SACK blocks (offsets) and forgets everything below `una`.
    /// Returns the bytes newly SACKed.
    pub fn update(&mut self, una: u64, high_data: u64, blocks: impl IntoIterator<Item = (u64, u64)>) -> u64 {
        self.sacked.discard_below(una);
        let after_discard = self.sacked.bytes();
        for (start, end) in blocks {
            let (start, end) = (start.max(una), end.min(high_data));
            if start < end {
                self.sacked.insert(start, end);
            }
        }
        self.sacked.bytes() - after_discard
    }

    pub fn is_empty(&self) -> bool {
        self.sacked.is_empty()
    }

    pub fn sacked_bytes(&self) -> u64 {
        self.sacked.bytes()
    }

    pub fn is_sacked(&self, offset: u64) -> bool {
        self.sacked.as_slice().iter().any(|&(s, e)| s <= offset && offset < e)
    }

    /// The end of the unSACKed hole starting at `offset` (or `limit`).
    pub fn hole_end(&self, offset: u64, limit: u64) -> u64 {
        self.sacked.as_slice().iter().find(|&&(s, _)| s > offset).map_or(limit, |&(s, _)| s.min(limit))
    }

    /// The first unSACKed offset at or after `offset`.
    pub fn next_unsacked(&self, mut offset: u64) -> u64 {
        for &(s, e) in self.sacked.as_slice() {
            if s <= offset && offset < e {
                offset = e;
            }
        }
        offset
    }

    /// RFC 6675 §4 IsLost: DupThresh discontiguous SACKed segments above
    /// `offset`, or more than (DupThresh - 1) * MSS SACKed bytes above it.
    pub fn is_lost(&self, offset: u64, dupthresh: u32, mss: u32) -> bool {
        let mut bytes = 0;
        let mut segments = 0;
        for &(s, e) in self.sacked.as_slice().iter().rev() {
            if e <= offset {
                break;
            }
            let s = s.max(offset + 1);
            bytes += e - s;
            segments += (e - s).div_ceil(u64::from(mss));
        }
        segments >= u64::from(dupthresh) || bytes > u64::from(dupthresh.saturating_sub(1) * mss)
    }

    /// RFC 6675 §4 SetPipe: outstanding bytes not SACKed, counting those
    /// deemed lost only if they were retransmitted.
    pub fn pipe(&self, una: u64, high_data: u64, dupthresh: u32, mss: u32) -> u64 {
        let mut pipe = 0;
        let mut seg = una;
        while seg < high_data {
            let seg_end = (seg + u64::from(mss)).min(high_data);
            if !self.is_sacked(seg) {
                let len = self.hole_end(seg, seg_end) - seg;
                if !self.is_lost(seg, dupthresh, mss) {
                    pipe += len;
                }
                if seg < self.high_rxt {
                    pipe += len;
                }
            }
            seg = seg_end;
        }
        pipe
    }

    /// RFC 6675 §4 NextSeg. `new_data` says whether unsent data exists and
    /// the receiver's window allows it.
    pub fn next_seg(&self, una: u64, high_data: u64, new_data: bool, dupthresh: u32, mss: u32) -> Option<NextSeg> {
        let from = self.high_rxt.max(una);
        // (1) the first unSACKed offset above HighRxt that is deemed lost.
        let mut candidate = self.next_unsacked(from);
        let mut first_unsacked = None;
        while candidate < high_data {
            first_unsacked.get_or_insert(candidate);
            if self.is_lost(candidate, dupthresh, mss) {
                return Some(NextSeg::Retransmit(candidate));
            }
            candidate = self.next_unsacked(self.hole_end(candidate, high_data));
        }
        // (2) new data.
        if new_data {
            return Some(NextSeg::NewData);
        }
        // (3) any unSACKed offset above HighRxt.
        if let Some(s) = first_unsacked {
            return Some(NextSeg::Retransmit(s));
        }
        // (4) one rescue retransmission per recovery, of the last segment.
        if self.rescue_rxt.is_none() && una < high_data {
            let last = high_data.saturating_sub(u64::from(mss)).max(una);
            return Some(NextSeg::Rescue(self.next_unsacked(last).min(high_data - 1)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 100;

    /// Segments 0..10 of 100 bytes from offset 1; `sacked` segment numbers.
    fn board(sacked: &[u64]) -> Scoreboard {
        let mut b = Scoreboard::default();
        b.update(1, 1001, sacked.iter().map(|&k| (1 + k * 100, 101 + k * 100)));
        b
    }

    #[test]
    fn a_hole_is_lost_after_three_sacked_segments_above_it() {
        let b = board(&[1, 2]);
        assert!(!b.is_lost(1, 3, MSS), "two SACKed segments are not enough");
        let b = board(&[1, 2, 3]);
        assert!(b.is_lost(1, 3, MSS));
        assert!(!b.is_lost(401, 3, MSS), "nothing SACKed above segment 4");
    }

    #[test]
    fn pipe_counts_outstanding_unsacked_data_not_deemed_lost() {
        // Segment 0 lost, 1-3 SACKed, 4-9 outstanding: pipe = 6 segments.
        let mut b = board(&[1, 2, 3]);
        assert_eq!(b.pipe(1, 1001, 3, MSS), 600);
        // Once segment 0 is retransmitted it counts again.
        b.high_rxt = 101;
        assert_eq!(b.pipe(1, 1001, 3, MSS), 700);
    }

    #[test]
    fn next_seg_retransmits_lost_holes_then_sends_new_data() {
        let mut b = board(&[1, 2, 3, 5, 6, 7]);
        assert_eq!(b.next_seg(1, 1001, true, 3, MSS), Some(NextSeg::Retransmit(1)));
        b.high_rxt = 101;
        assert_eq!(b.next_seg(1, 1001, true, 3, MSS), Some(NextSeg::Retransmit(401)), "segment 4 is lost too");
        b.high_rxt = 501;
        assert_eq!(b.next_seg(1, 1001, true, 3, MSS), Some(NextSeg::NewData));
        assert_eq!(b.next_seg(1, 1001, false, 3, MSS), Some(NextSeg::Retransmit(801)), "rule 3");
    }

    #[test]
    fn rescue_retransmission_is_sent_once() {
        let mut b = board(&[]);
        b.high_rxt = 1001;
        assert_eq!(b.next_seg(1, 1001, false, 3, MSS), Some(NextSeg::Rescue(901)));
        b.rescue_rxt = Some(1001);
        assert_eq!(b.next_seg(1, 1001, false, 3, MSS), None);
    }

    #[test]
    fn update_ignores_blocks_outside_the_outstanding_window() {
        let mut b = Scoreboard::default();
        assert_eq!(b.update(500, 1000, [(100, 200), (900, 1200)]), 100);
        assert!(b.is_sacked(950) && !b.is_sacked(150));
        b.update(960, 1000, []);
        assert_eq!(b.sacked_bytes(), 40);
    }
}
