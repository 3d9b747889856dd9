//! Sâm Lốc: the rule preset of the shared shedding core (rank-only comparison, no đôi thông,
//! straights 3–10 cards, ten-card hands, 2–5 players), the instant wins at the deal (tới trắng),
//! and the báo 1 restriction on singles; its part of the hand's flow (declarations, báo 1,
//! payments) is [`flow`].

pub mod flow;
pub mod instant;

pub use instant::{instant_win, instant_winner, Instant, InstantKind};

use crate::cards::CardSet;
use crate::shedding::{legal_plays_into, Combo, Kind, PlayFilter, Rules};

/// The default Sâm Lốc rules of the shedding core: ranks only, no đôi thông, straights of
/// 3–10 cards never containing a 2, tứ quý does not cut a pair of 2s.
pub const fn preset() -> Rules {
    Rules {
        suit_order: false,
        same_colour_pairs: false,
        same_suit_straights: false,
        single_follows_suit: false,
        triple_follows_suits: false,
        pair_sequences: false,
        min_straight: 3,
        max_straight: 10,
        low_straights: false,
        quad_beats_pair_of_twos: false,
        hand_size: 10,
        min_players: 2,
        max_players: 5,
    }
}

/// The preset with the two combination options of docs/rules/samloc.md (`low_straights`,
/// `quad_beats_pair_of_twos`).
pub const fn rules(low_straights: bool, quad_beats_pair_of_twos: bool) -> Rules {
    Rules {
        low_straights,
        quad_beats_pair_of_twos,
        ..preset()
    }
}

/// Rank index (3 = 0 … 2 = 12) of the highest-ranked card of `hand`.
pub fn highest_rank(hand: CardSet) -> Option<u8> {
    hand.highest().map(|c| c.rank())
}

/// Báo 1: is `play` a single lower in rank than the highest card of `hand` (the cards held
/// before the play)? Such a single breaks the báo 1 rule while another seat holds one card.
pub fn breaks_bao_mot(hand: CardSet, play: &Combo) -> bool {
    play.kind == Kind::Single && play.cards.highest().map(|c| c.rank()) < highest_rank(hand)
}

/// Every play from `hand` on `table` (see [`crate::shedding::legal_plays_into`]); with
/// `bao_mot`, singles lower than the hand's highest rank are left out (báo 1, mode "enforce").
pub fn legal_plays_into_bao_mot(
    hand: CardSet,
    table: Option<&Combo>,
    rules: &Rules,
    must_include: CardSet,
    filter: PlayFilter,
    bao_mot: bool,
    out: &mut Vec<Combo>,
) {
    let start = out.len();
    legal_plays_into(hand, table, rules, must_include, filter, out);
    if bao_mot {
        // Keep the generator's order: compact the kept plays in place.
        let mut kept = start;
        for i in start..out.len() {
            if !breaks_bao_mot(hand, &out[i]) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

#[cfg(test)]
mod tests;
