//! L'Ecuyer's MRG32k3a generator with the stream structure of his RngStreams
//! package: the default random-number generator of ns-2 (since 2.1b9), kept
//! here so that ns-2 scripts draw ns-2's numbers.
//!
//! P. L'Ecuyer, "Good parameters and implementations for combined multiple
//! recursive random number generators", Operations Research 47(1), 1999;
//! P. L'Ecuyer, R. Simard, E. J. Chen, W. D. Kelton, "An object-oriented
//! random-number package with many long streams and substreams", Operations
//! Research 50(6), 2002. Two recurrences of order 3,
//!
//!   x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod (2^32 - 209)
//!   x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod (2^32 - 22853)
//!
//! combined as u[n] = ((x1[n] - x2[n]) mod m1) / (m1 + 1), with m1 in place of
//! a zero difference, so that u lies in (0, 1). Streams start 2^127 steps
//! apart. Everything is exact integer arithmetic; only the last step forms
//! the double, as the package does.

/// The two moduli.
const M1: u64 = 4_294_967_087;
const M2: u64 = 4_294_944_443;
/// The package's normalisation, 1 / (m1 + 1), as the double it computes.
const NORM: f64 = 1.0 / (M1 as f64 + 1.0);

/// One step of each component as a matrix on (x[n-3], x[n-2], x[n-1]),
/// with the negative multipliers taken modulo m.
const A1: [[u64; 3]; 3] = [[0, 1, 0], [0, 0, 1], [M1 - 810_728, 1_403_580, 0]];
const A2: [[u64; 3]; 3] = [[0, 1, 0], [0, 0, 1], [M2 - 1_370_589, 0, 527_612]];

const fn mat_mul(a: &[[u64; 3]; 3], b: &[[u64; 3]; 3], m: u64) -> [[u64; 3]; 3] {
    let mut c = [[0u64; 3]; 3];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            let mut sum: u128 = 0;
            let mut k = 0;
            while k < 3 {
                sum += a[i][k] as u128 * b[k][j] as u128;
                k += 1;
            }
            c[i][j] = (sum % m as u128) as u64;
            j += 1;
        }
        i += 1;
    }
    c
}

/// a^(2^e) mod m, by squaring e times.
const fn mat_pow2(a: [[u64; 3]; 3], e: u32, m: u64) -> [[u64; 3]; 3] {
    let mut b = a;
    let mut i = 0;
    while i < e {
        b = mat_mul(&b, &b, m);
        i += 1;
    }
    b
}

/// The jump from one stream's start to the next: 2^127 steps.
const A1_STREAM: [[u64; 3]; 3] = mat_pow2(A1, 127, M1);
const A2_STREAM: [[u64; 3]; 3] = mat_pow2(A2, 127, M2);
const A1_SUBSTREAM: [[u64; 3]; 3] = mat_pow2(A1, 76, M1);
const A2_SUBSTREAM: [[u64; 3]; 3] = mat_pow2(A2, 76, M2);

fn mat_vec(a: &[[u64; 3]; 3], v: [u64; 3], m: u64) -> [u64; 3] {
    let row = |r: &[u64; 3]| {
        (r.iter().zip(v).map(|(&x, y)| u128::from(x) * u128::from(y)).sum::<u128>() % u128::from(m)) as u64
    };
    [row(&a[0]), row(&a[1]), row(&a[2])]
}

/// Why a seed cannot start a generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    #[error("seed values must be below 4294967087 (the first three) and 4294944443 (the last three)")]
    TooLarge,
    #[error("the first three and the last three seed values must not all be zero")]
    AllZero,
}

/// The generator's state: (x1[n-3], x1[n-2], x1[n-1], x2[n-3], x2[n-2], x2[n-1]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mrg32k3a {
    state: [u64; 6],
}

impl Mrg32k3a {
    /// A generator whose state is `seed`, the package's seed vector.
    pub fn new(seed: [u64; 6]) -> Result<Self, SeedError> {
        if seed[..3].iter().any(|&s| s >= M1) || seed[3..].iter().any(|&s| s >= M2) {
            return Err(SeedError::TooLarge);
        }
        if seed[..3] == [0; 3] || seed[3..] == [0; 3] {
            return Err(SeedError::AllZero);
        }
        Ok(Mrg32k3a { state: seed })
    }

    /// The state, as the package's seed vector.
    pub fn state(&self) -> [u64; 6] {
        self.state
    }

    /// The next uniform number in (0, 1), a multiple of 1 / (m1 + 1).
    pub fn next_u01(&mut self) -> f64 {
        let s = &mut self.state;
        // The negative terms as multiples of (m - x), so that no sum exceeds 2^54.
        let x1 = (1_403_580 * s[1] + 810_728 * (M1 - s[0])) % M1;
        let x2 = (527_612 * s[5] + 1_370_589 * (M2 - s[3])) % M2;
        *s = [s[1], s[2], x1, s[4], s[5], x2];
        let z = if x1 > x2 { x1 - x2 } else { x1 + M1 - x2 };
        z as f64 * NORM
    }

    /// The generator 2^127 steps ahead: where the package's next stream
    /// starts when this one starts here.
    pub fn next_stream(&self) -> Self {
        self.jump(&A1_STREAM, &A2_STREAM)
    }

    /// The generator 2^76 steps ahead: where the next substream starts
    /// when this substream starts here (ns-2's `next-substream`).
    pub fn next_substream(&self) -> Self {
        self.jump(&A1_SUBSTREAM, &A2_SUBSTREAM)
    }

    fn jump(&self, a1: &[[u64; 3]; 3], a2: &[[u64; 3]; 3]) -> Self {
        let [a, b, c, d, e, f] = self.state;
        let [a, b, c] = mat_vec(a1, [a, b, c], M1);
        let [d, e, f] = mat_vec(a2, [d, e, f], M2);
        Mrg32k3a { state: [a, b, c, d, e, f] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ones() -> Mrg32k3a {
        Mrg32k3a::new([1; 6]).expect("a valid seed")
    }

    /// ns-2's integer draw (`ns-random`): the uniform scaled to [0, 2^31).
    fn ns_random(g: &mut Mrg32k3a) -> u64 {
        (2_147_483_648.0 * g.next_u01()) as u64
    }

    #[test]
    fn draws_ns2s_numbers_after_its_default_seed() {
        // ns-2 2.35: `ns-random` five times after start-up, which seeds the
        // default generator with 1; then `$defaultRNG all-seeds`.
        let mut g = ones();
        let draws: Vec<u64> = (0..5).map(|_| ns_random(&mut g)).collect();
        assert_eq!(draws, [729_236, 1_193_744_747, 30_504_276, 189_241_995, 947_412_623]);
        assert_eq!(
            g.state(),
            [3_185_751_641, 3_581_159_857, 1_808_333_264, 3_124_743_091, 3_202_675_884, 4_208_475_195]
        );
    }

    #[test]
    fn the_next_stream_is_where_ns2s_new_rng_starts() {
        // ns-2 2.35: `new RNG` after `$defaultRNG seed 1`, then its
        // `all-seeds` and its first `next-random`.
        let mut g = ones().next_stream();
        assert_eq!(g.state(), [2_662_865_579, 741_857_976, 4_206_142_246, 3_352_832_365, 2_519_202_871, 655_500_294]);
        assert_eq!(ns_random(&mut g), 357_444_843);
    }

    #[test]
    fn the_next_substream_is_where_ns2s_next_substream_starts() {
        // ns-2 2.35: `$r seed 1; $r next-substream; $r all-seeds`, twice.
        let first = ones().next_substream();
        assert_eq!(
            first.state(),
            [1_786_595_909, 1_318_450_546, 2_975_062_582, 2_586_387_715, 1_104_109_601, 3_270_994_274]
        );
        let mut second = first.next_substream();
        assert_eq!(
            second.state(),
            [1_495_360_788, 2_974_767_192, 2_124_418_495, 2_814_946_585, 2_852_337_599, 303_404_406]
        );
        assert_eq!(ns_random(&mut second), 1_467_894_187, "ns-2's next-random there");
    }

    #[test]
    fn the_stream_jump_is_the_papers_matrix() {
        // L'Ecuyer et al. 2002, A1^(2^127) and A2^(2^127): first rows.
        assert_eq!(A1_STREAM[0], [2_427_906_178, 3_580_155_704, 949_770_784]);
        assert_eq!(A2_STREAM[0], [1_464_411_153, 277_697_599, 1_610_723_613]);
    }

    #[test]
    fn large_states_step_without_overflow() {
        // The largest valid state, stepped the exact way (in u128).
        let big = [M1 - 1, M1 - 1, M1 - 1, M2 - 1, M2 - 1, M2 - 1];
        let mut g = Mrg32k3a::new(big).expect("a valid seed");
        g.next_u01();
        let x1 = ((1_403_580 * u128::from(M1 - 1) + u128::from(M1) * 810_728 - 810_728 * u128::from(M1 - 1))
            % u128::from(M1)) as u64;
        let x2 = ((527_612 * u128::from(M2 - 1) + u128::from(M2) * 1_370_589 - 1_370_589 * u128::from(M2 - 1))
            % u128::from(M2)) as u64;
        assert_eq!(g.state(), [M1 - 1, M1 - 1, x1, M2 - 1, M2 - 1, x2]);
    }

    #[test]
    fn a_zero_difference_gives_m1_over_m1_plus_1_not_zero() {
        // Equal components (here both zero) give m1 / (m1 + 1).
        let mut equal = Mrg32k3a { state: [0; 6] };
        assert_eq!(equal.next_u01(), M1 as f64 * NORM);
        assert!(equal.next_u01() < 1.0);
    }

    #[test]
    fn seeds_out_of_range_or_all_zero_are_refused() {
        assert_eq!(Mrg32k3a::new([M1, 1, 1, 1, 1, 1]), Err(SeedError::TooLarge));
        assert_eq!(Mrg32k3a::new([1, 1, 1, 1, 1, M2]), Err(SeedError::TooLarge));
        assert_eq!(Mrg32k3a::new([0, 0, 0, 1, 1, 1]), Err(SeedError::AllZero));
        assert_eq!(Mrg32k3a::new([1, 1, 1, 0, 0, 0]), Err(SeedError::AllZero));
    }
}
