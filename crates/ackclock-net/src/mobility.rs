//! Where a mobile node is: a position, and the straight-line move toward a
//! destination that ns-2's `setdest` starts. Positions are computed when
//! asked for, from the move's start, so motion costs no events.

use ackclock_core::{Duration, Instant};

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

    /// When and where the move ends (`None` at rest): the distance over
    /// the speed after its start.
    pub fn arrival(&self) -> Option<(Instant, Position)> {
        let (dx, dy) = (self.to.0 - self.from.x, self.to.1 - self.from.y);
        let len = (dx * dx + dy * dy).sqrt();
        if self.speed <= 0.0 || len == 0.0 {
            return None;
        }
        let at = self.since + Duration::from_secs_f64(len / self.speed);
        Some((at, Position { x: self.to.0, y: self.to.1, z: self.from.z }))
    }
}

/// A node's path as its waypoints: where it was at the start and end of
/// every move and at every jump. Motion is linear between two waypoints,
/// so they are the exact position series, with no sampling.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Track {
    points: Vec<(Instant, Position)>,
}

impl Track {
    /// `motion` changed at `now` (a move started or the node was put
    /// somewhere): where it is now and where the move will end.
    pub fn changed(&mut self, now: Instant, motion: &Motion) {
        // An arrival the new move cut short never happened.
        while self.points.last().is_some_and(|p| p.0 > now) {
            self.points.pop();
        }
        let here = motion.position(now);
        // A move that starts as the last one ends starts from its end (up
        // to rounding: the arrival time is whole picoseconds).
        let known = self.points.last().is_some_and(|&(t, p)| t == now && p.distance(&here) < 1e-6);
        if !known {
            self.points.push((now, here));
        }
        self.points.extend(motion.arrival());
    }

    pub fn points(&self) -> &[(Instant, Position)] {
        &self.points
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

    #[test]
    fn a_track_holds_each_move_s_start_and_end_and_drops_an_arrival_cut_short() {
        let origin = Position { x: 0.0, y: 0.0, z: 1.5 };
        let mut m = Motion::at_rest(origin);
        let mut t = Track::default();
        t.changed(Instant::ZERO, &m);
        m.set_destination(secs(2.0), 30.0, 40.0, 5.0); // 50 m: arrives at 12 s
        t.changed(secs(2.0), &m);
        m.set_destination(secs(7.0), 0.0, 20.0, 1.0); // from (15, 20), 15 m: arrives at 22 s
        t.changed(secs(7.0), &m);
        let at = |x, y| Position { x, y, z: 1.5 };
        let expected =
            [(Instant::ZERO, origin), (secs(2.0), origin), (secs(7.0), at(15.0, 20.0)), (secs(22.0), at(0.0, 20.0))];
        assert_eq!(t.points().len(), expected.len(), "{:?}", t.points());
        for ((ta, pa), (tb, pb)) in t.points().iter().zip(expected) {
            assert_eq!(*ta, tb);
            assert!(pa.distance(&pb) < 1e-9, "{pa:?} != {pb:?}");
        }
    }

    #[test]
    fn a_move_starting_at_the_last_one_s_arrival_adds_no_second_waypoint_there() {
        let mut m = Motion::at_rest(Position::default());
        let mut t = Track::default();
        m.set_destination(Instant::ZERO, 1.0, 1.0, 3.0); // sqrt(2) m: the arrival is rounded to the picosecond
        t.changed(Instant::ZERO, &m);
        let end = t.points()[1].0;
        m.set_destination(end, 0.0, 0.0, 3.0);
        t.changed(end, &m);
        let times: Vec<Instant> = t.points().iter().map(|p| p.0).collect();
        assert_eq!(times.len(), 3, "{:?}", t.points());
        assert_eq!(times[1], end);
        assert_eq!(t.points()[1].1, Position { x: 1.0, y: 1.0, z: 0.0 }, "the exact destination");
    }
}
