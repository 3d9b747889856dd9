//! Bindings of the shedding flow (`crate::shedding::flow`): `SheddingFlowRules` (a game's flow
//! options, built once per rules object) and `SheddingFlow` (one table's state), which the
//! Python `SheddingGame` drives. Every action returns what happened as a list of tuples, in
//! order: `(event type, field values in the game's EVENT_LOG order...)` for each event and
//! `("pay", from, to, units, reason)` for each payment; the game logs them.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use super::shedding::{cards_arg, mask_arg, PlayList, PyCombo, PySheddingRules};
use super::table::{
    bad_snapshot, hands_of, one_per_seat, per_seat, run_flow, seat_arg, seats_at_table, set_hands,
    Effects, PyDraw, SeatedFlow,
};
use super::table::{choice, seated_flow};
use crate::cards::CardSet;
use crate::error::Error;
use crate::family::{Flow, FlowRules, House};
use crate::samloc::flow::{Options as SamLocOptions, SamState};
use crate::shedding::flow::{Chain, Event, FinishOnTwo, Seats};
use crate::shedding::penalty::PenaltyTable;
use crate::shedding::PlayFilter;
use crate::tienlen::flow::{BombAfterPass, Options as TienLenOptions};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

fn finish_on_two(value: &str) -> PyResult<FinishOnTwo> {
    choice(
        "finish_on_two",
        value,
        &[
            ("allowed", FinishOnTwo::Allowed),
            ("penalized", FinishOnTwo::Penalized),
            ("forbidden", FinishOnTwo::Forbidden),
        ],
    )
}

/// The flow options of one game (the Python rules object's, besides the combinations).
#[pyclass(module = "vncards._core", name = "SheddingFlowRules", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyFlowRules(pub FlowRules);

/// Tiến Lên's flow rules (option values as in `tienlen.Rules`; `penalties`: black 2, red 2,
/// 3 đôi thông, tứ quý, 4 đôi thông).
#[pyfunction]
#[pyo3(signature = (combos, *, ending, scoring, first_lead, bomb_after_pass, ket_3_bich,
    finish_on_two, thoi_to, same_colour_instant_win, first_hand_extras, penalties))]
#[allow(clippy::too_many_arguments)]
fn tienlen_flow_rules(
    combos: &Bound<'_, PySheddingRules>,
    ending: &str,
    scoring: &str,
    first_lead: &str,
    bomb_after_pass: &str,
    ket_3_bich: bool,
    finish_on_two: &str,
    thoi_to: &str,
    same_colour_instant_win: bool,
    first_hand_extras: bool,
    penalties: (u32, u32, u32, u32, u32),
) -> PyResult<PyFlowRules> {
    guard(|| {
        let opts = TienLenOptions {
            ranked: choice("ending", ending, &[("first_out", false), ("ranked", true)])?,
            count_scoring: choice("scoring", scoring, &[("count", true), ("ranked", false)])?,
            first_lead_random: choice(
                "first_lead",
                first_lead,
                &[("three_of_spades", false), ("random", true)],
            )?,
            bomb_after_pass: choice(
                "bomb_after_pass",
                bomb_after_pass,
                &[
                    ("none", BombAfterPass::None),
                    ("four_pair_sequence", BombAfterPass::FourPairSequence),
                    ("any_bomb", BombAfterPass::AnyBomb),
                ],
            )?,
            ket_3_bich,
            finish_on_two: self::finish_on_two(finish_on_two)?,
            thoi_to_winner: choice("thoi_to", thoi_to, &[("above", false), ("winner", true)])?,
            same_colour_instant_win,
            first_hand_extras,
            penalties: PenaltyTable {
                black_two: penalties.0,
                red_two: penalties.1,
                three_pair_sequence: penalties.2,
                four_of_a_kind: penalties.3,
                four_pair_sequence: penalties.4,
            },
        };
        Ok(PyFlowRules(FlowRules {
            combos: combos.get().0,
            house: House::TienLen(opts),
        }))
    })
}

/// Sâm Lốc's flow rules (option values as in `samloc.Rules`).
#[pyfunction]
#[pyo3(signature = (combos, *, sam_block_pays, bao_mot_scope, bao_mot_mode, bao_mot_den,
    finish_on_two, sam_may_finish_on_two))]
fn samloc_flow_rules(
    combos: &Bound<'_, PySheddingRules>,
    sam_block_pays: &str,
    bao_mot_scope: &str,
    bao_mot_mode: &str,
    bao_mot_den: &str,
    finish_on_two: &str,
    sam_may_finish_on_two: bool,
) -> PyResult<PyFlowRules> {
    guard(|| {
        let opts = SamLocOptions {
            sam_block_each: choice(
                "sam_block_pays",
                sam_block_pays,
                &[("blocker", false), ("each", true)],
            )?,
            bao_mot_previous_seat: choice(
                "bao_mot_scope",
                bao_mot_scope,
                &[("all", false), ("previous_seat", true)],
            )?,
            bao_mot_enforce: choice(
                "bao_mot_mode",
                bao_mot_mode,
                &[("penalize", false), ("enforce", true)],
            )?,
            bao_mot_den_payments: choice(
                "bao_mot_den",
                bao_mot_den,
                &[("cards", false), ("payments", true)],
            )?,
            finish_on_two: self::finish_on_two(finish_on_two)?,
            sam_may_finish_on_two,
        };
        Ok(PyFlowRules(FlowRules {
            combos: combos.get().0,
            house: House::SamLoc(opts),
        }))
    })
}

#[pymethods]
impl PyFlowRules {
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("SheddingFlowRules({:?})", self.0.house))
    }
}

fn seats_list<'py>(py: Python<'py>, seats: &Seats) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, seats.as_slice())
}

/// The effects as tuples (see the module docs); `players` entries per seat list.
fn effects_py<'py>(
    py: Python<'py>,
    rec: &Effects<Event>,
    players: usize,
) -> PyResult<Bound<'py, PyList>> {
    rec.to_py(py, |ev| event_tuple(py, *ev, players))
}

fn event_tuple<'py>(py: Python<'py>, ev: Event, players: usize) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match ev {
        Event::Deal {
            hand_number,
            counts,
        } => {
            let counts: Vec<u32> = counts[..players].iter().map(|&c| u32::from(c)).collect();
            ("deal", hand_number, counts).into_pyobject(py)?
        }
        Event::Lead { seat, must } => ("lead", seat, must.0).into_pyobject(py)?,
        Event::Play { seat, combo } => {
            ("play", seat, combo.kind as u8, combo.cards.0).into_pyobject(py)?
        }
        Event::Pass { seat } => ("pass", seat).into_pyobject(py)?,
        Event::Cut {
            seat,
            victim,
            units,
        } => ("cut", seat, victim, units).into_pyobject(py)?,
        Event::NewRound { leader } => ("new_round", leader).into_pyobject(py)?,
        Event::Out { seat, place } => ("out", seat, place).into_pyobject(py)?,
        Event::Cong { seat } => ("cong", seat).into_pyobject(py)?,
        Event::FinishOnTwo { seat } => ("finish_on_two", seat).into_pyobject(py)?,
        Event::HandEnd {
            hand_number,
            winner,
            order,
            settlement,
            hands,
        } => (
            "hand_end",
            hand_number,
            winner,
            seats_list(py, &order)?,
            settlement[..players].to_vec(),
            hands[..players].iter().map(|h| h.0).collect::<Vec<_>>(),
        )
            .into_pyobject(py)?,
        Event::InstantWin { seat, kind, cards } => {
            ("instant_win", seat, kind, cards.0).into_pyobject(py)?
        }
        Event::DeclareSam { seat } => ("declare_sam", seat).into_pyobject(py)?,
        Event::DeclineSam { seat } => ("decline_sam", seat).into_pyobject(py)?,
        Event::SamBlocked { seat, declarer } => {
            ("sam_blocked", seat, declarer).into_pyobject(py)?
        }
        Event::BaoMot { seat } => ("bao_mot", seat).into_pyobject(py)?,
        Event::BaoMotSingle {
            seat,
            one_card_seats,
            violation,
        } => (
            "bao_mot_single",
            seat,
            seats_list(py, &one_card_seats)?,
            violation,
        )
            .into_pyobject(py)?,
        Event::BaoMotViolation {
            seat,
            one_card_seats,
        } => ("bao_mot_violation", seat, seats_list(py, &one_card_seats)?).into_pyobject(py)?,
        Event::SamSuccess { seat } => ("sam_success", seat).into_pyobject(py)?,
        Event::DenLang {
            seat,
            winner,
            units,
        } => ("den_lang", seat, winner, units).into_pyobject(py)?,
    })
}

/// One shedding table's state (the Python `SheddingGame` holds one). Mutable; copied by
/// `copy.deepcopy`.
#[pyclass(module = "vncards._core", name = "SheddingFlow")]
#[derive(Clone)]
pub struct PyFlow(pub Flow);

seated_flow!(Flow, CardSet => u64, |h: &CardSet| h.0, |f: &Flow, h| {
    f.rules.combos.check_hand(mask_arg(h)?).map_err(to_py)
});

impl PyFlow {
    /// Runs `act` with a draw and a record; its effects as tuples (or its error: nothing
    /// changed).
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        rng: Option<&Bound<'py, PyAny>>,
        act: impl FnOnce(&mut Flow, &mut PyDraw<'_, 'py>, &mut Effects<Event>) -> Result<(), Error>,
    ) -> PyResult<Bound<'py, PyList>> {
        let players = self.0.players;
        let rec = run_flow(py, rng, |d, r| act(&mut self.0, d, r))?;
        effects_py(py, &rec, players)
    }
}

#[pymethods]
impl PyFlow {
    #[new]
    fn new(rules: &Bound<'_, PyFlowRules>, players: usize) -> PyResult<PyFlow> {
        guard(|| Flow::new(rules.get().0, players).map(PyFlow).map_err(to_py))
    }

    /// Deals the first hand from `rng`; with `leader`, a hand that follows one that seat won
    /// (the first-hand rules off, that seat leads). `hand_number`: the number the deal event
    /// carries (1 unless the hand is a later hand of a match played as its own game).
    #[pyo3(signature = (rng, leader = None, hand_number = 1))]
    fn start<'py>(
        &mut self,
        py: Python<'py>,
        rng: &Bound<'py, PyAny>,
        leader: Option<usize>,
        hand_number: u32,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let leader = leader.map(|s| seat_arg(&self.0, s)).transpose()?;
            if hand_number == 0 {
                return Err(to_py(Error::Rules("hand_number must be at least 1".into())));
            }
            self.run(py, Some(rng), |f, d, r| {
                f.start_after(leader, hand_number, d, r);
                Ok(())
            })
        })
    }

    /// Deals the next hand (`hand_not_over` while this one is being played).
    fn next_hand<'py>(
        &mut self,
        py: Python<'py>,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| self.run(py, Some(rng), |f, d, r| f.next_hand(d, r)))
    }

    /// Refuses with an `IllegalMoveError` unless the hand is over.
    fn check_next_hand(&self) -> PyResult<()> {
        guard(|| {
            if self.0.over {
                Ok(())
            } else {
                Err(to_py(Error::illegal(
                    "hand_not_over",
                    "the current hand is still being played",
                )))
            }
        })
    }

    /// Refuses with an `IllegalMoveError` unless it is `seat`'s turn (`game_over`,
    /// `not_your_turn`).
    fn check_turn(&self, seat: usize) -> PyResult<()> {
        guard(|| self.0.require_turn(seat_arg(&self.0, seat)?).map_err(to_py))
    }

    /// Checks that `seat` may play `cards` now: the combination, or `IllegalMoveError`.
    fn check_play(&self, seat: usize, cards: &Bound<'_, PyAny>) -> PyResult<PyCombo> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            let cards = mask_arg(cards_arg(cards)?)?;
            self.0.check_play(seat, cards).map(PyCombo).map_err(to_py)
        })
    }

    /// Carries out a play that `check_play` accepted (checked again: nothing changes on a
    /// refusal).
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        cards: u64,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            let cards = mask_arg(cards)?;
            self.run(py, None, |f, _, r| f.play(seat, cards, r))
        })
    }

    /// Checks that `seat` may pass now (`IllegalMoveError` otherwise).
    fn check_pass(&self, seat: usize) -> PyResult<()> {
        guard(|| self.0.check_pass(seat_arg(&self.0, seat)?).map_err(to_py))
    }

    /// `seat` passes (checked as `check_pass` checks it).
    fn pass_turn<'py>(&mut self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            self.run(py, None, |f, _, r| f.pass_turn(seat, r))
        })
    }

    /// Checks that `seat` may declare Sâm or decline now (`IllegalMoveError` otherwise).
    fn check_declaration(&self, seat: usize) -> PyResult<()> {
        guard(|| {
            self.0
                .check_declaration(seat_arg(&self.0, seat)?)
                .map_err(to_py)
        })
    }

    /// `seat` declares Sâm (checked as `check_declaration` checks it).
    fn declare_sam<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            self.run(py, Some(rng), |f, d, r| f.declare_sam(seat, d, r))
        })
    }

    /// `seat` does not declare Sâm (checked as `check_declaration` checks it).
    fn decline_sam<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            self.run(py, Some(rng), |f, d, r| f.decline_sam(seat, d, r))
        })
    }

    /// Every distinct play `seat` may make now (no pass entry).
    fn legal_plays(&self, seat: usize) -> PyResult<PlayList> {
        guard(|| {
            let seat = seat_arg(&self.0, seat)?;
            let mut out = Vec::new();
            self.0.legal_plays_into(seat, &mut out);
            Ok(PlayList(out))
        })
    }

    /// `"bombs"`, `"four_pair_sequences"`, or None: which plays a seat that passed may make.
    #[getter]
    fn after_pass_filter(&self) -> PyResult<Option<&'static str>> {
        guard_ok(|| {
            self.0.after_pass_filter().map(|f| match f {
                PlayFilter::FourPairSequences => "four_pair_sequences",
                _ => "bombs",
            })
        })
    }

    // -- the state ---------------------------------------------------------------------------

    /// Seats at the table.
    #[getter]
    fn players(&self) -> PyResult<usize> {
        guard_ok(|| self.0.players)
    }
    /// 1 for the first hand, one more for each `next_hand`.
    #[getter]
    fn hand_number(&self) -> PyResult<u32> {
        guard_ok(|| self.0.hand_number)
    }
    /// The last hand's winner (this hand's, once it is over).
    #[getter]
    fn winner(&self) -> PyResult<Option<usize>> {
        guard_ok(|| self.0.winner)
    }
    /// The next hand is led by the first-lead rule (not by the winner).
    #[getter]
    fn next_first(&self) -> PyResult<bool> {
        guard_ok(|| self.0.next_first)
    }
    /// This hand is led by the first-lead rule.
    #[getter]
    fn first_rule(&self) -> PyResult<bool> {
        guard_ok(|| self.0.first_rule)
    }
    /// Each seat's hand as a card mask.
    #[getter]
    fn hands(&self) -> PyResult<Vec<u64>> {
        guard_ok(|| hands_of(&self.0))
    }
    /// `seat`'s hand as a card mask.
    fn hand(&self, seat: usize) -> PyResult<u64> {
        guard(|| Ok(self.0.hands[seat_arg(&self.0, seat)?].0))
    }
    /// The cards each seat has played this hand, as masks.
    #[getter]
    fn played(&self) -> PyResult<Vec<u64>> {
        guard_ok(|| {
            self.0.played[..self.0.players]
                .iter()
                .map(|h| h.0)
                .collect()
        })
    }
    /// Every card dealt this hand, as a mask.
    #[getter]
    fn dealt(&self) -> PyResult<u64> {
        guard_ok(|| self.0.dealt.0)
    }
    /// The seat to act, or None once the hand is over.
    #[getter]
    fn turn(&self) -> PyResult<Option<usize>> {
        guard_ok(|| self.0.turn)
    }
    /// The combination to beat, or None when the seat to act leads.
    #[getter]
    fn table(&self) -> PyResult<Option<PyCombo>> {
        guard_ok(|| self.0.table.map(PyCombo))
    }
    /// The seat whose play is on the table; -1 with no table.
    #[getter]
    fn table_seat(&self) -> PyResult<i64> {
        guard_ok(|| self.0.table_seat.map_or(-1, |s| s as i64))
    }
    /// Seats that passed in the current round (bit set).
    #[getter]
    fn passed(&self) -> PyResult<u8> {
        guard_ok(|| self.0.passed)
    }
    /// Seats that played in the current round (bit set).
    #[getter]
    fn round_seats(&self) -> PyResult<u8> {
        guard_ok(|| self.0.round_seats)
    }
    /// The cards the next play must include (the first lead's lowest card).
    #[getter]
    fn must(&self) -> PyResult<u64> {
        guard_ok(|| self.0.must.0)
    }
    /// The card a first lead under the first-lead rule must include (0: none): the lowest
    /// dealt card in Tiến Lên unless the first leader is random.
    #[getter]
    fn lead_card(&self) -> PyResult<u64> {
        guard_ok(|| self.0.lead_card().0)
    }
    /// Seats out of the hand (bit set).
    #[getter]
    fn out(&self) -> PyResult<u8> {
        guard_ok(|| self.0.out)
    }
    /// Seats in the order they went out (nhất first).
    #[getter]
    fn order(&self) -> PyResult<Vec<usize>> {
        guard_ok(|| self.0.order.iter().collect())
    }
    /// The seats that played no card, placed last in a ranked hand (cóng).
    #[getter]
    fn cong(&self) -> PyResult<Vec<usize>> {
        guard_ok(|| self.0.cong.iter().collect())
    }
    /// The bomb chain as `[units, cutter, victim]`, or None.
    #[getter]
    fn chain(&self) -> PyResult<Option<Vec<u64>>> {
        guard_ok(|| {
            self.0
                .chain
                .map(|c| vec![u64::from(c.units), c.cutter as u64, c.victim as u64])
        })
    }
    /// True once the hand is settled.
    #[getter]
    fn over(&self) -> PyResult<bool> {
        guard_ok(|| self.0.over)
    }
    /// Units won per seat in this hand so far.
    #[getter]
    fn hand_totals(&self) -> PyResult<Vec<i32>> {
        guard_ok(|| self.0.hand_totals[..self.0.players].to_vec())
    }
    /// Sâm Lốc: the seat the declarations start from.
    #[getter]
    fn nominal(&self) -> PyResult<usize> {
        guard_ok(|| self.0.member.nominal)
    }
    /// Sâm Lốc: the báo Sâm declarations are on.
    #[getter]
    fn sam_phase(&self) -> PyResult<bool> {
        guard_ok(|| self.0.member.phase)
    }
    /// Sâm Lốc: the seats that declined so far.
    #[getter]
    fn declined(&self) -> PyResult<usize> {
        guard_ok(|| self.0.member.declined)
    }
    /// The seat that declared Sâm in this hand, if any.
    #[getter]
    fn declarer(&self) -> PyResult<Option<usize>> {
        guard_ok(|| self.0.member.declarer)
    }
    /// Báo 1 violations as sorted `[one-card seat, violator]` pairs.
    #[getter]
    fn violations(&self) -> PyResult<Vec<(usize, usize)>> {
        guard_ok(|| {
            (0..self.0.players)
                .filter_map(|s| self.0.member.violations[s].map(|v| (s, v)))
                .collect()
        })
    }

    /// Sets each seat's hand (tests that deal hidden hands again).
    #[setter]
    fn set_hands(&mut self, hands: Vec<u64>) -> PyResult<()> {
        guard(|| set_hands(&mut self.0, hands))
    }

    /// Sets the whole state (from a snapshot the caller has checked: see
    /// `SheddingGame._load_state`). `table`: a mask or None; `table_seat` -1 with none;
    /// `chain`: `(units, cutter, victim)` or None. Sâm Lốc's state starts afresh: see
    /// `set_sam`.
    #[pyo3(signature = (*, hand_number, first_rule, hands, played, dealt, turn, table, table_seat,
        passed, round_seats, must, out, order, cong, chain, over, winner, next_first, hand_totals))]
    #[allow(clippy::too_many_arguments)]
    fn set_state(
        &mut self,
        hand_number: u32,
        first_rule: bool,
        hands: Vec<u64>,
        played: Vec<u64>,
        dealt: u64,
        turn: Option<usize>,
        table: Option<u64>,
        table_seat: i64,
        passed: u8,
        round_seats: u8,
        must: u64,
        out: u8,
        order: Vec<usize>,
        cong: Vec<usize>,
        chain: Option<(u32, usize, usize)>,
        over: bool,
        winner: Option<usize>,
        next_first: bool,
        hand_totals: Vec<i32>,
    ) -> PyResult<()> {
        guard(|| {
            let f = &self.0;
            let n = f.players;
            let bad = bad_snapshot::<()>;
            let lists = [hands.len(), played.len(), hand_totals.len()];
            one_per_seat(n, "hands, played and hand_totals", &lists)?;
            if order.len() + cong.len() > n {
                return bad("order and cong name more seats than the table has");
            }
            let table_seat = usize::try_from(table_seat).ok();
            let all_seats = turn
                .iter()
                .chain(&table_seat)
                .chain(&order)
                .chain(&cong)
                .chain(&winner)
                .copied()
                .chain(chain.iter().flat_map(|c| [c.1, c.2]));
            seats_at_table(n, all_seats)?;
            let listed = order.iter().chain(&cong).fold(0u32, |m, &s| m | 1 << s);
            if listed.count_ones() as usize != order.len() + cong.len() || listed != u32::from(out)
            {
                return bad("out must be exactly the seats of order and cong, each once");
            }
            if table.is_some() != table_seat.is_some() {
                return bad("table_seat must name a seat exactly when there is a table");
            }
            let table = match table {
                None => None,
                Some(m) => match f.classify(mask_arg(m)?) {
                    Some(c) => Some(c),
                    None => return bad("table: not a combination"),
                },
            };
            let mut next = f.clone();
            next.hand_number = hand_number;
            next.first_rule = first_rule;
            next.hands = per_seat(hands, |h| f.unpack(h))?;
            next.played = per_seat(played, mask_arg)?;
            next.hand_totals = per_seat(hand_totals, Ok)?;
            next.dealt = mask_arg(dealt)?;
            next.turn = turn;
            next.table = table;
            next.table_seat = table_seat;
            next.passed = passed;
            next.round_seats = round_seats;
            next.must = mask_arg(must)?;
            next.out = out;
            next.order = Seats::from_slice(&order);
            next.cong = Seats::from_slice(&cong);
            next.chain = chain.map(|(units, cutter, victim)| Chain {
                units,
                cutter,
                victim,
            });
            next.over = over;
            next.winner = winner;
            next.next_first = next_first;
            next.member = SamState::default();
            self.0 = next;
            Ok(())
        })
    }

    /// Sets Sâm Lốc's state of the hand (from a checked snapshot): the nominal leader, the
    /// declarations phase, the seats that declined, the declarer and the báo 1 violations as
    /// `(one-card seat, violator)` pairs.
    fn set_sam(
        &mut self,
        nominal: usize,
        phase: bool,
        declined: usize,
        declarer: Option<usize>,
        violations: Vec<(usize, usize)>,
    ) -> PyResult<()> {
        guard(|| {
            let n = self.0.players;
            let seat_ok = |s: usize| s < n;
            if !seat_ok(nominal)
                || declined > n
                || !declarer.map_or(true, seat_ok)
                || !violations.iter().all(|&(s, v)| seat_ok(s) && seat_ok(v))
            {
                return Err(to_py(Error::Snapshot("samloc: a seat out of range".into())));
            }
            let mut sam = SamState {
                nominal,
                phase,
                declined,
                declarer,
                ..SamState::default()
            };
            for (s, v) in violations {
                sam.violations[s] = Some(v);
            }
            self.0.member = sam;
            Ok(())
        })
    }

    fn __copy__(&self) -> PyResult<PyFlow> {
        guard_ok(|| self.clone())
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyResult<PyFlow> {
        guard_ok(|| self.clone())
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| {
            format!(
                "SheddingFlow(players={}, hand_number={}, turn={:?}, over={})",
                self.0.players, self.0.hand_number, self.0.turn, self.0.over
            )
        })
    }
}

/// A penalty table given as (black 2, red 2, 3 đôi thông, tứ quý, 4 đôi thông) units.
type TableArg = (u32, u32, u32, u32, u32);

fn penalty_table(t: TableArg) -> PenaltyTable {
    PenaltyTable {
        black_two: t.0,
        red_two: t.1,
        three_pair_sequence: t.2,
        four_of_a_kind: t.3,
        four_pair_sequence: t.4,
    }
}

/// The penalised items of a hand chosen to maximise the payment, as `(name, card mask,
/// units)`, each plain card being worth `card_units`.
#[pyfunction]
fn shedding_penalty_items(
    hand: u64,
    table: TableArg,
    card_units: u32,
) -> PyResult<Vec<(&'static str, u64, u32)>> {
    guard(|| {
        let hand = mask_arg(hand)?;
        Ok(
            crate::shedding::penalty::penalty_items(hand, &penalty_table(table), card_units)
                .iter()
                .map(|&(item, cards, units)| (item.name(), cards.0, units))
                .collect(),
        )
    })
}

/// What a cut of the combination `cards` (of kind `kind`) is worth: its 2s one by one, or the
/// bomb's item value.
#[pyfunction]
fn shedding_cut_value(cards: u64, kind: &str, table: TableArg) -> PyResult<u32> {
    guard(|| {
        let cards = mask_arg(cards)?;
        let kind = crate::shedding::Kind::ALL
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(|| to_py(Error::Rules(format!("unknown combination kind {kind:?}"))))?;
        let top = 0; // the value does not depend on the top card
        Ok(penalty_table(table).cut_value(&crate::shedding::Combo { cards, kind, top }))
    })
}

/// The value of the 2s among `cards`, one by one.
#[pyfunction]
fn shedding_twos_value(cards: u64, table: TableArg) -> PyResult<u32> {
    guard(|| Ok(penalty_table(table).twos_value(mask_arg(cards)?)))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFlowRules>()?;
    m.add_class::<PyFlow>()?;
    m.add_function(wrap_pyfunction!(tienlen_flow_rules, m)?)?;
    m.add_function(wrap_pyfunction!(samloc_flow_rules, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_penalty_items, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_cut_value, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_twos_value, m)?)?;
    m.add("SAMLOC_SAM_UNITS", crate::samloc::flow::SAM_UNITS)?;
    m.add("SAMLOC_CONG_UNITS", crate::samloc::flow::CONG_UNITS)?;
    m.add("SAMLOC_TWO_UNITS", crate::samloc::flow::TWO_UNITS)?;
    Ok(())
}
