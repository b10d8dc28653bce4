//! Radio propagation: the power a receiver gets from a transmitter at a
//! distance, with ns-2 2.35's models (mobile/propagation.cc,
//! tworayground.cc, shadowing.cc) and its defaults (ns-default.tcl).

use ackclock_core::SimRng;
use rand_distr::{Distribution, StandardNormal};
use std::f64::consts::PI;

/// The speed of light as ns-2 takes it (propagation.h): wavelengths and
/// propagation delays both use it.
pub const SPEED_OF_LIGHT: f64 = 3.0e8;

/// A radio's physical layer: what it sends with and what it can hear
/// (ns-2's Phy/WirelessPhy with an omni antenna).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhyConfig {
    /// Transmit power, watts (ns-2's `Pt_`: 250 m of range under two-ray).
    pub tx_power_w: f64,
    pub frequency_hz: f64,
    /// Below this a frame is noise: it keeps the medium busy but is not
    /// received (`RXThresh_`; the MAC applies it).
    pub rx_threshold_w: f64,
    /// Below this a frame is not sensed at all (`CSThresh_`; the medium
    /// does not deliver it).
    pub cs_threshold_w: f64,
    /// How many times stronger a frame must be than another to survive
    /// their overlap (`CPThresh_`).
    pub capture_threshold: f64,
    pub system_loss: f64,
    /// Antenna height above the node, metres (`Antenna/OmniAntenna Z_`).
    pub antenna_height_m: f64,
    pub tx_gain: f64,
    pub rx_gain: f64,
}

impl Default for PhyConfig {
    fn default() -> Self {
        PhyConfig {
            tx_power_w: 0.281_838_15,
            frequency_hz: 914e6,
            rx_threshold_w: 3.652e-10,
            cs_threshold_w: 1.559e-11,
            capture_threshold: 10.0,
            system_loss: 1.0,
            antenna_height_m: 1.5,
            tx_gain: 1.0,
            rx_gain: 1.0,
        }
    }
}

impl PhyConfig {
    pub fn wavelength_m(&self) -> f64 {
        SPEED_OF_LIGHT / self.frequency_hz
    }

    /// Friis free-space power at `distance` (the whole transmit power at
    /// distance 0, as ns-2 has it).
    pub fn friis_w(&self, distance: f64) -> f64 {
        if distance == 0.0 {
            return self.tx_power_w;
        }
        let m = self.wavelength_m() / (4.0 * PI * distance);
        self.tx_power_w * self.tx_gain * self.rx_gain * m * m / self.system_loss
    }
}

/// Log-normal shadowing parameters (ns-2's Propagation/Shadowing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowingParams {
    pub path_loss_exponent: f64,
    /// Standard deviation of the shadowing, dB.
    pub deviation_db: f64,
    /// Distance of the free-space reference power, metres.
    pub reference_distance_m: f64,
}

impl Default for ShadowingParams {
    fn default() -> Self {
        ShadowingParams { path_loss_exponent: 2.0, deviation_db: 4.0, reference_distance_m: 1.0 }
    }
}

/// The propagation models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Propagation {
    FreeSpace,
    /// Friis up to the crossover distance, the two-ray ground reflection
    /// model beyond it.
    TwoRayGround,
    Shadowing(ShadowingParams),
}

impl Propagation {
    /// The power a receiver gets, in watts, over `distance` metres between
    /// antennas at heights `ht` and `hr` metres above the ground. Shadowing
    /// draws its random loss from `rng`.
    pub fn received_power_w(&self, phy: &PhyConfig, distance: f64, ht: f64, hr: f64, rng: &mut SimRng) -> f64 {
        match self {
            Propagation::FreeSpace => phy.friis_w(distance),
            Propagation::TwoRayGround => {
                if distance <= crossover_distance_m(phy, ht, hr) {
                    phy.friis_w(distance)
                } else {
                    let d2 = distance * distance;
                    phy.tx_power_w * phy.tx_gain * phy.rx_gain * (ht * ht * hr * hr) / (d2 * d2 * phy.system_loss)
                }
            }
            Propagation::Shadowing(s) => {
                let mean_db = if distance > s.reference_distance_m {
                    -10.0 * s.path_loss_exponent * (distance / s.reference_distance_m).log10()
                } else {
                    0.0
                };
                let noise: f64 = StandardNormal.sample(rng);
                phy.friis_w(s.reference_distance_m) * 10f64.powf((mean_db + noise * s.deviation_db) / 10.0)
            }
        }
    }

    /// Whether the model draws random numbers.
    pub fn is_random(&self) -> bool {
        matches!(self, Propagation::Shadowing(_))
    }
}

/// Where two-ray ground's prediction meets Friis's: 4 pi ht hr / lambda.
pub fn crossover_distance_m(phy: &PhyConfig, ht: f64, hr: f64) -> f64 {
    4.0 * PI * ht * hr / phy.wavelength_m()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn power(p: Propagation, d: f64) -> f64 {
        p.received_power_w(&PhyConfig::default(), d, 1.5, 1.5, &mut SimRng::seed_from_u64(1))
    }

    fn close(a: f64, b: f64, rel: f64) -> bool {
        ((a - b) / b).abs() <= rel
    }

    #[test]
    fn two_ray_with_ns2_defaults_reaches_rx_threshold_at_250_m_and_cs_threshold_at_550_m() {
        // ns-2's thresholds are these powers rounded to four digits.
        let phy = PhyConfig::default();
        assert!(close(power(Propagation::TwoRayGround, 250.0), phy.rx_threshold_w, 2e-4));
        assert!(close(power(Propagation::TwoRayGround, 550.0), phy.cs_threshold_w, 2e-4));
        // The exact range: (Pt ht^2 hr^2 / RXThresh)^(1/4) = 250.0107 m.
        assert!(power(Propagation::TwoRayGround, 250.010) > phy.rx_threshold_w);
        assert!(power(Propagation::TwoRayGround, 250.011) < phy.rx_threshold_w);
    }

    #[test]
    fn two_ray_is_friis_up_to_the_crossover_and_continuous_there() {
        // 4 pi 1.5 1.5 / (3e8 / 914e6) = 86.1425 m.
        let phy = PhyConfig::default();
        let x = crossover_distance_m(&phy, 1.5, 1.5);
        assert!(close(x, 86.142_47, 1e-6), "crossover {x}");
        for d in [10.0, 50.0, x] {
            assert_eq!(power(Propagation::TwoRayGround, d), power(Propagation::FreeSpace, d));
        }
        assert!(close(power(Propagation::TwoRayGround, x * 1.000_001), phy.friis_w(x), 1e-5));
        // Beyond it power falls with d^4: doubling the distance costs 16x.
        assert!(close(power(Propagation::TwoRayGround, 200.0) / power(Propagation::TwoRayGround, 400.0), 16.0, 1e-12));
    }

    #[test]
    fn free_space_follows_friis() {
        // Pt (lambda / 4 pi d)^2 at 100 m: 0.28183815 * (0.328228/1256.64)^2.
        let lambda = 3.0e8 / 914e6;
        let expected = 0.281_838_15 * (lambda / (4.0 * PI * 100.0)).powi(2);
        assert!(close(power(Propagation::FreeSpace, 100.0), expected, 1e-12));
        assert!(close(expected, 1.9228e-8, 1e-4));
        assert_eq!(power(Propagation::FreeSpace, 0.0), 0.281_838_15);
    }

    #[test]
    fn shadowing_without_deviation_is_the_path_loss_model_and_with_it_log_normal() {
        let phy = PhyConfig::default();
        let flat = Propagation::Shadowing(ShadowingParams { deviation_db: 0.0, ..Default::default() });
        // Exponent 2 from a 1 m free-space reference is free space itself.
        assert!(close(power(flat, 300.0), phy.friis_w(300.0), 1e-12));
        let cubic = Propagation::Shadowing(ShadowingParams {
            path_loss_exponent: 3.0,
            deviation_db: 0.0,
            ..Default::default()
        });
        assert!(close(power(cubic, 100.0), phy.friis_w(1.0) * 1e-6, 1e-12));
        // With 4 dB deviation the loss in dB around the mean has sd 4.
        let mut rng = SimRng::seed_from_u64(7);
        let shadow = Propagation::Shadowing(ShadowingParams::default());
        let mean_db = 10.0 * phy.friis_w(300.0).log10();
        let db: Vec<f64> = (0..20_000)
            .map(|_| 10.0 * shadow.received_power_w(&phy, 300.0, 1.5, 1.5, &mut rng).log10() - mean_db)
            .collect();
        let mean = db.iter().sum::<f64>() / db.len() as f64;
        let sd = (db.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / db.len() as f64).sqrt();
        assert!(mean.abs() < 0.1 && (sd - 4.0).abs() < 0.1, "mean {mean} dB, sd {sd} dB");
    }
}
