//! ECN (RFC 3168): negotiation in the handshake, ECT(0) on new data, the
//! receiver's echo of CE and the sender's window reduction, once per window.
//!
//! The receiver echoes CE the classic way (ECE on every ACK until a segment
//! with CWR arrives, §6.1.3) or, with `ecn_per_packet_echo`, per packet as
//! DCTCP needs (RFC 8257 §3.2): ECE says whether the latest data was
//! CE-marked, and when that changes while an ACK is delayed, the data before
//! the change is acknowledged at once with the old state.

use crate::cc::{CongestionOps, Conn, CwndEvent};
use crate::endpoint::{Endpoint, Phase};
use ackclock_core::Instant;
use ackclock_wire::{Ecn, TcpFlags, TcpRepr};

/// The receiver's ECN state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EcnReceiver {
    /// The CE state ACKs echo (classic: set by CE, cleared by CWR).
    pub echo: bool,
}

impl Endpoint {
    /// The ECN flags of our SYN or SYN-ACK: ECE and CWR offer ECN, ECE alone
    /// accepts it (RFC 3168 §6.1.1).
    pub(crate) fn syn_ecn_flags(&self, flags: &mut TcpFlags) {
        let answering = self.rcv_nxt > 0;
        flags.ece = if answering { self.ecn_ok } else { self.cfg.ecn };
        flags.cwr = !answering && self.cfg.ecn;
    }

    /// Records whether the peer's SYN offered, or its SYN-ACK accepted, ECN.
    pub(crate) fn negotiate_ecn(&mut self, syn: &TcpRepr) {
        let f = syn.flags;
        let offered_or_accepted = if f.ack { f.ece && !f.cwr } else { f.ece && f.cwr };
        self.ecn_ok = self.cfg.ecn && offered_or_accepted;
    }

    /// Receiver: a data segment that starts at the next expected offset
    /// arrived with this ECN codepoint (before its data is taken).
    pub(crate) fn on_data_ecn(&mut self, now: Instant, seg: &TcpRepr, ecn: Ecn) {
        if !self.ecn_ok {
            return;
        }
        let ce = ecn == Ecn::Ce;
        let was = self.ecn_rx.echo;
        if self.cfg.ecn_per_packet_echo {
            if ce != was && self.unacked_bytes > 0 {
                // The state ACK takes what came before; this segment starts
                // a new delayed ACK.
                self.lone_ack = Some((self.rcv_nxt, was));
                self.unacked_bytes = 0;
            }
            self.ecn_rx.echo = ce;
        } else {
            // §6.1.3: CWR ends the echo; CE (on this segment too) starts it,
            // and is acknowledged at once: the sender's cwnd may be small.
            if seg.flags.cwr {
                self.ecn_rx.echo = false;
            }
            if ce && !self.ecn_rx.echo {
                self.ecn_rx.echo = true;
                self.ack_now = true;
            }
        }
        if self.ecn_rx.echo != was {
            let event = if self.ecn_rx.echo { CwndEvent::EcnCe } else { CwndEvent::EcnNoCe };
            self.cwnd_event(now, event);
        }
    }

    /// Sender: an ACK carried ECE. RFC 3168 §6.1.2: reduce the window as for
    /// a loss, at most once per window of data, and say so with CWR on the
    /// next new segment. With PRR the window falls over a round trip (the
    /// CWR state, Linux `tcp_enter_cwr`).
    /// `prior_in_flight`: the flight when the echo was sent, before this ACK;
    /// the window it halves is at most cwnd (§6.1.2: "halves the congestion
    /// window"): after a timeout the flight still counts data sent long ago.
    pub(crate) fn on_ece(&mut self, now: Instant, prior_in_flight: u32) {
        let reduced = self.cwr_end.is_some_and(|end| self.snd_una <= end);
        if !self.ecn_ok || self.phase != Phase::Open || reduced {
            return;
        }
        self.stats.ecn_reductions += 1;
        self.forget_undo();
        let prior_cwnd = self.win.cwnd;
        let c = Conn { bytes_in_flight: prior_in_flight.min(prior_cwnd), ..self.conn(now) };
        self.win.ssthresh = self.cc.ssthresh(&self.win, &c);
        if !self.cc.owns_window() && !self.cfg.prr {
            self.win.cwnd = self.win.ssthresh;
        }
        self.start_prr(prior_cwnd);
        self.cwr_end = Some(self.snd_max);
        self.send_cwr = true;
        self.cwnd_event(now, CwndEvent::CwrStart);
    }

    /// The CWR state ends once data sent after the reduction is acknowledged.
    pub(crate) fn maybe_end_cwr(&mut self, now: Instant) {
        if self.cwr_end.is_some_and(|end| self.snd_una > end) {
            self.cwr_end = None;
            if self.phase == Phase::Open {
                self.leave_recovery(now);
            }
        }
    }

    /// Whether the window is being reduced for an ECN echo.
    pub(crate) fn in_cwr(&self) -> bool {
        self.cwr_end.is_some()
    }
}
