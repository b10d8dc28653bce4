//! Scripted segment exchanges with one endpoint, packetdrill style: the
//! test plays the peer, injects segments at chosen times and checks exactly
//! what the endpoint sends and when.

use ackclock_core::{Duration, Instant};
use ackclock_tcp::{AckPolicy, CcKind, Endpoint, Reader, State, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpFlags, TcpOptions, TcpRepr};

mod common;
use common::{connect, data_from_peer, from_peer, ms, transmit, ISS, LOCAL, MSS, PEER_ISS, REMOTE};

fn config() -> TcpConfig {
    TcpConfig { mss: MSS, iss: Some(ISS), initial_window: 2, ..TcpConfig::default() }
}

fn window(seg: TcpRepr, window: u16) -> TcpRepr {
    TcpRepr { window, ..seg }
}

/// Everything the endpoint sends at `t`.
fn sent(ep: &mut Endpoint, t: Instant) -> Vec<TcpRepr> {
    std::iter::from_fn(|| transmit(ep, t).map(|(s, _)| s)).collect()
}

/// (sequence offset, ack offset, payload length) of a sent segment.
type Sent = (u32, u32, u32);

/// What the endpoint sends at `t`, summarised.
fn sent_summary(ep: &mut Endpoint, t: Instant) -> Vec<Sent> {
    sent(ep, t).iter().map(|s| (s.seq.0 - ISS, s.ack.0.wrapping_sub(PEER_ISS), s.payload_len)).collect()
}

/// Runs timers until `until`, returning (time, segments) for each firing.
fn run_timers(ep: &mut Endpoint, until: Instant) -> Vec<(Instant, Vec<Sent>)> {
    let mut out = Vec::new();
    while let Some(t) = ep.poll_at().filter(|&t| t <= until) {
        ep.on_timer(t);
        out.push((t, sent_summary(ep, t)));
    }
    out
}

/// A client that completed its handshake at 100 ms (RTT sample 100 ms).
fn established(cfg: TcpConfig, peer_window: u16) -> Endpoint {
    connect(cfg, |syn_ack| syn_ack.window = peer_window)
}

#[test]
fn active_open_sends_syn_with_mss_and_takes_the_smaller_mss() {
    let mut ep = Endpoint::new(TcpConfig { mss: 1460, ..config() }, LOCAL, REMOTE, 0);
    ep.connect();
    let syn = sent(&mut ep, ms(0));
    assert_eq!(syn.len(), 1);
    assert!(syn[0].flags.syn && !syn[0].flags.ack);
    assert_eq!(syn[0].seq, SeqNum(ISS));
    assert_eq!(syn[0].options.mss, Some(1460));
    let mut syn_ack = from_peer(0, 1);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options = TcpOptions { mss: Some(536), ..TcpOptions::default() };
    ep.on_segment(ms(50), &syn_ack, Ecn::NotEct);
    assert_eq!(ep.state(), State::Established);
    assert_eq!(ep.mss(), 536);
    let ack = sent(&mut ep, ms(50));
    assert_eq!((ack[0].seq, ack[0].ack, ack[0].flags.syn), (SeqNum(ISS + 1), SeqNum(PEER_ISS + 1), false));
    assert_eq!(ep.srtt(), Some(Duration::from_millis(50)), "the handshake is timed");
}

#[test]
fn passive_open_answers_syn_with_syn_ack_and_establishes_on_ack() {
    let mut ep = Endpoint::new(config(), LOCAL, REMOTE, 0);
    ep.listen();
    let mut syn = from_peer(0, 0);
    syn.flags = TcpFlags { syn: true, ..TcpFlags::default() };
    syn.seq = SeqNum(PEER_ISS);
    syn.options.mss = Some(1400);
    ep.on_segment(ms(0), &syn, Ecn::NotEct);
    assert_eq!(ep.state(), State::SynReceived);
    let syn_ack = sent(&mut ep, ms(0));
    assert!(syn_ack[0].flags.syn && syn_ack[0].flags.ack);
    assert_eq!((syn_ack[0].seq, syn_ack[0].ack), (SeqNum(ISS), SeqNum(PEER_ISS + 1)));
    assert_eq!(syn_ack[0].options.mss, Some(MSS as u16));
    assert_eq!(ep.mss(), MSS, "min(1400, our 1000)");
    ep.on_segment(ms(10), &from_peer(1, 1), Ecn::NotEct);
    assert_eq!(ep.state(), State::Established);
}

#[test]
fn syn_is_retransmitted_with_exponential_backoff_then_abandoned() {
    let cfg = TcpConfig { syn_retries: 3, ..config() };
    let mut ep = Endpoint::new(cfg, LOCAL, REMOTE, 0);
    ep.connect();
    sent(&mut ep, ms(0));
    let fired = run_timers(&mut ep, ms(100_000));
    let times: Vec<Instant> = fired.iter().filter(|(_, s)| !s.is_empty()).map(|(t, _)| *t).collect();
    assert_eq!(times, vec![ms(1000), ms(3000), ms(7000)]);
    assert_eq!(ep.state(), State::Closed);
    assert!(ep.was_reset());
}

#[test]
fn reset_answers_a_segment_for_a_closed_port() {
    let mut syn = from_peer(0, 0);
    syn.flags = TcpFlags { syn: true, ..TcpFlags::default() };
    let rst = Endpoint::reset_for(&syn).unwrap();
    assert!(rst.flags.rst && rst.flags.ack);
    assert_eq!(rst.ack, SeqNum(PEER_ISS + 1), "acknowledges the SYN");
    let ack = from_peer(1, 7);
    let rst = Endpoint::reset_for(&ack).unwrap();
    assert!(rst.flags.rst && !rst.flags.ack);
    assert_eq!(rst.seq, SeqNum(ISS + 7), "takes its sequence number from the ACK");
    assert_eq!(Endpoint::reset_for(&rst), None, "never a reset for a reset");
}

#[test]
fn connecting_to_a_closed_port_is_refused_by_the_reset() {
    let mut ep = Endpoint::new(config(), LOCAL, REMOTE, 0);
    ep.connect();
    let syn = sent(&mut ep, ms(0)).remove(0);
    let mut rst = Endpoint::reset_for(&TcpRepr { src_port: LOCAL, dst_port: REMOTE, ..syn }).unwrap();
    rst.dst_port = LOCAL;
    ep.on_segment(ms(10), &rst, Ecn::NotEct);
    assert_eq!(ep.state(), State::Closed);
    assert!(ep.was_reset());
}

fn receiver() -> Endpoint {
    let cfg = TcpConfig {
        ack_policy: AckPolicy::Delayed { timeout: Duration::from_millis(200), delay_repeat: false },
        ..config()
    };
    established(cfg, 65_535)
}

#[test]
fn delayed_ack_acknowledges_every_second_full_segment() {
    let mut ep = receiver();
    ep.on_segment(ms(1000), &data_from_peer(1, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1000)), vec![]);
    ep.on_segment(ms(1010), &data_from_peer(1 + MSS, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1010)), vec![(1, 1 + 2 * MSS, 0)]);
}

#[test]
fn delayed_ack_is_sent_when_its_timer_expires() {
    let mut ep = receiver();
    ep.on_segment(ms(1000), &data_from_peer(1, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1000)), vec![]);
    assert_eq!(ep.poll_at(), Some(ms(1200)));
    assert_eq!(run_timers(&mut ep, ms(2000)), vec![(ms(1200), vec![(1, 1 + MSS, 0)])]);
}

#[test]
fn out_of_order_segment_is_acknowledged_at_once_and_a_hole_filler_too() {
    let mut ep = receiver();
    ep.on_segment(ms(1000), &data_from_peer(1 + MSS, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1000)), vec![(1, 1, 0)], "a duplicate ACK for the gap");
    ep.on_segment(ms(1010), &data_from_peer(1, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1010)), vec![(1, 1 + 2 * MSS, 0)], "the gap is filled");
    assert_eq!(ep.bytes_received(), u64::from(2 * MSS));
}

#[test]
fn ack_every_segment_policy_acknowledges_each_one() {
    let mut ep = established(TcpConfig { ack_policy: AckPolicy::EverySegment, ..config() }, 65_535);
    ep.on_segment(ms(1000), &data_from_peer(1, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1000)), vec![(1, 1 + MSS, 0)]);
}

/// A sender with 20 segments to send, cwnd 10 and a 1 s minimum RTO.
fn sender(cc: CcKind) -> Endpoint {
    let mut ep = established(TcpConfig { cc, initial_window: 10, ..config() }, 65_535);
    ep.write(20 * u64::from(MSS));
    let first = sent_summary(&mut ep, ms(100));
    assert_eq!(first.len(), 10);
    assert_eq!(first[9], (1 + 9 * MSS, 1, MSS));
    ep
}

fn dupacks(ep: &mut Endpoint, t: Instant, n: usize) -> Vec<Sent> {
    (0..n)
        .flat_map(|_| {
            ep.on_segment(t, &from_peer(1, 1), Ecn::NotEct);
            sent_summary(ep, t)
        })
        .collect()
}

#[test]
fn reno_fast_retransmit_and_recovery_halve_cwnd() {
    let mut ep = sender(CcKind::Reno);
    assert_eq!(dupacks(&mut ep, ms(200), 2), vec![]);
    assert_eq!(dupacks(&mut ep, ms(200), 1), vec![(1, 1, MSS)], "the third dupack retransmits the hole");
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5 * MSS, 8 * MSS), "ssthresh = flight/2, cwnd = ssthresh + 3");
    // Six more dupacks inflate cwnd to 14 segments: four new segments fit.
    let new: Vec<u32> = dupacks(&mut ep, ms(201), 6).iter().map(|s| s.0).collect();
    assert_eq!(new, vec![1 + 10 * MSS, 1 + 11 * MSS, 1 + 12 * MSS, 1 + 13 * MSS]);
    ep.on_segment(ms(300), &from_peer(1, 1 + 10 * MSS), Ecn::NotEct);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5 * MSS, 5 * MSS), "deflated to ssthresh");
    assert_eq!(ep.stats().fast_retransmits, 1);
    assert_eq!(ep.stats().timeouts, 0);
}

#[test]
fn newreno_fast_retransmit_ends_with_cwnd_at_ssthresh() {
    let mut ep = sender(CcKind::NewReno);
    assert_eq!(dupacks(&mut ep, ms(200), 3), vec![(1, 1, MSS)]);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5 * MSS, 8 * MSS));
    ep.on_segment(ms(300), &from_peer(1, 1 + 10 * MSS), Ecn::NotEct);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5 * MSS, 5 * MSS));
}

#[test]
fn tahoe_fast_retransmit_restarts_slow_start_from_one_segment() {
    let mut ep = sender(CcKind::Tahoe);
    assert_eq!(dupacks(&mut ep, ms(200), 3), vec![(1, 1, MSS)]);
    assert_eq!((ep.ssthresh(), ep.cwnd()), (5 * MSS, MSS));
    assert_eq!(dupacks(&mut ep, ms(201), 3), vec![], "no inflation in Tahoe");
    ep.on_segment(ms(300), &from_peer(1, 1 + 10 * MSS), Ecn::NotEct);
    assert_eq!(ep.cwnd(), 2 * MSS, "slow start: one segment per ACK");
    assert_eq!(sent_summary(&mut ep, ms(300)), vec![(1 + 10 * MSS, 1, MSS), (1 + 11 * MSS, 1, MSS)]);
}

#[test]
fn ns2_reno_halves_the_capped_window_unrounded_and_grows_it_on_the_exit_ack() {
    // cwnd 10.5 segments, window_ 9: ns-2 halves min(cwnd_, window_) = 9.
    let cfg = TcpConfig { cc: CcKind::Ns2Reno, max_window: Some(9 * MSS), initial_window: 10, ..config() };
    let mut ep = established(cfg, 65_535);
    ep.write(20 * u64::from(MSS));
    assert_eq!(sent_summary(&mut ep, ms(100)).len(), 9, "window_ caps the flight");
    assert_eq!(dupacks(&mut ep, ms(200), 3).first(), Some(&(1, 1, MSS)));
    assert_eq!(ep.ssthresh(), 4 * MSS, "int(9 / 2) segments");
    assert_eq!(ep.cwnd_packets(), 4.5, "9 / 2 segments, not rounded");
    ep.on_segment(ms(300), &from_peer(1, 1 + 9 * MSS), Ecn::NotEct);
    // Congestion avoidance at once: 4.5 + 1 / 4.5 segments.
    assert_eq!(ep.cwnd(), 4500 + MSS * MSS / 4500);
}

#[test]
fn ns2_overhead_delays_the_syn_and_new_data_by_the_hosts_draws_then_sends_the_window() {
    let cfg = TcpConfig { send_overhead: Duration::from_millis(10), ..config() };
    let mut ep = Endpoint::new(cfg, LOCAL, REMOTE, 0);
    ep.connect();
    ep.write(4 * u64::from(MSS));
    assert_eq!(sent(&mut ep, ms(0)).len(), 0, "ns-2's agents delay their SYN (seqno 0) too");
    assert!(ep.wants_send_delay(), "the host is asked for the random delay");
    assert_eq!(ep.poll_at(), None, "nothing is armed before the host's draw");
    ep.delay_sending(ms(0), Duration::from_millis(3));
    assert_eq!(ep.poll_at(), Some(ms(3)));
    ep.on_timer(ms(3));
    assert_eq!(sent(&mut ep, ms(3)).len(), 1, "the SYN");
    let mut syn_ack = window(from_peer(0, 1), 65_535);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options.mss = Some(MSS as u16);
    ep.on_segment(ms(100), &syn_ack, Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(100)), vec![], "no bare ACK: it rides on the delayed data");
    assert!(ep.wants_send_delay(), "a new draw for the data");
    ep.delay_sending(ms(100), Duration::from_millis(7));
    assert!(!ep.wants_send_delay());
    let due = ep.poll_at().expect("the delayed send is armed");
    assert_eq!(due, ms(107));
    assert_eq!(sent_summary(&mut ep, ms(106)), vec![], "still waiting");
    assert!(!ep.wants_send_delay(), "one draw per delay");
    ep.on_timer(due);
    let burst = sent_summary(&mut ep, due);
    assert_eq!(burst, vec![(1, 1, MSS), (1 + MSS, 1, MSS)], "the whole initial window at once");
}

/// Segments 1 and 5 of 10 are lost; returns what follows the partial ACK.
fn two_losses(cc: CcKind) -> (Endpoint, Vec<Sent>) {
    let mut ep = sender(cc);
    dupacks(&mut ep, ms(200), 3); // from segments 2, 3 and 4
    dupacks(&mut ep, ms(201), 5); // from segments 6 to 10
    sent_summary(&mut ep, ms(201));
    // The retransmitted segment 1 arrives: ACK up to the second hole.
    ep.on_segment(ms(300), &from_peer(1, 1 + 4 * MSS), Ecn::NotEct);
    let after = sent_summary(&mut ep, ms(300));
    (ep, after)
}

#[test]
fn newreno_repairs_a_second_loss_on_the_partial_ack_without_timeout() {
    let (mut ep, after) = two_losses(CcKind::NewReno);
    assert_eq!(after[0], (1 + 4 * MSS, 1, MSS), "the second hole is resent at once");
    ep.on_segment(ms(400), &from_peer(1, 1 + 13 * MSS), Ecn::NotEct);
    assert_eq!(ep.stats().timeouts, 0);
    assert_eq!(ep.stats().fast_retransmits, 1);
}

#[test]
fn reno_needs_a_timeout_for_a_second_loss_in_the_window() {
    let (mut ep, after) = two_losses(CcKind::Reno);
    assert!(after.iter().all(|s| s.0 != 1 + 4 * MSS), "Reno left recovery on the partial ACK");
    let fired = run_timers(&mut ep, ms(1300));
    let (t, segs) = &fired[0];
    assert_eq!(segs[0], (1 + 4 * MSS, 1, MSS));
    assert_eq!(*t, ms(1300), "one RTO (1 s minimum) after the partial ACK restarted the timer");
    assert_eq!(ep.stats().timeouts, 1);
}

#[test]
fn ns2_newreno_restarts_the_timer_on_the_first_partial_ack_only() {
    // Segments 1, 5 and 7 of 10 lost: two partial ACKs in one recovery.
    let (mut ep, _) = two_losses(CcKind::Ns2NewReno);
    assert_eq!(ep.poll_at(), Some(ms(1300)), "the first partial ACK restarted the timer (1 s RTO)");
    ep.on_segment(ms(400), &from_peer(1, 1 + 6 * MSS), Ecn::NotEct);
    assert_eq!(ep.poll_at(), Some(ms(1300)), "RFC 6582's Impatient variant: not the second");
    let (mut rfc, _) = two_losses(CcKind::NewReno);
    rfc.on_segment(ms(400), &from_peer(1, 1 + 6 * MSS), Ecn::NotEct);
    assert_eq!(rfc.poll_at(), Some(ms(1400)), "Slow-but-Steady restarts it on each");
}

#[test]
fn ns2_newreno_partial_ack_beyond_the_inflation_lowers_cwnd_itself() {
    // Three dupacks inflate the halved window by three segments; a partial
    // ACK of four takes the fourth off cwnd_ itself.
    let partial = |cc| {
        let mut ep = sender(cc);
        dupacks(&mut ep, ms(200), 3);
        assert_eq!(ep.cwnd_packets(), 5.0, "recovery from half of 10 segments");
        ep.on_segment(ms(300), &from_peer(1, 1 + 4 * MSS), Ecn::NotEct);
        ep.cwnd_packets()
    };
    assert_eq!(partial(CcKind::Ns2NewReno), 4.0, "ns-2's partial_window_deflation_");
    assert_eq!(partial(CcKind::NewReno), 5.0, "RFC 6582 deflates only the inflation");
}

#[test]
fn ns2_tahoe_keeps_counting_duplicate_acks_across_a_timeout() {
    let ns2_sender = |cc| {
        let mut ep = established(TcpConfig { cc, initial_window: 10, limited_transmit: true, ..config() }, 65_535);
        ep.write(20 * u64::from(MSS));
        assert_eq!(sent_summary(&mut ep, ms(100)).len(), 10);
        ep
    };
    let mut ep = ns2_sender(CcKind::Ns2Tahoe);
    // Two early duplicates each let one new segment out (singledup_).
    assert_eq!(dupacks(&mut ep, ms(200), 2).len(), 2);
    run_timers(&mut ep, ms(1200));
    assert_eq!(ep.stats().timeouts, 1);
    // ns-2's Tahoe does not restart its count: this is the third duplicate,
    // which starts no fast retransmit within the timeout's window.
    assert_eq!(dupacks(&mut ep, ms(1300), 1), vec![]);
    let mut reno = ns2_sender(CcKind::Ns2Reno);
    dupacks(&mut reno, ms(200), 2);
    run_timers(&mut reno, ms(1200));
    assert_eq!(dupacks(&mut reno, ms(1300), 1).len(), 1, "Reno's count restarts: limited transmit");
}

#[test]
fn ns2_delayed_ack_delays_a_repeat_of_the_latest_segment_but_not_older_ones() {
    let cfg = TcpConfig {
        ack_policy: AckPolicy::Delayed { timeout: Duration::from_millis(100), delay_repeat: true },
        ..config()
    };
    let mut ep = established(cfg, 65_535);
    ep.on_segment(ms(1000), &data_from_peer(1, MSS), Ecn::NotEct);
    ep.on_segment(ms(1010), &data_from_peer(1 + MSS, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1010)), vec![(1, 1 + 2 * MSS, 0)]);
    ep.on_segment(ms(1020), &data_from_peer(1, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1020)), vec![(1, 1 + 2 * MSS, 0)], "an older copy: at once");
    ep.on_segment(ms(1030), &data_from_peer(1 + MSS, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1030)), vec![], "a copy of the latest: like new data");
    ep.on_segment(ms(1040), &data_from_peer(1 + 2 * MSS, MSS), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(1040)), vec![(1, 1 + 3 * MSS, 0)], "the second segment");
}

#[test]
fn retransmission_timeout_backs_off_exponentially() {
    let mut ep = established(config(), 65_535);
    ep.write(u64::from(MSS));
    assert_eq!(sent_summary(&mut ep, ms(100)).len(), 1);
    let fired = run_timers(&mut ep, ms(40_000));
    let times: Vec<Instant> = fired.iter().map(|(t, _)| *t).collect();
    assert_eq!(times, vec![ms(1100), ms(3100), ms(7100), ms(15100), ms(31100)]);
    assert!(fired.iter().all(|(_, s)| s == &vec![(1, 1, MSS)]));
    assert_eq!(ep.cwnd(), MSS, "loss window of one segment");
}

#[test]
fn zero_window_is_probed_on_a_backed_off_persist_timer_and_sending_resumes() {
    let cfg = TcpConfig { min_rto: Duration::from_millis(1500), ..config() };
    let mut ep = established(cfg, 2 * MSS as u16);
    assert_eq!(ep.rto(), Duration::from_millis(1500));
    ep.write(10 * u64::from(MSS));
    assert_eq!(sent_summary(&mut ep, ms(100)).len(), 2);
    // The receiver's application stalls: both segments acked, window zero.
    ep.on_segment(ms(200), &window(from_peer(1, 1 + 2 * MSS), 0), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(200)), vec![]);
    let mut t = ms(200);
    let mut intervals = Vec::new();
    for _ in 0..8 {
        let next = ep.poll_at().unwrap();
        ep.on_timer(next);
        let probe = sent_summary(&mut ep, next);
        assert_eq!(probe, vec![(1 + 2 * MSS, 1, 1)], "a one-byte probe beyond the window");
        intervals.push((next - t).as_secs_f64());
        t = next;
        ep.on_segment(t, &window(from_peer(1, 1 + 2 * MSS), 0), Ecn::NotEct);
        assert_eq!(sent_summary(&mut ep, t), vec![]);
    }
    assert_eq!(intervals, vec![5.0, 5.0, 6.0, 12.0, 24.0, 48.0, 60.0, 60.0]);
    // The window opens but that update is lost; the next probe's ACK
    // carries the open window (and acknowledges the probe byte).
    let next = ep.poll_at().unwrap();
    ep.on_timer(next);
    assert_eq!(sent_summary(&mut ep, next).len(), 1);
    ep.on_segment(next, &window(from_peer(1, 2 + 2 * MSS), 4 * MSS as u16), Ecn::NotEct);
    let resumed = sent_summary(&mut ep, next);
    assert_eq!(resumed.first(), Some(&(2 + 2 * MSS, 1, MSS)));
}

#[test]
fn a_window_below_one_segment_is_used_when_the_persist_timer_expires() {
    // Issue 11 item 5: the receiver offers 361 bytes, less than a segment;
    // sender SWS avoidance keeps the data back, nothing is in flight, and
    // the update that would reopen the window is lost.
    let mut ep = established(config(), 65_535);
    ep.write(10 * u64::from(MSS));
    assert_eq!(sent_summary(&mut ep, ms(100)).len(), 2);
    ep.on_segment(ms(200), &window(from_peer(1, 1 + 2 * MSS), 361), Ecn::NotEct);
    assert_eq!(sent_summary(&mut ep, ms(200)), vec![], "SWS avoidance holds 361 bytes back");
    let fired = run_timers(&mut ep, ms(5_200));
    assert_eq!(fired, vec![(ms(5_200), vec![(1 + 2 * MSS, 1, 361)])], "what the window allows, after 5 s");
}

#[test]
fn cwnd_grows_only_while_it_limits_sending() {
    // RFC 7661 (issue 11 item 6): a peer window of 4 segments holds the
    // flight below cwnd (10), so its ACKs do not open cwnd further.
    let mut ep = established(TcpConfig { initial_window: 10, ..config() }, 4 * MSS as u16);
    ep.write(100 * u64::from(MSS));
    assert_eq!(sent_summary(&mut ep, ms(100)).len(), 4);
    for k in 1..=20u32 {
        ep.on_segment(ms(100 + u64::from(k)), &window(from_peer(1, 1 + k * MSS), 4 * MSS as u16), Ecn::NotEct);
        assert_eq!(sent_summary(&mut ep, ms(100 + u64::from(k))).len(), 1);
    }
    assert_eq!(ep.cwnd(), 10 * MSS);
}

#[test]
fn receiver_advertises_free_buffer_and_updates_the_window_when_the_app_reads() {
    let cfg = TcpConfig { receive_buffer: 4 * MSS, ack_policy: AckPolicy::EverySegment, ..config() };
    let mut ep = established(cfg, 65_535);
    ep.set_reader(ms(100), Reader::Paused);
    for i in 0..4 {
        ep.on_segment(ms(200), &data_from_peer(1 + i * MSS, MSS), Ecn::NotEct);
    }
    let acks = sent(&mut ep, ms(200));
    assert_eq!(acks.last().unwrap().window, 0, "the buffer is full");
    // The application reads 8 kbit/s = 1000 B/s: after one second a
    // full segment of space is free and a window update goes out.
    ep.set_reader(ms(1000), Reader::Rate(ackclock_core::Bandwidth::from_bps(8_000).unwrap()));
    assert_eq!(ep.poll_at(), Some(ms(2000)));
    ep.on_timer(ms(2000));
    let update = sent(&mut ep, ms(2000));
    assert_eq!(update.len(), 1);
    assert_eq!(update[0].window, MSS as u16);
}

#[test]
fn nagle_holds_a_small_segment_while_data_is_unacknowledged() {
    for (nagle, expected) in [(true, 1), (false, 2)] {
        let mut ep = established(TcpConfig { nagle, ..config() }, 65_535);
        ep.write(100);
        ep.write(0);
        assert_eq!(sent(&mut ep, ms(100)).len(), 1);
        ep.write(100);
        assert_eq!(sent(&mut ep, ms(101)).len() + 1, expected, "nagle={nagle}");
    }
}

#[test]
fn active_close_goes_through_fin_wait_and_time_wait() {
    let mut ep = established(TcpConfig { time_wait: Duration::from_secs(60), ..config() }, 65_535);
    ep.close();
    let fin = sent(&mut ep, ms(100));
    assert!(fin[0].flags.fin && fin[0].seq == SeqNum(ISS + 1));
    assert_eq!(ep.state(), State::FinWait1);
    ep.on_segment(ms(200), &from_peer(1, 2), Ecn::NotEct);
    assert_eq!(ep.state(), State::FinWait2);
    let mut peer_fin = from_peer(1, 2);
    peer_fin.flags.fin = true;
    ep.on_segment(ms(300), &peer_fin, Ecn::NotEct);
    assert_eq!(ep.state(), State::TimeWait);
    assert_eq!(sent_summary(&mut ep, ms(300)), vec![(2, 2, 0)], "ACK of the peer's FIN");
    run_timers(&mut ep, ms(60_299));
    assert_eq!(ep.state(), State::TimeWait);
    run_timers(&mut ep, ms(60_300));
    assert_eq!(ep.state(), State::Closed);
}

#[test]
fn passive_close_goes_through_close_wait_and_last_ack() {
    let mut ep = established(config(), 65_535);
    let mut peer_fin = from_peer(1, 1);
    peer_fin.flags.fin = true;
    ep.on_segment(ms(200), &peer_fin, Ecn::NotEct);
    assert_eq!(ep.state(), State::CloseWait);
    assert_eq!(sent_summary(&mut ep, ms(200)), vec![(1, 2, 0)]);
    ep.close();
    let fin = sent(&mut ep, ms(250));
    assert!(fin[0].flags.fin);
    assert_eq!(ep.state(), State::LastAck);
    ep.on_segment(ms(300), &from_peer(2, 2), Ecn::NotEct);
    assert_eq!(ep.state(), State::Closed);
    assert!(!ep.was_reset());
}

#[test]
fn simultaneous_close_goes_through_closing() {
    let mut ep = established(config(), 65_535);
    ep.close();
    sent(&mut ep, ms(100));
    let mut peer_fin = from_peer(1, 1);
    peer_fin.flags.fin = true;
    ep.on_segment(ms(150), &peer_fin, Ecn::NotEct);
    assert_eq!(ep.state(), State::Closing);
    ep.on_segment(ms(160), &from_peer(2, 2), Ecn::NotEct);
    assert_eq!(ep.state(), State::TimeWait);
}

#[test]
fn ns2_packet0_without_a_syn_goes_out_without_its_header_bytes() {
    // ns-2's output adds useHeaders_'s header to every data packet but
    // packet 0: without a SYN, packet 0 is its payload alone on the wire.
    for bare in [true, false] {
        let cfg = TcpConfig { handshake: false, ns2_bare_packet0: bare, ..TcpConfig::ns2(1000) };
        let mut ep = Endpoint::new(TcpConfig { iss: Some(ISS), ..cfg }, LOCAL, REMOTE, 0);
        ep.open_established(ms(0), PEER_ISS);
        ep.write(3000);
        let sizes: Vec<u32> = sent(&mut ep, ms(0)).iter().map(|s| 20 + ep.segment_len(s)).collect();
        let first = if bare { 1000 } else { 1040 };
        assert_eq!(sizes, [first, 1040], "bare packet 0: {bare}");
    }
}
