//! Bindings of the rollout engine behind the shedding bots: `RolloutSetup` (the table's rules
//! and payoffs, built once per bot), `RolloutPosition` (a seat's position, which the rollouts
//! and the searches take), `rollout_evaluate` and `rollout_sam_success` (GIL released) and
//! `rollout_greedy_choice`. Card arguments are masks.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use super::shedding::PySheddingRules;
use crate::cards::CardSet;
use crate::error::Error;
use crate::rollout::{self, BaoMot, Context, Payoff, Position, Setup, MAX_SEATS};
use crate::shedding::{classify, Combo, PlayFilter, Rules};
use pyo3::prelude::*;

/// Largest payoff entry, in units: far above any table's stakes, small enough that no score
/// of a rolled-out hand can overflow.
const MAX_UNITS: u32 = 10_000;

/// The rules and payoffs the rollouts of one table use.
#[pyclass(module = "vncards._core", name = "RolloutSetup", frozen)]
pub struct PyRolloutSetup(pub(super) Setup);

#[pymethods]
impl PyRolloutSetup {
    #[new]
    #[pyo3(signature = (rules, players, *, after_pass = None, bao_mot = false, finish_on_two = true,
        card = 1, cong = 26, black_two = 3, red_two = 6, quad = 12, places = Vec::new(), sam = 0,
        sam_block_each = false, sam_may_finish_on_two = false, bao_previous_seat_only = false,
        bao_penalize = false, bao_den_cards = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &Bound<'_, PySheddingRules>,
        players: usize,
        after_pass: Option<&str>,
        bao_mot: bool,
        finish_on_two: bool,
        card: i32,
        cong: i32,
        black_two: i32,
        red_two: i32,
        quad: i32,
        places: Vec<i32>,
        sam: i32,
        sam_block_each: bool,
        sam_may_finish_on_two: bool,
        bao_previous_seat_only: bool,
        bao_penalize: bool,
        bao_den_cards: bool,
    ) -> PyResult<Self> {
        guard(|| {
            if !(2..=MAX_SEATS).contains(&players) {
                return Err(to_py(Error::Rules(format!(
                    "players must be 2..{MAX_SEATS}, not {players}"
                ))));
            }
            let after_pass = match after_pass {
                None => None,
                Some("bombs") => Some(PlayFilter::Bombs),
                Some("four_pair_sequences") => Some(PlayFilter::FourPairSequences),
                Some(other) => {
                    return Err(to_py(Error::Rules(format!(
                        "after_pass must be None, 'bombs' or 'four_pair_sequences', not {other:?}"
                    ))))
                }
            };
            if let Some((name, v)) = [
                ("card", card),
                ("cong", cong),
                ("black_two", black_two),
                ("red_two", red_two),
                ("quad", quad),
                ("sam", sam),
            ]
            .into_iter()
            .chain(places.iter().map(|&p| ("places", p)))
            .find(|(_, v)| v.unsigned_abs() > MAX_UNITS)
            {
                return Err(to_py(Error::Rules(format!(
                    "{name} must be within ±{MAX_UNITS} units, not {v}"
                ))));
            }
            if places.len() > players {
                return Err(to_py(Error::Rules(format!(
                    "{} places for {players} players",
                    places.len()
                ))));
            }
            let payoff = Payoff {
                card,
                cong,
                black_two,
                red_two,
                quad,
                places,
                sam,
                sam_block_each,
            };
            Ok(PyRolloutSetup(Setup {
                rules: rules.get().0,
                players,
                after_pass,
                bao_mot,
                finish_on_two,
                sam_may_finish_on_two,
                bao: BaoMot {
                    previous_seat_only: bao_previous_seat_only,
                    penalize: bao_penalize,
                    den_cards: bao_den_cards,
                },
                payoff,
            }))
        })
    }

    /// Number of seats the rollouts play.
    #[getter]
    fn players(&self) -> PyResult<usize> {
        guard_ok(|| self.0.players)
    }

    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("RolloutSetup({:?})", self.0))
    }
}

pub(super) fn mask(m: u64, what: &str) -> PyResult<CardSet> {
    CardSet::from_mask(m).map_err(|_| to_py(Error::Rules(format!("{what}: not a card mask"))))
}

pub(super) fn combo(m: u64, rules: &Rules, what: &str) -> PyResult<Combo> {
    classify(mask(m, what)?, rules).ok_or_else(|| {
        to_py(Error::illegal(
            "invalid_combination",
            format!("{what}: not a combination"),
        ))
    })
}

/// A seat's position in a shedding hand as the rollouts and the searches read it (the fields of
/// the Python `SheddingView`): built once per decision, checked against the table's setup when
/// a search or rollout reads it. Card fields are masks; seat sets are bit sets.
#[pyclass(module = "vncards._core", name = "RolloutPosition", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyPosition {
    /// The seat deciding (the root).
    #[pyo3(get)]
    me: usize,
    /// Its hand.
    #[pyo3(get)]
    hand: u64,
    /// The cards it has not seen (in the others' hands, or never dealt).
    #[pyo3(get)]
    unseen: u64,
    /// Cards held by each seat.
    #[pyo3(get)]
    counts: Vec<u8>,
    /// Seats that have played a card this hand.
    #[pyo3(get)]
    played_any: u8,
    /// The combination to beat, or None on a lead.
    #[pyo3(get)]
    table: Option<u64>,
    /// The seat whose play is on the table.
    #[pyo3(get)]
    table_seat: usize,
    /// Seats that passed in this round.
    #[pyo3(get)]
    passed: u8,
    /// Seats out of the hand.
    #[pyo3(get)]
    out: u8,
    /// Cards the root's play must include (the first lead).
    #[pyo3(get)]
    must: u64,
    /// The Sâm declarer, if any.
    #[pyo3(get)]
    sam: Option<usize>,
    /// The cards each seat has played this hand (empty: not given; the learned policy in a
    /// search reads them).
    #[pyo3(get)]
    played: Vec<u64>,
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (*, me, hand, unseen, counts, played_any = 0, table = None, table_seat = 0,
        passed = 0, out = 0, must = 0, sam = None, played = Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        me: usize,
        hand: u64,
        unseen: u64,
        counts: Vec<u8>,
        played_any: u8,
        table: Option<u64>,
        table_seat: usize,
        passed: u8,
        out: u8,
        must: u64,
        sam: Option<usize>,
        played: Vec<u64>,
    ) -> PyResult<PyPosition> {
        guard(|| {
            mask(hand, "hand")?;
            mask(unseen, "unseen")?;
            mask(must, "must")?;
            for &m in &played {
                mask(m, "played")?;
            }
            if let Some(t) = table {
                mask(t, "table")?;
            }
            Ok(PyPosition {
                me,
                hand,
                unseen,
                counts,
                played_any,
                table,
                table_seat,
                passed,
                out,
                must,
                sam,
                played,
            })
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| {
            format!(
                "RolloutPosition(me={}, hand={:#x}, unseen={:#x}, counts={:?}, played_any={}, \
                 table={}, table_seat={}, passed={}, out={}, must={:#x}, sam={}, played={:?})",
                self.me,
                self.hand,
                self.unseen,
                self.counts,
                self.played_any,
                self.table.map_or("None".into(), |t| format!("{t:#x}")),
                self.table_seat,
                self.passed,
                self.out,
                self.must,
                self.sam.map_or("None".into(), |s| s.to_string()),
                self.played,
            )
        })
    }
}

impl PyPosition {
    /// The position of a seat at the start of its hand's play (no table, nothing played), or
    /// of a Sâm declarer (`sam`), with seats `out` out.
    pub(super) fn fresh(
        me: usize,
        hand: u64,
        unseen: u64,
        counts: Vec<u8>,
        out: u8,
        sam: Option<usize>,
    ) -> PyPosition {
        PyPosition {
            me,
            hand,
            unseen,
            counts,
            played_any: 0,
            table: None,
            table_seat: 0,
            passed: 0,
            out,
            must: 0,
            sam,
            played: Vec::new(),
        }
    }

    /// The core's position at a table of `setup` (checked against it).
    pub(super) fn read(&self, setup: &Setup) -> PyResult<Position> {
        if self.counts.len() != setup.players {
            return Err(to_py(Error::Rules(format!(
                "counts: {} seats expected",
                setup.players
            ))));
        }
        let mut counts = [0u8; MAX_SEATS];
        counts[..self.counts.len()].copy_from_slice(&self.counts);
        if !self.played.is_empty() && self.played.len() != setup.players {
            return Err(to_py(Error::Rules(format!(
                "played: {} seats expected",
                setup.players
            ))));
        }
        let mut played = [0u64; MAX_SEATS];
        played[..self.played.len()].copy_from_slice(&self.played);
        let pos = Position {
            me: self.me,
            hand: mask(self.hand, "hand")?,
            unseen: mask(self.unseen, "unseen")?,
            counts,
            played_any: self.played_any,
            table: self
                .table
                .map(|t| combo(t, &setup.rules, "table"))
                .transpose()?,
            table_seat: self.table_seat,
            passed: self.passed,
            out: self.out,
            must: mask(self.must, "must")?,
            sam: self.sam,
            violator: [0; MAX_SEATS],
            played,
        };
        rollout::check(setup, &pos).map_err(|e| to_py(Error::Rules(e)))?;
        Ok(pos)
    }
}

/// Mean score of the root seat of `position` for each candidate play (a mask; None: pass)
/// over `rollouts` deals of its unseen cards to the other seats by its counts.
#[pyfunction]
#[pyo3(signature = (setup, position, *, candidates, rollouts, seed))]
fn rollout_evaluate(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    position: &Bound<'_, PyPosition>,
    candidates: Vec<Option<u64>>,
    rollouts: u32,
    seed: u64,
) -> PyResult<Vec<f64>> {
    guard(|| {
        let setup = &setup.get().0;
        let pos = position.get().read(setup)?;
        rollout::check_work(rollouts, candidates.len()).map_err(|e| to_py(Error::Rules(e)))?;
        let cands = candidates
            .iter()
            .map(|c| c.map(|m| combo(m, &setup.rules, "candidate")).transpose())
            .collect::<PyResult<Vec<_>>>()?;
        let setup = setup.clone();
        Ok(py.detach(move || rollout::evaluate(&setup, &pos, &cands, rollouts, seed)))
    })
}

/// The share of `samples` deals in which seat `me` declaring Sâm with `hand` is never beaten.
#[pyfunction]
#[pyo3(signature = (setup, *, me, hand, unseen, counts, samples, seed))]
#[allow(clippy::too_many_arguments)]
fn rollout_sam_success(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    me: usize,
    hand: u64,
    unseen: u64,
    counts: Vec<u8>,
    samples: u32,
    seed: u64,
) -> PyResult<f64> {
    guard(|| {
        let setup = &setup.get().0;
        let pos = PyPosition::fresh(me, hand, unseen, counts, 0, None).read(setup)?;
        rollout::check_work(samples, 1).map_err(|e| to_py(Error::Rules(e)))?;
        let setup = setup.clone();
        Ok(py.detach(move || rollout::sam_success(&setup, &pos, samples, seed)))
    })
}

/// The greedy policy's choice among `plays` (masks, all legal for `hand`): an index, or None
/// to pass.
#[pyfunction]
#[pyo3(signature = (setup, hand, plays, table, min_other, can_pass))]
fn rollout_greedy_choice(
    setup: &Bound<'_, PyRolloutSetup>,
    hand: u64,
    plays: Vec<u64>,
    table: Option<u64>,
    min_other: u32,
    can_pass: bool,
) -> PyResult<Option<usize>> {
    guard(|| {
        let setup = &setup.get().0;
        let rules = &setup.rules;
        let combos = plays
            .iter()
            .map(|&m| combo(m, rules, "play"))
            .collect::<PyResult<Vec<_>>>()?;
        let table = table.map(|t| combo(t, rules, "table")).transpose()?;
        let ctx = Context {
            min_other,
            can_pass,
            finish_on_two: setup.finish_on_two,
        };
        Ok(rollout::greedy_choice(
            mask(hand, "hand")?,
            &combos,
            table.as_ref(),
            ctx,
        ))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRolloutSetup>()?;
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(rollout_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(rollout_sam_success, m)?)?;
    m.add_function(wrap_pyfunction!(rollout_greedy_choice, m)?)?;
    Ok(())
}
