//! The scripted connection both exchange suites play: the endpoint under
//! test and its peer's ports, initial sequence numbers and MSS.

use ackclock_core::Instant;

pub const LOCAL: u16 = 1000;
pub const REMOTE: u16 = 2000;
pub const ISS: u32 = 100;
pub const PEER_ISS: u32 = 5000;
pub const MSS: u32 = 1000;

pub fn ms(x: u64) -> Instant {
    Instant::from_ps(x * 1_000_000_000)
}
