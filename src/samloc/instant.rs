//! Instant wins at the deal (tới trắng) of Sâm Lốc, their ranking, and the tie-break between
//! seats.

use crate::cards::{CardSet, RANK_TWO, SUIT_MASK};
use crate::shedding::patterns::{pair_count, ranks_with_at_least};
use crate::shedding::{classify, Kind, Rules};

/// Kinds of instant win, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum InstantKind {
    /// Sảnh rồng: the ten cards make one straight.
    Dragon,
    /// Tứ quý heo: all four 2s.
    FourTwos,
    /// Đồng hoa: ten cards of one colour.
    SameColour,
    /// 3 sám: three triples (a tứ quý holds a triple).
    ThreeTriples,
    /// 5 đôi: five pairs (a tứ quý counts as two pairs).
    FivePairs,
}

impl InstantKind {
    pub const ALL: [InstantKind; 5] = [
        InstantKind::Dragon,
        InstantKind::FourTwos,
        InstantKind::SameColour,
        InstantKind::ThreeTriples,
        InstantKind::FivePairs,
    ];

    /// The API name: `"dragon"`, `"four_twos"`, `"same_colour"`, `"three_triples"`,
    /// `"five_pairs"`.
    pub const fn name(self) -> &'static str {
        match self {
            InstantKind::Dragon => "dragon",
            InstantKind::FourTwos => "four_twos",
            InstantKind::SameColour => "same_colour",
            InstantKind::ThreeTriples => "three_triples",
            InstantKind::FivePairs => "five_pairs",
        }
    }
}

/// An instant win: its kind and its top rank, which breaks ties between two winners of the
/// same kind. The top rank is the rank of the highest card, except for the triple and pair
/// kinds (the highest triple or pair) and a low straight (the rank at its top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instant {
    pub kind: InstantKind,
    /// Rank index (3 = 0 … 2 = 12).
    pub top_rank: u8,
}

impl Instant {
    /// Does this instant win beat `other`: a stronger kind, or the same kind and a higher top
    /// rank? (Still equal: neither; the seat nearer the leader wins.)
    pub fn beats(&self, other: &Instant) -> bool {
        self.kind < other.kind || (self.kind == other.kind && self.top_rank > other.top_rank)
    }
}

/// Highest rank held at least `n` times.
fn highest_with(hand: CardSet, n: u32) -> Option<u8> {
    (0..=RANK_TWO)
        .rev()
        .find(|&r| hand.rank_nibble(r).count_ones() >= n)
}

/// The strongest instant win of a dealt hand of `rules.hand_size` cards, or `None` (also for a
/// hand of any other size). A dragon is a straight of every card under `rules`, so with
/// `low_straights` A-2-3-…-8 and 2-3-…-J count too.
pub fn instant_win(hand: CardSet, rules: &Rules) -> Option<Instant> {
    if hand.len() != u32::from(rules.hand_size) {
        return None;
    }
    let found = |kind, top_rank: Option<u8>| top_rank.map(|top_rank| Instant { kind, top_rank });
    let dragon = classify(hand, rules)
        .filter(|c| c.kind == Kind::Straight)
        .map(|c| crate::shedding::combo::real_rank(c.top_vrank()));
    let top = highest_with(hand, 1);
    let one_colour = [0b0011u64, 0b1100]
        .iter()
        .any(|&suits| hand.0 & !(suits * SUIT_MASK) == 0);
    found(InstantKind::Dragon, dragon)
        .or_else(|| {
            found(
                InstantKind::FourTwos,
                (hand.rank_nibble(RANK_TWO) == 0xF).then_some(RANK_TWO),
            )
        })
        .or_else(|| found(InstantKind::SameColour, top.filter(|_| one_colour)))
        .or_else(|| {
            found(
                InstantKind::ThreeTriples,
                highest_with(hand, 3).filter(|_| ranks_with_at_least(hand, 3) >= 3),
            )
        })
        .or_else(|| {
            found(
                InstantKind::FivePairs,
                highest_with(hand, 2).filter(|_| pair_count(hand) >= 5),
            )
        })
}

/// The seat that wins at the deal, if any: the strongest instant win; between equals, the
/// seat nearer `leader` in turn order (the leader first).
pub fn instant_winner(hands: &[CardSet], leader: usize, rules: &Rules) -> Option<(usize, Instant)> {
    let n = hands.len();
    let mut best: Option<(usize, Instant)> = None;
    for seat in (0..n).map(|k| (leader + k) % n) {
        if let Some(w) = instant_win(hands[seat], rules) {
            let better = match best {
                None => true,
                Some((_, b)) => w.beats(&b),
            };
            if better {
                best = Some((seat, w));
            }
        }
    }
    best
}
