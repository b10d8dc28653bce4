//! Frame records for pcap captures on radio NICs: each frame a captured
//! NIC sends, at its first bit, and each that reaches it, at the first bit
//! there. Built only when such a capture is on.

use super::Simulation;
use ackclock_core::Instant;
use ackclock_net::{Frame, NicId, Reception};
use ackclock_trace::{FrameRecord, TraceRecord};

impl Simulation {
    #[cold]
    #[inline(never)]
    pub(super) fn capture_frame(&mut self, now: Instant, sender: NicId, frame: &Frame, receptions: &[Reception]) {
        let packet = frame.packet.map(|p| self.packets[p]);
        let place = self.queue.current_key();
        let Some(tracer) = self.tracer.as_mut() else { return };
        let seen = std::iter::once((sender, now)).chain(receptions.iter().map(|r| (r.nic, r.first_bit)));
        for (nic, time) in seen {
            if !tracer.wants_frames(nic) {
                continue;
            }
            let record = FrameRecord { time, nic, from: frame.from, to: frame.to, header: frame.header, packet };
            tracer.record(TraceRecord::Frame(Box::new(record)), place);
        }
        tracer.flush_through(now, place);
    }
}
