//! Scripted exchanges for the options of RFC 2018/6675 (SACK), RFC 3042
//! (limited transmit) and RFC 7323 (timestamps, window scale).

use ackclock_core::{Duration, Instant};
use ackclock_tcp::{CcKind, Endpoint, State, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpFlags, TcpOptions, TcpRepr};

mod common;
use common::{ms, transmit, ISS, LOCAL, MSS, PEER_ISS, REMOTE};

fn ack_from_peer(ack: u32, sacked: &[(u32, u32)]) -> TcpRepr {
    let mut options = TcpOptions::default();
    for &(l, r) in sacked {
        options.sack.push((SeqNum(ISS + l), SeqNum(ISS + r)));
    }
    TcpRepr {
        src_port: REMOTE,
        dst_port: LOCAL,
        seq: SeqNum(PEER_ISS + 1),
        ack: SeqNum(ISS + ack),
        flags: TcpFlags { ack: true, ..TcpFlags::default() },
        window: 65_535,
        options,
        payload_len: 0,
    }
}

/// Sequence offsets of the data segments sent at `t`.
fn sent_offsets(ep: &mut Endpoint, t: Instant) -> Vec<u32> {
    std::iter::from_fn(|| transmit(ep, t).map(|(s, _)| s))
        .filter(|s| s.payload_len > 0)
        .map(|s| s.seq.0 - ISS)
        .collect()
}

/// A client whose peer answered with `peer_options`, then 10 segments in flight.
fn sender(cfg: TcpConfig, peer_options: TcpOptions) -> Endpoint {
    let mut ep = Endpoint::new(TcpConfig { mss: MSS, iss: Some(ISS), initial_window: 10, ..cfg }, LOCAL, REMOTE, 0);
    ep.connect();
    let syn = transmit(&mut ep, ms(0)).unwrap().0;
    assert!(syn.options.sack_permitted == ep.config().sack);
    let mut syn_ack = ack_from_peer(1, &[]);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options = TcpOptions { mss: Some(MSS as u16), ..peer_options };
    ep.on_segment(ms(100), &syn_ack, Ecn::NotEct);
    assert_eq!(ep.state(), State::Established);
    ep.write(20 * u64::from(MSS));
    assert_eq!(sent_offsets(&mut ep, ms(100)).len(), 10);
    ep
}

fn sack_ok() -> TcpOptions {
    TcpOptions { sack_permitted: true, ..TcpOptions::default() }
}

/// Segment k (0-based) covers offsets [1 + k MSS, 1 + (k+1) MSS).
fn seg(k: u32) -> u32 {
    1 + k * MSS
}

/// Segments 0, 3 and 6 are lost; the rest arrive and are SACKed at 200 ms.
/// Returns what the sender sent in reply to those duplicate ACKs.
fn three_losses(ep: &mut Endpoint) -> Vec<u32> {
    let arrivals: [&[(u32, u32)]; 7] = [
        &[(seg(1), seg(2))],
        &[(seg(1), seg(3))],
        &[(seg(4), seg(5)), (seg(1), seg(3))],
        &[(seg(4), seg(6)), (seg(1), seg(3))],
        &[(seg(7), seg(8)), (seg(4), seg(6)), (seg(1), seg(3))],
        &[(seg(7), seg(9)), (seg(4), seg(6)), (seg(1), seg(3))],
        &[(seg(7), seg(10)), (seg(4), seg(6)), (seg(1), seg(3))],
    ];
    arrivals
        .iter()
        .flat_map(|blocks| {
            ep.on_segment(ms(200), &ack_from_peer(1, blocks), Ecn::NotEct);
            sent_offsets(ep, ms(200))
        })
        .collect()
}

#[test]
fn sack_recovers_three_losses_in_one_round_trip() {
    let mut ep = sender(TcpConfig { cc: CcKind::NewReno, ..TcpConfig::default() }, sack_ok());
    let sent = three_losses(&mut ep);
    // Each hole is resent as soon as the scoreboard deems it lost, new data
    // filling the pipe in between: all within the round trip of the losses.
    assert_eq!(sent, vec![seg(0), seg(3), seg(10), seg(6), seg(11)]);
    assert_eq!(ep.cwnd(), 5 * MSS, "RFC 6675: cwnd = ssthresh = FlightSize / 2");
    ep.on_segment(ms(300), &ack_from_peer(seg(10), &[]), Ecn::NotEct);
    assert_eq!(ep.stats().sack_recoveries, 1);
    assert_eq!(ep.stats().timeouts, 0);
}

#[test]
fn newreno_without_sack_needs_a_round_trip_per_loss() {
    let cfg = TcpConfig { cc: CcKind::NewReno, sack: false, ..TcpConfig::default() };
    let mut ep = sender(cfg, sack_ok());
    // Fast retransmit of the first hole; inflation lets two new segments out.
    assert_eq!(three_losses(&mut ep), vec![seg(0), seg(10), seg(11)], "one hole per round trip");
    ep.on_segment(ms(300), &ack_from_peer(seg(3), &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(300))[0], seg(3));
    ep.on_segment(ms(400), &ack_from_peer(seg(6), &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(400))[0], seg(6));
    ep.on_segment(ms(500), &ack_from_peer(seg(10), &[]), Ecn::NotEct);
    assert_eq!(ep.stats().timeouts, 0);
}

#[test]
fn sack_is_not_used_unless_the_peer_offered_it() {
    let mut ep = sender(TcpConfig { cc: CcKind::NewReno, ..TcpConfig::default() }, TcpOptions::default());
    assert_eq!(three_losses(&mut ep), vec![seg(0), seg(10), seg(11)]);
    assert_eq!(ep.stats().sack_recoveries, 0);
}

#[test]
fn limited_transmit_sends_new_data_on_the_first_two_dupacks() {
    let cfg = TcpConfig { cc: CcKind::Reno, sack: false, limited_transmit: true, ..TcpConfig::default() };
    let mut ep = sender(cfg, TcpOptions::default());
    ep.on_segment(ms(200), &ack_from_peer(1, &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(200)), vec![seg(10)]);
    ep.on_segment(ms(201), &ack_from_peer(1, &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(201)), vec![seg(11)]);
    ep.on_segment(ms(202), &ack_from_peer(1, &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(202)), vec![seg(0)], "the third is fast retransmit");
}

#[test]
fn without_limited_transmit_early_dupacks_send_nothing() {
    let cfg = TcpConfig { cc: CcKind::Reno, sack: false, limited_transmit: false, ..TcpConfig::default() };
    let mut ep = sender(cfg, TcpOptions::default());
    ep.on_segment(ms(200), &ack_from_peer(1, &[]), Ecn::NotEct);
    ep.on_segment(ms(201), &ack_from_peer(1, &[]), Ecn::NotEct);
    assert_eq!(sent_offsets(&mut ep, ms(201)), vec![]);
}

#[test]
fn timestamps_are_echoed_and_measure_the_round_trip() {
    let ts = TcpOptions { timestamps: Some((777, ISS)), ..TcpOptions::default() };
    let mut ep = sender(TcpConfig::default(), ts);
    // Our clock is ms ticks offset by the ISN: at 100 ms TSval = ISS + 100.
    let data = transmit(&mut ep, ms(100)).map(|(s, _)| s);
    assert!(data.is_none());
    let mut ack = ack_from_peer(seg(1), &[]);
    ack.options.timestamps = Some((778, ISS + 100));
    ep.on_segment(ms(160), &ack, Ecn::NotEct);
    assert_eq!(ep.stats().rtt_min, Some(Duration::from_millis(60)), "RTT from the echoed timestamp");
    assert_eq!(ep.srtt(), Some(Duration::from_millis(95)), "7/8 of the handshake's 100 ms + 1/8 of 60 ms");
    let next = transmit(&mut ep, ms(160)).unwrap().0;
    assert_eq!(next.options.timestamps, Some((ISS + 160, 778)), "TSval now, TSecr = TS.Recent");
}

#[test]
fn paws_drops_a_segment_with_an_old_timestamp() {
    let ts = TcpOptions { timestamps: Some((1000, ISS)), ..TcpOptions::default() };
    let mut ep = sender(TcpConfig::default(), ts);
    let mut old = ack_from_peer(seg(2), &[]);
    old.options.timestamps = Some((999, ISS + 100));
    ep.on_segment(ms(150), &old, Ecn::NotEct);
    assert_eq!(ep.bytes_acked(), 0, "the old segment's ACK was ignored");
}

#[test]
fn window_scale_is_negotiated_and_applied_to_later_windows() {
    let cfg = TcpConfig { receive_buffer: 8 << 20, ..TcpConfig::default() };
    let mut ep = Endpoint::new(TcpConfig { mss: MSS, iss: Some(ISS), ..cfg }, LOCAL, REMOTE, 0);
    ep.connect();
    let syn = transmit(&mut ep, ms(0)).unwrap().0;
    assert_eq!(syn.options.window_scale, Some(8), "8 MiB >> 8 is the first shift that fits in 16 bits");
    assert_eq!(syn.window, 65_535, "a SYN's window is never scaled");
    let mut syn_ack = ack_from_peer(1, &[]);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options = TcpOptions { window_scale: Some(3), ..TcpOptions::default() };
    ep.on_segment(ms(100), &syn_ack, Ecn::NotEct);
    let ack = transmit(&mut ep, ms(100)).unwrap().0;
    assert_eq!(ack.window, ((8u32 << 20) >> 8) as u16, "our window, scaled by our shift");
    let update = TcpRepr { window: 1000, ..ack_from_peer(1, &[]) };
    ep.on_segment(ms(110), &update, Ecn::NotEct);
    ep.write(100 * u64::from(MSS));
    let sent = sent_offsets(&mut ep, ms(110));
    assert_eq!(sent.len(), 4, "initial window 4 < 8000-byte peer window (1000 << 3)");
}
