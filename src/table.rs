//! What every game's flow shares: where its randomness comes from ([`Draw`]: the deal's
//! shuffle, a drawn seat) and where what happens goes ([`Record`]: the game's events and its
//! payments, in order). The Python games record both into their event log and ledger; the
//! vector environment keeps only the totals ([`Discard`]).

use crate::rng::Rng;

/// Where a flow tells what happens: events (`E`, the game's own) and payments, in order.
pub trait Record<E> {
    fn event(&mut self, event: E);
    /// `from` pays `to` `units` (> 0) for `reason` (the ledger's reason text).
    fn pay(&mut self, from: usize, to: usize, units: u32, reason: &'static str);
}

/// A record that keeps nothing (a flow keeps each hand's totals itself).
pub struct Discard;

impl<E> Record<E> for Discard {
    #[inline(always)]
    fn event(&mut self, _: E) {}
    #[inline(always)]
    fn pay(&mut self, _: usize, _: usize, _: u32, _: &'static str) {}
}

/// Where a flow draws its randomness.
pub trait Draw {
    /// A uniformly random permutation of `0..out.len()`, into `out`.
    fn permutation(&mut self, out: &mut [u32]);
    /// A uniform integer in `0..n`.
    fn below(&mut self, n: u32) -> u32;
}

impl Draw for Rng {
    fn permutation(&mut self, out: &mut [u32]) {
        for (i, x) in out.iter_mut().enumerate() {
            *x = i as u32;
        }
        self.shuffle(out);
    }
    fn below(&mut self, n: u32) -> u32 {
        Rng::below(self, n)
    }
}
