//! The simulation: the world that owns nodes, channels and applications and
//! drives them from one event queue.
//!
//! Front ends (scenario files, Python, ns-2 scripts) all build a
//! [`Simulation`] through its builder methods and then call [`Simulation::run`].
#![forbid(unsafe_code)]

pub mod dynamics;
pub mod error;
pub mod histogram;
pub mod label;
pub mod monitor;
pub mod report;
pub mod shaper;
pub mod simulation;
pub mod source;
pub mod tcp_flow;
pub mod udp;
pub mod wake;

pub use dynamics::{FailureModel, FailureTiming, LinkChange};
pub use error::ConfigError;
pub use label::FlowLabel;
pub use report::{FlowReport, LinkReport, NicReport, NodeReport, ProcessorReport, RouteChange, TcpReport};
pub use shaper::{Shaped, TokenBucket, TokenBucketParams};
pub use simulation::{CallbackId, LanConfig, Notice, RunOutcome, Simulation};
pub use source::{SizeModel, Traffic, UdpSourceConfig};
pub use tcp_flow::{Side, TcpApp, TcpFlowConfig, NS2_VARS, SERIES_NAMES};
