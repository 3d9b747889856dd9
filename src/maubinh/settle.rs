//! Settlement: every pair of players settles on its own; the per-seat totals sum to zero.

use super::eval::{FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TRIPS};
use super::instant::{instant_win, Instant};
use super::{Arrangement, Rules};
use crate::error::{Error, Result};

/// The three positions, in the order hands are compared.
pub const POSITIONS: [&str; 3] = ["back", "middle", "front"];

/// Units a hand wins at a position given its category (the seed's bonus table; 1 otherwise).
/// A straight flush in the back is not in the seed's list: it wins
/// `rules.back_straight_flush_units` (1 by default).
pub fn bonus(position: usize, category: u8, rules: &Rules) -> i64 {
    match (position, category) {
        (0, STRAIGHT_FLUSH) => rules.back_straight_flush_units as i64,
        (0, QUADS) => 4,
        (1, STRAIGHT_FLUSH) => 10,
        (1, QUADS) => 8,
        (1, FULL_HOUSE) => 2,
        (2, TRIPS) => 3,
        _ => 1,
    }
}

/// The bonus-hand name for a ledger reason, when the bonus applies.
fn bonus_name(position: usize, category: u8, rules: &Rules) -> Option<&'static str> {
    (bonus(position, category, rules) > 1).then(|| super::eval::CATEGORY_NAMES[category as usize])
}

/// One itemised payment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payment {
    pub from: usize,
    pub to: usize,
    pub units: i64,
    pub reason: String,
}

/// How each seat ended, and who paid whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub totals: Vec<i64>,
    pub payments: Vec<Payment>,
    pub instants: Vec<Option<Instant>>,
    pub fouled: Vec<bool>,
}

/// Per-seat outcome of one comparison: hand categories and classes.
struct Compared {
    classes: [u16; 3],
    categories: [u8; 3],
}

/// Settles 2–4 seats. `None` is a seat that forfeited (left mid-hand): it counts as fouled.
/// An instant win is declared automatically from the seat's 13 cards.
pub fn settle(seats: &[Option<Arrangement>], rules: &Rules) -> Result<Settlement> {
    let n = seats.len();
    if !(2..=4).contains(&n) {
        return Err(Error::Rules(format!(
            "Mậu Binh settles 2–4 players, not {n}"
        )));
    }
    rules.validate()?;
    let mut seen = 0u64;
    for arr in seats.iter().flatten() {
        arr.validate()?;
        if arr.cards() & seen != 0 {
            return Err(Error::illegal(
                "invalid_arrangement",
                "two seats hold the same card",
            ));
        }
        seen |= arr.cards();
    }
    let ev = rules.evaluator();
    let instants: Vec<Option<Instant>> = seats
        .iter()
        .map(|s| s.and_then(|a| instant_win(a.cards(), rules)))
        .collect();
    let fouled: Vec<bool> = seats
        .iter()
        .zip(&instants)
        .map(|(s, inst)| inst.is_none() && s.map_or(true, |a| a.is_fouled(rules)))
        .collect();
    let compared: Vec<Option<Compared>> = seats
        .iter()
        .map(|s| {
            s.map(|a| {
                let classes = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
                let categories = [
                    ev.category5(classes[0]),
                    ev.category5(classes[1]),
                    ev.category3(classes[2]),
                ];
                Compared {
                    classes,
                    categories,
                }
            })
        })
        .collect();

    let mut payments = Vec::new();
    let mut pay = |from: usize, to: usize, units: i64, reason: String| {
        if units > 0 {
            payments.push(Payment {
                from,
                to,
                units,
                reason,
            });
        }
    };
    // scooped[i][j]: i won all three hands against j by comparison.
    let mut scooped = vec![vec![false; n]; n];
    // What j paid i for the hands (after the scoop doubling), for sập làng.
    let mut paid = vec![vec![0i64; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            match (instants[i], instants[j]) {
                (Some(a), Some(b)) if a != b => {
                    let (w, l, k) = if a > b { (i, j, a) } else { (j, i, b) };
                    pay(l, w, k.units(), format!("instant:{}", k.name()));
                    continue;
                }
                (Some(_), Some(_)) => continue,
                (Some(a), None) => {
                    pay(j, i, a.units(), format!("instant:{}", a.name()));
                    continue;
                }
                (None, Some(b)) => {
                    pay(i, j, b.units(), format!("instant:{}", b.name()));
                    continue;
                }
                (None, None) => {}
            }
            match (fouled[i], fouled[j]) {
                (true, true) => continue,
                (true, false) => {
                    pay(i, j, 6, "foul".into());
                    continue;
                }
                (false, true) => {
                    pay(j, i, 6, "foul".into());
                    continue;
                }
                (false, false) => {}
            }
            let (ci, cj) = (
                compared[i].as_ref().expect("not fouled"),
                compared[j].as_ref().expect("not fouled"),
            );
            let mut won = [[0i64; 3]; 2];
            for p in 0..3 {
                let (w, l, hands, side) = match ci.classes[p].cmp(&cj.classes[p]) {
                    std::cmp::Ordering::Greater => (i, j, ci, 0),
                    std::cmp::Ordering::Less => (j, i, cj, 1),
                    std::cmp::Ordering::Equal => continue,
                };
                let cat = hands.categories[p];
                let units = bonus(p, cat, rules);
                won[side][p] = units;
                let reason = match bonus_name(p, cat, rules) {
                    Some(b) => format!("{}:{b}", POSITIONS[p]),
                    None => POSITIONS[p].to_string(),
                };
                pay(l, w, units, reason);
            }
            for (side, (w, l)) in [(i, j), (j, i)].into_iter().enumerate() {
                let total: i64 = won[side].iter().sum();
                let all = won[side].iter().all(|&u| u > 0);
                paid[w][l] = total;
                if all {
                    scooped[w][l] = true;
                    if rules.scoop {
                        pay(l, w, total, "scoop".into());
                        paid[w][l] = 2 * total;
                    }
                }
            }
        }
    }
    if rules.scoop_all && n >= 3 {
        for w in 0..n {
            let everyone = (0..n)
                .filter(|&o| o != w)
                .all(|o| scooped[w][o] || (fouled[o] && instants[o].is_none()));
            let any_compared = (0..n).any(|o| scooped[w][o]);
            if !fouled[w] && instants[w].is_none() && everyone && any_compared {
                for l in (0..n).filter(|&o| scooped[w][o]) {
                    pay(l, w, paid[w][l], "scoop_all".into());
                }
            }
        }
    }
    let mut totals = vec![0i64; n];
    for p in &payments {
        totals[p.from] -= p.units;
        totals[p.to] += p.units;
    }
    Ok(Settlement {
        totals,
        payments,
        instants,
        fouled,
    })
}
