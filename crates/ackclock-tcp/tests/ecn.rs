//! Scripted exchanges for ECN (RFC 3168) and the per-packet echo DCTCP
//! needs (RFC 8257 §3.2).

use ackclock_core::Duration;
use ackclock_tcp::{AckPolicy, Endpoint, State, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpFlags};

mod common;
use common::{connect, data_from_peer, from_peer, ms, transmitted, ISS, LOCAL, MSS, PEER_ISS, REMOTE};

fn config() -> TcpConfig {
    TcpConfig { mss: MSS, iss: Some(ISS), initial_window: 10, ecn: true, ..TcpConfig::default() }
}

/// A client whose peer accepted ECN (SYN-ACK with ECE alone), or not.
fn client(cfg: TcpConfig, peer_accepts: bool) -> Endpoint {
    connect(cfg, |syn_ack| syn_ack.flags.ece = peer_accepts)
}

#[test]
fn ecn_is_offered_with_ece_and_cwr_and_agreed_by_a_syn_ack_with_ece_alone() {
    let mut ep = Endpoint::new(config(), LOCAL, REMOTE, 0);
    ep.connect();
    let (syn, ecn) = transmitted(&mut ep, ms(0))[0];
    assert!(syn.flags.ece && syn.flags.cwr && ecn == Ecn::NotEct);
    for (accepts, expected) in [(true, Ecn::Ect0), (false, Ecn::NotEct)] {
        let mut ep = client(config(), accepts);
        ep.write(u64::from(MSS));
        let data = transmitted(&mut ep, ms(100));
        assert_eq!(data[0].1, expected, "peer accepts ECN: {accepts}");
    }
}

#[test]
fn a_listener_accepts_an_ecn_offer_with_ece_in_its_syn_ack() {
    let mut ep = Endpoint::new(config(), LOCAL, REMOTE, 0);
    ep.listen();
    let mut syn = from_peer(0, 0);
    syn.seq = SeqNum(PEER_ISS);
    syn.flags = TcpFlags { syn: true, ece: true, cwr: true, ..TcpFlags::default() };
    ep.on_segment(ms(0), &syn, Ecn::NotEct);
    let (syn_ack, _) = transmitted(&mut ep, ms(0))[0];
    assert!(syn_ack.flags.syn && syn_ack.flags.ece && !syn_ack.flags.cwr);
    assert_eq!(ep.state(), State::SynReceived);
}

#[test]
fn only_new_data_is_ect_and_neither_acks_nor_retransmissions() {
    let mut ep = client(config(), true);
    ep.write(u64::from(2 * MSS));
    let first = transmitted(&mut ep, ms(100));
    assert!(first.iter().all(|&(s, e)| s.payload_len == MSS && e == Ecn::Ect0));
    ep.on_segment(ms(150), &data_from_peer(1, 10), Ecn::NotEct);
    let delack = ep.poll_at().unwrap();
    ep.on_timer(delack);
    let ack = transmitted(&mut ep, delack);
    assert_eq!((ack.len(), ack[0].0.payload_len, ack[0].1), (1, 0, Ecn::NotEct), "a pure ACK");
    let rto = ep.poll_at().unwrap();
    ep.on_timer(rto);
    let resent = transmitted(&mut ep, rto);
    assert_eq!((resent[0].0.seq.0 - ISS, resent[0].1), (1, Ecn::NotEct), "RFC 3168 §6.1.5");
}

/// A receiver with ECN agreed and ACKs every segment.
fn receiver(per_packet: bool) -> Endpoint {
    let cfg = TcpConfig { ecn_per_packet_echo: per_packet, ..config() };
    client(cfg, true)
}

/// (ack offset, ECE) of the ACKs sent at `t`.
fn acks(ep: &mut Endpoint, t: ackclock_core::Instant) -> Vec<(u32, bool)> {
    transmitted(ep, t).iter().map(|(s, _)| (s.ack.0 - PEER_ISS, s.flags.ece)).collect()
}

#[test]
fn a_ce_mark_is_acknowledged_at_once_and_echoed_until_cwr_arrives() {
    let mut ep = receiver(false);
    ep.on_segment(ms(200), &data_from_peer(1, MSS), Ecn::Ce);
    assert_eq!(acks(&mut ep, ms(200)), vec![(1 + MSS, true)], "at once, not delayed");
    ep.on_segment(ms(210), &data_from_peer(1 + MSS, MSS), Ecn::Ect0);
    ep.on_segment(ms(211), &data_from_peer(1 + 2 * MSS, MSS), Ecn::Ect0);
    assert_eq!(acks(&mut ep, ms(211)), vec![(1 + 3 * MSS, true)], "still echoed");
    let mut cwr = data_from_peer(1 + 3 * MSS, MSS);
    cwr.flags.cwr = true;
    ep.on_segment(ms(220), &cwr, Ecn::Ect0);
    ep.on_segment(ms(221), &data_from_peer(1 + 4 * MSS, MSS), Ecn::Ect0);
    assert_eq!(acks(&mut ep, ms(221)), vec![(1 + 5 * MSS, false)], "CWR ends the echo");
}

#[test]
fn per_packet_echo_acknowledges_the_data_before_a_ce_change_with_the_old_state() {
    let mut ep = receiver(true);
    ep.on_segment(ms(200), &data_from_peer(1, MSS), Ecn::Ect0);
    assert_eq!(acks(&mut ep, ms(200)), vec![], "delayed");
    ep.on_segment(ms(210), &data_from_peer(1 + MSS, MSS), Ecn::Ce);
    // The first segment is acknowledged without ECE; the second, marked,
    // waits for its partner.
    assert_eq!(acks(&mut ep, ms(210)), vec![(1 + MSS, false)]);
    ep.on_segment(ms(220), &data_from_peer(1 + 2 * MSS, MSS), Ecn::Ce);
    assert_eq!(acks(&mut ep, ms(220)), vec![(1 + 3 * MSS, true)]);
    ep.on_segment(ms(230), &data_from_peer(1 + 3 * MSS, MSS), Ecn::Ect0);
    ep.on_segment(ms(231), &data_from_peer(1 + 4 * MSS, MSS), Ecn::Ect0);
    assert_eq!(acks(&mut ep, ms(231)), vec![(1 + 5 * MSS, false)], "no CWR needed");
}

/// A sender with ten segments in flight on an ECN connection.
fn sender() -> Endpoint {
    let cfg = TcpConfig {
        ack_policy: AckPolicy::Delayed { timeout: Duration::from_millis(200), delay_repeat: false },
        ..config()
    };
    let mut ep = client(cfg, true);
    ep.write(u64::from(40 * MSS));
    assert_eq!(transmitted(&mut ep, ms(100)).len(), 10);
    ep
}

fn ece_ack(ack: u32) -> ackclock_wire::TcpRepr {
    let mut seg = from_peer(1, ack);
    seg.flags.ece = true;
    seg
}

#[test]
fn an_echo_halves_the_window_once_per_window_and_the_next_segment_carries_cwr() {
    let mut ep = sender();
    ep.on_segment(ms(200), &ece_ack(1 + MSS), Ecn::NotEct);
    // ssthresh = half the 10 segments in flight when the echo was sent;
    // cwnd = ssthresh (no PRR).
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5000, 5000));
    let sent = transmitted(&mut ep, ms(200));
    assert!(sent.is_empty(), "9 segments out, 5 allowed");
    ep.on_segment(ms(201), &ece_ack(1 + 8 * MSS), Ecn::NotEct);
    assert_eq!(ep.ssthresh(), 5000, "no second reduction in the window");
    // cwnd 5200 after congestion avoidance, 2 segments out: 3 more.
    let sent = transmitted(&mut ep, ms(201));
    assert_eq!(sent.len(), 3);
    assert!(sent[0].0.flags.cwr && !sent[1].0.flags.cwr, "CWR on the first new segment only");
    assert_eq!(ep.stats().ecn_reductions, 1);
    // Once everything sent before the reduction is acknowledged, a new
    // echo reduces again.
    ep.on_segment(ms(300), &ece_ack(1 + 12 * MSS), Ecn::NotEct);
    assert_eq!(ep.stats().ecn_reductions, 2);
}
