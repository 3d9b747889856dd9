//! Bindings of the bots' search ([`crate::search`]): `search_shedding`, `shedding_policy_scores`, `shedding_value` and
//! `sam_plan` (Tiến Lên, Sâm Lốc), `TuSacRolloutSetup` and `tusac_search`, `maubinh_search`.
//! Every search releases the GIL. A budget is `rollouts` (a decision is then a pure function
//! of its arguments) and optionally `think_ms`, a deadline from the call.
//!
//! Each search returns `(best, means, samples, rollouts)`: the chosen candidate's index, each
//! candidate's mean score and the deals it was played on, and the evaluations spent.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use super::maubinh::PyMauBinhRules;
use super::policy::PyPolicyNet;
use super::rollout::{combo, mask, PyPosition, PyRolloutSetup};
use super::tusac::{bung_rule as tusac_bung, exposed_arg, kind_index, meld_kind, scoring, unpack};
use crate::cards::CardSet;
use crate::error::Error;
use crate::maubinh::Arrangement;
use crate::policy::features::{SHEDDING_ACTION, TUSAC_ACTION};
use crate::policy::Net;
use crate::rollout::tusac::{self as rt, Choice, Offer, TuSacPosition, TuSacSetup};
use crate::rollout::{check_work, Setup, MAX_ROLLOUT_WORK, MAX_SEATS};
use crate::search::guide::{root_scores, Guide};
use crate::search::infer::MAX_CHAIN;
use crate::search::shedding::Observation;
use crate::search::tree::{search as search_tree, Branching};
use crate::search::tusac as ts;
use crate::search::{maubinh as mbs, sam, shedding, Budget, Outcome};
use crate::tusac::{Claim, Hand};
use pyo3::prelude::*;
use std::time::{Duration, Instant};

/// `(best, means, samples, rollouts)`.
type Found = (usize, Vec<f64>, Vec<u32>, u64);

/// Longest `think_ms` accepted: a minute.
const MAX_THINK_MS: f64 = 60_000.0;

fn found(o: Outcome) -> Found {
    (o.best, o.means, o.samples, o.rollouts)
}

fn rules_err(msg: String) -> PyErr {
    to_py(Error::Rules(msg))
}

/// The budget of a search over `cands` candidates: `rollouts` evaluations (None: only the
/// deadline bounds it, up to [`MAX_ROLLOUT_WORK`]) and `think_ms` from now.
fn budget(rollouts: Option<u64>, think_ms: Option<f64>, cands: usize) -> PyResult<Budget> {
    if cands == 0 {
        return Err(rules_err("no candidate to search".into()));
    }
    let deadline = match think_ms {
        None => None,
        Some(ms) if ms.is_finite() && (0.0..=MAX_THINK_MS).contains(&ms) => {
            Some(Instant::now() + Duration::from_secs_f64(ms / 1000.0))
        }
        Some(ms) => {
            return Err(rules_err(format!(
                "think_ms must be within 0..={MAX_THINK_MS}, not {ms}"
            )))
        }
    };
    if rollouts.is_none() && deadline.is_none() {
        return Err(rules_err("give rollouts, think_ms or both".into()));
    }
    let rollouts = rollouts.unwrap_or(MAX_ROLLOUT_WORK);
    if rollouts > MAX_ROLLOUT_WORK {
        return Err(rules_err(format!(
            "rollouts must be at most {MAX_ROLLOUT_WORK}, not {rollouts}"
        )));
    }
    Ok(Budget { rollouts, deadline })
}

/// Every seat's hand (the cheating bot's view), as masks by seat.
fn known_shedding(
    known: Option<Vec<u64>>,
    players: usize,
    me: usize,
    hand: CardSet,
) -> PyResult<Option<[CardSet; MAX_SEATS]>> {
    let Some(known) = known else {
        return Ok(None);
    };
    if known.len() != players {
        return Err(rules_err(format!("known: {players} hands expected")));
    }
    let mut out = [CardSet::EMPTY; MAX_SEATS];
    let mut seen = 0u64;
    for (s, &m) in known.iter().enumerate() {
        let h = mask(m, "known")?;
        if h.0 & seen != 0 {
            return Err(rules_err("known: two seats hold the same card".into()));
        }
        seen |= h.0;
        out[s] = h;
    }
    if out[me] != hand {
        return Err(rules_err("known: the root's hand differs from hand".into()));
    }
    Ok(Some(out))
}

/// One observation: `(seat, table or None for a lead, play or None for a pass, later,
/// min_other)`.
type ObservationArg = (usize, Option<u64>, Option<u64>, u64, u32);

/// Races the root's candidate plays (masks; None: pass) from `position` over deals weighted
/// by the others' `observations`; `known` (every seat's hand) replaces the deals (the cheating
/// bot). With `tree` (`"every_seat"` or `"own_seat"`: whose decisions it branches on), searches
/// them by information-set MCTS instead (`samples`: root visits).
///
/// With a `policy` (a `PolicyNet` of the table's game and size), the search uses the learned
/// policy: `policy_rollouts` makes it play the rollouts, `prior` weighs its prior at the tree's
/// root, `policy_top` keeps the flat race to its best candidates (the first always kept),
/// and the seats in `greedy_seats` play the greedy policy in those rollouts (the root seat
/// always plays the policy) and their observations are tested against the greedy policy's
/// exact choice. `chain` draws each deal by that many Metropolis card swaps from the last
/// (0: by rejection sampling; at most 1,000, else a `RulesError`).
#[pyfunction]
#[pyo3(signature = (setup, position, *, candidates, seed, rollouts = None, think_ms = None,
    violators = Vec::new(), observations = Vec::new(), known = None, tree = None, policy = None,
    policy_rollouts = false, prior = 0.0, policy_top = None, greedy_seats = Vec::new(), chain = 0))]
#[allow(clippy::too_many_arguments)]
fn search_shedding(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    position: &Bound<'_, PyPosition>,
    candidates: Vec<Option<u64>>,
    seed: u64,
    rollouts: Option<u64>,
    think_ms: Option<f64>,
    violators: Vec<(usize, usize)>,
    observations: Vec<ObservationArg>,
    known: Option<Vec<u64>>,
    tree: Option<&str>,
    policy: Option<&Bound<'_, PyPolicyNet>>,
    policy_rollouts: bool,
    prior: f64,
    policy_top: Option<usize>,
    greedy_seats: Vec<usize>,
    chain: u32,
) -> PyResult<Found> {
    guard(|| {
        let setup = &setup.get().0;
        let mut pos = position.get().read(setup)?;
        let me = pos.me;
        for (one, by) in violators {
            if one >= setup.players || by >= setup.players || one == by {
                return Err(rules_err(format!("violators: bad entry ({one}, {by})")));
            }
            pos.violator[one] = by as u8 + 1;
        }
        let cands = candidates
            .iter()
            .map(|c| c.map(|m| combo(m, &setup.rules, "candidate")).transpose())
            .collect::<PyResult<Vec<_>>>()?;
        let obs = observations
            .iter()
            .map(|&(seat, t, play, later, min_other)| {
                if seat >= setup.players {
                    return Err(rules_err(format!("observation of seat {seat}")));
                }
                if t.is_none() && play.is_none() {
                    return Err(rules_err(format!(
                        "observation of seat {seat}: no table, no play"
                    )));
                }
                Ok(Observation {
                    seat,
                    table: t
                        .map(|t| combo(t, &setup.rules, "observed table"))
                        .transpose()?,
                    play: play
                        .map(|p| combo(p, &setup.rules, "observed play"))
                        .transpose()?,
                    later: mask(later, "observed later")?,
                    min_other,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let known = known_shedding(known, setup.players, me, pos.hand)?;
        let budget = budget(rollouts, think_ms, cands.len())?;
        let branching = match tree {
            None => None,
            Some("every_seat") => Some(Branching::EverySeat),
            Some("own_seat") => Some(Branching::OwnSeat),
            Some(other) => {
                return Err(rules_err(format!(
                    "tree: {other:?} is not \"every_seat\" or \"own_seat\""
                )))
            }
        };
        let net = policy.map(|p| p.get().net());
        if let Some(net) = &net {
            check_policy(net, setup)?;
        }
        if !(prior.is_finite() && (0.0..=MAX_PRIOR).contains(&prior)) {
            return Err(rules_err(format!(
                "prior must be within 0..={MAX_PRIOR}, not {prior}"
            )));
        }
        if policy_top == Some(0) {
            return Err(rules_err("policy_top must be at least 1".into()));
        }
        check_chain(chain)?;
        let greedy_mask = seat_mask(&greedy_seats, setup.players)?;
        let setup = setup.clone();
        Ok(py.detach(move || {
            let guide = net.as_deref().map(|net| Guide {
                net,
                rollouts: policy_rollouts,
                prior,
                top: policy_top,
                greedy_seats: greedy_mask,
            });
            let g = guide.as_ref();
            found(match branching {
                Some(b) => search_tree(
                    &setup, &pos, &obs, &cands, known, &budget, seed, chain, b, g,
                ),
                None => {
                    shedding::search(&setup, &pos, &obs, &cands, known, &budget, seed, chain, g)
                }
            })
        }))
    })
}

/// The learned `policy`'s score of each of the root's candidate plays (masks; None: pass)
/// from `position`, as a policy-guided search reads them for its prior: the scores of the
/// seat's own view (`position.played` gives the cards each seat has played).
#[pyfunction]
#[pyo3(signature = (setup, position, *, candidates, policy))]
fn shedding_policy_scores(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    position: &Bound<'_, PyPosition>,
    candidates: Vec<Option<u64>>,
    policy: &Bound<'_, PyPolicyNet>,
) -> PyResult<Vec<f32>> {
    guard(|| {
        let setup = &setup.get().0;
        let pos = position.get().read(setup)?;
        let cands = candidates
            .iter()
            .map(|c| c.map(|m| combo(m, &setup.rules, "candidate")).transpose())
            .collect::<PyResult<Vec<_>>>()?;
        let net = policy.get().net();
        check_policy(&net, setup)?;
        let setup = setup.clone();
        Ok(py.detach(move || root_scores(&net, &setup, &pos, &cands)))
    })
}

/// Largest `keep_first` (standard errors) accepted.
const MAX_KEEP_Z: f64 = 100.0;

/// Largest prior weight accepted.
const MAX_PRIOR: f64 = 1000.0;

/// `seats` as a bit set (bit s: seat s) of a table of `players`; a `RulesError` for a seat
/// that is not at the table.
fn seat_mask(seats: &[usize], players: usize) -> PyResult<u32> {
    let mut mask = 0u32;
    for &s in seats {
        if s >= players {
            return Err(rules_err(format!("greedy_seats: no seat {s}")));
        }
        mask |= 1 << s;
    }
    Ok(mask)
}

/// A `RulesError` unless `net` plays Tứ Sắc at a table of `players`.
fn check_tusac_policy(net: &Net, players: usize) -> PyResult<()> {
    if net.action_size() != TUSAC_ACTION || net.header.game != "tusac" {
        return Err(rules_err(format!(
            "these policy weights play {}, not Tứ Sắc",
            net.header.game
        )));
    }
    if net.header.players != players {
        return Err(rules_err(format!(
            "these policy weights were trained for {} players, not {players}",
            net.header.players
        )));
    }
    Ok(())
}

/// A `RulesError` unless `net` plays the shedding game and table size of `setup`.
fn check_policy(net: &Net, setup: &Setup) -> PyResult<()> {
    let samloc = net.encoding.name == "samloc-view";
    if net.action_size() != SHEDDING_ACTION || samloc != setup.bao_mot {
        return Err(rules_err(format!(
            "these policy weights play {}, not this table's game",
            net.header.game
        )));
    }
    if net.header.players != setup.players {
        return Err(rules_err(format!(
            "these policy weights were trained for {} players, not {}",
            net.header.players, setup.players
        )));
    }
    Ok(())
}

/// The root's mean score over `rollouts` deals when the hand is played out by the greedy
/// policy from seat `turn` on (e.g. the value of declining Sâm).
#[pyfunction]
#[pyo3(signature = (setup, *, me, hand, unseen, counts, turn, rollouts, seed, known = None))]
#[allow(clippy::too_many_arguments)]
fn shedding_value(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    me: usize,
    hand: u64,
    unseen: u64,
    counts: Vec<u8>,
    turn: usize,
    rollouts: u32,
    seed: u64,
    known: Option<Vec<u64>>,
) -> PyResult<f64> {
    guard(|| {
        let setup = &setup.get().0;
        let pos = PyPosition::fresh(me, hand, unseen, counts, 0, None).read(setup)?;
        if turn >= setup.players {
            return Err(rules_err(format!("turn {turn} is not a seat")));
        }
        check_work(rollouts, 1).map_err(rules_err)?;
        let known = known_shedding(known, setup.players, me, pos.hand)?;
        let setup = setup.clone();
        Ok(py.detach(move || shedding::value(&setup, &pos, &[], turn, known, rollouts, seed)))
    })
}

/// The Sâm plan of seat `me` (the declarer, or a seat deciding to declare): the success rate
/// of the best split of its hand over `samples` deals (at most 256), and per combination it
/// may lead, `(mask, success rate of the best split that leads it now)`.
#[pyfunction]
#[pyo3(signature = (setup, *, me, hand, unseen, counts, samples, seed, out = 0, known = None))]
#[allow(clippy::too_many_arguments)]
fn sam_plan(
    py: Python<'_>,
    setup: &Bound<'_, PyRolloutSetup>,
    me: usize,
    hand: u64,
    unseen: u64,
    counts: Vec<u8>,
    samples: u32,
    seed: u64,
    out: u8,
    known: Option<Vec<u64>>,
) -> PyResult<(f64, Vec<(u64, f64)>)> {
    guard(|| {
        let setup = &setup.get().0;
        let pos = PyPosition::fresh(me, hand, unseen, counts, out, Some(me)).read(setup)?;
        let known = known_shedding(known, setup.players, me, pos.hand)?;
        let setup = setup.clone();
        let plan = py.detach(move || sam::plan(&setup, &pos, samples, seed, known));
        Ok((
            plan.success,
            plan.leads.iter().map(|(c, p)| (c.cards.0, *p)).collect(),
        ))
    })
}

/// The rules of a Tứ Sắc table as its rollouts need them.
#[pyclass(module = "vncards._core", name = "TuSacRolloutSetup", frozen)]
pub struct PyTuSacSetup(TuSacSetup);

#[pymethods]
impl PyTuSacSetup {
    #[new]
    #[pyo3(signature = (players, *, odd_total = "hand", set_lenh = 1, triple_optional = false,
        bung_rule = "seed", discard_rule = "penalize", tuong_as_ty = true, draw_at_stock = 7,
        payment = "per_lenh", claim_window = "every_seat"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        players: usize,
        odd_total: &str,
        set_lenh: i64,
        triple_optional: bool,
        bung_rule: &str,
        discard_rule: &str,
        tuong_as_ty: bool,
        draw_at_stock: u32,
        payment: &str,
        claim_window: &str,
    ) -> PyResult<Self> {
        guard(|| {
            if !(2..=rt::MAX_SEATS).contains(&players) {
                return Err(rules_err(format!("players must be 2..4, not {players}")));
            }
            let enforce_rac = one_of("discard_rule", discard_rule, "enforce", "penalize")?;
            let flat = one_of("payment", payment, "flat", "per_lenh")?;
            let every_seat = one_of("claim_window", claim_window, "every_seat", "eligible_seats")?;
            if draw_at_stock > 70 {
                return Err(rules_err(format!(
                    "draw_at_stock must be in 0..70, not {draw_at_stock}"
                )));
            }
            Ok(PyTuSacSetup(TuSacSetup {
                players,
                scoring: scoring(odd_total, set_lenh)?,
                triple_optional,
                bung: tusac_bung(bung_rule)?,
                enforce_rac,
                tuong_as_ty,
                draw_at_stock,
                flat,
                every_seat,
            }))
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("TuSacRolloutSetup({:?})", self.0))
    }
}

/// Is `value` of the two-valued option `name` its `yes` (else its `no`; a `RulesError` for
/// anything else)?
fn one_of(name: &str, value: &str, yes: &str, no: &str) -> PyResult<bool> {
    match value {
        v if v == yes => Ok(true),
        v if v == no => Ok(false),
        other => Err(rules_err(format!(
            "{name} must be '{no}' or '{yes}', not {other:?}"
        ))),
    }
}

/// A Tứ Sắc candidate: `("discard", kind)`, `("claim", meld, [kinds used])`, `("win",)` or
/// `("pass",)`.
type ChoiceArg = (String, Option<u8>, Option<String>, Vec<u8>);

fn choice(c: &ChoiceArg) -> PyResult<Choice> {
    let (kind, card, meld, used) = c;
    match kind.as_str() {
        "discard" => {
            Ok(Choice::Discard(kind_index(card.ok_or_else(|| {
                rules_err("a discard names its card".into())
            })?)?))
        }
        "claim" => Ok(Choice::Claim(Claim {
            meld: meld_kind(meld.as_deref().unwrap_or(""))?,
            used: used
                .iter()
                .map(|&k| kind_index(k))
                .collect::<PyResult<_>>()?,
        })),
        "win" => Ok(Choice::Win),
        "pass" => Ok(Choice::Pass),
        other => Err(rules_err(format!("no Tứ Sắc choice {other:?}"))),
    }
}

/// Races the root's Tứ Sắc candidates (`(type, card, meld, used)`: a discard of `card`, a
/// claim of `meld` with `used`, `"win"` or `"pass"`) over deals of the unseen cards; the
/// offer is `(card, from_stock, seat)`. `single[s]`: bit k when seat s holds at most one of
/// kind k. `known`: every seat's packed hidden hand (the cheating bot). `exposed`: each
/// seat's packed exposed cards (among `public`; the rest but the offer is dead).
///
/// With a `policy` (a Tứ Sắc `PolicyNet` of the table's size) and `policy_rollouts`, the
/// learned policy plays the rollouts for every seat but those in `greedy_seats`. With
/// `keep_first` (standard errors) the first candidate is chosen unless another beats it by
/// more than that over the same deals. With `value_after` (at least 1; only with the policy
/// playing the rollouts) each rollout stops at the seat's `value_after`-th own decision and is
/// scored by the policy's best score there. With `chain` (card swaps a deal, at most
/// 1,000) and `observed` (the other seats' decisions this hand, as
/// `vncards.bots.tusac_search.observed` lists them) the deals are drawn by a Metropolis chain
/// weighted by how well the model (the policy, else greedy) replays those decisions.
#[pyfunction]
#[pyo3(signature = (setup, *, me, hand, counts, exposed_lenh, exposed_quad, public, stock,
    offer, opening, candidates, seed, rollouts = None, think_ms = None, single = None,
    known = None, greedy_only = false, exposed = None, policy = None, policy_rollouts = false,
    greedy_seats = Vec::new(), keep_first = None, value_after = None, observed = Vec::new(),
    chain = 0))]
#[allow(clippy::too_many_arguments)]
fn tusac_search(
    py: Python<'_>,
    setup: &Bound<'_, PyTuSacSetup>,
    me: usize,
    hand: u128,
    counts: Vec<u8>,
    exposed_lenh: Vec<i32>,
    exposed_quad: Vec<bool>,
    public: u128,
    stock: u32,
    offer: Option<(u8, bool, usize)>,
    opening: bool,
    candidates: Vec<ChoiceArg>,
    seed: u64,
    rollouts: Option<u64>,
    think_ms: Option<f64>,
    single: Option<Vec<u32>>,
    known: Option<Vec<u128>>,
    greedy_only: bool,
    exposed: Option<Vec<u128>>,
    policy: Option<&Bound<'_, PyPolicyNet>>,
    policy_rollouts: bool,
    greedy_seats: Vec<usize>,
    keep_first: Option<f64>,
    value_after: Option<u32>,
    observed: Vec<ObservedArg>,
    chain: u32,
) -> PyResult<Found> {
    guard(|| {
        let setup = setup.get().0;
        let n = setup.players;
        if counts.len() != n || exposed_lenh.len() != n || exposed_quad.len() != n {
            return Err(rules_err(format!("counts and exposed: {n} seats expected")));
        }
        let offer = offer
            .map(|(k, from_stock, seat)| {
                Ok::<_, PyErr>(Offer {
                    card: kind_index(k)?,
                    from_stock,
                    seat,
                })
            })
            .transpose()?;
        let mut pos = TuSacPosition::new(me, unpack(hand)?, unpack(public)?, stock, offer, opening)
            .map_err(rules_err)?;
        pos.counts[..n].copy_from_slice(&counts);
        for (s, &l) in exposed_lenh.iter().enumerate() {
            pos.exposed_lenh[s] = exposed_arg(l)?;
        }
        pos.exposed_quad[..n].copy_from_slice(&exposed_quad);
        if let Some(single) = single {
            if single.len() != n || single.iter().any(|&m| m >> 28 != 0) {
                return Err(rules_err(format!("single: {n} masks of 28 bits expected")));
            }
            pos.single[..n].copy_from_slice(&single);
        }
        if let Some(exposed) = exposed {
            if exposed.len() != n {
                return Err(rules_err(format!("exposed: {n} seats expected")));
            }
            for (s, &e) in exposed.iter().enumerate() {
                pos.exposed[s] = unpack(e)?;
            }
        }
        rt::check(&setup, &pos).map_err(rules_err)?;
        let cands = candidates
            .iter()
            .map(choice)
            .collect::<PyResult<Vec<_>>>()?;
        if greedy_only {
            if cands.is_empty() {
                return Err(rules_err("no candidate to search".into()));
            }
            let g = rt::greedy_choice(&pos, &cands);
            return Ok((g, vec![0.0; cands.len()], vec![0; cands.len()], 0));
        }
        let known = match known {
            None => None,
            Some(k) if k.len() == n => {
                let hands = k.iter().map(|&p| unpack(p)).collect::<PyResult<Vec<_>>>()?;
                let mut rest = pos.unseen;
                for (s, h) in hands.iter().enumerate().filter(|&(s, _)| s != me) {
                    if !rest.contains(h) || h.len() != u32::from(pos.counts[s]) {
                        return Err(rules_err(format!("known: seat {s} does not fit")));
                    }
                    rest = rest.minus(h);
                }
                Some(hands)
            }
            Some(_) => return Err(rules_err(format!("known: {n} hands expected"))),
        };
        let budget = budget(rollouts, think_ms, cands.len())?;
        let net = policy.map(|p| p.get().net());
        if let Some(net) = &net {
            check_tusac_policy(net, n)?;
        }
        let greedy_mask = seat_mask(&greedy_seats, n)?;
        if keep_first.is_some_and(|z| !(z.is_finite() && (0.0..=MAX_KEEP_Z).contains(&z))) {
            return Err(rules_err(format!(
                "keep_first must be within 0..={MAX_KEEP_Z}, not {}",
                keep_first.unwrap_or_default()
            )));
        }
        if let Some(d) = value_after {
            if d == 0 || net.is_none() || !policy_rollouts {
                return Err(rules_err(format!(
                    "value_after must be at least 1 and needs the policy to play the rollouts, not {d}"
                )));
            }
        }
        check_chain(chain)?;
        let observed = observed
            .iter()
            .map(|o| tusac_observation(o, n))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(py.detach(move || {
            let guide = net.as_deref().map(|net| Guide {
                rollouts: policy_rollouts,
                greedy_seats: greedy_mask,
                ..Guide::of(net)
            });
            found(ts::search(
                &setup,
                &pos,
                &cands,
                known.as_deref(),
                &budget,
                seed,
                guide.as_ref(),
                keep_first,
                value_after,
                &observed,
                chain,
            ))
        }))
    })
}

/// The searches' `chain` (Metropolis card swaps a deal) within its bound.
fn check_chain(chain: u32) -> PyResult<()> {
    if chain > MAX_CHAIN {
        return Err(rules_err(format!(
            "chain must be within 0..={MAX_CHAIN}, not {chain}"
        )));
    }
    Ok(())
}

/// Another seat's decision for the Tứ Sắc inference: `(seat, choice, dead, exposed, counts,
/// stock, offer, opening, later)`, the cards packed as `tusac_pack` packs them.
type ObservedArg = (
    usize,
    ChoiceArg,
    u128,
    Vec<u128>,
    Vec<u8>,
    u32,
    Option<(u8, bool, usize)>,
    bool,
    u128,
);

fn tusac_observation(o: &ObservedArg, n: usize) -> PyResult<ts::TuSacObservation> {
    let (seat, c, dead, exposed, counts, stock, offer, opening, later) = o;
    if *seat >= n || exposed.len() != n || counts.len() != n {
        return Err(rules_err(format!(
            "observed: a seat below {n}, and {n} exposed hands and counts"
        )));
    }
    let mut out = ts::TuSacObservation {
        seat: *seat,
        dead: unpack(*dead)?,
        exposed: [Hand::EMPTY; rt::MAX_SEATS],
        counts: [0; rt::MAX_SEATS],
        stock: *stock,
        offer: None,
        opening: *opening,
        later: unpack(*later)?,
        choice: choice(c)?,
    };
    for (s, &e) in exposed.iter().enumerate() {
        out.exposed[s] = unpack(e)?;
    }
    out.counts[..n].copy_from_slice(counts);
    if let Some((k, from_stock, by)) = *offer {
        if by >= n {
            return Err(rules_err("observed: offer seat out of range".into()));
        }
        out.offer = Some(Offer {
            card: kind_index(k)?,
            from_stock,
            seat: by,
        });
    }
    let win = matches!(out.choice, Choice::Win);
    if win || out.offer.is_some() == matches!(out.choice, Choice::Discard(_)) {
        return Err(rules_err(
            "observed: a discard without an offer, or a claim or pass of one".into(),
        ));
    }
    Ok(out)
}

/// Races Mậu Binh arrangements `candidates` (`(back, middle, front)` masks of the 13 cards
/// `cards`) against solver-arranged opponents dealt from the other cards (`known`: their
/// hands, the cheating bot).
#[pyfunction]
#[pyo3(signature = (cards, players, candidates, rules, *, seed, rollouts = None, think_ms = None,
    known = None))]
#[allow(clippy::too_many_arguments)]
fn maubinh_search(
    py: Python<'_>,
    cards: u64,
    players: usize,
    candidates: Vec<(u64, u64, u64)>,
    rules: &Bound<'_, PyMauBinhRules>,
    seed: u64,
    rollouts: Option<u64>,
    think_ms: Option<f64>,
    known: Option<Vec<u64>>,
) -> PyResult<Found> {
    guard(|| {
        let rules = rules.get().0;
        if !(2..=4).contains(&players) {
            return Err(rules_err(format!("players must be 2..4, not {players}")));
        }
        let hand = mask(cards, "cards")?;
        if hand.len() != 13 {
            return Err(rules_err("a Mậu Binh hand has 13 cards".into()));
        }
        let cands = candidates
            .iter()
            .map(|&(back, middle, front)| {
                let a = Arrangement {
                    back,
                    middle,
                    front,
                };
                a.validate().map_err(to_py)?;
                if a.cards() != hand.0 {
                    return Err(rules_err("a candidate does not arrange the hand".into()));
                }
                Ok(a)
            })
            .collect::<PyResult<Vec<_>>>()?;
        if let Some(k) = &known {
            let mut seen = hand.0;
            if k.len() != players - 1 {
                return Err(rules_err(format!("known: {} hands expected", players - 1)));
            }
            for &h in k {
                let h = mask(h, "known")?;
                if h.len() != 13 || h.0 & seen != 0 {
                    return Err(rules_err("known: 13 cards each, none shared".into()));
                }
                seen |= h.0;
            }
        }
        let budget = budget(rollouts, think_ms, cands.len())?;
        Ok(py.detach(move || {
            found(mbs::search(
                hand.0,
                &rules,
                players,
                &cands,
                known.as_deref(),
                &budget,
                seed,
            ))
        }))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTuSacSetup>()?;
    m.add_function(wrap_pyfunction!(search_shedding, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_policy_scores, m)?)?;
    m.add_function(wrap_pyfunction!(shedding_value, m)?)?;
    m.add_function(wrap_pyfunction!(sam_plan, m)?)?;
    m.add_function(wrap_pyfunction!(tusac_search, m)?)?;
    m.add_function(wrap_pyfunction!(maubinh_search, m)?)?;
    Ok(())
}
