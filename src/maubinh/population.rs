//! The opponents a solver model assumes, per class of the player's own hand (card removal).
//!
//! The cards a player holds are cards no opponent holds: three aces in my hand make an
//! opponent's ace-high front or pair of aces rare. The expected tables ignore this (one
//! population for every hand). The equilibrium tables split the population by a [`Scheme`]:
//! a few counts of the player's own hand that move the opponents' strength the most (measured:
//! the aces, the kings, and how many distinct ranks it holds), and keep one set of histograms
//! per class: what opponents play *given that the player holds such a hand*. The solver then
//! reads the tables of its hand's class; the search and its bounds are unchanged, so the cost
//! of a solve is the same.

use super::expected::{Histograms, Model, Tables};
use super::{Arrangement, Rules, Scoring, Wheel};
use crate::cards::CardSet;
use crate::error::{Error, Result};
use std::sync::{Arc, Mutex, OnceLock};

const MAGIC: &[u8; 4] = b"MBT3";
const ACES: u64 = 0xF << 44;
const KINGS: u64 = 0xF << 40;
/// The cards of suit 0 (card index `4 · rank + suit`).
const SUIT: u64 = 0x1_1111_1111_1111;

/// How a population is split by the player's own hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// One population for every hand (the expected tables).
    Whole,
    /// By aces held (0, 1, 2, 3+), kings held (0, 1, 2+) and distinct ranks (up to 9, 10+):
    /// 24 classes.
    HighCards,
    /// By aces held (0, 1, 2, 3+), kings held (0, 1, 2+) and the longest suit (up to 4, 5+):
    /// 24 classes. A long suit of the player's leaves the other three suits longer among the
    /// 39 cards the opponents hold, so their flushes are more common.
    Suits,
    /// [`Scheme::HighCards`]' classes, each split by the longest suit (up to 4, 5+): 48
    /// classes. Its files (2.95 MB of 32-bit counts) are twice what the wheel may ship.
    HighCardsSuits,
}

impl Scheme {
    pub fn id(self) -> u8 {
        self as u8
    }

    pub fn from_id(id: u8) -> Result<Scheme> {
        match id {
            0 => Ok(Scheme::Whole),
            1 => Ok(Scheme::HighCards),
            2 => Ok(Scheme::Suits),
            3 => Ok(Scheme::HighCardsSuits),
            other => Err(Error::Rules(format!("unknown population scheme {other}"))),
        }
    }

    /// Classes of hands.
    pub fn classes(self) -> usize {
        match self {
            Scheme::Whole => 1,
            Scheme::HighCards | Scheme::Suits => 24,
            Scheme::HighCardsSuits => 48,
        }
    }

    /// The class of a player's 13 cards.
    #[inline]
    pub fn class(self, hand: u64) -> usize {
        match self {
            Scheme::Whole => 0,
            Scheme::HighCards => {
                let aces = (hand & ACES).count_ones().min(3) as usize;
                let kings = (hand & KINGS).count_ones().min(2) as usize;
                let wide = (CardSet(hand).rank_mask().count_ones() >= 10) as usize;
                (aces * 3 + kings) * 2 + wide
            }
            Scheme::Suits => {
                let aces = (hand & ACES).count_ones().min(3) as usize;
                let kings = (hand & KINGS).count_ones().min(2) as usize;
                (aces * 3 + kings) * 2 + long_suit(hand)
            }
            Scheme::HighCardsSuits => Scheme::HighCards.class(hand) * 2 + long_suit(hand),
        }
    }
}

/// 1 if the hand holds five or more of one suit, else 0.
#[inline]
fn long_suit(hand: u64) -> usize {
    (0..4).any(|s| (hand & SUIT << s).count_ones() >= 5) as usize
}

/// Opponent histograms per class of the player's hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    pub scheme: Scheme,
    pub parts: Vec<Histograms>,
}

impl Census {
    pub fn empty(scheme: Scheme) -> Census {
        Census {
            scheme,
            parts: vec![Histograms::empty(); scheme.classes()],
        }
    }

    pub fn merge(&mut self, other: &Census) {
        for (a, b) in self.parts.iter_mut().zip(&other.parts) {
            a.merge(b);
        }
    }

    /// Binary form: one population is the `MBT2` form of [`Histograms::to_bytes`]; a split one
    /// is `MBT3`, a little-endian u32 length and that many bytes of UTF-8 JSON (the header),
    /// the scheme's id (one byte), then per class little-endian u32 counts: back, middle
    /// (7,462 each), front (455).
    pub fn to_bytes(&self, header: &str) -> Result<Vec<u8>> {
        if self.scheme == Scheme::Whole {
            return Ok(self.parts[0].to_bytes(header));
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.push(self.scheme.id());
        for h in &self.parts {
            for &c in h.back.iter().chain(&h.middle).chain(&h.front) {
                let c = u32::try_from(c)
                    .map_err(|_| Error::Rules("split population counts must fit 32 bits".into()))?;
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// The JSON header of either binary form.
    pub fn header(bytes: &[u8]) -> Result<&str> {
        if bytes.get(..4) != Some(MAGIC) {
            return Histograms::header(bytes);
        }
        Ok(Census::split(bytes)?.0)
    }

    fn split(bytes: &[u8]) -> Result<(&str, Scheme, &[u8])> {
        let bad =
            || Error::Rules("split tables must start with MBT3, a header and a scheme".into());
        if bytes.len() < 9 || &bytes[..4] != MAGIC {
            return Err(bad());
        }
        let len = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
        let header = bytes.get(8..8 + len).ok_or_else(bad)?;
        let header = std::str::from_utf8(header).map_err(|_| bad())?;
        let scheme = Scheme::from_id(*bytes.get(8 + len).ok_or_else(bad)?)?;
        Ok((header, scheme, &bytes[9 + len..]))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Census> {
        if bytes.get(..4) != Some(MAGIC) {
            return Ok(Census {
                scheme: Scheme::Whole,
                parts: vec![Histograms::from_bytes(bytes)?],
            });
        }
        let (_, scheme, counts) = Census::split(bytes)?;
        let per = 2 * super::eval::CLASSES5 + super::eval::CLASSES3;
        let want = 4 * per * scheme.classes();
        if counts.len() != want {
            return Err(Error::Rules(format!(
                "split tables must hold {want} bytes of counts after the scheme"
            )));
        }
        let values: Vec<u64> = counts
            .chunks_exact(4)
            .map(|c| u64::from(u32::from_le_bytes(c.try_into().expect("4 bytes"))))
            .collect();
        let parts = values
            .chunks_exact(per)
            .map(Histograms::from_counts)
            .collect();
        Ok(Census { scheme, parts })
    }

    /// A model's shipped census for a scoring.
    pub fn shipped(model: Model, scoring: Scoring) -> &'static Census {
        static C: [OnceLock<Census>; 4] = [const { OnceLock::new() }; 4];
        let slot = 2 * (model as usize) + (scoring == Scoring::FourTwo) as usize;
        C[slot].get_or_init(|| {
            Census::from_bytes(model.file(scoring)).expect("shipped tables are well-formed")
        })
    }
}

/// The solver's tables for one model: one [`Tables`] per class of the player's hand.
#[derive(Clone, Debug)]
pub struct Population {
    pub scheme: Scheme,
    pub parts: Vec<Tables>,
}

impl Population {
    /// One set of tables for every hand.
    pub fn single(tables: Tables) -> Population {
        Population {
            scheme: Scheme::Whole,
            parts: vec![tables],
        }
    }

    pub fn from_census(c: &Census, rules: &Rules) -> Population {
        Population {
            scheme: c.scheme,
            parts: c
                .parts
                .iter()
                .map(|h| Tables::from_histograms(h, rules))
                .collect(),
        }
    }

    /// The tables a hand is solved with.
    #[inline]
    pub fn for_hand(&self, hand: u64) -> &Tables {
        &self.parts[self.scheme.class(hand)]
    }

    /// Expected units against one opponent of an arrangement, under its hand's tables.
    pub fn arrangement_value(&self, a: &Arrangement, rules: &Rules) -> f64 {
        self.for_hand(a.cards())
            .arrangement_value(a.back, a.middle, a.front, rules)
    }

    /// The tables from a model's shipped census for the options they depend on (the scoring,
    /// the wheel and the back straight flush's units), built once per combination and kept
    /// for the few most recent combinations.
    pub fn shipped(rules: &Rules, model: Model) -> Arc<Population> {
        const KEPT: usize = 6;
        type Key = (Model, Scoring, Wheel, u8);
        type Cache = Mutex<Vec<(Key, Arc<Population>)>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let key = (
            model,
            rules.scoring,
            rules.wheel,
            rules.back_straight_flush_units,
        );
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let lookup = |c: &Cache| {
            let kept = c.lock().unwrap_or_else(|e| e.into_inner());
            kept.iter().find(|(k, _)| *k == key).map(|(_, t)| t.clone())
        };
        if let Some(t) = lookup(cache) {
            return t;
        }
        let built = Arc::new(Population::from_census(
            Census::shipped(model, rules.scoring),
            rules,
        ));
        let mut kept = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = kept.iter().find(|(k, _)| *k == key) {
            return t.clone();
        }
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((key, built.clone()));
        built
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    fn m(text: &str) -> u64 {
        parse_card_set(text).unwrap().1 .0
    }

    /// 20,000 seeded random 13-card hands.
    fn random_hands() -> impl Iterator<Item = u64> {
        let mut rng = crate::rng::Rng::from_key([2; 32]);
        (0..20_000).map(move |_| rng.permutation(52)[..13].iter().map(|&c| 1u64 << c).sum())
    }

    #[test]
    fn high_card_classes() {
        let s = Scheme::HighCards;
        assert_eq!(s.class(m("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs 2h 3h")), 1);
        assert_eq!(s.class(m("As Ah Ad Ac Ks Kh Kd 2s 2h 3s 3h 4s 4h")), 22);
        assert_eq!(s.class(m("As Ks 2h 2d 2c 3s 3h 3d 4s 4h 5s 5h 6s")), 8);
        let mut seen = [false; 24];
        for h in random_hands() {
            seen[s.class(h)] = true;
        }
        assert!(seen.iter().all(|&x| x));
        assert_eq!(
            Scheme::Whole.class(m("As Ah Ad Ac Ks Kh Kd 2s 2h 3s 3h 4s 4h")),
            0
        );
    }

    #[test]
    fn suit_classes() {
        let s = Scheme::Suits;
        // Eleven spades (a long suit), no ace or king.
        assert_eq!(s.class(m("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs 2h 3h")), 1);
        // Four aces, three kings, four suits of at most four.
        assert_eq!(s.class(m("As Ah Ad Ac Ks Kh Kd 2s 2h 3d 3c 4s 4h")), 22);
        // One ace, one king, five hearts.
        assert_eq!(s.class(m("As Ks 2h 3h 4h 5h 6h 2d 3d 4d 2c 3c 4c")), 9);
        let mut seen = [0u32; 24];
        for h in random_hands() {
            let long =
                (0..4).any(|suit| (0..13).filter(|r| h >> (4 * r + suit) & 1 == 1).count() >= 5);
            let class = s.class(h);
            assert_eq!(class % 2 == 1, long);
            assert_eq!(
                class / 2,
                Scheme::HighCards.class(h) / 2,
                "the same high cards"
            );
            seen[class] += 1;
        }
        assert!(seen.iter().all(|&x| x > 0));
        assert_eq!(Scheme::from_id(2).unwrap(), s);
        // The 48 classes: the high-card class, then the long suit.
        let both = Scheme::HighCardsSuits;
        assert_eq!(Scheme::from_id(3).unwrap(), both);
        let mut seen = [false; 48];
        for h in random_hands() {
            let class = both.class(h);
            assert_eq!(class / 2, Scheme::HighCards.class(h));
            assert_eq!(class % 2, s.class(h) % 2);
            seen[class] = true;
        }
        assert!(seen.iter().all(|&x| x));
    }

    #[test]
    fn binary_forms_round_trip_and_refuse_damage() {
        let mut c = Census::empty(Scheme::HighCards);
        c.parts[3].back[7] = 9;
        c.parts[23].front[454] = 1 << 31;
        let bytes = c.to_bytes(r#"{"deals":1}"#).unwrap();
        assert_eq!(Census::from_bytes(&bytes).unwrap(), c);
        assert_eq!(Census::header(&bytes).unwrap(), r#"{"deals":1}"#);
        assert!(Census::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut unknown = bytes.clone();
        unknown[8 + 11] = 7;
        assert!(Census::from_bytes(&unknown).is_err());
        c.parts[0].middle[0] = 1 << 40;
        assert!(c.to_bytes("{}").is_err());
        let whole = Census::empty(Scheme::Whole);
        let bytes = whole.to_bytes("{}").unwrap();
        assert_eq!(&bytes[..4], b"MBT2");
        assert_eq!(Census::from_bytes(&bytes).unwrap(), whole);
    }
}
