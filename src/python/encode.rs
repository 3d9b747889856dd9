//! Card encoders for the learning environments (`vncards.integrations`): card texts in,
//! numpy count rows out, with no per-card Python loop.

use super::arrays;
use super::cards::{card_text, mask_of_int};
use super::errors::to_py;
use super::guard::guard;
use crate::cards::CardSet;
use crate::encode::observation::{self, MauBinhView, SheddingView, TuSacView};
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

/// Each group (see `encode_card_rows`) as a count row of `deck`.
pub(super) fn group_rows(deck: Deck, groups: &[Bound<'_, PyAny>]) -> PyResult<Vec<Vec<u8>>> {
    groups
        .iter()
        .map(|g| {
            let mut row = vec![0u8; deck.width()];
            add_item(deck, g, &mut row, 0)?;
            Ok(row)
        })
        .collect()
}

/// Each group (see `encode_card_rows`) as a mask of the 52-card deck.
pub(super) fn group_masks(groups: &[Bound<'_, PyAny>]) -> PyResult<Vec<u64>> {
    Ok(group_rows(Deck::French, groups)?
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .fold(0u64, |m, (i, &c)| m | u64::from(c > 0) << i)
        })
        .collect())
}

fn seats_arg(players: usize, values: &[usize]) -> PyResult<()> {
    if !(1..=8).contains(&players) || values.len() != players {
        return Err(PyTypeError::new_err(format!(
            "{} per-seat values for {players} seats",
            values.len()
        )));
    }
    Ok(())
}

/// The shedding observation (`vncards.integrations.encoding`) of one seat's view, its parts
/// seat-relative: `groups` the hand, table, required card and each seat's played cards (card
/// text or masks); `counts` the cards each seat holds; the flags as seat bit sets; `playing`
/// Sâm Lốc's phase flag (None for Tiến Lên).
/// The shedding observation of one seat's view (see `encode_shedding_view`), as a vector.
#[allow(clippy::too_many_arguments)]
pub(super) fn shedding_obs(
    groups: &[Bound<'_, PyAny>],
    counts: &[usize],
    passed: u32,
    out: u32,
    to_act: u32,
    owner: u32,
    playing: Option<bool>,
) -> PyResult<Vec<f32>> {
    let players = counts.len();
    seats_arg(players, counts)?;
    if groups.len() != 3 + players {
        return Err(PyTypeError::new_err(format!(
            "{} card groups for {players} seats (3 + one per seat expected)",
            groups.len()
        )));
    }
    let masks = group_masks(groups)?;
    let counts: Vec<u32> = counts.iter().map(|&c| c.min(52) as u32).collect();
    let view = SheddingView {
        hand: masks[0],
        table: masks[1],
        must: masks[2],
        played: &masks[3..],
        counts: &counts,
        passed,
        out,
        to_act,
        owner,
        playing,
    };
    let mut obs = vec![0.0f32; observation::shedding_size(players, playing.is_some())];
    observation::shedding(&view, &mut obs);
    Ok(obs)
}

/// The shedding observation (`vncards.integrations.encoding`) of one seat's view, its parts
/// seat-relative: `groups` the hand, table, required card and each seat's played cards (card
/// text or masks); `counts` the cards each seat holds; the flags as seat bit sets; `playing`
/// Sâm Lốc's phase flag (None for Tiến Lên).
#[pyfunction]
#[pyo3(signature = (groups, counts, passed, out, to_act, owner, playing = None))]
#[allow(clippy::too_many_arguments)]
fn encode_shedding_view<'py>(
    py: Python<'py>,
    groups: Vec<Bound<'py, PyAny>>,
    counts: Vec<usize>,
    passed: u32,
    out: u32,
    to_act: u32,
    owner: u32,
    playing: Option<bool>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    guard(|| {
        let obs = shedding_obs(&groups, &counts, passed, out, to_act, owner, playing)?;
        Ok(PyArray1::from_vec(py, obs))
    })
}

/// The Tứ Sắc observation of one seat's view (see `encode_tusac_view`), as a vector, and the
/// offered card's kind.
pub(super) fn tusac_obs(
    groups: &[Bound<'_, PyAny>],
    counts: &[usize],
    pending: u32,
    offered_by: u32,
    stock: usize,
    claim: bool,
) -> PyResult<(Vec<f32>, Option<u8>)> {
    let players = counts.len();
    seats_arg(players, counts)?;
    if groups.len() != 3 + players {
        return Err(PyTypeError::new_err(format!(
            "{} card groups for {players} seats (3 + one per seat expected)",
            groups.len()
        )));
    }
    let rows: Vec<[u8; 28]> = group_rows(Deck::TuSac, groups)?
        .into_iter()
        .map(|r| r.try_into().expect("28 cells"))
        .collect();
    let offer = rows[2].iter().position(|&c| c > 0).map(|k| k as u8);
    let counts: Vec<u32> = counts.iter().map(|&c| c.min(112) as u32).collect();
    let view = TuSacView {
        hand: &rows[0],
        dead: &rows[1],
        offer,
        exposed: &rows[3..],
        counts: &counts,
        pending,
        offered_by,
        stock,
        claim,
    };
    let mut obs = vec![0.0f32; observation::tusac_size(players)];
    observation::tusac(&view, &mut obs);
    Ok((obs, offer))
}

/// The Tứ Sắc observation (`vncards.integrations.encoding`) of one seat's view, its parts
/// seat-relative: `groups` the hand, the dead pile, the offered card (or None) and each seat's
/// exposed cards; `counts` the hidden cards each seat holds; the flags as seat bit sets.
#[pyfunction]
fn encode_tusac_view<'py>(
    py: Python<'py>,
    groups: Vec<Bound<'py, PyAny>>,
    counts: Vec<usize>,
    pending: u32,
    offered_by: u32,
    stock: usize,
    claim: bool,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    guard(|| {
        let (obs, _) = tusac_obs(&groups, &counts, pending, offered_by, stock, claim)?;
        Ok(PyArray1::from_vec(py, obs))
    })
}

/// The Mậu Binh observation (`vncards.integrations.encoding`) of one seat's view, its parts
/// seat-relative: `groups` the hand, back, middle and front (None before arranging); the flags
/// as seat bit sets.
#[pyfunction]
fn encode_maubinh_view<'py>(
    py: Python<'py>,
    groups: Vec<Bound<'py, PyAny>>,
    players: usize,
    arranged: u32,
    confirmed: u32,
    pending: u32,
    fouled: bool,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    guard(|| {
        if !(1..=8).contains(&players) || groups.len() != 4 {
            return Err(PyTypeError::new_err(format!(
                "4 card groups for 1-8 seats, not {} for {players}",
                groups.len()
            )));
        }
        let masks = group_masks(&groups)?;
        let view = MauBinhView {
            hand: masks[0],
            back: masks[1],
            middle: masks[2],
            front: masks[3],
            players,
            arranged,
            confirmed,
            pending,
            fouled,
        };
        let mut obs = vec![0.0f32; observation::maubinh_size(players)];
        observation::maubinh(&view, &mut obs);
        Ok(PyArray1::from_vec(py, obs))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_card_rows, m)?)?;
    m.add_function(wrap_pyfunction!(encode_shedding_view, m)?)?;
    m.add_function(wrap_pyfunction!(encode_tusac_view, m)?)?;
    m.add_function(wrap_pyfunction!(encode_maubinh_view, m)?)?;
    Ok(())
}
