//! Instant wins (mậu binh trắng): a 13-card hand paid by every opponent without comparing.

use super::eval::mb_rank;
use super::{Arrangement, Rules, Scoring};
use crate::cards::{CardSet, SUIT_MASK};

/// The six instant wins, weakest first (so `Ord` is strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Instant {
    /// ba sảnh: a valid arrangement of three straights (front: three consecutive ranks).
    ThreeStraights,
    /// ba thùng: a valid arrangement of three flushes (front: three cards of one suit).
    ThreeFlushes,
    /// lục phé bôn: six pairs and a single (four of a kind counts as two pairs).
    SixPairs,
    /// năm đôi một sám: five pairs and a triple (four of a kind counts as two pairs).
    FivePairsTriple,
    /// sảnh rồng: 2 through A.
    Dragon,
    /// rồng cuốn: 2 through A of one suit.
    DragonFlush,
}

impl Instant {
    /// Every kind, strongest first.
    pub const STRONGEST_FIRST: [Instant; 6] = [
        Instant::DragonFlush,
        Instant::Dragon,
        Instant::FivePairsTriple,
        Instant::SixPairs,
        Instant::ThreeFlushes,
        Instant::ThreeStraights,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Instant::ThreeStraights => "three_straights",
            Instant::ThreeFlushes => "three_flushes",
            Instant::SixPairs => "six_pairs",
            Instant::FivePairsTriple => "five_pairs_triple",
            Instant::Dragon => "dragon",
            Instant::DragonFlush => "dragon_flush",
        }
    }

    /// Units paid by each opponent (seed 004).
    pub fn units(self) -> i64 {
        match self {
            Instant::DragonFlush => 24,
            Instant::Dragon => 12,
            Instant::FivePairsTriple => 6,
            Instant::SixPairs | Instant::ThreeFlushes | Instant::ThreeStraights => 3,
        }
    }
}

/// The strongest instant win of 13 cards, if any (None for any other card count, and under
/// 4-2 scoring, which has none).
pub fn instant_win(mask: u64, rules: &Rules) -> Option<Instant> {
    if mask.count_ones() != 13 || rules.scoring == Scoring::FourTwo {
        return None;
    }
    let set = CardSet(mask);
    let counts = set.rank_counts();
    if counts.iter().all(|&c| c == 1) {
        let one_suit = (0..4).any(|s| mask & (SUIT_MASK << s) == mask);
        return Some(if one_suit {
            Instant::DragonFlush
        } else {
            Instant::Dragon
        });
    }
    let pairs: u32 = counts.iter().map(|&c| c as u32 / 2).sum();
    if pairs == 6 {
        let triples = counts.iter().filter(|&&c| c == 3).count();
        let singles = counts.iter().filter(|&&c| c == 1).count();
        return Some(if triples == 1 && singles == 0 {
            Instant::FivePairsTriple
        } else {
            Instant::SixPairs
        });
    }
    if three_flushes(mask, rules).is_some() {
        return Some(Instant::ThreeFlushes);
    }
    three_straights(mask, rules).map(|_| Instant::ThreeStraights)
}

/// Puts the stronger 5-card hand at the back.
fn ordered(a: u64, b: u64, front: u64, rules: &Rules) -> Arrangement {
    let ev = rules.evaluator();
    let (back, middle) = if ev.class5(a) >= ev.class5(b) {
        (a, b)
    } else {
        (b, a)
    };
    Arrangement {
        back,
        middle,
        front,
    }
}

/// Takes the `n` lowest cards of `pool`.
fn take_lowest(pool: u64, n: u32) -> u64 {
    let mut out = 0u64;
    let mut rest = pool;
    for _ in 0..n {
        let low = rest & rest.wrapping_neg();
        out |= low;
        rest ^= low;
    }
    out
}

/// A valid arrangement of three flushes (ba thùng), if the 13 cards have one.
pub fn three_flushes(mask: u64, rules: &Rules) -> Option<Arrangement> {
    let suit = |s: u8| mask & (SUIT_MASK << s);
    let count = |s: u8| suit(s).count_ones();
    for sb in 0..4u8 {
        for sm in sb..4u8 {
            for sf in 0..4u8 {
                let fits = (0..4u8).all(|s| {
                    5 * (s == sb) as u32 + 5 * (s == sm) as u32 + 3 * (s == sf) as u32 == count(s)
                });
                if fits {
                    let back = take_lowest(suit(sb), 5);
                    let middle = take_lowest(suit(sm) & !back, 5);
                    return Some(ordered(back, middle, mask & !back & !middle, rules));
                }
            }
        }
    }
    None
}

/// Rank windows of `LEN` consecutive Mậu Binh ranks (the ace also plays low, before the 2), as
/// count vectors packed 3 bits per rank so that they add without carries: 10 straights of five,
/// 12 runs of three (A-2-3 … Q-K-A).
const fn windows<const N: usize>(len: u32) -> [u64; N] {
    let mut out = [0u64; N];
    let mut start = 0;
    while start <= 13 - len {
        let mut r = start;
        while r < start + len {
            out[start as usize] += 1u64 << (3 * r);
            r += 1;
        }
        start += 1;
    }
    let mut low = 1u64 << 36;
    let mut r = 0;
    while r < len - 1 {
        low += 1u64 << (3 * r);
        r += 1;
    }
    out[N - 1] = low;
    out
}
const FIVES: [u64; 10] = windows::<10>(5);
const THREES: [u64; 12] = windows::<12>(3);

/// A valid arrangement of three straights (ba sảnh), if the 13 cards have one.
pub fn three_straights(mask: u64, rules: &Rules) -> Option<Arrangement> {
    let set = CardSet(mask);
    let mut target = 0u64;
    for (tl, &c) in set.rank_counts().iter().enumerate() {
        target += (c as u64) << (3 * mb_rank(tl as u8) as u64);
    }
    for (i, &a) in FIVES.iter().enumerate() {
        for &b in &FIVES[i..] {
            for &f in &THREES {
                if a + b + f == target {
                    let mut pool = mask;
                    let mut pick = |w: u64| -> u64 {
                        let mut hand = 0u64;
                        for mb in 0..13u8 {
                            if (w >> (3 * mb)) & 7 != 0 {
                                let tl = if mb == 0 { 12 } else { mb - 1 };
                                let card = take_lowest(pool & (0xFu64 << (4 * tl)), 1);
                                hand |= card;
                                pool &= !card;
                            }
                        }
                        hand
                    };
                    let (back, middle, front) = (pick(a), pick(b), pick(f));
                    return Some(ordered(back, middle, front, rules));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    fn kind(text: &str) -> Option<Instant> {
        instant_win(parse_card_set(text).unwrap().1 .0, &Rules::default())
    }

    #[test]
    fn strongest_first_is_in_order() {
        let order = Instant::STRONGEST_FIRST;
        assert!(order
            .windows(2)
            .all(|w| w[0] > w[1] && w[0].units() >= w[1].units()));
    }

    #[test]
    fn each_kind() {
        assert_eq!(
            kind("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"),
            Some(Instant::DragonFlush)
        );
        assert_eq!(
            kind("2s 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"),
            Some(Instant::Dragon)
        );
        assert_eq!(
            kind("2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 7d"),
            Some(Instant::FivePairsTriple)
        );
        assert_eq!(
            kind("2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8d"),
            Some(Instant::SixPairs)
        );
        assert_eq!(
            kind("2s 2h 2c 2d 4s 4h 5s 5h 6s 6h 7s 7h 8d"),
            Some(Instant::SixPairs)
        );
        assert_eq!(
            kind("2s 3s 5s 7s 9s 2h 3h 5h 7h 9h 2d 3d 5d"),
            Some(Instant::ThreeFlushes)
        );
        assert_eq!(
            kind("As 2h 3d 4s 5s 2c 3c 4c 5c 6h 7d 8c 9h"),
            Some(Instant::ThreeStraights)
        );
        assert_eq!(kind("As 2h 3d 4s 5s 2c 3c 4c 5c 6h 7d 8c Tc"), None);
    }

    #[test]
    fn witnesses_are_valid() {
        let rules = Rules::default();
        for text in [
            "2s 3s 5s 7s 9s 2h 3h 5h 7h 9h 2d 3d 5d",
            "As 2h 3d 4s 5s 2c 3c 4c 5c 6h 7d 8c 9h",
        ] {
            let mask = parse_card_set(text).unwrap().1 .0;
            let arr = three_flushes(mask, &rules)
                .or_else(|| three_straights(mask, &rules))
                .unwrap();
            arr.validate().unwrap();
            assert_eq!(arr.cards(), mask);
            assert!(!arr.is_fouled(&rules));
        }
    }
}
