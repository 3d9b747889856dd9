//! Sâm Lốc bindings: the rules preset, báo 1-aware move generation and instant wins.
//! Combinations are the shared `SheddingCombo`; card arguments are masks, text, `Card`s or
//! iterables of cards.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use super::shedding::{
    hand_arg, hand_mask, mask_arg, play_list, table_arg, timing_loop, PlayList, PyCombo,
    PySheddingRules,
};
use crate::cards::CardSet;
use crate::error::Error;
use crate::samloc;
use crate::shedding::PlayFilter;
use pyo3::prelude::*;

/// The Sâm Lốc rules of the shedding core with its two combination options.
#[pyfunction]
#[pyo3(signature = (*, low_straights = false, quad_beats_pair_of_twos = false))]
fn samloc_rules(low_straights: bool, quad_beats_pair_of_twos: bool) -> PyResult<PySheddingRules> {
    guard_ok(|| PySheddingRules(samloc::rules(low_straights, quad_beats_pair_of_twos)))
}

/// Every distinct play from `hand` on `table` (None: a lead) containing `must_include`; with
/// `bao_mot`, only the highest-ranked singles (báo 1, mode "enforce").
#[pyfunction]
#[pyo3(signature = (hand, table, rules, bao_mot = false, must_include = 0))]
fn samloc_legal_plays(
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    rules: &Bound<'_, PySheddingRules>,
    bao_mot: bool,
    must_include: u64,
) -> PyResult<PlayList> {
    guard(|| {
        play_list(hand, table, rules, must_include, |h, t, r, m, out| {
            samloc::legal_plays_into_bao_mot(h, t, r, m, PlayFilter::All, bao_mot, out)
        })
    })
}

/// Does `hand` hold a play on `table` (báo 1-aware, see `samloc_legal_plays`)?
#[pyfunction]
#[pyo3(signature = (hand, table, rules, bao_mot = false))]
fn samloc_has_play(
    hand: u64,
    table: Option<&Bound<'_, PyCombo>>,
    rules: &Bound<'_, PySheddingRules>,
    bao_mot: bool,
) -> PyResult<bool> {
    guard(|| {
        let r = &rules.get().0;
        let hand = hand_mask(hand, r)?;
        let t = table.map(|t| t.get().0);
        let mut out = Vec::new();
        samloc::legal_plays_into_bao_mot(
            hand,
            t.as_ref(),
            r,
            CardSet::EMPTY,
            PlayFilter::All,
            bao_mot,
            &mut out,
        );
        Ok(!out.is_empty())
    })
}

/// Báo 1: is `play` a single lower in rank than the highest card of `hand`?
#[pyfunction]
fn samloc_breaks_bao_mot(hand: u64, play: &Bound<'_, PyCombo>) -> PyResult<bool> {
    guard(|| Ok(samloc::breaks_bao_mot(mask_arg(hand)?, &play.get().0)))
}

/// The strongest instant win (tới trắng) of a ten-card hand as `(kind, top_rank)`, or None.
#[pyfunction]
fn samloc_instant_win(
    hand: &Bound<'_, PyAny>,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<Option<(&'static str, u8)>> {
    guard(|| {
        let hand = hand_arg(hand, &rules.get().0)?;
        Ok(samloc::instant_win(hand, &rules.get().0).map(|i| (i.kind.name(), i.top_rank)))
    })
}

/// The seat winning at the deal as `(seat, kind, top_rank)`: the strongest instant win, ties
/// to the seat nearer `leader`; or None.
#[pyfunction]
fn samloc_instant_winner(
    hands: Vec<u64>,
    leader: usize,
    rules: &Bound<'_, PySheddingRules>,
) -> PyResult<Option<(usize, &'static str, u8)>> {
    guard(|| {
        let r = &rules.get().0;
        if hands.len() > usize::from(r.max_players) {
            return Err(to_py(Error::Rules(format!(
                "at most {} seats, not {}",
                r.max_players,
                hands.len()
            ))));
        }
        if leader >= hands.len() {
            return Err(to_py(Error::Rules(format!(
                "leader {leader} is not one of {} seats",
                hands.len()
            ))));
        }
        let hands = hands
            .into_iter()
            .map(|h| hand_mask(h, r))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(samloc::instant_winner(&hands, leader, r)
            .map(|(seat, i)| (seat, i.kind.name(), i.top_rank)))
    })
}

/// Benchmark loop: `samloc_legal_plays` on one hand and table `iterations` times without the
/// GIL; returns the total number of plays generated.
#[pyfunction]
#[pyo3(signature = (hand, table, rules, iterations, bao_mot = false))]
fn samloc_legal_plays_loop(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    rules: &Bound<'_, PySheddingRules>,
    iterations: u64,
    bao_mot: bool,
) -> PyResult<u64> {
    guard(|| {
        let r = rules.get().0;
        let hand = hand_arg(hand, &r)?;
        let table = table_arg(table, &r)?;
        timing_loop(py, iterations, move |out| {
            samloc::legal_plays_into_bao_mot(
                std::hint::black_box(hand),
                table.as_ref(),
                &r,
                CardSet::EMPTY,
                PlayFilter::All,
                bao_mot,
                out,
            )
        })
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(samloc_rules, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_has_play, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_breaks_bao_mot, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_instant_win, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_instant_winner, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_legal_plays_loop, m)?)?;
    Ok(())
}
