//! Tứ Sắc bindings: `TuSacCard` and the `tusac_*` functions over card multisets.

use super::cards::card_text;
use super::errors::to_py;
use super::guard::{guard, guard_ok};
use crate::error::Error;
use crate::tusac::melds::MAX_EXPOSED_LENH;
use crate::tusac::{self, BungRule, Claim, Hand, Kind, MeldKind, OddTotal, Scoring};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

/// A Tứ Sắc card kind (copies are identical): frozen, hashable, ordered by kind index.
#[pyclass(module = "vncards.tusac", name = "TuSacCard", frozen, eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyTuSacCard(pub Kind);

#[pymethods]
impl PyTuSacCard {
    /// `TuSacCard("KR")`, `TuSacCard("Tướng đỏ")` or `TuSacCard(4)` (a kind index 0..27).
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<PyTuSacCard> {
        guard(|| kind_from_py(card).map(PyTuSacCard))
    }
    /// Kind index 0..27 (`piece * 4 + colour`).
    #[getter]
    fn index(&self) -> PyResult<u8> {
        guard_ok(|| self.0.index())
    }
    /// Piece letter: `K A E R C H P` (Tướng, Sĩ, Tượng, Xe, Pháo, Mã, Chốt).
    #[getter]
    fn piece(&self) -> PyResult<String> {
        guard_ok(|| tusac::cards::PIECE_LETTERS[self.0.piece() as usize].to_string())
    }
    /// Colour letter: `Y R G W` (vàng, đỏ, xanh, trắng).
    #[getter]
    fn colour(&self) -> PyResult<String> {
        guard_ok(|| tusac::cards::COLOUR_LETTERS[self.0.colour() as usize].to_string())
    }
    /// The Vietnamese name, e.g. `"Tướng đỏ"`.
    #[getter]
    fn name(&self) -> PyResult<String> {
        guard_ok(|| self.0.name())
    }
    fn __str__(&self) -> PyResult<String> {
        guard_ok(|| self.0.to_string())
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("TuSacCard('{}')", self.0))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| {
            let py = slf.py();
            (py.get_type::<PyTuSacCard>(), (slf.get().0.index(),)).into_pyobject(py)
        })
    }
}

fn kind_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Kind> {
    if let Ok(c) = obj.cast::<PyTuSacCard>() {
        return Ok(c.get().0);
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return tusac::parse_card(card_text(text)?).map_err(to_py);
    }
    let index: i64 = obj.extract().map_err(|_| {
        PyTypeError::new_err("a Tứ Sắc card is text, a TuSacCard or an index 0..27")
    })?;
    u8::try_from(index)
        .ok()
        .and_then(Kind::from_index)
        .ok_or_else(|| {
            to_py(Error::invalid_card(
                index.to_string(),
                0,
                "card index out of range 0..27",
            ))
        })
}

/// Cards from text, one `TuSacCard`, or an iterable of cards and card texts.
fn kinds_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Kind>> {
    if let Ok(text) = obj.cast::<PyString>() {
        return tusac::parse_cards(card_text(text)?).map_err(to_py);
    }
    if let Ok(c) = obj.cast::<PyTuSacCard>() {
        return Ok(vec![c.get().0]);
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err("cards must be text, a TuSacCard, or an iterable of cards")
    })?;
    let mut out = Vec::with_capacity(24);
    for (position, item) in iter.enumerate() {
        let item = item?;
        if let Ok(c) = item.cast::<PyTuSacCard>() {
            out.push(c.get().0);
        } else if let Ok(text) = item.cast::<PyString>() {
            out.push(tusac::parse_card(card_text(text)?).map_err(|e| to_py(at_item(e, position)))?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "card {position} is a {}, not a TuSacCard or card text",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}

fn at_item(err: Error, position: usize) -> Error {
    match err {
        Error::InvalidCard { token, message, .. } => Error::InvalidCard {
            token,
            position,
            message,
        },
        other => other,
    }
}

/// A multiset of at most 4 copies per kind.
fn hand_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Hand> {
    let mut h = Hand::EMPTY;
    for (i, k) in kinds_from_py(obj)?.into_iter().enumerate() {
        if h.count(k) == tusac::cards::COPIES {
            return Err(to_py(Error::invalid_card(
                k.to_string(),
                i,
                "more than 4 copies",
            )));
        }
        h.add(k);
    }
    Ok(h)
}

pub(super) fn unpack(packed: u128) -> PyResult<Hand> {
    Hand::unpack(packed).map_err(to_py)
}

/// A hand for the split and claim searches: at most `MAX_HAND` cards.
fn searched(h: Hand) -> PyResult<Hand> {
    h.checked().map_err(to_py)
}

/// An optional offer joining `h`: never a fifth copy.
fn offer_for(h: &Hand, offer: Option<Kind>) -> PyResult<Option<Kind>> {
    if let Some(k) = offer {
        h.check_offer(k).map_err(to_py)?;
    }
    Ok(offer)
}

/// A kind index argument.
pub(super) fn kind_index(i: u8) -> PyResult<Kind> {
    Kind::from_index(i).ok_or_else(|| to_py(Error::invalid_card(i.to_string(), 0, "no such kind")))
}

/// The lệnh of a seat's exposed melds: within `0..=MAX_EXPOSED_LENH`.
pub(super) fn exposed_arg(exposed_lenh: i32) -> PyResult<i32> {
    if !(0..=MAX_EXPOSED_LENH).contains(&exposed_lenh) {
        return Err(to_py(Error::Rules(format!(
            "exposed_lenh must be within 0..={MAX_EXPOSED_LENH}, not {exposed_lenh}"
        ))));
    }
    Ok(exposed_lenh)
}

fn cards(h: &Hand) -> Vec<PyTuSacCard> {
    h.kinds().into_iter().map(PyTuSacCard).collect()
}

pub(super) fn meld_kind(name: &str) -> PyResult<MeldKind> {
    MeldKind::from_name(name).ok_or_else(|| {
        to_py(Error::illegal(
            "invalid_combination",
            format!("no meld kind {name:?}"),
        ))
    })
}

/// The scoring options from their Python names (`odd_total`: "hand", "with_toi", "off";
/// `set_lenh`: 0 or 1).
pub(super) fn scoring(odd_total: &str, set_lenh: i64) -> PyResult<Scoring> {
    let odd_total = OddTotal::from_name(odd_total).ok_or_else(|| {
        to_py(Error::Rules(format!(
            "odd_total must be 'hand', 'with_toi' or 'off', not {odd_total:?}"
        )))
    })?;
    if !(0..=1).contains(&set_lenh) {
        return Err(to_py(Error::Rules(format!(
            "set_lenh must be 0 or 1, not {set_lenh}"
        ))));
    }
    Ok(Scoring {
        odd_total,
        set_lenh: set_lenh as i32,
    })
}

pub(super) fn bung_rule(name: &str) -> PyResult<BungRule> {
    BungRule::from_name(name).ok_or_else(|| {
        to_py(Error::Rules(format!(
            "bung_rule must be 'seed', 'min_rac' or 'off', not {name:?}"
        )))
    })
}

fn opt(v: i16) -> Option<i32> {
    (v != tusac::melds::NONE).then_some(v as i32)
}

/// Cards in input order from text (letter codes or Vietnamese names) or an iterable.
#[pyfunction]
fn tusac_parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<Vec<PyTuSacCard>> {
    guard(|| Ok(kinds_from_py(cards)?.into_iter().map(PyTuSacCard).collect()))
}

/// The packed form of a multiset (3 bits per kind), the engine's internal hand value.
#[pyfunction]
fn tusac_pack(cards: &Bound<'_, PyAny>) -> PyResult<u128> {
    guard(|| Ok(hand_from_py(cards)?.pack()))
}

/// The cards of a packed hand, in kind order.
#[pyfunction]
fn tusac_unpack(packed: u128) -> PyResult<Vec<PyTuSacCard>> {
    guard(|| Ok(cards(&unpack(packed)?)))
}

/// The fewest rác over every split of the cards.
#[pyfunction]
fn tusac_min_rac(cards: &Bound<'_, PyAny>) -> PyResult<u32> {
    guard(|| Ok(tusac::min_rac(&searched(hand_from_py(cards)?)?)))
}

/// `tusac_min_rac` of a packed hand.
#[pyfunction]
fn tusac_min_rac_packed(packed: u128) -> PyResult<u32> {
    guard(|| Ok(tusac::min_rac(&searched(unpack(packed)?)?)))
}

/// The winning total of hidden cards (+ the offer, if any) with `exposed_lenh` already on the
/// table, tới included; `None` when they do not win.
#[pyfunction]
#[pyo3(signature = (hidden, exposed_lenh, offer, odd_total, set_lenh))]
fn tusac_win_total(
    hidden: &Bound<'_, PyAny>,
    exposed_lenh: i32,
    offer: Option<&Bound<'_, PyAny>>,
    odd_total: &str,
    set_lenh: i64,
) -> PyResult<Option<i32>> {
    guard(|| {
        let rules = scoring(odd_total, set_lenh)?;
        let h = searched(hand_from_py(hidden)?)?;
        let offer = offer_for(&h, offer.map(kind_from_py).transpose()?)?;
        let exposed_lenh = exposed_arg(exposed_lenh)?;
        Ok(tusac::win_total(&h, exposed_lenh, offer, rules))
    })
}

/// `tusac_win_total` on a packed hand and an offer index.
#[pyfunction]
#[pyo3(signature = (packed, exposed_lenh, offer, odd_total, set_lenh))]
fn tusac_win_total_packed(
    packed: u128,
    exposed_lenh: i32,
    offer: Option<u8>,
    odd_total: &str,
    set_lenh: i64,
) -> PyResult<Option<i32>> {
    guard(|| {
        let rules = scoring(odd_total, set_lenh)?;
        let h = searched(unpack(packed)?)?;
        let offer = offer_for(&h, offer.map(kind_index).transpose()?)?;
        let exposed_lenh = exposed_arg(exposed_lenh)?;
        Ok(tusac::win_total(&h, exposed_lenh, offer, rules))
    })
}

/// Best (even, odd) lệnh over complete splits of the hand (+ the offer as an exposed meld).
#[pyfunction]
#[pyo3(signature = (hidden, offer=None, set_lenh=1))]
fn tusac_complete_lenh(
    hidden: &Bound<'_, PyAny>,
    offer: Option<&Bound<'_, PyAny>>,
    set_lenh: i64,
) -> PyResult<(Option<i32>, Option<i32>)> {
    guard(|| {
        let set_lenh = scoring("off", set_lenh)?.set_lenh;
        let h = searched(hand_from_py(hidden)?)?;
        let offer = offer_for(&h, offer.map(kind_from_py).transpose()?)?;
        let p = tusac::complete_lenh_with(&h, offer, set_lenh);
        Ok((opt(p.even), opt(p.odd)))
    })
}

/// One split: `(meld kind name, cards)` per meld.
type Split = Vec<(&'static str, Vec<PyTuSacCard>)>;

/// Every split with the fewest rác, best lệnh first: lists of `(meld kind, cards)`.
#[pyfunction]
#[pyo3(signature = (cards_in, limit))]
fn tusac_splits(cards_in: &Bound<'_, PyAny>, limit: usize) -> PyResult<Vec<Split>> {
    guard(|| {
        let h = searched(hand_from_py(cards_in)?)?;
        Ok(tusac::min_rac_splits(&h, limit)
            .into_iter()
            .map(|s| {
                s.into_iter()
                    .map(|m| {
                        (
                            m.kind.name(),
                            m.cards.into_iter().map(PyTuSacCard).collect(),
                        )
                    })
                    .collect()
            })
            .collect())
    })
}

/// The concealed meld these cards make (`"single"` for one non-Tướng card), or `None`.
#[pyfunction]
fn tusac_classify(cards_in: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    guard(|| Ok(tusac::classify(&kinds_from_py(cards_in)?).map(MeldKind::name)))
}

/// The legal non-win claims of `offer` (kind index) for a packed hand: `(meld, used kinds)`;
/// `forbidden_no_claim`: the rules' `forbidden_triple="no_claim"` (see `offered_claims`).
#[pyfunction]
#[pyo3(signature = (packed, offer, entitled, triple_optional, bung, forbidden_no_claim=false))]
fn tusac_legal_claims(
    packed: u128,
    offer: u8,
    entitled: bool,
    triple_optional: bool,
    bung: &str,
    forbidden_no_claim: bool,
) -> PyResult<Vec<(&'static str, Vec<u8>)>> {
    guard(|| {
        let bung = bung_rule(bung)?;
        let h = searched(unpack(packed)?)?;
        let offer = kind_index(offer)?;
        h.check_offer(offer).map_err(to_py)?;
        Ok(tusac::offered_claims(
            &h,
            offer,
            entitled,
            triple_optional,
            forbidden_no_claim,
            bung,
        )
        .into_iter()
        .map(|c| (c.meld.name(), c.used.iter().map(|k| k.index()).collect()))
        .collect())
    })
}

/// Raises `IllegalMoveError` with the reason a claim is not allowed (None when it is).
#[pyfunction]
fn tusac_check_claim(
    packed: u128,
    offer: u8,
    meld: &str,
    used: Vec<u8>,
    entitled: bool,
    bung: &str,
) -> PyResult<()> {
    guard(|| {
        let bung = bung_rule(bung)?;
        let h = searched(unpack(packed)?)?;
        let offer = kind_index(offer)?;
        h.check_offer(offer).map_err(to_py)?;
        if used.len() > usize::from(tusac::cards::COPIES) {
            return Err(to_py(Error::illegal(
                "invalid_combination",
                format!("a claim uses at most 4 cards, not {}", used.len()),
            )));
        }
        let used = used
            .into_iter()
            .map(kind_index)
            .collect::<PyResult<Vec<_>>>()?;
        let claim = Claim {
            meld: meld_kind(meld)?,
            used,
        };
        tusac::check_claim(&h, offer, &claim, entitled, bung)
            .map_err(|(reason, msg)| to_py(Error::illegal(reason, msg)))
    })
}

/// Kind indices whose discard is a rác (removing one lowers the fewest rác).
#[pyfunction]
fn tusac_rac_kinds(packed: u128) -> PyResult<Vec<u8>> {
    guard(|| {
        Ok(tusac::rac_kinds(&searched(unpack(packed)?)?)
            .into_iter()
            .map(|k| k.index())
            .collect())
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTuSacCard>()?;
    m.add_function(wrap_pyfunction!(tusac_parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_pack, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_unpack, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_min_rac, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_min_rac_packed, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_win_total, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_win_total_packed, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_complete_lenh, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_splits, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_classify, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_legal_claims, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_check_claim, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_rac_kinds, m)?)?;
    Ok(())
}
