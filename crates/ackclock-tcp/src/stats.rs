//! Counters an endpoint keeps about itself.

use ackclock_core::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TcpStats {
    pub segments_sent: u64,
    /// Payload bytes put on the wire, retransmissions included.
    pub bytes_sent: u64,
    /// Segments that resent sequence space already sent once.
    pub retransmits: u64,
    pub retransmitted_bytes: u64,
    pub fast_retransmits: u64,
    /// Loss recoveries driven by the SACK scoreboard (RFC 6675).
    pub sack_recoveries: u64,
    /// D-SACK blocks received (RFC 2883).
    pub dsacks: u64,
    /// Retransmissions a D-SACK showed to have been unnecessary.
    pub spurious_retransmits: u64,
    pub timeouts: u64,
    /// Of those, timeouts soon after an ECN cut, which keep ssthresh (ns-2's
    /// one-way agents, which leave them out of `nrexmit_`).
    pub timeouts_after_ecn: u64,
    /// Windows restarted after an idle period (ns-2's FullTcp).
    pub idle_restarts: u64,
    /// Tail loss probes sent (RFC 8985 §7).
    pub loss_probes: u64,
    /// Window reductions undone as spurious: F-RTO (RFC 5682), Eifel
    /// timestamps (RFC 3522) or D-SACK (RFC 3708).
    pub undos: u64,
    /// Window reductions for ECN echoes (RFC 3168 §6.1.2).
    pub ecn_reductions: u64,
    pub dupacks_received: u64,
    pub segments_received: u64,
    pub rtt_samples: u64,
    pub rtt_sum: Duration,
    pub rtt_min: Option<Duration>,
    pub rtt_max: Option<Duration>,
    pub last_rtt: Option<Duration>,
}

impl TcpStats {
    pub fn record_rtt(&mut self, rtt: Duration) {
        self.rtt_samples += 1;
        self.rtt_sum += rtt;
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
        self.rtt_max = Some(self.rtt_max.map_or(rtt, |m| m.max(rtt)));
        self.last_rtt = Some(rtt);
    }

    pub fn rtt_mean(&self) -> Option<Duration> {
        (self.rtt_samples > 0).then(|| Duration::from_ps(self.rtt_sum.as_ps() / self.rtt_samples))
    }
}
