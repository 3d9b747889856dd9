//! Inference over the hidden cards, shared by the games' searches: a Markov chain of card
//! swaps between the holders of the cards a seat cannot see (the other hands, and the cards
//! nobody holds: the undealt rest or the stock), each swap kept with the ratio of the
//! likelihoods the two holders' observed decisions give their new holdings (Metropolis).
//!
//! A game plugs in with two traits: [`Holding`], what one holder holds (a set of distinct
//! cards in the shedding games, a multiset of kinds in Tứ Sắc), and [`Evidence`], the
//! likelihood of each of a holder's observed decisions given what it holds now. A chain's
//! stationary law is the uniform deal (consistent with the counts) weighted by the product of
//! every holder's likelihood. The chain draws from its own generator only in [`Chain::walk`],
//! in a fixed order, so a search over it stays a pure function of its inputs and its seed.

use crate::rollout::FastRng;

/// Most Metropolis steps per deal a search takes; the bots' `chain` option has the same bound.
pub const MAX_CHAIN: u32 = 1000;

/// What one holder of hidden cards holds: the chain swaps one card of a holding for one of
/// another, so the holdings keep their sizes.
pub trait Holding: Copy {
    /// How many cards it holds.
    fn size(&self) -> usize;
    /// `a` with its `i`-th card (in the holding's own order) replaced by `b`'s `j`-th card,
    /// and `b` with that card replaced by `a`'s.
    fn exchange(a: Self, i: usize, b: Self, j: usize) -> (Self, Self);
}

/// The observed decisions of the holders, as a likelihood of what each holds now.
pub trait Evidence<H> {
    /// How many observations `holder` has (none for the cards nobody holds).
    fn observations(&self, holder: usize) -> usize;
    /// The likelihood, at most 1, of `holder`'s `i`-th observation if it holds `now`.
    fn factor(&mut self, holder: usize, i: usize, now: H) -> f64;
}

/// The product of the likelihoods of `holder`'s observations for a holder holding `now`, in
/// the order of its observations. It stops as soon as `scale` times the product so far is at
/// most `floor`: every factor is at most 1, so the whole product would be too, and a chain
/// rejects such a swap whatever the rest (pass `f64::NEG_INFINITY` for the whole product).
pub fn likelihood<H, E: Evidence<H>>(
    e: &mut E,
    holder: usize,
    now: H,
    scale: f64,
    floor: f64,
) -> f64
where
    H: Copy,
{
    let mut l = 1.0;
    for i in 0..e.observations(holder) {
        l *= e.factor(holder, i, now);
        if scale * l <= floor {
            break;
        }
    }
    l
}

/// A Metropolis chain over the deals of the hidden cards: its current deal (a holding per
/// holder) and each holder's likelihood of it.
#[derive(Clone, Debug)]
pub struct Chain<H> {
    held: Vec<H>,
    lik: Vec<f64>,
    /// The holders whose cards may move (at least two, or the chain stays put).
    movable: Vec<usize>,
}

impl<H: Holding> Chain<H> {
    /// A chain from the deal `held` (a holding per holder, by holder index), whose cards move
    /// only between the non-empty holders of `movable` (the root's own hand is not one).
    pub fn new<E: Evidence<H>>(
        held: Vec<H>,
        movable: impl IntoIterator<Item = usize>,
        e: &mut E,
    ) -> Chain<H> {
        let movable: Vec<usize> = movable
            .into_iter()
            .filter(|&h| held[h].size() > 0)
            .collect();
        let mut lik = vec![1.0; held.len()];
        for &h in &movable {
            lik[h] = likelihood(e, h, held[h], 1.0, f64::NEG_INFINITY);
        }
        Chain { held, lik, movable }
    }

    /// The current deal, a holding per holder.
    pub fn held(&self) -> &[H] {
        &self.held
    }

    /// `steps` Metropolis steps: swap a random card between two random movable holders,
    /// kept with the ratio of the two holders' likelihoods after and before.
    pub fn walk<E: Evidence<H>>(&mut self, steps: u32, rng: &mut FastRng, e: &mut E) {
        let n = self.movable.len();
        for _ in 0..if n < 2 { 0 } else { steps } {
            let a = self.movable[rng.below(n)];
            let mut b = self.movable[rng.below(n - 1)];
            if b == a {
                b = self.movable[n - 1];
            }
            let i = rng.below(self.held[a].size());
            let j = rng.below(self.held[b].size());
            let (na, nb) = H::exchange(self.held[a], i, self.held[b], j);
            // Kept when `u * lik[a] * lik[b] < la * lb`. The likelihoods draw nothing from
            // the generator, so `u` may be drawn first, and a swap whose `la` (or `la` times
            // part of `lb`) is already at most the left side is rejected without the rest.
            let bar = rng.unit() * self.lik[a] * self.lik[b];
            let la = likelihood(e, a, na, 1.0, bar);
            if la <= bar {
                continue;
            }
            let lb = likelihood(e, b, nb, la, bar);
            if bar < la * lb {
                (self.held[a], self.held[b]) = (na, nb);
                (self.lik[a], self.lik[b]) = (la, lb);
            }
        }
    }
}

impl Holding for crate::cards::CardSet {
    fn size(&self) -> usize {
        self.len() as usize
    }

    fn exchange(a: Self, i: usize, b: Self, j: usize) -> (Self, Self) {
        let ca = nth_card(a.0, i);
        let cb = nth_card(b.0, j);
        (Self(a.0 & !ca | cb), Self(b.0 & !cb | ca))
    }
}

impl Holding for crate::tusac::Hand {
    fn size(&self) -> usize {
        self.len() as usize
    }

    fn exchange(mut a: Self, i: usize, mut b: Self, j: usize) -> (Self, Self) {
        let (ka, kb) = (nth_kind(&a, i), nth_kind(&b, j));
        a.0[ka] -= 1;
        b.0[kb] -= 1;
        a.0[kb] += 1;
        b.0[ka] += 1;
        (a, b)
    }
}

/// The card of the `k`-th lowest set bit of `mask` (a single-bit mask).
pub(crate) fn nth_card(mut mask: u64, k: usize) -> u64 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask & mask.wrapping_neg()
}

/// The kind index of the `i`-th card of `h`, its cards in kind order.
fn nth_kind(h: &crate::tusac::Hand, mut i: usize) -> usize {
    for (k, &c) in h.0.iter().enumerate() {
        let c = usize::from(c);
        if i < c {
            return k;
        }
        i -= c;
    }
    unreachable!("a card index within the hand")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tusac::{parse_hand, Hand};

    /// Holder 0 dislikes holding kind 0 (each copy a factor of a tenth); holder 1 does not
    /// care; holder 2 is the cards nobody holds.
    struct Dislikes;
    impl Evidence<Hand> for Dislikes {
        fn observations(&self, holder: usize) -> usize {
            usize::from(holder == 0)
        }
        fn factor(&mut self, _: usize, _: usize, now: Hand) -> f64 {
            0.1f64.powi(i32::from(now.0[0]))
        }
    }

    #[test]
    fn swaps_keep_the_sizes_and_the_cards_and_follow_the_likelihood() {
        let held = vec![
            parse_hand("KR KR AW EY").expect("cards"),
            parse_hand("KG EG RG CY").expect("cards"),
            parse_hand("PY PY PR PW").expect("cards"),
        ];
        let total: Vec<u8> = (0..28).map(|k| held.iter().map(|h| h.0[k]).sum()).collect();
        let mut chain = Chain::new(held, 0..3, &mut Dislikes);
        let mut rng = FastRng::new(7);
        let mut kr_at_0 = 0;
        for _ in 0..2000 {
            chain.walk(4, &mut rng, &mut Dislikes);
            let h = chain.held();
            assert_eq!([h[0].len(), h[1].len(), h[2].len()], [4, 4, 4]);
            let now: Vec<u8> = (0..28).map(|k| h.iter().map(|x| x.0[k]).sum()).collect();
            assert_eq!(now, total);
            kr_at_0 += usize::from(h[0].0[0]);
        }
        // Uniformly a third of the two KR would sit with holder 0 (1,333 over 2,000 draws);
        // a factor of a tenth a copy leaves it far fewer.
        assert!(kr_at_0 < 400, "{kr_at_0}");
    }

    #[test]
    fn a_holder_that_cannot_move_keeps_its_cards() {
        let held = vec![
            parse_hand("KR KR AW EY").expect("cards"),
            parse_hand("KG EG RG CY").expect("cards"),
        ];
        let mut chain = Chain::new(held.clone(), [0], &mut Dislikes);
        chain.walk(50, &mut FastRng::new(3), &mut Dislikes);
        assert_eq!(chain.held(), &held[..]);
    }
}
