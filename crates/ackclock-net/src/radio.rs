//! A radio channel (ns-2's Channel/WirelessChannel): every NIC on it may
//! hear every transmission, with the power the propagation model gives
//! for the distance between them at that instant, after the time light
//! takes to cover it. A NIC that would sense less than the carrier-sense
//! threshold does not get the frame at all; the MAC judges the rest.

use crate::medium::{Medium, NicId, Reception};
use crate::mobility::{Motion, Position, Track};
use crate::propagation::{PhyConfig, Propagation, SPEED_OF_LIGHT};
use ackclock_core::{Duration, Instant, SimRng};

#[derive(Clone, Debug)]
pub struct Radio {
    pub propagation: Propagation,
    pub phy: PhyConfig,
    /// The attached NICs and how each moves.
    nics: Vec<(NicId, Motion)>,
    /// Where each has been, in the order of `nics`.
    tracks: Vec<Track>,
    /// Shadowing's draws.
    rng: SimRng,
}

impl Radio {
    pub fn new(propagation: Propagation, phy: PhyConfig, rng: SimRng) -> Self {
        Radio { propagation, phy, nics: Vec::new(), tracks: Vec::new(), rng }
    }

    fn index(&self, nic: NicId) -> usize {
        self.nics.iter().position(|n| n.0 == nic).expect("a NIC attached to this radio")
    }

    fn motion(&mut self, nic: NicId) -> &mut Motion {
        let i = self.index(nic);
        &mut self.nics[i].1
    }

    /// Puts `nic` at `at` now, at rest.
    pub fn set_position(&mut self, nic: NicId, now: Instant, at: Position) {
        let i = self.index(nic);
        self.nics[i].1.set_position(now, at);
        self.tracks[i].changed(now, &self.nics[i].1);
    }

    /// Sends `nic` from where it is now toward (x, y) at `speed` m/s; it
    /// stops there (ns-2's `setdest`).
    pub fn set_destination(&mut self, nic: NicId, now: Instant, x: f64, y: f64, speed: f64) {
        let i = self.index(nic);
        self.nics[i].1.set_destination(now, x, y, speed);
        self.tracks[i].changed(now, &self.nics[i].1);
    }

    /// `nic`'s waypoints so far, with the end of the move under way.
    pub fn track(&self, nic: NicId) -> &Track {
        &self.tracks[self.index(nic)]
    }

    pub fn position(&mut self, nic: NicId, now: Instant) -> Position {
        self.motion(nic).position(now)
    }
}

impl Medium for Radio {
    fn receptions(&mut self, now: Instant, from: NicId, out: &mut Vec<Reception>) {
        let at = self.motion(from).position(now);
        let ht = at.z + self.phy.antenna_height_m;
        for &(nic, motion) in self.nics.iter().filter(|n| n.0 != from) {
            let there = motion.position(now);
            let distance = at.distance(&there);
            let hr = there.z + self.phy.antenna_height_m;
            let power_w = self.propagation.received_power_w(&self.phy, distance, ht, hr, &mut self.rng);
            if power_w >= self.phy.cs_threshold_w {
                let first_bit = now + Duration::from_secs_f64(distance / SPEED_OF_LIGHT);
                out.push(Reception { nic, first_bit, power_w });
            }
        }
    }

    /// None: who hears whom changes as nodes move; routing protocols find
    /// out by broadcasting.
    fn neighbours(&self, _nic: NicId) -> Vec<NicId> {
        Vec::new()
    }

    fn attach(&mut self, nic: NicId) {
        self.nics.push((nic, Motion::at_rest(Position::default())));
        self.tracks.push(Track::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn radio(nodes: &[(f64, f64)]) -> Radio {
        let mut r = Radio::new(Propagation::TwoRayGround, PhyConfig::default(), SimRng::seed_from_u64(0));
        for (nic, &(x, y)) in nodes.iter().enumerate() {
            r.attach(nic as NicId);
            r.set_position(nic as NicId, Instant::ZERO, Position { x, y, z: 0.0 });
        }
        r
    }

    #[test]
    fn receivers_get_the_two_ray_power_after_distance_over_c_and_none_below_carrier_sense() {
        let mut r = radio(&[(0.0, 0.0), (200.0, 0.0), (0.0, 549.0), (551.0, 0.0)]);
        let mut out = Vec::new();
        r.receptions(Instant::ZERO, 0, &mut out);
        assert_eq!(out.iter().map(|x| x.nic).collect::<Vec<_>>(), vec![1, 2], "551 m is below CSThresh");
        // 200 m: 0.28183815 * 1.5^4 / 200^4 = 8.9175e-10 W, 666.667 ns.
        assert!((out[0].power_w - 8.917_5e-10).abs() < 1e-14, "{}", out[0].power_w);
        assert_eq!(out[0].first_bit, Instant::from_ps(666_667));
        assert_eq!(out[1].first_bit, Instant::from_ps(1_830_000));
    }

    #[test]
    fn a_receiver_moving_away_drops_out_of_carrier_sense_range_when_it_passes_550_m() {
        let mut r = radio(&[(0.0, 0.0), (500.0, 0.0)]);
        r.set_destination(1, Instant::ZERO, 1000.0, 0.0, 10.0); // 550.02 m at 5.0022 s
        let heard = |r: &mut Radio, s: f64| {
            let mut out = Vec::new();
            r.receptions(Instant::from_secs_f64(s), 0, &mut out);
            !out.is_empty()
        };
        assert!(heard(&mut r, 5.0));
        assert!(!heard(&mut r, 5.003));
        assert_eq!(r.neighbours(0), Vec::<NicId>::new());
    }
}
