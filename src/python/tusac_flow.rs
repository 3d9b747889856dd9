//! Bindings of the Tứ Sắc flow (`crate::tusac::flow`): `TuSacFlowRules` (a table's options,
//! built once per rules object) and `TuSacFlow` (one hand's state), which `vncards.tusac.Game`
//! drives. Cards are kind indices (0..28). Every action returns what happened as a list of
//! tuples, in order: `(event type, field values in the game's EVENT_LOG order...)` (the
//! unlisted `claim` event: seat, meld, cards, card, source, origin) and `("pay", from, to,
//! units, reason)`.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use super::table::{
    bad_snapshot, hands_of, one_per_seat, per_seat, run_flow, seat_arg, seats_at_table, set_hands,
    Effects, SeatedFlow,
};
use super::table::{choice, seated_flow};
use crate::error::Error;
use crate::rollout::tusac::greedy_action;
use crate::tusac::cards::{Hand, Kind, KINDS};
use crate::tusac::claims::{BungRule, Claim};
use crate::tusac::flow::{Action, Answer, Event, Flow, Offer, Outcome, Phase, Rules, Source};
use crate::tusac::melds::{MeldKind, OddTotal, Scoring};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// A Tứ Sắc table's options (the Python rules object's).
#[pyclass(module = "vncards._core", name = "TuSacFlowRules", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyTuSacRules(pub Rules);

/// A meld as Python sees it: its name and the kinds of its cards.
type MeldTuple = (&'static str, Vec<u8>);
/// How a hand ended: `(winner, score, draw, den_lang, next_dealer)`.
type ResultTuple = (Option<usize>, i32, bool, Option<usize>, usize);

/// Tứ Sắc's flow rules (option values as in `tusac.Rules`).
#[pyfunction]
#[pyo3(signature = (*, triple_optional, forbidden_triple, discard_rule, bung_rule, odd_total, set_lenh, tuong_as_ty,
    draw_at_stock, payment, claim_window))]
#[allow(clippy::too_many_arguments)]
fn tusac_flow_rules(
    triple_optional: bool,
    forbidden_triple: &str,
    discard_rule: &str,
    bung_rule: &str,
    odd_total: &str,
    set_lenh: i32,
    tuong_as_ty: bool,
    draw_at_stock: u8,
    payment: &str,
    claim_window: &str,
) -> PyResult<PyTuSacRules> {
    guard(|| {
        if !(0..=1).contains(&set_lenh) {
            return Err(to_py(Error::Rules(format!(
                "set_lenh must be 0 or 1, not {set_lenh}"
            ))));
        }
        if draw_at_stock > 70 {
            return Err(to_py(Error::Rules(format!(
                "draw_at_stock must be in 0..70, not {draw_at_stock}"
            ))));
        }
        Ok(PyTuSacRules(Rules {
            triple_optional,
            forbidden_no_claim: choice(
                "forbidden_triple",
                forbidden_triple,
                &[("other_claims", false), ("no_claim", true)],
            )?,
            discard_enforce: choice(
                "discard_rule",
                discard_rule,
                &[("penalize", false), ("enforce", true)],
            )?,
            bung: choice(
                "bung_rule",
                bung_rule,
                &[
                    ("seed", BungRule::Seed),
                    ("min_rac", BungRule::MinRac),
                    ("off", BungRule::Off),
                ],
            )?,
            scoring: Scoring {
                odd_total: choice(
                    "odd_total",
                    odd_total,
                    &[
                        ("hand", OddTotal::Hand),
                        ("with_toi", OddTotal::WithToi),
                        ("off", OddTotal::Off),
                    ],
                )?,
                set_lenh,
            },
            tuong_as_ty,
            draw_at_stock,
            payment_flat: choice("payment", payment, &[("per_lenh", false), ("flat", true)])?,
            every_seat: choice(
                "claim_window",
                claim_window,
                &[("every_seat", true), ("eligible_seats", false)],
            )?,
        }))
    })
}

#[pymethods]
impl PyTuSacRules {
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("TuSacFlowRules({:?})", self.0))
    }
}

fn kind(i: u8) -> PyResult<Kind> {
    Kind::from_index(i)
        .ok_or_else(|| to_py(Error::invalid_card(i.to_string(), 0, "no such Tứ Sắc kind")))
}

fn kinds(v: &[Kind]) -> Vec<u8> {
    v.iter().map(|k| k.index()).collect()
}

fn meld(name: &str) -> PyResult<MeldKind> {
    MeldKind::from_name(name).ok_or_else(|| {
        to_py(Error::illegal(
            "invalid_action",
            format!("no meld {name:?}"),
        ))
    })
}

fn event_tuple<'py>(py: Python<'py>, ev: &Event, players: usize) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match ev {
        Event::Deal {
            dealer,
            counts,
            stock,
        } => {
            let counts: Vec<u32> = counts[..players].iter().map(|&c| u32::from(c)).collect();
            ("deal", *dealer, counts, *stock).into_pyobject(py)?
        }
        Event::Quan { seat, card } => ("quan", *seat, card.index()).into_pyobject(py)?,
        Event::Dead { card } => ("dead", card.index()).into_pyobject(py)?,
        Event::TurnUp { seat, card, stock } => {
            ("turn_up", *seat, card.index(), *stock).into_pyobject(py)?
        }
        Event::Discard {
            seat,
            card,
            opening,
        } => ("discard", *seat, card.index(), *opening).into_pyobject(py)?,
        Event::Claim {
            seat,
            meld,
            cards,
            card,
            source,
            origin,
        } => (
            "claim",
            *seat,
            meld.name(),
            kinds(cards),
            card.index(),
            source.name(),
            *origin,
        )
            .into_pyobject(py)?,
        Event::Win {
            seat,
            score,
            hand,
            card,
        } => (
            "win",
            *seat,
            *score,
            kinds(&hand.kinds()),
            card.map(|k| k.index()),
        )
            .into_pyobject(py)?,
        Event::Draw { stock } => ("draw", *stock).into_pyobject(py)?,
        Event::Settle { settlement } => {
            ("settle", settlement[..players].to_vec()).into_pyobject(py)?
        }
    })
}

/// An answer as a tuple: `("win",)`, `("pass",)` or `("claim", meld, used kinds)`.
fn answer_tuple<'py>(py: Python<'py>, a: &Answer) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        Answer::Win => ("win",).into_pyobject(py)?,
        Answer::Pass => ("pass",).into_pyobject(py)?,
        Answer::Claim(c) => ("claim", c.meld.name(), kinds(&c.used)).into_pyobject(py)?,
    })
}

/// Item `i` of an action or answer tuple (a `TypeError` when it is too short).
fn item<'py>(t: &Bound<'py, PyTuple>, i: usize) -> PyResult<Bound<'py, PyAny>> {
    t.get_item(i).map_err(|_| {
        PyTypeError::new_err(format!(
            "an action tuple of {} items has no item {i}",
            t.len()
        ))
    })
}

fn answer_arg(a: &Bound<'_, PyTuple>) -> PyResult<Answer> {
    let name: String = item(a, 0)?.extract()?;
    match name.as_str() {
        "win" => Ok(Answer::Win),
        "pass" => Ok(Answer::Pass),
        "claim" => {
            let m: String = item(a, 1)?.extract()?;
            let used: Vec<u8> = item(a, 2)?.extract()?;
            Ok(Answer::Claim(Claim {
                meld: meld(&m)?,
                used: used.into_iter().map(kind).collect::<PyResult<_>>()?,
            }))
        }
        other => Err(to_py(Error::Snapshot(format!("not an answer: {other:?}")))),
    }
}

/// One Tứ Sắc hand's state (the Python `tusac.Game` holds one). Mutable; copied by
/// `copy.deepcopy`.
#[pyclass(module = "vncards._core", name = "TuSacFlow")]
#[derive(Clone)]
pub struct PyTuSacFlow(pub Flow);

impl PyTuSacFlow {
    fn seat(&self, seat: usize) -> PyResult<usize> {
        seat_arg(&self.0, seat)
    }
}

seated_flow!(Flow, Hand => u128, Hand::pack, |_: &Flow, h| {
    Hand::unpack(h).and_then(Hand::checked).map_err(to_py)
});

#[pymethods]
impl PyTuSacFlow {
    #[new]
    fn new(
        rules: &Bound<'_, PyTuSacRules>,
        players: usize,
        dealer: usize,
    ) -> PyResult<PyTuSacFlow> {
        guard(|| {
            Flow::new(rules.get().0, players, dealer)
                .map(PyTuSacFlow)
                .map_err(to_py)
        })
    }

    /// Deals the hand from `rng` (an `Rng`, or an object with its `permutation(n)`).
    fn start<'py>(
        &mut self,
        py: Python<'py>,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let players = self.0.players;
            let f = &mut self.0;
            let rec: Effects<Event> = run_flow(py, Some(rng), |d, r| {
                f.start(d, r);
                Ok(())
            })?;
            rec.to_py(py, |e| event_tuple(py, e, players))
        })
    }

    /// Carries out `action` of `seat`: `("discard", kind)`, `("win",)`, `("pass",)` or
    /// `("claim", meld or None, used kinds sorted)`. Returns `(effects, claim)`: the claim
    /// recorded for a claim (`(meld, used kinds)`), else None. `IllegalMoveError` when
    /// refused (nothing changes).
    fn act<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        action: &Bound<'py, PyTuple>,
    ) -> PyResult<(Bound<'py, PyList>, Option<MeldTuple>)> {
        guard(|| {
            let seat = self.seat(seat)?;
            let name: String = item(action, 0)?.extract()?;
            let a = match name.as_str() {
                "discard" => Action::Discard(kind(item(action, 1)?.extract()?)?),
                "win" => Action::Win,
                "pass" => Action::Pass,
                "claim" => {
                    let m: Option<String> = item(action, 1)?.extract()?;
                    let used: Vec<u8> = item(action, 2)?.extract()?;
                    let mut used = used.into_iter().map(kind).collect::<PyResult<Vec<_>>>()?;
                    used.sort_unstable();
                    Action::Claim(m.as_deref().map(meld).transpose()?, used)
                }
                other => {
                    return Err(to_py(Error::illegal(
                        "invalid_action",
                        format!("no action {other:?}"),
                    )))
                }
            };
            let players = self.0.players;
            let f = &mut self.0;
            let mut claimed = None;
            let rec: Effects<Event> = run_flow(py, None, |_, r| {
                claimed = f.act(seat, &a, r)?;
                Ok(())
            })?;
            let claimed = claimed.map(|c| (c.meld.name(), kinds(&c.used)));
            Ok((rec.to_py(py, |e| event_tuple(py, e, players))?, claimed))
        })
    }

    /// The seats that may act now, nearest to the offer first.
    fn pending(&self) -> PyResult<Vec<usize>> {
        guard_ok(|| self.0.pending().iter().collect())
    }
    /// The kinds `seat` may discard now (in the order legal actions list them).
    fn discardable(&self, seat: usize) -> PyResult<Vec<u8>> {
        guard(|| Ok(kinds(&self.0.discardable(self.seat(seat)?))))
    }
    /// The `greedy` bot's choice for `seat`: an index of its legal actions (in the order
    /// `vncards.tusac.Game.legal_actions` lists them), `None` when it has none. The rollouts'
    /// greedy (`src/rollout/tusac.rs`, `greedy_action`), which the search's rollouts and
    /// self-play's greedy seats play.
    fn greedy(&self, seat: usize) -> PyResult<Option<usize>> {
        guard(|| {
            let s = self.seat(seat)?;
            Ok(greedy_action(&self.0, s, &self.0.legal_actions(s)))
        })
    }
    /// The dealer's winning total with the dealt cards, if they win.
    fn opening_win(&self) -> PyResult<Option<i32>> {
        guard_ok(|| self.0.opening_win())
    }
    /// `seat`'s answers to the offer (see `act`): win, claims, pass.
    fn answers<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        guard(|| {
            self.0
                .answers(self.seat(seat)?)
                .iter()
                .map(|a| answer_tuple(py, a))
                .collect()
        })
    }
    /// Whether `seat` has options on the offer (it answers it).
    fn answers_offer(&self, seat: usize) -> PyResult<bool> {
        guard(|| Ok(self.0.options[self.seat(seat)?].is_some()))
    }
    /// Works out each seat's options on the offer again; the seats of `keep` keep theirs.
    #[pyo3(signature = (keep = Vec::new()))]
    fn compute_options(&mut self, keep: Vec<usize>) -> PyResult<()> {
        guard(|| {
            let saved: Vec<_> = keep
                .iter()
                .map(|&s| self.seat(s).map(|s| (s, self.0.options[s].clone())))
                .collect::<PyResult<_>>()?;
            self.0.compute_options();
            for (s, o) in saved {
                self.0.options[s] = o;
            }
            Ok(())
        })
    }
    /// Every score the winner's final hand can have been won with.
    fn winning_totals(&self, winner: usize) -> PyResult<Vec<i32>> {
        guard(|| Ok(self.0.winning_totals(self.seat(winner)?)))
    }
    /// What a win of `winner` with `score` pays, `(from, to, units, reason)` each.
    fn payments(
        &self,
        winner: usize,
        score: i32,
        covering: Option<usize>,
    ) -> PyResult<Vec<(usize, usize, u32, &'static str)>> {
        guard(|| {
            let covering = covering.map(|c| self.seat(c)).transpose()?;
            Ok(self.0.payments(self.seat(winner)?, score, covering))
        })
    }
    /// The lệnh of `seat`'s exposed melds.
    fn exposed_lenh(&self, seat: usize) -> PyResult<i32> {
        guard(|| Ok(self.0.exposed_lenh(self.seat(seat)?)))
    }

    // -- the state ---------------------------------------------------------------------------

    /// Seats at the table.
    #[getter]
    fn players(&self) -> PyResult<usize> {
        guard_ok(|| self.0.players)
    }
    /// The seat that dealt (21 cards; it discards the tỳ).
    #[getter]
    fn dealer(&self) -> PyResult<usize> {
        guard_ok(|| self.0.dealer)
    }
    /// `"discard"`, `"claim"` or `"over"`.
    #[getter]
    fn phase(&self) -> PyResult<&'static str> {
        guard_ok(|| self.0.phase.name())
    }
    /// Each seat's hidden cards, packed (3 bits per kind).
    #[getter]
    fn hands(&self) -> PyResult<Vec<u128>> {
        guard_ok(|| hands_of(&self.0))
    }
    /// Sets each seat's hidden cards, packed (tests that deal hidden hands again).
    #[setter]
    fn set_hands(&mut self, hands: Vec<u128>) -> PyResult<()> {
        guard(|| set_hands(&mut self.0, hands))
    }
    /// Each seat's exposed melds: `(meld, kinds)` in the order made.
    #[getter]
    fn exposed(&self) -> PyResult<Vec<Vec<MeldTuple>>> {
        guard_ok(|| {
            self.0.exposed[..self.0.players]
                .iter()
                .map(|ms| ms.iter().map(|(m, ks)| (m.name(), kinds(ks))).collect())
                .collect()
        })
    }
    /// The stock (nọc), turned up from its end.
    #[getter]
    fn stock(&self) -> PyResult<Vec<u8>> {
        guard_ok(|| kinds(&self.0.stock))
    }
    /// The dead pile, oldest first.
    #[getter]
    fn dead(&self) -> PyResult<Vec<u8>> {
        guard_ok(|| kinds(&self.0.dead))
    }
    /// The offer as `(kind, source, seat, penalty)`, or None.
    #[getter]
    fn offer(&self) -> PyResult<Option<(u8, &'static str, usize, bool)>> {
        guard_ok(|| {
            self.0
                .offer
                .map(|o| (o.card.index(), o.source.name(), o.seat, o.penalty))
        })
    }
    /// The seat entitled to every claim of the offer, if there is one.
    #[getter]
    fn entitled(&self) -> PyResult<Option<usize>> {
        guard_ok(|| self.0.entitled())
    }
    /// The seat to discard, if any.
    #[getter]
    fn to_discard(&self) -> PyResult<Option<usize>> {
        guard_ok(|| self.0.to_discard)
    }
    /// The dealer's tỳ comes first.
    #[getter]
    fn opening(&self) -> PyResult<bool> {
        guard_ok(|| self.0.opening)
    }
    /// Each seat's answer to the offer so far (see `answers`), or None.
    #[getter]
    fn responses<'py>(&self, py: Python<'py>) -> PyResult<Vec<Option<Bound<'py, PyTuple>>>> {
        guard(|| {
            (0..self.0.players)
                .map(|s| {
                    self.0
                        .responses
                        .iter()
                        .find(|(t, _)| *t == s)
                        .map(|(_, a)| answer_tuple(py, a))
                        .transpose()
                })
                .collect()
        })
    }
    /// How the hand ended: `(winner, score, draw, den_lang, next_dealer)`, or None.
    #[getter]
    fn result(&self) -> PyResult<Option<ResultTuple>> {
        guard_ok(|| {
            self.0
                .result
                .map(|r| (r.winner, r.score, r.draw, r.den_lang, r.next_dealer))
        })
    }
    /// Units won per seat.
    #[getter]
    fn totals(&self) -> PyResult<Vec<i32>> {
        guard_ok(|| self.0.totals[..self.0.players].to_vec())
    }

    /// Sets the whole state (from a snapshot the caller has checked: see
    /// `tusac.Game._load_state`); the options on an offer are worked out, and `responses`
    /// (per seat: an answer tuple or None) are recorded in seat order.
    #[pyo3(signature = (*, dealer, phase, hands, exposed, stock, dead, offer, to_discard, opening,
        responses, result, totals))]
    #[allow(clippy::too_many_arguments)]
    fn set_state(
        &mut self,
        dealer: usize,
        phase: &str,
        hands: Vec<u128>,
        exposed: Vec<Vec<(String, Vec<u8>)>>,
        stock: Vec<u8>,
        dead: Vec<u8>,
        offer: Option<(u8, String, usize, bool)>,
        to_discard: Option<usize>,
        opening: bool,
        responses: Vec<Option<Bound<'_, PyTuple>>>,
        result: Option<ResultTuple>,
        totals: Vec<i32>,
    ) -> PyResult<()> {
        guard(|| {
            let n = self.0.players;
            let bad = bad_snapshot::<()>;
            let lists = [hands.len(), exposed.len(), responses.len(), totals.len()];
            one_per_seat(n, "hands, exposed, responses and totals", &lists)?;
            let result_seats = result.iter().flat_map(|r| [r.0, r.3, Some(r.4)]).flatten();
            let offer_seat = offer.as_ref().map(|o| o.2);
            seats_at_table(
                n,
                [dealer]
                    .into_iter()
                    .chain(to_discard)
                    .chain(offer_seat)
                    .chain(result_seats),
            )?;
            let mut next = self.0.clone();
            next.dealer = dealer;
            next.phase = match phase {
                "discard" => Phase::Discard,
                "claim" => Phase::Claim,
                "over" => Phase::Over,
                _ => return bad("phase: not a phase"),
            };
            next.hands = per_seat(hands, |h| self.0.unpack(h))?;
            next.exposed = per_seat(exposed, |melds| {
                melds
                    .iter()
                    .map(|(m, ks)| {
                        Ok((
                            meld(m)?,
                            ks.iter().map(|&k| kind(k)).collect::<PyResult<_>>()?,
                        ))
                    })
                    .collect::<PyResult<_>>()
            })?;
            next.totals = per_seat(totals, Ok)?;
            let cards = |v: &[u8]| v.iter().map(|&k| kind(k)).collect::<PyResult<Vec<_>>>();
            if stock.len() + dead.len() > KINDS * 4 {
                return bad("more cards than the deck holds");
            }
            next.stock = cards(&stock)?;
            next.dead = cards(&dead)?;
            next.offer = match offer {
                None => None,
                Some((k, source, seat, penalty)) => Some(Offer {
                    card: kind(k)?,
                    source: match source.as_str() {
                        "discard" => Source::Discard,
                        "stock" => Source::Stock,
                        _ => return bad("offer.source: not a source"),
                    },
                    seat,
                    penalty,
                }),
            };
            next.to_discard = to_discard;
            next.opening = opening;
            next.result = result.map(|(winner, score, draw, den_lang, next_dealer)| Outcome {
                winner,
                score,
                draw,
                den_lang,
                next_dealer,
            });
            next.responses.clear();
            next.compute_options();
            for (s, r) in responses.iter().enumerate() {
                if let Some(t) = r {
                    next.responses.push((s, answer_arg(t)?));
                }
            }
            self.0 = next;
            Ok(())
        })
    }

    fn __copy__(&self) -> PyResult<PyTuSacFlow> {
        guard_ok(|| self.clone())
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyResult<PyTuSacFlow> {
        guard_ok(|| self.clone())
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| {
            format!(
                "TuSacFlow(players={}, dealer={}, phase={:?})",
                self.0.players,
                self.0.dealer,
                self.0.phase.name()
            )
        })
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTuSacRules>()?;
    m.add_class::<PyTuSacFlow>()?;
    m.add_function(wrap_pyfunction!(tusac_flow_rules, m)?)?;
    Ok(())
}
