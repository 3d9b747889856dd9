//! The batched environment's core (`crate::vector`) for Python: `VectorCore` owns the tables
//! and the numpy arrays each call writes into (observations, rewards, flags, seats, action
//! counts and packed masks), and steps every table with the GIL released. `vncards.vector`
//! wraps it with gymnasium's conventions and the seeding of the PettingZoo environments.

use super::errors::to_py;
use super::flow::PyFlowRules;
use super::guard::{guard, guard_ok};
use super::maubinh::PyMauBinhRules;
use super::tusac_flow::PyTuSacRules;
use crate::error::Error;
use crate::vector::maubinh::MauBinhTable;
use crate::vector::shedding::SheddingTable;
use crate::vector::tusac::TuSacTable;
use crate::vector::{Batch, Game, Rows};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

/// Most tables one batch may hold (a few GB of observations at the most).
const MAX_ENVS: usize = 1 << 20;

/// The batch of one of the games.
enum AnyBatch {
    Shedding(Batch<SheddingTable>),
    TuSac(Batch<TuSacTable>),
    MauBinh(Batch<MauBinhTable>),
}

/// `$body` with `$b` bound to the batch, whatever its game.
macro_rules! with_batch {
    ($self:expr, $b:ident => $body:expr) => {
        match &mut $self.batch {
            AnyBatch::Shedding($b) => $body,
            AnyBatch::TuSac($b) => $body,
            AnyBatch::MauBinh($b) => $body,
        }
    };
}

/// The arrays a batch writes into, one row per table.
struct Arrays {
    obs: Py<PyArray2<f32>>,
    rewards: Py<PyArray2<f32>>,
    deal_rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i64>>,
    num_actions: Py<PyArray1<i64>>,
    mask: Py<PyArray2<u8>>,
}

impl Arrays {
    fn new<G: Game>(py: Python<'_>, b: &Batch<G>) -> Arrays {
        let n = b.len();
        let p = b.players();
        Arrays {
            obs: PyArray2::zeros(py, [n, b.observation_size()], false).unbind(),
            rewards: PyArray2::zeros(py, [n, p], false).unbind(),
            deal_rewards: PyArray2::zeros(py, [n, p], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            seat: PyArray1::zeros(py, n, false).unbind(),
            num_actions: PyArray1::zeros(py, n, false).unbind(),
            mask: PyArray2::zeros(py, [n, b.mask_bytes()], false).unbind(),
        }
    }
}

/// Borrows every array mutably and runs `f` on the rows (the GIL released when `detach`).
fn with_rows<R: Send>(
    py: Python<'_>,
    a: &Arrays,
    detach: bool,
    f: impl FnOnce(&mut Rows<'_>) -> R + Send,
) -> PyResult<R> {
    let mut obs = a.obs.bind(py).try_readwrite()?;
    let mut rewards = a.rewards.bind(py).try_readwrite()?;
    let mut deal = a.deal_rewards.bind(py).try_readwrite()?;
    let mut term = a.terminated.bind(py).try_readwrite()?;
    let mut trunc = a.truncated.bind(py).try_readwrite()?;
    let mut seat = a.seat.bind(py).try_readwrite()?;
    let mut nact = a.num_actions.bind(py).try_readwrite()?;
    let mut mask = a.mask.bind(py).try_readwrite()?;
    let slice_err = |e: numpy::AsSliceError| to_py(Error::Internal(e.to_string()));
    let mut rows = Rows {
        obs: obs.as_slice_mut().map_err(slice_err)?,
        rewards: rewards.as_slice_mut().map_err(slice_err)?,
        deal_rewards: deal.as_slice_mut().map_err(slice_err)?,
        terminated: term.as_slice_mut().map_err(slice_err)?,
        truncated: trunc.as_slice_mut().map_err(slice_err)?,
        seat: seat.as_slice_mut().map_err(slice_err)?,
        num_actions: nact.as_slice_mut().map_err(slice_err)?,
        mask: mask.as_slice_mut().map_err(slice_err)?,
    };
    Ok(if detach {
        py.detach(|| f(&mut rows))
    } else {
        f(&mut rows)
    })
}

/// Tables of one game stepped together (see `vncards.vector.VectorEnv`).
#[pyclass(module = "vncards._core", name = "VectorCore")]
pub struct PyVectorCore {
    batch: AnyBatch,
    arrays: Arrays,
}

fn check_envs(num_envs: usize) -> PyResult<()> {
    if num_envs == 0 || num_envs > MAX_ENVS {
        return Err(to_py(Error::Rules(format!(
            "num_envs must be 1..{MAX_ENVS}, not {num_envs}"
        ))));
    }
    Ok(())
}

impl PyVectorCore {
    /// `num_envs` copies of `table` in one batch, wrapped as its game's.
    fn new<G: Game>(
        py: Python<'_>,
        table: G,
        num_envs: usize,
        max_cycles: u32,
        wrap: fn(Batch<G>) -> AnyBatch,
    ) -> PyResult<PyVectorCore> {
        check_envs(num_envs)?;
        let batch = Batch::new(table, num_envs, max_cycles);
        let arrays = Arrays::new(py, &batch);
        Ok(PyVectorCore {
            batch: wrap(batch),
            arrays,
        })
    }
}

#[pymethods]
impl PyVectorCore {
    /// `num_envs` tables of a shedding game (Tiến Lên, Sâm Lốc) with these flow rules.
    #[staticmethod]
    fn shedding(
        py: Python<'_>,
        rules: &Bound<'_, PyFlowRules>,
        players: usize,
        num_envs: usize,
        max_cycles: u32,
    ) -> PyResult<PyVectorCore> {
        guard(|| {
            let table = SheddingTable::new(rules.get().0, players).map_err(to_py)?;
            PyVectorCore::new(py, table, num_envs, max_cycles, AnyBatch::Shedding)
        })
    }

    /// `num_envs` tables of Tứ Sắc with these rules (seat 0 deals every hand, as in the
    /// PettingZoo environment).
    #[staticmethod]
    fn tusac(
        py: Python<'_>,
        rules: &Bound<'_, PyTuSacRules>,
        players: usize,
        num_envs: usize,
        max_cycles: u32,
    ) -> PyResult<PyVectorCore> {
        guard(|| {
            let table = TuSacTable::new(rules.get().0, players).map_err(to_py)?;
            PyVectorCore::new(py, table, num_envs, max_cycles, AnyBatch::TuSac)
        })
    }

    /// `num_envs` tables of Mậu Binh with these rules.
    #[staticmethod]
    fn maubinh(
        py: Python<'_>,
        rules: &Bound<'_, PyMauBinhRules>,
        players: usize,
        num_envs: usize,
        max_cycles: u32,
    ) -> PyResult<PyVectorCore> {
        guard(|| {
            let table = MauBinhTable::new(rules.get().0, players).map_err(to_py)?;
            PyVectorCore::new(py, table, num_envs, max_cycles, AnyBatch::MauBinh)
        })
    }

    /// Tables in the batch.
    #[getter]
    fn num_envs(&mut self) -> PyResult<usize> {
        guard_ok(|| with_batch!(self, b => b.len()))
    }
    /// Seats at each table.
    #[getter]
    fn players(&mut self) -> PyResult<usize> {
        guard_ok(|| with_batch!(self, b => b.players()))
    }
    /// Length of one observation row.
    #[getter]
    fn observation_size(&mut self) -> PyResult<usize> {
        guard_ok(|| with_batch!(self, b => b.observation_size()))
    }
    /// Bytes of one packed action-mask row.
    #[getter]
    fn mask_bytes(&mut self) -> PyResult<usize> {
        guard_ok(|| with_batch!(self, b => b.mask_bytes()))
    }

    /// The arrays each call writes: obs, rewards, deal_rewards, terminated, truncated, seat,
    /// num_actions, action_mask (the same objects every call).
    #[getter]
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        guard_ok(|| {
            let a = &self.arrays;
            vec![
                a.obs.bind(py).clone().into_any(),
                a.rewards.bind(py).clone().into_any(),
                a.deal_rewards.bind(py).clone().into_any(),
                a.terminated.bind(py).clone().into_any(),
                a.truncated.bind(py).clone().into_any(),
                a.seat.bind(py).clone().into_any(),
                a.num_actions.bind(py).clone().into_any(),
                a.mask.bind(py).clone().into_any(),
            ]
        })
    }

    /// Drops every table's coming seeds and sets each table's action sampler.
    fn reseed(&mut self, samplers: Vec<u64>) -> PyResult<()> {
        guard(|| {
            with_batch!(self, b => {
                if samplers.len() != b.len() {
                    return Err(to_py(Error::Rules(format!(
                        "{} sampler seeds for {} tables",
                        samplers.len(),
                        b.len()
                    ))));
                }
                b.reseed(&samplers);
            });
            Ok(())
        })
    }

    /// Adds the seeds of table `i`'s coming hands (each below 2**63, as the PettingZoo
    /// environments draw them).
    fn add_seeds(&mut self, i: usize, seeds: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        guard(|| {
            let seeds: Vec<u64> = seeds
                .as_array()
                .iter()
                .map(|&s| u64::try_from(s))
                .collect::<Result<_, _>>()
                .map_err(|_| to_py(Error::Rules("seeds must be non-negative".into())))?;
            with_batch!(self, b => {
                if i >= b.len() {
                    return Err(to_py(Error::Rules(format!("no table {i} of {}", b.len()))));
                }
                b.add_seeds(i, &seeds);
            });
            Ok(())
        })
    }

    /// Tables holding fewer than `low` seeds, or waiting for seeds to deal.
    fn seeds_low(&mut self, low: usize) -> PyResult<Vec<usize>> {
        guard_ok(|| with_batch!(self, b => b.seeds_low(low)))
    }

    /// Deals every table a new hand (GIL released).
    fn reset(&mut self, py: Python<'_>) -> PyResult<()> {
        guard(|| {
            let arrays = &self.arrays;
            with_batch!(self, b => with_rows(py, arrays, true, |rows| b.reset(rows)))
        })
    }

    /// Steps every table with `actions` (int64, one per table): checked first (a bad index
    /// raises `IllegalMoveError`, nothing changes), then carried out with the GIL released.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        guard(|| {
            let actions = actions
                .as_slice()
                .map_err(|e| to_py(Error::Rules(format!("actions: {e}"))))?;
            let arrays = &self.arrays;
            with_batch!(self, b => {
                if actions.len() != b.len() {
                    return Err(to_py(Error::Rules(format!(
                        "{} actions for {} tables",
                        actions.len(),
                        b.len()
                    ))));
                }
                if let Err((i, a, n)) = b.check_actions(actions) {
                    return Err(to_py(Error::illegal(
                        "illegal_action",
                        format!("table {i}: action {a} is not a legal index (0..{})", n as i64 - 1),
                    )));
                }
                with_rows(py, arrays, true, |rows| b.step(actions, rows))
            })
        })
    }

    /// Carries on the resets that waited for seeds (after `add_seeds`).
    fn finish_resets(&mut self, py: Python<'_>) -> PyResult<()> {
        guard(|| {
            let arrays = &self.arrays;
            with_batch!(self, b => with_rows(py, arrays, false, |rows| b.finish_resets(rows)))
        })
    }

    /// A uniformly random legal action for every table (0 where none is legal), from each
    /// table's seeded sampler.
    fn sample<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        guard(|| {
            with_batch!(self, b => {
                let out = PyArray1::<i64>::zeros(py, b.len(), false);
                {
                    let mut w = out.try_readwrite()?;
                    let slice = w
                        .as_slice_mut()
                        .map_err(|e| to_py(Error::Internal(e.to_string())))?;
                    b.sample(slice);
                }
                Ok(out)
            })
        })
    }

    /// Table `i`'s current hand: `(seed, action indices so far)`.
    fn hand(&mut self, i: usize) -> PyResult<(u64, Vec<u32>)> {
        guard(|| {
            with_batch!(self, b => {
                let slot = b.slots.get(i).ok_or_else(|| {
                    to_py(Error::Rules(format!("no table {i} of {}", b.len())))
                })?;
                Ok((slot.hand_seed, slot.log.clone()))
            })
        })
    }

    /// Bytes the tables take (the batch's own memory, without the numpy arrays).
    #[getter]
    fn table_bytes(&mut self) -> PyResult<usize> {
        guard_ok(|| with_batch!(self, b => b.memory()))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorCore>()
}
