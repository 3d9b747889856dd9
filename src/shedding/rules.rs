//! Rule data for the shedding family (Tiến Lên Miền Nam/Bắc, Sâm Lốc): which card sets are
//! combinations and how they beat each other. The flow rules (rounds, payments) are each
//! game's [`FlowRules`](super::FlowRules).

use crate::cards::CardSet;
use crate::error::Error;

/// How combinations are formed and compared. Plain data: every game builds one preset and the
/// move generator, [`classify`](super::classify) and [`beats`](super::beats) read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Compare by card (rank, then suit ♠ < ♣ < ♦ < ♥). Off: by rank only, so equal ranks
    /// never beat each other (Sâm Lốc).
    pub suit_order: bool,
    /// Pairs must be one colour (♠♣ or ♦♥) and are beaten only by a higher pair of the same
    /// colour; a pair of 2s beats any non-2 pair (Miền Bắc).
    pub same_colour_pairs: bool,
    /// Straights must be one suit and are beaten only by the same suit (Miền Bắc).
    pub same_suit_straights: bool,
    /// A non-2 single is beaten only by a higher card of its suit; any 2 beats a non-2 single.
    pub single_follows_suit: bool,
    /// A non-2 triple is beaten only by a higher triple of the same three suits.
    pub triple_follows_suits: bool,
    /// Pair sequences (đôi thông) exist, as combinations and as bombs (Miền Nam).
    pub pair_sequences: bool,
    /// Shortest and longest straight (sảnh).
    pub min_straight: u8,
    pub max_straight: u8,
    /// A-2-3, 2-3-4, … are the lowest straights (A and 2 count low); K-A-2 never is.
    pub low_straights: bool,
    /// A four of a kind (tứ quý) cuts a pair of 2s.
    pub quad_beats_pair_of_twos: bool,
    /// Cards dealt to each player, and the seat range.
    pub hand_size: u8,
    pub min_players: u8,
    pub max_players: u8,
}

/// The largest hand of a shedding game (Tiến Lên deals 13; Sâm Lốc 10).
pub const MAX_HAND: u8 = 13;

impl Rules {
    /// A hand as the move generators accept it: at most `hand_size` cards. The bound keeps
    /// their output (and time) small: a full deck holds millions of straights.
    pub fn check_hand(&self, hand: CardSet) -> Result<CardSet, Error> {
        if hand.len() > u32::from(self.hand_size) {
            let message = format!(
                "a hand holds at most {} cards, not {}",
                self.hand_size,
                hand.len()
            );
            return Err(Error::invalid_card(
                hand.to_string(),
                usize::from(self.hand_size),
                &message,
            ));
        }
        Ok(hand)
    }

    /// Checks that the data describes a playable game.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |m: String| Err(Error::Rules(m));
        if !(2..=12).contains(&self.min_straight) || self.min_straight > self.max_straight {
            return bad(format!(
                "straight lengths {}..{} are not within 2..12",
                self.min_straight, self.max_straight
            ));
        }
        if self.max_straight > 12 {
            return bad(format!(
                "max_straight {} exceeds the 12 ranks below 2",
                self.max_straight
            ));
        }
        if self.min_players < 2 || self.min_players > self.max_players {
            return bad(format!(
                "players {}..{} is not a seat range",
                self.min_players, self.max_players
            ));
        }
        if self.hand_size > MAX_HAND {
            return bad(format!(
                "hand_size {} exceeds {MAX_HAND}, the largest shedding hand",
                self.hand_size
            ));
        }
        if self.hand_size == 0 || u32::from(self.hand_size) * u32::from(self.max_players) > 52 {
            return bad(format!(
                "{} players × {} cards do not fit a 52-card deck",
                self.max_players, self.hand_size
            ));
        }
        Ok(())
    }
}
