//! A token bucket shaper between a source and its node, as ns-2.35's `TBF`
//! does it (adc/tbf.cc; `$ns attach-tbf-agent`), to give ns-2's numbers.
//!
//! The bucket holds up to `bucket_bits` tokens (bits) and fills at `rate`
//! bit/s; it starts full when the first packet comes. A packet that finds
//! no packet waiting and enough tokens leaves at once and spends its size in
//! bits. One that finds too few tokens waits (or, with `limit` 0, is
//! dropped) until the bucket will have filled to its size; a packet that
//! finds others waiting joins them if fewer than `limit` wait, else is
//! dropped. When the wait ends the head leaves whatever the tokens then
//! (ns-2 trusts its timer), and the next head's wait starts.
//!
//! ```text
//!  arrival ──▶ packets waiting? ── yes ─▶ fewer than limit wait? queue it : drop it
//!                 │ no
//!                 ▼ refill (capped at the bucket); tokens >= bits? send, spend : limit > 0? queue, wake when full enough : drop
//!  wake ──▶ refill; send the head and spend; next head: wake when full enough
//! ```
//!
//! Tokens and times are doubles in seconds as in ns-2; a wake-up is ns-2's
//! double time rounded to the picosecond.
//!
//! | parameter     | default      | range | source |
//! |---------------|--------------|-------|--------|
//! | `rate`        | 64 kbit/s    | > 0   | ns-2.35 tcl/lib/ns-default.tcl `TBF set rate_ 64k` |
//! | `bucket_bits` | 1024 bits    | ≥ 0   | ns-default.tcl `bucket_` (bits: ns-2 compares it with sizes times 8) |
//! | `limit`       | 0 packets    | ≥ 0   | ns-default.tcl `qlen_`: packets waiting (0: a policer, no queue) |

use ackclock_core::Instant;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenBucketParams {
    /// Tokens (bits) per second.
    pub rate: f64,
    pub bucket_bits: u64,
    /// Packets that may wait.
    pub limit: u32,
}

impl Default for TokenBucketParams {
    fn default() -> Self {
        TokenBucketParams { rate: 64_000.0, bucket_bits: 1024, limit: 0 }
    }
}

/// What happens to a packet offered to the shaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shaped {
    Send,
    /// It waits; the shaper must be woken at this time (none: a wake-up is
    /// already due).
    Queued(Option<Instant>),
    Dropped,
}

/// A shaper of packets `T` (the simulation's packet ids).
#[derive(Clone, Debug)]
pub struct TokenBucket<T> {
    pub params: TokenBucketParams,
    tokens: f64,
    /// When the tokens were last refilled (seconds); `None` before the
    /// first packet.
    refilled: Option<f64>,
    waiting: VecDeque<(T, u32)>,
}

impl<T> TokenBucket<T> {
    pub fn new(params: TokenBucketParams) -> Self {
        TokenBucket { params, tokens: 0.0, refilled: None, waiting: VecDeque::new() }
    }

    fn refill(&mut self, now: f64) {
        let last = *self.refilled.get_or_insert(now);
        self.tokens = (self.tokens + (now - last) * self.params.rate).min(self.params.bucket_bits as f64);
        self.refilled = Some(now);
    }

    /// When the bucket will hold `bits` tokens, in ns-2's double time.
    fn full_enough_at(&self, now: f64, bits: f64) -> Instant {
        Instant::from_secs_f64(now + (bits - self.tokens) / self.params.rate)
    }

    /// Offers packet `packet` of `size` bytes at `now`.
    pub fn offer(&mut self, now: Instant, packet: T, size: u32) -> Shaped {
        if self.refilled.is_none() {
            self.tokens = self.params.bucket_bits as f64;
        }
        if !self.waiting.is_empty() {
            if self.waiting.len() < self.params.limit as usize {
                self.waiting.push_back((packet, size));
                return Shaped::Queued(None);
            }
            return Shaped::Dropped;
        }
        let now = now.as_secs_f64();
        self.refill(now);
        let bits = f64::from(size) * 8.0;
        if self.tokens >= bits {
            self.tokens -= bits;
            Shaped::Send
        } else if self.params.limit > 0 {
            self.waiting.push_back((packet, size));
            Shaped::Queued(Some(self.full_enough_at(now, bits)))
        } else {
            Shaped::Dropped
        }
    }

    /// The wake-up: the head leaves (returned), with the time of the next
    /// wake-up if packets still wait.
    pub fn release(&mut self, now: Instant) -> Option<(T, Option<Instant>)> {
        let (packet, size) = self.waiting.pop_front()?;
        let now = now.as_secs_f64();
        self.refill(now);
        self.tokens -= f64::from(size) * 8.0;
        let next = self.waiting.front().map(|&(_, s)| self.full_enough_at(now, f64::from(s) * 8.0));
        Some((packet, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(limit: u32) -> TokenBucket<u32> {
        // 8000 bit/s, 2000 bits: a 250-byte packet takes 0.25 s of tokens.
        TokenBucket::new(TokenBucketParams { rate: 8000.0, bucket_bits: 2000, limit })
    }

    fn at(s: f64) -> Instant {
        Instant::from_secs_f64(s)
    }

    #[test]
    fn a_full_bucket_passes_a_burst_then_paces_at_the_rate() {
        let mut tb = bucket(10);
        assert_eq!(tb.offer(at(0.0), 0, 250), Shaped::Send, "the bucket starts full");
        // 0 tokens left: the next 125-byte packet waits 1000 / 8000 s.
        assert_eq!(tb.offer(at(0.0), 1, 125), Shaped::Queued(Some(at(0.125))));
        assert_eq!(tb.offer(at(0.01), 2, 125), Shaped::Queued(None));
        assert_eq!(tb.release(at(0.125)), Some((1, Some(at(0.25)))));
        assert_eq!(tb.release(at(0.25)), Some((2, None)));
        assert_eq!(tb.release(at(0.3)), None);
    }

    #[test]
    fn tokens_accumulate_up_to_the_bucket_only() {
        let mut tb = bucket(10);
        assert_eq!(tb.offer(at(0.0), 0, 250), Shaped::Send);
        // Ten seconds idle refill 2000 bits, not 80000: one packet passes.
        assert_eq!(tb.offer(at(10.0), 1, 250), Shaped::Send);
        assert!(matches!(tb.offer(at(10.0), 2, 250), Shaped::Queued(Some(_))));
    }

    #[test]
    fn without_a_queue_it_polices_and_with_one_it_drops_past_the_limit() {
        let mut policer = bucket(0);
        assert_eq!(policer.offer(at(0.0), 0, 250), Shaped::Send);
        assert_eq!(policer.offer(at(0.1), 1, 250), Shaped::Dropped);
        let mut shaper = bucket(2);
        shaper.offer(at(0.0), 0, 250);
        assert!(matches!(shaper.offer(at(0.0), 1, 250), Shaped::Queued(Some(_))));
        assert_eq!(shaper.offer(at(0.0), 2, 250), Shaped::Queued(None));
        assert_eq!(shaper.offer(at(0.0), 3, 250), Shaped::Dropped, "two wait already");
    }
}
