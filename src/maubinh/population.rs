//! The opponents a solver model assumes, per class of the player's own hand (card removal).
//!
//! The cards a player holds are cards no opponent holds: three aces in my hand make an
//! opponent's ace-high front or pair of aces rare. The expected tables ignore this (one
//! population for every hand). The equilibrium tables split the population by a [`Scheme`]:
//! a few counts of the player's own hand that move the opponents' strength the most (measured:
//! the aces, the kings, how many distinct ranks it holds and its longest suit: 48 classes), and
//! keep one set of histograms per class: what opponents play *given that the player holds such
//! a hand*. The solver then reads the tables of its hand's class; the search and its bounds are
//! unchanged. The shipped files are in the compact form ([`Census::to_compact`]).

use super::eval::{CLASSES3, CLASSES5};
use super::expected::{split_value, Combine, Histograms, Model, Tables};
use super::framing::{frame, refuse_newer, unframe};
use super::joint::Joint;
use super::removal::{Removal, Seen};
use super::{Arrangement, Rules, Scoring, Wheel};
use crate::cards::CardSet;
use crate::error::{Error, Result};
use std::sync::{Arc, Mutex, OnceLock};

const MAGIC: &[u8; 4] = b"MBT3";
/// The compact form's magic: the format's version (`MBT2` and `MBT3` hold exact counts).
const COMPACT: &[u8; 4] = b"MBT4";
/// The newest table format this build reads: a file of a later one is refused by name.
const NEWEST: u8 = b'4';
/// Bits of the compact form's quantization: each position's cumulative shares are kept to the
/// nearest multiple of `2^-COMPACT_BITS`.
pub const COMPACT_BITS: u8 = 16;
/// Total count per position (and class) of decoded compact tables: the blended tables' scale,
/// so the solver's pseudo-count weighs the same as in the exact files.
const DECODED_TOTAL: u32 = 31;
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
    /// classes, the shipped equilibrium tables' (0.47 MB each in the compact form, 2.95 MB
    /// of 32-bit counts).
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

/// Counts of one class's back, middle and front.
const PER: usize = 2 * CLASSES5 + CLASSES3;

/// Refuses a table file of a format newer than this build reads, naming it.
fn known_format(bytes: &[u8]) -> Result<()> {
    refuse_newer(
        bytes,
        b"MBT",
        NEWEST,
        "Mậu Binh tables",
        "this vncards reads MBT2, MBT3 and MBT4 only (a newer version wrote them: upgrade \
         vncards, or regenerate the tables with this version's scripts/gen_maubinh_tables.py)",
    )
}

/// Appends the quantized counts of one position: its cumulative shares rounded to multiples of
/// `2^-bits`, differenced (all 0 for a position with no hands).
fn quantize(counts: &[u64], bits: u8, out: &mut Vec<u64>) {
    let total: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if total == 0 {
        out.resize(out.len() + counts.len(), 0);
        return;
    }
    let scale = 1u128 << bits;
    let (mut below, mut last) = (0u128, 0u128);
    for &c in counts {
        below += u128::from(c);
        // The nearest multiple, halves rounded up: (2·below·scale + total) div (2·total).
        let rounded = (2 * below * scale + total) / (2 * total);
        out.push((rounded - last) as u64);
        last = rounded;
    }
}

fn leb128(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The next unsigned LEB128 number of `stream` (None: it ends inside one, or overflows).
fn read_leb128(stream: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for (i, &byte) in stream.iter().enumerate().take(10) {
        v |= u64::from(byte & 0x7f).checked_shl(7 * i as u32)?;
        if byte & 0x80 == 0 {
            *stream = &stream[i + 1..];
            return Some(v);
        }
    }
    None
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
        let mut out = frame(MAGIC, header);
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
        known_format(bytes)?;
        if bytes.get(..4) == Some(COMPACT) {
            return Ok(Census::split(bytes, COMPACT)?.0);
        }
        if bytes.get(..4) != Some(MAGIC) {
            return Histograms::header(bytes);
        }
        Ok(Census::split(bytes, MAGIC)?.0)
    }

    fn split<'a>(bytes: &'a [u8], magic: &[u8; 4]) -> Result<(&'a str, Scheme, &'a [u8])> {
        let name = std::str::from_utf8(magic).expect("ASCII");
        let bad = || {
            Error::Rules(format!(
                "Mậu Binh tables of form {name} must start with {name}, a header and a scheme"
            ))
        };
        let (header, body) = unframe(bytes, magic).ok_or_else(bad)?;
        let (&scheme, rest) = body.split_first().ok_or_else(bad)?;
        Ok((header, Scheme::from_id(scheme)?, rest))
    }

    /// Reads any of the three binary forms: `MBT2` (one population), `MBT3` (split, exact
    /// counts) and the compact `MBT4` (see [`Census::to_compact`]); a file of a later form is
    /// refused with an error that names it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Census> {
        known_format(bytes)?;
        if bytes.get(..4) == Some(COMPACT) {
            return Census::from_compact(bytes);
        }
        if bytes.get(..4) != Some(MAGIC) {
            return Ok(Census {
                scheme: Scheme::Whole,
                parts: vec![Histograms::from_bytes(bytes)?],
            });
        }
        let (_, scheme, counts) = Census::split(bytes, MAGIC)?;
        let want = 4 * PER * scheme.classes();
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
            .chunks_exact(PER)
            .map(Histograms::from_counts)
            .collect();
        Ok(Census { scheme, parts })
    }

    /// The compact form, `MBT4`: the magic, a little-endian u32 length and that many bytes of
    /// UTF-8 JSON (the header), the scheme's id (one byte), the quantization `bits` (one byte,
    /// [`COMPACT_BITS`]), then per class the back, middle and front as quantized counts: each
    /// position's cumulative shares rounded to the nearest multiple of `2^-bits`, and the
    /// differences of those (summing to `2^bits`, or 0 for a position with no hands) written
    /// as unsigned LEB128 numbers, where a 0 is followed by the LEB128 length of its run of
    /// zeros (most classes are never played at a position). Reading it back gives counts that
    /// total `2^31` per position, whose cumulative shares, so every `win` and `lose`
    /// probability the solver reads, are within `2^-(bits+1)` of the exact counts'
    /// (`7.6·10⁻⁶` at 16 bits); 48 classes take about 0.47 MB where `MBT3` takes 2.95 MB.
    pub fn to_compact(&self, header: &str) -> Vec<u8> {
        let mut out = frame(COMPACT, header);
        out.push(self.scheme.id());
        out.push(COMPACT_BITS);
        let mut values = Vec::with_capacity(self.parts.len() * PER);
        for h in &self.parts {
            for position in [&h.back, &h.middle, &h.front] {
                quantize(position, COMPACT_BITS, &mut values);
            }
        }
        let mut i = 0;
        while i < values.len() {
            if values[i] == 0 {
                let run = values[i..].iter().take_while(|&&v| v == 0).count();
                out.push(0);
                leb128(run as u64, &mut out);
                i += run;
            } else {
                leb128(values[i], &mut out);
                i += 1;
            }
        }
        out
    }

    fn from_compact(bytes: &[u8]) -> Result<Census> {
        let (_, scheme, rest) = Census::split(bytes, COMPACT)?;
        let bad = |what: &str| Error::Rules(format!("compact Mậu Binh tables (MBT4) {what}"));
        let (&bits, mut stream) = rest
            .split_first()
            .ok_or_else(|| bad("end before the quantization"))?;
        if !(1..=DECODED_TOTAL as u8).contains(&bits) {
            return Err(bad(&format!(
                "have {bits} bits of quantization, not 1 to 31"
            )));
        }
        let want = PER * scheme.classes();
        let scale = 1u64 << (DECODED_TOTAL - u32::from(bits));
        let mut counts = Vec::with_capacity(want);
        while !stream.is_empty() {
            let v = read_leb128(&mut stream).ok_or_else(|| bad("end inside a number"))?;
            if v == 0 {
                let run = read_leb128(&mut stream).ok_or_else(|| bad("end inside a run"))?;
                if run == 0 || run > (want - counts.len().min(want)) as u64 {
                    return Err(bad("hold a run of zeros past the last class"));
                }
                counts.resize(counts.len() + run as usize, 0);
            } else {
                let v = v.checked_mul(scale).filter(|_| v <= 1 << bits);
                counts.push(v.ok_or_else(|| bad("hold a count above the total"))?);
            }
            if counts.len() > want {
                return Err(bad(&format!("hold more than {want} counts")));
            }
        }
        if counts.len() != want {
            return Err(bad(&format!("hold {} counts, not {want}", counts.len())));
        }
        let total = 1u64 << DECODED_TOTAL;
        let position_ends = [CLASSES5, 2 * CLASSES5, PER];
        for part in counts.chunks_exact(PER) {
            let mut from = 0;
            for end in position_ends {
                let sum: u64 = part[from..end].iter().sum();
                if sum != 0 && sum != total {
                    return Err(bad(&format!("hold a position whose counts sum to {sum}")));
                }
                from = end;
            }
        }
        let parts = counts
            .chunks_exact(PER)
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

/// The solver's tables for one model: one [`Tables`] per class of the player's hand, and the
/// opponents' copula that corrects the 4-2 majority ([`super::joint`]), if the model has one,
/// and the pool of arranged hands that corrects each position for the cards the player holds
/// ([`super::removal`]), if it has one.
#[derive(Clone, Debug)]
pub struct Population {
    pub scheme: Scheme,
    pub parts: Vec<Tables>,
    pub joint: Option<Arc<Joint>>,
    pub removal: Option<Arc<Removal>>,
}

impl Population {
    /// One set of tables for every hand.
    pub fn single(tables: Tables) -> Population {
        Population {
            scheme: Scheme::Whole,
            parts: vec![tables],
            joint: None,
            removal: None,
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
            joint: None,
            removal: None,
        }
    }

    /// The copula correction to apply under these rules: the population's, under 4-2 only
    /// (the other scorings' value is a sum over positions, or its scoop term is left alone).
    #[inline]
    pub fn joint_for(&self, rules: &Rules) -> Option<&Joint> {
        match Combine::of(rules) {
            Combine::Majority => self.joint.as_deref(),
            Combine::Sum | Combine::Scoop => None,
        }
    }

    /// The tables a hand is solved with.
    #[inline]
    pub fn for_hand(&self, hand: u64) -> &Tables {
        &self.parts[self.scheme.class(hand)]
    }

    /// Whether a decision's value goes beyond the tables' own (the solver then picks among
    /// its tables' best few splits by [`Population::refined_value`]).
    #[inline]
    pub fn refines(&self, rules: &Rules) -> bool {
        self.removal.is_some() || self.joint_for(rules).is_some()
    }

    /// The pool seen from `hand`, where the population corrects for card removal.
    #[inline]
    pub fn seen(&self, hand: u64) -> Option<Seen<'_>> {
        self.removal.as_deref().map(|r| r.seen(hand))
    }

    /// The value of a split of classes `[back, middle, front]` under a hand's tables `t`:
    /// each position's entry corrected for the cards the hand holds (`seen`, from
    /// [`Population::seen`]), then the copula's correction where [`Population::joint_for`]
    /// gives one.
    pub fn refined_value(
        &self,
        t: &Tables,
        classes: [u16; 3],
        seen: Option<&Seen<'_>>,
        rules: &Rules,
    ) -> f64 {
        let [cb, cm, cf] = classes;
        let table = [
            &t.back[cb as usize],
            &t.middle[cm as usize],
            &t.front[cf as usize],
        ];
        let entries = match seen {
            Some(s) => [0, 1, 2].map(|p| s.correct(p, classes[p], table[p])),
            None => table.map(|e| *e),
        };
        let [b, m, f] = &entries;
        split_value(b, m, f, Combine::of(rules))
            + self.joint_for(rules).map_or(0.0, |j| j.correction(b, m, f))
    }

    /// Expected units against one opponent of an arrangement, under its hand's tables and
    /// what [`Population::refined_value`] adds to them.
    pub fn arrangement_value(&self, a: &Arrangement, rules: &Rules) -> f64 {
        let hand = a.cards();
        let ev = rules.evaluator();
        let classes = [ev.class5(a.back), ev.class5(a.middle), ev.class3(a.front)];
        self.refined_value(
            self.for_hand(hand),
            classes,
            self.seen(hand).as_ref(),
            rules,
        )
    }

    /// The tables from a model's shipped census for the options they depend on (the scoring,
    /// the wheel and the back straight flush's units), built once per combination (a thread
    /// asking while another builds waits for it) and kept for the few most recent
    /// combinations. The equilibrium's carries its copula under 4-2 and, under both scorings,
    /// its card-removal pool (arranged by the equilibrium without it, under the combination's
    /// rules with the scoops off, so the pool does not depend on which rules asked first).
    pub fn shipped(rules: &Rules, model: Model) -> Arc<Population> {
        const KEPT: usize = 6;
        type Key = (Model, Scoring, Wheel, u8);
        type Slot = Arc<OnceLock<Arc<Population>>>;
        static CACHE: Mutex<Vec<(Key, Slot)>> = Mutex::new(Vec::new());
        let key = (
            model,
            rules.scoring,
            rules.wheel,
            rules.back_straight_flush_units,
        );
        let slot = {
            let mut kept = CACHE.lock().unwrap_or_else(|e| e.into_inner());
            match kept.iter().find(|(k, _)| *k == key) {
                Some((_, slot)) => slot.clone(),
                None => {
                    if kept.len() == KEPT {
                        kept.remove(0);
                    }
                    let slot = Slot::default();
                    kept.push((key, slot.clone()));
                    slot
                }
            }
        };
        slot.get_or_init(|| {
            let mut population =
                Population::from_census(Census::shipped(model, rules.scoring), rules);
            if model == Model::Equilibrium {
                if rules.scoring == Scoring::FourTwo {
                    population.joint = Some(Arc::new(Joint::shipped_42().clone()));
                }
                let plain = Rules {
                    scoop: false,
                    scoop_all: false,
                    ..*rules
                };
                population.removal = Some(Arc::new(Removal::build(&plain, &population)));
            }
            Arc::new(population)
        })
        .clone()
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
        (0..20_000).map(move |_| crate::cards::mask_of(&rng.permutation(52)[..13]))
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

    /// Cumulative shares of one position's counts.
    fn shares(counts: &[u64]) -> Vec<f64> {
        let total: u64 = counts.iter().sum();
        let mut below = 0;
        counts
            .iter()
            .map(|&c| {
                below += c;
                below as f64 / total as f64
            })
            .collect()
    }

    /// The shipped expected tables (exact counts, one population) as two classes, the second
    /// with counts tilted toward the strong classes: a realistic distribution at full precision.
    fn exact_census() -> Census {
        let whole = Census::from_bytes(Model::Expected.file(Scoring::Units)).unwrap();
        let mut c = Census::empty(Scheme::HighCards);
        for (k, h) in c.parts.iter_mut().enumerate().take(2) {
            *h = whole.parts[0].clone();
            for (i, x) in h.back.iter_mut().enumerate() {
                *x += (k as u64 * i as u64 * *x) / 7_462;
            }
        }
        c
    }

    #[test]
    fn compact_form_keeps_every_share_within_its_bound() {
        let exact = exact_census();
        let blob = exact.to_compact(r#"{"deals":1}"#);
        assert_eq!(&blob[..4], b"MBT4");
        assert_eq!(Census::header(&blob).unwrap(), r#"{"deals":1}"#);
        let back = Census::from_bytes(&blob).unwrap();
        assert_eq!(back.scheme, Scheme::HighCards);
        let bound = 0.5f64.powi(i32::from(COMPACT_BITS) + 1) + 1e-12;
        for (a, b) in exact.parts.iter().zip(&back.parts).take(2) {
            for (x, y) in [
                (&a.back, &b.back),
                (&a.middle, &b.middle),
                (&a.front, &b.front),
            ] {
                assert_eq!(y.iter().sum::<u64>(), 1 << 31);
                for (p, q) in shares(x).iter().zip(shares(y)) {
                    assert!((p - q).abs() <= bound, "{p} {q}");
                }
            }
        }
        // Empty classes stay empty; compacting a decoded file gives it back byte for byte.
        assert!(back.parts[2..].iter().all(|h| *h == Histograms::empty()));
        assert_eq!(back.to_compact(r#"{"deals":1}"#), blob);
        // The split populations' file is the 24 classes' exact one at a sixth of the size.
        assert!(blob.len() * 6 < exact.to_bytes("{}").unwrap().len());
    }

    #[test]
    fn compact_tables_make_the_same_decisions_within_their_bound() {
        let exact = exact_census();
        let compact = Census::from_bytes(&exact.to_compact("{}")).unwrap();
        for rules in [
            Rules::default(),
            Rules {
                scoring: Scoring::FourTwo,
                ..Rules::default()
            },
        ] {
            let (p, q) = (
                Population::from_census(&exact, &rules),
                Population::from_census(&compact, &rules),
            );
            let (mut same, mut n) = (0, 0);
            for hand in random_hands().take(1_000) {
                let objective = super::super::solver::Objective::Equilibrium;
                let a =
                    super::super::solver::best_with_tables(hand, &rules, objective, &p).unwrap();
                let b =
                    super::super::solver::best_with_tables(hand, &rules, objective, &q).unwrap();
                n += 1;
                if a.arrangement == b.arrangement {
                    same += 1;
                    continue;
                }
                // A different choice costs at most twice how far a value can move: each win,
                // tie and lose within 2^-16, so well under 10^-4 units.
                let lost = a.value - p.arrangement_value(&b.arrangement, &rules);
                assert!((0.0..1e-4).contains(&lost), "{hand:x}: {lost}");
            }
            assert!(same * 100 >= n * 99, "{same} of {n} the same");
        }
    }

    #[test]
    fn compact_form_refuses_damage_and_newer_formats() {
        let blob = exact_census().to_compact("{}");
        assert!(Census::from_bytes(&blob[..blob.len() - 1]).is_err());
        let mut longer = blob.clone();
        longer.push(1);
        assert!(Census::from_bytes(&longer).is_err());
        let mut bits = blob.clone();
        bits[8 + 2 + 1] = 40;
        assert!(Census::from_bytes(&bits).is_err());
        // A count changed: its position no longer sums to the total.
        let mut changed = blob.clone();
        let at = 8
            + 2
            + 2
            + changed[12..]
                .iter()
                .position(|&b| (2..0x80).contains(&b))
                .unwrap();
        changed[at] -= 1;
        assert!(Census::from_bytes(&changed).is_err());
        for magic in [b"MBT5", b"MBT9"] {
            let mut newer = blob.clone();
            newer[..4].copy_from_slice(magic);
            let e = Census::from_bytes(&newer).unwrap_err().to_string();
            assert!(
                e.contains(std::str::from_utf8(magic).unwrap()) && e.contains("upgrade"),
                "{e}"
            );
            assert!(Census::header(&newer).is_err());
        }
    }
}
