//! A random number generator whose state can be saved: `rand`'s `SmallRng` cannot be (it has no
//! accessor for its state, and no serde support even with rand's `serde1` feature).

use rand::{RngCore, SeedableRng};

/// Xoshiro256++, the generator behind `rand` 0.8's `SmallRng` on 64-bit targets, with its state
/// readable ([`state`](ResumableRng::state)) and restorable ([`from_state`](ResumableRng::from_state))
/// so that a training run can save it in a checkpoint and continue bit for bit.
///
/// It is seeded exactly as `SmallRng` is, so on 64-bit targets `ResumableRng::seed_from_u64(s)`
/// draws the same numbers as `SmallRng::seed_from_u64(s)`: switching a program from `SmallRng` to
/// it changes no result. (On 32-bit targets `SmallRng` is Xoshiro128++, a different sequence.)
/// Like `SmallRng`, it is fast and statistically good, and not for cryptography.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::checkpoint::ResumableRng;
/// use autodiff_runtime::rand::{Rng, SeedableRng};
///
/// let mut rng = ResumableRng::seed_from_u64(7);
/// let _ = rng.gen_range(0..100);
/// let saved = rng.state();
/// let next: u32 = rng.r#gen();
/// // Later, or in another process:
/// let mut resumed = ResumableRng::from_state(saved).unwrap();
/// assert_eq!(resumed.r#gen::<u32>(), next);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumableRng {
    s: [u64; 4],
}

impl ResumableRng {
    /// The generator's whole state: four words, not all zero.
    #[must_use]
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The generator in the state `state` (from [`state`](ResumableRng::state)), or `None` for the
    /// all-zero state, from which Xoshiro would draw only zeros.
    #[must_use]
    pub fn from_state(state: [u64; 4]) -> Option<Self> {
        (state != [0; 4]).then_some(ResumableRng { s: state })
    }

    /// `Xoshiro256PlusPlus::seed_from_u64` of `rand` 0.8 (SplitMix64), used for an all-zero seed.
    fn splitmix(mut state: u64) -> Self {
        const PHI: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut s = [0; 4];
        for word in &mut s {
            state = state.wrapping_add(PHI);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *word = z ^ (z >> 31);
        }
        ResumableRng { s }
    }
}

impl SeedableRng for ResumableRng {
    type Seed = [u8; 32];

    /// The state read as four little-endian words; an all-zero seed is replaced as `rand` does.
    /// `seed_from_u64` is `rand_core`'s default (PCG32 filling the seed), as for `SmallRng`.
    fn from_seed(seed: [u8; 32]) -> Self {
        if seed == [0; 32] {
            return Self::splitmix(0);
        }
        let mut s = [0; 4];
        for (word, bytes) in s.iter_mut().zip(seed.chunks_exact(8)) {
            let mut le = [0; 8];
            le.copy_from_slice(bytes);
            *word = u64::from_le_bytes(le);
        }
        ResumableRng { s }
    }
}

impl RngCore for ResumableRng {
    fn next_u32(&mut self) -> u32 {
        // The upper bits: the lowest have linear dependencies.
        (self.next_u64() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Eight bytes per `next_u64`, the last one to four from `next_u32`, as `rand_core`'s
    /// `fill_bytes_via_next` (which `SmallRng` uses).
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let mut chunks = dest.chunks_exact_mut(8);
        for chunk in &mut chunks {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        let n = rest.len();
        if n > 4 {
            rest.copy_from_slice(&self.next_u64().to_le_bytes()[..n]);
        } else if n > 0 {
            rest.copy_from_slice(&self.next_u32().to_le_bytes()[..n]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use rand::rngs::SmallRng;
    use std::vec::Vec;

    /// The reference values of xoshiro256plusplus.c for the state [1, 2, 3, 4].
    #[test]
    fn matches_the_reference_implementation() {
        let mut rng = ResumableRng::from_state([1, 2, 3, 4]).unwrap();
        let expected = [
            41_943_041,
            58_720_359,
            3_588_806_011_781_223,
            3_591_011_842_654_386,
            9_228_616_714_210_784_205,
            9_973_669_472_204_895_162,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn draws_what_small_rng_draws() {
        for seed in [0, 1, 1337, u64::MAX] {
            let (mut a, mut b) = (
                ResumableRng::seed_from_u64(seed),
                SmallRng::seed_from_u64(seed),
            );
            for n in 0..200usize {
                assert_eq!(a.next_u32(), b.next_u32());
                assert_eq!(a.gen_range(0..=n), b.gen_range(0..=n));
                assert_eq!(a.r#gen::<f32>().to_bits(), b.r#gen::<f32>().to_bits());
                let (mut x, mut y) = (std::vec![0u8; n % 13], std::vec![0u8; n % 13]);
                a.fill_bytes(&mut x);
                b.fill_bytes(&mut y);
                assert_eq!(x, y);
            }
        }
        let zero = [0u8; 32];
        let (mut a, mut b) = (ResumableRng::from_seed(zero), SmallRng::from_seed(zero));
        let (a, b): (Vec<u64>, Vec<u64>) = (0..8).map(|_| (a.next_u64(), b.next_u64())).unzip();
        assert_eq!(a, b);
    }

    #[test]
    fn the_state_round_trips_and_zero_is_rejected() {
        let mut rng = ResumableRng::seed_from_u64(3);
        rng.next_u64();
        let mut copy = ResumableRng::from_state(rng.state()).unwrap();
        assert_eq!(copy.next_u64(), rng.next_u64());
        assert_eq!(ResumableRng::from_state([0; 4]), None);
    }
}
