//! Mậu Binh (rules: docs/rules/maubinh.md): each player splits 13 cards into a 5-card back, a 5-card middle and
//! a 3-card front, with back ≥ middle ≥ front; hands are compared position by position.
//!
//! - [`eval`]: table-driven 5-card and 3-card strength classes and the foul check;
//! - [`instant`]: the six instant wins (mậu binh trắng);
//! - [`settle`]: pairwise settlement with bonuses, scoops and fouls;
//! - [`expected`]: per-position win/tie/loss tables and the expected-units model;
//! - [`population`]: the tables per class of the player's own hand (card removal);
//! - [`joint`]: the 4-2 majority's correction for an opponent's three hands played together;
//! - [`removal`]: each position's correction for the cards the player holds;
//! - [`solver`]: the exact best arrangement over all 72,072 splits;
//! - [`exploit`]: how much a best-responding opponent wins against an arrangement strategy.

pub mod eval;
pub mod expected;
pub mod exploit;
mod framing;
pub mod instant;
pub mod joint;
pub mod population;
pub mod removal;
pub mod settle;
pub mod simulate;
pub mod solver;

pub use eval::{Evaluator, Wheel};

use crate::cards::CardSet;
use crate::error::{Error, Result};

/// How a pair of players settles (the `scoring` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The seed's settlement (default): units per hand won, bonus hands, instant wins, a foul
    /// pays 6, and the scoop house rules.
    Units,
    /// Chinese-poker 4-2 scoring: 1 point per hand won and 1 more for winning more hands than
    /// the opponent; no bonuses, instant wins or scoops; a fouled arrangement loses all three
    /// hands (4 points).
    FourTwo,
}

impl Scoring {
    pub fn from_name(name: &str) -> Result<Scoring> {
        match name {
            "units" => Ok(Scoring::Units),
            "4-2" => Ok(Scoring::FourTwo),
            other => Err(Error::Rules(format!(
                "scoring must be 'units' or '4-2', not {other:?}"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scoring::Units => "units",
            Scoring::FourTwo => "4-2",
        }
    }
}

/// The Mậu Binh options (docs/rules/maubinh.md) that change the engine's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Where A-2-3-4-5 ranks among straights.
    pub wheel: Wheel,
    /// sập hầm (house rule, off by default: the seed pays the plain sum): winning all three
    /// hands against an opponent doubles what they pay.
    pub scoop: bool,
    /// sập làng (house rule): scooping every opponent doubles again.
    pub scoop_all: bool,
    /// Units a straight flush in the back wins: 1 by default (the seed's bonus list does not
    /// name it); 5 is a common house value.
    pub back_straight_flush_units: u8,
    /// How pairs settle: the seed's units (default) or Chinese-poker 4-2.
    pub scoring: Scoring,
}

/// Largest accepted `back_straight_flush_units`.
pub const MAX_BACK_STRAIGHT_FLUSH_UNITS: u8 = 24;

impl Default for Rules {
    fn default() -> Self {
        Rules {
            wheel: Wheel::Second,
            scoop: false,
            scoop_all: false,
            back_straight_flush_units: 1,
            scoring: Scoring::Units,
        }
    }
}

impl Rules {
    pub fn evaluator(&self) -> &'static Evaluator {
        Evaluator::get(self.wheel)
    }

    /// Refuses option values the engine cannot play.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_BACK_STRAIGHT_FLUSH_UNITS).contains(&self.back_straight_flush_units) {
            return Err(Error::Rules(format!(
                "back_straight_flush_units must be in 1..={MAX_BACK_STRAIGHT_FLUSH_UNITS}, not {}",
                self.back_straight_flush_units
            )));
        }
        if self.scoring == Scoring::FourTwo
            && (self.scoop || self.scoop_all || self.back_straight_flush_units != 1)
        {
            return Err(Error::Rules(
                "scoring '4-2' has no bonuses or scoops: leave scoop, scoop_all and \
                 back_straight_flush_units at their defaults"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// Three hands as card masks: 5-card back (chi đầu), 5-card middle (chi giữa), 3-card front
/// (chi cuối).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement {
    pub back: u64,
    pub middle: u64,
    pub front: u64,
}

impl Arrangement {
    /// Checks the shape: 5/5/3 distinct cards (not the foul rule).
    pub fn validate(&self) -> Result<()> {
        let sizes = [
            (self.back, 5, "back"),
            (self.middle, 5, "middle"),
            (self.front, 3, "front"),
        ];
        for (mask, n, name) in sizes {
            CardSet::from_mask(mask)?;
            if mask.count_ones() != n {
                return Err(Error::illegal(
                    "invalid_arrangement",
                    format!("the {name} needs {n} cards, not {}", mask.count_ones()),
                ));
            }
        }
        if self.back & self.middle != 0
            || self.back & self.front != 0
            || self.middle & self.front != 0
        {
            return Err(Error::illegal(
                "invalid_arrangement",
                "a card is in two hands",
            ));
        }
        Ok(())
    }

    pub fn cards(&self) -> u64 {
        self.back | self.middle | self.front
    }

    /// Fouled (binh lủng): the back is weaker than the middle, or the front beats the middle.
    pub fn is_fouled(&self, rules: &Rules) -> bool {
        let ev = rules.evaluator();
        ev.class5(self.back) < ev.class5(self.middle) || !ev.front_fits(self.front, self.middle)
    }

    /// Every split of `hand` into a 5-card back, a 5-card middle and the rest as the front
    /// (72,072 for 13 cards), fouled ones included, by plain enumeration: the reference the
    /// pruned searches are tested against.
    pub fn every_split(hand: u64) -> impl Iterator<Item = Arrangement> {
        subsets(hand, 5).into_iter().flat_map(move |back| {
            subsets(hand & !back, 5)
                .into_iter()
                .map(move |middle| Arrangement {
                    back,
                    middle,
                    front: hand & !back & !middle,
                })
        })
    }
}

/// Every `k`-card subset of `mask`, in increasing order of the subsets as masks over its cards
/// (Gosper's hack: the next number with as many bits set).
pub(crate) fn subsets(mask: u64, k: u32) -> Vec<u64> {
    let mut cards = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        cards.push(m.trailing_zeros());
        m &= m - 1;
    }
    let n = cards.len() as u32;
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    if k == 0 {
        out.push(0);
        return out;
    }
    let mut x: u64 = (1 << k) - 1;
    while x < 1 << n {
        let mut hand = 0u64;
        let mut bits = x;
        while bits != 0 {
            hand |= 1 << cards[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out.push(hand);
        let low = x & x.wrapping_neg();
        let ripple = x + low;
        x = (((ripple ^ x) >> 2) / low) | ripple;
    }
    out
}

/// Compares two hands of the same size (5 or 3 cards): -1, 0 or 1.
pub fn compare_hands(a: u64, b: u64, rules: &Rules) -> Result<i32> {
    let ev = rules.evaluator();
    let (ra, rb) = match (a.count_ones(), b.count_ones()) {
        (5, 5) => (ev.class5(a), ev.class5(b)),
        (3, 3) => (ev.class3(a), ev.class3(b)),
        (x, y) => {
            return Err(Error::illegal(
                "invalid_combination",
                format!("compare two 5-card or two 3-card hands, not {x} and {y} cards"),
            ))
        }
    };
    Ok((ra > rb) as i32 - (ra < rb) as i32)
}

/// Strength class of a 5- or 3-card hand (higher is stronger; equal is a tie).
pub fn hand_rank(mask: u64, rules: &Rules) -> Result<u16> {
    CardSet::from_mask(mask)?;
    let ev = rules.evaluator();
    match mask.count_ones() {
        5 => Ok(ev.class5(mask)),
        3 => Ok(ev.class3(mask)),
        n => Err(Error::illegal(
            "invalid_combination",
            format!("a Mậu Binh hand has 5 or 3 cards, not {n}"),
        )),
    }
}

/// The category name of a 5- or 3-card hand, e.g. `"full_house"`.
pub fn hand_category(mask: u64, rules: &Rules) -> Result<&'static str> {
    let class = hand_rank(mask, rules)?;
    let ev = rules.evaluator();
    let cat = if mask.count_ones() == 5 {
        ev.category5(class)
    } else {
        ev.category3(class)
    };
    Ok(eval::CATEGORY_NAMES[cat as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn subsets_are_every_k_card_subset_once_in_increasing_order() {
        let mask = 0b1011_0110_1101u64 << 7;
        for k in 0..=mask.count_ones() + 1 {
            let got = subsets(mask, k);
            let want: Vec<u64> = (0..1u64 << 20)
                .map(|s| s << 7)
                .filter(|s| s & !mask == 0 && s.count_ones() == k)
                .collect();
            assert_eq!(got, want, "k = {k}");
        }
    }

    #[test]
    fn a_hand_has_72072_splits_each_valid_and_distinct() {
        let hand = 0x1_2345_6789_ABCDu64 & ((1 << 52) - 1);
        let hand = (0..52)
            .filter(|c| hand >> c & 1 == 1)
            .take(13)
            .fold(0u64, |m, c| m | 1 << c);
        assert_eq!(hand.count_ones(), 13);
        let splits: Vec<Arrangement> = Arrangement::every_split(hand).collect();
        assert_eq!(splits.len(), 72_072);
        for a in &splits {
            a.validate().unwrap();
            assert_eq!(a.cards(), hand);
        }
        assert_eq!(splits.iter().collect::<HashSet<_>>().len(), 72_072);
    }
}
