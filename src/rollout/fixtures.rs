//! Test fixtures the rollout and search tests share: the default Tiến Lên and Sâm Lốc setups
//! and a position at the start of a round (nothing on the table); a Tứ Sắc table's rules and
//! its dealer's position before the first discard.

use super::tusac::{TuSacPosition, TuSacSetup};
use super::{BaoMot, Payoff, Position, Setup, MAX_SEATS};
use crate::cards::{parse_card_set, CardSet};
use crate::tusac::{parse_hand, BungRule, Hand, OddTotal, Scoring};
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

/// Four seats of Tứ Sắc: a lệnh per set, an odd total by the hand, the triple mandatory, the
/// Tướng as the tỳ, the hand a draw at 7 cards in the stock, every seat answering an offer.
pub(crate) fn tusac_setup() -> TuSacSetup {
    TuSacSetup {
        players: 4,
        scoring: Scoring {
            odd_total: OddTotal::Hand,
            set_lenh: 1,
        },
        triple_optional: false,
        bung: BungRule::Seed,
        enforce_rac: false,
        tuong_as_ty: true,
        draw_at_stock: 7,
        flat: false,
        every_seat: true,
    }
}

/// Seat 0, the dealer, holding `hand` (its 21 cards) before its first discard at a four-seat
/// table: nothing in sight, 20 cards in each other hand, the rest in the stock.
pub(crate) fn tusac_opening(hand: &str) -> TuSacPosition {
    let hand = parse_hand(hand).unwrap();
    TuSacPosition {
        me: 0,
        hand,
        counts: [hand.len() as u8, 20, 20, 20],
        exposed_lenh: [0; 4],
        exposed_quad: [false; 4],
        public: Hand::EMPTY,
        exposed: [Hand::EMPTY; 4],
        unseen: Hand::DECK.minus(&hand),
        stock: 112 - 81,
        offer: None,
        opening: true,
        single: [0; 4],
    }
}

/// A dealer's hand of 21 cards.
pub(crate) const TUSAC_HAND: &str =
    "KR KG AW AW AW EY EG RG RW RW RW CY CY CY CR CG HG PY PY PY PR";
