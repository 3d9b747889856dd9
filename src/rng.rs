//! Shuffling: ChaCha20 (RFC 8439) as a deterministic, platform-independent stream, keyed either
//! from the operating system's CSPRNG or from a caller's seed, and an unbiased Fisher–Yates.
//!
//! The stream is fixed by this file alone (no third-party generator whose output could change
//! with a version bump): key = the 32-byte seed, nonce = 0, block counter from 0, words taken in
//! order. `below(n)` uses rejection sampling, so every permutation is equally likely.

use crate::error::Error;

/// A ChaCha20 keystream read as 32-bit words; its whole state is `(key, position)`.
#[derive(Clone, Debug)]
pub struct Rng {
    key: [u32; 8],
    position: u64,
    block: [u32; 16],
    block_index: u64,
}

const CONSTANTS: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

#[inline(always)]
fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

/// The ChaCha20 block function with a 32-bit counter and 96-bit nonce (RFC 8439 §2.3).
pub fn chacha20_block(key: &[u32; 8], counter: u32, nonce: [u32; 3]) -> [u32; 16] {
    let mut init = [0u32; 16];
    init[..4].copy_from_slice(&CONSTANTS);
    init[4..12].copy_from_slice(key);
    init[12] = counter;
    init[13..].copy_from_slice(&nonce);
    let mut s = init;
    for _ in 0..10 {
        quarter(&mut s, 0, 4, 8, 12);
        quarter(&mut s, 1, 5, 9, 13);
        quarter(&mut s, 2, 6, 10, 14);
        quarter(&mut s, 3, 7, 11, 15);
        quarter(&mut s, 0, 5, 10, 15);
        quarter(&mut s, 1, 6, 11, 12);
        quarter(&mut s, 2, 7, 8, 13);
        quarter(&mut s, 3, 4, 9, 14);
    }
    for (w, i) in s.iter_mut().zip(init) {
        *w = w.wrapping_add(i);
    }
    s
}

impl Rng {
    /// A stream keyed by 32 bytes (read as eight little-endian words).
    pub fn from_key(key: [u8; 32]) -> Rng {
        let mut words = [0u32; 8];
        for (w, chunk) in words.iter_mut().zip(key.chunks_exact(4)) {
            *w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        Rng {
            key: words,
            position: 0,
            block: chacha20_block(&words, 0, [0; 3]),
            block_index: 0,
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
        rng.position = position;
        rng.refill();
        rng
    }

    pub fn key(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (chunk, w) in out.chunks_exact_mut(4).zip(self.key) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// How many 32-bit words have been drawn.
    pub fn position(&self) -> u64 {
        self.position
    }

    fn refill(&mut self) {
        let index = self.position / 16;
        if index != self.block_index {
            // The 64-bit block index runs the 32-bit counter and the first nonce word.
            let nonce = [(index >> 32) as u32, 0, 0];
            self.block = chacha20_block(&self.key, index as u32, nonce);
            self.block_index = index;
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        self.refill();
        let w = self.block[(self.position % 16) as usize];
        self.position += 1;
        w
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
        // RFC 8439 §2.3.2
        let key_bytes: Vec<u8> = (0u8..32).collect();
        let mut key = [0u32; 8];
        for (w, c) in key.iter_mut().zip(key_bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let nonce = [0x0900_0000, 0x4a00_0000, 0x0000_0000];
        let out = chacha20_block(&key, 1, nonce);
        assert_eq!(out[0], 0xe4e7_f110);
        assert_eq!(out[1], 0x1559_3bd1);
        assert_eq!(out[15], 0x4e3c_50a2);
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
    }

    #[test]
    fn permutation_is_a_permutation() {
        let mut r = Rng::from_key([1; 32]);
        let mut p = r.permutation(52);
        p.sort_unstable();
        assert_eq!(p, (0..52).collect::<Vec<_>>());
    }
}
