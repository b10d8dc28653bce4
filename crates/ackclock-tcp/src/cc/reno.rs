//! The Reno family: the same window growth (slow start, then one segment
//! per RTT) with three loss responses.
//!
//! * Tahoe (Jacobson 1988): fast retransmit, then slow start from one
//!   segment.
//! * Reno (RFC 5681): fast recovery halves cwnd and ends on the first new
//!   ACK.
//! * NewReno (RFC 6582): fast recovery survives partial ACKs, repairing one
//!   hole per RTT until all data outstanding at the loss is acknowledged.
//!
//! The response is carried out by the endpoint's recovery machinery; the
//! algorithm only names it.

use super::{CongestionOps, RecoveryStyle, RenoGrowth, WindowState};

#[derive(Clone, Debug, PartialEq)]
pub struct Reno {
    style: RecoveryStyle,
    growth: RenoGrowth,
}

impl Reno {
    /// `abc`: RFC 3465 byte counting.
    pub fn new(style: RecoveryStyle, abc: bool) -> Self {
        Reno { style, growth: RenoGrowth::new(abc) }
    }
}

impl CongestionOps for Reno {
    fn name(&self) -> &'static str {
        match self.style {
            RecoveryStyle::Tahoe => "tahoe",
            RecoveryStyle::Reno => "reno",
            RecoveryStyle::NewReno => "newreno",
        }
    }
    fn recovery_style(&self) -> RecoveryStyle {
        self.style
    }
    fn cong_avoid(&mut self, w: &WindowState, acked: u32) -> u32 {
        self.growth.grow(w, acked)
    }
}
