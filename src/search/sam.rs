//! The Sâm plan (báo Sâm): how likely a hand is to be played out with no play beaten, and
//! which lead keeps that chance highest.
//!
//! A declarer leads every round and the others only ever try to beat (block) it, so its hand
//! succeeds exactly when it splits into combinations none of which any other seat can beat;
//! the order of play does not matter, except that where a hand may not be emptied with a 2
//! the last combination must hold none. For each sampled deal of the unseen cards, every
//! combination of the hand gets a bit "nobody beats it"; every split of the hand into
//! combinations is enumerated and scored by the number of deals in which all its parts
//! survive (one AND per part over the deals' bits).

use super::mix;
use crate::cards::CardSet;
use crate::rollout::{determinise, FastRng, Position, Setup, MAX_SEATS};
use crate::shedding::penalty::TWOS;
use crate::shedding::{has_play, legal_plays, Combo, PlayFilter};

/// Most deals one plan samples (the bits of one [`Deals`] word set).
pub const MAX_PLAN_SAMPLES: u32 = 256;
const WORDS: usize = (MAX_PLAN_SAMPLES / 64) as usize;
/// Splits enumerated at most (a bound on the work; ten cards have far fewer).
const MAX_SPLITS: u64 = 2_000_000;

type Deals = [u64; WORDS];

fn count(d: &Deals) -> u32 {
    d.iter().map(|w| w.count_ones()).sum()
}

fn and(a: &Deals, b: &Deals) -> Deals {
    let mut out = *a;
    for (o, w) in out.iter_mut().zip(b) {
        *o &= w;
    }
    out
}

/// What a plan found: the success rate of the best split of the hand, and for every
/// combination the hand can lead, the best success rate of a split that contains it and may
/// play it now.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub success: f64,
    pub leads: Vec<(Combo, f64)>,
}

struct Splitter<'a> {
    combos: &'a [Combo],
    safe: &'a [Deals],
    /// Indexes of the combinations by their lowest card.
    by_low: Vec<Vec<usize>>,
    exempt: bool,
    best: u32,
    lead_best: Vec<i64>,
    path: Vec<usize>,
    splits: u64,
}

impl Splitter<'_> {
    fn split(&mut self, rest: CardSet, acc: Deals) {
        if self.splits >= MAX_SPLITS {
            return;
        }
        let Some(low) = rest.lowest() else {
            self.leaf(&acc);
            return;
        };
        let here = count(&acc);
        // Nothing below can do better than `here` for the split or for any part on the path.
        if here < self.best
            && self
                .path
                .iter()
                .all(|&c| self.lead_best[c] >= i64::from(here))
        {
            return;
        }
        for k in 0..self.by_low[low.index() as usize].len() {
            let c = self.by_low[low.index() as usize][k];
            let cards = self.combos[c].cards;
            if cards.is_subset(rest) {
                self.path.push(c);
                self.split(rest.difference(cards), and(&acc, &self.safe[c]));
                self.path.pop();
            }
        }
    }

    fn leaf(&mut self, acc: &Deals) {
        self.splits += 1;
        let plain = self
            .path
            .iter()
            .filter(|&&c| self.combos[c].cards.0 & TWOS == 0)
            .count();
        if !self.exempt && plain == 0 {
            return; // the last play would hold a 2
        }
        let n = count(acc);
        self.best = self.best.max(n);
        for &c in &self.path {
            // A part may be led now unless it is the split's only part without a 2.
            let has_two = self.combos[c].cards.0 & TWOS != 0;
            if self.exempt || has_two || plain >= 2 || self.path.len() == 1 {
                self.lead_best[c] = self.lead_best[c].max(i64::from(n));
            }
        }
    }
}

/// The Sâm plan of the root of `pos` (its hand and the other seats' counts) over `samples`
/// deals (at most [`MAX_PLAN_SAMPLES`]; `known`: every seat's hand, one deal).
pub fn plan(
    setup: &Setup,
    pos: &Position,
    samples: u32,
    seed: u64,
    known: Option<[CardSet; MAX_SEATS]>,
) -> Plan {
    let samples = if known.is_some() {
        1
    } else {
        samples.clamp(1, MAX_PLAN_SAMPLES)
    };
    let rules = &setup.rules;
    let combos = legal_plays(pos.hand, None, rules, CardSet::EMPTY);
    let mut safe = vec![[0u64; WORDS]; combos.len()];
    let mut rng = FastRng::new(mix(seed, 0x5A5));
    let mut pool = Vec::with_capacity(52);
    for d in 0..samples as usize {
        let hands = known.unwrap_or_else(|| determinise(pos, setup.players, &mut rng, &mut pool));
        for (c, bits) in combos.iter().zip(safe.iter_mut()) {
            let beaten = (0..setup.players)
                .filter(|&s| s != pos.me && pos.out >> s & 1 == 0)
                .any(|s| has_play(hands[s], Some(c), rules, PlayFilter::All));
            if !beaten {
                bits[d / 64] |= 1 << (d % 64);
            }
        }
    }
    let mut by_low = vec![Vec::new(); 52];
    for (i, c) in combos.iter().enumerate() {
        if let Some(low) = c.cards.lowest() {
            by_low[low.index() as usize].push(i);
        }
    }
    let mut all = [0u64; WORDS];
    for d in 0..samples as usize {
        all[d / 64] |= 1 << (d % 64);
    }
    let mut sp = Splitter {
        combos: &combos,
        safe: &safe,
        by_low,
        exempt: setup.finish_on_two || setup.sam_may_finish_on_two,
        best: 0,
        lead_best: vec![-1; combos.len()],
        path: Vec::new(),
        splits: 0,
    };
    sp.split(pos.hand, all);
    let n = f64::from(samples);
    Plan {
        success: f64::from(sp.best) / n,
        leads: combos
            .iter()
            .zip(&sp.lead_best)
            .map(|(c, &b)| (*c, b.max(0) as f64 / n))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::fixtures::{open_position, sam_setup, set};

    fn setup() -> Setup {
        sam_setup(3)
    }

    fn position(hand: &str) -> Position {
        Position {
            sam: Some(0),
            ..open_position(0, set(hand), &[0, 10, 10])
        }
    }

    #[test]
    fn unbeatable_hands_always_succeed_and_keep_a_plain_last_play() {
        let s = setup();
        let pos = position("2♠ 2♣ 2♦ 2♥ A♠ A♣ A♦ A♥");
        let p = plan(&s, &pos, 64, 1, None);
        assert_eq!(p.success, 1.0);
        // The four aces (the only part without a 2) may not be led first: the 2s come first.
        let aces = p
            .leads
            .iter()
            .find(|(c, _)| c.cards == set("A♠ A♣ A♦ A♥"))
            .unwrap();
        assert_eq!(aces.1, 0.0);
        let twos = p
            .leads
            .iter()
            .find(|(c, _)| c.cards == set("2♠ 2♣ 2♦ 2♥"))
            .unwrap();
        assert_eq!(twos.1, 1.0);
    }

    #[test]
    fn low_singles_are_beaten_and_the_best_split_wins() {
        let s = setup();
        let weak = plan(&s, &position("3♠ 5♣ 7♦ 9♥ J♠ K♣ 3♦ 5♥ 7♠ 9♣"), 64, 2, None);
        assert!(weak.success < 0.1);
        // A straight 3..Q is beaten only by a higher ten-card straight: as one play it
        // nearly always survives, split in singles it never does.
        let run = plan(&s, &position("3♠ 4♣ 5♦ 6♥ 7♠ 8♣ 9♦ 10♥ J♠ Q♣"), 64, 3, None);
        assert!(run.success > 0.9, "{}", run.success);
        assert_eq!(
            run,
            plan(&s, &position("3♠ 4♣ 5♦ 6♥ 7♠ 8♣ 9♦ 10♥ J♠ Q♣"), 64, 3, None)
        );
    }
}
