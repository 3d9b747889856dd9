//! Combinations (single, pair, triple, straight, đôi thông, tứ quý): classification and
//! beating, including bombs (chặt).
//!
//! Strength is a "virtual card" `top = vrank * 4 + suit` of the combination's highest card,
//! where `vrank` is the rank index shifted by two (`3` = 2 … `A` = 13, `2` = 14) so that the
//! low straights of Sâm Lốc fit below it (`A` low = 0, `2` low = 1). Comparison by rank only
//! uses `top >> 2`.

use super::rules::Rules;
use crate::cards::{Card, CardSet, RANK_ACE, RANK_TWO};
use crate::error::Error;

/// The kind of a combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Single = 0,
    Pair = 1,
    Triple = 2,
    Straight = 3,
    PairSequence = 4,
    FourOfAKind = 5,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Single,
        Kind::Pair,
        Kind::Triple,
        Kind::Straight,
        Kind::PairSequence,
        Kind::FourOfAKind,
    ];

    /// The API name: `"single"`, `"pair"`, `"triple"`, `"straight"`, `"pair_sequence"`,
    /// `"four_of_a_kind"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::Straight => "straight",
            Kind::PairSequence => "pair_sequence",
            Kind::FourOfAKind => "four_of_a_kind",
        }
    }

    pub fn from_u8(v: u8) -> Option<Kind> {
        Kind::ALL.get(usize::from(v)).copied()
    }
}

/// A classified combination: its cards, kind and strength. Cheap to copy (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Combo {
    pub cards: CardSet,
    pub kind: Kind,
    /// Virtual card of the highest card (see the module notes).
    pub top: u8,
}

/// Virtual-rank offset: real rank `r` (3 = 0) is `vrank r + 2`.
pub const VRANK_OFFSET: u8 = 2;
/// Virtual rank of a 2 played high.
pub const VRANK_TWO: u8 = RANK_TWO + VRANK_OFFSET;

impl Combo {
    /// A combination from its stored parts (mask, kind code, top), as pickles carry it, checked
    /// for consistency: the cards are cards, the kind exists and has that many cards of the
    /// right shape, and the top is a card among them. Never trusts the parts otherwise.
    pub fn from_parts(mask: u64, kind: u8, top: u8) -> Result<Combo, Error> {
        let bad = |why: &str| Err(Error::Rules(format!("not a combination: {why}")));
        let cards = CardSet::from_mask(mask)?;
        let Some(kind) = Kind::from_u8(kind) else {
            return bad(&format!("unknown combo kind {kind}"));
        };
        let counts = cards.rank_counts();
        let ranks = counts.iter().filter(|&&c| c > 0).count() as u32;
        let n = cards.len();
        let shaped = match kind {
            Kind::Single => n == 1,
            Kind::Pair => n == 2 && ranks == 1,
            Kind::Triple => n == 3 && ranks == 1,
            Kind::FourOfAKind => n == 4 && ranks == 1,
            Kind::Straight => n >= 2 && ranks == n,
            Kind::PairSequence => n >= 4 && counts.iter().all(|&c| c == 0 || c == 2),
        };
        if !shaped {
            return bad(&format!(
                "{n} cards in {ranks} ranks are not a {}",
                kind.name()
            ));
        }
        let vrank = top >> 2;
        if vrank > VRANK_TWO || !cards.contains(Card::new(real_rank(vrank), top & 3)) {
            return bad(&format!("top {top} is not one of the cards"));
        }
        Ok(Combo { cards, kind, top })
    }

    pub const fn len(&self) -> u32 {
        self.cards.len()
    }
    pub const fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
    /// Virtual rank of the top card.
    pub const fn top_vrank(&self) -> u8 {
        self.top >> 2
    }
    /// True for a combination whose cards are all 2s (a single 2, a pair or triple of 2s).
    pub const fn is_twos(&self) -> bool {
        !matches!(self.kind, Kind::Straight | Kind::PairSequence) && self.top_vrank() == VRANK_TWO
    }
    /// Number of pairs of a pair sequence (0 for other kinds).
    pub const fn pairs(&self) -> u32 {
        if matches!(self.kind, Kind::PairSequence) {
            self.len() / 2
        } else {
            0
        }
    }
    /// A bomb (hàng chặt): tứ quý, 3 đôi thông or 4 đôi thông.
    pub const fn is_bomb(&self) -> bool {
        matches!(self.kind, Kind::FourOfAKind) || matches!(self.pairs(), 3 | 4)
    }
}

/// Real rank index of a virtual rank.
pub const fn real_rank(vrank: u8) -> u8 {
    match vrank {
        0 => RANK_ACE,
        1 => RANK_TWO,
        v => v - VRANK_OFFSET,
    }
}

const fn virtual_top(card_index: u8) -> u8 {
    card_index + 4 * VRANK_OFFSET
}

/// Is a 4-bit suit nibble a pair of one colour (♠♣ or ♦♥)?
pub const fn same_colour_pair(nibble: u8) -> bool {
    nibble == 0b0011 || nibble == 0b1100
}

/// The combination formed by exactly these cards, or `None` if they form none.
pub fn classify(cards: CardSet, rules: &Rules) -> Option<Combo> {
    let n = cards.len();
    if n == 0 {
        return None;
    }
    let ranks = cards.rank_mask();
    let top_card = cards.highest()?.index();
    if ranks.count_ones() == 1 && n <= 4 {
        let kind = match n {
            1 => Kind::Single,
            2 => {
                if rules.same_colour_pairs && !same_colour_pair(cards.rank_nibble(top_card >> 2)) {
                    return None;
                }
                Kind::Pair
            }
            3 => Kind::Triple,
            _ => Kind::FourOfAKind,
        };
        return Some(Combo {
            cards,
            kind,
            top: virtual_top(top_card),
        });
    }
    if ranks.count_ones() == n {
        return straight(cards, ranks, rules);
    }
    if rules.pair_sequences && n >= 6 && n % 2 == 0 && ranks.count_ones() * 2 == n {
        let all_pairs = (0..RANK_TWO).all(|r| matches!(cards.rank_nibble(r).count_ones(), 0 | 2));
        if all_pairs && ranks & (1 << RANK_TWO) == 0 && is_run(u32::from(ranks)) {
            return Some(Combo {
                cards,
                kind: Kind::PairSequence,
                top: virtual_top(top_card),
            });
        }
    }
    None
}

/// Are the set bits of `m` one contiguous block?
const fn is_run(m: u32) -> bool {
    let m = m >> m.trailing_zeros();
    m & (m + 1) == 0
}

/// Cards of distinct ranks: a straight if the ranks are consecutive under the rules.
fn straight(cards: CardSet, ranks: u16, rules: &Rules) -> Option<Combo> {
    let n = cards.len();
    if n < u32::from(rules.min_straight) || n > u32::from(rules.max_straight) {
        return None;
    }
    if rules.same_suit_straights && !(0..4).any(|s| cards.of_suit(s) == cards) {
        return None;
    }
    let has_two = ranks & (1 << RANK_TWO) != 0;
    // Virtual ranks: with a 2 the straight can only be a low one (A = 0, 2 = 1, 3 = 2, …).
    let vmask: u32 = if has_two {
        if !rules.low_straights {
            return None;
        }
        (u32::from(ranks & 0x7FF) << VRANK_OFFSET) | u32::from((ranks >> RANK_ACE) & 1) | 2
    } else {
        u32::from(ranks) << VRANK_OFFSET
    };
    if !is_run(vmask) {
        return None;
    }
    let top_v = 31 - vmask.leading_zeros() as u8;
    let suit = cards.rank_nibble(real_rank(top_v)).trailing_zeros() as u8;
    Some(Combo {
        cards,
        kind: Kind::Straight,
        top: top_v * 4 + suit,
    })
}

/// Does `play` beat `table` in turn (ordinary beating or a bomb)?
pub fn beats(play: &Combo, table: &Combo, rules: &Rules) -> bool {
    if play.kind == table.kind && play.len() == table.len() {
        ordinary_beats(play, table, rules)
    } else {
        bomb_beats(play, table, rules)
    }
}

/// Same kind and length: higher top, plus the suit-following rules of the north.
fn ordinary_beats(play: &Combo, table: &Combo, rules: &Rules) -> bool {
    let higher = if rules.suit_order {
        play.top > table.top
    } else {
        play.top_vrank() > table.top_vrank()
    };
    if !higher {
        return false;
    }
    match play.kind {
        Kind::Single if rules.single_follows_suit => {
            play.is_twos() || play.top & 3 == table.top & 3
        }
        Kind::Pair if rules.same_colour_pairs => play.is_twos() || play.top & 2 == table.top & 2,
        Kind::Triple if rules.triple_follows_suits => {
            play.is_twos()
                || play.cards.rank_nibble(real_rank(play.top_vrank()))
                    == table.cards.rank_nibble(real_rank(table.top_vrank()))
        }
        Kind::Straight if rules.same_suit_straights => play.top & 3 == table.top & 3,
        _ => true,
    }
}

/// The bomb table (chặt): what each bomb cuts besides ordinary beating.
fn bomb_beats(play: &Combo, table: &Combo, rules: &Rules) -> bool {
    let single_two = table.kind == Kind::Single && table.is_twos();
    let pair_of_twos = table.kind == Kind::Pair && table.is_twos();
    match (play.kind, play.pairs()) {
        (Kind::FourOfAKind, _) => {
            single_two || (pair_of_twos && rules.quad_beats_pair_of_twos) || table.pairs() == 3
        }
        (Kind::PairSequence, 3) => single_two,
        (Kind::PairSequence, 4) => {
            single_two || pair_of_twos || table.pairs() == 3 || table.kind == Kind::FourOfAKind
        }
        _ => false,
    }
}

/// Is `play` over `table` a cut (chặt) that is paid for: a bomb beating a 2, a pair of 2s or
/// another bomb? (A 2 over a lower 2 is ordinary beating.)
pub fn is_cut(play: &Combo, table: &Combo, rules: &Rules) -> bool {
    play.is_bomb() && (table.is_bomb() || table.is_twos()) && beats(play, table, rules)
}
