//! Instant wins at the deal (tới trắng) of Tiến Lên, their ranking and the tie-break between
//! two instant winners.

use crate::cards::{CardSet, RANK_ACE, RANK_TWO};
use crate::shedding::patterns::{pair_count, pair_run_top, ranks_with_at_least, top_of_rank};
use crate::shedding::Rules;

/// Kinds of instant win, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum InstantKind {
    /// Sảnh rồng: 3 through A.
    Dragon,
    /// 6 đôi thông.
    SixPairSequence,
    /// 4 bộ ba (4 sám).
    FourTriples,
    /// 2 tứ quý.
    TwoQuads,
    /// 12 lá đồng chất: twelve cards of one suit.
    TwelveSameSuit,
    /// Twelve or thirteen cards of one colour (option `same_colour_instant_win`, replacing
    /// [`InstantKind::TwelveSameSuit`]).
    SameColour,
    /// 5 đôi thông.
    FivePairSequence,
    /// Tứ quý heo: all four 2s.
    FourTwos,
    /// 6 đôi (a tứ quý counts as two pairs).
    SixPairs,
    /// First hand only (`first_hand_extras`): all four 3s.
    FourThrees,
    /// First hand only (`first_hand_extras`): 3 đôi thông containing 3♠.
    ThreePairSequenceWithThreeOfSpades,
}

impl InstantKind {
    pub const fn name(self) -> &'static str {
        match self {
            InstantKind::Dragon => "dragon",
            InstantKind::SixPairSequence => "six_pair_sequence",
            InstantKind::FourTriples => "four_triples",
            InstantKind::TwoQuads => "two_quads",
            InstantKind::TwelveSameSuit => "twelve_same_suit",
            InstantKind::SameColour => "same_colour",
            InstantKind::FivePairSequence => "five_pair_sequence",
            InstantKind::FourTwos => "four_twos",
            InstantKind::SixPairs => "six_pairs",
            InstantKind::FourThrees => "four_threes",
            InstantKind::ThreePairSequenceWithThreeOfSpades => "three_pair_sequence_with_3s",
        }
    }
}

/// Options that change which hands win at the deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstantOptions {
    /// `same_colour_instant_win`: 12 or 13 cards of one colour instead of 12 of one suit.
    pub same_colour: bool,
    /// `first_hand_extras`: also four 3s and 3 đôi thông with 3♠ (only in the first hand).
    pub first_hand_extras: bool,
}

/// An instant win: its kind and the index of its top card (for pair kinds, the top card of the
/// highest pair), which breaks ties between two winners of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instant {
    pub kind: InstantKind,
    pub top: u8,
}

impl Instant {
    /// Does this instant win beat `other`: a stronger kind, or the same kind with a higher top?
    pub fn beats(&self, other: &Instant) -> bool {
        self.kind < other.kind || (self.kind == other.kind && self.top > other.top)
    }
}

/// The strongest instant win of a dealt hand under `rules` (pair-sequence kinds only when the
/// rules have đôi thông), or `None`.
pub fn instant_win(hand: CardSet, rules: &Rules, opts: InstantOptions) -> Option<Instant> {
    let found = |kind, top: Option<u8>| top.map(|top| Instant { kind, top });
    let pair_seq = |k| {
        if rules.pair_sequences {
            pair_run_top(hand, k).and_then(|r| top_of_rank(hand, r))
        } else {
            None
        }
    };
    let highest_with = |n: u32| {
        (0..=RANK_TWO)
            .rev()
            .find(|&r| hand.rank_nibble(r).count_ones() >= n)
            .and_then(|r| top_of_rank(hand, r))
    };
    let twelve_same = || {
        if opts.same_colour {
            [0b0011u64, 0b1100]
                .into_iter()
                .map(|suits| CardSet(hand.0 & (suits * crate::cards::SUIT_MASK)))
                .filter(|c| c.len() >= 12)
                .find_map(|c| c.highest().map(|x| x.index()))
        } else {
            (0..4)
                .map(|s| hand.of_suit(s))
                .filter(|c| c.len() >= 12)
                .find_map(|c| c.highest().map(|x| x.index()))
        }
    };
    let same_kind = if opts.same_colour {
        InstantKind::SameColour
    } else {
        InstantKind::TwelveSameSuit
    };
    let dragon = (hand.rank_mask() & 0xFFF == 0xFFF)
        .then(|| top_of_rank(hand, RANK_ACE))
        .flatten();
    found(InstantKind::Dragon, dragon)
        .or_else(|| found(InstantKind::SixPairSequence, pair_seq(6)))
        .or_else(|| {
            found(
                InstantKind::FourTriples,
                (ranks_with_at_least(hand, 3) >= 4)
                    .then(|| highest_with(3))
                    .flatten(),
            )
        })
        .or_else(|| {
            found(
                InstantKind::TwoQuads,
                (ranks_with_at_least(hand, 4) >= 2)
                    .then(|| highest_with(4))
                    .flatten(),
            )
        })
        .or_else(|| found(same_kind, twelve_same()))
        .or_else(|| found(InstantKind::FivePairSequence, pair_seq(5)))
        .or_else(|| {
            found(
                InstantKind::FourTwos,
                (hand.rank_nibble(RANK_TWO) == 0xF).then_some(51),
            )
        })
        .or_else(|| {
            found(
                InstantKind::SixPairs,
                (pair_count(hand) >= 6).then(|| highest_with(2)).flatten(),
            )
        })
        .or_else(|| {
            if !opts.first_hand_extras {
                return None;
            }
            found(
                InstantKind::FourThrees,
                (hand.rank_nibble(0) == 0xF).then_some(3),
            )
            .or_else(|| {
                let with_spade = hand.contains(crate::cards::Card::new(0, 0));
                let top = if with_spade
                    && rules.pair_sequences
                    && (0..3).all(|r| hand.rank_nibble(r).count_ones() >= 2)
                {
                    top_of_rank(hand, 2)
                } else {
                    None
                };
                found(InstantKind::ThreePairSequenceWithThreeOfSpades, top)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;
    use crate::tienlen::{north, south};

    fn win(t: &str, opts: InstantOptions) -> Option<&'static str> {
        instant_win(parse_card_set(t).unwrap().1, &south(), opts).map(|i| i.kind.name())
    }

    #[test]
    fn seed_examples() {
        let o = InstantOptions::default();
        assert_eq!(win("4♦4♥5♦5♥6♠6♥7♣7♥J♠J♦K♠K♣ 3♠", o), Some("six_pairs"));
        assert_eq!(win("2♠2♣2♦2♥ 3♠4♠6♦8♥10♠Q♦K♥A♠9♣", o), Some("four_twos"));
        assert_eq!(
            win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥", o),
            Some("five_pair_sequence")
        );
        assert_eq!(
            win("2♠4♠5♠6♠7♠8♠9♠10♠J♠Q♠K♠A♠A♣", o),
            Some("twelve_same_suit")
        );
        assert_eq!(win("3♠3♣3♦3♥5♠5♣5♦5♥ 7♠9♦J♥K♣A♠", o), Some("two_quads"));
        assert_eq!(
            win("2♠2♣2♦4♠4♣4♦5♠5♣5♦10♠10♣10♦A♥", o),
            Some("four_triples")
        );
        assert_eq!(
            win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦9♣9♦ 2♠", o),
            Some("six_pair_sequence")
        );
        assert_eq!(win("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣ 2♥", o), Some("dragon"));
        assert_eq!(win("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣2♣ 2♥", o), None);
    }

    #[test]
    fn options_and_ranking() {
        let colour = InstantOptions {
            same_colour: true,
            ..Default::default()
        };
        let mixed = "3♠3♣4♠5♣6♠7♣8♠9♣10♠J♣Q♠K♣ K♥";
        assert_eq!(win(mixed, InstantOptions::default()), None);
        assert_eq!(win(mixed, colour), Some("same_colour"));
        let extras = InstantOptions {
            first_hand_extras: true,
            ..Default::default()
        };
        assert_eq!(
            win("3♠3♣3♦3♥ 5♠7♦9♥J♣K♠A♦2♣6♥8♣", extras),
            Some("four_threes")
        );
        assert_eq!(
            win("3♠3♣3♦3♥ 5♠7♦9♥J♣K♠A♦2♣6♥8♣", InstantOptions::default()),
            None
        );
        assert_eq!(
            win("3♠3♣4♦4♥5♠5♦ 7♦9♥J♣K♠A♦2♣8♣", extras),
            Some("three_pair_sequence_with_3s")
        );
        assert_eq!(win("3♦3♣4♦4♥5♠5♦ 7♦9♥J♣K♠A♦2♣8♣", extras), None);
        // North: no pair-sequence kinds.
        let ps = parse_card_set("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥").unwrap().1;
        assert_eq!(instant_win(ps, &north(), InstantOptions::default()), None);
        // Same kind: the higher top card wins.
        let a = Instant {
            kind: InstantKind::SixPairs,
            top: 40,
        };
        let b = Instant {
            kind: InstantKind::SixPairs,
            top: 43,
        };
        let d = Instant {
            kind: InstantKind::Dragon,
            top: 44,
        };
        assert!(b.beats(&a) && !a.beats(&b) && d.beats(&b) && !b.beats(&d));
    }
}
