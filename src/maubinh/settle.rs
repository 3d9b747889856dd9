//! Settlement: every pair of players settles on its own; the per-seat totals sum to zero.

use super::eval::{FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TRIPS};
use super::instant::{instant_win, Instant};
use super::{Arrangement, Rules, Scoring};
use crate::error::{Error, Result};

/// The three positions, in the order hands are compared.
pub const POSITIONS: [&str; 3] = ["back", "middle", "front"];

/// Units a hand wins at a position given its category (the seed's bonus table; 1 otherwise).
/// A straight flush in the back is not in the seed's list: it wins
/// `rules.back_straight_flush_units` (1 by default). Under 4-2 scoring every hand wins 1.
pub fn bonus(position: usize, category: u8, rules: &Rules) -> i64 {
    if rules.scoring == Scoring::FourTwo {
        return 1;
    }
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

/// Units a fouled arrangement pays each opponent that is not fouled: 2 per hand under the seed,
/// the three hands and the majority (4) under 4-2.
pub fn foul_units(rules: &Rules) -> i64 {
    match rules.scoring {
        Scoring::Units => 6,
        Scoring::FourTwo => 4,
    }
}

/// What a seat shows when the hands are revealed: an instant win, a foul, or three hands (their
/// strength classes and the units each wins at its position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub instant: Option<Instant>,
    pub fouled: bool,
    pub classes: [u16; 3],
    pub categories: [u8; 3],
    pub units: [u8; 3],
}

impl Shown {
    /// A seat that left mid-hand (fouled, no instant win).
    pub const FORFEITED: Shown = Shown {
        instant: None,
        fouled: true,
        classes: [0; 3],
        categories: [0; 3],
        units: [0; 3],
    };

    /// What an arrangement shows; its instant win is read from its 13 cards.
    pub fn of(a: &Arrangement, rules: &Rules) -> Shown {
        Shown::with_instant(a, instant_win(a.cards(), rules), rules)
    }

    /// What an arrangement shows when its instant win (if any) is already known.
    pub fn with_instant(a: &Arrangement, instant: Option<Instant>, rules: &Rules) -> Shown {
        let ev = rules.evaluator();
        let classes = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
        let categories = [
            ev.category5(classes[0]),
            ev.category5(classes[1]),
            ev.category3(classes[2]),
        ];
        let units = [0, 1, 2].map(|p| bonus(p, categories[p], rules) as u8);
        Shown {
            instant,
            fouled: instant.is_none() && a.is_fouled(rules),
            classes,
            categories,
            units,
        }
    }

    /// Whether its hands are compared (neither an instant win nor fouled).
    #[inline(always)]
    pub fn compared(&self) -> bool {
        self.instant.is_none() && !self.fouled
    }
}

/// Why a payment was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Instant(Instant),
    Foul,
    /// A hand won at a position, with its category.
    Hand(usize, u8),
    Scoop,
    /// 4-2: more hands won than lost.
    Majority,
    ScoopAll,
}

impl Reason {
    /// The ledger text: `"back"`, `"middle:full_house"`, `"instant:dragon"`, `"foul"`…
    pub fn text(self, rules: &Rules) -> String {
        match self {
            Reason::Instant(k) => format!("instant:{}", k.name()),
            Reason::Foul => "foul".into(),
            Reason::Hand(p, cat) => match bonus_name(p, cat, rules) {
                Some(b) => format!("{}:{b}", POSITIONS[p]),
                None => POSITIONS[p].to_string(),
            },
            Reason::Scoop => "scoop".into(),
            Reason::Majority => "majority".into(),
            Reason::ScoopAll => "scoop_all".into(),
        }
    }
}

/// How a compared pair ended: whether each side won all three hands, and what each was paid
/// for its hands (after the scoop doubling), for sập làng.
struct PairEnd {
    scooped: [bool; 2],
    paid: [i64; 2],
}

/// Settles seats `a` (side 0) and `b` (side 1) on their own: `pay(winner side, units, why)`
/// for every payment, in ledger order.
fn settle_pair(
    a: &Shown,
    b: &Shown,
    rules: &Rules,
    mut pay: impl FnMut(usize, i64, Reason),
) -> PairEnd {
    let none = PairEnd {
        scooped: [false; 2],
        paid: [0; 2],
    };
    match (a.instant, b.instant) {
        (Some(x), Some(y)) if x != y => {
            let (w, k) = if x > y { (0, x) } else { (1, y) };
            pay(w, k.units(), Reason::Instant(k));
            return none;
        }
        (Some(_), Some(_)) => return none,
        (Some(x), None) => {
            pay(0, x.units(), Reason::Instant(x));
            return none;
        }
        (None, Some(y)) => {
            pay(1, y.units(), Reason::Instant(y));
            return none;
        }
        (None, None) => {}
    }
    match (a.fouled, b.fouled) {
        (true, true) => return none,
        (true, false) => {
            pay(1, foul_units(rules), Reason::Foul);
            return none;
        }
        (false, true) => {
            pay(0, foul_units(rules), Reason::Foul);
            return none;
        }
        (false, false) => {}
    }
    let mut won = [[0i64; 3]; 2];
    #[allow(clippy::needless_range_loop)] // p indexes three parallel arrays of both seats
    for p in 0..3 {
        let (side, hands) = match a.classes[p].cmp(&b.classes[p]) {
            std::cmp::Ordering::Greater => (0, a),
            std::cmp::Ordering::Less => (1, b),
            std::cmp::Ordering::Equal => continue,
        };
        let units = hands.units[p] as i64;
        won[side][p] = units;
        pay(side, units, Reason::Hand(p, hands.categories[p]));
    }
    let mut end = none;
    for side in 0..2 {
        let count = won[side].iter().filter(|&&u| u > 0).count();
        end.paid[side] = won[side].iter().sum();
        end.scooped[side] = count == 3;
        if rules.scoring == Scoring::FourTwo {
            let other = won[1 - side].iter().filter(|&&u| u > 0).count();
            if count > other {
                pay(side, 1, Reason::Majority);
            }
        } else if count == 3 && rules.scoop {
            pay(side, end.paid[side], Reason::Scoop);
            end.paid[side] *= 2;
        }
    }
    end
}

/// Settles every pair of seats, then sập làng: `pay(from, to, units, why)` for every payment.
pub fn settle_shown(
    shown: &[Shown],
    rules: &Rules,
    mut pay: impl FnMut(usize, usize, i64, Reason),
) {
    let n = shown.len();
    // scooped[i][j]: i won all three hands against j by comparison; paid[i][j]: what j paid i
    // for the hands (after the scoop doubling).
    let mut scooped = [[false; 4]; 4];
    let mut paid = [[0i64; 4]; 4];
    for i in 0..n {
        for j in i + 1..n {
            let end = settle_pair(&shown[i], &shown[j], rules, |side, units, why| {
                if units > 0 {
                    let (w, l) = if side == 0 { (i, j) } else { (j, i) };
                    pay(l, w, units, why);
                }
            });
            (scooped[i][j], scooped[j][i]) = (end.scooped[0], end.scooped[1]);
            (paid[i][j], paid[j][i]) = (end.paid[0], end.paid[1]);
        }
    }
    if rules.scoop_all && n >= 3 {
        let forfeit = |o: usize| shown[o].fouled;
        for w in 0..n {
            let everyone = (0..n)
                .filter(|&o| o != w)
                .all(|o| scooped[w][o] || forfeit(o));
            let any_compared = (0..n).any(|o| scooped[w][o]);
            if shown[w].compared() && everyone && any_compared {
                for l in (0..n).filter(|&o| scooped[w][o]) {
                    pay(l, w, paid[w][l], Reason::ScoopAll);
                }
            }
        }
    }
}

/// Per-seat totals of [`settle_shown`] (no ledger): the fast path of simulations.
pub fn totals(shown: &[Shown], rules: &Rules) -> [i64; 4] {
    let mut t = [0i64; 4];
    settle_shown(shown, rules, |from, to, units, _| {
        t[from] -= units;
        t[to] += units;
    });
    t
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
    let shown: Vec<Shown> = seats
        .iter()
        .map(|s| s.map_or(Shown::FORFEITED, |a| Shown::of(&a, rules)))
        .collect();
    let mut payments = Vec::new();
    settle_shown(&shown, rules, |from, to, units, why| {
        payments.push(Payment {
            from,
            to,
            units,
            reason: why.text(rules),
        })
    });
    let mut totals = vec![0i64; n];
    for p in &payments {
        totals[p.from] -= p.units;
        totals[p.to] += p.units;
    }
    Ok(Settlement {
        totals,
        payments,
        instants: shown.iter().map(|s| s.instant).collect(),
        fouled: shown.iter().map(|s| s.fouled).collect(),
    })
}
