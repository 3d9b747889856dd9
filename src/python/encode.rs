//! Card encoders for the learning environments (`vncards.integrations`): card texts in,
//! numpy count rows out, with no per-card Python loop.

use super::arrays;
use super::cards::{card_text, mask_of_int};
use super::errors::to_py;
use super::guard::guard;
use crate::cards::CardSet;
use crate::encode::Deck;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// How deep groups may nest (a seat's exposed melds are a list of lists of card texts).
const MAX_DEPTH: usize = 4;

/// Adds one group item (card text, a French card mask, None, or an iterable of these, nested
/// at most [`MAX_DEPTH`] deep) to `row`.
fn add_item(deck: Deck, item: &Bound<'_, PyAny>, row: &mut [u8], depth: usize) -> PyResult<()> {
    if item.is_none() {
        return Ok(());
    }
    if let Ok(text) = item.cast::<PyString>() {
        return deck.add_text(card_text(text)?, row).map_err(to_py);
    }
    if item.is_instance_of::<PyInt>() {
        if deck != Deck::French {
            return Err(PyTypeError::new_err(
                "card masks are for the 52-card deck only",
            ));
        }
        for card in CardSet(mask_of_int(item)?).iter() {
            row[card.index() as usize] = row[card.index() as usize].saturating_add(1);
        }
        return Ok(());
    }
    if depth >= MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "card groups nest at most {MAX_DEPTH} deep"
        )));
    }
    let iter = item.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "a group is card text, a card mask, None, or an iterable of these, not a {}",
            item.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    for sub in iter {
        add_item(deck, &sub?, row, depth + 1)?;
    }
    Ok(())
}

/// One uint8 count row per group: `(len(groups), 52)` for `deck="52"`, `(len(groups), 28)` for
/// `deck="tusac"`. A group is card text, a 52-card mask, None (an empty row) or an iterable of
/// card texts.
#[pyfunction]
#[pyo3(signature = (groups, deck = "52"))]
fn encode_card_rows<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyAny>,
    deck: &str,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    guard(|| {
        arrays::require(py, "encode_card_rows")?;
        let deck = Deck::from_name(deck).map_err(to_py)?;
        let width = deck.width();
        let mut out: Vec<u8> = Vec::new();
        let iter = groups
            .try_iter()
            .map_err(|_| PyTypeError::new_err("groups must be an iterable"))?;
        let mut n = 0usize;
        for group in iter {
            let group = group?;
            out.resize(out.len() + width, 0);
            let start = n * width;
            add_item(deck, &group, &mut out[start..start + width], 0)?;
            n += 1;
        }
        PyArray1::from_vec(py, out).reshape([n, width])
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_card_rows, m)?)?;
    Ok(())
}
