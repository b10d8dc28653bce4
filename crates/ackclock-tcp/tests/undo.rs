//! Scripted exchanges for undoing spurious window reductions as the `linux`
//! profile does: F-RTO after a timeout (RFC 5682), Eifel detection with
//! timestamps (RFC 3522) and D-SACK (RFC 3708). Ten segments go out at
//! 100 ms, one RTT after the handshake (srtt 100 ms, RTO 300 ms); the
//! peer's ACKs say what arrived and when.

use ackclock_core::Instant;
use ackclock_tcp::{Endpoint, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpOptions};

mod common;
use common::{connect, from_peer, ms, transmitted, ISS, MSS};

/// Segment k covers offsets [1 + k MSS, 1 + (k + 1) MSS).
fn seg(k: u32) -> u32 {
    1 + k * MSS
}

/// Our TSval at `t` ms: the millisecond clock offset by the ISN.
fn tsval(t: u64) -> u32 {
    t as u32 + ISS
}

/// A linux-profile sender (`frto` and `undo` as given) with `segments`
/// written and the first ten sent at 100 ms; the peer offers SACK, and
/// timestamps if `timestamps`.
fn sender(segments: u64, timestamps: bool, frto: bool, undo: bool) -> Endpoint {
    let cfg = TcpConfig { mss: MSS, iss: Some(ISS), frto, undo, ..TcpConfig::linux() };
    let mut ep = connect(cfg, |syn_ack| {
        syn_ack.options =
            TcpOptions { sack_permitted: true, timestamps: timestamps.then_some((1, tsval(0))), ..syn_ack.options }
    });
    ep.write(segments * u64::from(MSS));
    assert_eq!(offsets(&mut ep, ms(100)).len(), 10);
    ep
}

/// The peer's ACK of `ack` at `t`, SACKing `sacked` (offsets), echoing
/// `echo` if timestamps are in use; returns the data offsets sent in reply.
fn ack(ep: &mut Endpoint, t: Instant, ack: u32, sacked: Option<(u32, u32)>, echo: Option<u32>) -> Vec<u32> {
    let mut a = from_peer(1, ack);
    if let Some((start, end)) = sacked {
        a.options.sack.push((SeqNum(ISS + start), SeqNum(ISS + end)));
    }
    a.options.timestamps = echo.map(|ecr| (2, ecr));
    ep.on_segment(t, &a, Ecn::NotEct);
    offsets(ep, t)
}

/// Sequence offsets of the data segments sent at `t`.
fn offsets(ep: &mut Endpoint, t: Instant) -> Vec<u32> {
    transmitted(ep, t).iter().filter(|(s, _)| s.payload_len > 0).map(|(s, _)| s.seq.0 - ISS).collect()
}

/// No ACK comes back: a tail loss probe at 302 ms (2 srtt + 2 ms) sends
/// segment 10, and the RTO, restarted by it, fires and resends segment 0
/// with cwnd one segment and ssthresh half the window (linux-reno). Returns
/// when the RTO fired.
fn timeout(ep: &mut Endpoint) -> u64 {
    assert_eq!(ep.poll_at(), Some(ms(302)));
    ep.on_timer(ms(302));
    assert_eq!(offsets(ep, ms(302)), vec![seg(10)], "the probe");
    let rto = loop {
        let t = ep.poll_at().unwrap();
        ep.on_timer(t);
        if ep.stats().timeouts > 0 {
            break t;
        }
    };
    assert_eq!(offsets(ep, rto), vec![seg(0)]);
    assert_eq!((ep.stats().timeouts, ep.cwnd(), ep.ssthresh()), (1, MSS, 5 * MSS));
    rto.as_ps() / 1_000_000_000
}

#[test]
fn frto_sends_new_data_after_a_timeout_and_undoes_it_when_an_original_segment_is_acknowledged() {
    // The path stalled, nothing was lost: the ACKs of the originals come
    // back after the timeout. The first lets two new segments out (step
    // 2b); the second acknowledges segment 1, sent before the timeout and
    // never resent (step 3b): the timeout was spurious.
    let mut ep = sender(40, false, true, false);
    let t = timeout(&mut ep) + 50;
    assert_eq!(ack(&mut ep, ms(t), seg(1), None, None), vec![seg(11), seg(12)]);
    ack(&mut ep, ms(t + 1), seg(2), None, None);
    assert_eq!(ep.stats().undos, 1);
    assert!(ep.cwnd() >= 10 * MSS, "cwnd {} is the window before the timeout again", ep.cwnd());
    assert_eq!(ep.ssthresh(), u32::MAX / 2, "slow start's unbounded ssthresh is back");
    // Nothing more is resent: the originals are in the network.
    for k in 3..=12 {
        ack(&mut ep, ms(t + u64::from(k)), seg(k), None, None);
    }
    assert_eq!(ep.stats().retransmits, 1);
}

#[test]
fn without_undo_the_same_spurious_timeout_goes_back_n_from_one_segment() {
    let mut ep = sender(40, false, false, false);
    let t = timeout(&mut ep) + 50;
    assert_eq!(ack(&mut ep, ms(t), seg(1), None, None), vec![seg(1), seg(2)], "go back N in slow start");
    assert_eq!((ep.stats().undos, ep.cwnd(), ep.ssthresh()), (0, 2 * MSS, 5 * MSS));
}

#[test]
fn frto_keeps_the_reduction_when_the_new_data_is_sacked_beyond_a_hole() {
    // Everything in flight was lost. The resent segment 0 is acknowledged,
    // two new segments go out, and the peer SACKs them with segment 1
    // still missing (step 3a): the loss was real, recovery resends from 1.
    let mut ep = sender(40, false, true, false);
    let t = timeout(&mut ep) + 100;
    assert_eq!(ack(&mut ep, ms(t), seg(1), None, None), vec![seg(11), seg(12)]);
    assert_eq!(ack(&mut ep, ms(t + 100), seg(1), Some((seg(11), seg(12))), None), vec![seg(1), seg(2)]);
    assert_eq!((ep.stats().undos, ep.ssthresh()), (0, 5 * MSS));
}

/// Segment 0 is delayed behind 1-3: their SACKs at 200-202 ms let RACK deem
/// it lost (three segments SACKed, no reordering seen: no window) and it is
/// resent at 202 ms; ssthresh = cwnd / 2.
fn reordered_fast_retransmit(ep: &mut Endpoint, echo: Option<u32>) {
    assert_eq!(ack(ep, ms(200), seg(0), Some((seg(1), seg(2))), echo), vec![]);
    assert_eq!(ack(ep, ms(201), seg(0), Some((seg(1), seg(3))), echo), vec![]);
    assert_eq!(ack(ep, ms(202), seg(0), Some((seg(1), seg(4))), echo), vec![seg(0)]);
    assert_eq!((ep.stats().fast_retransmits, ep.ssthresh()), (1, 5 * MSS));
}

#[test]
fn eifel_undoes_a_fast_retransmit_whose_ack_echoes_the_original_timestamp() {
    // The original segment 0 (TSval of 100 ms) fills the hole at the peer
    // before the retransmission (TSval of 202 ms) arrives: the ACK that
    // ends recovery echoes the older timestamp (RFC 3522 §3.2).
    let mut ep = sender(10, true, true, true);
    reordered_fast_retransmit(&mut ep, Some(tsval(100)));
    ack(&mut ep, ms(205), seg(10), None, Some(tsval(100)));
    // The window before recovery and the unbounded ssthresh of slow start
    // are back, and the ACK grows cwnd in slow start from there.
    assert_eq!((ep.stats().undos, ep.ssthresh()), (1, u32::MAX / 2));
    assert!(ep.cwnd() >= 10 * MSS, "cwnd {}", ep.cwnd());
}

#[test]
fn eifel_keeps_the_reduction_when_the_ack_echoes_the_retransmission() {
    let mut ep = sender(10, true, true, true);
    reordered_fast_retransmit(&mut ep, Some(tsval(100)));
    ack(&mut ep, ms(305), seg(10), None, Some(tsval(202)));
    assert_eq!((ep.stats().undos, ep.cwnd()), (0, 5 * MSS));
}

#[test]
fn a_dsack_for_the_only_retransmission_undoes_the_recovery_after_it_ended() {
    // Without timestamps the ACK of the original ends recovery with
    // cwnd = ssthresh; the retransmission then reaches the peer, which
    // reports it with a D-SACK below its cumulative ACK (RFC 2883 §4.1).
    let mut ep = sender(10, false, true, true);
    reordered_fast_retransmit(&mut ep, None);
    ack(&mut ep, ms(205), seg(10), None, None);
    assert_eq!(ep.cwnd(), 5 * MSS);
    ack(&mut ep, ms(302), seg(10), Some((seg(0), seg(1))), None);
    assert_eq!(ep.stats().spurious_retransmits, 1);
    assert_eq!((ep.stats().undos, ep.cwnd(), ep.ssthresh()), (1, 10 * MSS, u32::MAX / 2));
}

#[test]
fn a_dsack_does_not_undo_while_another_retransmission_is_unreported() {
    // Segments 4 and 5 are lost as well and resent; only 0's duplicate is
    // reported.
    let mut ep = sender(10, false, true, true);
    reordered_fast_retransmit(&mut ep, None);
    let resent = ack(&mut ep, ms(203), seg(0), Some((seg(6), seg(10))), None);
    assert!(resent.starts_with(&[seg(4), seg(5)]), "{resent:?}");
    ack(&mut ep, ms(302), seg(10), Some((seg(0), seg(1))), None);
    assert_eq!(ep.stats().undos, 0);
}

#[test]
fn eifel_undoes_a_timeout_at_the_first_ack_echoing_a_timestamp_older_than_the_probe() {
    // Nothing more to send: the tail loss probe resends segment 9, then the
    // RTO resends segment 0. The ACK of the original segment 0 echoes its
    // timestamp, older than the first retransmission (the probe's): the
    // timeout was spurious (Linux keeps retrans_stamp from the probe).
    // F-RTO is off: Eifel alone tells.
    let mut ep = sender(10, true, false, true);
    ep.on_timer(ms(302));
    assert_eq!(offsets(&mut ep, ms(302)), vec![seg(9)], "the probe");
    let rto = loop {
        let t = ep.poll_at().unwrap();
        ep.on_timer(t);
        if ep.stats().timeouts > 0 {
            break t;
        }
    };
    assert_eq!(offsets(&mut ep, rto), vec![seg(0)]);
    assert_eq!(ep.stats().retransmits, 2, "the probe and the timeout");
    // Later than a minimum RTT after the timeout's retransmission.
    let t = rto.as_ps() / 1_000_000_000 + 150;
    assert_eq!(ack(&mut ep, ms(t), seg(2), None, Some(tsval(100))), vec![]);
    assert_eq!((ep.stats().undos, ep.ssthresh()), (1, u32::MAX / 2));
    assert!(ep.cwnd() >= 10 * MSS, "cwnd {}", ep.cwnd());
    // The ACK is not the retransmission's (RFC 8985 §6.2 step 2): RACK
    // does not deem the originals sent before it lost.
    assert_eq!(ep.stats().fast_retransmits, 0);
}
