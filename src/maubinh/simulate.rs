//! Seeded many-deal simulations, in parallel: the opponent histograms behind the expected-units
//! tables, and head-to-head matches between two objectives.

use super::joint::Cells;
use super::population::{Census, Population, Scheme};
use super::settle::settle;
use super::solver::{best_with_tables, Objective};
use super::{Evaluator, Rules};
use crate::cards::mask_of;
use crate::rng::Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The 13-card hands of deal `index` under `seed`: a ChaCha20 stream keyed by both, so every
/// deal is reproducible on its own and deals can run in any order.
pub fn deal(seed: u64, index: u64, players: usize) -> Vec<u64> {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    key[16..20].copy_from_slice(b"MBdl");
    let perm = Rng::from_key(key).permutation(52);
    (0..players)
        .map(|p| mask_of(&perm[13 * p..13 * p + 13]))
        .collect()
}

/// The classes (back, middle, front, by `ev`) each hand is arranged into by `objective` with
/// `population`; None for an instant win (never compared).
fn played_classes(
    hands: &[u64],
    rules: &Rules,
    objective: Objective,
    population: &Population,
    ev: &Evaluator,
) -> Vec<Option<[usize; 3]>> {
    hands
        .iter()
        .map(|&hand| {
            let s = best_with_tables(hand, rules, objective, population).expect("13 cards");
            let a = s.arrangement;
            s.instant.is_none().then(|| {
                [
                    ev.class5(a.back) as usize,
                    ev.class5(a.middle) as usize,
                    ev.class3(a.front) as usize,
                ]
            })
        })
        .collect()
}

/// Histograms of the classes played at each position (default wheel order) in the 4-player
/// deals numbered `deals` under `seed`, each hand arranged by `objective` with `population`,
/// split by `scheme`: with one population, every arranged hand counts once; split, every
/// other seat's arrangement counts in the class of each seat's own hand (the opponents that
/// hand meets). Instant-win hands are left out: they are never compared. Every deal is seeded
/// on its own, so the histograms of consecutive ranges add up to those of the whole range.
/// Once `stop` is set the remaining deals are skipped (the counts are then incomplete).
pub fn position_histograms(
    deals: std::ops::Range<u64>,
    seed: u64,
    rules: &Rules,
    objective: Objective,
    population: &Population,
    scheme: Scheme,
    stop: &AtomicBool,
) -> Census {
    let second = Rules {
        wheel: super::Wheel::Second,
        ..*rules
    };
    let ev = second.evaluator();
    deals
        .into_par_iter()
        .fold(
            || Census::empty(scheme),
            |mut c, d| {
                if stop.load(Ordering::Relaxed) {
                    return c; // interrupted: the caller discards the counts
                }
                let hands = deal(seed, d, 4);
                let played = played_classes(&hands, rules, objective, population, ev);
                let mut count = |part: usize, classes: [usize; 3]| {
                    let h = &mut c.parts[part];
                    h.back[classes[0]] += 1;
                    h.middle[classes[1]] += 1;
                    h.front[classes[2]] += 1;
                };
                for (seat, &hand) in hands.iter().enumerate() {
                    if scheme == Scheme::Whole {
                        if let Some(classes) = played[seat] {
                            count(0, classes);
                        }
                        continue;
                    }
                    let part = scheme.class(hand);
                    for (other, p) in played.iter().enumerate() {
                        if let (true, Some(classes)) = (other != seat, p) {
                            count(part, *classes);
                        }
                    }
                }
                c
            },
        )
        .reduce(
            || Census::empty(scheme),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
}

/// The opponents' quantile cells behind the 4-2 joint term ([`super::joint`]): in the
/// 4-player deals numbered `deals` under `seed`, each hand arranged by `objective` with
/// `population`, every seat's opponents counted at the quantiles (`P(weaker) + P(equal)/2`,
/// per position) their three hands have under that seat's own class tables. Instant-win hands
/// are left out; every deal is seeded on its own, so consecutive ranges add up. Once `stop` is
/// set the remaining deals are skipped (the counts are then incomplete).
pub fn joint_cells(
    deals: std::ops::Range<u64>,
    seed: u64,
    rules: &Rules,
    objective: Objective,
    population: &Population,
    grid: usize,
    stop: &AtomicBool,
) -> Cells {
    let ev = rules.evaluator();
    deals
        .into_par_iter()
        .fold(
            || Cells::empty(grid),
            |mut c, d| {
                if stop.load(Ordering::Relaxed) {
                    return c;
                }
                let hands = deal(seed, d, 4);
                let played = played_classes(&hands, rules, objective, population, ev);
                for (seat, &hand) in hands.iter().enumerate() {
                    if played[seat].is_none() {
                        continue;
                    }
                    let t = population.for_hand(hand);
                    for (other, p) in played.iter().enumerate() {
                        if let (true, Some([b, m, f])) = (other != seat, p) {
                            let u = |e: &super::expected::Entry| {
                                f64::from(e.win) + f64::from(e.tie) / 2.0
                            };
                            c.add([u(&t.back[*b]), u(&t.middle[*m]), u(&t.front[*f])]);
                        }
                    }
                }
                c
            },
        )
        .reduce(
            || Cells::empty(grid),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
}

/// Plays `deals` deals at a table of `players`, each deal twice with the objectives' seats
/// swapped (seats alternate A, B, A, B; then B, A, B, A). Returns the total units won by the
/// seats playing `a` and the number of such seat-deals.
pub fn head_to_head(
    deals: u64,
    seed: u64,
    players: usize,
    rules: &Rules,
    a: Objective,
    b: Objective,
) -> (i64, u64) {
    let (ta, tb) = (
        Population::shipped(rules, a.model()),
        Population::shipped(rules, b.model()),
    );
    let units: i64 = (0..deals)
        .into_par_iter()
        .map(|d| {
            let hands = deal(seed, d, players);
            let solve = |h: u64, o: Objective, t: &Population| {
                best_with_tables(h, rules, o, t)
                    .expect("13 cards")
                    .arrangement
            };
            let by_a: Vec<_> = hands.iter().map(|&h| solve(h, a, &ta)).collect();
            let by_b: Vec<_> = hands.iter().map(|&h| solve(h, b, &tb)).collect();
            let mut won = 0i64;
            for flip in [0, 1] {
                let seats: Vec<_> = (0..players)
                    .map(|s| {
                        Some(if (s + flip) % 2 == 0 {
                            by_a[s]
                        } else {
                            by_b[s]
                        })
                    })
                    .collect();
                let totals = settle(&seats, rules).expect("valid arrangements").totals;
                won += (0..players)
                    .filter(|s| (s + flip) % 2 == 0)
                    .map(|s| totals[s])
                    .sum::<i64>();
            }
            won
        })
        .sum();
    // Every seat plays `a` in exactly one of the two flips.
    (units, players as u64 * deals)
}
