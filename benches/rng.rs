//! The shuffle stream: `rand_chacha` (what `Rng` uses) against the hand-written ChaCha20 block
//! function it replaced (kept here as the reference), side by side in one run. Both streams are
//! checked equal before timing.

use _core::rng::Rng;
use std::hint::black_box;
use std::time::Instant;

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

/// The previous implementation: one RFC 8439 block at a time, scalar.
struct HandWritten {
    key: [u32; 8],
    position: u64,
    block: [u32; 16],
}

impl HandWritten {
    fn new(key: [u8; 32]) -> HandWritten {
        let key = core::array::from_fn(|i| {
            u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
        });
        let mut h = HandWritten {
            key,
            position: 0,
            block: [0; 16],
        };
        h.block = h.compute(0);
        h
    }

    fn compute(&self, index: u64) -> [u32; 16] {
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&CONSTANTS);
        init[4..12].copy_from_slice(&self.key);
        init[12] = index as u32;
        init[13] = (index >> 32) as u32;
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

    fn next_u32(&mut self) -> u32 {
        if self.position % 16 == 0 && self.position > 0 {
            self.block = self.compute(self.position / 16);
        }
        let w = self.block[(self.position % 16) as usize];
        self.position += 1;
        w
    }

    fn below(&mut self, n: u32) -> u32 {
        let zone = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let x = self.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut v: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = self.below(i as u32 + 1) as usize;
            v.swap(i, j);
        }
        v
    }
}

/// Median of three timed rounds of `f` over `n` calls, in calls per second.
fn rate(n: u64, mut f: impl FnMut()) -> f64 {
    let mut rounds: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            n as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[1]
}

fn main() {
    let mut ours = Rng::from_key([3; 32]);
    let mut old = HandWritten::new([3; 32]);
    for _ in 0..1000 {
        assert_eq!(ours.permutation(52), old.permutation(52));
    }
    println!("shuffle stream (Rust core, medians of 3)");
    let words_new = rate(4_000_000, || {
        black_box(ours.next_u32());
    });
    let words_old = rate(4_000_000, || {
        black_box(old.next_u32());
    });
    let deals_new = rate(200_000, || {
        black_box(ours.permutation(52));
    });
    let deals_old = rate(200_000, || {
        black_box(old.permutation(52));
    });
    println!("{:<48} {:>14.0} words/s", "rand_chacha ChaCha20", words_new);
    println!(
        "{:<48} {:>14.0} words/s",
        "hand-written ChaCha20 (previous)", words_old
    );
    println!("{:<48} {:>14.2} x", "ratio", words_new / words_old);
    println!(
        "{:<48} {:>14.0} deals/s",
        "52-card deal, rand_chacha", deals_new
    );
    println!(
        "{:<48} {:>14.0} deals/s",
        "52-card deal, hand-written (previous)", deals_old
    );
    println!("{:<48} {:>14.2} x", "ratio", deals_new / deals_old);
}
