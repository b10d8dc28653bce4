//! Independent random-number streams, one per component.
//!
//! A stream is keyed by (run seed, replication, component label), so adding
//! a flow never shifts the numbers another link draws, and replication k of
//! a run gets a stream set independent of replication j.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every random component uses.
pub type SimRng = Xoshiro256PlusPlus;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RngStreams {
    seed: u64,
    replication: u64,
}

/// SplitMix64's finaliser: a bijective mix with good avalanche.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a: a stable hash of a label (std's hasher may change between releases).
fn label_hash(label: &str) -> u64 {
    label.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3))
}

impl RngStreams {
    pub fn new(seed: u64, replication: u64) -> Self {
        RngStreams { seed, replication }
    }

    /// The stream for a component, e.g. `"link/3/loss"`.
    pub fn stream(&self, component: &str) -> SimRng {
        let key = mix(mix(mix(self.seed) ^ self.replication) ^ label_hash(component));
        SimRng::seed_from_u64(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn draws(s: RngStreams, label: &str) -> Vec<u64> {
        let mut r = s.stream(label);
        (0..4).map(|_| r.random()).collect()
    }

    #[test]
    fn same_key_gives_same_stream() {
        let s = RngStreams::new(7, 0);
        assert_eq!(draws(s, "link/0/loss"), draws(s, "link/0/loss"));
    }

    #[test]
    fn seeds_replications_and_components_give_distinct_streams() {
        let base = draws(RngStreams::new(7, 0), "link/0/loss");
        assert_ne!(base, draws(RngStreams::new(8, 0), "link/0/loss"));
        assert_ne!(base, draws(RngStreams::new(7, 1), "link/0/loss"));
        assert_ne!(base, draws(RngStreams::new(7, 0), "link/1/loss"));
    }
}
