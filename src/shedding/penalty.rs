//! Penalties for cards left in hand (thối) and the value of what a bomb cuts (chặt).
//!
//! A game gives a [`PenaltyTable`] (units per item; 0 = that item is not penalised) and what
//! each plain card left is worth (`card_units`: 1 when cards left are counted, 0 when only the
//! items are paid). [`penalty_items`] splits a hand into the penalised items that make the
//! payment largest: a tứ quý of 2s, for instance, is worth more as four 2s when 2s are dear.

use super::combo::{Combo, Kind};
use crate::cards::{CardSet, RANK_TWO};

/// The four 2s (rank 12) as a card mask.
pub const TWOS: u64 = 0xF << (4 * RANK_TWO as u64);
/// The two red 2s (♥, ♦) as a card mask.
pub const RED_TWOS: u64 = 0xC << (4 * RANK_TWO as u64);

/// Units of each penalised item (0: not an item in this game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PenaltyTable {
    pub black_two: u32,
    pub red_two: u32,
    pub three_pair_sequence: u32,
    pub four_of_a_kind: u32,
    pub four_pair_sequence: u32,
}

/// A penalised item of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    FourOfAKind,
    ThreePairSequence,
    FourPairSequence,
    BlackTwo,
    RedTwo,
}

impl Item {
    /// The API name: `"four_of_a_kind"`, `"three_pair_sequence"`, `"four_pair_sequence"`,
    /// `"black_two"`, `"red_two"`.
    pub const fn name(self) -> &'static str {
        match self {
            Item::FourOfAKind => "four_of_a_kind",
            Item::ThreePairSequence => "three_pair_sequence",
            Item::FourPairSequence => "four_pair_sequence",
            Item::BlackTwo => "black_two",
            Item::RedTwo => "red_two",
        }
    }
}

/// Most items one hand of at most 13 cards splits into (3 tứ quý or 2 runs of đôi thông, and
/// four 2s), with room to spare.
pub const MAX_ITEMS: usize = 12;

/// The items of a hand: `(item, its cards, units)` in the order they are paid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Items {
    len: usize,
    items: [Option<(Item, CardSet, u32)>; MAX_ITEMS],
}

impl Items {
    fn push(&mut self, item: Item, cards: u64, units: u32) {
        self.items[self.len] = Some((item, CardSet(cards), units));
        self.len += 1;
    }
    fn extend(&mut self, other: &Items) {
        for &(item, cards, units) in other.iter() {
            self.push(item, cards.0, units);
        }
    }
    /// The items in order.
    pub fn iter(&self) -> impl Iterator<Item = &(Item, CardSet, u32)> {
        self.items[..self.len].iter().flatten()
    }
    pub const fn len(&self) -> usize {
        self.len
    }
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Every card the items cover.
    pub fn cards(&self) -> CardSet {
        CardSet(self.iter().fold(0, |m, &(_, c, _)| m | c.0))
    }
    /// The units of every item together.
    pub fn units(&self) -> u32 {
        self.iter().map(|&(_, _, u)| u).sum()
    }
}

impl PenaltyTable {
    /// What a cut play is worth: its 2s one by one, or the bomb's item value.
    pub fn cut_value(&self, table: &Combo) -> u32 {
        match table.kind {
            Kind::FourOfAKind => self.four_of_a_kind,
            Kind::PairSequence if table.pairs() == 3 => self.three_pair_sequence,
            Kind::PairSequence => self.four_pair_sequence,
            _ => self.twos_value(table.cards),
        }
    }

    /// The value of the 2s among `cards`, one by one.
    pub fn twos_value(&self, cards: CardSet) -> u32 {
        let red = (cards.0 & RED_TWOS).count_ones();
        red * self.red_two + ((cards.0 & TWOS).count_ones() - red) * self.black_two
    }

    /// Total units a hand left is worth: plain cards at `card_units` plus its items.
    pub fn hand_units(&self, hand: CardSet, card_units: u32) -> u32 {
        let items = penalty_items(hand, self, card_units);
        hand.difference(items.cards()).len() * card_units + items.units()
    }
}

/// Maximal runs of consecutive ranks below 2 held at least twice, as `(first rank, length)`.
fn pair_runs(hand: CardSet) -> impl Iterator<Item = (u8, u8)> {
    let mut runs = [(0u8, 0u8); 6];
    let mut n = 0;
    let mut start: Option<u8> = None;
    for r in 0..=RANK_TWO {
        let paired = r < RANK_TWO && hand.rank_nibble(r).count_ones() >= 2;
        match (paired, start) {
            (true, None) => start = Some(r),
            (false, Some(s)) => {
                runs[n] = (s, r - s);
                n += 1;
                start = None;
            }
            _ => {}
        }
    }
    runs.into_iter().take(n)
}

/// The two lowest cards of rank `rank` in `hand`.
fn lowest_two(hand: CardSet, rank: u8) -> u64 {
    let mut nib = u64::from(hand.rank_nibble(rank));
    let low = nib & nib.wrapping_neg();
    nib ^= low;
    (low | (nib & nib.wrapping_neg())) << (rank * 4)
}

/// Best split of a run of pairs into 3- and 4-pair đôi thông (dynamic programming over the run's
/// prefixes; the earliest best split is kept): its gain over plain cards, and its items.
fn split_run(
    start: u8,
    len: u8,
    hand: CardSet,
    table: &PenaltyTable,
    card_units: u32,
) -> (i64, Items) {
    let pieces = [
        (3u8, Item::ThreePairSequence, table.three_pair_sequence),
        (4u8, Item::FourPairSequence, table.four_pair_sequence),
    ];
    let mut best: Vec<(i64, Items)> = Vec::with_capacity(usize::from(len) + 1);
    best.push((0, Items::default()));
    for i in 1..=len {
        let mut cand = best[usize::from(i - 1)];
        for &(size, item, units) in &pieces {
            let gain = i64::from(units) - 2 * i64::from(size) * i64::from(card_units);
            if units == 0 || i < size {
                continue;
            }
            let (before, items) = best[usize::from(i - size)];
            if before + gain > cand.0 {
                let cards = (start + i - size..start + i).fold(0, |m, r| m | lowest_two(hand, r));
                let mut next = items;
                next.push(item, cards, units);
                cand = (before + gain, next);
            }
        }
        best.push(cand);
    }
    best[usize::from(len)]
}

/// The penalised items of `hand`, chosen to maximise the payment, where each plain card is
/// worth `card_units`. Tứ quý are tried in every subset (in `itertools.combinations` order:
/// fewer first, the earliest best kept), then the runs of đôi thông, then the 2s.
pub fn penalty_items(hand: CardSet, table: &PenaltyTable, card_units: u32) -> Items {
    let quads: Vec<u8> = if table.four_of_a_kind != 0 {
        (0..=RANK_TWO)
            .filter(|&r| hand.rank_nibble(r) == 0xF)
            .collect()
    } else {
        Vec::new()
    };
    let cu = i64::from(card_units);
    let mut best: (i64, Items) = (-1, Items::default());
    for chosen in subsets_by_size(quads.len()) {
        let mut items = Items::default();
        let mut gain = 0i64;
        let mut rest = hand.0;
        for (k, &r) in quads.iter().enumerate() {
            if chosen >> k & 1 == 1 {
                items.push(Item::FourOfAKind, 0xF << (r * 4), table.four_of_a_kind);
                gain += i64::from(table.four_of_a_kind) - 4 * cu;
                rest &= !(0xF << (r * 4));
            }
        }
        if table.three_pair_sequence != 0 || table.four_pair_sequence != 0 {
            for (start, len) in pair_runs(CardSet(rest)) {
                let (g, run_items) = split_run(start, len, CardSet(rest), table, card_units);
                gain += g;
                items.extend(&run_items);
            }
        }
        for bit in 48..52 {
            if rest >> bit & 1 == 1 {
                let (item, units) = if bit >= 50 {
                    (Item::RedTwo, table.red_two)
                } else {
                    (Item::BlackTwo, table.black_two)
                };
                if units != 0 {
                    items.push(item, 1 << bit, units);
                    gain += i64::from(units) - cu;
                }
            }
        }
        if gain > best.0 {
            best = (gain, items);
        }
    }
    best.1
}

/// The subsets of `n` items as bit masks, fewer items first, each size in lexicographic order
/// of the chosen indices (as `itertools.combinations` yields them).
fn subsets_by_size(n: usize) -> Vec<u32> {
    let mut all: Vec<u32> = (0..1u32 << n).collect();
    // Lexicographic order of the index lists = descending order of the bit-reversed masks.
    all.sort_by_key(|&m| (m.count_ones(), std::cmp::Reverse(m.reverse_bits())));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    fn cards(text: &str) -> CardSet {
        parse_card_set(text).unwrap().1
    }

    const COUNT: PenaltyTable = PenaltyTable {
        black_two: 3,
        red_two: 6,
        three_pair_sequence: 9,
        four_of_a_kind: 12,
        four_pair_sequence: 18,
    };

    #[test]
    fn items_of_a_hand_with_a_quad_and_twos() {
        let hand = cards("2♠ 2♥ 5♠ 5♣ 5♦ 5♥ 9♦");
        let items = penalty_items(hand, &COUNT, 1);
        let names: Vec<_> = items.iter().map(|&(i, _, u)| (i.name(), u)).collect();
        assert_eq!(
            names,
            [("four_of_a_kind", 12), ("black_two", 3), ("red_two", 6)]
        );
        assert_eq!(COUNT.hand_units(hand, 1), 22);
    }

    #[test]
    fn a_quad_of_twos_is_worth_more_as_four_twos_when_twos_are_dear() {
        let dear = PenaltyTable {
            black_two: 15,
            red_two: 15,
            four_of_a_kind: 15,
            ..PenaltyTable::default()
        };
        let items = penalty_items(cards("2♠ 2♣ 2♦ 2♥"), &dear, 0);
        assert_eq!(items.len(), 4);
        assert_eq!(items.units(), 60);
    }

    #[test]
    fn runs_of_pairs_split_into_the_dearest_sequences() {
        let hand = cards("3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♠ 8♣");
        let items = penalty_items(hand, &COUNT, 0);
        // Six pairs: a 4-pair run (18) ties two 3-pair runs (18); the first split found stays.
        let names: Vec<_> = items.iter().map(|&(i, c, _)| (i.name(), c.0)).collect();
        assert_eq!(names, [("four_pair_sequence", 0x3333)]);
    }

    #[test]
    fn subsets_come_in_combinations_order() {
        assert_eq!(subsets_by_size(3), [0, 1, 2, 4, 3, 5, 6, 7]);
    }
}
