//! Undoing a window reduction that proves spurious, as Linux 6.x does
//! (net/ipv4/tcp_input.c: `undo_marker`, `undo_retrans`, `retrans_stamp`,
//! `tcp_process_loss`):
//!
//! * **Eifel detection** (RFC 3522, `undo`): with timestamps, the ACK that
//!   ends a recovery, or any ACK of new data after a timeout, echoing a
//!   timestamp older than the episode's first retransmission was sent for an
//!   original: the retransmission was not needed.
//! * **D-SACK** (RFC 3708, `undo`): every retransmission of the episode
//!   reported as a duplicate, during the recovery or after it.
//! * **F-RTO** (RFC 5682 §3 with SACK, Linux `tcp_frto = 2`, `frto`): after
//!   a timeout has resent the first segment, the first ACK that advances
//!   lets new data out (step 2b) instead of more retransmissions. An ACK
//!   that then delivers a segment sent before the timeout and never resent
//!   shows the timeout spurious (step 3b); a SACK or duplicate ACK shows
//!   the loss real, and recovery goes on from snd_una as after any timeout
//!   (step 3a).
//!
//! The response (Linux `tcp_undo_cwnd_reduction`): the algorithm's `undo`
//! with the window saved when the episode began (`prior_cwnd`, and
//! `prior_ssthresh`: the larger of ssthresh and 3/4 cwnd), the episode ends
//! and, after a timeout, nothing is deemed lost any more. The bookkeeping is
//! per episode: a retransmission adds to it, a D-SACK takes from it, and
//! ACKs are examined only while an episode may still be undone.

use crate::cc::{CongestionOps, Window};
use crate::endpoint::{Endpoint, Phase};
use crate::flight::Delivery;
use ackclock_core::Instant;
use ackclock_wire::{SeqNum, TcpRepr};

/// One loss episode's undo state; the default has nothing to undo.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Undo {
    /// snd_una when the episode began (Linux `undo_marker`); `None` when
    /// there is nothing to undo.
    marker: Option<u64>,
    /// The window before the reduction; `None` when the episode began
    /// during an ECN reduction, which is not undone.
    prior: Option<Window>,
    /// Bytes retransmitted in the episode (or in flight when it began) that
    /// no D-SACK has reported yet (`undo_retrans`).
    rtx_bytes: u64,
    /// Whether anything was retransmitted, and the timestamp of the first
    /// retransmission (`retrans_stamp`).
    retransmitted: bool,
    rtx_ts: Option<u32>,
    /// The timestamp of the first retransmission since none was in flight,
    /// kept between episodes: a probe's retransmission before an episode
    /// counts as its first (Linux sets `retrans_stamp` for any).
    stamp: Option<u32>,
    /// F-RTO is judging the latest timeout, and where the new data of its
    /// step 2b starts once sent.
    frto: bool,
    frto_new: Option<u64>,
}

impl Undo {
    #[inline]
    pub fn armed(&self) -> bool {
        self.marker.is_some()
    }

    /// Where F-RTO's new data starts, while it is being sent (the send
    /// window counts from there: what was sent before is deemed lost).
    #[inline]
    pub fn frto_base(&self) -> Option<u64> {
        self.frto_new
    }

    fn all_dsacked(&self) -> bool {
        self.retransmitted && self.rtx_bytes == 0
    }
}

impl Endpoint {
    fn undo_enabled(&self) -> bool {
        self.cfg.undo || self.cfg.frto
    }

    /// A window reduction begins a loss episode (fast retransmit, or a
    /// timeout outside an episode): remember the window before it. Called
    /// before ssthresh changes (Linux `tcp_init_undo`, `prior_cwnd`,
    /// `prior_ssthresh`).
    pub(crate) fn begin_undo_episode(&mut self) {
        if !self.undo_enabled() {
            return;
        }
        let prior = (!self.in_cwr()).then(|| {
            // Linux tcp_current_ssthresh: ssthresh, or 3/4 of the window
            // if that is larger, outside a reduction.
            let quarters = if self.phase == Phase::Open { self.win.cwnd / 2 + self.win.cwnd / 4 } else { 0 };
            Window { ssthresh: self.win.ssthresh.max(quarters), ..self.win }
        });
        let in_flight = self.flight.retransmitted_out();
        self.undo = Undo {
            marker: Some(self.snd_una),
            prior,
            rtx_bytes: in_flight,
            retransmitted: in_flight > 0,
            rtx_ts: self.undo.stamp.filter(|_| in_flight > 0),
            stamp: self.undo.stamp,
            ..Undo::default()
        };
    }

    /// A timeout: F-RTO judges it if enabled and it is the first of a new
    /// episode or a repeated one (Linux: not after fast recovery's own).
    pub(crate) fn undo_on_timeout(&mut self, new_episode: bool) {
        self.undo.frto = self.cfg.frto && self.undo.armed() && (new_episode || self.rto_count > 1);
        self.undo.frto_new = None;
    }

    /// A reduction that is never undone (ECN, a tail loss probe's repair)
    /// ends what an earlier episode could undo (Linux `tcp_enter_cwr`).
    pub(crate) fn forget_undo(&mut self) {
        self.undo = Undo { stamp: self.undo.stamp, ..Undo::default() };
    }

    /// A retransmission of `len` bytes goes out at `now` (before the send
    /// records take it).
    pub(crate) fn undo_note_retransmit(&mut self, now: Instant, len: u64) {
        if !self.undo_enabled() {
            return;
        }
        let ts = self.ts_clock(now);
        if self.flight.retransmitted_out() == 0 || self.undo.stamp.is_none() {
            self.undo.stamp = Some(ts);
        }
        if !self.undo.armed() {
            return;
        }
        if !self.undo.retransmitted {
            self.undo.retransmitted = true;
            self.undo.rtx_ts = Some(ts);
        }
        self.undo.rtx_bytes += len;
    }

    /// A D-SACK reported [start, end), retransmitted data, as a duplicate.
    pub(crate) fn undo_note_dsack(&mut self, start: u64, end: u64) {
        if self.undo.marker.is_some_and(|m| end > m) {
            self.undo.rtx_bytes = self.undo.rtx_bytes.saturating_sub(end - start);
        }
    }

    /// Eifel (RFC 3522 §3, Linux `tcp_packet_delayed`): the ACK echoes a
    /// timestamp older than the first retransmission, or nothing was
    /// retransmitted at all.
    fn packet_delayed(&self, seg: &TcpRepr) -> bool {
        let echo = seg.options.timestamps.filter(|&(_, ecr)| self.ts_ok && ecr != 0);
        !self.undo.retransmitted
            || matches!((self.undo.rtx_ts, echo), (Some(first), Some((_, ecr))) if SeqNum(ecr).lt(SeqNum(first)))
    }

    /// Linux `tcp_may_undo`: Eifel, or every retransmission D-SACKed.
    fn may_undo(&self, seg: &TcpRepr) -> bool {
        self.cfg.undo && (self.undo.all_dsacked() || self.packet_delayed(seg))
    }

    /// An ACK carried a D-SACK: undo if every retransmission of the episode
    /// has now been reported, in recovery or after it (RFC 3708, Linux
    /// `tcp_try_undo_dsack`).
    pub(crate) fn undo_if_all_dsacked(&mut self, now: Instant) {
        if self.cfg.undo && self.undo.all_dsacked() {
            self.undo_reduction(now);
        }
    }

    /// Examines a new or duplicate ACK (before the sender acts on it) in a
    /// loss episode that may be undone. `ack` is its cumulative ACK, `d`
    /// what it delivered, and `sacked` whether its SACK blocks delivered
    /// anything.
    pub(crate) fn detect_spurious(&mut self, now: Instant, seg: &TcpRepr, ack: u64, d: &Delivery, sacked: bool) {
        let advanced = ack > self.snd_una;
        let spurious = match self.phase {
            Phase::Open => false,
            Phase::FastRecovery => ack >= self.recover && self.may_undo(seg),
            Phase::Loss => (advanced && self.may_undo(seg)) || self.frto_spurious(ack, d, sacked, advanced),
        };
        if spurious {
            self.undo_reduction(now);
        }
    }

    /// F-RTO's verdict on an ACK in the Loss phase (Linux `tcp_process_loss`).
    fn frto_spurious(&mut self, ack: u64, d: &Delivery, sacked: bool, advanced: bool) -> bool {
        if !self.undo.frto {
            return false;
        }
        // Step 3b, on any ACK as Linux checks it: data sent before the timeout and
        // never resent was delivered, so not all of it was lost.
        if d.original_end.is_some_and(|end| end <= self.recover) {
            return true;
        }
        match self.undo.frto_new {
            // Step 3a: new data went out and the peer still misses data
            // sent before the timeout: the loss was real.
            Some(start) if self.snd_max > start && (sacked || !advanced) => self.frto_gives_up(),
            None if advanced && ack < self.recover => {
                // Step 2b: send new data if the windows allow, else fall
                // back to the conventional recovery.
                let rwnd_room = !self.cfg.flow_control || self.snd_max < ack + self.snd_wnd;
                if self.snd_max < self.data_end && rwnd_room {
                    self.undo.frto_new = Some(self.snd_max);
                    self.snd_nxt = self.snd_max;
                    self.recover = self.snd_max;
                } else {
                    self.undo.frto = false;
                }
            }
            _ => {}
        }
        false
    }

    /// F-RTO step 3a: go back to resending from snd_una.
    fn frto_gives_up(&mut self) {
        self.undo.frto = false;
        if self.undo.frto_new.take().is_some() {
            self.snd_nxt = self.snd_una;
        }
    }

    /// The episode was spurious: restore the window it reduced and end it
    /// (Linux `tcp_undo_cwnd_reduction`, `tcp_try_undo_loss`,
    /// `tcp_try_undo_recovery`, `tcp_try_undo_dsack`).
    fn undo_reduction(&mut self, now: Instant) {
        match self.phase {
            Phase::FastRecovery => self.leave_recovery(now),
            Phase::Loss => {
                // Nothing was lost: stop going back, and what is in flight
                // is in the network again.
                self.phase = Phase::Open;
                self.snd_nxt = self.snd_max;
                self.retransmit_at = None;
                self.flight.clear_lost();
            }
            Phase::Open => {}
        }
        // A new episode may start at once (a recovery after reordering).
        self.recover = 0;
        if let Some(before) = self.undo.prior {
            let c = self.conn(now);
            self.cc.undo(&mut self.win, &c, &before);
        }
        self.forget_undo();
        self.stats.undos += 1;
    }
}
