//! ns-2 2.35's `Mac/802_3` (mac/mac-802_3.cc): CSMA/CD as ns-2 models it.
//!
//! A station senses the carrier only through the frames whose first bit it
//! has heard: it sends when idle and out of its interframe space, else when
//! it next becomes idle. A first bit heard while sending or receiving is a
//! collision: the frame heard is lost, a frame being received too; the
//! sender stops (its frame still reaches the others, whose own MACs see the
//! collision), waits out a jam plus an interframe space and backs off a
//! random number of slots, 0 to 2^min(attempts, 10) - 1, giving up after 16
//! attempts. Each received or sent frame is followed by an interframe space.
//! Frames carry a 14-byte header and are padded to 64 bytes; times are
//! bytes at the LAN's rate (ns-2's WiredPhy `bandwidth_`).
//!
//! The backoff draws from ns-2's default generator, which the engine owns:
//! the MAC asks for a draw (`Mac::draw_request`) and gets it before anything
//! else happens (`Mac::drawn`). All the work happens in `poll_transmit`,
//! which has the interface queue that a station going idle takes its next
//! packet from; `on_frame` and `on_timer` only note what happened.

use crate::medium::{Frame, InterfaceQueue, LinkAddress, Mac, MacHeader, Queued};
use crate::packet::NodeId;
use ackclock_core::{Bandwidth, Duration, Instant};
use std::collections::VecDeque;

const HEADER_BYTES: u32 = 14;
const MIN_FRAME_BYTES: u32 = 64;
const IFS_BYTES: u32 = 12;
const JAM_AND_IFS_BYTES: u32 = 16;
const SLOT_BYTES: u32 = 64;
const ATTEMPT_LIMIT: u32 = 16;
const BACKOFF_LIMIT: u32 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Send,
    Recv,
}

#[derive(Clone, Debug)]
pub struct Ns2Ethernet {
    node: NodeId,
    rate: Bandwidth,
    state: State,
    /// Whether the interface queue waits for this MAC: from taking a
    /// packet until the MAC is done with it and idle again (ns-2's
    /// callback to the queue).
    blocked: bool,
    /// The packet being sent or retried (ns-2's mhRetx_ buffer), and its
    /// attempt: 1 for the first (ns-2's try_, which the backoff range and
    /// the attempt limit count).
    current: Option<Queued>,
    attempts: u32,
    /// When the frame on the air ends (mhSend_).
    send_end: Option<Instant>,
    /// The frame being received: when its last bit arrives, its slot, and
    /// whether it is addressed to this station.
    recv: Option<(Instant, u32, bool)>,
    /// When the interframe space (or jam) ends (mhIFS_).
    ifs_end: Option<Instant>,
    /// When the backoff ends (mhRetx_ busy); `None` inside while the draw
    /// is pending.
    backoff: Option<Option<Instant>>,
    /// A backoff waiting for its draw: (the draw's range, when it started,
    /// the jam's length).
    draw: Option<(u32, Instant, Duration)>,
    /// First bits heard, in order, not yet acted on: (slot, frame length,
    /// addressed here).
    heard: VecDeque<(u32, u32, bool)>,
    outbox: VecDeque<(Frame, Duration)>,
    /// Timers set since the engine last asked, and whether one fired.
    timers_set: VecDeque<Instant>,
    timer_fired: bool,
    received: VecDeque<(u32, bool)>,
    done: VecDeque<(Queued, bool)>,
}

impl Ns2Ethernet {
    pub fn new(node: NodeId, rate: Bandwidth) -> Self {
        Ns2Ethernet {
            node,
            rate,
            state: State::Idle,
            blocked: false,
            current: None,
            attempts: 1,
            send_end: None,
            recv: None,
            ifs_end: None,
            backoff: None,
            draw: None,
            heard: VecDeque::new(),
            outbox: VecDeque::new(),
            timers_set: VecDeque::new(),
            timer_fired: false,
            received: VecDeque::new(),
            done: VecDeque::new(),
        }
    }

    /// A packet's bytes on the wire: with the header, padded to the minimum.
    pub fn frame_bytes(packet_bytes: u32) -> u32 {
        (packet_bytes + HEADER_BYTES).max(MIN_FRAME_BYTES)
    }

    fn time(&self, bytes: u32) -> Duration {
        self.rate.tx_time(bytes)
    }

    /// A timer `after` from now: its time, which the engine hears of.
    fn set(&mut self, now: Instant, after: Duration) -> Instant {
        self.timers_set.push_back(now + after);
        now + after
    }

    /// Runs what is due by `now`: timers first (in ns-2 each is an event
    /// scheduled before the frames heard now), then the first bits heard.
    fn step(&mut self, now: Instant, queue: &mut InterfaceQueue) {
        // Timers act when their own event runs, in ns-2's order.
        if std::mem::take(&mut self.timer_fired) {
            self.expire(now, queue);
        }
        while let Some((slot, bytes, for_me)) = self.heard.pop_front() {
            self.first_bit(now, slot, bytes, for_me, queue);
        }
        if !self.blocked {
            self.take(now, queue);
        }
    }

    /// The timers due by `now`.
    fn expire(&mut self, now: Instant, queue: &mut InterfaceQueue) {
        if self.send_end.is_some_and(|t| t <= now) {
            // The frame went out whole.
            self.send_end = None;
            if let Some(q) = self.current.take() {
                self.done.push_back((q, true));
            }
            self.attempts = 1;
            self.ifs_end = Some(self.set(now, self.time(IFS_BYTES)));
        }
        if let Some((_, slot, for_me)) = self.recv.filter(|&(t, _, _)| t <= now) {
            // Intact: handed up if addressed here, else dropped unseen.
            self.recv = None;
            self.received.push_back((slot, for_me));
            self.ifs_end = Some(self.set(now, self.time(IFS_BYTES)));
        }
        // (An interframe space ending as a first bit arrives ends first, in
        // either of ns-2's orders.)
        if self.ifs_end.is_some_and(|t| t <= now) {
            self.ifs_end = None;
            self.resume(now, queue);
        }
        if let Some(Some(t)) = self.backoff {
            if t <= now {
                self.backoff = None;
                self.attempts += 1;
                self.transmit(now);
            }
        }
    }

    /// The queue hands over its next packet, which goes out at once unless
    /// the carrier is sensed.
    fn take(&mut self, now: Instant, queue: &mut InterfaceQueue) {
        if let Some(q) = queue.pop() {
            self.blocked = true;
            self.current = Some(q);
            self.attempts = 1;
            self.transmit(now);
        }
    }

    /// ns-2's `resume`: idle again, the station sends what waits.
    fn resume(&mut self, now: Instant, queue: &mut InterfaceQueue) {
        self.state = State::Idle;
        if self.current.is_some() {
            if self.backoff.is_none() {
                self.transmit(now);
            }
        } else {
            self.blocked = false;
            self.take(now, queue);
        }
    }

    /// ns-2's `transmit`: sends the current packet unless the carrier is
    /// sensed (then it goes when the station resumes).
    fn transmit(&mut self, now: Instant) {
        if self.ifs_end.is_some() || self.state != State::Idle {
            return;
        }
        let Some(q) = self.current else { return };
        let bytes = Self::frame_bytes(q.bytes);
        let duration = self.time(bytes);
        self.send_end = Some(self.set(now, duration));
        let header = MacHeader { retry: self.attempts > 1, ..MacHeader::default() };
        self.outbox.push_back((Frame { packet: Some(q.packet), from: self.node, to: q.to, bytes, header }, duration));
        self.state = State::Send;
    }

    /// ns-2's `sendUp`: the first bit of a frame of `bytes` arrives.
    fn first_bit(&mut self, now: Instant, slot: u32, bytes: u32, for_me: bool, queue: &mut InterfaceQueue) {
        if self.state != State::Idle {
            if let Some(t) = self.ifs_end {
                if t > now {
                    self.received.push_back((slot, false)); // ignored
                    return;
                }
                // The interframe space ends now: over, so that this one may
                // collide with what the station sends.
                self.ifs_end = None;
                self.resume(now, queue);
            }
        }
        if self.state == State::Idle {
            self.state = State::Recv;
            let end = self.set(now, self.time(bytes));
            self.recv = Some((end, slot, for_me));
        } else {
            self.collision(now, slot);
        }
    }

    fn collision(&mut self, now: Instant, slot: u32) {
        let jam = self.time(JAM_AND_IFS_BYTES);
        self.ifs_end = Some(self.set(now, jam));
        self.received.push_back((slot, false));
        match self.state {
            State::Send => {
                self.send_end = None;
                if self.backoff.is_none() {
                    if self.attempts < ATTEMPT_LIMIT {
                        let k = self.attempts.min(BACKOFF_LIMIT);
                        self.backoff = Some(None);
                        self.draw = Some((1 << k, now, jam));
                    } else if let Some(q) = self.current.take() {
                        self.done.push_back((q, false));
                        self.attempts = 1;
                    }
                }
            }
            State::Recv => {
                if let Some((_, lost, _)) = self.recv.take() {
                    self.received.push_back((lost, false));
                }
            }
            State::Idle => unreachable!("a collision needs a station sending or receiving"),
        }
    }
}

impl Mac for Ns2Ethernet {
    fn poll_transmit(&mut self, now: Instant, queue: &mut InterfaceQueue) -> Option<(Frame, Duration)> {
        self.step(now, queue);
        self.outbox.pop_front()
    }

    fn on_frame(&mut self, _now: Instant, slot: u32, frame: &Frame, _duration: Duration, _power_w: f64) {
        let for_me = frame.to == LinkAddress::Broadcast || frame.to == LinkAddress::Node(self.node);
        self.heard.push_back((slot, frame.bytes, for_me));
    }

    fn poll_received(&mut self, _now: Instant) -> Option<(u32, bool)> {
        self.received.pop_front()
    }

    fn poll_done(&mut self) -> Option<(Queued, bool)> {
        self.done.pop_front()
    }

    fn on_timer(&mut self, _now: Instant) {
        self.timer_fired = true;
    }

    fn poll_at(&self) -> Option<Instant> {
        None // each timer has its event (`poll_timer_set`)
    }

    fn keeps_timers(&self) -> bool {
        true
    }

    fn poll_timer_set(&mut self) -> Option<Instant> {
        self.timers_set.pop_front()
    }

    fn draw_request(&mut self) -> Option<u32> {
        self.draw.map(|(range, _, _)| range)
    }

    fn drawn(&mut self, value: u32) {
        if let Some((_, at, jam)) = self.draw.take() {
            let t = self.set(at, self.time(SLOT_BYTES) * u64::from(value) + jam);
            self.backoff = Some(Some(t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::PacketId;

    fn us(n: u64) -> Instant {
        Instant::ZERO + Duration::from_nanos(n * 1000)
    }

    #[test]
    fn a_first_bit_heard_while_sending_is_a_collision_then_a_jam_and_a_backoff_of_drawn_slots() {
        // 10 Mb/s: a 64-byte slot is 51.2 us, jam plus IFS (16 bytes) 12.8 us.
        let mut mac = Ns2Ethernet::new(0, Bandwidth::from_bps(10_000_000).unwrap());
        let mut q = InterfaceQueue::new(10);
        q.push(Queued { packet: PacketId::new(7), bytes: 986, to: LinkAddress::Node(1) });
        let (frame, d) = mac.poll_transmit(us(0), &mut q).unwrap();
        assert_eq!((frame.bytes, d), (1000, Duration::from_nanos(800_000)), "14-byte header");
        assert_eq!(mac.poll_timer_set(), Some(us(800)), "the frame's end");
        let other = Frame { from: 2, to: LinkAddress::Node(3), ..frame };
        mac.on_frame(us(3), 5, &other, d, f64::INFINITY);
        assert_eq!(mac.poll_transmit(us(3), &mut q), None);
        assert_eq!(mac.poll_received(us(3)), Some((5, false)), "the frame heard is lost");
        assert_eq!(mac.draw_request(), Some(2), "first attempt: 0 or 1 slot");
        mac.drawn(1);
        let ifs = Instant::ZERO + Duration::from_nanos(15_800);
        let backoff = Instant::ZERO + Duration::from_nanos(3_000 + 51_200 + 12_800);
        assert_eq!((mac.poll_timer_set(), mac.poll_timer_set()), (Some(ifs), Some(backoff)));
        // The jam and IFS end, then the backoff: the frame goes again.
        for t in [ifs, backoff] {
            mac.on_timer(t);
            let again = mac.poll_transmit(t, &mut q);
            assert_eq!(again.is_some(), t == backoff);
        }
        assert_eq!(mac.poll_done(), None, "kept for retries until it gets through");
    }

    #[test]
    fn a_frame_for_another_station_is_received_and_not_handed_up() {
        let mut mac = Ns2Ethernet::new(0, Bandwidth::from_bps(10_000_000).unwrap());
        let mut q = InterfaceQueue::new(10);
        let frame = Frame {
            packet: Some(PacketId::new(1)),
            from: 2,
            to: LinkAddress::Node(3),
            bytes: 64,
            header: MacHeader::default(),
        };
        mac.on_frame(us(0), 9, &frame, Duration::ZERO, f64::INFINITY);
        assert_eq!(mac.poll_transmit(us(0), &mut q), None);
        let end = mac.poll_timer_set().unwrap();
        mac.on_timer(end);
        assert_eq!(mac.poll_transmit(end, &mut q), None);
        assert_eq!(mac.poll_received(end), Some((9, false)));
    }
}
