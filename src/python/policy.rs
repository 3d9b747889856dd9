//! The learned policy (`crate::policy`) for Python: `PolicyNet` holds a network read from (or
//! built for) a weights file and scores a seat's legal actions from its view's parts, without
//! numpy; with numpy, it scores many positions at once and plays the self-play hands training
//! learns from, both with the GIL released.

use super::arrays;
use super::encode::{group_masks, group_rows, shedding_obs, tusac_obs};
use super::errors::to_py;
use super::flow::PyFlowRules;
use super::guard::{guard, guard_ok};
use super::tusac_flow::PyTuSacRules;
use crate::encode::Deck;
use crate::error::Error;
use crate::policy::features::{shedding_row, tusac_row, SheddingAct, TuSacAct, TuSacContext};
use crate::policy::{encoding, scores_batch, selfplay, Header, Net, Opponents, Samples};
use crate::vector::shedding::SheddingTable;
use crate::vector::tusac::TuSacTable;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// Most hands one self-play call may play.
const MAX_HANDS: usize = 1 << 20;

/// A policy network (see `vncards.bots.policy`).
#[pyclass(module = "vncards._core", name = "PolicyNet", frozen)]
pub struct PyPolicyNet(Arc<Net>);

fn rules_err(msg: String) -> PyErr {
    to_py(Error::Rules(msg))
}

/// The action row of a legal action given by its type and cards.
/// `masks` (one seat bit mask per self-play seed, named `name` in errors) checked: as many as
/// the seeds, and no seat past the table's `players`.
fn check_seat_masks(name: &str, masks: &[u8], seeds: usize, players: usize) -> PyResult<()> {
    if masks.len() != seeds {
        return Err(rules_err(format!(
            "{name} needs one mask per seed ({seeds}), not {}",
            masks.len()
        )));
    }
    if let Some(m) = masks.iter().find(|&&m| usize::from(m) >> players != 0) {
        return Err(rules_err(format!(
            "{name} mask {m:#b} names a seat past the table's {players}"
        )));
    }
    Ok(())
}

fn shedding_act(kind: &str, cards: &Bound<'_, PyAny>) -> PyResult<SheddingAct> {
    Ok(match kind {
        "play" => SheddingAct::Play(group_masks(std::slice::from_ref(cards))?[0]),
        "pass" => SheddingAct::Pass,
        "declare_sam" => SheddingAct::Declare,
        "decline_sam" => SheddingAct::Decline,
        _ => return Err(rules_err(format!("no shedding action of type {kind:?}"))),
    })
}

fn tusac_act(kind: &str, cards: &Bound<'_, PyAny>, offer: Option<u8>) -> PyResult<TuSacAct> {
    let flag = match kind {
        "discard" => 0,
        "claim" => 1,
        "win" => 2,
        "pass" => 3,
        _ => return Err(rules_err(format!("no Tứ Sắc action of type {kind:?}"))),
    };
    let row = group_rows(Deck::TuSac, std::slice::from_ref(cards))?;
    let mut counts: [u8; 28] = row[0].clone().try_into().expect("28 cells");
    if flag == 1 {
        if let Some(k) = offer {
            counts[usize::from(k)] = counts[usize::from(k)].saturating_add(1);
        }
    }
    if flag >= 2 {
        counts = [0; 28];
    }
    Ok(TuSacAct {
        flag,
        cards: counts,
    })
}

/// A legal action as the bot hands it over: its type and its cards.
type PyAction<'py> = (String, Bound<'py, PyAny>);

impl PyPolicyNet {
    /// The network, shared (a search borrows it without copying the weights).
    pub(super) fn net(&self) -> Arc<Net> {
        Arc::clone(&self.0)
    }

    /// A `RulesError` unless the weights' action rows are `width` wide (`what` they play).
    fn check_game(&self, width: usize, what: &str) -> PyResult<()> {
        if self.0.action_size() != width {
            return Err(rules_err(format!(
                "these weights play {}, not {what}",
                self.0.header.game
            )));
        }
        Ok(())
    }

    /// The scores of `actions` in the position `obs`, each row written by `fill`.
    fn score(
        &self,
        obs: &[f32],
        actions: &[PyAction<'_>],
        mut fill: impl FnMut(&PyAction<'_>, &mut [f32]) -> PyResult<()>,
    ) -> PyResult<Vec<f32>> {
        self.check_obs(obs)?;
        let a = self.0.action_size();
        let mut rows = vec![0.0f32; actions.len() * a];
        for (action, row) in actions.iter().zip(rows.chunks_exact_mut(a)) {
            fill(action, row)?;
        }
        let mut scores = Vec::new();
        self.0.scores(obs, &rows, &mut scores);
        Ok(scores)
    }

    fn check_obs(&self, obs: &[f32]) -> PyResult<()> {
        if obs.len() != self.0.observation_size() {
            return Err(rules_err(format!(
                "a view of {} cells; these weights read {} ({} players of {})",
                obs.len(),
                self.0.observation_size(),
                self.0.header.players,
                self.0.header.game
            )));
        }
        Ok(())
    }
}

/// One self-play table of the net's game.
enum Proto {
    Shedding(SheddingTable),
    TuSac(TuSacTable),
}

#[pymethods]
impl PyPolicyNet {
    /// A network for `game` at a table of `players` seats: `shapes` the `(rows, cols)` of each
    /// layer (the first `tower` make the state tower), `data` every layer's weights then biases
    /// as little-endian float32 bytes, `rules` and `provenance` JSON texts kept in the file.
    #[new]
    #[pyo3(signature = (game, players, shapes, tower, data, rules, provenance))]
    fn new(
        game: &str,
        players: usize,
        shapes: Vec<(usize, usize)>,
        tower: usize,
        data: &[u8],
        rules: &str,
        provenance: &str,
    ) -> PyResult<PyPolicyNet> {
        guard(|| {
            let enc = encoding(game, players).map_err(to_py)?;
            if data.len() % 4 != 0 {
                return Err(to_py(Error::Snapshot(
                    "policy weights: data is not whole float32s".into(),
                )));
            }
            let floats: Vec<f32> = data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let header = Header {
                game: game.to_string(),
                players,
                encoding_name: enc.name.to_string(),
                encoding_version: enc.version,
                encoding_hash: enc.hash,
                shapes,
                tower,
                rules: rules.to_string(),
                provenance: provenance.to_string(),
            };
            Ok(PyPolicyNet(Arc::new(
                Net::new(header, &floats).map_err(to_py)?,
            )))
        })
    }

    /// Reads a weights file's bytes (`SnapshotError` for a damaged file or another encoding).
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<PyPolicyNet> {
        guard(|| Ok(PyPolicyNet(Arc::new(Net::from_bytes(data).map_err(to_py)?))))
    }

    /// The weights file's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        guard_ok(|| PyBytes::new(py, &self.0.to_bytes()))
    }

    /// Every layer's weights then biases, as little-endian float32 bytes.
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        guard_ok(|| {
            let bytes: Vec<u8> = self.0.data().iter().flat_map(|x| x.to_le_bytes()).collect();
            PyBytes::new(py, &bytes)
        })
    }

    /// The game the weights play (a variant name).
    #[getter]
    fn game(&self) -> PyResult<String> {
        guard_ok(|| self.0.header.game.clone())
    }
    /// The table size the weights were trained for.
    #[getter]
    fn players(&self) -> PyResult<usize> {
        guard_ok(|| self.0.header.players)
    }
    /// `(name, version, hash)` of the encoding the weights read (hash as 16 hex digits).
    #[getter]
    fn encoding(&self) -> PyResult<(String, u32, String)> {
        guard_ok(|| {
            let h = &self.0.header;
            (
                h.encoding_name.clone(),
                h.encoding_version,
                format!("{:016x}", h.encoding_hash),
            )
        })
    }
    /// `(rows, cols)` of every layer, in file order.
    #[getter]
    fn shapes(&self) -> PyResult<Vec<(usize, usize)>> {
        guard_ok(|| self.0.header.shapes.clone())
    }
    /// How many of the layers make the state tower.
    #[getter]
    fn tower(&self) -> PyResult<usize> {
        guard_ok(|| self.0.header.tower)
    }
    /// The rules trained on (JSON: the game and its options).
    #[getter]
    fn rules(&self) -> PyResult<String> {
        guard_ok(|| self.0.header.rules.clone())
    }
    /// How the weights were made (JSON: command, seed, steps, time, ...).
    #[getter]
    fn provenance(&self) -> PyResult<String> {
        guard_ok(|| self.0.header.provenance.clone())
    }
    /// Width of the observation the network reads.
    #[getter]
    fn observation_size(&self) -> PyResult<usize> {
        guard_ok(|| self.0.observation_size())
    }
    /// Width of an action row.
    #[getter]
    fn action_size(&self) -> PyResult<usize> {
        guard_ok(|| self.0.action_size())
    }

    /// The score of each legal action of a shedding seat: the view's parts as
    /// `_core.encode_shedding_view` takes them, and `actions` as `(type, cards)` pairs.
    #[pyo3(signature = (groups, counts, passed, out, to_act, owner, playing, actions))]
    #[allow(clippy::too_many_arguments)]
    fn scores_shedding(
        &self,
        groups: Vec<Bound<'_, PyAny>>,
        counts: Vec<usize>,
        passed: u32,
        out: u32,
        to_act: u32,
        owner: u32,
        playing: Option<bool>,
        actions: Vec<PyAction<'_>>,
    ) -> PyResult<Vec<f32>> {
        guard(|| {
            self.check_game(crate::policy::features::SHEDDING_ACTION, "a shedding game")?;
            let obs = shedding_obs(&groups, &counts, passed, out, to_act, owner, playing)?;
            self.score(&obs, &actions, |(kind, cards), row| {
                shedding_row(shedding_act(kind, cards)?, row);
                Ok(())
            })
        })
    }

    /// The score of each legal action of a Tứ Sắc seat: the view's parts as
    /// `_core.encode_tusac_view` takes them, and `actions` as `(type, cards)` pairs.
    #[allow(clippy::too_many_arguments)]
    fn scores_tusac(
        &self,
        groups: Vec<Bound<'_, PyAny>>,
        counts: Vec<usize>,
        pending: u32,
        offered_by: u32,
        stock: usize,
        claim: bool,
        actions: Vec<PyAction<'_>>,
    ) -> PyResult<Vec<f32>> {
        guard(|| {
            self.check_game(crate::policy::features::TUSAC_ACTION, "tusac")?;
            let (obs, offer) = tusac_obs(&groups, &counts, pending, offered_by, stock, claim)?;
            let ctx = TuSacContext::from_observation(&obs);
            self.score(&obs, &actions, |(kind, cards), row| {
                tusac_row(&ctx, &tusac_act(kind, cards, offer)?, row);
                Ok(())
            })
        })
    }

    /// Scores many positions at once, the GIL released: `obs` float32 `[positions,
    /// observation_size]`, `actions` float32 `[rows, action_size]`, `offsets` int64
    /// `[positions + 1]` (position `i` owns action rows `offsets[i]..offsets[i+1]`); one score
    /// per action row.
    fn scores_batch<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
        actions: PyReadonlyArray2<'py, f32>,
        offsets: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        guard(|| {
            arrays::require(py, "PolicyNet.scores_batch")?;
            let (d, a) = (self.0.observation_size(), self.0.action_size());
            let o = obs.as_array();
            let x = actions.as_array();
            if o.ncols() != d || x.ncols() != a {
                return Err(rules_err(format!(
                    "observations of {} cells and action rows of {} (these weights: {d} and {a})",
                    o.ncols(),
                    x.ncols()
                )));
            }
            let offs: Vec<usize> = offsets
                .as_array()
                .iter()
                .map(|&v| usize::try_from(v).unwrap_or(usize::MAX))
                .collect();
            let ok = offs.len() == o.nrows() + 1
                && offs.first() == Some(&0)
                && offs.last() == Some(&x.nrows())
                && offs.windows(2).all(|w| w[0] <= w[1]);
            if !ok {
                return Err(rules_err(format!(
                    "offsets must rise from 0 to {} in {} steps",
                    x.nrows(),
                    o.nrows()
                )));
            }
            let obs: Vec<f32> = o.iter().copied().collect();
            let acts: Vec<f32> = x.iter().copied().collect();
            let net = Arc::clone(&self.0);
            let out = py.detach(move || scores_batch(&net, &obs, &acts, &offs));
            Ok(PyArray1::from_vec(py, out))
        })
    }

    /// Self-play of one hand from each of `seeds` (in parallel, the GIL released) at a table
    /// with `rules` (`SheddingFlowRules` or `TuSacFlowRules`): every seat plays this network,
    /// exploring with probability `epsilon`, except the seats of `greedy_seats` (one bit mask per
    /// seed; Tiến Lên and Tứ Sắc), which the `greedy` bot plays, and those of `frozen_seats` (one mask
    /// per seed, none of them greedy's), which the network `frozen` plays (its best-scored
    /// action, no exploration: a league's earlier or shipped network); neither gives samples. Returns
    /// `(obs [n, observation_size], actions [n, action_size], returns [n], hands, truncated,
    /// decisions)`: one sample per decision with a choice, its return the units the seat won.
    #[pyo3(signature = (rules, seeds, epsilon, max_steps = 2000, greedy_seats = None, frozen = None, frozen_seats = None))]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn selfplay<'py>(
        &self,
        py: Python<'py>,
        rules: &Bound<'py, PyAny>,
        seeds: Vec<u64>,
        epsilon: f64,
        max_steps: usize,
        greedy_seats: Option<Vec<u8>>,
        frozen: Option<Bound<'py, PyPolicyNet>>,
        frozen_seats: Option<Vec<u8>>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<f32>>,
        usize,
        usize,
        usize,
    )> {
        guard(|| {
            arrays::require(py, "PolicyNet.selfplay")?;
            if seeds.len() > MAX_HANDS {
                return Err(rules_err(format!("at most {MAX_HANDS} hands a call")));
            }
            if !(0.0..=1.0).contains(&epsilon) {
                return Err(rules_err(format!(
                    "epsilon must be in [0, 1], not {epsilon}"
                )));
            }
            let players = self.0.header.players;
            let proto = if let Ok(r) = rules.cast::<PyFlowRules>() {
                Proto::Shedding(SheddingTable::new(r.get().0, players).map_err(to_py)?)
            } else if let Ok(r) = rules.cast::<PyTuSacRules>() {
                Proto::TuSac(TuSacTable::new(r.get().0, players).map_err(to_py)?)
            } else {
                return Err(rules_err(
                    "rules must be SheddingFlowRules or TuSacFlowRules".into(),
                ));
            };
            let (d, a) = match &proto {
                Proto::Shedding(t) => (
                    crate::vector::Game::observation_size(t),
                    crate::policy::features::SHEDDING_ACTION,
                ),
                Proto::TuSac(t) => (
                    crate::vector::Game::observation_size(t),
                    crate::policy::features::TUSAC_ACTION,
                ),
            };
            if d != self.0.observation_size() || a != self.0.action_size() {
                return Err(rules_err(format!(
                    "these weights play {}, not a table of these rules",
                    self.0.header.game
                )));
            }
            let greedy = greedy_seats.unwrap_or_default();
            if !greedy.is_empty() {
                check_seat_masks("greedy_seats", &greedy, seeds.len(), players)?;
                if greedy.iter().any(|&m| m != 0)
                    && matches!(&proto, Proto::Shedding(t) if t.is_samloc())
                {
                    return Err(rules_err(format!(
                        "greedy seats in self-play are played in Rust in Tiến Lên and Tứ Sắc only, not {}",
                        self.0.header.game
                    )));
                }
            }
            let frozen_seats = frozen_seats.unwrap_or_default();
            let other = match (&frozen, frozen_seats.is_empty()) {
                (None, false) => {
                    return Err(rules_err("frozen_seats needs the frozen network".into()));
                }
                (None, true) => None,
                (Some(f), _) => {
                    let other = f.get().net();
                    if other.header.game != self.0.header.game
                        || other.header.players != players
                        || other.encoding != self.0.encoding
                    {
                        return Err(rules_err(format!(
                            "the frozen network plays {} at {} seats, not this network's {} at {players}",
                            other.header.game, other.header.players, self.0.header.game
                        )));
                    }
                    check_seat_masks("frozen_seats", &frozen_seats, seeds.len(), players)?;
                    if let Some(i) = (0..greedy.len()).find(|&i| greedy[i] & frozen_seats[i] != 0) {
                        return Err(rules_err(format!(
                            "hand {i}: a seat is both greedy's and the frozen network's"
                        )));
                    }
                    Some(other)
                }
            };
            let net = Arc::clone(&self.0);
            let s: Samples = py.detach(move || {
                let opponents = Opponents {
                    greedy: &greedy,
                    frozen: other.as_deref().map(|o| (o, frozen_seats.as_slice())),
                };
                match &proto {
                    Proto::Shedding(t) => selfplay(t, &net, &seeds, opponents, epsilon, max_steps),
                    Proto::TuSac(t) => selfplay(t, &net, &seeds, opponents, epsilon, max_steps),
                }
            });
            let n = s.len();
            let obs = PyArray1::from_vec(py, s.obs).reshape([n, d])?.into_any();
            let acts = PyArray1::from_vec(py, s.actions)
                .reshape([n, a])?
                .into_any();
            let rets = PyArray1::from_vec(py, s.returns);
            Ok((obs, acts, rets, s.hands, s.truncated, s.decisions))
        })
    }
}

/// `(name, version, hash, observation_size, action_size)` of the encoding the policy of `game`
/// reads at a table of `players` seats (hash as 16 hex digits).
#[pyfunction]
fn policy_encoding(game: &str, players: usize) -> PyResult<(String, u32, String, usize, usize)> {
    guard(|| {
        let e = encoding(game, players).map_err(to_py)?;
        Ok((
            e.name.to_string(),
            e.version,
            format!("{:016x}", e.hash),
            e.observation,
            e.action,
        ))
    })
}

/// A Tứ Sắc view's parts as `_core.encode_tusac_view` takes them (`vncards.bots.view_parts.tusac_parts`).
type TuSacParts<'py> = (Vec<Bound<'py, PyAny>>, Vec<usize>, u32, u32, usize, bool);

/// The action rows the Tứ Sắc policy scores for a seat's legal actions (one list of
/// `action_size` floats per action): `parts` the view's parts (`tusac_parts(view, players)`),
/// and `actions` as `(type, cards)` pairs. Distillation writes its rows with it.
#[pyfunction]
fn policy_tusac_rows(parts: TuSacParts<'_>, actions: Vec<PyAction<'_>>) -> PyResult<Vec<Vec<f32>>> {
    guard(|| {
        let (groups, counts, pending, offered_by, stock, claim) = parts;
        let (obs, offer) = tusac_obs(&groups, &counts, pending, offered_by, stock, claim)?;
        let ctx = TuSacContext::from_observation(&obs);
        actions
            .iter()
            .map(|(kind, cards)| {
                let mut row = vec![0.0f32; crate::policy::features::TUSAC_ACTION];
                tusac_row(&ctx, &tusac_act(kind, cards, offer)?, &mut row);
                Ok(row)
            })
            .collect()
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPolicyNet>()?;
    m.add_function(wrap_pyfunction!(policy_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(policy_tusac_rows, m)?)
}
