//! Tiến Lên Miền Nam and Miền Bắc: the rule presets of the shared shedding core, the
//! instant wins (tới trắng) at the deal, and Tiến Lên's part of the hand's flow.

pub mod flow;
pub mod instant;

pub use instant::{instant_win, Instant, InstantKind, InstantOptions};

use crate::shedding::Rules;

/// Miền Nam: any-suit pairs and straights (3–12 cards), đôi thông, cards compared by rank then
/// suit, tứ quý cuts a pair of 2s.
pub const fn south() -> Rules {
    Rules {
        suit_order: true,
        same_colour_pairs: false,
        same_suit_straights: false,
        single_follows_suit: false,
        triple_follows_suits: false,
        pair_sequences: true,
        min_straight: 3,
        max_straight: 12,
        low_straights: false,
        quad_beats_pair_of_twos: true,
        hand_size: 13,
        min_players: 2,
        max_players: 4,
    }
}

/// Miền Bắc: same-colour pairs, same-suit straights, singles follow suit, no đôi thông.
pub const fn north() -> Rules {
    Rules {
        same_colour_pairs: true,
        same_suit_straights: true,
        single_follows_suit: true,
        pair_sequences: false,
        ..south()
    }
}

#[cfg(test)]
mod tests;
