//! The ackclock engine: integer-picosecond time, exact unit parsing, a
//! deterministic event queue, per-component random-number streams and ns-2's
//! generator.
//!
//! Nothing here knows about networks; `ackclock-net` and `ackclock-sim` build
//! on these pieces.
#![forbid(unsafe_code)]

pub mod event_queue;
pub mod mrg32k3a;
pub mod rng;
pub mod time;
pub mod units;

pub use event_queue::{EventId, EventQueue, OrderKey};
pub use mrg32k3a::{Mrg32k3a, SeedError};
pub use rng::{RngStreams, SimRng};
pub use time::{Bandwidth, Duration, Instant, PS_PER_SEC};
pub use units::UnitError;
