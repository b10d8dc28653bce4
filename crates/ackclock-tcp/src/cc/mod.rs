//! Congestion control: a small trait in the spirit of Linux's
//! `tcp_congestion_ops` and ns-3's `TcpCongestionOps`, one file per
//! algorithm, and a registry from names to algorithms.
//!
//! An algorithm sees small value structs and returns numbers; it never
//! touches the connection. The endpoint owns cwnd and ssthresh and the loss
//! recovery machinery; the algorithm chooses how recovery responds
//! (`recovery_style`), the ssthresh after a congestion event and how cwnd
//! grows on new acknowledgements.

mod reno;

pub use reno::Reno;

use ackclock_core::{Duration, Instant};

/// The window variables an algorithm decides from, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowState {
    pub cwnd: u32,
    pub ssthresh: u32,
    pub mss: u32,
    pub bytes_in_flight: u32,
}

/// Linux's congestion-avoidance states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    Open,
    /// Duplicate ACKs seen, below the threshold.
    Disorder,
    /// Fast recovery after fast retransmit.
    Recovery,
    /// After a retransmission timeout.
    Loss,
}

/// What a new acknowledgement brought.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AckSample {
    pub now: Instant,
    pub acked_bytes: u32,
    pub rtt: Option<Duration>,
}

/// How the endpoint recovers from a loss signalled by duplicate ACKs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryStyle {
    /// Fast retransmit, then slow start from one segment (no fast recovery).
    Tahoe,
    /// RFC 5681 fast recovery, left on the first new ACK.
    Reno,
    /// RFC 6582: partial ACKs retransmit the next hole and stay in recovery.
    NewReno,
}

pub trait CongestionOps {
    fn name(&self) -> &'static str;

    fn recovery_style(&self) -> RecoveryStyle;

    /// ssthresh after a congestion event: RFC 5681 eq. (4) by default.
    fn ssthresh(&mut self, w: &WindowState) -> u32 {
        (w.bytes_in_flight / 2).max(2 * w.mss)
    }

    /// The new cwnd after `acked` bytes were newly acknowledged outside
    /// loss recovery.
    fn cong_avoid(&mut self, w: &WindowState, acked: u32) -> u32;

    /// Called for every ACK that acknowledges new data.
    fn pkts_acked(&mut self, _sample: &AckSample) {}

    /// Called when the congestion-avoidance state changes.
    fn set_state(&mut self, _state: CaState) {}
}

/// Slow start and additive increase as in RFC 5681, optionally with
/// RFC 3465 appropriate byte counting. Shared by the Reno family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenoGrowth {
    abc: bool,
    /// ABC: bytes acknowledged since cwnd last grew in avoidance.
    bytes_acked: u64,
    /// Classic avoidance: the remainder of MSS^2 / cwnd carried between ACKs,
    /// so growth is exact rather than truncated per ACK.
    remainder: u64,
}

impl RenoGrowth {
    pub fn new(abc: bool) -> Self {
        RenoGrowth { abc, ..RenoGrowth::default() }
    }

    pub fn grow(&mut self, w: &WindowState, acked: u32) -> u32 {
        let (cwnd, mss) = (u64::from(w.cwnd), u64::from(w.mss));
        let next = if w.cwnd < w.ssthresh {
            // RFC 5681 (2); RFC 3465 allows L = 2 segments per ACK.
            let limit = if self.abc { 2 * mss } else { mss };
            cwnd + u64::from(acked).min(limit)
        } else if self.abc {
            // RFC 3465 §2.1: one MSS per cwnd of acknowledged bytes.
            self.bytes_acked += u64::from(acked);
            if self.bytes_acked >= cwnd {
                self.bytes_acked -= cwnd;
                cwnd + mss
            } else {
                cwnd
            }
        } else {
            // RFC 5681 (3): MSS * MSS / cwnd per ACK.
            let num = mss * mss + self.remainder;
            self.remainder = num % cwnd.max(1);
            cwnd + num / cwnd.max(1)
        };
        next.min(u64::from(u32::MAX / 2)) as u32
    }
}

/// The algorithms ackclock provides, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcKind {
    Tahoe,
    Reno,
    NewReno,
}

impl CcKind {
    pub const ALL: [CcKind; 3] = [CcKind::Tahoe, CcKind::Reno, CcKind::NewReno];

    pub fn name(self) -> &'static str {
        match self {
            CcKind::Tahoe => "tahoe",
            CcKind::Reno => "reno",
            CcKind::NewReno => "newreno",
        }
    }

    pub fn from_name(name: &str) -> Option<CcKind> {
        CcKind::ALL.into_iter().find(|k| k.name() == name.to_ascii_lowercase())
    }

    pub fn build(self, abc: bool) -> Cc {
        match self {
            CcKind::Tahoe => Cc::Reno(Reno::new(RecoveryStyle::Tahoe, abc)),
            CcKind::Reno => Cc::Reno(Reno::new(RecoveryStyle::Reno, abc)),
            CcKind::NewReno => Cc::Reno(Reno::new(RecoveryStyle::NewReno, abc)),
        }
    }
}

/// A congestion-control algorithm, dispatched by `match` (no trait objects
/// on the per-packet path).
#[derive(Clone, Debug, PartialEq)]
pub enum Cc {
    Reno(Reno),
}

macro_rules! dispatch {
    ($self:ident, $a:ident => $e:expr) => {
        match $self {
            Cc::Reno($a) => $e,
        }
    };
}

impl CongestionOps for Cc {
    fn name(&self) -> &'static str {
        dispatch!(self, a => a.name())
    }
    fn recovery_style(&self) -> RecoveryStyle {
        dispatch!(self, a => a.recovery_style())
    }
    fn ssthresh(&mut self, w: &WindowState) -> u32 {
        dispatch!(self, a => a.ssthresh(w))
    }
    fn cong_avoid(&mut self, w: &WindowState, acked: u32) -> u32 {
        dispatch!(self, a => a.cong_avoid(w, acked))
    }
    fn pkts_acked(&mut self, sample: &AckSample) {
        dispatch!(self, a => a.pkts_acked(sample))
    }
    fn set_state(&mut self, state: CaState) {
        dispatch!(self, a => a.set_state(state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(cwnd: u32, ssthresh: u32) -> WindowState {
        WindowState { cwnd, ssthresh, mss: 1000, bytes_in_flight: cwnd }
    }

    #[test]
    fn slow_start_adds_one_mss_per_ack_without_abc() {
        let mut g = RenoGrowth::new(false);
        assert_eq!(g.grow(&w(2000, 10_000), 2000), 3000);
    }

    #[test]
    fn slow_start_with_abc_adds_up_to_two_mss() {
        let mut g = RenoGrowth::new(true);
        assert_eq!(g.grow(&w(2000, 10_000), 2000), 4000);
        assert_eq!(g.grow(&w(2000, 10_000), 500), 2500);
    }

    #[test]
    fn avoidance_adds_one_mss_per_window_of_acks() {
        let mut g = RenoGrowth::new(false);
        let mut cwnd = 10_000;
        for _ in 0..10 {
            cwnd = g.grow(&w(cwnd, 5_000), 1000);
        }
        // Each ACK adds MSS^2 / cwnd of the growing cwnd (100, 99, 98, ...),
        // remainders carried: 958 bytes in all, a little under one MSS.
        assert_eq!(cwnd - 10_000, 958);
    }

    #[test]
    fn avoidance_with_abc_grows_after_a_full_window_of_bytes() {
        let mut g = RenoGrowth::new(true);
        assert_eq!(g.grow(&w(4000, 2000), 3000), 4000);
        assert_eq!(g.grow(&w(4000, 2000), 1000), 5000);
    }

    #[test]
    fn registry_maps_names_both_ways() {
        for k in CcKind::ALL {
            assert_eq!(CcKind::from_name(k.name()), Some(k));
            assert_eq!(k.build(false).name(), k.name());
        }
        assert_eq!(CcKind::from_name("NewReno"), Some(CcKind::NewReno));
        assert_eq!(CcKind::from_name("cubic"), None);
    }

    #[test]
    fn default_ssthresh_is_half_the_flight_but_at_least_two_segments() {
        let mut cc = CcKind::Reno.build(false);
        assert_eq!(cc.ssthresh(&WindowState { cwnd: 20_000, ssthresh: 0, mss: 1000, bytes_in_flight: 9_000 }), 4_500);
        assert_eq!(cc.ssthresh(&WindowState { cwnd: 2_000, ssthresh: 0, mss: 1000, bytes_in_flight: 1_000 }), 2_000);
    }
}
