//! The exact best arrangement of 13 cards over all 72,072 splits (1,287 backs × 56 middles).
//!
//! Per hand, every 5-subset and 3-subset of the 13 cards is evaluated once (1,287 + 286 table
//! lookups, built incrementally in nested loops); a split is then three array reads. Splits are
//! addressed by 13-bit *local* masks (bit i = the i-th lowest card).
//!
//! - `Strongest`: the maximum back class always has a valid split (the best five of the other
//!   eight under it, and the last three under those), so only backs of that class are searched.
//! - `Expected`: the model value is non-decreasing in the class of each hand (see
//!   [`super::expected`]), so its value at *upper bounds* of the three classes bounds every
//!   split. For a back, the middle's class is capped by the back's and by the best category the
//!   eight cards left allow (from their rank and suit counts: no enumeration), the front's by
//!   their best pair or triple and by the middle's cap (the front never beats the middle).
//!   The strongest back is searched first; its answer sets a class floor (the value with the
//!   middle as strong as the back and the front as strong as both the hand's best three and
//!   what such a middle lets sit under it is non-decreasing in the back's class, so a binary
//!   search finds the weakest back class that could still win) and backs below it are skipped
//!   unbounded. The others are searched in decreasing bound order until the bound falls below
//!   the best value found; a finer bound (each choice of the front's pair or triple, the middle
//!   capped by what it leaves) skips most of the rest. A list of the best few
//!   ([`ranked_arrangements`]) needs a lower floor than one answer: the backs are taken in
//!   bands of class, each reaching down to the floor of the threshold reached so far, until a
//!   band adds nothing.
//!
//! Ties are broken by (value, back class, middle class, front class, back mask, middle mask),
//! the largest first, so the result is unique and [`best_exhaustive`] must agree with it exactly.

use super::eval::{
    mb_rank, Evaluator, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT, TRIPS, TWO_PAIR,
};
use super::expected::{split_value, Combine, Entry, Model, Tables};
use super::instant::{instant_win, three_flushes, three_straights, Instant};
use super::joint::{CANDIDATES, CANDIDATES_42};
use super::population::Population;
use super::{Arrangement, Rules};
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// What the solver maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// Expected units against opponents who arrange well (the shipped tables).
    Expected,
    /// The strongest back, then middle, then front.
    Strongest,
    /// Expected units against the population whose best response exploits it least (the
    /// shipped equilibrium tables).
    Equilibrium,
}

impl Objective {
    pub fn from_name(name: &str) -> Result<Objective> {
        match name {
            "expected" => Ok(Objective::Expected),
            "strongest" => Ok(Objective::Strongest),
            "equilibrium" => Ok(Objective::Equilibrium),
            other => Err(Error::Rules(format!(
                "objective must be 'expected', 'strongest' or 'equilibrium', not {other:?}"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Objective::Expected => "expected",
            Objective::Strongest => "strongest",
            Objective::Equilibrium => "equilibrium",
        }
    }

    /// The shipped tables this objective maximises against (`strongest` reports its value with
    /// the expected ones).
    pub fn model(self) -> Model {
        match self {
            Objective::Equilibrium => Model::Equilibrium,
            Objective::Expected | Objective::Strongest => Model::Expected,
        }
    }
}

/// The solver's answer for one hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    pub arrangement: Arrangement,
    /// The model's expected units against one opponent for this arrangement.
    pub value: f64,
    /// The instant win the hand should declare, if any (then the arrangement is only shown).
    pub instant: Option<Instant>,
}

const FULL: u16 = 0x1FFF;
pub(super) const N5: usize = 1287;
const N3: usize = 286;
/// Slack for the floating-point bound: a back is skipped only if clearly below the best.
const EPS: f64 = 1e-9;

pub(super) struct Combos {
    /// Local masks of the 5-subsets, in the nested-loop order of [`Subsets::of`].
    pub(super) five: [u16; N5],
    /// Position of a local mask in `five` (5 bits set) or in the 3-subset order (3 bits set).
    index: Vec<u16>,
    /// The 56 ways to pick 3 of 8 positions.
    triples8: [[u8; 3]; 56],
}

pub(super) fn combos() -> &'static Combos {
    static C: OnceLock<Combos> = OnceLock::new();
    C.get_or_init(|| {
        let mut five = [0u16; N5];
        let mut index = vec![0u16; 1 << 13];
        let mut n = 0;
        for a in 0..13 {
            for b in a + 1..13 {
                for c in b + 1..13 {
                    for d in c + 1..13 {
                        for e in d + 1..13 {
                            let m = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e);
                            five[n] = m;
                            index[m as usize] = n as u16;
                            n += 1;
                        }
                    }
                }
            }
        }
        let mut n = 0;
        for a in 0..13 {
            for b in a + 1..13 {
                for c in b + 1..13 {
                    index[((1 << a) | (1 << b) | (1 << c)) as usize] = n;
                    n += 1;
                }
            }
        }
        let mut triples8 = [[0u8; 3]; 56];
        let mut n = 0;
        for a in 0..8 {
            for b in a + 1..8 {
                for c in b + 1..8 {
                    triples8[n] = [a, b, c];
                    n += 1;
                }
            }
        }
        Combos {
            five,
            index,
            triples8,
        }
    })
}

/// Classes and front keys of every 5- and 3-subset of one 13-card hand.
pub(super) struct Subsets {
    cards: [u8; 13],
    /// Rank counts of the whole hand, 3 bits per Mậu Binh rank, and suit counts, 8 bits per suit.
    counts: u64,
    suits: u32,
    /// Each card's part of those counts (summed on demand for the few backs the search bounds).
    rank_field: [u64; 13],
    suit_field: [u32; 13],
    pub(super) class5: [u16; N5],
    key5: [u16; N5],
    pub(super) class3: [u16; N3],
    key3: [u16; N3],
}

impl Subsets {
    pub(super) fn of(mask: u64, rules: &Rules) -> Subsets {
        let ev = rules.evaluator();
        let mut cards = [0u8; 13];
        let mut m = mask;
        for c in cards.iter_mut() {
            *c = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        // term[k][i]: multiset-index term of card i as the (k+1)-th smallest rank.
        let mut term = [[0u16; 13]; 5];
        for (k, row) in term.iter_mut().enumerate() {
            for (i, t) in row.iter_mut().enumerate() {
                *t = super::eval::multiset_term(cards[i] as u32 >> 2, k as u32 + 1);
            }
        }
        let suit = cards.map(|c| 1u8 << (c & 3));
        let rank_field = cards.map(|c| 1u64 << (3 * mb_rank(c >> 2) as u64));
        let suit_field = cards.map(|c| 1u32 << (8 * (c & 3)));
        let mut s = Subsets {
            cards,
            counts: rank_field.iter().sum(),
            suits: suit_field.iter().sum(),
            rank_field,
            suit_field,
            class5: [0; N5],
            key5: [0; N5],
            class3: [0; N3],
            key3: [0; N3],
        };
        let mut n = 0;
        for a in 0..13 {
            for b in a + 1..13 {
                let (tb, sb) = (term[0][a] + term[1][b], suit[a] | suit[b]);
                for c in b + 1..13 {
                    let (tc, sc) = (tb + term[2][c], sb | suit[c]);
                    for d in c + 1..13 {
                        let (td, sd) = (tc + term[3][d], sc | suit[d]);
                        for e in d + 1..13 {
                            let ms = td + term[4][e];
                            let flush = (sd | suit[e]).is_power_of_two();
                            s.class5[n] = ev.class5_of(ms, flush);
                            s.key5[n] = ev.front_key5_of(ms, flush);
                            n += 1;
                        }
                    }
                }
            }
        }
        let mut n = 0;
        for a in 0..13 {
            for b in a + 1..13 {
                for c in b + 1..13 {
                    let ms = term[0][a] + term[1][b] + term[2][c];
                    s.class3[n] = ev.class3_of(ms);
                    s.key3[n] = ev.front_key3_of(ms);
                    n += 1;
                }
            }
        }
        s
    }

    /// Rank counts of the eight cards a back leaves, and whether they hold five of one suit
    /// (bytes of at least 5 overflow into bit 7).
    #[inline(always)]
    fn rest(&self, back: usize) -> (u64, bool) {
        let (mut counts, mut suits) = (self.counts, self.suits);
        let mut m = combos().five[back];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            counts -= self.rank_field[i];
            suits -= self.suit_field[i];
            m &= m - 1;
        }
        (counts, (suits + 0x7B7B_7B7B) & 0x8080_8080 != 0)
    }

    pub(super) fn global(&self, local: u16) -> u64 {
        let mut out = 0u64;
        let mut m = local;
        while m != 0 {
            out |= 1u64 << self.cards[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }

    /// Calls `f(middle index, front index, middle local mask)` for every valid split under a back.
    #[inline(always)]
    pub(super) fn valid_splits(
        &self,
        combos: &Combos,
        back: usize,
        mut f: impl FnMut(usize, usize, u16),
    ) {
        let rest = FULL & !combos.five[back];
        let mut bit = [0u16; 8];
        let mut m = rest;
        for b in bit.iter_mut() {
            *b = m & m.wrapping_neg();
            m &= m - 1;
        }
        let cb = self.class5[back];
        for t in &combos.triples8 {
            let front = bit[t[0] as usize] | bit[t[1] as usize] | bit[t[2] as usize];
            let middle = rest ^ front;
            let mi = combos.index[middle as usize] as usize;
            let fi = combos.index[front as usize] as usize;
            if self.class5[mi] <= cb && self.key3[fi] <= self.key5[mi] {
                f(mi, fi, middle);
            }
        }
    }
}

const LOW3: u64 = 0o1111111111111; // bit 0 of each 3-bit rank field
const WHEEL: u64 = 1 << 36 | 0o1111; // A, 2, 3, 4, 5

/// The highest rank with a bit in a 3-bit-spaced rank set.
#[inline(always)]
fn top(spaced: u64) -> u32 {
    (63 - spaced.leading_zeros()) / 3
}

/// Ranks held at least once, twice, three and four times, as 3-bit-spaced sets.
#[inline(always)]
fn groups(counts: u64) -> [u64; 4] {
    let (b0, b1, b2) = (counts & LOW3, (counts >> 1) & LOW3, (counts >> 2) & LOW3);
    [b0 | b1 | b2, b1 | b2, (b1 & b0) | b2, b2]
}

/// An upper bound on the class of any five of these cards, ignoring flushes (rank counts
/// packed 3 bits per Mậu Binh rank): the strongest hand of the best category they allow.
#[inline(always)]
fn middle_cap(counts: u64, ev: &Evaluator) -> u16 {
    let [present, ge2, ge3, ge4] = groups(counts);
    let mut cap = if ge4 != 0 {
        ev.cap5(QUADS, top(ge4))
    } else if ge3 != 0 && ge2.count_ones() >= 2 {
        ev.cap5(FULL_HOUSE, top(ge3))
    } else if ge3 != 0 {
        ev.cap5(TRIPS, top(ge3))
    } else if ge2.count_ones() >= 2 {
        ev.cap5(TWO_PAIR, top(ge2))
    } else if ge2 != 0 {
        ev.cap5(PAIR, top(ge2))
    } else {
        ev.cap5(HIGH_CARD, top(present))
    };
    let runs = present & present >> 3 & present >> 6 & present >> 9 & present >> 12;
    if runs != 0 {
        cap = cap.max(ev.cap5(STRAIGHT, top(runs) + 4));
    }
    if present & WHEEL == WHEEL {
        cap = cap.max(ev.cap5(STRAIGHT, 3));
    }
    cap
}

/// An upper bound on the class of any three of these cards as a front.
#[inline(always)]
fn front_cap(counts: u64, ev: &Evaluator) -> u16 {
    let [present, ge2, ge3, _] = groups(counts);
    if ge3 != 0 {
        ev.cap3(TRIPS, top(ge3))
    } else if ge2 != 0 {
        ev.cap3(PAIR, top(ge2))
    } else {
        ev.cap3(HIGH_CARD, top(present))
    }
}

/// A candidate split and its tie-break key (compared lexicographically, larger is better).
#[derive(Clone, Copy)]
struct Best {
    value: f64,
    key: u128,
    back: u16,
    middle: u16,
}

impl Best {
    const NONE: Best = Best {
        value: f64::NEG_INFINITY,
        key: 0,
        back: 0,
        middle: 0,
    };

    #[inline(always)]
    fn offer(&mut self, value: f64, key: u128, back: u16, middle: u16) {
        if value > self.value || (value == self.value && key > self.key) {
            *self = Best {
                value,
                key,
                back,
                middle,
            };
        }
    }
}

/// What a pruned search collects: the best split ([`Best`]) or the best few with distinct
/// strengths ([`TopK`]). A split worth less than `threshold` (minus the search's margin) can
/// change nothing, so the search skips every back whose bound is below it.
trait Answer {
    fn threshold(&self) -> f64;
    /// The best value held (negative infinity while empty).
    fn best_value(&self) -> f64;
    fn offer(&mut self, value: f64, key: u128, back: u16, middle: u16);
}

impl Answer for Best {
    #[inline(always)]
    fn threshold(&self) -> f64 {
        self.value
    }
    #[inline(always)]
    fn best_value(&self) -> f64 {
        self.value
    }
    #[inline(always)]
    fn offer(&mut self, value: f64, key: u128, back: u16, middle: u16) {
        Best::offer(self, value, key, back, middle)
    }
}

/// The `k` best splits with distinct strengths (classes of the three hands, the key's top
/// bits), each the best split of its strengths under the value-then-key order: exactly the
/// first `k` of every split sorted best first with repeated strengths dropped. With a finite
/// `margin`, only those of them worth at least the best's value minus `margin` (so the search
/// may skip every split below that too).
struct TopK {
    k: usize,
    margin: f64,
    items: Vec<(f64, u128, u16, u16)>,
    /// The worst item once `k` are held (the bar a new strength must pass).
    floor: (f64, u128),
    /// The best value held.
    top: f64,
}

impl TopK {
    fn new(k: usize) -> TopK {
        TopK::within(k, f64::INFINITY)
    }

    fn within(k: usize, margin: f64) -> TopK {
        TopK {
            k,
            margin,
            items: Vec::with_capacity(k),
            floor: (f64::NEG_INFINITY, 0),
            top: f64::NEG_INFINITY,
        }
    }

    fn above(a: (f64, u128), b: (f64, u128)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
    }

    fn refloor(&mut self) {
        if self.items.len() == self.k {
            let worst =
                self.items
                    .iter()
                    .map(|x| (x.0, x.1))
                    .fold((f64::INFINITY, u128::MAX), |w, x| {
                        if TopK::above(w, x) {
                            x
                        } else {
                            w
                        }
                    });
            self.floor = worst;
        }
    }

    /// Best first.
    fn sorted(mut self) -> Vec<(f64, u128, u16, u16)> {
        let bar = self.top - self.margin;
        self.items.retain(|x| x.0 >= bar);
        self.items
            .sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)));
        self.items
    }
}

impl Answer for TopK {
    #[inline(always)]
    fn threshold(&self) -> f64 {
        self.floor.0.max(self.top - self.margin)
    }
    fn best_value(&self) -> f64 {
        self.items
            .iter()
            .map(|x| x.0)
            .fold(f64::NEG_INFINITY, f64::max)
    }
    #[inline]
    fn offer(&mut self, value: f64, key: u128, back: u16, middle: u16) {
        self.top = self.top.max(value);
        let full = self.items.len() == self.k;
        if full && !TopK::above((value, key), self.floor) {
            return;
        }
        let strengths = key >> 48;
        if let Some(i) = self.items.iter().position(|x| x.1 >> 48 == strengths) {
            if TopK::above((value, key), (self.items[i].0, self.items[i].1)) {
                self.items[i] = (value, key, back, middle);
            }
        } else if !full {
            self.items.push((value, key, back, middle));
        } else {
            let worst = self
                .items
                .iter()
                .position(|x| (x.0, x.1) == self.floor)
                .expect("the floor is an item");
            self.items[worst] = (value, key, back, middle);
        }
        self.refloor();
    }
}

#[inline(always)]
fn tie_key(cb: u16, cm: u16, cf: u16, back: u16, middle: u16) -> u128 {
    (cb as u128) << 80
        | (cm as u128) << 64
        | (cf as u128) << 48
        | (back as u128) << 16
        | middle as u128
}

pub(crate) fn check_hand(mask: u64) -> Result<()> {
    crate::cards::CardSet::from_mask(mask)?;
    if mask.count_ones() != 13 {
        return Err(Error::illegal(
            "invalid_arrangement",
            format!("arrange 13 cards, not {}", mask.count_ones()),
        ));
    }
    Ok(())
}

/// The best arrangement of 13 cards (and the instant win to declare, if any).
pub fn best_arrangement(mask: u64, rules: &Rules, objective: Objective) -> Result<Solution> {
    best_with_tables(
        mask,
        rules,
        objective,
        &Population::shipped(rules, objective.model()),
    )
}

/// [`best_arrangement`] with explicit model tables (used to regenerate them): the hand is
/// solved with its class's tables of `population`.
pub fn best_with_tables(
    mask: u64,
    rules: &Rules,
    objective: Objective,
    population: &Population,
) -> Result<Solution> {
    check_hand(mask)?;
    let tables = population.for_hand(mask);
    let instant = instant_win(mask, rules);
    let witness = match instant {
        Some(Instant::ThreeFlushes) => three_flushes(mask, rules),
        Some(Instant::ThreeStraights) => three_straights(mask, rules),
        _ => None,
    };
    // The refined search's value, where it gave one (the same as `arrangement_value`'s).
    let mut refined = None;
    let arrangement = match witness {
        Some(a) => a,
        None => {
            let s = Subsets::of(mask, rules);
            let best = match objective {
                Objective::Strongest => search_strongest(&s),
                Objective::Expected | Objective::Equilibrium if population.refines(rules) => {
                    let best = search_refined(&s, mask, population, rules);
                    refined = Some(best.value);
                    best
                }
                Objective::Expected | Objective::Equilibrium => {
                    search_expected(&s, tables, Combine::of(rules), rules.evaluator())
                }
            };
            let back = s.global(best.back);
            let middle = s.global(best.middle);
            Arrangement {
                back,
                middle,
                front: mask & !back & !middle,
            }
        }
    };
    let value = refined.unwrap_or_else(|| population.arrangement_value(&arrangement, rules));
    Ok(Solution {
        arrangement,
        value,
        instant,
    })
}

fn search_strongest(s: &Subsets) -> Best {
    let c = combos();
    let top = *s.class5.iter().max().expect("1287 backs");
    let mut best = Best::NONE;
    for floor in [top, 0] {
        for b in 0..N5 {
            let cb = s.class5[b];
            if cb < floor {
                continue;
            }
            let back = c.five[b];
            s.valid_splits(c, b, |mi, fi, middle| {
                best.offer(
                    0.0,
                    tie_key(cb, s.class5[mi], s.class3[fi], back, middle),
                    back,
                    middle,
                );
            });
        }
        if best.value == 0.0 {
            break;
        }
    }
    best
}

fn search_expected(s: &Subsets, t: &Tables, combine: Combine, ev: &Evaluator) -> Best {
    search_expected_into(s, t, combine, ev, Best::NONE)
}

/// The classes (back, middle, front) a tie key holds.
#[inline]
fn key_classes(key: u128) -> [u16; 3] {
    [80, 64, 48].map(|shift| (key >> shift) as u16)
}

/// How far below the tables' best a split may be and still be refined: the refinements seldom
/// move a choice further (with card removal and the 4-2 copula, among 20,000 seeded hands the
/// refined choice was more than 0.1 below the tables' best on 0.3% of 4-2 hands and 0.02% of
/// the default scoring's), and the search skips every split below it.
const MARGIN: f64 = 0.1;

/// How many of the tables' best splits the refined choice is made among: [`CANDIDATES`], and
/// [`CANDIDATES_42`] under 4-2, where a best response's split is most often one the tables
/// rank just below the first four though the refined value ranks it above the choice (the
/// solver guide's diagnosis, `benches/maubinh_exploit.py --diagnose`).
fn candidates(rules: &Rules) -> usize {
    if rules.scoring == super::Scoring::FourTwo {
        CANDIDATES_42
    } else {
        CANDIDATES
    }
}

/// With a population that refines its tables' values ([`Population::refines`]: card removal,
/// the 4-2 copula): the best [`candidates`] splits by the tables (distinct strengths), then
/// the best of them by [`Population::refined_value`] (ties by the same key), with that value.
fn search_refined(s: &Subsets, hand: u64, population: &Population, rules: &Rules) -> Best {
    let t = population.for_hand(hand);
    let top = search_expected_into(
        s,
        t,
        Combine::of(rules),
        rules.evaluator(),
        TopK::within(candidates(rules), MARGIN),
    )
    .sorted();
    let seen = population.seen(hand);
    let mut best = Best::NONE;
    for (_, key, back, middle) in top {
        let v = population.refined_value(t, key_classes(key), seen.as_ref(), rules);
        best.offer(v, key, back, middle);
    }
    best
}

/// Gives every split of a list sorted by the tables (best first) its refined value and sorts
/// by it the first [`candidates`] within [`MARGIN`] of the first (those [`search_refined`]
/// chooses among, so its choice comes first); the rest keep the tables' order, so a shorter
/// list is the start of a longer one.
fn rerank_refined(
    list: &mut [(f64, u128, u16, u16)],
    hand: u64,
    population: &Population,
    rules: &Rules,
) {
    let Some(&(first, ..)) = list.first() else {
        return;
    };
    let head = list
        .iter()
        .take(candidates(rules))
        .take_while(|x| x.0 >= first - MARGIN)
        .count();
    let t = population.for_hand(hand);
    let seen = population.seen(hand);
    for x in list.iter_mut() {
        x.0 = population.refined_value(t, key_classes(x.1), seen.as_ref(), rules);
    }
    list[..head].sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)));
}

fn search_expected_into<A: Answer>(
    s: &Subsets,
    t: &Tables,
    combine: Combine,
    ev: &Evaluator,
    mut best: A,
) -> A {
    let c = combos();
    // No split's front is stronger than the hand's strongest three cards.
    let front_top = *s.class3.iter().max().expect("286 fronts");
    // Every term of the value is monotone in each hand's class (gains grow, losses shrink), so
    // the value at upper bounds of the classes bounds every split below them. The front never
    // beats the middle, so its class is also capped by the middle's, and by the hand's best.
    let rest_value = |eb: &Entry, cm: u16, cf: u16| {
        let cf = cf.min(front_top).min(ev.front_ceiling(cm));
        split_value(eb, &t.middle[cm as usize], &t.front[cf as usize], combine)
    };
    let search = |b: usize, best: &mut A| {
        let cb = s.class5[b];
        let eb = &t.back[cb as usize];
        let back = c.five[b];
        s.valid_splits(c, b, |mi, fi, middle| {
            let (cm, cf) = (s.class5[mi], s.class3[fi]);
            let v = split_value(eb, &t.middle[cm as usize], &t.front[cf as usize], combine);
            best.offer(v, tie_key(cb, cm, cf, back, middle), back, middle);
        });
    };
    // A first answer from the strongest back (always has a valid split), then a class floor:
    // a split whose back has class `cb` is worth at most `V(cb, cb, best front of the hand)`,
    // non-decreasing in `cb`, so every back below the lowest class whose cap reaches the
    // answer is skipped on one comparison (most of the 1,287: weak fives are the rule).
    let strongest = (0..N5).max_by_key(|&b| s.class5[b]).expect("1287 backs");
    search(strongest, &mut best);
    let cap = |cb: u16| {
        let cf = front_top.min(ev.front_ceiling(cb));
        split_value(
            &t.back[cb as usize],
            &t.middle[cb as usize],
            &t.front[cf as usize],
            combine,
        )
    };
    // The lowest back class whose cap reaches `bar` (the strongest back's class at most).
    let floor_for = |bar: f64| {
        let (mut lo, mut hi) = (0u16, s.class5[strongest]);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if cap(mid) + EPS < bar {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    };
    // Fine bound: the front holds at most one pair or triple of the cards left; try each
    // (or none) and bound the middle by what the front leaves.
    let fine_bound = |b: usize| {
        let cb = s.class5[b];
        let eb = &t.back[cb as usize];
        let (rest, flushable) = s.rest(b);
        let cap = |counts: u64| {
            if flushable {
                cb
            } else {
                middle_cap(counts, ev).min(cb)
            }
        };
        let [present, ge2, ..] = groups(rest);
        let mut v = rest_value(eb, cap(rest), ev.cap3(HIGH_CARD, top(present)));
        let mut pairs = ge2;
        while pairs != 0 {
            let shift = 63 - pairs.leading_zeros();
            let field = 1u64 << shift;
            v = v.max(rest_value(
                eb,
                cap(rest - 2 * field),
                ev.cap3(PAIR, shift / 3),
            ));
            if (rest >> shift) & 7 >= 3 {
                v = v.max(rest_value(
                    eb,
                    cap(rest - 3 * field),
                    ev.cap3(TRIPS, shift / 3),
                ));
            }
            pairs ^= field;
        }
        v
    };
    // The backs are taken in bands of class, strongest first: the first band reaches down to
    // the floor of the best value found (all a single answer needs), each next one to the
    // floor of the threshold the search has reached by then (a list of the best few needs a
    // lower one), until a band adds nothing. Within a band, a coarse bound per back (the
    // middle at most as strong as the back and as the best five of the eight cards left, the
    // front at most the best three of them) orders the search and ends it once the bound
    // falls below the threshold; the fine bound skips most of the rest.
    let mut bound: Vec<(f64, u16)> = Vec::with_capacity(N5);
    let mut upper = u32::MAX; // backs of this class and above are done
    let mut floor = floor_for(best.best_value());
    loop {
        bound.clear();
        for b in 0..N5 {
            let cb = s.class5[b];
            if cb < floor || u32::from(cb) >= upper || b == strongest {
                continue;
            }
            let (rest, flushable) = s.rest(b);
            let cm = if flushable {
                cb
            } else {
                middle_cap(rest, ev).min(cb)
            };
            let ub = rest_value(&t.back[cb as usize], cm, front_cap(rest, ev));
            if ub + EPS >= best.threshold() {
                bound.push((ub, b as u16));
            }
        }
        bound.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        for &(ub, b) in &bound {
            if ub + EPS < best.threshold() {
                break;
            }
            if fine_bound(b as usize) + EPS < best.threshold() {
                continue;
            }
            search(b as usize, &mut best);
        }
        upper = u32::from(floor);
        let next = floor_for(best.threshold());
        if next >= floor {
            break;
        }
        floor = next;
    }
    best
}

/// Plain enumeration of all 72,072 splits on global masks, with the same value function and
/// tie-break: the reference the pruned search is tested against.
pub fn best_exhaustive(
    mask: u64,
    rules: &Rules,
    objective: Objective,
    tables: &Tables,
) -> Result<Arrangement> {
    check_hand(mask)?;
    let ev = rules.evaluator();
    // (value, (back class, middle class, front class, back, middle))
    type Key = (u16, u16, u16, u64, u64);
    let mut best: Option<(f64, Key)> = None;
    for arr in Arrangement::every_split(mask) {
        if arr.is_fouled(rules) {
            continue;
        }
        let (back, middle) = (arr.back, arr.middle);
        let (cb, cm, cf) = (ev.class5(back), ev.class5(middle), ev.class3(arr.front));
        let value = match objective {
            Objective::Strongest => 0.0,
            Objective::Expected | Objective::Equilibrium => split_value(
                &tables.back[cb as usize],
                &tables.middle[cm as usize],
                &tables.front[cf as usize],
                Combine::of(rules),
            ),
        };
        let key = (cb, cm, cf, back, middle);
        let better = match best {
            None => true,
            Some((v, k)) => value > v || (value == v && key > k),
        };
        if better {
            best = Some((value, key));
        }
    }
    let (_, (_, _, _, back, middle)) = best.expect("a valid split always exists");
    Ok(Arrangement {
        back,
        middle,
        front: mask & !back & !middle,
    })
}

/// Ways to split 13 cards into a back of 5, a middle of 5 and a front of 3: C(13,5)·C(8,5).
/// No hand has more ranked arrangements, so every `count` is clamped to it.
pub const MAX_ARRANGEMENTS: usize = 72_072;

/// Most arrangements [`ranked_arrangements`] finds by the pruned search (more: by sorting
/// every split).
const TOP_K_SEARCH: usize = 64;

/// The `count` best arrangements by `objective` with distinct (back, middle, front) classes,
/// best first, each with its model value: the answer and its runner-ups, for reports and the
/// vector environment's legal list. Up to [`TOP_K_SEARCH`] of them by the solver's pruned
/// search (a few times one solve), more by plain enumeration and a sort (about a
/// millisecond); the two give the same list. Instant wins are not considered.
pub fn ranked_arrangements(
    mask: u64,
    rules: &Rules,
    objective: Objective,
    count: usize,
) -> Result<Vec<(Arrangement, f64)>> {
    check_hand(mask)?;
    let population = Population::shipped(rules, objective.model());
    let tables = population.for_hand(mask);
    let s = Subsets::of(mask, rules);
    let c = combos();
    let arrangement = |back: u16, middle: u16| {
        let (back, middle) = (s.global(back), s.global(middle));
        Arrangement {
            back,
            middle,
            front: mask & !back & !middle,
        }
    };
    let refines = objective != Objective::Strongest && population.refines(rules);
    // Refined, the answer is chosen among the first `candidates` by the tables.
    let wanted = if refines {
        count.max(candidates(rules))
    } else {
        count
    };
    let mut list: Vec<(f64, u128, u16, u16)> =
        if wanted <= TOP_K_SEARCH && objective != Objective::Strongest {
            // The pruned search, keeping the best `count` strengths: a few times one solve,
            // where sorting every split costs some 25 solves.
            search_expected_into(
                &s,
                tables,
                Combine::of(rules),
                rules.evaluator(),
                TopK::new(wanted),
            )
            .sorted()
        } else {
            let mut all: Vec<(f64, u128, u16, u16)> = Vec::new();
            for b in 0..N5 {
                let cb = s.class5[b];
                let eb = &tables.back[cb as usize];
                let back = c.five[b];
                s.valid_splits(c, b, |mi, fi, middle| {
                    let (cm, cf) = (s.class5[mi], s.class3[fi]);
                    let v = split_value(
                        eb,
                        &tables.middle[cm as usize],
                        &tables.front[cf as usize],
                        Combine::of(rules),
                    );
                    all.push((v, tie_key(cb, cm, cf, back, middle), back, middle));
                });
            }
            let order = |x: &(f64, u128, u16, u16)| match objective {
                Objective::Expected | Objective::Equilibrium => (x.0, x.1),
                Objective::Strongest => (0.0, x.1),
            };
            all.sort_unstable_by(|x, y| {
                let (a, b) = (order(y), order(x));
                a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
            });
            // Never more than there are splits: a caller's count sizes nothing before this clamp.
            let mut out = Vec::with_capacity(wanted.min(all.len()).min(MAX_ARRANGEMENTS));
            let mut seen = std::collections::HashSet::new();
            for x in all {
                if out.len() == wanted {
                    break;
                }
                if seen.insert(x.1 >> 48) {
                    out.push(x);
                }
            }
            out
        };
    if refines {
        rerank_refined(&mut list, mask, &population, rules);
    }
    list.truncate(count);
    Ok(list
        .into_iter()
        .map(|(v, _, back, middle)| (arrangement(back, middle), v))
        .collect())
}

/// One split of [`ranked_candidates`]: its classes (back, middle, front), its value by the
/// hand's tables alone, its refined value (card removal and, under 4-2, the copula) and whether
/// the refined equilibrium chooses among it (the first [`candidates`] within [`MARGIN`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    pub classes: [u16; 3],
    pub tables: f64,
    pub refined: f64,
    pub candidate: bool,
}

/// The equilibrium's best `count` splits of distinct strengths in its tables' order (up to
/// [`TOP_K_SEARCH`]), each with both values and whether it is one of the candidates the refined
/// choice is made among: what a diagnosis of the strategy's choices reads (where a best
/// response's split stands among them).
pub fn ranked_candidates(mask: u64, rules: &Rules, count: usize) -> Result<Vec<Ranked>> {
    check_hand(mask)?;
    if !(1..=TOP_K_SEARCH).contains(&count) {
        return Err(Error::Rules(format!(
            "count must be within 1..={TOP_K_SEARCH}, not {count}"
        )));
    }
    let population = Population::shipped(rules, Objective::Equilibrium.model());
    let t = population.for_hand(mask);
    let s = Subsets::of(mask, rules);
    let list = search_expected_into(
        &s,
        t,
        Combine::of(rules),
        rules.evaluator(),
        TopK::new(count.max(candidates(rules))),
    )
    .sorted();
    let refines = population.refines(rules);
    let first = list.first().map_or(0.0, |x| x.0);
    let seen = population.seen(mask);
    Ok(list
        .iter()
        .enumerate()
        .take(count)
        .map(|(i, &(v, key, ..))| {
            let classes = key_classes(key);
            Ranked {
                classes,
                tables: v,
                refined: if refines {
                    population.refined_value(t, classes, seen.as_ref(), rules)
                } else {
                    v
                },
                candidate: refines && i < candidates(rules) && v >= first - MARGIN,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::mask_of;
    use crate::rng::Rng;

    fn random_hands(n: usize, seed: u8) -> Vec<u64> {
        let mut rng = Rng::from_key([seed; 32]);
        (0..n)
            .map(|_| mask_of(&rng.permutation(52)[..13]))
            .collect()
    }

    /// The refined choice by brute force: every split on global masks, sorted by the tables'
    /// value and the tie key, one per strength; of the first `candidates`, those within MARGIN
    /// of the first re-scored by `refined_value` (from the split's classes and the hand, not
    /// the search's key), the best taken.
    fn refined_exhaustive(mask: u64, rules: &Rules, population: &Population) -> Arrangement {
        let ev = rules.evaluator();
        let t = population.for_hand(mask);
        let seen = population.seen(mask);
        let mut all = Vec::new();
        for a in Arrangement::every_split(mask) {
            if a.is_fouled(rules) {
                continue;
            }
            let classes = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
            let [b, m, f] = [
                &t.back[classes[0] as usize],
                &t.middle[classes[1] as usize],
                &t.front[classes[2] as usize],
            ];
            let v = split_value(b, m, f, Combine::of(rules));
            let refined = population.refined_value(t, classes, seen.as_ref(), rules);
            all.push((v, (classes, a.back, a.middle), refined, a));
        }
        all.sort_by(|x, y| y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)));
        let mut strengths = std::collections::HashSet::new();
        all.retain(|x| strengths.insert(x.1 .0));
        let first = all[0].0;
        all.truncate(candidates(rules));
        all.retain(|x| x.0 >= first - MARGIN);
        all.into_iter()
            .max_by(|x, y| x.2.total_cmp(&y.2).then(x.1.cmp(&y.1)))
            .expect("a valid split")
            .3
    }

    #[test]
    fn ranked_candidates_equal_plain_enumeration() {
        let n = if cfg!(debug_assertions) { 4 } else { 40 };
        for (i, mask) in random_hands(n, 11).into_iter().enumerate() {
            for rules in [
                Rules::default(),
                Rules {
                    scoring: super::super::Scoring::FourTwo,
                    ..Rules::default()
                },
            ] {
                let population = Population::shipped(&rules, Objective::Equilibrium.model());
                let t = population.for_hand(mask);
                let seen = population.seen(mask);
                let ev = rules.evaluator();
                // Every valid split, the tables' order (value, then the tie key), one per strength.
                let mut all = Vec::new();
                for a in Arrangement::every_split(mask) {
                    if a.is_fouled(&rules) {
                        continue;
                    }
                    let c = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
                    let v = split_value(
                        &t.back[c[0] as usize],
                        &t.middle[c[1] as usize],
                        &t.front[c[2] as usize],
                        Combine::of(&rules),
                    );
                    all.push((v, (c, a.back, a.middle)));
                }
                all.sort_by(|x, y| y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)));
                let mut strengths = std::collections::HashSet::new();
                all.retain(|x| strengths.insert(x.1 .0));
                let fast = ranked_candidates(mask, &rules, 16).unwrap();
                assert_eq!(fast.len(), all.len().min(16), "hand {i}");
                for (k, (r, x)) in fast.iter().zip(&all).enumerate() {
                    assert_eq!(r.classes, x.1 .0, "hand {i} split {k}");
                    assert_eq!(r.tables, x.0, "hand {i} split {k}");
                    let refined = population.refined_value(t, r.classes, seen.as_ref(), &rules);
                    assert_eq!(r.refined, refined, "hand {i} split {k}");
                    let candidate = k < candidates(&rules) && x.0 >= all[0].0 - MARGIN;
                    assert_eq!(r.candidate, candidate, "hand {i} split {k}");
                }
                // The solver plays the candidate with the most refined value.
                let played =
                    best_with_tables(mask, &rules, Objective::Equilibrium, &population).unwrap();
                if played.instant.is_none() {
                    let a = played.arrangement;
                    let c = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
                    let best = fast
                        .iter()
                        .filter(|r| r.candidate)
                        .max_by(|x, y| x.refined.total_cmp(&y.refined))
                        .unwrap();
                    assert_eq!(best.classes, c, "hand {i} {rules:?}");
                }
            }
        }
        assert!(ranked_candidates(random_hands(1, 1)[0], &Rules::default(), 65).is_err());
    }

    #[test]
    fn pruned_search_equals_plain_enumeration() {
        let n = if cfg!(debug_assertions) { 30 } else { 300 };
        for (i, mask) in random_hands(n, 7).into_iter().enumerate() {
            for rules in [
                Rules::default(),
                Rules {
                    scoop: true,
                    wheel: super::super::Wheel::Lowest,
                    back_straight_flush_units: 5,
                    ..Rules::default()
                },
                Rules {
                    scoring: super::super::Scoring::FourTwo,
                    ..Rules::default()
                },
            ] {
                for obj in [
                    Objective::Strongest,
                    Objective::Expected,
                    Objective::Equilibrium,
                ] {
                    let population = Population::shipped(&rules, obj.model());
                    let tables = population.for_hand(mask);
                    let fast = best_with_tables(mask, &rules, obj, &population).unwrap();
                    if fast.instant.is_some() {
                        continue;
                    }
                    let slow = if obj != Objective::Strongest && population.refines(&rules) {
                        refined_exhaustive(mask, &rules, &population)
                    } else {
                        best_exhaustive(mask, &rules, obj, tables).unwrap()
                    };
                    assert_eq!(fast.arrangement, slow, "hand {i} {obj:?} {rules:?}");
                    let value = population.arrangement_value(&slow, &rules);
                    assert_eq!(fast.value, value, "hand {i} {obj:?} {rules:?}");
                }
            }
        }
    }

    #[test]
    fn pruned_search_is_exact_under_any_tables() {
        // The bounds rely only on the monotonicity every table has by construction, so the
        // search must stay exact for regenerated or skewed histograms too.
        use super::super::eval::{CLASSES3, CLASSES5};
        use super::super::expected::Histograms;
        let mut rng = Rng::from_key([11; 32]);
        let mut random_counts = |n: usize, spread: u32| -> Vec<u64> {
            (0..n).map(|_| u64::from(rng.below(spread))).collect()
        };
        let n = if cfg!(debug_assertions) { 6 } else { 60 };
        for (k, spread) in [1u32, 3, 1000].into_iter().enumerate() {
            let h = Histograms {
                back: random_counts(CLASSES5, spread),
                middle: random_counts(CLASSES5, spread),
                front: random_counts(CLASSES3, spread),
            };
            for (scoop, scoring) in [
                (true, super::super::Scoring::Units),
                (false, super::super::Scoring::Units),
                (false, super::super::Scoring::FourTwo),
            ] {
                let rules = Rules {
                    scoop,
                    scoring,
                    ..Rules::default()
                };
                let tables = Tables::from_histograms(&h, &rules);
                let population = Population::single(tables.clone());
                for mask in random_hands(n, 20 + k as u8) {
                    let fast =
                        best_with_tables(mask, &rules, Objective::Expected, &population).unwrap();
                    if fast.instant.is_none() {
                        let slow =
                            best_exhaustive(mask, &rules, Objective::Expected, &tables).unwrap();
                        assert_eq!(fast.arrangement, slow, "spread {spread} scoop {scoop}");
                    }
                }
            }
        }
    }

    #[test]
    fn ranked_starts_with_the_best() {
        for (rules, mask) in [
            Rules::default(),
            Rules {
                scoring: super::super::Scoring::FourTwo,
                ..Rules::default()
            },
        ]
        .into_iter()
        .flat_map(|r| random_hands(20, 5).into_iter().map(move |m| (r, m)))
        {
            for obj in [
                Objective::Strongest,
                Objective::Expected,
                Objective::Equilibrium,
            ] {
                let best = best_arrangement(mask, &rules, obj).unwrap();
                if best.instant.is_some() {
                    continue;
                }
                let ranked = ranked_arrangements(mask, &rules, obj, 6).unwrap();
                assert_eq!(ranked[0].0, best.arrangement);
                assert_eq!(ranked[0].1, best.value);
                // The solver's answer first, each with the value `arrangement_value` gives it;
                // unrefined, by value.
                let refined = obj != Objective::Strongest
                    && Population::shipped(&rules, obj.model()).refines(&rules);
                assert!(ranked
                    .windows(2)
                    .all(|w| obj == Objective::Strongest || refined || w[0].1 >= w[1].1));
                let population = Population::shipped(&rules, obj.model());
                for (a, v) in &ranked {
                    assert_eq!(*v, population.arrangement_value(a, &rules));
                }
            }
        }
    }

    #[test]
    fn the_pruned_ranking_is_the_sorted_one() {
        // Up to TOP_K_SEARCH by the pruned search, beyond by sorting every split: the first
        // `count` of a long sorted list are the pruned search's list, in order.
        let four_two = Rules {
            scoring: crate::maubinh::Scoring::FourTwo,
            ..Rules::default()
        };
        for (k, rules) in [Rules::default(), four_two].into_iter().enumerate() {
            for mask in random_hands(25, 11 + k as u8) {
                for obj in [Objective::Expected, Objective::Equilibrium] {
                    let sorted = ranked_arrangements(mask, &rules, obj, TOP_K_SEARCH + 1).unwrap();
                    for count in [1, 2, 4, 16, TOP_K_SEARCH] {
                        let pruned = ranked_arrangements(mask, &rules, obj, count).unwrap();
                        let want = &sorted[..count.min(sorted.len())];
                        assert_eq!(pruned.len(), want.len(), "{mask:#x} {count}");
                        for (p, w) in pruned.iter().zip(want) {
                            assert_eq!(p.0, w.0, "{mask:#x} {count} {obj:?}");
                            assert!((p.1 - w.1).abs() < 1e-12);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn never_fouled_and_uses_every_card() {
        let rules = Rules::default();
        for mask in random_hands(200, 3) {
            for obj in [
                Objective::Strongest,
                Objective::Expected,
                Objective::Equilibrium,
            ] {
                let s = best_arrangement(mask, &rules, obj).unwrap();
                assert_eq!(s.arrangement.cards(), mask);
                s.arrangement.validate().unwrap();
                assert!(!s.arrangement.is_fouled(&rules));
            }
        }
    }
}
