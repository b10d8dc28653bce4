//! RFC 6675 over the send records (flight.rs): IsLost marks records lost,
//! NextSeg chooses what SACK recovery sends. What the receiver holds, what is
//! deemed lost and which retransmissions are out are the records' flags.

use crate::flight::Flight;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scoreboard {
    /// One past the highest offset retransmitted in this recovery (HighRxt + 1).
    pub high_rxt: u64,
    /// RescueRxt + 1, once the rescue retransmission was sent this recovery.
    pub rescue_rxt: Option<u64>,
}

/// What NextSeg says to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NextSeg {
    /// Retransmit from this offset (rules 1 and 3).
    Retransmit(u64),
    /// Send new data (rule 2).
    NewData,
    /// The rescue retransmission from this offset (rule 4).
    Rescue(u64),
}

impl Scoreboard {
    /// A new recovery (or a timeout) starts retransmitting from `una`.
    pub fn restart(&mut self, una: u64) {
        self.high_rxt = una;
        self.rescue_rxt = None;
    }

    /// RFC 6675 §4 NextSeg. `new_data` says whether unsent data exists and
    /// the receiver's window allows it.
    pub fn next_seg(&self, flight: &Flight, new_data: bool) -> Option<NextSeg> {
        let mut above_high_rxt = None;
        for i in 0..flight.len() {
            let s = flight.get(i);
            if s.sacked || s.rtx_out {
                continue;
            }
            // (1) the first unSACKed record deemed lost and not resent.
            if s.lost {
                return Some(NextSeg::Retransmit(s.start));
            }
            if s.end > self.high_rxt {
                above_high_rxt.get_or_insert(s.start.max(self.high_rxt));
            }
        }
        // (2) new data; (3) any unSACKed offset above HighRxt.
        if new_data {
            return Some(NextSeg::NewData);
        }
        if let Some(at) = above_high_rxt {
            return Some(NextSeg::Retransmit(at));
        }
        // (4) one rescue retransmission per recovery, of the last unSACKed data.
        let last = flight.last_unsacked()?;
        self.rescue_rxt.is_none().then_some(NextSeg::Rescue(last))
    }
}

/// RFC 6675 §4 IsLost for every record: an unSACKed record with DupThresh
/// SACKed segments, or more than (DupThresh - 1) * MSS SACKed bytes, above it
/// is deemed lost. The count only grows downwards, so the walk stops at the
/// first record below the threshold that an earlier call marked.
pub(crate) fn mark_lost(flight: &mut Flight, dupthresh: u32, mss: u32) {
    let (mut bytes, mut segments) = (0u64, 0u64);
    let enough = |bytes: u64, segments: u64| {
        segments >= u64::from(dupthresh) || bytes > u64::from(dupthresh.saturating_sub(1) * mss)
    };
    for i in (0..flight.len()).rev() {
        let s = *flight.get(i);
        if s.sacked {
            bytes += s.end - s.start;
            segments += (s.end - s.start).div_ceil(u64::from(mss));
        } else if enough(bytes, segments) {
            if s.lost {
                break;
            }
            flight.set_lost(i, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::Instant;

    const MSS: u32 = 100;

    /// Segments 0..10 of 100 bytes from offset 1; `sacked` segment numbers.
    fn flight(sacked: &[u64]) -> Flight {
        let mut f = Flight::default();
        for k in 0..10 {
            f.on_transmit(Instant::ZERO, 1 + k * 100, 101 + k * 100);
        }
        let mut d = f.delivery();
        for &k in sacked {
            f.on_sack(Instant::ZERO, 1 + k * 100, 101 + k * 100, false, &mut d);
        }
        mark_lost(&mut f, 3, MSS);
        f
    }

    fn lost(f: &Flight) -> Vec<u64> {
        (0..f.len()).filter(|&i| f.get(i).lost).map(|i| (f.get(i).start - 1) / 100).collect()
    }

    #[test]
    fn a_hole_is_lost_after_three_sacked_segments_above_it() {
        assert_eq!(lost(&flight(&[1, 2])), Vec::<u64>::new(), "two SACKed segments are not enough");
        assert_eq!(lost(&flight(&[1, 2, 3])), vec![0]);
        assert_eq!(lost(&flight(&[1, 2, 3, 5, 6, 7])), vec![0, 4], "nothing above 8 is lost");
    }

    #[test]
    fn pipe_counts_outstanding_unsacked_data_not_deemed_lost() {
        // Segment 0 lost, 1-3 SACKed, 4-9 outstanding: pipe = 6 segments.
        let mut f = flight(&[1, 2, 3]);
        assert_eq!(f.pipe(1000), 600);
        // Once segment 0 is retransmitted it counts again.
        f.on_transmit(Instant::ZERO, 1, 101);
        assert_eq!(f.pipe(1000), 700);
    }

    #[test]
    fn next_seg_retransmits_lost_holes_then_sends_new_data() {
        let mut f = flight(&[1, 2, 3, 5, 6, 7]);
        let mut b = Scoreboard::default();
        b.restart(1);
        assert_eq!(b.next_seg(&f, true), Some(NextSeg::Retransmit(1)));
        f.on_transmit(Instant::ZERO, 1, 101);
        assert_eq!(b.next_seg(&f, true), Some(NextSeg::Retransmit(401)), "segment 4 is lost too");
        f.on_transmit(Instant::ZERO, 401, 501);
        b.high_rxt = 501;
        assert_eq!(b.next_seg(&f, true), Some(NextSeg::NewData));
        assert_eq!(b.next_seg(&f, false), Some(NextSeg::Retransmit(801)), "rule 3");
    }

    #[test]
    fn rescue_retransmission_is_sent_once() {
        let mut f = flight(&[]);
        for k in 0..10 {
            f.on_transmit(Instant::ZERO, 1 + k * 100, 101 + k * 100);
        }
        let mut b = Scoreboard { high_rxt: 1001, rescue_rxt: None };
        assert_eq!(b.next_seg(&f, false), Some(NextSeg::Rescue(901)));
        b.rescue_rxt = Some(1001);
        assert_eq!(b.next_seg(&f, false), None);
    }
}
