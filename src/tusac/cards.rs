//! Tứ Sắc cards: 7 pieces × 4 colours = 28 kinds, 4 identical copies each (112 cards).
//!
//! A kind is `piece * 4 + colour`; a hand is a multiset, stored as [`Hand`] (a count per kind)
//! and packed into a `u128` with 3 bits per kind for cheap transport.

use crate::error::Error;
use std::fmt;

pub const PIECES: usize = 7;
pub const COLOURS: usize = 4;
pub const KINDS: usize = 28;
pub const COPIES: u8 = 4;

/// Piece letters in kind order: Tướng, Sĩ, Tượng, Xe, Pháo, Mã, Chốt.
pub const PIECE_LETTERS: [char; PIECES] = ['K', 'A', 'E', 'R', 'C', 'H', 'P'];
/// Colour letters in kind order: vàng, đỏ, xanh, trắng.
pub const COLOUR_LETTERS: [char; COLOURS] = ['Y', 'R', 'G', 'W'];
pub const PIECE_NAMES: [&str; PIECES] = ["Tướng", "Sĩ", "Tượng", "Xe", "Pháo", "Mã", "Chốt"];
pub const COLOUR_NAMES: [&str; COLOURS] = ["vàng", "đỏ", "xanh", "trắng"];

pub const GENERAL: u8 = 0;
pub const ADVISOR: u8 = 1;
pub const ELEPHANT: u8 = 2;
pub const CHARIOT: u8 = 3;
pub const CANNON: u8 = 4;
pub const HORSE: u8 = 5;
pub const SOLDIER: u8 = 6;

/// One of the 28 kinds of card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kind(u8);

impl Kind {
    pub const fn new(piece: u8, colour: u8) -> Kind {
        Kind(piece * 4 + colour)
    }
    pub const fn from_index(index: u8) -> Option<Kind> {
        if (index as usize) < KINDS {
            Some(Kind(index))
        } else {
            None
        }
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn piece(self) -> u8 {
        self.0 / 4
    }
    pub const fn colour(self) -> u8 {
        self.0 % 4
    }
    pub const fn is_general(self) -> bool {
        self.piece() == GENERAL
    }
    /// The Vietnamese name, e.g. `Tướng đỏ`.
    pub fn name(self) -> String {
        format!(
            "{} {}",
            PIECE_NAMES[self.piece() as usize],
            COLOUR_NAMES[self.colour() as usize]
        )
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            PIECE_LETTERS[self.piece() as usize],
            COLOUR_LETTERS[self.colour() as usize]
        )
    }
}

/// The most cards one seat's hand can hold at once: the dealer's 21 plus an offered card
/// being considered with them. Larger multisets (up to the 112-card deck) are valid hands for
/// packing and counting, but the split and claim searches refuse them (their work grows fast).
pub const MAX_HAND: u32 = 22;

/// A multiset of cards: how many copies of each kind (0..=4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub [u8; KINDS]);

impl Hand {
    pub const EMPTY: Hand = Hand([0; KINDS]);
    /// All 112 cards.
    pub const DECK: Hand = Hand([COPIES; KINDS]);

    /// This hand, if it holds at most [`MAX_HAND`] cards (the searches' bound).
    pub fn checked(self) -> Result<Hand, Error> {
        let n = self.len();
        if n > MAX_HAND {
            return Err(Error::invalid_card(
                self.to_string(),
                MAX_HAND as usize,
                &format!("a Tứ Sắc hand holds at most {MAX_HAND} cards, not {n}"),
            ));
        }
        Ok(self)
    }

    /// Checks that `offer` can join this hand: a fifth copy of a kind does not exist.
    pub fn check_offer(&self, offer: Kind) -> Result<(), Error> {
        if self.count(offer) >= COPIES {
            return Err(Error::invalid_card(
                offer.to_string(),
                0,
                "the offer would be a fifth copy",
            ));
        }
        Ok(())
    }

    pub fn count(&self, k: Kind) -> u8 {
        self.0[k.0 as usize]
    }
    pub fn len(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }
    pub fn add(&mut self, k: Kind) {
        self.0[k.0 as usize] += 1;
    }
    /// Removes one copy; false (and unchanged) when there is none.
    pub fn take(&mut self, k: Kind) -> bool {
        let c = &mut self.0[k.0 as usize];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }
    /// Whether `other` is a sub-multiset of this hand.
    pub fn contains(&self, other: &Hand) -> bool {
        self.0.iter().zip(other.0).all(|(&a, b)| a >= b)
    }
    pub fn minus(&self, other: &Hand) -> Hand {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a -= b;
        }
        out
    }
    pub fn from_kinds(kinds: &[Kind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }
    /// The cards in kind order, repeated by count.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut out = Vec::with_capacity(self.len() as usize);
        for (i, &c) in self.0.iter().enumerate() {
            for _ in 0..c {
                out.push(Kind(i as u8));
            }
        }
        out
    }
    /// Packs the counts, 3 bits per kind (kind i at bits 3i..3i+3).
    pub fn pack(&self) -> u128 {
        self.0
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, &c)| acc | (c as u128) << (3 * i))
    }
    /// Unpacks [`Hand::pack`]; a count above 4 or a bit beyond kind 27 is an error.
    pub fn unpack(packed: u128) -> Result<Hand, Error> {
        if packed >> (3 * KINDS) != 0 {
            return Err(Error::invalid_card(
                format!("{packed:#x}"),
                0,
                "not a packed Tứ Sắc hand",
            ));
        }
        let mut h = Hand::EMPTY;
        for (i, c) in h.0.iter_mut().enumerate() {
            *c = ((packed >> (3 * i)) & 7) as u8;
            if *c > COPIES {
                return Err(Error::invalid_card(
                    Kind(i as u8).to_string(),
                    i,
                    "more than 4 copies",
                ));
            }
        }
        Ok(h)
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.kinds().iter().map(|k| k.to_string()).collect();
        f.write_str(&text.join(" "))
    }
}

fn fold(word: &str) -> String {
    // Lower case and strip Vietnamese diacritics, so `Tướng`, `tuong` and `TƯỚNG` compare equal.
    word.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'ả' | 'ã' | 'ạ' | 'ă' | 'ằ' | 'ắ' | 'ẳ' | 'ẵ' | 'ặ' | 'â' | 'ầ' | 'ấ'
            | 'ẩ' | 'ẫ' | 'ậ' => 'a',
            'è' | 'é' | 'ẻ' | 'ẽ' | 'ẹ' | 'ê' | 'ề' | 'ế' | 'ể' | 'ễ' | 'ệ' => {
                'e'
            }
            'ì' | 'í' | 'ỉ' | 'ĩ' | 'ị' => 'i',
            'ò' | 'ó' | 'ỏ' | 'õ' | 'ọ' | 'ô' | 'ồ' | 'ố' | 'ổ' | 'ỗ' | 'ộ' | 'ơ' | 'ờ' | 'ớ'
            | 'ở' | 'ỡ' | 'ợ' => 'o',
            'ù' | 'ú' | 'ủ' | 'ũ' | 'ụ' | 'ư' | 'ừ' | 'ứ' | 'ử' | 'ữ' | 'ự' => {
                'u'
            }
            'ỳ' | 'ý' | 'ỷ' | 'ỹ' | 'ỵ' => 'y',
            'đ' => 'd',
            other => other,
        })
        .collect()
}

/// The piece named by a Vietnamese word. Plain `tuong` is ambiguous (Tướng or Tượng), so
/// without diacritics only the exact spellings with them pick one.
fn piece_from_word(word: &str) -> Result<Option<u8>, &'static str> {
    let lower: String = word.chars().flat_map(char::to_lowercase).collect();
    match lower.as_str() {
        "tướng" => return Ok(Some(GENERAL)),
        "tượng" => return Ok(Some(ELEPHANT)),
        _ => {}
    }
    Ok(match fold(word).as_str() {
        "tuong" => return Err("ambiguous piece name (Tướng or Tượng? write the diacritics)"),
        "si" | "sy" => Some(ADVISOR),
        "xe" => Some(CHARIOT),
        "phao" => Some(CANNON),
        "ma" => Some(HORSE),
        "chot" | "tot" => Some(SOLDIER),
        _ => None,
    })
}

fn colour_from_word(word: &str) -> Option<u8> {
    match fold(word).as_str() {
        "vang" => Some(0),
        "do" => Some(1),
        "xanh" => Some(2),
        "trang" => Some(3),
        _ => None,
    }
}

fn letter_code(piece: char, colour: char) -> Option<Kind> {
    let p = PIECE_LETTERS
        .iter()
        .position(|&c| c == piece.to_ascii_uppercase())?;
    let c = COLOUR_LETTERS
        .iter()
        .position(|&c| c == colour.to_ascii_uppercase())?;
    Some(Kind::new(p as u8, c as u8))
}

/// Cards from text: letter codes (`KR PW`, `kr,pw`, `KRPW`) or Vietnamese names (`Tướng đỏ`,
/// `Chot trang`), in input order. Errors name the offending token and its character offset.
pub fn parse_cards(text: &str) -> Result<Vec<Kind>, Error> {
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut start: Option<usize> = None;
    for (byte, ch) in text.char_indices() {
        if ch.is_whitespace() || ch == ',' || ch == ';' {
            if let Some(s) = start.take() {
                words.push((s, &text[s..byte]));
            }
        } else if start.is_none() {
            start = Some(byte);
        }
    }
    if let Some(s) = start {
        words.push((s, &text[s..]));
    }
    let position = |byte: usize| text[..byte].chars().count();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (at, word) = words[i];
        match piece_from_word(word) {
            Err(msg) => return Err(Error::invalid_card(word, position(at), msg)),
            Ok(Some(piece)) => {
                let Some(&(cat, cword)) = words.get(i + 1) else {
                    return Err(Error::invalid_card(
                        word,
                        position(at),
                        "piece name without a colour",
                    ));
                };
                let Some(colour) = colour_from_word(cword) else {
                    return Err(Error::invalid_card(cword, position(cat), "unknown colour"));
                };
                out.push(Kind::new(piece, colour));
                i += 2;
                continue;
            }
            Ok(None) => {}
        }
        let letters: Vec<char> = word.chars().collect();
        if letters.len() % 2 != 0 || letters.is_empty() {
            return Err(Error::invalid_card(word, position(at), "not a Tứ Sắc card"));
        }
        for (j, pair) in letters.chunks(2).enumerate() {
            match letter_code(pair[0], pair[1]) {
                Some(k) => out.push(k),
                None => {
                    let token: String = pair.iter().collect();
                    return Err(Error::invalid_card(
                        token,
                        position(at) + 2 * j,
                        "not a Tứ Sắc card",
                    ));
                }
            }
        }
        i += 1;
    }
    Ok(out)
}

/// Exactly one card from text.
pub fn parse_card(text: &str) -> Result<Kind, Error> {
    let cards = parse_cards(text)?;
    match cards.as_slice() {
        [k] => Ok(*k),
        [] => Err(Error::invalid_card(text, 0, "empty card text")),
        _ => Err(Error::invalid_card(text, 0, "expected one card")),
    }
}

/// A multiset from text; more than 4 copies of a kind is an error.
pub fn parse_hand(text: &str) -> Result<Hand, Error> {
    let mut h = Hand::EMPTY;
    for (i, k) in parse_cards(text)?.into_iter().enumerate() {
        if h.count(k) == COPIES {
            return Err(Error::invalid_card(k.to_string(), i, "more than 4 copies"));
        }
        h.add(k);
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_names() {
        assert_eq!(parse_card("KR").unwrap(), Kind::new(GENERAL, 1));
        assert_eq!(parse_card("pw").unwrap(), Kind::new(SOLDIER, 3));
        assert_eq!(parse_card("Tướng đỏ").unwrap(), Kind::new(GENERAL, 1));
        assert_eq!(parse_card("Tượng xanh").unwrap(), Kind::new(ELEPHANT, 2));
        assert_eq!(parse_card("Chot trang").unwrap(), Kind::new(SOLDIER, 3));
        assert_eq!(parse_cards("KRPW, Xe vàng").unwrap().len(), 3);
        assert_eq!(Kind::new(GENERAL, 1).name(), "Tướng đỏ");
        assert_eq!(Kind::new(SOLDIER, 3).to_string(), "PW");
    }

    #[test]
    fn errors_name_token_and_position() {
        match parse_cards("KR ZZ") {
            Err(Error::InvalidCard {
                token, position, ..
            }) => {
                assert_eq!((token.as_str(), position), ("ZZ", 3))
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_card("tuong do").is_err());
        assert!(parse_card("").is_err());
        assert!(parse_hand("KR KR KR KR KR").is_err());
    }

    #[test]
    fn pack_round_trip() {
        let h = parse_hand("KR KR PW HY HY HY").unwrap();
        assert_eq!(Hand::unpack(h.pack()).unwrap(), h);
        assert_eq!(Hand::unpack(Hand::DECK.pack()).unwrap().len(), 112);
    }
}
