//! Lazy wake-ups: an object (a TCP endpoint, a NIC's MAC, a routing
//! protocol) says when it next needs the engine, and the engine queues an
//! event for that time only when it is earlier than the one already queued.
//! A deadline that moves later leaves its event queued; the event then runs
//! with nothing due and arms the next one.

use ackclock_core::Instant;

/// The time of the queued event that will do the work, if any.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wake {
    armed: Option<Instant>,
}

impl Wake {
    /// Arms for a deadline at `t` (not before now); true when an event must
    /// be queued at `t`.
    pub fn arm(&mut self, t: Instant) -> bool {
        if self.armed.is_some_and(|a| a <= t) {
            return false;
        }
        self.armed = Some(t);
        true
    }

    /// A queued event runs at `now`: true (and disarmed) when it is the armed
    /// one, false when it was superseded. The armed one is the one armed for
    /// a time not after now: in ns-2's order the clock can stand a
    /// picosecond past an event's own time.
    pub fn fire(&mut self, now: Instant) -> bool {
        let due = self.armed.is_some_and(|a| a <= now);
        if due {
            self.armed = None;
        }
        due
    }
}

/// A TCP endpoint's timer events: a `Wake` that also keeps one superseded
/// event as `spare`. When the next deadline is after it, the spare is armed
/// again (it runs, finds nothing due and re-arms) instead of queueing one
/// more event; otherwise the retransmission timer's event, superseded by a
/// send delay before each segment, would leave a stale copy queued every
/// time.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimerEvents {
    wake: Wake,
    spare: Option<Instant>,
}

impl TimerEvents {
    /// As `Wake::arm`.
    pub fn arm(&mut self, t: Instant) -> bool {
        if let Some(a) = self.wake.armed.filter(|&a| a > t) {
            self.spare = Some(self.spare.map_or(a, |s| s.min(a)));
        }
        if let Some(s) = self.spare.filter(|&s| self.wake.armed.is_none() && s < t) {
            self.spare = None;
            self.wake.armed = Some(s);
            return false;
        }
        self.wake.arm(t)
    }

    /// As `Wake::fire`; a spare that has run is gone.
    pub fn fire(&mut self, now: Instant) -> bool {
        if self.wake.fire(now) {
            return true;
        }
        if self.spare.is_some_and(|s| s <= now) {
            self.spare = None;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ackclock_core::Duration;

    fn at(ms: u64) -> Instant {
        Instant::from_ps(ms * 1_000_000_000)
    }

    #[test]
    fn a_wake_queues_only_earlier_events_and_fires_a_picosecond_late() {
        let mut wake = Wake::default();
        assert!(wake.arm(at(10)));
        assert!(!wake.arm(at(12)), "the event at 10 ms serves 12 ms");
        assert!(wake.arm(at(5)));
        assert!(wake.fire(at(5) + Duration::from_ps(1)), "the clock may stand a picosecond past it");
        assert!(!wake.fire(at(10)), "superseded");
    }

    #[test]
    fn a_superseded_timer_event_is_armed_again_instead_of_queueing_another() {
        let mut events = TimerEvents::default();
        assert!(events.arm(at(1000)), "the retransmission timer queues an event");
        assert!(events.arm(at(2)), "an earlier send delay queues its own");
        assert!(!events.arm(at(1500)), "still armed at 2 ms");
        assert!(events.fire(at(2)));
        assert!(!events.arm(at(1200)), "the event queued for 1000 ms serves the deadline at 1200 ms");
        assert!(events.fire(at(1000)), "and runs, finding nothing due");
        assert!(events.arm(at(1200)));
        assert!(events.fire(at(1200) + Duration::from_ps(1)));
    }

    #[test]
    fn superseded_events_run_without_work() {
        let mut events = TimerEvents::default();
        assert!(events.arm(at(30)));
        assert!(events.arm(at(20)));
        assert!(events.arm(at(10)), "the earlier superseded event (20 ms) is the spare; 30 ms is forgotten");
        assert!(events.fire(at(10)));
        assert!(!events.fire(at(20)), "the spare, run before it was armed again");
        assert!(!events.fire(at(30)));
        assert!(events.arm(at(40)), "no spare is left to serve 40 ms");
    }
}
