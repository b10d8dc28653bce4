//! Packet-timed rounds, the "once per RTT" clock of delay-based and
//! model-based algorithms (Vegas, Compound, HyStart++, BBR, DCTCP's
//! observation window): a round ends when a segment sent after it began is
//! delivered. Counted with the delivery-rate sample's delivered counts, as
//! Linux BBR's `next_rtt_delivered` does; equivalent to Vegas's "the ACK
//! passed the `snd_nxt` of the round's start" without reading the sender.

use super::{Conn, RateSample};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rounds {
    /// The delivered count that the next round's first segment was sent at
    /// or after.
    next_round_delivered: u64,
    /// Rounds completed.
    pub count: u64,
}

impl Rounds {
    /// Whether the ACK behind `rs` ends a round (and so starts the next).
    #[inline]
    pub fn on_ack(&mut self, c: &Conn, rs: &RateSample) -> bool {
        match rs.prior_delivered {
            Some(prior) if prior >= self.next_round_delivered => {
                self.next_round_delivered = c.delivered;
                self.count += 1;
                true
            }
            _ => false,
        }
    }

    /// Starts a new round now: it ends when a segment sent from now on is
    /// delivered (BBR on entering recovery or PROBE_RTT).
    pub fn restart(&mut self, c: &Conn) {
        self.next_round_delivered = c.delivered;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::conn;
    use super::*;

    fn ack(r: &mut Rounds, delivered: u64, prior: Option<u64>) -> bool {
        let c = Conn { delivered, ..conn(1000, 0) };
        r.on_ack(&c, &RateSample { prior_delivered: prior, ..RateSample::default() })
    }

    #[test]
    fn a_round_ends_when_a_segment_sent_after_its_start_is_delivered() {
        let mut r = Rounds::default();
        assert!(ack(&mut r, 1000, Some(0)), "the first ACK ends round 0");
        // A window of 4 segments sent while delivered was 0..1000: ACKs for
        // segments sent before delivered reached 1000 stay in round 1.
        assert!(!ack(&mut r, 2000, Some(0)));
        assert!(!ack(&mut r, 3000, Some(999)));
        assert!(ack(&mut r, 4000, Some(1000)), "sent after the round began");
        assert_eq!(r.count, 2);
        assert!(!ack(&mut r, 5000, Some(3000)), "the next ends at 4000");
        assert!(!ack(&mut r, 5000, None), "no send state, no round");
    }

    #[test]
    fn restart_moves_the_end_of_the_round_to_what_is_sent_from_now() {
        let mut r = Rounds::default();
        ack(&mut r, 1000, Some(0));
        r.restart(&Conn { delivered: 9000, ..conn(1000, 0) });
        assert!(!ack(&mut r, 10_000, Some(8000)));
        assert!(ack(&mut r, 11_000, Some(9000)));
    }
}
