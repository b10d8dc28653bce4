//! Packet-timed rounds, the "once per RTT" clock of delay-based and
//! model-based algorithms (Vegas, Compound, HyStart++, BBR, DCTCP's
//! observation window): a round ends when a segment sent after it began is
//! delivered. Counted with the delivery-rate sample's delivered counts, as
//! Linux BBR's `next_rtt_delivered` does; equivalent to Vegas's "the ACK
//! passed the `snd_nxt` of the round's start" without reading the sender.

use super::{Conn, RateSample};
use ackclock_core::Duration;

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

/// What the RTT samples of one round said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRtt {
    pub min: Duration,
    pub mean: Duration,
    pub samples: u32,
}

/// The RTT samples of each round (a delay-based algorithm's "actual" RTT)
/// and the least RTT ever seen (its BaseRTT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundRtts {
    rounds: Rounds,
    base: Option<Duration>,
    min: Option<Duration>,
    sum: Duration,
    samples: u32,
}

impl RoundRtts {
    /// Takes one ACK's sample; at the end of a round, returns what the
    /// round's samples said (`None` if it had none).
    pub fn on_ack(&mut self, c: &Conn, rs: &RateSample) -> Option<RoundRtt> {
        let ended = self.rounds.on_ack(c, rs).then(|| self.take()).flatten();
        if let Some(rtt) = rs.rtt {
            self.base = Some(self.base.map_or(rtt, |b| b.min(rtt)));
            self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
            self.sum += rtt;
            self.samples += 1;
        }
        ended
    }

    fn take(&mut self) -> Option<RoundRtt> {
        let min = self.min.take()?;
        let mean = Duration::from_ps(self.sum.as_ps() / u64::from(self.samples));
        let round = RoundRtt { min, mean, samples: self.samples };
        (self.sum, self.samples) = (Duration::ZERO, 0);
        Some(round)
    }

    /// BaseRTT: the least RTT seen.
    pub fn base(&self) -> Option<Duration> {
        self.base
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

    #[test]
    fn a_round_reports_the_least_and_mean_of_its_samples_and_base_the_least_ever() {
        let mut r = RoundRtts::default();
        let sample = |prior, ms| RateSample {
            prior_delivered: Some(prior),
            rtt: Some(Duration::from_millis(ms)),
            ..RateSample::default()
        };
        let c = |delivered| Conn { delivered, ..conn(1000, 0) };
        assert_eq!(r.on_ack(&c(1000), &sample(0, 120)), None, "round 0 had no samples");
        assert_eq!(r.on_ack(&c(2000), &sample(0, 100)), None);
        assert_eq!(r.on_ack(&c(3000), &sample(0, 110)), None);
        let round = r.on_ack(&c(4000), &sample(1000, 90));
        let ms = Duration::from_millis;
        assert_eq!(round, Some(RoundRtt { min: ms(100), mean: ms(110), samples: 3 }));
        assert_eq!(r.base(), Some(ms(90)), "the ACK that ended the round counts for the next");
    }
}
