//! A sans-I/O TCP endpoint faithful to the RFCs: RFC 9293 state machine,
//! RFC 6298 retransmission timer, RFC 5681 congestion control with RFC 6582
//! NewReno, RFC 1122 delayed ACKs and silly-window avoidance, RFC 3042
//! limited transmit and the zero-window persist timer.
//!
//! The endpoint is driven by its host: `on_segment`, `on_timer`,
//! `poll_transmit` and `poll_at`, always with the current time. Congestion
//! control lives behind [`cc::CongestionOps`]; [`config::TcpConfig`] holds
//! every parameter, with RFC, Linux-like and ns-2 profiles.
#![forbid(unsafe_code)]

pub mod cc;
pub mod config;
mod ecn;
mod endpoint;
mod flight;
mod ns2_sack1;
mod options;
mod quiescence;
mod rack;
pub mod reassembly;
mod recovery;
mod recv;
pub mod rtt;
mod scoreboard;
mod send;
pub mod stats;
mod undo;

pub use cc::{CcKind, CongestionOps};
pub use config::{AckPolicy, TcpConfig};
pub use endpoint::{Endpoint, Reader, State, Timer};
pub use stats::TcpStats;
