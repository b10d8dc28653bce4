//! Header value types as they travel between endpoints: TCP segments with
//! their options, and sequence-number arithmetic.
//!
//! Protocol logic handles these values only; turning them into bytes (pcap,
//! emulation) belongs here too and never leaks into the TCP state machine.
#![forbid(unsafe_code)]

pub mod checksum;
pub mod ip;
pub mod seq;
pub mod tcp;

pub use ip::Ecn;
pub use seq::SeqNum;
pub use tcp::{SackBlocks, TcpFlags, TcpOptions, TcpRepr};
