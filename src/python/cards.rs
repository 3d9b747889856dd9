//! `Card` and card-text functions for Python.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use crate::cards::{self, Card, CardSet, RANK_TEXT, SUIT_TEXT};
use crate::error::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

/// A playing card of the 52-card deck; frozen and hashable, ordered as in Tiến Lên.
#[pyclass(module = "vncards", name = "Card", frozen, eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    /// `Card("10♥")`, `Card("Th")`, `Card("♥10")` or `Card(51)` (an index in Tiến Lên order).
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<PyCard> {
        guard(|| {
            if let Ok(text) = card.cast::<PyString>() {
                return cards::parse_card(card_text(text)?)
                    .map(PyCard)
                    .map_err(to_py);
            }
            if let Ok(c) = card.cast::<PyCard>() {
                return Ok(*c.get());
            }
            let index: i64 = card
                .extract()
                .map_err(|_| PyTypeError::new_err("Card() takes card text or an index 0..51"))?;
            u8::try_from(index)
                .ok()
                .and_then(Card::from_index)
                .map(PyCard)
                .ok_or_else(|| {
                    to_py(Error::invalid_card(
                        index.to_string(),
                        0,
                        "card index out of range 0..51",
                    ))
                })
        })
    }

    /// The rank as text: `"3"` … `"10"`, `"J"`, `"Q"`, `"K"`, `"A"`, `"2"`.
    #[getter]
    fn rank(&self) -> PyResult<&'static str> {
        guard_ok(|| RANK_TEXT[self.0.rank() as usize])
    }
    /// The suit symbol: `"♠"`, `"♣"`, `"♦"` or `"♥"`.
    #[getter]
    fn suit(&self) -> PyResult<String> {
        guard_ok(|| SUIT_TEXT[self.0.suit() as usize].to_string())
    }
    /// Index 0..51 in Tiến Lên order (3♠ = 0, 3♣ = 1, …, 2♥ = 51).
    #[getter]
    fn index(&self) -> PyResult<u8> {
        guard_ok(|| self.0.index())
    }
    /// Rank index 0..12 (`3` = 0 … `2` = 12).
    #[getter]
    fn rank_index(&self) -> PyResult<u8> {
        guard_ok(|| self.0.rank())
    }
    /// Suit index 0..3 (♠ ♣ ♦ ♥).
    #[getter]
    fn suit_index(&self) -> PyResult<u8> {
        guard_ok(|| self.0.suit())
    }
    /// Canonical ASCII text, e.g. `"Th"`.
    #[getter]
    fn ascii(&self) -> PyResult<String> {
        guard_ok(|| self.0.ascii())
    }
    /// True for ♦ and ♥.
    #[getter]
    fn is_red(&self) -> PyResult<bool> {
        guard_ok(|| self.0.is_red())
    }
    fn __str__(&self) -> PyResult<String> {
        guard_ok(|| self.0.to_string())
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("Card('{}')", self.0))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| {
            let py = slf.py();
            let cls = py.get_type::<PyCard>();
            (cls, (slf.get().0.index(),)).into_pyobject(py)
        })
    }
}

/// The UTF-8 text of a card argument. A string that is not valid Unicode (a lone surrogate
/// such as `"\udcff"`) is an `InvalidCardError`, not a `UnicodeEncodeError`.
pub(crate) fn card_text<'a>(text: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    text.to_str().map_err(|_| {
        let shown = text.to_string_lossy().into_owned();
        to_py(Error::invalid_card(shown, 0, "not valid Unicode text"))
    })
}

/// A card mask given as a Python int: any int outside the 52 card bits (negative, above 2♥,
/// beyond 64 bits) is an `InvalidCardError`, never an `OverflowError`.
pub(crate) fn mask_of_int(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    match obj.extract::<u64>() {
        Ok(mask) => CardSet::from_mask(mask).map(|s| s.0).map_err(to_py),
        Err(_) if obj.is_instance_of::<PyInt>() => Err(to_py(Error::invalid_card(
            obj.to_string(),
            0,
            "not a card mask (bits 0..51)",
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a card mask is an int, not a {}",
            obj.get_type().name()?
        ))),
    }
}

/// The mask of a card argument: text, a `Card`, or an iterable of `Card`s and card texts.
/// A duplicate card raises `InvalidCardError`.
pub(crate) fn mask_from_py(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(text) = obj.cast::<PyString>() {
        return cards::parse_card_set(card_text(text)?)
            .map(|(_, s)| s.0)
            .map_err(to_py);
    }
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0.bit());
    }
    let mut mask = 0u64;
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err("cards must be text, a Card, or an iterable of cards"))?;
    for (position, item) in iter.enumerate() {
        let item = item?;
        let card = if let Ok(c) = item.cast::<PyCard>() {
            c.get().0
        } else if let Ok(text) = item.cast::<PyString>() {
            cards::parse_card(card_text(text)?).map_err(|e| to_py(at_item(e, position)))?
        } else {
            return Err(PyTypeError::new_err(format!(
                "card {position} is a {}, not a Card or card text",
                item.get_type().name()?
            )));
        };
        if mask & card.bit() != 0 {
            return Err(to_py(Error::invalid_card(
                card.to_string(),
                position,
                "duplicate card",
            )));
        }
        mask |= card.bit();
    }
    Ok(mask)
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

/// The cards of a mask as `Card` objects, low to high.
pub(crate) fn cards_from_mask(py: Python<'_>, mask: u64) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, CardSet(mask).iter().map(PyCard))
}

/// Parses one card in any accepted text form.
#[pyfunction]
fn parse_card(text: &Bound<'_, PyString>) -> PyResult<PyCard> {
    guard(|| {
        cards::parse_card(card_text(text)?)
            .map(PyCard)
            .map_err(to_py)
    })
}

/// Parses cards in any accepted text form, in input order; a duplicate raises `InvalidCardError`.
#[pyfunction]
fn parse_cards(text: &Bound<'_, PyString>) -> PyResult<Vec<PyCard>> {
    guard(|| {
        cards::parse_card_set(card_text(text)?)
            .map(|(v, _)| v.into_iter().map(PyCard).collect())
            .map_err(to_py)
    })
}

/// The bitmask of a card argument (text, a Card, or an iterable of either).
#[pyfunction]
fn cards_to_mask(cards: &Bound<'_, PyAny>) -> PyResult<u64> {
    guard(|| mask_from_py(cards))
}

/// The cards of a bitmask, low to high.
#[pyfunction]
fn mask_to_cards<'py>(py: Python<'py>, mask: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let mask = mask_of_int(mask)?;
        cards_from_mask(py, mask)
    })
}

/// Canonical text of the cards of a bitmask, low to high, space-separated.
#[pyfunction]
#[pyo3(signature = (mask, ascii = false))]
fn mask_to_text(mask: &Bound<'_, PyAny>, ascii: bool) -> PyResult<String> {
    guard(|| {
        let set = CardSet(mask_of_int(mask)?);
        Ok(if ascii {
            set.iter().map(|c| c.ascii()).collect::<Vec<_>>().join(" ")
        } else {
            set.text()
        })
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_function(wrap_pyfunction!(parse_card, m)?)?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(cards_to_mask, m)?)?;
    m.add_function(wrap_pyfunction!(mask_to_cards, m)?)?;
    m.add_function(wrap_pyfunction!(mask_to_text, m)?)?;
    Ok(())
}
