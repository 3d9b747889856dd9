//! Card encoders for learning environments: card texts as fixed-width count rows, the
//! building block of an observation vector (a seat's hand, a trick, a dead pile) and of the
//! per-action card features agents score actions with (RLCard / DouZero style).
//!
//! Two decks: the French 52-card deck (`Card::index`, 0..52) of Tiến Lên, Sâm Lốc and Mậu
//! Binh, and Tứ Sắc's 28 kinds (`Kind::index`, 0..28, up to four copies each). A row holds
//! the number of copies of each card in its group (0/1 for the French deck).

pub mod observation;

use crate::cards::parse_cards_list;
use crate::error::Error;
use crate::tusac;

/// Which deck a row encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    /// 52 cards, index `rank * 4 + suit` (`Card::index`).
    French,
    /// 28 Tứ Sắc kinds, index `piece * 4 + colour` (`Kind::index`).
    TuSac,
}

impl Deck {
    /// The deck by name: `"52"` / `"french"` or `"tusac"` / `"28"`.
    pub fn from_name(name: &str) -> Result<Deck, Error> {
        match name {
            "52" | "french" => Ok(Deck::French),
            "28" | "tusac" => Ok(Deck::TuSac),
            _ => Err(Error::Rules(format!(
                "unknown deck {name:?} (decks: \"52\", \"tusac\")"
            ))),
        }
    }

    /// The width of a row: 52 or 28.
    pub const fn width(self) -> usize {
        match self {
            Deck::French => 52,
            Deck::TuSac => tusac::cards::KINDS,
        }
    }

    /// Adds the cards written in `text` (any number, any accepted spelling) to `row`.
    pub fn add_text(self, text: &str, row: &mut [u8]) -> Result<(), Error> {
        match self {
            Deck::French => {
                for (card, _) in parse_cards_list(text)? {
                    let cell = &mut row[card.index() as usize];
                    *cell = cell.saturating_add(1);
                }
            }
            Deck::TuSac => {
                for kind in tusac::parse_cards(text)? {
                    let cell = &mut row[kind.index() as usize];
                    *cell = cell.saturating_add(1);
                }
            }
        }
        Ok(())
    }
}

/// One count row per group (row-major, `groups.len() * deck.width()` cells); a group is a list
/// of card texts, each of which may hold several cards.
///
/// ```
/// use _core::encode::{encode_rows, Deck};
/// let rows = encode_rows(Deck::French, &[vec!["3♠ 3♣"], vec![], vec!["2♥"]]).unwrap();
/// assert_eq!(rows.len(), 3 * 52);
/// assert_eq!((rows[0], rows[1], rows[2]), (1, 1, 0));
/// assert_eq!(rows[2 * 52 + 51], 1);
/// ```
pub fn encode_rows<S: AsRef<str>>(deck: Deck, groups: &[Vec<S>]) -> Result<Vec<u8>, Error> {
    let width = deck.width();
    let mut out = vec![0u8; groups.len() * width];
    for (row, group) in out.chunks_mut(width).zip(groups) {
        for text in group {
            deck.add_text(text.as_ref(), row)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_rows_mark_each_card_once() {
        let rows = encode_rows(Deck::French, &[vec!["3♠", "4♥ 5♦"], vec!["A♣"]]).unwrap();
        assert_eq!(rows.iter().map(|&x| x as u32).sum::<u32>(), 4);
        assert!(encode_rows(Deck::French, &[vec!["zz"]]).is_err());
    }

    #[test]
    fn tusac_rows_count_copies() {
        let rows = encode_rows(Deck::TuSac, &[vec!["KR KR", "PW"]]).unwrap();
        assert_eq!(rows.len(), 28);
        assert_eq!(rows.iter().map(|&x| x as u32).sum::<u32>(), 3);
        assert_eq!(rows.iter().copied().max(), Some(2));
        assert!(Deck::from_name("uno").is_err());
    }
}
