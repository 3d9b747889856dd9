//! Shuffling: ChaCha20 as a deterministic, platform-independent stream, keyed either from the
//! operating system's CSPRNG or from a caller's seed, and an unbiased Fisher–Yates.
//!
//! The stream is ChaCha20 with key = the 32-byte seed, a 64-bit block counter from 0 and
//! stream (nonce) 0, words taken in order: the `rand_chacha` crate's `ChaCha20Rng`, whose output
//! is pinned by the RFC 8439 vector and the seeded-deal table in the tests. `below(n)` and the
//! shuffle are this file's own (rejection sampling, Fisher–Yates), so every permutation is
//! equally likely and a seeded deal does not depend on any crate's sampling code.

use crate::error::Error;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// A ChaCha20 keystream read as 32-bit words; its whole state is `(key, position)`.
#[derive(Clone, Debug)]
pub struct Rng {
    stream: ChaCha20Rng,
}

impl Rng {
    /// A stream keyed by 32 bytes.
    pub fn from_key(key: [u8; 32]) -> Rng {
        Rng {
            stream: ChaCha20Rng::from_seed(key),
        }
    }

    /// A stream keyed from the operating system's CSPRNG.
    pub fn from_os() -> Result<Rng, Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)
            .map_err(|e| Error::Rules(format!("OS random source failed: {e}")))?;
        Ok(Rng::from_key(key))
    }

    /// The stream at a saved position (for snapshots).
    pub fn restore(key: [u8; 32], position: u64) -> Rng {
        let mut rng = Rng::from_key(key);
        rng.stream.set_word_pos(u128::from(position));
        rng
    }

    pub fn key(&self) -> [u8; 32] {
        self.stream.get_seed()
    }

    /// How many 32-bit words have been drawn.
    pub fn position(&self) -> u64 {
        // Positions beyond 2^64 words (2^68 bytes) are never reached.
        self.stream.get_word_pos() as u64
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.stream.next_u32()
    }

    /// A uniform integer in `0..n` (n ≥ 1), by rejection: no modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let zone = u32::MAX - (u32::MAX % n + 1) % n; // largest multiple of n, minus one
        loop {
            let x = self.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Fisher–Yates in place: for i from the end, swap with a uniform j ≤ i.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut v: Vec<u32> = (0..n as u32).collect();
        self.shuffle(&mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc8439_block_vector() {
        // RFC 8439 §2.3.2: key 00..1f, counter 1, nonce (00000009, 0000004a, 00000000). The
        // crate's 64-bit counter is words 12–13, its stream words 14–15.
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut stream = ChaCha20Rng::from_seed(key);
        stream.set_stream(0x4a00_0000);
        stream.set_word_pos(((0x0900_0000u128 << 32) | 1) * 16);
        assert_eq!(stream.next_u32(), 0xe4e7_f110);
        assert_eq!(stream.next_u32(), 0x1559_3bd1);
        for _ in 2..15 {
            stream.next_u32();
        }
        assert_eq!(stream.next_u32(), 0x4e3c_50a2);
    }

    #[test]
    fn seeded_stream_is_pinned() {
        // Drawn by the hand-written block function this crate replaced.
        let mut r = Rng::from_key([0; 32]);
        assert_eq!(
            r.permutation(52)[..13],
            [4, 31, 49, 43, 50, 7, 27, 38, 32, 51, 20, 24, 3]
        );
    }

    #[test]
    fn restore_continues_the_stream() {
        let mut a = Rng::from_key([7; 32]);
        for _ in 0..37 {
            a.next_u32();
        }
        let mut b = Rng::restore(a.key(), a.position());
        for _ in 0..50 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
        assert_eq!(a.position(), 87);
    }

    #[test]
    fn permutation_is_a_permutation() {
        let mut r = Rng::from_key([1; 32]);
        let mut p = r.permutation(52);
        p.sort_unstable();
        assert_eq!(p, (0..52).collect::<Vec<_>>());
    }
}
