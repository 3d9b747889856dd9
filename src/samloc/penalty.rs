//! The leftover penalties of Sâm Lốc (thối, cóng) and the fixed payment units of the
//! settlement table (RULES.md §3).

use crate::cards::{CardSet, RANK_TWO};

/// Units for each 2 left in hand (thối 2), for a tứ quý left (thối tứ quý) and for each 2 a
/// tứ quý cuts (chặt 2).
pub const TWO_UNITS: u32 = 15;
/// Units for a tứ quý cut by a tứ quý, and per cut in a chain (chặt chồng).
pub const CUT_UNITS: u32 = 15;
/// Base units of a seat that played no card (cóng).
pub const CONG_UNITS: u32 = 15;
/// Units of an instant win (ăn trắng) and of Sâm (success: from each player; blocked: per
/// other player).
pub const SAM_UNITS: u32 = 20;

/// What a losing seat owes the winner for the cards it still holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penalty {
    /// Ordinary cards left (thối rác), 1 unit each; 2s and tứ quý not included.
    pub cards: u32,
    /// 2s left (thối 2), 15 units each.
    pub twos: u32,
    /// Tứ quý of a rank below 2 left (thối tứ quý), 15 units each instead of 4 cards.
    pub quads: u32,
    /// The seat played no card (cóng): 15 units instead of the ordinary cards.
    pub cong: bool,
}

impl Penalty {
    /// The penalty for `left`, the cards a loser still holds; `cong` if it played none.
    /// Four 2s are four 2s (they are an instant win at the deal, so never left in practice).
    pub fn of(left: CardSet, cong: bool) -> Penalty {
        let counts = left.rank_counts();
        let twos = u32::from(counts[usize::from(RANK_TWO)]);
        let quads = counts[..usize::from(RANK_TWO)]
            .iter()
            .filter(|&&c| c == 4)
            .count() as u32;
        Penalty {
            cards: if cong {
                0
            } else {
                left.len() - twos - 4 * quads
            },
            twos,
            quads,
            cong,
        }
    }

    /// Units of the ordinary cards: 1 each, or 15 for cóng.
    pub fn card_units(&self) -> u32 {
        if self.cong {
            CONG_UNITS
        } else {
            self.cards
        }
    }

    /// Total units owed.
    pub fn units(&self) -> u32 {
        self.card_units() + TWO_UNITS * (self.twos + self.quads)
    }
}
