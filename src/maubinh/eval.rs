//! Table-driven hand evaluation under Mậu Binh rules.
//!
//! Suits only make flushes; ties are decided by ranks alone, so a 5-card hand's strength is a
//! function of its rank multiset and one flush flag. Cards are sorted in Tiến Lên order (rank
//! index 0 = `3` … 12 = `2`), so the ranks of a card mask come out non-decreasing and their
//! multiset has a perfect index in the combinatorial number system:
//! `Σ_k C(r_k + k - 1, k)` for sorted ranks `r_1 ≤ … ≤ r_n` (6,188 multisets of 5 ranks,
//! 455 of 3). One table lookup per hand then gives its dense strength class (0 = weakest;
//! 7,462 classes for 5 cards, 455 for 3 cards). Mậu Binh ranks `2 < 3 < … < A` are used inside
//! the tables only.

use std::sync::OnceLock;

/// 5-card categories, weakest first.
pub const CATEGORY_NAMES: [&str; 9] = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
];
pub const HIGH_CARD: u8 = 0;
pub const PAIR: u8 = 1;
pub const TWO_PAIR: u8 = 2;
pub const TRIPS: u8 = 3;
pub const STRAIGHT: u8 = 4;
pub const FLUSH: u8 = 5;
pub const FULL_HOUSE: u8 = 6;
pub const QUADS: u8 = 7;
pub const STRAIGHT_FLUSH: u8 = 8;

/// Distinct 5-card strength classes (the same count as in poker: the wheel only moves).
pub const CLASSES5: usize = 7462;
/// Distinct 3-card (front) strength classes: 286 high cards, 156 pairs, 13 trips.
pub const CLASSES3: usize = 455;
const MULTISETS5: usize = 6188;

/// `BINOM[n][k] = C(n, k)` for n < 17, k ≤ 5.
const BINOM: [[u16; 6]; 17] = {
    let mut t = [[0u16; 6]; 17];
    let mut n = 0;
    while n < 17 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The contribution of the `k`-th smallest rank (k from 1) to a multiset index.
#[inline(always)]
pub(crate) fn multiset_term(rank: u32, k: u32) -> u16 {
    BINOM[(rank + k - 1) as usize][k as usize]
}

/// `CARD_TERMS[k][card]`: the multiset-index term of `card` as the (k+1)-th lowest of five
/// (index 52..63 unused, so a short mask cannot read out of bounds).
const CARD_TERMS: [[u16; 64]; 5] = {
    let mut t = [[0u16; 64]; 5];
    let mut k = 0;
    while k < 5 {
        let mut c = 0;
        while c < 52 {
            t[k][c] = BINOM[c / 4 + k][k + 1];
            c += 1;
        }
        k += 1;
    }
    t
};

/// Mậu Binh rank (2 = 0 … A = 12) of a Tiến Lên rank index (3 = 0 … A = 11, 2 = 12).
#[inline]
pub const fn mb_rank(tl_rank: u8) -> u8 {
    if tl_rank == 12 {
        0
    } else {
        tl_rank + 1
    }
}

/// How the A-2-3-4-5 straight ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wheel {
    /// Second-highest straight, below 10-J-Q-K-A (default).
    Second,
    /// The lowest straight.
    Lowest,
}

/// Lookup tables for one wheel option.
pub struct Evaluator {
    /// Dense class of a non-flush 5-card multiset (index by multiset index).
    plain5: Vec<u16>,
    /// Dense class of a flush (5 distinct ranks, one suit), by multiset index.
    flush5: Vec<u16>,
    /// Front-comparable key of a non-flush 5-card multiset (see [`front_key`]).
    front_key5: Vec<u16>,
    /// Category of each dense 5-card class.
    category5: Vec<u8>,
    /// Dense class of each 3-card multiset, which is also its front key order.
    class3: Vec<u16>,
    /// Front key of each 3-card multiset.
    front_key3: Vec<u16>,
    /// Category (high card, pair or trips) of each dense 3-card class.
    category3: Vec<u8>,
    /// `cap5[category][lead rank]`: the strongest 5-card class of that category whose most
    /// important rank (a straight's top card; 5 for A-2-3-4-5) is `lead` (Mậu Binh ranks).
    cap5: [[u16; 13]; 9],
    /// The same for 3-card fronts (categories 0, 1 and 3).
    cap3: [[u16; 13]; 4],
    /// `ceiling[c]`: the strongest front class that may sit under a middle of class `c`.
    ceiling: Vec<u16>,
}

/// Front key of a hand that is a straight or better: above every front.
const FRONT_KEY_TOP: u16 = 4 << 12;

/// Category and ranks in order of importance (most copies first, then higher rank).
fn shape(mb: &[u8]) -> (u8, Vec<u8>) {
    let mut counts = [0u8; 13];
    for &r in mb {
        counts[r as usize] += 1;
    }
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let ranks: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let pattern: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let cat = match pattern.as_slice() {
        [4, ..] => QUADS,
        [3, 2] => FULL_HOUSE,
        [3, ..] => TRIPS,
        [2, 2, ..] => TWO_PAIR,
        [2, ..] => PAIR,
        _ => HIGH_CARD,
    };
    (cat, ranks)
}

/// Straight height code for 5 distinct Mậu Binh ranks, or None. Heights are 2 × top rank, so the
/// wheel fits between K-high (22) and A-high (24) when it is second, or below 6-high when lowest.
fn straight_height(distinct_desc: &[u8], wheel: Wheel) -> Option<u32> {
    if distinct_desc.len() != 5 {
        return None;
    }
    if distinct_desc[0] - distinct_desc[4] == 4 {
        return Some(2 * distinct_desc[0] as u32);
    }
    // A-2-3-4-5 in Mậu Binh ranks: A = 12, 5 = 3, 4 = 2, 3 = 1, 2 = 0.
    if distinct_desc == [12, 3, 2, 1, 0] {
        return Some(match wheel {
            Wheel::Second => 23,
            Wheel::Lowest => 6,
        });
    }
    None
}

fn pack(cat: u8, ranks: &[u32]) -> u64 {
    let mut key = cat as u64;
    for i in 0..5 {
        key = (key << 5) | ranks.get(i).copied().unwrap_or(0) as u64;
    }
    key
}

/// Front-comparable key: category among high card (0) < pair (1) < two pair (2) < trips (3) <
/// anything stronger (4), then only the ranks a front can have (three for high card, pair rank
/// and one kicker, the trips rank), high to low.
fn front_key(cat: u8, ranks: &[u8]) -> u16 {
    let (c, used) = match cat {
        HIGH_CARD => (0u16, 3),
        PAIR => (1, 2),
        TWO_PAIR => return 2 << 12,
        TRIPS => (3, 1),
        _ => return FRONT_KEY_TOP,
    };
    let mut key = c;
    for i in 0..3 {
        let r = ranks.get(i).filter(|_| i < used).map_or(0, |&r| r as u16);
        key = (key << 4) | r;
    }
    key
}

/// Every multiset of `n` Tiến Lên ranks with at most 4 copies each, sorted, with its index.
fn multisets(n: usize) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut cur = vec![0u8; n];
    fn rec(pos: usize, min: u8, cur: &mut Vec<u8>, out: &mut Vec<(usize, Vec<u8>)>) {
        if pos == cur.len() {
            let idx: usize = cur
                .iter()
                .enumerate()
                .map(|(k, &r)| multiset_term(r as u32, k as u32 + 1) as usize)
                .sum();
            out.push((idx, cur.clone()));
            return;
        }
        for r in min..13 {
            cur[pos] = r;
            if pos >= 4 && cur[pos - 4..=pos].iter().all(|&x| x == r) {
                continue; // five of one rank is not in the deck
            }
            rec(pos + 1, r, cur, out);
        }
    }
    rec(0, 0, &mut cur, &mut out);
    out
}

impl Evaluator {
    fn build(wheel: Wheel) -> Evaluator {
        // 5 cards: raw keys, then dense classes by sorting the distinct keys.
        let mut plain_raw = vec![None; MULTISETS5];
        let mut flush_raw = vec![None; MULTISETS5];
        let mut front_key5 = vec![0u16; MULTISETS5];
        for (idx, tl) in multisets(5) {
            let mb: Vec<u8> = tl.iter().map(|&r| mb_rank(r)).collect();
            let (cat, ranks) = shape(&mb);
            let height = straight_height(&ranks, wheel);
            let (plain_cat, plain_ranks): (u8, Vec<u32>) = match height {
                Some(h) => (STRAIGHT, vec![h]),
                None => (cat, ranks.iter().map(|&r| r as u32).collect()),
            };
            plain_raw[idx] = Some((pack(plain_cat, &plain_ranks), plain_cat));
            front_key5[idx] = front_key(plain_cat, &ranks);
            if ranks.len() == 5 {
                flush_raw[idx] = Some(match height {
                    Some(h) => (pack(STRAIGHT_FLUSH, &[h]), STRAIGHT_FLUSH),
                    None => (pack(FLUSH, &plain_ranks), FLUSH),
                });
            }
        }
        let mut keys: Vec<(u64, u8)> = plain_raw
            .iter()
            .chain(flush_raw.iter())
            .flatten()
            .copied()
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), CLASSES5, "5-card class count");
        let dense = |raw: &Option<(u64, u8)>| -> u16 {
            raw.map_or(0, |(k, _)| {
                keys.binary_search_by_key(&k, |e| e.0).expect("key") as u16
            })
        };
        let plain5: Vec<u16> = plain_raw.iter().map(dense).collect();
        let flush5: Vec<u16> = flush_raw.iter().map(dense).collect();
        let category5: Vec<u8> = keys.iter().map(|k| k.1).collect();
        let mut cap5 = [[0u16; 13]; 9];
        for (idx, tl) in multisets(5) {
            let mb: Vec<u8> = tl.iter().map(|&r| mb_rank(r)).collect();
            let (_, ranks) = shape(&mb);
            let lead = match straight_height(&ranks, wheel) {
                Some(_) if ranks[0] == 12 && ranks[1] == 3 => 3,
                _ => ranks[0],
            } as usize;
            // A non-flush multiset's flush class is 0, which never raises a cap.
            for class in [plain5[idx], flush5[idx]] {
                let cat = category5[class as usize] as usize;
                cap5[cat][lead] = cap5[cat][lead].max(class);
            }
        }

        // 3 cards: the front key is already a total order.
        let mut class3 = vec![0u16; CLASSES3];
        let mut front_key3 = vec![0u16; CLASSES3];
        let mut cats3 = vec![0u8; CLASSES3];
        for (idx, tl) in multisets(3) {
            let mb: Vec<u8> = tl.iter().map(|&r| mb_rank(r)).collect();
            let (cat, ranks) = shape(&mb);
            front_key3[idx] = front_key(cat, &ranks);
            cats3[idx] = cat;
        }
        let mut order: Vec<usize> = (0..CLASSES3).collect();
        order.sort_unstable_by_key(|&i| front_key3[i]);
        let mut category3 = vec![0u8; CLASSES3];
        for (dense, &i) in order.iter().enumerate() {
            class3[i] = dense as u16;
            category3[dense] = cats3[i];
        }
        // The front key of every 5-card class (flushes and better are above every front).
        let mut key_of_class = vec![FRONT_KEY_TOP; CLASSES5];
        for idx in 0..MULTISETS5 {
            if plain_raw[idx].is_some() {
                key_of_class[plain5[idx] as usize] = front_key5[idx];
            }
        }
        let mut keys3 = front_key3.clone();
        keys3.sort_unstable();
        let ceiling = key_of_class
            .iter()
            .map(|&k| (keys3.partition_point(|&f| f <= k) - 1) as u16)
            .collect();
        let mut cap3 = [[0u16; 13]; 4];
        for (idx, tl) in multisets(3) {
            let mb: Vec<u8> = tl.iter().map(|&r| mb_rank(r)).collect();
            let (cat, ranks) = shape(&mb);
            let slot = &mut cap3[cat as usize][ranks[0] as usize];
            *slot = (*slot).max(class3[idx]);
        }
        Evaluator {
            plain5,
            flush5,
            front_key5,
            category5,
            class3,
            front_key3,
            category3,
            cap5,
            cap3,
            ceiling,
        }
    }

    /// The shared tables for a wheel option (built once).
    pub fn get(wheel: Wheel) -> &'static Evaluator {
        static SECOND: OnceLock<Evaluator> = OnceLock::new();
        static LOWEST: OnceLock<Evaluator> = OnceLock::new();
        match wheel {
            Wheel::Second => SECOND.get_or_init(|| Evaluator::build(Wheel::Second)),
            Wheel::Lowest => LOWEST.get_or_init(|| Evaluator::build(Wheel::Lowest)),
        }
    }

    /// Class of a 5-card hand given its multiset index and flush flag.
    #[inline(always)]
    pub fn class5_of(&self, multiset: u16, flush: bool) -> u16 {
        if flush {
            self.flush5[multiset as usize]
        } else {
            self.plain5[multiset as usize]
        }
    }

    /// Front key of a 5-card hand (for the front-against-middle foul check).
    #[inline(always)]
    pub fn front_key5_of(&self, multiset: u16, flush: bool) -> u16 {
        if flush {
            FRONT_KEY_TOP
        } else {
            self.front_key5[multiset as usize]
        }
    }

    #[inline(always)]
    pub fn class3_of(&self, multiset: u16) -> u16 {
        self.class3[multiset as usize]
    }

    #[inline(always)]
    pub fn front_key3_of(&self, multiset: u16) -> u16 {
        self.front_key3[multiset as usize]
    }

    /// Strength class of exactly five cards (a 52-bit mask with 5 bits set), 0 = weakest.
    #[inline]
    pub fn class5(&self, mask: u64) -> u16 {
        // Unrolled: five lowest set bits, their multiset terms, and one suit test.
        let mut m = mask;
        let mut take = || {
            let c = m.trailing_zeros() & 63;
            m &= m.wrapping_sub(1);
            c as usize
        };
        let (c0, c1, c2, c3, c4) = (take(), take(), take(), take(), take());
        let t = &CARD_TERMS;
        let ms = t[0][c0] + t[1][c1] + t[2][c2] + t[3][c3] + t[4][c4];
        let suits = (1u32 << (c0 & 3))
            | (1 << (c1 & 3))
            | (1 << (c2 & 3))
            | (1 << (c3 & 3))
            | (1 << (c4 & 3));
        self.class5_of(ms, suits.is_power_of_two())
    }

    /// Strength class of exactly three cards, 0 = weakest.
    #[inline]
    pub fn class3(&self, mask: u64) -> u16 {
        self.class3_of(multiset_index(mask).0)
    }

    /// Category (index into [`CATEGORY_NAMES`]) of a 5-card class.
    pub fn category5(&self, class: u16) -> u8 {
        self.category5[class as usize]
    }

    /// Category (high card, pair or three of a kind) of a 3-card class.
    pub fn category3(&self, class: u16) -> u8 {
        self.category3[class as usize]
    }

    /// The strongest 5-card class of a category whose lead rank is `lead` (see `cap5`).
    #[inline(always)]
    pub fn cap5(&self, category: u8, lead: u32) -> u16 {
        self.cap5[category as usize][lead as usize]
    }

    /// The strongest front class of a category (0, 1 or 3) whose lead rank is `lead`.
    #[inline(always)]
    pub fn cap3(&self, category: u8, lead: u32) -> u16 {
        self.cap3[category as usize][lead as usize]
    }

    /// The strongest front class that may sit under a middle of 5-card class `class`.
    #[inline(always)]
    pub fn front_ceiling(&self, class: u16) -> u16 {
        self.ceiling[class as usize]
    }

    /// Whether a front may sit under a middle: compared by category, then only as many ranks
    /// as the front has (docs/rules/maubinh.md "Valid arrangement").
    #[inline]
    pub fn front_fits(&self, front: u64, middle: u64) -> bool {
        let (mf, _) = multiset_index(front);
        let (mm, flush) = multiset_index(middle);
        self.front_key3_of(mf) <= self.front_key5_of(mm, flush)
    }
}

/// The class of a row of five card indices (the batch form of `hand_ranks`), or None if an
/// index is above 51 or repeated. Branch-free checks: rows are usually valid.
#[inline(always)]
pub fn class5_of_row(row: &[u8], ev: &Evaluator) -> Option<u16> {
    let &[a, b, c, d, e] = <&[u8; 5]>::try_from(row).ok()?;
    // A sorting network (nine compare-exchanges, branch-free): card order is rank order.
    let mut v = [a, b, c, d, e];
    for (i, j) in [
        (0, 1),
        (3, 4),
        (2, 4),
        (2, 3),
        (0, 3),
        (0, 2),
        (1, 4),
        (1, 3),
        (1, 2),
    ] {
        let (lo, hi) = (v[i].min(v[j]), v[i].max(v[j]));
        v[i] = lo;
        v[j] = hi;
    }
    let [c0, c1, c2, c3, c4] = v;
    if !(c0 < c1 && c1 < c2 && c2 < c3 && c3 < c4 && c4 < 52) {
        return None;
    }
    let t = &CARD_TERMS;
    let (c0, c1, c2, c3, c4) = (
        c0 as usize,
        c1 as usize,
        c2 as usize,
        c3 as usize,
        c4 as usize,
    );
    let ms = t[0][c0] + t[1][c1] + t[2][c2] + t[3][c3] + t[4][c4];
    let suits =
        (1u32 << (c0 & 3)) | (1 << (c1 & 3)) | (1 << (c2 & 3)) | (1 << (c3 & 3)) | (1 << (c4 & 3));
    Some(ev.class5_of(ms, suits.is_power_of_two()))
}

/// Multiset index of the ranks of a card mask and whether all cards share one suit.
#[inline(always)]
pub fn multiset_index(mask: u64) -> (u16, bool) {
    let mut m = mask;
    let mut idx = 0u16;
    let mut suits = 0u32;
    let mut k = 1;
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        idx += multiset_term(c >> 2, k);
        suits |= 1 << (c & 3);
        k += 1;
    }
    (idx, suits.is_power_of_two())
}

#[cfg(test)]
mod tests {

    #[test]
    fn row_kernel_agrees_with_the_mask_evaluator() {
        let ev = Evaluator::get(Wheel::Second);
        let mut n = 0u32;
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            n += 1;
                            let mask = [a, b, c, d, e].iter().map(|&x| 1u64 << x).sum();
                            // Rotate the order so unsorted rows are covered too.
                            let rows = [[a, b, c, d, e], [e, c, a, d, b], [d, e, b, a, c]];
                            let row = &rows[(n % 3) as usize];
                            assert_eq!(class5_of_row(row, ev), Some(ev.class5(mask)));
                        }
                    }
                }
            }
        }
        assert_eq!(n, 2_598_960);
        for bad in [
            [1, 1, 2, 3, 4],
            [0, 1, 2, 3, 52],
            [255, 0, 1, 2, 3],
            [7, 3, 9, 3, 1],
        ] {
            assert_eq!(class5_of_row(&bad, ev), None);
        }
        assert_eq!(class5_of_row(&[0, 1, 2, 3], ev), None);
    }

    use super::*;
    use crate::cards::parse_card_set;

    fn m(text: &str) -> u64 {
        parse_card_set(text).unwrap().1 .0
    }

    #[test]
    fn class_counts_and_extremes() {
        let ev = Evaluator::get(Wheel::Second);
        assert_eq!(ev.class5(m("As Ks Qs Js Ts")) as usize, CLASSES5 - 1);
        assert_eq!(ev.class5(m("2s 3c 4d 5h 7s")), 0);
        assert_eq!(ev.class3(m("As Ac Ad")) as usize, CLASSES3 - 1);
        assert_eq!(ev.class3(m("2s 3c 4d")), 0);
    }

    #[test]
    fn wheel_placement() {
        for (wheel, above_king) in [(Wheel::Second, true), (Wheel::Lowest, false)] {
            let ev = Evaluator::get(wheel);
            let wheel_hand = ev.class5(m("As 2c 3d 4h 5s"));
            let king = ev.class5(m("9s Tc Jd Qh Ks"));
            let six = ev.class5(m("2s 3c 4d 5h 6s"));
            let ace = ev.class5(m("Ts Jc Qd Kh As"));
            assert_eq!(wheel_hand > king, above_king);
            assert!(wheel_hand < ace);
            assert_eq!(wheel_hand > six, above_king);
        }
    }

    #[test]
    fn suits_never_break_ties() {
        let ev = Evaluator::get(Wheel::Second);
        assert_eq!(
            ev.class5(m("Ks Kc 9d 5h 2s")),
            ev.class5(m("Kd Kh 9s 5c 2h"))
        );
        assert!(ev.class5(m("Ks Kc 9d 5h 3s")) > ev.class5(m("Kd Kh 9s 5c 2h")));
    }

    #[test]
    fn the_front_ceiling_never_falls_as_the_middle_grows() {
        // The solver's class floor bounds a back of class c by a middle of class c and a
        // front at this ceiling: a binary search over c needs it non-decreasing.
        for wheel in [Wheel::Second, Wheel::Lowest] {
            let ev = Evaluator::get(wheel);
            for c in 1..CLASSES5 as u16 {
                assert!(
                    ev.front_ceiling(c - 1) <= ev.front_ceiling(c),
                    "{wheel:?}: class {c}"
                );
            }
        }
    }

    #[test]
    fn front_against_middle() {
        let ev = Evaluator::get(Wheel::Second);
        assert!(ev.front_fits(m("As Kc Qd"), m("Ah Kd Qc Js 9s")));
        assert!(!ev.front_fits(m("As Kc Qd"), m("Ah Kd Jc Ts 9s")));
        assert!(ev.front_fits(m("Qs Qc 3d"), m("Qh Qd 3c 2s 4s")));
        assert!(!ev.front_fits(m("Qs Qc 5d"), m("Qh Qd 4c 2s 3s")));
        assert!(ev.front_fits(m("As Ac Ad"), m("2h 3d 4c 5s 6s")));
        assert!(!ev.front_fits(m("3s 3c 3d"), m("Ah Ad Kc Ks 6s")));
        assert!(ev.front_fits(m("As Ac Kd"), m("2h 2d 3c 3s 6s")));
        // The ceiling agrees with the pairwise check.
        for (front, middle) in [
            ("As Kc Qd", "Ah Kd Qc Js 9s"),
            ("As Kc Qd", "Ah Kd Jc Ts 9s"),
            ("Qs Qc 5d", "Qh Qd 4c 2s 3s"),
        ] {
            let fits = ev.class3(m(front)) <= ev.front_ceiling(ev.class5(m(middle)));
            assert_eq!(fits, ev.front_fits(m(front), m(middle)));
        }
    }
}
