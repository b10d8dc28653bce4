//! Hook tests: a recording algorithm in place of a real one shows when the
//! endpoint calls each hook of the interface, with what, and that what a
//! hook sets takes effect.

use super::{CaState, Cc, CongestionOps, Conn, CwndEvent, LossCheck, Oldest, RateSample, Window};
use crate::{Endpoint, TcpConfig};
use ackclock_core::{Bandwidth, Duration, Instant};
use ackclock_wire::{Ecn, SeqNum, TcpFlags, TcpRepr};

const ISS: u32 = 100;
const PEER_ISS: u32 = 5000;
const MSS: u32 = 1000;

/// A call the endpoint made, with what the algorithm saw.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Ssthresh { flight: u32 },
    CongAvoid { acked: u32, state: CaState, cwnd_limited: bool },
    CongControl(RateSample),
    PktsAcked(RateSample),
    Event(CwndEvent),
    CheckLoss { dupacks: Option<u32>, oldest: Oldest },
}

/// Records every call; optionally owns the window or paces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recorder {
    pub calls: Vec<Call>,
    /// Own the window and set cwnd to this on every ACK.
    pub control_cwnd: Option<u32>,
    pub pacing: Option<Bandwidth>,
    /// Detect losses, with this verdict.
    pub loss: Option<LossCheck>,
}

impl CongestionOps for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn ssthresh(&mut self, _w: &Window, c: &Conn) -> u32 {
        self.calls.push(Call::Ssthresh { flight: c.bytes_in_flight });
        3 * c.mss
    }
    fn cong_avoid(&mut self, w: &mut Window, c: &Conn, rs: &RateSample) {
        self.calls.push(Call::CongAvoid { acked: rs.acked, state: c.state, cwnd_limited: c.cwnd_limited });
        w.cwnd += rs.acked;
    }
    fn owns_window(&self) -> bool {
        self.control_cwnd.is_some()
    }
    fn cong_control(&mut self, w: &mut Window, _c: &Conn, rs: &RateSample) {
        self.calls.push(Call::CongControl(*rs));
        w.cwnd = self.control_cwnd.expect("owns the window");
    }
    fn pkts_acked(&mut self, _c: &Conn, rs: &RateSample) {
        self.calls.push(Call::PktsAcked(*rs));
    }
    fn cwnd_event(&mut self, w: &mut Window, _c: &Conn, event: CwndEvent) {
        self.calls.push(Call::Event(event));
        if event == CwndEvent::Init {
            w.pacing_rate = self.pacing;
        }
    }
    fn detects_loss(&self) -> bool {
        self.loss.is_some()
    }
    fn check_loss(&mut self, _c: &Conn, dupacks: Option<u32>, oldest: Oldest) -> LossCheck {
        self.calls.push(Call::CheckLoss { dupacks, oldest });
        self.loss.expect("detects losses")
    }
}

fn ms(x: u64) -> Instant {
    Instant::from_ps(x * 1_000_000_000)
}

fn from_peer(ack: u32) -> TcpRepr {
    TcpRepr {
        src_port: 2,
        dst_port: 1,
        seq: SeqNum(PEER_ISS + 1),
        ack: SeqNum(ISS + ack),
        flags: TcpFlags { ack: true, ..TcpFlags::default() },
        window: 65_535,
        ..TcpRepr::default()
    }
}

/// A client with the recorder in place of its algorithm, established at
/// 100 ms, with `bytes` written.
fn client(recorder: Recorder, bytes: u64) -> Endpoint {
    let cfg = TcpConfig { mss: MSS, iss: Some(ISS), initial_window: 2, ..TcpConfig::default() };
    let mut ep = Endpoint::new(cfg, 1, 2, 0);
    ep.cc = Cc::Recorder(recorder);
    ep.cc_detects_loss = ep.cc.detects_loss();
    ep.connect();
    ep.poll_transmit(ms(0), &mut TcpRepr::default()).expect("a SYN");
    let mut syn_ack = from_peer(1);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options.mss = Some(MSS as u16);
    ep.on_segment(ms(100), &syn_ack, Ecn::NotEct);
    ep.write(bytes);
    ep
}

/// Sequence offsets of the data segments sent at `t`.
fn sent(ep: &mut Endpoint, t: Instant) -> Vec<u32> {
    let mut seg = TcpRepr::default();
    let mut offsets = Vec::new();
    while ep.poll_transmit(t, &mut seg).is_some() {
        if seg.payload_len > 0 {
            offsets.push(seg.seq.0 - ISS);
        }
    }
    offsets
}

/// The calls recorded since the last look.
fn calls(ep: &mut Endpoint) -> Vec<Call> {
    match &mut ep.cc {
        Cc::Recorder(r) => std::mem::take(&mut r.calls),
        _ => unreachable!("the recorder is installed"),
    }
}

fn events(ep: &mut Endpoint) -> Vec<CwndEvent> {
    calls(ep).into_iter().filter_map(|c| if let Call::Event(e) = c { Some(e) } else { None }).collect()
}

#[test]
fn init_fires_once_the_handshake_fixes_the_segment_size() {
    let mut ep = client(Recorder::default(), 0);
    assert_eq!(calls(&mut ep), vec![Call::Event(CwndEvent::Init)]);
    assert_eq!(ep.cwnd(), 2 * MSS);
}

#[test]
fn tx_start_fires_when_data_leaves_with_nothing_in_flight() {
    let mut ep = client(Recorder::default(), u64::from(2 * MSS));
    calls(&mut ep);
    assert_eq!(sent(&mut ep, ms(100)), vec![1, 1 + MSS]);
    assert_eq!(events(&mut ep), vec![CwndEvent::TxStart], "once, for the first segment");
    ep.on_segment(ms(200), &from_peer(1 + 2 * MSS), Ecn::NotEct);
    ep.write(u64::from(MSS));
    sent(&mut ep, ms(300));
    assert_eq!(events(&mut ep), vec![CwndEvent::TxStart], "again after the flight drained");
}

#[test]
fn pkts_acked_and_cong_avoid_see_each_ack_with_its_rate_sample() {
    let mut ep = client(Recorder::default(), u64::from(4 * MSS));
    sent(&mut ep, ms(100));
    calls(&mut ep);
    ep.on_segment(ms(200), &from_peer(1 + 2 * MSS), Ecn::NotEct);
    let rs = RateSample {
        acked: 2 * MSS,
        acked_sacked: 2 * MSS,
        delivered: u64::from(2 * MSS),
        interval: Duration::from_millis(100),
        prior_delivered: Some(0),
        rtt: Some(Duration::from_millis(100)),
        prior_in_flight: 2 * MSS,
        ..RateSample::default()
    };
    let avoid = Call::CongAvoid { acked: 2 * MSS, state: CaState::Open, cwnd_limited: true };
    assert_eq!(calls(&mut ep), vec![Call::PktsAcked(rs), avoid]);
    assert_eq!(ep.cwnd(), 4 * MSS, "what cong_avoid set is the window");
    assert_eq!(sent(&mut ep, ms(200)), vec![1 + 2 * MSS, 1 + 3 * MSS]);
}

#[test]
fn a_window_without_room_for_a_full_segment_limits_sending() {
    // cwnd 4.5 segments: the fifth segment does not fit, so the window,
    // not the application, stopped sending (RFC 7661; Linux counts whole
    // packets).
    let mut ep = client(Recorder::default(), u64::from(20 * MSS));
    ep.win.cwnd = 4 * MSS + MSS / 2;
    ep.win.ssthresh = 2 * MSS;
    assert_eq!(sent(&mut ep, ms(100)).len(), 4);
    calls(&mut ep);
    ep.on_segment(ms(200), &from_peer(1 + MSS), Ecn::NotEct);
    let c = calls(&mut ep);
    assert!(matches!(c[..], [Call::PktsAcked(_), Call::CongAvoid { cwnd_limited: true, .. }]), "{c:?}");
}

/// Four segments out, the first lost: three duplicate ACKs.
fn fast_retransmit(recorder: Recorder) -> Endpoint {
    let mut ep = client(recorder, u64::from(8 * MSS));
    ep.win.cwnd = 4 * MSS;
    assert_eq!(sent(&mut ep, ms(100)).len(), 4);
    calls(&mut ep);
    for _ in 0..3 {
        ep.on_segment(ms(200), &from_peer(1), Ecn::NotEct);
    }
    ep
}

#[test]
fn fast_retransmit_asks_for_ssthresh_then_raises_recovery_start() {
    let mut ep = fast_retransmit(Recorder::default());
    let c = calls(&mut ep);
    assert_eq!(c, vec![Call::Ssthresh { flight: 4 * MSS }, Call::Event(CwndEvent::RecoveryStart)]);
    assert_eq!((ep.ssthresh(), ep.cwnd_packets()), (3 * MSS, 3.0), "cwnd = the new ssthresh");
    // cwnd 3 + 3 duplicate ACKs = 6 segments with 4 in flight: the hole
    // and two new segments (RFC 5681 §3.2).
    assert_eq!(sent(&mut ep, ms(200)), vec![1, 1 + 4 * MSS, 1 + 5 * MSS]);
}

#[test]
fn the_ack_ending_recovery_raises_recovery_end_and_does_not_grow_cwnd() {
    let mut ep = fast_retransmit(Recorder::default());
    sent(&mut ep, ms(200));
    calls(&mut ep);
    ep.on_segment(ms(300), &from_peer(1 + 4 * MSS), Ecn::NotEct);
    let c = calls(&mut ep);
    assert!(matches!(c[..], [Call::PktsAcked(_), Call::Event(CwndEvent::RecoveryEnd)]), "{c:?}");
    assert_eq!(ep.cwnd(), 3 * MSS);
}

#[test]
fn a_timeout_asks_for_ssthresh_sets_the_loss_window_and_raises_rto() {
    let mut ep = client(Recorder::default(), u64::from(2 * MSS));
    sent(&mut ep, ms(100));
    calls(&mut ep);
    let rto = ep.poll_at().expect("the retransmission timer");
    ep.on_timer(rto);
    assert_eq!(calls(&mut ep), vec![Call::Ssthresh { flight: 2 * MSS }, Call::Event(CwndEvent::Rto)]);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (3 * MSS, MSS));
}

#[test]
fn an_algorithm_that_owns_the_window_sets_it_on_every_ack_instead_of_cong_avoid() {
    let mut ep = fast_retransmit(Recorder { control_cwnd: Some(7 * MSS), ..Recorder::default() });
    let c = calls(&mut ep);
    let controls = c.iter().filter(|c| matches!(c, Call::CongControl(_))).count();
    assert_eq!(controls, 3, "each duplicate ACK: {c:?}");
    assert_eq!(ep.cwnd_packets(), 7.0, "recovery left cwnd to the algorithm");
    ep.on_segment(ms(300), &from_peer(1 + 4 * MSS), Ecn::NotEct);
    assert!(!calls(&mut ep).iter().any(|c| matches!(c, Call::CongAvoid { .. })));
}

#[test]
fn a_pacing_rate_spaces_segments_and_poll_at_names_the_next_send() {
    // 1000 bytes of payload at 1 Mbit/s: one segment per 8 ms.
    let rate = Bandwidth::from_bps(1_000_000).unwrap();
    let mut ep = client(Recorder { pacing: Some(rate), ..Recorder::default() }, u64::from(2 * MSS));
    assert_eq!(ep.pacing_rate(), Some(rate));
    assert_eq!(sent(&mut ep, ms(100)), vec![1], "the second waits for its slot");
    let due = ep.poll_at().expect("the paced send");
    assert_eq!(due, ms(100) + Duration::from_millis(8));
    ep.on_timer(due);
    assert_eq!(sent(&mut ep, due), vec![1 + MSS]);
}

#[test]
fn an_algorithm_that_detects_loss_can_fast_retransmit_on_the_first_duplicate_ack() {
    let mut ep = client(Recorder { loss: Some(LossCheck::Lost), ..Recorder::default() }, u64::from(8 * MSS));
    ep.win.cwnd = 4 * MSS;
    assert_eq!(sent(&mut ep, ms(100)).len(), 4);
    calls(&mut ep);
    ep.on_segment(ms(200), &from_peer(1), Ecn::NotEct);
    let oldest = Oldest { sent_at: ms(100), retransmitted: false };
    let expected = vec![
        Call::CheckLoss { dupacks: Some(1), oldest },
        Call::Ssthresh { flight: 4 * MSS },
        Call::Event(CwndEvent::RecoveryStart),
    ];
    assert_eq!(calls(&mut ep), expected);
    // cwnd 3 inflated by the one duplicate ACK: the hole goes out again.
    assert_eq!(ep.cwnd(), 4 * MSS);
    assert_eq!(sent(&mut ep, ms(200)), vec![1]);
}

#[test]
fn an_algorithm_can_hold_back_the_third_duplicate_acks_fast_retransmit() {
    let mut ep = fast_retransmit(Recorder { loss: Some(LossCheck::NotYet), ..Recorder::default() });
    let c = calls(&mut ep);
    assert_eq!(c.len(), 3, "only the checks: {c:?}");
    assert_eq!(sent(&mut ep, ms(200)), Vec::<u32>::new());
}

#[test]
fn on_a_new_ack_a_loss_the_algorithm_sees_is_resent_without_a_window_change() {
    let mut ep = client(Recorder { loss: Some(LossCheck::Lost), ..Recorder::default() }, u64::from(8 * MSS));
    ep.win.cwnd = 4 * MSS;
    sent(&mut ep, ms(100));
    calls(&mut ep);
    ep.on_segment(ms(200), &from_peer(1 + MSS), Ecn::NotEct);
    let c = calls(&mut ep);
    let oldest = Oldest { sent_at: ms(100), retransmitted: false };
    assert_eq!(c.last(), Some(&Call::CheckLoss { dupacks: None, oldest }), "{c:?}");
    assert!(!c.iter().any(|c| matches!(c, Call::Ssthresh { .. })));
    assert_eq!(sent(&mut ep, ms(200))[0], 1 + MSS, "the new first unacknowledged segment");
}
