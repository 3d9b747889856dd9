//! Melds and hand decomposition.
//!
//! Colours interact only through Chốt sets, so a hand splits into nine independent groups:
//! per colour the Tướng–Sĩ–Tượng trio and the Xe–Pháo–Mã trio, plus the four Chốt together.
//! Each group has at most 5^4 states; tables built once hold, per state, the fewest rác and the
//! best even and odd lệnh over complete splits, so a whole hand is nine lookups.

use super::cards::{Hand, Kind, CHARIOT, COLOURS, ELEPHANT, GENERAL, SOLDIER};
use std::sync::OnceLock;

/// The kinds of meld (and `Single` for a rác card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    /// đôi: two identical cards.
    Pair,
    /// a lone Tướng.
    General,
    /// Tướng–Sĩ–Tượng of one colour.
    GeneralSet,
    /// Xe–Pháo–Mã of one colour.
    ChariotSet,
    /// three Chốt of different colours.
    ThreeSoldiers,
    /// four Chốt of different colours (bốn chốt khác màu).
    FourSoldiers,
    /// 3 con khui: a pair plus a claimed third, exposed.
    ClaimedTriple,
    /// khạp: three identical held in the hand.
    Triple,
    /// 4 con khui: a khạp plus the claimed fourth, exposed.
    ClaimedQuad,
    /// quằn: four identical held or dealt.
    Quad,
    /// rác: a card in no meld.
    Single,
}

pub const MELD_KINDS: [MeldKind; 11] = [
    MeldKind::Pair,
    MeldKind::General,
    MeldKind::GeneralSet,
    MeldKind::ChariotSet,
    MeldKind::ThreeSoldiers,
    MeldKind::FourSoldiers,
    MeldKind::ClaimedTriple,
    MeldKind::Triple,
    MeldKind::ClaimedQuad,
    MeldKind::Quad,
    MeldKind::Single,
];

/// The odd-lệnh rule (seed 003: "số lệnh trên tay cần là số lẻ"): which total must be odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OddTotal {
    /// The melds' lệnh, tới not counted, must be odd (default).
    Hand,
    /// The total including tới must be odd.
    WithToi,
    /// No parity rule.
    Off,
}

impl OddTotal {
    pub fn from_name(name: &str) -> Option<OddTotal> {
        match name {
            "hand" => Some(OddTotal::Hand),
            "with_toi" => Some(OddTotal::WithToi),
            "off" => Some(OddTotal::Off),
            _ => None,
        }
    }
}

/// The scoring options of a table: the odd-lệnh rule and the lệnh of a three-card set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scoring {
    pub odd_total: OddTotal,
    /// lệnh of Tướng–Sĩ–Tượng, Xe–Pháo–Mã and 3 Chốt: 1 (default, common practice) or 0
    /// (the seed's lệnh table read literally).
    pub set_lenh: i32,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            odd_total: OddTotal::Hand,
            set_lenh: 1,
        }
    }
}

impl MeldKind {
    /// Its lệnh under `set_lenh` (the lệnh of a three-card set, 0 or 1).
    pub const fn lenh_with(self, set_lenh: i32) -> i32 {
        match self {
            MeldKind::GeneralSet | MeldKind::ChariotSet | MeldKind::ThreeSoldiers => set_lenh,
            other => other.lenh(),
        }
    }

    /// Its default lệnh (points), a three-card set counting 1.
    pub const fn lenh(self) -> i32 {
        match self {
            MeldKind::Pair | MeldKind::Single => 0,
            MeldKind::General
            | MeldKind::GeneralSet
            | MeldKind::ChariotSet
            | MeldKind::ThreeSoldiers
            | MeldKind::ClaimedTriple => 1,
            MeldKind::Triple => 3,
            MeldKind::FourSoldiers => 4,
            MeldKind::ClaimedQuad => 6,
            MeldKind::Quad => 8,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            MeldKind::Pair => "pair",
            MeldKind::General => "general",
            MeldKind::GeneralSet => "general_set",
            MeldKind::ChariotSet => "chariot_set",
            MeldKind::ThreeSoldiers => "three_soldiers",
            MeldKind::FourSoldiers => "four_soldiers",
            MeldKind::ClaimedTriple => "claimed_triple",
            MeldKind::Triple => "triple",
            MeldKind::ClaimedQuad => "claimed_quad",
            MeldKind::Quad => "quad",
            MeldKind::Single => "single",
        }
    }
    pub fn from_name(name: &str) -> Option<MeldKind> {
        MELD_KINDS.iter().copied().find(|m| m.name() == name)
    }
    /// Four identical cards (quằn or 4 con khui).
    pub const fn is_quad(self) -> bool {
        matches!(self, MeldKind::Quad | MeldKind::ClaimedQuad)
    }
}

/// A meld: its kind and its cards (kind order).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    pub kind: MeldKind,
    pub cards: Vec<Kind>,
}

/// What cards in a group of the table can form (concealed values).
#[derive(Clone, Copy)]
struct Template {
    kind: MeldKind,
    need: [u8; 4],
}

/// Best lệnh per parity over some splits; `NONE` when there is no such split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    pub even: i16,
    pub odd: i16,
}

pub const NONE: i16 = i16::MIN / 4;

impl Parity {
    pub const EMPTY: Parity = Parity { even: 0, odd: NONE };
    pub const IMPOSSIBLE: Parity = Parity {
        even: NONE,
        odd: NONE,
    };

    fn of(total: i16) -> Parity {
        if total % 2 == 0 {
            Parity {
                even: total,
                odd: NONE,
            }
        } else {
            Parity {
                even: NONE,
                odd: total,
            }
        }
    }
    /// Best of both.
    pub fn max(self, o: Parity) -> Parity {
        Parity {
            even: self.even.max(o.even),
            odd: self.odd.max(o.odd),
        }
    }
    /// Splits of two independent parts put together.
    pub fn combine(self, o: Parity) -> Parity {
        let add = |a: i16, b: i16| if a == NONE || b == NONE { NONE } else { a + b };
        Parity {
            even: add(self.even, o.even).max(add(self.odd, o.odd)),
            odd: add(self.even, o.odd).max(add(self.odd, o.even)),
        }
    }
    /// Every total shifted by `n` lệnh.
    pub fn shift(self, n: i16) -> Parity {
        let add = |a: i16| if a == NONE { NONE } else { a + n };
        if n % 2 == 0 {
            Parity {
                even: add(self.even),
                odd: add(self.odd),
            }
        } else {
            Parity {
                even: add(self.odd),
                odd: add(self.even),
            }
        }
    }
    pub fn best(self) -> Option<i16> {
        let b = self.even.max(self.odd);
        (b != NONE).then_some(b)
    }
}

#[derive(Clone, Copy)]
struct Entry {
    min_rac: u8,
    complete: Parity,
}

struct Group {
    kinds: [Kind; 4],
    width: usize,
    templates: Vec<Template>,
}

impl Group {
    fn state(&self, h: &Hand) -> usize {
        self.kinds[..self.width]
            .iter()
            .fold(0, |acc, &k| acc * 5 + h.count(k) as usize)
    }
    fn counts(&self, h: &Hand) -> [u8; 4] {
        let mut c = [0; 4];
        for (i, &k) in self.kinds[..self.width].iter().enumerate() {
            c[i] = h.count(k);
        }
        c
    }
}

/// A callback over covers: the chosen `(template, multiplicity)` pairs and the leftover counts.
type Visit<'a> = &'a mut dyn FnMut(&[(usize, u8)], [u8; 4]);

/// Calls `visit(multiplicities, leftover)` for every way to cover `counts` with templates
/// (each template a chosen number of times, in template order, so every split appears once).
fn covers(
    counts: [u8; 4],
    templates: &[Template],
    chosen: &mut Vec<(usize, u8)>,
    start: usize,
    visit: Visit<'_>,
) {
    if start == templates.len() {
        visit(chosen, counts);
        return;
    }
    let t = templates[start];
    let mut rest = counts;
    let mut m = 0u8;
    loop {
        if m > 0 {
            chosen.push((start, m));
        }
        covers(rest, templates, chosen, start + 1, visit);
        if m > 0 {
            chosen.pop();
        }
        if (0..4).any(|i| rest[i] < t.need[i]) {
            break;
        }
        for (r, n) in rest.iter_mut().zip(t.need) {
            *r -= n;
        }
        m += 1;
    }
}

fn unit(i: usize, n: u8) -> [u8; 4] {
    let mut need = [0; 4];
    need[i] = n;
    need
}

fn build_group(kinds: &[Kind], set: Option<MeldKind>, with_general: bool) -> Group {
    let width = kinds.len();
    let mut templates = Vec::new();
    for i in 0..width {
        templates.push(Template {
            kind: MeldKind::Quad,
            need: unit(i, 4),
        });
        templates.push(Template {
            kind: MeldKind::Triple,
            need: unit(i, 3),
        });
        templates.push(Template {
            kind: MeldKind::Pair,
            need: unit(i, 2),
        });
    }
    if let Some(set) = set {
        templates.push(Template {
            kind: set,
            need: [1, 1, 1, 0],
        });
    } else {
        templates.push(Template {
            kind: MeldKind::FourSoldiers,
            need: [1, 1, 1, 1],
        });
        for missing in 0..4 {
            let mut need = [1; 4];
            need[missing] = 0;
            templates.push(Template {
                kind: MeldKind::ThreeSoldiers,
                need,
            });
        }
    }
    if with_general {
        templates.push(Template {
            kind: MeldKind::General,
            need: unit(0, 1),
        });
    }
    let mut ks = [kinds[0]; 4];
    ks[..width].copy_from_slice(kinds);
    Group {
        kinds: ks,
        width,
        templates,
    }
}

struct Tables {
    groups: Vec<Group>,
    /// Per group, per state.
    entries: Vec<Vec<Entry>>,
}

fn build_tables(set_lenh: i32) -> Tables {
    let mut groups = Vec::new();
    for c in 0..COLOURS as u8 {
        let g: Vec<Kind> = (GENERAL..=ELEPHANT).map(|p| Kind::new(p, c)).collect();
        groups.push(build_group(&g, Some(MeldKind::GeneralSet), true));
        let x: Vec<Kind> = (CHARIOT..SOLDIER).map(|p| Kind::new(p, c)).collect();
        groups.push(build_group(&x, Some(MeldKind::ChariotSet), false));
    }
    let p: Vec<Kind> = (0..COLOURS as u8).map(|c| Kind::new(SOLDIER, c)).collect();
    groups.push(build_group(&p, None, false));
    let entries = groups
        .iter()
        .map(|g| {
            let states = 5usize.pow(g.width as u32);
            (0..states)
                .map(|s| {
                    let mut counts = [0u8; 4];
                    let mut rest = s;
                    for i in (0..g.width).rev() {
                        counts[i] = (rest % 5) as u8;
                        rest /= 5;
                    }
                    let mut e = Entry {
                        min_rac: u8::MAX,
                        complete: Parity::IMPOSSIBLE,
                    };
                    covers(
                        counts,
                        &g.templates,
                        &mut Vec::new(),
                        0,
                        &mut |chosen, left| {
                            let rac: u8 = left.iter().sum();
                            e.min_rac = e.min_rac.min(rac);
                            if rac == 0 {
                                let lenh: i16 = chosen
                                    .iter()
                                    .map(|&(t, m)| {
                                        g.templates[t].kind.lenh_with(set_lenh) as i16 * m as i16
                                    })
                                    .sum();
                                e.complete = e.complete.max(Parity::of(lenh));
                            }
                        },
                    );
                    e
                })
                .collect()
        })
        .collect();
    Tables { groups, entries }
}

/// The decomposition tables for `set_lenh` 0 or 1 (any other value reads as 1: callers
/// validate it).
fn tables_for(set_lenh: i32) -> &'static Tables {
    static LITERAL: OnceLock<Tables> = OnceLock::new();
    static COMMON: OnceLock<Tables> = OnceLock::new();
    if set_lenh == 0 {
        LITERAL.get_or_init(|| build_tables(0))
    } else {
        COMMON.get_or_init(|| build_tables(1))
    }
}

fn tables() -> &'static Tables {
    tables_for(1)
}

/// The fewest rác (cards in no meld) over every split of the hand.
pub fn min_rac(h: &Hand) -> u32 {
    let t = tables();
    t.groups
        .iter()
        .zip(&t.entries)
        .map(|(g, e)| e[g.state(h)].min_rac as u32)
        .sum()
}

/// Best even and odd lệnh over the splits of `h` with no rác (every meld concealed), a
/// three-card set counting `set_lenh`.
pub fn complete_lenh(h: &Hand, set_lenh: i32) -> Parity {
    let t = tables_for(set_lenh);
    t.groups
        .iter()
        .zip(&t.entries)
        .fold(Parity::EMPTY, |acc, (g, e)| {
            acc.combine(e[g.state(h)].complete)
        })
}

/// Every meld the offer can join with cards of `hidden`: the meld's kind (with exposed values:
/// a claimed triple or quad) and the hand's cards it uses.
pub fn offer_melds(hidden: &Hand, offer: Kind) -> Vec<(MeldKind, Vec<Kind>)> {
    let mut out = Vec::new();
    let n = hidden.count(offer);
    if n >= 1 {
        out.push((MeldKind::Pair, vec![offer]));
    }
    if n >= 2 {
        out.push((MeldKind::ClaimedTriple, vec![offer; 2]));
    }
    if n >= 3 {
        out.push((MeldKind::ClaimedQuad, vec![offer; 3]));
    }
    let (piece, colour) = (offer.piece(), offer.colour());
    if piece == GENERAL {
        out.push((MeldKind::General, vec![]));
    }
    if piece != SOLDIER {
        let (base, set) = if piece <= ELEPHANT {
            (GENERAL, MeldKind::GeneralSet)
        } else {
            (CHARIOT, MeldKind::ChariotSet)
        };
        let others: Vec<Kind> = (base..base + 3)
            .filter(|&p| p != piece)
            .map(|p| Kind::new(p, colour))
            .collect();
        if others.iter().all(|&k| hidden.count(k) >= 1) {
            out.push((set, others));
        }
    } else {
        let others: Vec<Kind> = (0..COLOURS as u8)
            .filter(|&c| c != colour)
            .map(|c| Kind::new(SOLDIER, c))
            .filter(|&k| hidden.count(k) >= 1)
            .collect();
        for i in 0..others.len() {
            for j in i + 1..others.len() {
                out.push((MeldKind::ThreeSoldiers, vec![others[i], others[j]]));
            }
        }
        if others.len() == 3 {
            out.push((MeldKind::FourSoldiers, others));
        }
    }
    out
}

/// Best even and odd lệnh over the complete splits of `hidden` plus the offer (if any), where
/// the offer's meld is exposed (claimed) and every other meld concealed.
pub fn complete_lenh_with(hidden: &Hand, offer: Option<Kind>, set_lenh: i32) -> Parity {
    let Some(offer) = offer else {
        return complete_lenh(hidden, set_lenh);
    };
    offer_melds(hidden, offer)
        .into_iter()
        .fold(Parity::IMPOSSIBLE, |acc, (kind, used)| {
            let rest = hidden.minus(&Hand::from_kinds(&used));
            acc.max(complete_lenh(&rest, set_lenh).shift(kind.lenh_with(set_lenh) as i16))
        })
}

/// Bound on the lệnh of a seat's exposed melds (at most 22 cards at 2 lệnh per card).
pub const MAX_EXPOSED_LENH: i32 = 64;

/// Lệnh of the tới bonus.
pub const TOI: i32 = 3;

/// The winning total (lệnh of the split + exposed melds + tới), or `None` when the cards do not
/// win: no complete split, or none meeting the odd-lệnh rule (`scoring.odd_total`).
///
/// With `OddTotal::Hand` the parity is taken before the tới bonus. With `set_lenh = 1` every
/// meld's lệnh has the parity of its number of cards (đôi 0/2, Tướng 1/1, sets 1/3, khạp 3/3,
/// quằn 8/4, 4 Chốt 4/4, …), so the melds of a 21-card winning hand always total an odd number,
/// and odd + tới (3) is always even: `OddTotal::WithToi` then forbids every 21-card win.
pub fn win_total(
    hidden: &Hand,
    exposed_lenh: i32,
    offer: Option<Kind>,
    scoring: Scoring,
) -> Option<i32> {
    // Saturating: a value beyond MAX_EXPOSED_LENH (refused at the boundary) cannot wrap.
    let exposed = exposed_lenh.clamp(-MAX_EXPOSED_LENH, MAX_EXPOSED_LENH) as i16;
    let p = complete_lenh_with(hidden, offer, scoring.set_lenh).shift(exposed);
    let best = match scoring.odd_total {
        OddTotal::Hand => p.odd,
        OddTotal::WithToi => p.even,
        OddTotal::Off => p.even.max(p.odd),
    };
    (best != NONE).then_some(best as i32 + TOI)
}

/// Which concealed meld, if any, exactly these cards make (`Single` for one non-Tướng card).
pub fn classify(cards: &[Kind]) -> Option<MeldKind> {
    let h = Hand::from_kinds(cards);
    let first = *cards.first()?;
    if cards.iter().all(|&k| k == first) {
        return match cards.len() {
            1 if first.is_general() => Some(MeldKind::General),
            1 => Some(MeldKind::Single),
            2 => Some(MeldKind::Pair),
            3 => Some(MeldKind::Triple),
            4 => Some(MeldKind::Quad),
            _ => None,
        };
    }
    let colours_distinct = h.0.iter().all(|&c| c <= 1);
    if !colours_distinct {
        return None;
    }
    if cards.iter().all(|k| k.piece() == SOLDIER) {
        return match cards.len() {
            3 => Some(MeldKind::ThreeSoldiers),
            4 => Some(MeldKind::FourSoldiers),
            _ => None,
        };
    }
    if cards.len() != 3 || cards.iter().any(|k| k.colour() != first.colour()) {
        return None;
    }
    let mut pieces: Vec<u8> = cards.iter().map(|k| k.piece()).collect();
    pieces.sort_unstable();
    match pieces.as_slice() {
        [0, 1, 2] => Some(MeldKind::GeneralSet),
        [3, 4, 5] => Some(MeldKind::ChariotSet),
        _ => None,
    }
}

/// Most splits [`min_rac_splits`] returns, whatever `limit` asks for.
pub const MAX_SPLITS: usize = 10_000;

/// Every split of `h` with the fewest rác, each a list of melds (leftover cards as `Single`),
/// best lệnh first; at most `limit` splits (and at most [`MAX_SPLITS`]). Meant for hands of
/// at most [`MAX_HAND`](super::cards::MAX_HAND) cards (see [`Hand::checked`]).
pub fn min_rac_splits(h: &Hand, limit: usize) -> Vec<Vec<Meld>> {
    let limit = limit.min(MAX_SPLITS);
    let t = tables();
    let mut per_group: Vec<Vec<Vec<Meld>>> = Vec::new();
    for (g, entries) in t.groups.iter().zip(&t.entries) {
        let counts = g.counts(h);
        let target = entries[g.state(h)].min_rac;
        let mut options = Vec::new();
        covers(
            counts,
            &g.templates,
            &mut Vec::new(),
            0,
            &mut |chosen, left| {
                if left.iter().sum::<u8>() != target {
                    return;
                }
                let mut melds = Vec::new();
                for &(ti, m) in chosen {
                    let tpl = g.templates[ti];
                    let cards: Vec<Kind> = (0..g.width)
                        .flat_map(|i| std::iter::repeat(g.kinds[i]).take(tpl.need[i] as usize))
                        .collect();
                    for _ in 0..m {
                        melds.push(Meld {
                            kind: tpl.kind,
                            cards: cards.clone(),
                        });
                    }
                }
                for (&k, &n) in g.kinds.iter().zip(&left).take(g.width) {
                    for _ in 0..n {
                        melds.push(Meld {
                            kind: MeldKind::Single,
                            cards: vec![k],
                        });
                    }
                }
                options.push(melds);
            },
        );
        per_group.push(options);
    }
    let mut splits: Vec<Vec<Meld>> = vec![Vec::new()];
    for options in per_group {
        let mut next = Vec::new();
        'outer: for s in &splits {
            for o in &options {
                let mut v = s.clone();
                v.extend(o.iter().cloned());
                next.push(v);
                if next.len() >= limit {
                    break 'outer;
                }
            }
        }
        splits = next;
    }
    for s in &mut splits {
        s.sort_by(|a, b| a.cards.cmp(&b.cards).then(a.kind.cmp(&b.kind)));
    }
    splits.sort_by_key(|s| std::cmp::Reverse(s.iter().map(|m| m.kind.lenh()).sum::<i32>()));
    splits
}

#[cfg(test)]
mod tests {
    use super::super::cards::parse_hand;
    use super::*;

    fn h(text: &str) -> Hand {
        parse_hand(text).unwrap()
    }

    #[test]
    fn min_rac_examples() {
        assert_eq!(min_rac(&h("RR RR CR HR")), 1);
        assert_eq!(min_rac(&h("KY")), 0);
        assert_eq!(min_rac(&h("AY")), 1);
        assert_eq!(min_rac(&h("PY PR PG PW")), 0);
        assert_eq!(min_rac(&h("PY PY PR PG")), 1);
        assert_eq!(min_rac(&h("")), 0);
    }

    #[test]
    fn lenh_examples() {
        assert_eq!(complete_lenh(&h("KY KY KY"), 1).best(), Some(3));
        assert_eq!(complete_lenh(&h("PY PR PG PW"), 1).best(), Some(4));
        assert_eq!(complete_lenh(&h("HG HG HG HG"), 1).best(), Some(8));
        // a three-card set counts `set_lenh`
        assert_eq!(complete_lenh(&h("RY CY HY PY PR PG"), 1).best(), Some(2));
        assert_eq!(complete_lenh(&h("RY CY HY PY PR PG"), 0).best(), Some(0));
        // offer onto a pair: 3 con khui (1), onto a khạp: 4 con khui (6)
        assert_eq!(
            complete_lenh_with(&h("HG HG"), Some(Kind::new(5, 2)), 1).best(),
            Some(1)
        );
        assert_eq!(
            complete_lenh_with(&h("HG HG HG"), Some(Kind::new(5, 2)), 1).best(),
            Some(6)
        );
        // Tướng–Sĩ–Tượng (1) is odd: 1 + tới 3 = 4; with 1 lệnh more on the table, even: no win
        let er = Some(Kind::new(2, 1));
        let rule = |odd_total, set_lenh| Scoring {
            odd_total,
            set_lenh,
        };
        assert_eq!(win_total(&h("KR AR"), 0, er, Scoring::default()), Some(4));
        assert_eq!(win_total(&h("KR AR"), 1, er, Scoring::default()), None);
        assert_eq!(
            win_total(&h("KR AR"), 1, er, rule(OddTotal::Off, 1)),
            Some(5)
        );
        // counted with tới: 1 + 3 = 4 is even, 2 + 3 = 5 odd
        assert_eq!(
            win_total(&h("KR AR"), 0, er, rule(OddTotal::WithToi, 1)),
            None
        );
        assert_eq!(
            win_total(&h("KR AR"), 1, er, rule(OddTotal::WithToi, 1)),
            Some(5)
        );
        // the seed's table read literally: the set is worth 0, an even hand
        assert_eq!(win_total(&h("KR AR"), 0, er, rule(OddTotal::Hand, 0)), None);
        assert_eq!(
            win_total(&h("KR AR"), 0, er, rule(OddTotal::Off, 0)),
            Some(3)
        );
    }

    #[test]
    fn splits_listing() {
        let s = min_rac_splits(&h("RR RR CR HR"), 100);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].len(), 2);
    }
}
