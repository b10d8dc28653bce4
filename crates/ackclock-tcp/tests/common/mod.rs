//! The scripted connection the exchange suites play: the endpoint under
//! test and its peer's ports, initial sequence numbers and MSS, and the
//! peer's segments.
#![allow(dead_code)] // each suite uses its part

use ackclock_core::Instant;
use ackclock_tcp::{Endpoint, State, TcpConfig};
use ackclock_wire::{Ecn, SeqNum, TcpFlags, TcpRepr};

pub const LOCAL: u16 = 1000;
pub const REMOTE: u16 = 2000;
pub const ISS: u32 = 100;
pub const PEER_ISS: u32 = 5000;
pub const MSS: u32 = 1000;

pub fn ms(x: u64) -> Instant {
    Instant::from_ps(x * 1_000_000_000)
}

/// A segment from the peer; offsets count from each side's ISN.
pub fn from_peer(seq: u32, ack: u32) -> TcpRepr {
    TcpRepr {
        src_port: REMOTE,
        dst_port: LOCAL,
        seq: SeqNum(PEER_ISS + seq),
        ack: SeqNum(ISS + ack),
        flags: TcpFlags { ack: true, ..TcpFlags::default() },
        window: 65_535,
        ..TcpRepr::default()
    }
}

pub fn data_from_peer(seq: u32, len: u32) -> TcpRepr {
    TcpRepr { payload_len: len, ..from_peer(seq, 1) }
}

/// The next segment the endpoint sends at `t`, with its IP ECN codepoint.
pub fn transmit(ep: &mut Endpoint, t: Instant) -> Option<(TcpRepr, Ecn)> {
    let mut seg = TcpRepr::default();
    ep.poll_transmit(t, &mut seg).map(|ecn| (seg, ecn))
}

/// Everything the endpoint sends at `t`, with its IP ECN codepoint.
pub fn transmitted(ep: &mut Endpoint, t: Instant) -> Vec<(TcpRepr, Ecn)> {
    std::iter::from_fn(|| transmit(ep, t)).collect()
}

/// A client that sent its SYN at 0 and got the SYN-ACK `shape` makes at
/// 100 ms (MSS `MSS`, window 65,535 by default); its final ACK is drained.
pub fn connect(cfg: TcpConfig, shape: impl FnOnce(&mut TcpRepr)) -> Endpoint {
    let mut ep = Endpoint::new(cfg, LOCAL, REMOTE, 0);
    ep.connect();
    assert_eq!(transmitted(&mut ep, ms(0)).len(), 1);
    let mut syn_ack = from_peer(0, 1);
    syn_ack.seq = SeqNum(PEER_ISS);
    syn_ack.flags.syn = true;
    syn_ack.options.mss = Some(MSS as u16);
    shape(&mut syn_ack);
    ep.on_segment(ms(100), &syn_ack, Ecn::NotEct);
    assert_eq!(ep.state(), State::Established);
    transmitted(&mut ep, ms(100));
    ep
}
