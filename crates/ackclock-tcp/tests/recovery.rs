//! Scripted exchanges for RACK-TLP (RFC 8985) and PRR (RFC 6937) as the
//! `linux` profile runs them: ten segments go out at 100 ms, one RTT after
//! the handshake, and the peer's SACKs say which arrived.

use ackclock_core::Instant;
use ackclock_tcp::{Endpoint, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpOptions};

mod common;
use common::{connect, from_peer, ms, transmitted, ISS, MSS};

/// The linux profile with 1000-byte segments; the peer offers SACK.
fn linux() -> Endpoint {
    let cfg = TcpConfig { mss: MSS, iss: Some(ISS), ..TcpConfig::linux() };
    connect(cfg, |syn_ack| syn_ack.options = TcpOptions { sack_permitted: true, ..syn_ack.options })
}

/// Segment k covers offsets [1 + k MSS, 1 + (k + 1) MSS).
fn seg(k: u32) -> u32 {
    1 + k * MSS
}

/// A linux sender with `segments` written and the first ten sent at 100 ms.
fn sender(segments: u64) -> Endpoint {
    let mut ep = linux();
    ep.write(segments * u64::from(MSS));
    assert_eq!(transmitted(&mut ep, ms(100)).len(), 10);
    ep
}

/// The peer's ACK of `ack` SACKing segments `sacked` (first .. last).
fn sack(ep: &mut Endpoint, t: Instant, ack: u32, sacked: Option<(u32, u32)>) -> Vec<u32> {
    let mut a = from_peer(1, ack);
    if let Some((first, last)) = sacked {
        a.options.sack.push((SeqNum(ISS + seg(first)), SeqNum(ISS + seg(last + 1))));
    }
    ep.on_segment(t, &a, Ecn::NotEct);
    offsets(ep, t)
}

/// Sequence offsets of the data segments sent at `t`.
fn offsets(ep: &mut Endpoint, t: Instant) -> Vec<u32> {
    transmitted(ep, t).iter().filter(|(s, _)| s.payload_len > 0).map(|(s, _)| s.seq.0 - ISS).collect()
}

#[test]
fn rack_waits_a_quarter_of_the_min_rtt_before_deeming_a_hole_lost() {
    let mut ep = sender(10);
    // Segment 0 lost; segment 1's SACK comes back at 200 ms (RTT 100 ms).
    assert_eq!(sack(&mut ep, ms(200), 1, Some((1, 1))), vec![], "one SACK: reordering is possible");
    // Segment 0 was sent with segment 1: lost at 100 + RTT + min_RTT / 4.
    assert_eq!(ep.poll_at(), Some(ms(225)));
    ep.on_timer(ms(225));
    assert_eq!(offsets(&mut ep, ms(225)), vec![seg(0)]);
    assert_eq!(ep.stats().fast_retransmits, 1);
}

#[test]
fn with_dupthresh_segments_sacked_rack_deems_the_hole_lost_at_once() {
    let mut ep = sender(10);
    sack(&mut ep, ms(200), 1, Some((1, 1)));
    sack(&mut ep, ms(201), 1, Some((1, 2)));
    assert_eq!(sack(&mut ep, ms(202), 1, Some((1, 3))), vec![seg(0)]);
}

#[test]
fn prr_sends_in_proportion_to_what_is_delivered_until_the_pipe_is_down_to_ssthresh() {
    // Segment 0 lost, 1-9 SACKed one per ACK. The first two SACKs each let
    // a new segment out (10, 11); the third starts recovery. linux-reno:
    // ssthresh = 10 / 2 segments; PRR (RFC 6937, Linux tcp_cwnd_reduction)
    // lets out ceil(ssthresh * delivered / RecoverFS) - sent while the pipe
    // exceeds ssthresh: 5/10 of what is delivered, the retransmission first.
    let mut ep = sender(30);
    assert_eq!(sack(&mut ep, ms(200), 1, Some((1, 1))), vec![seg(10)]);
    assert_eq!(sack(&mut ep, ms(201), 1, Some((1, 2))), vec![seg(11)]);
    let per_ack: Vec<Vec<u32>> = (3..=9).map(|k| sack(&mut ep, ms(200 + u64::from(k)), 1, Some((1, k)))).collect();
    assert_eq!(ep.ssthresh(), 5 * MSS);
    assert_eq!(
        per_ack,
        vec![
            vec![seg(0)],  // delivered 1: at least the retransmission
            vec![],        // 2: ceil(1) - 1
            vec![seg(12)], // 3: ceil(1.5) - 1
            vec![],        // 4: 2 - 2
            vec![seg(13)], // 5: ceil(2.5) - 2
            vec![],        // 6: 3 - 3
            vec![],        // 7: the pipe (5) is down to ssthresh
        ]
    );
    // Everything sent before recovery acknowledged: cwnd = ssthresh.
    sack(&mut ep, ms(300), seg(12), None);
    assert_eq!(ep.cwnd(), 5 * MSS);
}

#[test]
fn a_tail_loss_is_probed_with_the_last_segment_before_the_rto() {
    // Only segment 9 is lost and nothing more is written: no SACK can come.
    let mut ep = sender(10);
    assert_eq!(sack(&mut ep, ms(200), seg(9), None), vec![]);
    // PTO = 2 srtt + 200 ms for a single segment in flight (400 ms), but
    // never after the RTO: 100 ms + 4 x 37.5 ms.
    let pto = ep.poll_at().unwrap();
    assert_eq!(pto, ms(450));
    ep.on_timer(pto);
    assert_eq!(offsets(&mut ep, pto), vec![seg(9)]);
    assert_eq!((ep.stats().loss_probes, ep.stats().timeouts), (1, 0));
}

#[test]
fn a_probe_that_repaired_a_loss_reduces_the_window_once() {
    let mut ep = sender(10);
    sack(&mut ep, ms(200), seg(9), None);
    ep.on_timer(ms(450));
    assert_eq!(offsets(&mut ep, ms(450)), vec![seg(9)]);
    // The probe's ACK, then more data and an ACK beyond it: the probe
    // repaired a loss (RFC 8985 §7.4.2), a congestion response follows.
    sack(&mut ep, ms(550), seg(10), None);
    ep.write(u64::from(MSS));
    assert_eq!(offsets(&mut ep, ms(550)), vec![seg(10)]);
    let before = ep.cwnd();
    sack(&mut ep, ms(650), seg(11), None);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (before / MSS / 2 * MSS, before / MSS / 2 * MSS));
    assert_eq!(ep.stats().timeouts, 0);
}
