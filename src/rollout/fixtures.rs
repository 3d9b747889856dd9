//! Test fixtures the rollout and search tests share: the default Tiến Lên and Sâm Lốc setups
//! and a position at the start of a round (nothing on the table).

use super::{BaoMot, Payoff, Position, Setup, MAX_SEATS};
use crate::cards::{parse_card_set, CardSet};
use crate::{samloc, tienlen};

/// A card set from its text (`"3♠ 4♦"`); panics on a typo.
pub(crate) fn set(text: &str) -> CardSet {
    parse_card_set(text).unwrap().1
}

/// Tiến Lên Miền Nam with `players` seats and its default payments.
pub(crate) fn south_setup(players: usize) -> Setup {
    Setup {
        rules: tienlen::south(),
        players,
        after_pass: None,
        bao_mot: false,
        finish_on_two: true,
        sam_may_finish_on_two: false,
        bao: BaoMot::default(),
        payoff: Payoff {
            card: 1,
            cong: 26,
            black_two: 3,
            red_two: 6,
            quad: 12,
            places: Vec::new(),
            sam: 0,
            sam_block_each: false,
        },
    }
}

/// Sâm Lốc with `players` seats and its default payments (báo 1 on, no finishing on a 2).
pub(crate) fn sam_setup(players: usize) -> Setup {
    let south = south_setup(players);
    Setup {
        rules: samloc::preset(),
        bao_mot: true,
        finish_on_two: false,
        payoff: Payoff {
            cong: 15,
            black_two: 15,
            red_two: 15,
            quad: 15,
            sam: 20,
            ..south.payoff
        },
        ..south
    }
}

/// Seat `me` holding `hand` with the other seats' card counts `counts` (its own entry is
/// set to the hand's size), an empty table, every card not in the hand unseen.
pub(crate) fn open_position(me: usize, hand: CardSet, counts: &[u8]) -> Position {
    let mut c = [0u8; MAX_SEATS];
    c[..counts.len()].copy_from_slice(counts);
    c[me] = hand.len() as u8;
    Position {
        me,
        hand,
        unseen: CardSet::DECK.difference(hand),
        counts: c,
        played_any: 0,
        table: None,
        table_seat: 0,
        passed: 0,
        out: 0,
        must: CardSet::EMPTY,
        sam: None,
        violator: [0; MAX_SEATS],
        played: [0; MAX_SEATS],
    }
}
