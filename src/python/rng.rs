//! `Rng`: the deterministic ChaCha20 shuffle stream for Python.

use super::errors::to_py;
use super::guard::{guard, guard_ok};
use crate::error::Error;
use crate::rng::Rng;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

/// Longest permutation `Rng.permutation` draws (decks have 52 or 112 cards).
const MAX_PERMUTATION: usize = 1 << 20;
/// Furthest restorable stream position: no snapshot gets near it, and the word counter can
/// never overflow after it.
const MAX_POSITION: u64 = 1 << 62;

/// A ChaCha20 stream for deals and random choices. `Rng(None)` is keyed from the OS CSPRNG;
/// `Rng(seed)` with an int `0 <= seed < 2**256` (32 bytes little-endian) or up to 32 bytes
/// (zero-padded) gives the same stream on every platform and version.
#[pyclass(module = "vncards", name = "Rng")]
pub struct PyRng(pub(super) Rng);

fn key_from_seed(seed: &Bound<'_, PyAny>) -> PyResult<[u8; 32]> {
    let mut key = [0u8; 32];
    if let Ok(b) = seed.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        if bytes.len() > 32 {
            return Err(to_py(Error::Rules(
                "a bytes seed has at most 32 bytes".into(),
            )));
        }
        key[..bytes.len()].copy_from_slice(bytes);
        return Ok(key);
    }
    let as_int = seed
        .call_method0("__index__")
        .map_err(|_| to_py(Error::Rules("seed must be an int, bytes, or None".into())))?;
    // 0 <= seed < 2**256, without evaluating Python code (a seeded Rng is made per game).
    let negative = as_int.lt(0)?;
    let bits: u32 = as_int.call_method0("bit_length")?.extract()?;
    if negative || bits > 256 {
        return Err(to_py(Error::Rules(
            "an int seed must satisfy 0 <= seed < 2**256".into(),
        )));
    }
    let bytes = as_int.call_method1("to_bytes", (32, "little"))?;
    key.copy_from_slice(bytes.cast::<PyBytes>()?.as_bytes());
    Ok(key)
}

#[pymethods]
impl PyRng {
    #[new]
    #[pyo3(signature = (seed = None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyRng> {
        guard(|| match seed {
            None => Rng::from_os().map(PyRng).map_err(to_py),
            Some(s) => Ok(PyRng(Rng::from_key(key_from_seed(s)?))),
        })
    }

    /// The stream at a saved `(key, position)`, as stored in snapshots.
    #[staticmethod]
    fn restore(key: &[u8], position: u64) -> PyResult<PyRng> {
        guard(|| {
            let key: [u8; 32] = key
                .try_into()
                .map_err(|_| to_py(Error::Snapshot("rng key must be 32 bytes".into())))?;
            if position > MAX_POSITION {
                return Err(to_py(Error::Snapshot(format!(
                    "rng position must be at most {MAX_POSITION}, not {position}"
                ))));
            }
            Ok(PyRng(Rng::restore(key, position)))
        })
    }

    /// The 32-byte key (keep it private: it determines every later draw).
    #[getter]
    fn key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        guard_ok(|| PyBytes::new(py, &self.0.key()))
    }
    /// Words drawn so far.
    #[getter]
    fn position(&self) -> PyResult<u64> {
        guard_ok(|| self.0.position())
    }
    /// A uniform integer in `0..n`.
    fn below(&mut self, n: u32) -> PyResult<u32> {
        guard(|| {
            if n == 0 {
                return Err(to_py(Error::Rules("below(n) needs n >= 1".into())));
            }
            Ok(self.0.below(n))
        })
    }
    /// A uniform random permutation of `range(n)` (Fisher–Yates).
    fn permutation(&mut self, n: usize) -> PyResult<Vec<u32>> {
        guard(|| {
            if n > MAX_PERMUTATION {
                return Err(to_py(Error::Rules(format!(
                    "permutation(n) takes n <= {MAX_PERMUTATION}, not {n}"
                ))));
            }
            Ok(self.0.permutation(n))
        })
    }
    /// A uniform random element of a sequence.
    fn choice<'py>(&mut self, seq: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        guard(|| {
            let n = seq.len()?;
            if n == 0 || n > u32::MAX as usize {
                return Err(to_py(Error::Rules(
                    "choice() needs a non-empty sequence".into(),
                )));
            }
            seq.get_item(self.0.below(n as u32))
        })
    }
    fn __repr__(&self) -> PyResult<String> {
        guard_ok(|| format!("Rng(position={})", self.0.position()))
    }
    /// Pickling (and `copy`): the key, then the position as state; a copy draws on alone.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        guard(|| {
            let py = slf.py();
            let rng = &slf.borrow().0;
            let key = PyBytes::new(py, &rng.key());
            (py.get_type::<PyRng>(), (key,), rng.position()).into_pyobject(py)
        })
    }
    fn __setstate__(&mut self, position: u64) -> PyResult<()> {
        guard_ok(|| self.0 = Rng::restore(self.0.key(), position))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRng>()
}
