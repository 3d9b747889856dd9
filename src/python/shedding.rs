//! Bindings of the shedding core (Tiến Lên, Sâm Lốc): `SheddingRules`, `SheddingCombo` and the
//! `shedding_*` / `tienlen_*` functions. Card arguments accept a mask (int), a combo, text,
//! a `Card` or an iterable of cards.

use super::arrays;
use super::cards::{mask_from_py, mask_of_int, PyCard};
use super::errors::to_py;
use super::guard::{guard, guard_ok};
use crate::cards::CardSet;
use crate::error::Error;
use crate::shedding::{self, Combo, PlayFilter, Rules};
use crate::tienlen::{self, InstantOptions};
use numpy::PyArray1;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyIterator, PyList, PySlice, PyTuple};
use rayon::prelude::*;
use std::cell::RefCell;

/// Rule data of a shedding game (how combinations form and beat), built once per rules object.
#[pyclass(module = "vncards._core", name = "SheddingRules", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PySheddingRules(pub Rules);

#[pymethods]
impl PySheddingRules {
    #[new]
    #[pyo3(signature = (*, suit_order, same_colour_pairs, same_suit_straights, single_follows_suit,
        triple_follows_suits, pair_sequences, min_straight, max_straight, low_straights,
        quad_beats_pair_of_twos, hand_size, min_players, max_players))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        suit_order: bool,
        same_colour_pairs: bool,
        same_suit_straights: bool,
        single_follows_suit: bool,
        triple_follows_suits: bool,
        pair_sequences: bool,
        min_straight: u8,
        max_straight: u8,
        low_straights: bool,
        quad_beats_pair_of_twos: bool,
        hand_size: u8,
        min_players: u8,
        max_players: u8,
    ) -> PyResult<Self> {
        guard(|| {
            let rules = Rules {
                suit_order,
                same_colour_pairs,
                same_suit_straights,
                single_follows_suit,
                triple_follows_suits,
                pair_sequences,
                min_straight,
                max_straight,
                low_straights,
                quad_beats_pair_of_twos,
                hand_size,
                min_players,
                max_players,
            };
            rules.validate().map_err(to_py)?;
            Ok(PySheddingRules(rules))
        })
    }

    /// The Tiến Lên Miền Nam preset.
    #[staticmethod]
    fn tienlen_south() -> PyResult<Self> {
        guard_ok(|| PySheddingRules(tienlen::south()))
    }

    /// The Tiến Lên Miền Bắc preset.
    #[staticmethod]
    fn tienlen_north() -> PyResult<Self> {
        guard_ok(|| PySheddingRules(tienlen::north()))
    }

    /// Cards dealt to each player.
    #[getter]
    fn hand_size(&self) -> PyResult<u8> {
        guard_ok(|| self.0.hand_size)
    }
    /// Fewest players a table may seat.
    #[getter]
    fn min_players(&self) -> PyResult<u8> {
        guard_ok(|| self.0.min_players)
    }
    /// Most players a table may seat.
    #[getter]
    fn max_players(&self) -> PyResult<u8> {
        guard_ok(|| self.0.max_players)
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("SheddingRules({:?})", self.0))
    }
}

/// A combination: a card mask plus its kind; the cards are built only when asked for.
#[pyclass(module = "vncards._core", name = "SheddingCombo", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyCombo(pub Combo);

#[pymethods]
impl PyCombo {
    /// `"single"`, `"pair"`, `"triple"`, `"straight"`, `"pair_sequence"` or `"four_of_a_kind"`.
    #[getter]
    fn kind(&self) -> PyResult<&'static str> {
        guard_ok(|| self.0.kind.name())
    }
    /// The cards, low to high.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| PyTuple::new(py, self.0.cards.iter().map(PyCard)))
    }
    /// The card mask (bit `i` = card index `i`).
    #[getter]
    fn mask(&self) -> PyResult<u64> {
        guard_ok(|| self.0.cards.0)
    }
    /// Strength of the top card: `vrank * 4 + suit` with `3` = vrank 2 … `2` = vrank 14.
    #[getter]
    fn top(&self) -> PyResult<u8> {
        guard_ok(|| self.0.top)
    }
    /// The highest card (for a low straight, the card at its top).
    #[getter]
    fn top_card(&self) -> PyResult<PyCard> {
        guard_ok(|| {
            let rank = shedding::combo::real_rank(self.0.top_vrank());
            PyCard(crate::cards::Card::new(rank, self.0.top & 3))
        })
    }
    /// True for a bomb (hàng chặt): tứ quý, 3 or 4 đôi thông.
    #[getter]
    fn is_bomb(&self) -> PyResult<bool> {
        guard_ok(|| self.0.is_bomb())
    }
    /// True when every card is a 2 (heo).
    #[getter]
    fn is_twos(&self) -> PyResult<bool> {
        guard_ok(|| self.0.is_twos())
    }
    fn __len__(&self) -> PyResult<usize> {
        guard_ok(|| self.0.len() as usize)
    }
    fn __str__(&self) -> PyResult<String> {
        guard_ok(|| self.0.cards.to_string())
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("Combo({}: {})", self.0.kind.name(), self.0.cards))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| {
            let py = slf.py();
            let c = slf.get().0;
            let make = py
                .import("vncards._core")?
                .getattr("shedding_combo_from_parts")?;
            (make, (c.cards.0, c.kind as u8, c.top)).into_pyobject(py)
        })
    }
}

/// Rebuilds a pickled combo (mask, kind code, top).
#[pyfunction]
fn shedding_combo_from_parts(mask: u64, kind: u8, top: u8) -> PyResult<PyCombo> {
    guard(|| {
        Combo::from_parts(mask, kind, top)
            .map(PyCombo)
            .map_err(to_py)
    })
}

/// A card argument as a mask: an int mask, a combo, or anything `mask_from_py` accepts.
pub(super) fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<PyInt>() {
        return mask_of_int(obj);
    }
    if let Ok(c) = obj.cast::<PyCombo>() {
        return Ok(c.get().0.cards.0);
    }
    mask_from_py(obj)
}

/// A play or table argument as a combo: a `Combo` as is, cards classified (None if not one).
fn combo_arg(obj: &Bound<'_, PyAny>, rules: &Rules) -> PyResult<Option<Combo>> {
    if let Ok(c) = obj.cast::<PyCombo>() {
        return Ok(Some(c.get().0));
    }
    Ok(shedding::classify(CardSet(cards_arg(obj)?), rules))
}

fn filter_arg(filter: &str) -> PyResult<PlayFilter> {
    match filter {
        "all" => Ok(PlayFilter::All),
        "bombs" => Ok(PlayFilter::Bombs),
        "four_pair_sequences" => Ok(PlayFilter::FourPairSequences),
        other => Err(to_py(Error::Rules(format!(
            "filter must be 'all', 'bombs' or 'four_pair_sequences', not {other:?}"
        )))),
    }
}

pub(super) fn table_arg(
    table: Option<&Bound<'_, PyAny>>,
    rules: &Rules,
) -> PyResult<Option<Combo>> {
    match table {
        None => Ok(None),
        Some(t) if t.is_none() => Ok(None),
        Some(t) => combo_arg(t, rules)?.map(Some).ok_or_else(|| {
            to_py(Error::illegal(
                "invalid_combination",
                "the table cards are not a combination",
            ))
        }),
    }
}

/// The combination these cards form, or None.
#[pyfunction]
fn shedding_classify(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<Option<PyCombo>> {
    guard(|| Ok(shedding::classify(CardSet(cards_arg(cards)?), &rules.get().0).map(PyCombo)))
}

/// Does `play` beat `table`? Cards that form no combination never beat and are never beaten.
#[pyfunction]
fn shedding_beats(
    play: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<bool> {
    guard(|| {
        let r = &rules.get().0;
        Ok(match (combo_arg(play, r)?, combo_arg(table, r)?) {
            (Some(p), Some(t)) => shedding::beats(&p, &t, r),
            _ => false,
        })
    })
}

/// Is `play` over `table` a paid cut (chặt)?
#[pyfunction]
fn shedding_is_cut(
    play: &Bound<'_, PyCombo>,
    table: &Bound<'_, PyCombo>,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<bool> {
    guard_ok(|| shedding::is_cut(&play.get().0, &table.get().0, &rules.get().0))
}

/// Every distinct play from `hand` on `table` (None: a lead), containing `must_include`.
/// A hand larger than the rules' `hand_size` raises `InvalidCardError`.
#[pyfunction]
#[pyo3(signature = (hand, table, rules, must_include = 0, filter = "all"))]
fn shedding_legal_plays(
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    rules: &Bound<'_, PySheddingRules>,
    must_include: u64,
    filter: &str,
) -> PyResult<PlayList> {
    guard(|| {
        let filter = filter_arg(filter)?;
        play_list(hand, table, rules, must_include, |h, t, r, m, out| {
            shedding::legal_plays_into(h, t, r, m, filter, out)
        })
    })
}

/// The checked arguments of a `legal_plays` binding handed to a move generator (`fill`), whose
/// plays come back as a lazy `PlayList`: one path for Tiến Lên's and Sâm Lốc's generators.
pub(super) fn play_list(
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    rules: &Bound<'_, PySheddingRules>,
    must_include: u64,
    fill: impl FnOnce(CardSet, Option<&Combo>, &Rules, CardSet, &mut Vec<Combo>),
) -> PyResult<PlayList> {
    guard(|| {
        let r = &rules.get().0;
        let hand = hand_arg(hand, r)?;
        let table = table_arg(table, r)?;
        let mut out = Vec::new();
        fill(hand, table.as_ref(), r, mask_arg(must_include)?, &mut out);
        Ok(PlayList(out))
    })
}

/// The plays of one `legal_plays` call: a read-only sequence of combos, each built only when
/// read (a lead offers dozens of plays; a server or bot often reads one). Compares equal to a
/// list of the same combos; `masks` gives the card masks without building any combo.
#[pyclass(module = "vncards._core", name = "PlayList", frozen, sequence)]
pub struct PlayList(pub Vec<Combo>);

impl PlayList {
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.0.iter().map(|&c| PyCombo(c)))
    }
}

#[pymethods]
impl PlayList {
    fn __len__(&self) -> PyResult<usize> {
        guard_ok(|| self.0.len())
    }
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guard(|| {
            if let Ok(slice) = index.cast::<PySlice>() {
                return self.items(py)?.as_any().get_item(slice);
            }
            let i: isize = index.extract()?;
            let n = self.0.len() as isize;
            let at = if i < 0 { i + n } else { i };
            if !(0..n).contains(&at) {
                return Err(PyIndexError::new_err("play index out of range"));
            }
            Ok(Bound::new(py, PyCombo(self.0[at as usize]))?.into_any())
        })
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        guard(|| self.items(py)?.try_iter())
    }
    fn __contains__(&self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        guard_ok(|| {
            item.cast::<PyCombo>()
                .is_ok_and(|c| self.0.contains(&c.get().0))
        })
    }
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        guard(|| {
            if let Ok(o) = other.cast::<PlayList>() {
                return Ok(self.0 == o.get().0);
            }
            if let Ok(list) = other.cast::<PyList>() {
                return self.items(py)?.as_any().eq(list);
            }
            if let Ok(tuple) = other.cast::<PyTuple>() {
                return self.items(py)?.as_any().eq(tuple.to_list());
            }
            Ok(false)
        })
    }
    /// The card masks of the plays, in order (no combo is built).
    #[getter]
    fn masks(&self) -> PyResult<Vec<u64>> {
        guard_ok(|| self.0.iter().map(|c| c.cards.0).collect())
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        guard(|| Ok(self.items(py)?.repr()?.to_string()))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| {
            let list = py.import("builtins")?.getattr("list")?;
            (list, (self.items(py)?,)).into_pyobject(py)
        })
    }
}

/// A raw card mask argument: bits above 51 are an `InvalidCardError`.
pub(super) fn mask_arg(mask: u64) -> PyResult<CardSet> {
    CardSet::from_mask(mask).map_err(to_py)
}

/// A hand argument (see `cards_arg`) of at most the rules' `hand_size` cards: the bound keeps
/// the move generators' output small (a full deck holds millions of straights).
pub(super) fn hand_arg(obj: &Bound<'_, PyAny>, rules: &Rules) -> PyResult<CardSet> {
    rules.check_hand(CardSet(cards_arg(obj)?)).map_err(to_py)
}

/// A hand given as a mask, checked like `hand_arg`.
pub(super) fn hand_mask(mask: u64, rules: &Rules) -> PyResult<CardSet> {
    rules.check_hand(mask_arg(mask)?).map_err(to_py)
}

/// The card masks of `shedding_legal_plays` (same plays, same order) as a numpy `uint64`
/// array: no Python object per play, for servers and learners that only need masks.
#[pyfunction]
#[pyo3(signature = (hand, table, rules, must_include = 0, filter = "all"))]
fn shedding_legal_play_masks<'py>(
    hand: &Bound<'py, PyAny>,
    table: Option<&Bound<'py, PyAny>>,
    rules: &Bound<'py, PySheddingRules>,
    must_include: u64,
    filter: &str,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    guard(|| {
        arrays::require(rules.py(), "tienlen.legal_play_masks")?;
        let r = &rules.get().0;
        let hand = hand_arg(hand, r)?;
        let table = table_arg(table, r)?;
        let filter = filter_arg(filter)?;
        PLAYS.with_borrow_mut(|(plays, masks)| {
            plays.clear();
            shedding::legal_plays_into(
                hand,
                table.as_ref(),
                r,
                mask_arg(must_include)?,
                filter,
                plays,
            );
            masks.clear();
            masks.extend(plays.iter().map(|c| c.cards.0));
            Ok(PyArray1::from_slice(rules.py(), masks))
        })
    })
}

thread_local! {
    /// The move buffers of `shedding_legal_play_masks`, reused so a call allocates only its
    /// result array.
    static PLAYS: RefCell<(Vec<Combo>, Vec<u64>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Does `hand` hold a play on `table` admitted by `filter`?
#[pyfunction]
#[pyo3(signature = (hand, table, rules, filter = "all"))]
fn shedding_has_play(
    hand: u64,
    table: Option<&Bound<'_, PyCombo>>,
    rules: &Bound<'_, PySheddingRules>,
    filter: &str,
) -> PyResult<bool> {
    guard(|| {
        let r = &rules.get().0;
        let t = table.map(|t| t.get().0);
        Ok(shedding::has_play(
            hand_mask(hand, r)?,
            t.as_ref(),
            r,
            filter_arg(filter)?,
        ))
    })
}

/// Validates a play of `cards` from `hand` on `table`: returns the combo or raises
/// `IllegalMoveError` (`cards_not_in_hand`, `invalid_combination`, `must_include_lowest`,
/// `does_not_beat`).
#[pyfunction]
#[pyo3(signature = (hand, cards, table, rules, must_include = 0))]
fn shedding_check_play(
    hand: u64,
    cards: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyCombo>>,
    rules: &Bound<'_, PySheddingRules>,
    must_include: u64,
) -> PyResult<PyCombo> {
    guard(|| {
        let r = &rules.get().0;
        let cards = CardSet(cards_arg(cards)?);
        let table = table.map(|t| t.get().0);
        shedding::check_play(
            mask_arg(hand)?,
            cards,
            table.as_ref(),
            r,
            mask_arg(must_include)?,
        )
        .map(PyCombo)
        .map_err(to_py)
    })
}

/// Benchmark loop: `legal_plays` on the same hand and table `iterations` times, without the
/// GIL; returns the total number of plays generated.
#[pyfunction]
#[pyo3(signature = (hand, table, rules, iterations))]
fn shedding_legal_plays_loop(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    rules: &Bound<'_, PySheddingRules>,
    iterations: u64,
) -> PyResult<u64> {
    guard(|| {
        let r = rules.get().0;
        let hand = hand_arg(hand, &r)?;
        let table = table_arg(table, &r)?;
        timing_loop(py, iterations, move |out| {
            shedding::legal_plays_into(
                std::hint::black_box(hand),
                table.as_ref(),
                &r,
                CardSet::EMPTY,
                PlayFilter::All,
                out,
            )
        })
    })
}

/// Most iterations of a benchmark loop (minutes of work): the loop's end is never unchecked.
pub(super) const MAX_ITERATIONS: u64 = 100_000_000;

/// Runs one move generator `iterations` times without the GIL, for the benchmarks; returns the
/// total number of plays generated (so the work cannot be optimised away).
pub(super) fn timing_loop(
    py: Python<'_>,
    iterations: u64,
    generate: impl Fn(&mut Vec<Combo>) + Send,
) -> PyResult<u64> {
    if iterations > MAX_ITERATIONS {
        return Err(to_py(Error::Rules(format!(
            "iterations must be at most {MAX_ITERATIONS}, not {iterations}"
        ))));
    }
    Ok(py.detach(move || {
        let mut out = Vec::with_capacity(128);
        let mut total = 0u64;
        for _ in 0..iterations {
            out.clear();
            generate(&mut out);
            total += out.len() as u64;
        }
        total
    }))
}

/// Batch: the number of leads of each hand (masks), computed in parallel without the GIL.
#[pyfunction]
fn shedding_count_leads_batch(
    py: Python<'_>,
    hands: Vec<u64>,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<Vec<usize>> {
    guard(|| {
        let r = rules.get().0;
        let hands = hands
            .into_iter()
            .map(|h| hand_mask(h, &r))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(py.detach(move || {
            hands
                .par_iter()
                .map(|&h| shedding::legal_plays(h, None, &r, CardSet::EMPTY).len())
                .collect()
        }))
    })
}

/// The strongest Tiến Lên instant win (tới trắng) of a dealt hand as `(kind, strength, top)`,
/// where a larger `(strength, top)` wins; or None.
#[pyfunction]
#[pyo3(signature = (hand, rules, same_colour = false, first_hand_extras = false))]
fn tienlen_instant_win(
    hand: &Bound<'_, PyAny>,
    rules: &Bound<'_, PySheddingRules>,
    same_colour: bool,
    first_hand_extras: bool,
) -> PyResult<Option<(&'static str, u8, u8)>> {
    guard(|| {
        let opts = InstantOptions {
            same_colour,
            first_hand_extras,
        };
        let hand = hand_arg(hand, &rules.get().0)?;
        Ok(tienlen::instant_win(hand, &rules.get().0, opts)
            .map(|i| (i.kind.name(), 100 - i.kind as u8, i.top)))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySheddingRules>()?;
    m.add_class::<PyCombo>()?;
    m.add_class::<PlayList>()?;
    m.add_function(wrap_pyfunction!(shedding_combo_from_parts, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_classify, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_beats, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_is_cut, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_legal_play_masks, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_has_play, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_check_play, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_legal_plays_loop, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_count_leads_batch, m)?)?;
    m.add_function(wrap_pyfunction!(tienlen_instant_win, m)?)?;
    Ok(())
}
