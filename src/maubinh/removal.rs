//! Card removal at decision time: what the other seats can hold, given the 13 cards a player
//! holds.
//!
//! The equilibrium's tables ([`super::population`]) are kept per class of the player's hand
//! (aces, kings, distinct ranks, the longest suit), which sees only a little of what the 39
//! unseen cards allow: holding three kings, an opponent's pair of kings is impossible, and
//! holding nine spades, its spade flush is rare. A pool of [`POOL`] seeded random hands,
//! arranged once by the equilibrium without this correction (tables and the 4-2 joint term),
//! keeps for each position its hands sorted by class and, per card, a bit set of the pool's
//! hands whose cards at that position hold it. At a decision, the positions' hands disjoint
//! from the player's 13 cards are found word by word (13 ORs a word), and each candidate's
//! class is priced by them: its win, tie and lose shares among the disjoint hands, minus its
//! shares among all the pool's (the *shift*: the tables keep their level, and the pool only
//! says how the cards held move it), times [`SHRINK`], is added to the table's entry. The loss
//! (the units an opponent's bonus takes) moves the same way. The hand's suits are renamed in a
//! canonical order first ([`canonical_suits`]: the pool is not symmetric in the suits), so
//! hands equal up to their suits' names decide alike.
//!
//! Disjointness is asked of each position's cards alone (five or three of the opponent's
//! cards: 22% and 41% of the pool are disjoint from a hand, where a whole 13-card hand is
//! disjoint 1.3% of the time), so the three positions are corrected one by one; the 4-2 joint
//! term then reads the corrected entries. Asked of one position, disjointness is an
//! approximation (the opponent's other eight cards must avoid the hand too, and chose that
//! arrangement), and the class tables already carry part of the removal: against exact
//! per-hand odds (opponents disjoint from the whole hand in a pool of 400,000), the candidates'
//! per-position edges err by 0.0261 root mean square with the tables alone, 0.0285 with the
//! whole shift and 0.0183 with half of it, the least of the fractions tried, with pools of
//! 8,192 to 32,768 hands alike (`benches/maubinh_removal_estimate.py`). The correction picks
//! among the solver's best [`super::joint::CANDIDATES`] (under 4-2
//! [`super::joint::CANDIDATES_42`]) splits by the tables, where it is cheap (a pool scan is some
//! 3 × 13 × [`WORDS`] ORs and as many popcounts a decision).
//!
//! The pool is made when the equilibrium is first used under a rules combination (about
//! `POOL` solves, sequentially, a fraction of a second), from a fixed seed, so every process
//! makes the same one.

use super::eval::{CLASSES3, CLASSES5};
use super::expected::Entry;
use super::instant::instant_win;
use super::population::Population;
use super::settle::bonus;
use super::solver::{best_with_tables, Objective};
use super::{Arrangement, Rules};
use crate::cards::mask_of;
use crate::rng::Rng;

/// Hands in the pool.
pub const POOL: usize = 8192;
/// 64-bit words of a bit set over the pool.
pub const WORDS: usize = POOL / 64;
const _: () = assert!(POOL % 64 == 0 && POOL <= u16::MAX as usize);
/// The share of the pool's shift added to a table entry (see the module docs).
pub const SHRINK: f64 = 0.5;
/// The pool's seed (the key its hands are drawn from).
const SEED: [u8; 32] = *b"vncards maubinh card removal v1\0";

/// One position of the pool.
#[derive(Clone, Debug)]
struct Side {
    /// `start[c]`: the first index of the sorted order whose class is at least `c` (one more
    /// entry than classes, the last the pool's size).
    start: Vec<u16>,
    /// `holding[card · WORDS + w]`: bit `i` of word `w` is set when hand `64w + i` (in the
    /// sorted order) holds `card` at this position.
    holding: Vec<u64>,
    /// Runs of the sorted order with one bonus: (first index, units), first index ascending.
    runs: Vec<(usize, f32)>,
}

impl Side {
    fn new(mut hands: Vec<(u16, u64)>, classes: usize, units: impl Fn(u16) -> f32) -> Side {
        hands.sort_unstable();
        let mut holding = vec![0u64; 52 * WORDS];
        let mut runs: Vec<(usize, f32)> = Vec::new();
        for (i, &(class, cards)) in hands.iter().enumerate() {
            let mut m = cards;
            while m != 0 {
                let card = m.trailing_zeros() as usize;
                holding[card * WORDS + i / 64] |= 1 << (i % 64);
                m &= m - 1;
            }
            let u = units(class);
            if runs.last().map_or(true, |r| r.1 != u) {
                runs.push((i, u));
            }
        }
        let start = (0..=classes)
            .map(|c| hands.partition_point(|h| usize::from(h.0) < c) as u16)
            .collect();
        Side {
            start,
            holding,
            runs,
        }
    }
}

/// The pool of arranged hands the correction reads.
#[derive(Clone, Debug)]
pub struct Removal {
    sides: [Side; 3],
}

impl Removal {
    /// Arranges [`POOL`] seeded hands with `base` (instant wins left out) and indexes them.
    pub fn build(rules: &Rules, base: &Population) -> Removal {
        let mut rng = Rng::from_key(SEED);
        let mut pool = Vec::with_capacity(POOL);
        while pool.len() < POOL {
            let hand = mask_of(&rng.permutation(52)[..13]);
            if instant_win(hand, rules).is_some() {
                continue;
            }
            let solved = best_with_tables(hand, rules, Objective::Equilibrium, base);
            pool.push(solved.expect("13 distinct cards").arrangement);
        }
        Removal::of(&pool, rules)
    }

    /// Indexes [`POOL`] arranged hands (bonuses as `rules` pay them).
    pub fn of(pool: &[Arrangement], rules: &Rules) -> Removal {
        assert_eq!(pool.len(), POOL, "a removal pool holds POOL hands");
        let ev = rules.evaluator();
        let part = |p: usize| -> Vec<(u16, u64)> {
            pool.iter()
                .map(|a| match p {
                    0 => (ev.class5(a.back), a.back),
                    1 => (ev.class5(a.middle), a.middle),
                    _ => (ev.class3(a.front), a.front),
                })
                .collect()
        };
        let five = |p: usize| move |c: u16| bonus(p, ev.category5(c), rules) as f32;
        Removal {
            sides: [
                Side::new(part(0), CLASSES5, five(0)),
                Side::new(part(1), CLASSES5, five(1)),
                Side::new(part(2), CLASSES3, |c| {
                    bonus(2, ev.category3(c), rules) as f32
                }),
            ],
        }
    }

    /// The pool seen from one hand: which of its positions' hands the 13 cards allow. The
    /// hand's suits are first renamed in a canonical order (the pool is not symmetric in the
    /// suits, the positions' classes are), so hands equal up to their suits' names see it
    /// alike.
    pub fn seen(&self, hand: u64) -> Seen<'_> {
        let hand = canonical_suits(hand);
        let mut seen = Seen {
            removal: self,
            free: [[0; WORDS]; 3],
            prefix: [[0; WORDS + 1]; 3],
        };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has the features the copy is compiled for.
            unsafe { scan_avx2(self, hand, &mut seen) };
            return seen;
        }
        scan(self, hand, &mut seen);
        seen
    }
}

/// `hand` with its suits renamed so that each suit's cards, read as a number, are in
/// descending order from suit 0 (a card's index is 4 × rank + suit).
pub fn canonical_suits(hand: u64) -> u64 {
    const EVERY_FOURTH: u64 = 0x0001_1111_1111_1111;
    let mut suits = [0, 1, 2, 3].map(|s| (hand >> s) & EVERY_FOURTH);
    suits.sort_unstable_by(|a, b| b.cmp(a));
    suits.iter().enumerate().map(|(s, m)| m << s).sum()
}

/// The words of each position's hands disjoint from `hand`, and their running counts.
#[inline(always)]
fn scan(removal: &Removal, hand: u64, seen: &mut Seen<'_>) {
    for (p, side) in removal.sides.iter().enumerate() {
        let (free, prefix) = (&mut seen.free[p], &mut seen.prefix[p]);
        let mut m = hand;
        while m != 0 {
            let row = &side.holding[m.trailing_zeros() as usize * WORDS..][..WORDS];
            for (f, h) in free.iter_mut().zip(row) {
                *f |= h;
            }
            m &= m - 1;
        }
        for w in 0..WORDS {
            free[w] = !free[w];
            prefix[w + 1] = prefix[w] + free[w].count_ones();
        }
    }
}

/// [`scan`] compiled for AVX2 and the popcount instruction (the wheels target the x86-64
/// baseline, where a popcount is a dozen instructions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn scan_avx2(removal: &Removal, hand: u64, seen: &mut Seen<'_>) {
    scan(removal, hand, seen)
}

/// A hand's view of the pool (see [`Removal::seen`]).
pub struct Seen<'a> {
    removal: &'a Removal,
    free: [[u64; WORDS]; 3],
    /// Disjoint hands before each word.
    prefix: [[u32; WORDS + 1]; 3],
}

impl Seen<'_> {
    /// Disjoint hands among the first `i` of position `p`'s sorted order.
    #[inline]
    fn below(&self, p: usize, i: usize) -> u32 {
        let (w, b) = (i / 64, i % 64);
        let partial = if b == 0 {
            0
        } else {
            (self.free[p][w] & ((1u64 << b) - 1)).count_ones()
        };
        self.prefix[p][w] + partial
    }

    /// The table entry `e` of class `class` at position `p` (0 back, 1 middle, 2 front),
    /// shifted by how the hand's cards move its shares in the pool.
    pub fn correct(&self, p: usize, class: u16, e: &Entry) -> Entry {
        let side = &self.removal.sides[p];
        let (lo, hi) = (
            usize::from(side.start[usize::from(class)]),
            usize::from(side.start[usize::from(class) + 1]),
        );
        let free = f64::from(self.prefix[p][WORDS].max(1));
        let all = POOL as f64;
        let (below_lo, below_hi) = (f64::from(self.below(p, lo)), f64::from(self.below(p, hi)));
        let win = f64::from(e.win) + SHRINK * (below_lo / free - lo as f64 / all);
        let tie =
            f64::from(e.tie) + SHRINK * ((below_hi - below_lo) / free - (hi - lo) as f64 / all);
        // Units lost above the class: each run of one bonus counted among the disjoint hands
        // and among all.
        let (mut loss_free, mut loss_all) = (0.0, 0.0);
        for (r, &(start, units)) in side.runs.iter().enumerate() {
            let end = side.runs.get(r + 1).map_or(POOL, |x| x.0);
            let start = start.max(hi);
            if start >= end {
                continue;
            }
            let u = f64::from(units);
            loss_free += u * f64::from(self.below(p, end) - self.below(p, start));
            loss_all += u * (end - start) as f64;
        }
        let win = win.clamp(0.0, 1.0);
        let tie = tie.clamp(0.0, 1.0 - win);
        let loss = (f64::from(e.loss) + SHRINK * (loss_free / free - loss_all / all)).max(0.0);
        let bonus = f64::from(e.bonus);
        Entry {
            win: win as f32,
            tie: tie as f32,
            lose: (1.0 - win - tie) as f32,
            loss: loss as f32,
            bonus: e.bonus,
            value: (win * bonus - loss) as f32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maubinh::expected::Model;
    use crate::maubinh::Scoring;

    fn random_hand(rng: &mut Rng) -> u64 {
        mask_of(&rng.permutation(52)[..13])
    }

    /// A hand split at random (valid or not: the index does not care).
    fn random_split(rng: &mut Rng) -> Arrangement {
        let cards = rng.permutation(52);
        Arrangement {
            back: mask_of(&cards[..5]),
            middle: mask_of(&cards[5..10]),
            front: mask_of(&cards[10..13]),
        }
    }

    fn entry(win: f64, tie: f64, loss: f64, bonus: f32) -> Entry {
        Entry {
            win: win as f32,
            tie: tie as f32,
            lose: (1.0 - win - tie) as f32,
            loss: loss as f32,
            bonus,
            value: (win * f64::from(bonus) - loss) as f32,
        }
    }

    /// The correction against a plain count over the pool's hands: those whose cards at the
    /// position avoid the hand, below, at and above the class, and the units above it.
    #[test]
    fn corrections_match_a_plain_count_of_the_pool() {
        let mut rng = Rng::from_key([21; 32]);
        for rules in [
            Rules::default(),
            Rules {
                scoring: Scoring::FourTwo,
                ..Rules::default()
            },
        ] {
            let ev = rules.evaluator();
            let pool: Vec<Arrangement> = (0..POOL).map(|_| random_split(&mut rng)).collect();
            let removal = Removal::of(&pool, &rules);
            for _ in 0..20 {
                let hand = random_hand(&mut rng);
                let seen = removal.seen(hand);
                let canon = canonical_suits(hand);
                for p in 0..3 {
                    let of = |a: &Arrangement| match p {
                        0 => (ev.class5(a.back), a.back, ev.category5(ev.class5(a.back))),
                        1 => (
                            ev.class5(a.middle),
                            a.middle,
                            ev.category5(ev.class5(a.middle)),
                        ),
                        _ => (
                            ev.class3(a.front),
                            a.front,
                            ev.category3(ev.class3(a.front)),
                        ),
                    };
                    let classes = if p == 2 { CLASSES3 } else { CLASSES5 };
                    let class = rng.below(classes as u32) as u16;
                    let (mut n, mut below, mut at, mut units) =
                        ([0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2]);
                    for a in &pool {
                        let (c, cards, category) = of(a);
                        for (k, counted) in [true, cards & canon == 0].into_iter().enumerate() {
                            if !counted {
                                continue;
                            }
                            n[k] += 1.0;
                            if c < class {
                                below[k] += 1.0;
                            } else if c == class {
                                at[k] += 1.0;
                            } else {
                                units[k] += bonus(p, category, &rules) as f64;
                            }
                        }
                    }
                    let e = entry(0.4, 0.1, 0.7, 2.0);
                    let got = seen.correct(p, class, &e);
                    let share = |x: [f64; 2]| SHRINK * (x[1] / n[1] - x[0] / n[0]);
                    let win = (0.4 + share(below)).clamp(0.0, 1.0);
                    let tie = (0.1 + share(at)).clamp(0.0, 1.0 - win);
                    let loss = (0.7 + share(units)).max(0.0);
                    for (g, w) in [
                        (got.win, win),
                        (got.tie, tie),
                        (got.lose, 1.0 - win - tie),
                        (got.loss, loss),
                        (got.value, 2.0 * win - loss),
                    ] {
                        assert!((f64::from(g) - w).abs() < 1e-6, "{p} {class}: {g} vs {w}");
                    }
                    assert_eq!(got.bonus, 2.0);
                }
            }
        }
    }

    #[test]
    fn canonical_suits_forget_the_suits_names_only() {
        let mut rng = Rng::from_key([22; 32]);
        for _ in 0..500 {
            let hand = random_hand(&mut rng);
            let canon = canonical_suits(hand);
            assert_eq!(canon.count_ones(), 13);
            let ranks = |m: u64| {
                (0..13)
                    .map(|r| (m >> (4 * r) & 15).count_ones())
                    .collect::<Vec<_>>()
            };
            assert_eq!(ranks(canon), ranks(hand));
            let renamed = rng.permutation(4);
            let moved: u64 = (0..52)
                .filter(|c| hand >> c & 1 == 1)
                .map(|c| 1u64 << (c / 4 * 4 + renamed[c as usize % 4] as u64))
                .sum();
            assert_eq!(canonical_suits(moved), canon);
            assert_eq!(canonical_suits(canon), canon);
        }
    }

    /// The shipped equilibrium's pool against direct sampling: fresh seeded hands arranged by
    /// the same equilibrium the pool was (without the correction), those whose cards at the
    /// position avoid the hand counted apart; the share below a class among them minus the
    /// share among all agrees with the pool's shift (before [`SHRINK`]) within the two
    /// samples' noise.
    #[test]
    fn shifts_match_direct_sampling() {
        let cards = |text: &str| crate::cards::parse_card_set(text).unwrap().1 .0;
        let samples = if cfg!(debug_assertions) {
            2_000
        } else {
            20_000
        };
        for scoring in [Scoring::FourTwo, Scoring::Units] {
            let rules = Rules {
                scoring,
                ..Rules::default()
            };
            let ev = rules.evaluator();
            let shipped = Population::shipped(&rules, Model::Equilibrium);
            let removal = shipped
                .removal
                .as_deref()
                .expect("the equilibrium has a pool");
            let mut base = (*shipped).clone();
            base.removal = None;
            // Nine spades against backs below the weakest flush; four kings and three queens
            // against fronts below a pair of kings; a hand of pairs against middles below two
            // pairs.
            for (hand, p, class) in [
                (
                    cards("2s 4s 5s 7s 8s Ts Js Qs As 3d 6c 9h Kd"),
                    0,
                    ev.class5(cards("2s 3s 4s 5s 7s")),
                ),
                (
                    cards("Ks Kh Kd Kc Qs Qh Qd 2c 5d 7h 9s Tc 3h"),
                    2,
                    ev.class3(cards("Kc Kd 2h")),
                ),
                (
                    cards("2s 2h 5d 5c 8s 8h Jd Jc Qs Qh Ad Ac 3h"),
                    1,
                    ev.class5(cards("2s 2h 3d 3c 4h")),
                ),
            ] {
                let seen = removal.seen(hand);
                let probe = entry(0.5, 0.0, 0.0, 1.0);
                let shift = (f64::from(seen.correct(p, class, &probe).win) - 0.5) / SHRINK;
                let mut rng = Rng::from_key([23; 32]);
                let (mut all, mut free) = ([0.0; 2], [0.0; 2]);
                for _ in 0..samples {
                    let dealt = random_hand(&mut rng);
                    if instant_win(dealt, &rules).is_some() {
                        continue;
                    }
                    let a = best_with_tables(dealt, &rules, Objective::Equilibrium, &base)
                        .unwrap()
                        .arrangement;
                    let (c, at) = match p {
                        0 => (ev.class5(a.back), a.back),
                        1 => (ev.class5(a.middle), a.middle),
                        _ => (ev.class3(a.front), a.front),
                    };
                    let below = f64::from(u8::from(c < class));
                    all = [all[0] + 1.0, all[1] + below];
                    if at & canonical_suits(hand) == 0 {
                        free = [free[0] + 1.0, free[1] + below];
                    }
                }
                let (q, r) = (free[1] / free[0], all[1] / all[0]);
                let sampled = q - r;
                // Standard errors of the sampled and the pool's shares among the disjoint
                // hands (the pool: some POOL / 4 of them), the shares among all far smaller.
                let noise = (q * (1.0 - q) * (1.0 / free[0] + 4.0 / POOL as f64)).sqrt();
                assert!(
                    (shift - sampled).abs() < 4.0 * noise + 1e-3,
                    "{scoring:?} {p}: {shift} vs {sampled} ± {noise}"
                );
            }
        }
    }
}
