//! Mậu Binh bindings: flat `maubinh_*` functions over card masks. The public, documented API is
//! `vncards.maubinh` (Python), which wraps these.

use super::arrays;
use super::guard::guard;
use super::{mask_from_py, to_py};
use crate::error::Error;
use crate::maubinh::eval::class5_of_row;
use crate::maubinh::exploit::{exploitability_until, shown_of, Options};
use crate::maubinh::instant::instant_win;
use crate::maubinh::joint::{self, Cells};
use crate::maubinh::population::{Census, Population, Scheme};
use crate::maubinh::settle::{settle, Shown};
use crate::maubinh::simulate::{head_to_head, joint_cells, position_histograms};
use crate::maubinh::solver::{
    best_arrangement, best_with_tables, ranked_arrangements, ranked_candidates, Objective, Solution,
};
use crate::maubinh::{self as mb, Arrangement, Evaluator, Rules, Wheel};
use numpy::{PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The Mậu Binh options as the core reads them, checked once (`vncards.maubinh.Rules.core`,
/// built with the Python rules object and kept beside it); every `maubinh_*` function and the
/// Mậu Binh search and vector tables take one.
#[pyclass(module = "vncards._core", name = "MauBinhRules", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMauBinhRules(pub(super) Rules);

#[pymethods]
impl PyMauBinhRules {
    /// The options of `vncards.maubinh.Rules` (`wheel`: `"second"` or `"lowest"`; `scoring`:
    /// `"units"` or `"4-2"`), the defaults theirs.
    #[new]
    #[pyo3(signature = (*, wheel = "second", scoop = false, scoop_all = false,
        back_straight_flush_units = 1, scoring = "units"))]
    fn new(
        wheel: &str,
        scoop: bool,
        scoop_all: bool,
        back_straight_flush_units: i64,
        scoring: &str,
    ) -> PyResult<PyMauBinhRules> {
        guard(|| {
            let wheel = match wheel {
                "second" => Wheel::Second,
                "lowest" => Wheel::Lowest,
                other => {
                    return Err(to_py(Error::Rules(format!(
                        "wheel must be 'second' or 'lowest', not {other:?}"
                    ))))
                }
            };
            Ok(PyMauBinhRules(checked(Rules {
                wheel,
                scoop,
                scoop_all,
                back_straight_flush_units: units_arg(back_straight_flush_units)?,
                scoring: scoring_arg(scoring)?,
            })?))
        })
    }
}

/// A straight flush in the back's units: `1..=MAX_BACK_STRAIGHT_FLUSH_UNITS`.
fn units_arg(units: i64) -> PyResult<u8> {
    let max = mb::MAX_BACK_STRAIGHT_FLUSH_UNITS;
    u8::try_from(units)
        .ok()
        .filter(|u| (1..=max).contains(u))
        .ok_or_else(|| {
            to_py(Error::Rules(format!(
                "back_straight_flush_units must be in 1..={max}, not {units}"
            )))
        })
}

fn scoring_arg(scoring: &str) -> PyResult<mb::Scoring> {
    mb::Scoring::from_name(scoring).map_err(to_py)
}

/// The default rules with `scoring` (the shipped tables' and the joint cells' own).
fn default_rules(scoring: &str) -> PyResult<Rules> {
    checked(Rules {
        scoring: scoring_arg(scoring)?,
        ..Rules::default()
    })
}

/// `r` if the engine can play it ([`Rules::validate`]), else the error as Python's.
fn checked(r: Rules) -> PyResult<Rules> {
    r.validate().map_err(to_py)?;
    Ok(r)
}

/// Most deals one simulation call plays (hours of work on a large machine): a caller's
/// number never sets an unbounded loop.
const MAX_DEALS: u64 = 1_000_000_000;

/// A number of deals for a simulation: `1..=MAX_DEALS`.
/// Runs `work` without the GIL on a scoped thread while this thread checks for signals every
/// 50 ms, so a long run stops on Ctrl-C as `simulate` does: a signal sets the flag `work` reads
/// (it then returns soon) and its error (`KeyboardInterrupt`) is raised instead of the result.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let mut signal: Option<PyErr> = None;
    let joined = py.detach(|| {
        let caller = std::thread::current();
        std::thread::scope(|scope| {
            let running = scope.spawn(|| {
                let out = work(&stop);
                caller.unpark();
                out
            });
            while !running.is_finished() {
                std::thread::park_timeout(std::time::Duration::from_millis(50));
                if signal.is_none() && !running.is_finished() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        signal = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            running.join()
        })
    });
    let out = joined.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    match signal {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn deals_arg(deals: u64) -> PyResult<u64> {
    if !(1..=MAX_DEALS).contains(&deals) {
        return Err(to_py(Error::Rules(format!(
            "deals must be within 1..={MAX_DEALS}, not {deals}"
        ))));
    }
    Ok(deals)
}

/// (back, middle, front, value, instant kind or None)
type SolutionTuple = (u64, u64, u64, f64, Option<&'static str>);

fn solution_tuple(s: Solution) -> SolutionTuple {
    let a = s.arrangement;
    (
        a.back,
        a.middle,
        a.front,
        s.value,
        s.instant.map(|k| k.name()),
    )
}

/// The array's values row-major, copied so the GIL can be released.
fn flat_copy(arr: &PyReadonlyArray2<'_, u8>) -> Vec<u8> {
    match arr.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => arr.as_array().iter().copied().collect(),
    }
}

/// The mask of one row of `N` card indices, if they are distinct cards.
#[inline(always)]
fn row_mask<const N: usize>(row: &[u8]) -> Option<u64> {
    let mut m = 0u64;
    for &c in &row[..N] {
        if c >= 52 {
            return None;
        }
        m |= 1 << c;
    }
    (m.count_ones() as usize == N).then_some(m)
}

/// Hand ranks of the rows of a flat `(N, k)` array (k = 5 or 3) in one parallel pass.
fn ranks_of_rows(flat: &[u8], k: usize, ev: &Evaluator) -> Result<Vec<i32>, Error> {
    // The first bad row, noted on the (rare) error path instead of a second pass.
    let bad = AtomicUsize::new(usize::MAX);
    let note = |row: usize| {
        bad.fetch_min(row, Ordering::Relaxed);
        -1
    };
    let mut ranks = Vec::with_capacity(flat.len() / k.max(1));
    match k {
        5 => flat
            .par_chunks_exact(5)
            .with_min_len(1 << 14)
            .enumerate()
            .map(|(i, row)| class5_of_row(row, ev).map_or_else(|| note(i), i32::from))
            .collect_into_vec(&mut ranks),
        3 => flat
            .par_chunks_exact(3)
            .with_min_len(1 << 14)
            .enumerate()
            .map(|(i, row)| row_mask::<3>(row).map_or_else(|| note(i), |m| ev.class3(m) as i32))
            .collect_into_vec(&mut ranks),
        _ => {
            return Err(Error::illegal(
                "invalid_combination",
                format!("a batch of hands is an (N, 5) or (N, 3) array, not (N, {k})"),
            ))
        }
    }
    match bad.into_inner() {
        usize::MAX => Ok(ranks),
        row => Err(Error::invalid_card(
            format!("row {row}"),
            row,
            "bad or repeated card index in row",
        )),
    }
}

/// Card masks of the rows of a flat row-major array of card indices; a row with an index
/// above 51 or a repeated card is an error naming the row.
fn rows_to_masks(flat: &[u8], k: usize) -> Result<Vec<u64>, Error> {
    const BAD: u64 = u64::MAX;
    let mut masks = Vec::with_capacity(flat.len() / k.max(1));
    flat.par_chunks(k.max(1))
        .with_min_len(4096)
        .map(|row| {
            let mut m = 0u64;
            for &c in row {
                if c >= 52 || m >> c & 1 == 1 {
                    return BAD;
                }
                m |= 1 << c;
            }
            m
        })
        .collect_into_vec(&mut masks);
    match masks.par_iter().position_first(|&m| m == BAD) {
        Some(row) => Err(Error::invalid_card(
            format!("row {row}"),
            row,
            "bad or repeated card index in row",
        )),
        None => Ok(masks),
    }
}

/// `hands` as a 2-D uint8 numpy array, when it is one (never when numpy is not imported).
fn u8_rows<'py>(hands: &Bound<'py, PyAny>) -> Option<PyReadonlyArray2<'py, u8>> {
    if !arrays::loaded(hands.py()) {
        return None;
    }
    hands.extract::<PyReadonlyArray2<'_, u8>>().ok()
}

/// Masks of a batch: a numpy `(N, k)` uint8 array of card indices, or an iterable of hands.
fn batch_masks(hands: &Bound<'_, PyAny>, width: Option<usize>) -> PyResult<Vec<u64>> {
    if let Some(arr) = u8_rows(hands) {
        let k = arr.shape()[1];
        if width.is_some_and(|w| w != k) {
            return Err(PyTypeError::new_err(format!(
                "expected an (N, {}) array, got (N, {k})",
                width.unwrap_or(0)
            )));
        }
        // One flat copy (row-major), then the GIL is released.
        let flat = flat_copy(&arr);
        return hands.py().detach(|| rows_to_masks(&flat, k)).map_err(to_py);
    }
    if hands.hasattr("__array_interface__")? {
        return Err(PyTypeError::new_err(
            "a numpy batch must be a 2-D uint8 array of Card.index values",
        ));
    }
    hands.try_iter()?.map(|h| mask_from_py(&h?)).collect()
}

/// Strength of a 5- or 3-card hand as an integer (higher is stronger, equal is a tie) under
/// `rules` (their wheel).
#[pyfunction]
fn maubinh_hand_rank(cards: &Bound<'_, PyAny>, rules: &Bound<'_, PyMauBinhRules>) -> PyResult<u16> {
    guard(|| mb::hand_rank(mask_from_py(cards)?, &rules.get().0).map_err(to_py))
}

/// Category name of a 5- or 3-card hand (`"high_card"` … `"straight_flush"`).
#[pyfunction]
fn maubinh_hand_category(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<&'static str> {
    guard(|| mb::hand_category(mask_from_py(cards)?, &rules.get().0).map_err(to_py))
}

/// `maubinh_hand_rank` for a batch: a list of hands or a numpy uint8 array (N, 5) or (N, 3) of
/// card indices -> numpy int32 array; computed in parallel with the GIL released.
#[pyfunction]
fn maubinh_hand_ranks<'py>(
    hands: &Bound<'py, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    guard(|| {
        let r = rules.get().0;
        let ev = r.evaluator();
        let py = hands.py();
        arrays::require(py, "maubinh.hand_ranks")?;
        if let Some(arr) = u8_rows(hands) {
            let k = arr.shape()[1];
            let flat = flat_copy(&arr);
            let ranks = py.detach(|| ranks_of_rows(&flat, k, ev)).map_err(to_py)?;
            return Ok(PyArray1::from_vec(py, ranks));
        }
        let masks = batch_masks(hands, None)?;
        let ranks = py
            .detach(|| {
                let mut ranks = Vec::with_capacity(masks.len());
                masks
                    .par_iter()
                    .with_min_len(4096)
                    .map(|&m| match m.count_ones() {
                        5 => ev.class5(m) as i32,
                        3 => ev.class3(m) as i32,
                        _ => -1,
                    })
                    .collect_into_vec(&mut ranks);
                match ranks.par_iter().position_first(|&x| x < 0) {
                    Some(row) => Err(Error::illegal(
                        "invalid_combination",
                        format!("hand {row} does not have 5 or 3 cards"),
                    )),
                    None => Ok(ranks),
                }
            })
            .map_err(to_py)?;
        Ok(PyArray1::from_vec(py, ranks))
    })
}

/// -1, 0 or 1 as hand `a` is weaker than, ties or beats hand `b` (two 5-card or two 3-card hands).
#[pyfunction]
fn maubinh_compare_hands(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<i32> {
    guard(|| mb::compare_hands(mask_from_py(a)?, mask_from_py(b)?, &rules.get().0).map_err(to_py))
}

fn arrangement(back: u64, middle: u64, front: u64) -> PyResult<Arrangement> {
    let a = Arrangement {
        back,
        middle,
        front,
    };
    a.validate().map_err(to_py)?;
    Ok(a)
}

/// Whether the arrangement given as three card masks breaks back >= middle >= front (binh lủng).
#[pyfunction]
fn maubinh_is_fouled(
    back: u64,
    middle: u64,
    front: u64,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<bool> {
    guard(|| Ok(arrangement(back, middle, front)?.is_fouled(&rules.get().0)))
}

/// Name of the strongest instant win (mậu binh trắng) of 13 cards, or None (always under 4-2
/// scoring).
#[pyfunction]
fn maubinh_instant_win(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<Option<&'static str>> {
    guard(|| {
        let mask = mask_from_py(cards)?;
        if mask.count_ones() != 13 {
            return Err(to_py(Error::illegal(
                "invalid_arrangement",
                format!("an instant win needs 13 cards, not {}", mask.count_ones()),
            )));
        }
        Ok(instant_win(mask, &rules.get().0).map(|k| k.name()))
    })
}

/// The solver: `(back, middle, front, value, instant)` masks of the best arrangement of 13 cards
/// under `objective` (`"expected"` or `"strongest"`), exact over all 72,072 splits.
#[pyfunction]
fn maubinh_best_arrangement(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
) -> PyResult<SolutionTuple> {
    guard(|| {
        let r = rules.get().0;
        let obj = Objective::from_name(objective).map_err(to_py)?;
        best_arrangement(mask_from_py(cards)?, &r, obj)
            .map(solution_tuple)
            .map_err(to_py)
    })
}

/// `maubinh_best_arrangement` for many 13-card hands (a list or a numpy uint8 array (N, 13)),
/// solved in parallel with the GIL released.
#[pyfunction]
fn maubinh_best_arrangements(
    hands: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
) -> PyResult<Vec<SolutionTuple>> {
    guard(|| {
        let r = rules.get().0;
        let obj = Objective::from_name(objective).map_err(to_py)?;
        let masks = batch_masks(hands, Some(13))?;
        hands
            .py()
            .detach(|| {
                masks
                    .par_iter()
                    .map(|&m| best_arrangement(m, &r, obj).map(solution_tuple))
                    .collect::<Result<Vec<_>, Error>>()
            })
            .map_err(to_py)
    })
}

/// The best `count` arrangements with distinct hand classes, as `(back, middle, front, value)`.
#[pyfunction]
fn maubinh_ranked_arrangements(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
    count: usize,
) -> PyResult<Vec<(u64, u64, u64, f64)>> {
    guard(|| {
        let r = rules.get().0;
        let obj = Objective::from_name(objective).map_err(to_py)?;
        let ranked = ranked_arrangements(mask_from_py(cards)?, &r, obj, count).map_err(to_py)?;
        Ok(ranked
            .into_iter()
            .map(|(a, v)| (a.back, a.middle, a.front, v))
            .collect())
    })
}

/// One split of `maubinh_ranked_candidates`.
type RankedTuple = ((u16, u16, u16), f64, f64, bool);

/// The equilibrium's best `count` splits in its tables' order, as `((back, middle, front)
/// classes, tables' value, refined value, candidate)` (see `solver::ranked_candidates`).
#[pyfunction]
fn maubinh_ranked_candidates(
    cards: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyMauBinhRules>,
    count: usize,
) -> PyResult<Vec<RankedTuple>> {
    guard(|| {
        let r = rules.get().0;
        let ranked = ranked_candidates(mask_from_py(cards)?, &r, count).map_err(to_py)?;
        Ok(ranked
            .into_iter()
            .map(|x| {
                let [b, m, f] = x.classes;
                ((b, m, f), x.tables, x.refined, x.candidate)
            })
            .collect())
    })
}

/// Expected units of an arrangement (three card masks) against one opponent, from the shipped
/// tables of `objective`.
#[pyfunction]
fn maubinh_expected_value(
    back: u64,
    middle: u64,
    front: u64,
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
) -> PyResult<f64> {
    guard(|| {
        let r = rules.get().0;
        let model = Objective::from_name(objective).map_err(to_py)?.model();
        let a = arrangement(back, middle, front)?;
        Ok(Population::shipped(&r, model).arrangement_value(&a, &r))
    })
}

/// The entries (win, tie, lose, loss, bonus, value) a hand's split of classes `(back, middle,
/// front)` is refined with: its class tables' entries, each corrected for the cards the hand
/// holds where the objective's tables have a card-removal pool (the equilibrium's), as they
/// are otherwise.
#[pyfunction]
fn maubinh_removal_entries(
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
    hand: u64,
    classes: (u16, u16, u16),
) -> PyResult<Vec<[f64; 6]>> {
    guard(|| {
        let r = rules.get().0;
        crate::maubinh::solver::check_hand(hand).map_err(to_py)?;
        let population =
            Population::shipped(&r, Objective::from_name(objective).map_err(to_py)?.model());
        let t = population.for_hand(hand);
        let classes = [classes.0, classes.1, classes.2];
        let seen = population.seen(hand);
        let mut out = Vec::with_capacity(3);
        for (p, entries) in [&t.back, &t.middle, &t.front].into_iter().enumerate() {
            let e = entries.get(usize::from(classes[p])).ok_or_else(|| {
                to_py(Error::Rules(format!(
                    "class {} is beyond the {} classes of that position",
                    classes[p],
                    entries.len()
                )))
            })?;
            let e = seen.as_ref().map_or(*e, |s| s.correct(p, classes[p], e));
            out.push([e.win, e.tie, e.lose, e.loss, e.bonus, e.value].map(f64::from));
        }
        Ok(out)
    })
}

/// Per-position tables as `{"back"|"middle"|"front": (classes, 6) float array}` with columns
/// win, tie, lose, loss, bonus, value: those a hand (a card mask; its class of the split
/// population) is solved with.
#[pyfunction]
fn maubinh_position_tables<'py>(
    py: Python<'py>,
    rules: &Bound<'_, PyMauBinhRules>,
    objective: &str,
    hand: u64,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        arrays::require(py, "maubinh.position_tables")?;
        let r = rules.get().0;
        let population =
            Population::shipped(&r, Objective::from_name(objective).map_err(to_py)?.model());
        let t = population.for_hand(hand);
        let out = PyDict::new(py);
        for (name, entries) in [
            ("back", &t.back),
            ("middle", &t.middle),
            ("front", &t.front),
        ] {
            let rows: Vec<Vec<f64>> = entries
                .iter()
                .map(|e| {
                    [e.win, e.tie, e.lose, e.loss, e.bonus, e.value]
                        .map(f64::from)
                        .to_vec()
                })
                .collect();
            let arr =
                PyArray2::from_vec2(py, &rows).map_err(|e| PyTypeError::new_err(e.to_string()))?;
            out.set_item(name, arr)?;
        }
        Ok(out)
    })
}

/// Settles seats given as `(back, middle, front)` masks or `None` (forfeited). Returns
/// `(totals, [(from, to, units, reason)], [instant or None], [fouled])`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn maubinh_settle(
    seats: Vec<Option<(u64, u64, u64)>>,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<(
    Vec<i64>,
    Vec<(usize, usize, i64, String)>,
    Vec<Option<&'static str>>,
    Vec<bool>,
)> {
    guard(|| {
        let r = rules.get().0;
        let seats: Vec<Option<Arrangement>> = seats
            .into_iter()
            .map(|s| {
                s.map(|(back, middle, front)| Arrangement {
                    back,
                    middle,
                    front,
                })
            })
            .collect();
        let s = settle(&seats, &r).map_err(to_py)?;
        Ok((
            s.totals,
            s.payments
                .into_iter()
                .map(|p| (p.from, p.to, p.units, p.reason))
                .collect(),
            s.instants
                .into_iter()
                .map(|k| k.map(|k| k.name()))
                .collect(),
            s.fouled,
        ))
    })
}

/// Opponent histograms of the seeded 4-player deals `start .. start + deals` (for
/// `vncards.maubinh.tables`) under the default rules with `scoring`; `histograms` (the binary
/// form) replaces the objective's shipped ones as the solver's model; `split` keeps them per
/// class of each seat's own hand (by `scheme`: see `Scheme`). Returns the binary form, its header
/// naming the deals, seed, objective and rules.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (deals, seed, objective, histograms = None, start = 0, scoring = "units", split = false, scheme = 1))]
fn maubinh_position_histograms<'py>(
    py: Python<'py>,
    deals: u64,
    seed: u64,
    objective: &str,
    histograms: Option<&[u8]>,
    start: u64,
    scoring: &str,
    split: bool,
    scheme: u8,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let r = default_rules(scoring)?;
        let obj = Objective::from_name(objective).map_err(to_py)?;
        let population = match histograms {
            Some(b) => Population::from_census(&Census::from_bytes(b).map_err(to_py)?, &r),
            None => (*Population::shipped(&r, obj.model())).clone(),
        };
        let scheme = if split {
            match Scheme::from_id(scheme).map_err(to_py)? {
                Scheme::Whole => {
                    return Err(to_py(Error::Rules(
                        "a split population needs a scheme of several classes".into(),
                    )))
                }
                s => s,
            }
        } else {
            Scheme::Whole
        };
        let deals = deals_arg(deals)?;
        let end = start
            .checked_add(deals)
            .ok_or_else(|| to_py(Error::Rules("start + deals must be below 2**64".into())))?;
        let census = interruptible(py, |stop| {
            position_histograms(start..end, seed, &r, obj, &population, scheme, stop)
        })?;
        let header = format!(
            r#"{{"start": {start}, "deals": {deals}, "seed": {seed}, "objective": "{objective}", "rules": "{r:?}"}}"#
        );
        Ok(PyBytes::new(py, &census.to_bytes(&header).map_err(to_py)?))
    })
}

/// The 4-2 joint term's quantile cells (`vncards.maubinh.tables.joint_cells`) of the seeded
/// 4-player deals `start .. start + deals`, the hands arranged by the equilibrium's shipped 4-2
/// tables without the correction (the population the copula describes). `cells` are the
/// counts of deals `0 .. start` (a checkpoint: given exactly when `start > 0`), added in.
/// Returns the binary form (`MBJ1`) of deals `0 .. start + deals`, its header naming them,
/// the seed, grid, rules and `play`. With `play = "corrected"` the hands are arranged by the
/// shipped strategy itself (card removal and the joint term included: one step of fictitious
/// play on the cells), counted under the same class tables.
#[pyfunction]
#[pyo3(signature = (deals, seed, start = 0, cells = None, play = "tables"))]
fn maubinh_joint_cells<'py>(
    py: Python<'py>,
    deals: u64,
    seed: u64,
    start: u64,
    cells: Option<&[u8]>,
    play: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let r = default_rules("4-2")?;
        let model = mb::expected::Model::Equilibrium;
        let population = match play {
            "tables" => Arc::new(Population::from_census(
                Census::shipped(model, r.scoring),
                &r,
            )),
            "corrected" => Population::shipped(&r, model),
            other => {
                return Err(to_py(Error::Rules(format!(
                    "play must be \"tables\" or \"corrected\", not {other:?}"
                ))))
            }
        };
        if cells.is_some() != (start > 0) {
            return Err(to_py(Error::Rules(
                "cells (the counts of deals 0 .. start) go with start > 0, and only then".into(),
            )));
        }
        let earlier = cells.map(Cells::from_bytes).transpose().map_err(to_py)?;
        if earlier.as_ref().is_some_and(|c| c.grid != joint::GRID) {
            return Err(to_py(Error::Rules(format!(
                "cells to add to must have a grid of {}",
                joint::GRID
            ))));
        }
        let deals = deals_arg(deals)?;
        let end = start
            .checked_add(deals)
            .ok_or_else(|| to_py(Error::Rules("start + deals must be below 2**64".into())))?;
        let mut counted = interruptible(py, |stop| {
            joint_cells(
                start..end,
                seed,
                &r,
                Objective::Equilibrium,
                &population,
                joint::GRID,
                stop,
            )
        })?;
        if let Some(e) = &earlier {
            counted.merge(e);
        }
        let header = format!(
            r#"{{"deals": {end}, "seed": {seed}, "grid": {}, "objective": "equilibrium", "play": "{play}", "rules": "{r:?}"}}"#,
            joint::GRID
        );
        Ok(PyBytes::new(py, &counted.to_bytes(&header).map_err(to_py)?))
    })
}

/// The shipped 4-2 joint cells' file (`MBJ1`).
#[pyfunction]
fn maubinh_joint_file(py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
    guard(|| Ok(PyBytes::new(py, joint::shipped_file())))
}

/// The JSON header of an objective's shipped tables for a scoring: how they were sampled.
#[pyfunction]
#[pyo3(signature = (objective = "expected", scoring = "units"))]
fn maubinh_tables_header(objective: &str, scoring: &str) -> PyResult<&'static str> {
    guard(|| {
        let model = Objective::from_name(objective).map_err(to_py)?.model();
        let scoring = mb::Scoring::from_name(scoring).map_err(to_py)?;
        Census::header(model.file(scoring)).map_err(to_py)
    })
}

/// The binary form of an objective's shipped tables for a scoring.
#[pyfunction]
#[pyo3(signature = (objective = "expected", scoring = "units"))]
fn maubinh_tables_file<'py>(
    py: Python<'py>,
    objective: &str,
    scoring: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let model = Objective::from_name(objective).map_err(to_py)?.model();
        let scoring = mb::Scoring::from_name(scoring).map_err(to_py)?;
        Ok(PyBytes::new(py, model.file(scoring)))
    })
}

/// A table file in another binary form: the compact `MBT4` (`compact`, quantized: see
/// `Census::to_compact`) or the exact-count form of its kind (`MBT2` for one population,
/// `MBT3` split), with the same header. Reads any form; a damaged file raises `RulesError`.
#[pyfunction]
#[pyo3(signature = (tables, *, compact))]
fn maubinh_tables_recode<'py>(
    py: Python<'py>,
    tables: &[u8],
    compact: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let census = Census::from_bytes(tables).map_err(to_py)?;
        let header = Census::header(tables).map_err(to_py)?;
        let out = if compact {
            census.to_compact(header)
        } else {
            census.to_bytes(header).map_err(to_py)?
        };
        Ok(PyBytes::new(py, &out))
    })
}

/// Head-to-head: total units won by the seats using objective `a`, and the number of seat-deals.
#[pyfunction]
fn maubinh_head_to_head(
    py: Python<'_>,
    deals: u64,
    seed: u64,
    players: usize,
    a: &str,
    b: &str,
    rules: &Bound<'_, PyMauBinhRules>,
) -> PyResult<(i64, u64)> {
    guard(|| {
        if !(2..=4).contains(&players) {
            return Err(to_py(Error::Rules(format!(
                "Mậu Binh takes 2–4 players, not {players}"
            ))));
        }
        let r = rules.get().0;
        let deals = deals_arg(deals)?;
        let (a, b) = (
            Objective::from_name(a).map_err(to_py)?,
            Objective::from_name(b).map_err(to_py)?,
        );
        Ok(py.detach(|| head_to_head(deals, seed, players, &r, a, b)))
    })
}

/// `(points, half-width, dealt, half-width, deviations, decisions, responses per decision,
/// sampling)`: see `vncards.maubinh.exploitability`.
/// One deviation: deal, seat, hand, the strategy's classes (back, middle, front) and foul,
/// the response's, and the gain in points per hand.
type DeviationTuple = (
    u64,
    usize,
    u64,
    (u16, u16, u16),
    bool,
    (u16, u16, u16),
    bool,
    f64,
);
type ExploitTuple = (
    f64,
    f64,
    f64,
    f64,
    f64,
    u64,
    f64,
    &'static str,
    Vec<DeviationTuple>,
);

/// Most deals, and sampled opponents per decision, of one exploitability run.
const MAX_EXPLOIT: u64 = 10_000_000;

/// A strategy for the evaluator: an objective's name (solved in the core), or a Python
/// callable taking a 13-card mask and returning the `(back, middle, front)` masks.
enum PyStrategy {
    Objective(Objective),
    Callable(Py<PyAny>),
}

/// How much a best response wins against `strategy` (see `exploit.rs`); `histograms` (the
/// binary form) replaces an objective's shipped tables.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (
    strategy, players, deals, samples, held_out, seed, deck,
    rules, histograms = None
))]
fn maubinh_exploitability(
    py: Python<'_>,
    strategy: &Bound<'_, PyAny>,
    players: usize,
    deals: u64,
    samples: u64,
    held_out: u64,
    seed: u64,
    deck: u64,
    rules: &Bound<'_, PyMauBinhRules>,
    histograms: Option<&[u8]>,
) -> PyResult<ExploitTuple> {
    guard(|| {
        let r = rules.get().0;
        for (name, value) in [
            ("deals", deals),
            ("samples", samples),
            ("held_out", held_out),
        ] {
            if !(1..=MAX_EXPLOIT).contains(&value) {
                return Err(to_py(Error::Rules(format!(
                    "{name} must be within 1..={MAX_EXPLOIT}, not {value}"
                ))));
            }
        }
        let strategy = match strategy.extract::<String>() {
            Ok(name) => PyStrategy::Objective(Objective::from_name(&name).map_err(to_py)?),
            Err(_) if strategy.is_callable() => PyStrategy::Callable(strategy.clone().unbind()),
            Err(_) => {
                return Err(PyTypeError::new_err(
                    "a strategy is an objective name or a callable hand -> arrangement",
                ))
            }
        };
        let options = Options {
            players,
            deals,
            samples: samples as usize,
            held_out: held_out as usize,
            seed,
            deck,
        };
        let model = match histograms {
            Some(b) => Some(Population::from_census(
                &Census::from_bytes(b).map_err(to_py)?,
                &r,
            )),
            None => None,
        };
        // A Python error inside the callable stops the run and is raised as it was.
        let raised: Mutex<Option<PyErr>> = Mutex::new(None);
        let report = interruptible(py, |stop| match &strategy {
            PyStrategy::Objective(obj) => {
                let shipped = Population::shipped(&r, obj.model());
                let tables = model.as_ref().unwrap_or(&shipped);
                let solve = |hand: u64| -> Result<Shown, Error> {
                    let s = best_with_tables(hand, &r, *obj, tables)?;
                    Ok(Shown::with_instant(&s.arrangement, s.instant, &r))
                };
                exploitability_until(&solve, &r, &options, stop)
            }
            PyStrategy::Callable(f) => {
                let solve = |hand: u64| -> Result<Shown, Error> {
                    let masks =
                        Python::attach(|py| f.call1(py, (hand,))?.extract::<(u64, u64, u64)>(py));
                    match masks {
                        Ok((back, middle, front)) => {
                            let a = Arrangement {
                                back,
                                middle,
                                front,
                            };
                            shown_of(hand, &a, &r)
                        }
                        Err(e) => {
                            raised
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                            Err(Error::Rules("the strategy raised an exception".into()))
                        }
                    }
                };
                exploitability_until(&solve, &r, &options, stop)
            }
        })?;
        if let Some(e) = raised.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let report = report.map_err(to_py)?;
        Ok((
            report.points.mean,
            report.points.half_width,
            report.dealt.mean,
            report.dealt.half_width,
            report.deviations,
            report.decisions,
            report.responses,
            report.sampling.name(),
            report
                .deviated
                .iter()
                .map(|d| {
                    let c = |s: &Shown| (s.classes[0], s.classes[1], s.classes[2]);
                    (
                        d.deal,
                        d.seat,
                        d.hand,
                        c(&d.played),
                        d.played.fouled,
                        c(&d.response),
                        d.response.fouled,
                        d.gain,
                    )
                })
                .collect(),
        ))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The category names and the instant-win table live once, in the core; Python reads them.
    m.add("MAUBINH_CATEGORIES", mb::eval::CATEGORY_NAMES.to_vec())?;
    let instants: Vec<(&str, i64)> = mb::instant::Instant::STRONGEST_FIRST
        .iter()
        .map(|k| (k.name(), k.units()))
        .collect();
    m.add("MAUBINH_INSTANT_WINS", instants)?;
    m.add_class::<PyMauBinhRules>()?;
    m.add_function(wrap_pyfunction!(maubinh_hand_rank, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_hand_category, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_hand_ranks, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_compare_hands, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_is_fouled, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_instant_win, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_best_arrangement, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_best_arrangements, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_expected_value, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_ranked_arrangements, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_ranked_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_position_tables, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_removal_entries, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_settle, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_position_histograms, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_tables_header, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_joint_cells, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_joint_file, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_tables_file, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_tables_recode, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_head_to_head, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_exploitability, m)?)?;
    Ok(())
}
