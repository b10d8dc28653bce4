//! Where a mobile node is: a position, and the straight-line move toward a
//! destination that ns-2's `setdest` starts. Positions are computed when
//! asked for, from the move's start, so motion costs no events.

use ackclock_core::Instant;

/// A point in metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Position {
    pub fn distance(&self, other: &Position) -> f64 {
        let (dx, dy, dz) = (self.x - other.x, self.y - other.y, self.z - other.z);
        (dx * dx + dy * dy + dz * dz).sqrt()
    }
}

/// A node's motion: at rest, or moving in a straight line at a constant
/// speed from where it was at `since` toward `to`, where it stops (as
/// ns-2's MobileNode does; the height stays).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    from: Position,
    since: Instant,
    to: (f64, f64),
    /// Unit direction in the plane and speed, m/s.
    direction: (f64, f64),
    speed: f64,
}

impl Motion {
    /// At rest at `at`.
    pub fn at_rest(at: Position) -> Self {
        Motion { from: at, since: Instant::ZERO, to: (at.x, at.y), direction: (0.0, 0.0), speed: 0.0 }
    }

    /// Where the node is at `now` (not before the move started).
    pub fn position(&self, now: Instant) -> Position {
        let travelled = self.speed * now.saturating_since(self.since).as_secs_f64();
        let axis = |from: f64, dir: f64, to: f64| {
            let p = from + dir * travelled;
            if (dir > 0.0 && p > to) || (dir < 0.0 && p < to) {
                to // arrived: it stops there
            } else {
                p
            }
        };
        Position {
            x: axis(self.from.x, self.direction.0, self.to.0),
            y: axis(self.from.y, self.direction.1, self.to.1),
            z: self.from.z,
        }
    }

    /// From where it is at `now`, heads for (x, y) at `speed` m/s
    /// (`setdest`).
    pub fn set_destination(&mut self, now: Instant, x: f64, y: f64, speed: f64) {
        let from = self.position(now);
        let (dx, dy) = (x - from.x, y - from.y);
        let len = (dx * dx + dy * dy).sqrt();
        let direction = if len > 0.0 { (dx / len, dy / len) } else { (0.0, 0.0) };
        *self = Motion { from, since: now, to: (x, y), direction, speed };
    }

    /// Puts the node at `at` now, at rest.
    pub fn set_position(&mut self, now: Instant, at: Position) {
        *self = Motion { since: now, ..Motion::at_rest(at) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Instant {
        Instant::from_secs_f64(s)
    }

    #[test]
    fn a_setdest_moves_in_a_straight_line_at_its_speed_and_stops_at_the_destination() {
        let mut m = Motion::at_rest(Position { x: 0.0, y: 0.0, z: 2.0 });
        m.set_destination(secs(10.0), 30.0, 40.0, 5.0); // 50 m at 5 m/s: arrives at 20 s
        assert_eq!(m.position(secs(5.0)), Position { x: 0.0, y: 0.0, z: 2.0 }, "before the move");
        let mid = m.position(secs(15.0));
        assert!((mid.x - 15.0).abs() < 1e-9 && (mid.y - 20.0).abs() < 1e-9 && mid.z == 2.0, "{mid:?}");
        assert_eq!(m.position(secs(20.0)), Position { x: 30.0, y: 40.0, z: 2.0 });
        assert_eq!(m.position(secs(100.0)), Position { x: 30.0, y: 40.0, z: 2.0 }, "it stops there");
    }

    #[test]
    fn a_new_setdest_starts_from_where_the_node_is() {
        let mut m = Motion::at_rest(Position::default());
        m.set_destination(Instant::ZERO, 100.0, 0.0, 10.0);
        m.set_destination(secs(3.0), 30.0, 40.0, 1.0); // from (30, 0) straight up
        let p = m.position(secs(13.0));
        assert!((p.x - 30.0).abs() < 1e-9 && (p.y - 10.0).abs() < 1e-9, "{p:?}");
        m.set_position(secs(14.0), Position { x: 5.0, y: 5.0, z: 0.0 });
        assert_eq!(m.position(secs(20.0)), Position { x: 5.0, y: 5.0, z: 0.0 });
    }
}
