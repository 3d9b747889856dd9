//! Cards of the 52-card deck and card sets as 64-bit masks.
//!
//! A card is an index `0..52` in Tiến Lên order: rank first (`3 < 4 < … < A < 2`), then suit
//! (`♠ < ♣ < ♦ < ♥`), so `3♠ = 0`, `3♣ = 1`, …, `2♥ = 51`. Bit `i` of a [`CardSet`] is card `i`,
//! which makes "all cards of one rank" a 4-bit nibble and comparisons by card order plain
//! integer comparisons.

use crate::error::Error;
use std::fmt;

/// Number of ranks (3 … A, 2).
pub const RANKS: u8 = 13;
/// Number of suits.
pub const SUITS: u8 = 4;
/// Cards in the deck.
pub const DECK_SIZE: u8 = 52;

/// Rank symbols, index 0 = `3`, index 12 = `2`.
pub const RANK_TEXT: [&str; 13] = [
    "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
];
/// ASCII rank symbols (`T` for ten).
pub const RANK_ASCII: [char; 13] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2',
];
/// Suit symbols in order: bích, chuồn (tép/nhép), rô, cơ.
pub const SUIT_TEXT: [char; 4] = ['♠', '♣', '♦', '♥'];
/// ASCII suit letters.
pub const SUIT_ASCII: [char; 4] = ['s', 'c', 'd', 'h'];

/// Rank index of the 2 (heo), the highest rank in Tiến Lên and Sâm Lốc.
pub const RANK_TWO: u8 = 12;
/// Rank index of the ace.
pub const RANK_ACE: u8 = 11;

/// One card, stored as its index `0..52` in Tiến Lên order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    /// The card with this index, if it is below 52.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < DECK_SIZE {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The card of rank index `rank` (0 = `3` … 12 = `2`) and suit index `suit` (0 = ♠ … 3 = ♥).
    pub const fn new(rank: u8, suit: u8) -> Card {
        debug_assert!(rank < RANKS && suit < SUITS);
        Card(rank * 4 + suit)
    }

    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn rank(self) -> u8 {
        self.0 >> 2
    }
    pub const fn suit(self) -> u8 {
        self.0 & 3
    }
    /// Red suits are ♦ and ♥ (suit indices 2 and 3).
    pub const fn is_red(self) -> bool {
        self.0 & 2 != 0
    }
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Canonical ASCII text, e.g. `Th`.
    pub fn ascii(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(RANK_ASCII[self.rank() as usize]);
        s.push(SUIT_ASCII[self.suit() as usize]);
        s
    }
}

impl fmt::Display for Card {
    /// Canonical Unicode text, rank first: `10♥`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANK_TEXT[self.rank() as usize],
            SUIT_TEXT[self.suit() as usize]
        )
    }
}

/// A set of cards as a bitmask: bit `i` set means card `i` is present.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct CardSet(pub u64);

/// Mask of all 52 cards.
pub const FULL_DECK: u64 = (1u64 << 52) - 1;

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const DECK: CardSet = CardSet(FULL_DECK);

    /// A set from a raw mask; bits above 51 are an error.
    pub fn from_mask(mask: u64) -> Result<CardSet, Error> {
        if mask & !FULL_DECK != 0 {
            return Err(Error::invalid_card(
                format!("{mask:#x}"),
                0,
                "mask has bits above 2♥ (bit 51)",
            ));
        }
        Ok(CardSet(mask))
    }

    pub const fn mask(self) -> u64 {
        self.0
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
    pub fn insert(&mut self, card: Card) {
        self.0 |= card.bit();
    }
    pub fn remove(&mut self, card: Card) {
        self.0 &= !card.bit();
    }

    /// The lowest card, if any.
    pub fn lowest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }
    /// The highest card, if any.
    pub fn highest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(63 - self.0.leading_zeros() as u8))
    }

    /// The 4-bit suit mask of the cards of rank index `rank`.
    pub const fn rank_nibble(self, rank: u8) -> u8 {
        ((self.0 >> (rank * 4)) & 0xF) as u8
    }
    /// The cards of one rank.
    pub const fn of_rank(self, rank: u8) -> CardSet {
        CardSet(self.0 & (0xFu64 << (rank * 4)))
    }
    /// The cards of one suit.
    pub const fn of_suit(self, suit: u8) -> CardSet {
        CardSet(self.0 & (SUIT_MASK << suit))
    }
    /// How many cards of each rank (index 0 = `3` … 12 = `2`).
    pub fn rank_counts(self) -> [u8; 13] {
        let mut counts = [0u8; 13];
        for (r, c) in counts.iter_mut().enumerate() {
            *c = self.rank_nibble(r as u8).count_ones() as u8;
        }
        counts
    }
    /// The ranks present, as a 13-bit mask (bit r = rank index r).
    pub fn rank_mask(self) -> u16 {
        // Fold each nibble to one bit, then gather the 13 bits.
        let m = self.0;
        let folded = (m | (m >> 1) | (m >> 2) | (m >> 3)) & NIBBLE_LOW_BITS;
        let mut out = 0u16;
        let mut rest = folded;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            out |= 1 << (bit / 4);
            rest &= rest - 1;
        }
        out
    }
    /// Ranks held at least `n` times, as a 13-bit mask.
    pub fn ranks_with_at_least(self, n: u32) -> u16 {
        let mut out = 0u16;
        for r in 0..RANKS {
            if self.rank_nibble(r).count_ones() >= n {
                out |= 1 << r;
            }
        }
        out
    }
    /// Iterate from the lowest card to the highest.
    /// The cards low to high (bits above 51 are not cards and are skipped).
    pub fn iter(self) -> CardIter {
        CardIter(self.0 & FULL_DECK)
    }
}

/// Bits of suit ♠ in every rank: 0b0001 repeated 13 times.
pub const SUIT_MASK: u64 = 0x1_1111_1111_1111;
const NIBBLE_LOW_BITS: u64 = SUIT_MASK;

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        CardSet(iter.into_iter().fold(0, |m, c| m | c.bit()))
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`], low to high.
#[derive(Clone, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for CardIter {}

impl CardSet {
    /// The `Display` text, built straight into one `String` (no formatting machinery: it is
    /// the text of every logged play and hand).
    pub fn text(self) -> String {
        let mut s = String::with_capacity(self.len() as usize * 6);
        for c in self.iter() {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(RANK_TEXT[c.rank() as usize]);
            s.push(SUIT_TEXT[c.suit() as usize]);
        }
        s
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing

fn suit_of(ch: char) -> Option<u8> {
    match ch {
        '♠' | '♤' | 's' | 'S' => Some(0),
        '♣' | '♧' | 'c' | 'C' => Some(1),
        '♦' | '♢' | 'd' | 'D' => Some(2),
        '♥' | '♡' | 'h' | 'H' => Some(3),
        _ => None,
    }
}

fn is_separator(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, ',' | ';' | '|')
}

/// Reads a rank at `chars[i..]`; returns the rank index and the number of chars used.
fn rank_at(chars: &[char], i: usize) -> Option<(u8, usize)> {
    let ch = *chars.get(i)?;
    let r = match ch.to_ascii_uppercase() {
        '1' => {
            return (chars.get(i + 1) == Some(&'0')).then_some((7, 2));
        }
        d @ '3'..='9' => d as u8 - b'3',
        '2' => RANK_TWO,
        'T' => 7,
        'J' => 8,
        'Q' => 9,
        'K' => 10,
        'A' => RANK_ACE,
        _ => return None,
    };
    Some((r, 1))
}

/// The mask of the cards with these indices (each below 52; the bit `1 << index`), as a
/// shuffled deck's first cards are dealt: `mask_of(&rng.permutation(52)[..13])` is a hand.
pub fn mask_of(indices: &[u32]) -> u64 {
    indices.iter().fold(0, |m, &c| m | 1u64 << c)
}

/// Parses a card text that is one card and nothing else (`"10♥"`, `"♥10"`, `"Th"`).
pub fn parse_card(text: &str) -> Result<Card, Error> {
    let cards = parse_cards_list(text)?;
    match cards.as_slice() {
        [(card, _)] => Ok(*card),
        [] => Err(Error::invalid_card(text, 0, "empty card text")),
        [_, (_, pos), ..] => Err(Error::invalid_card(text, *pos, "expected exactly one card")),
    }
}

/// Parses any number of cards in any accepted text form, keeping input order and each card's
/// character position. Duplicates are allowed here; see [`parse_card_set`].
pub fn parse_cards_list(text: &str) -> Result<Vec<(Card, usize)>, Error> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len() / 2);
    let mut i = 0;
    // A comma, semicolon or bar ends a token: two of them with only spaces between, or one at
    // either end, leave an empty token. Whitespace alone may repeat freely.
    let mut token_expected = false;
    let mut last_mark = 0;
    while i < chars.len() {
        if is_separator(chars[i]) {
            if !chars[i].is_whitespace() {
                if token_expected || out.is_empty() {
                    return Err(Error::invalid_card(
                        chars[i].to_string(),
                        i,
                        "empty card token",
                    ));
                }
                token_expected = true;
                last_mark = i;
            }
            i += 1;
            continue;
        }
        token_expected = false;
        let start = i;
        let token_end = {
            let mut j = i;
            while j < chars.len() && !is_separator(chars[j]) {
                j += 1;
            }
            j
        };
        let bad = |msg: &str| {
            let token: String = chars[start..token_end].iter().collect();
            Error::invalid_card(token, start, msg)
        };
        let (rank, suit, used) = if let Some(s) = suit_of(chars[i]).filter(|_| {
            // A leading suit letter is suit-first only if a rank follows ("s4"); "4s" is rank-first.
            rank_at(&chars, i + 1).is_some()
        }) {
            let (r, n) = rank_at(&chars, i + 1).ok_or_else(|| bad("missing rank after suit"))?;
            (r, s, 1 + n)
        } else if let Some((r, n)) = rank_at(&chars, i) {
            let s = chars
                .get(i + n)
                .and_then(|&c| suit_of(c))
                .ok_or_else(|| bad("missing or unknown suit after rank"))?;
            (r, s, n + 1)
        } else if suit_of(chars[i]).is_some() {
            return Err(bad("missing or unknown rank after suit"));
        } else {
            return Err(bad("unknown rank"));
        };
        out.push((Card::new(rank, suit), start));
        i += used;
    }
    if token_expected {
        return Err(Error::invalid_card(
            chars[last_mark].to_string(),
            last_mark,
            "empty card token",
        ));
    }
    Ok(out)
}

/// Parses cards that form a set: a duplicate card is an error naming its position.
pub fn parse_card_set(text: &str) -> Result<(Vec<Card>, CardSet), Error> {
    let list = parse_cards_list(text)?;
    let mut set = CardSet::EMPTY;
    let mut cards = Vec::with_capacity(list.len());
    for (card, pos) in list {
        if set.contains(card) {
            return Err(Error::invalid_card(card.to_string(), pos, "duplicate card"));
        }
        set.insert(card);
        cards.push(card);
    }
    Ok((cards, set))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_of_sets_one_bit_per_index() {
        assert_eq!(mask_of(&[]), 0);
        assert_eq!(mask_of(&[0, 13, 51]), 1 | 1 << 13 | 1 << 51);
        let deck: Vec<u32> = (0..52).collect();
        assert_eq!(mask_of(&deck), (1u64 << 52) - 1);
    }

    #[test]
    fn order_and_index() {
        assert_eq!(parse_card("3♠").unwrap().index(), 0);
        assert_eq!(parse_card("3♣").unwrap().index(), 1);
        assert_eq!(parse_card("2♥").unwrap().index(), 51);
        assert!(parse_card("10♠").unwrap() > parse_card("9♥").unwrap());
    }

    #[test]
    fn every_text_form_is_the_same_card() {
        for i in 0..DECK_SIZE {
            let c = Card::from_index(i).unwrap();
            let r = RANK_TEXT[c.rank() as usize];
            let ra = RANK_ASCII[c.rank() as usize];
            let s = SUIT_TEXT[c.suit() as usize];
            let sa = SUIT_ASCII[c.suit() as usize];
            let forms = [
                format!("{r}{s}"),
                format!("{s}{r}"),
                format!("{ra}{sa}"),
                format!("{}{}", ra.to_ascii_lowercase(), sa.to_ascii_uppercase()),
                format!("{sa}{ra}"),
                format!("{r}{sa}"),
                c.ascii(),
                c.to_string(),
            ];
            for f in forms {
                assert_eq!(parse_card(&f).unwrap(), c, "{f}");
            }
        }
    }

    #[test]
    fn separators_or_none() {
        let want: Vec<Card> = ["4♠", "4♣"]
            .iter()
            .map(|t| parse_card(t).unwrap())
            .collect();
        for text in ["♠4♣4", "4s4c", "4♠ 4♣", "4♠,4♣", " 4s , 4c ", "s4c4"] {
            let got: Vec<Card> = parse_cards_list(text)
                .unwrap()
                .into_iter()
                .map(|p| p.0)
                .collect();
            assert_eq!(got, want, "{text}");
        }
        let ten: Vec<Card> = parse_cards_list("10♥10♠")
            .unwrap()
            .into_iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(ten.len(), 2);
    }

    #[test]
    fn errors_name_token_and_position() {
        let e = parse_cards_list("3♠ 1♥").unwrap_err();
        assert!(matches!(e, Error::InvalidCard { position: 3, ref token, .. } if token == "1♥"));
        let e = parse_card_set("3♠ 4♦ ♠3").unwrap_err();
        assert!(matches!(e, Error::InvalidCard { position: 6, .. }));
        assert!(parse_card("").is_err());
        assert!(parse_card("3♠4♠").is_err());
        assert!(parse_card("3x").is_err());
        assert!(parse_card("♠").is_err());
        for (text, pos) in [
            ("3♠,,4♠", 3),
            (",3♠", 0),
            ("3♠ , ;4♠", 5),
            ("3♠,", 2),
            ("3♠ | ", 3),
        ] {
            let e = parse_cards_list(text).unwrap_err();
            assert!(
                matches!(e, Error::InvalidCard { position, .. } if position == pos),
                "{text}"
            );
        }
        assert_eq!(parse_cards_list("3♠ ,  4♠").unwrap().len(), 2);
    }

    #[test]
    fn set_operations() {
        let (_, s) = parse_card_set("3♠ 3♥ 5♦ 2♥").unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.rank_counts()[0], 2);
        assert_eq!(s.rank_mask(), 0b1_0000_0000_0101);
        assert_eq!(s.ranks_with_at_least(2), 1);
        assert_eq!(s.lowest().unwrap().to_string(), "3♠");
        assert_eq!(s.highest().unwrap().to_string(), "2♥");
        assert_eq!(s.of_rank(0).len(), 2);
        assert_eq!(s.of_suit(3).len(), 2);
        let order: Vec<String> = s.iter().map(|c| c.to_string()).collect();
        assert_eq!(order, ["3♠", "3♥", "5♦", "2♥"]);
        assert_eq!(s.to_string(), "3♠ 3♥ 5♦ 2♥");
    }

    #[test]
    fn text_is_the_cards_joined_by_spaces() {
        let mut m: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            m = m
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            for set in [
                CardSet(m & FULL_DECK),
                CardSet(m & (m >> 7) & FULL_DECK),
                CardSet(m & m >> 3 & m >> 9 & FULL_DECK),
            ] {
                let joined: Vec<String> = set.iter().map(|c| c.to_string()).collect();
                assert_eq!(set.text(), joined.join(" "));
            }
        }
        assert_eq!(CardSet(0).text(), "");
        assert_eq!(CardSet(FULL_DECK).text().split(' ').count(), 52);
    }
}
