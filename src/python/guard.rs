//! The last line of defence of every binding: a Rust panic becomes `vncards.InternalError` (a
//! `VncardsError`), never PyO3's `PanicException`, which derives from `BaseException` and so
//! slips past a server's `except Exception`. Entries are meant to be panic-free by
//! construction (inputs are validated where they enter); this only turns a bug into a typed,
//! catchable error. Every `#[pyfunction]` and `#[pymethods]` body runs inside [`guard`]
//! (`tests/test_hardening.py` checks the sources).

use super::errors::to_py;
use crate::error::Error;
use pyo3::PyResult;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs a binding's body; a panic inside it (or inside the rayon tasks and GIL-free sections it
/// waits for) is returned as `InternalError("internal error: …")`.
#[inline]
pub(crate) fn guard<T>(body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => Err(to_py(Error::Internal(panic_text(payload.as_ref())))),
    }
}

/// [`guard`] for a body that cannot fail other than by panicking.
#[inline]
pub(crate) fn guard_ok<T>(body: impl FnOnce() -> T) -> PyResult<T> {
    guard(|| Ok(body()))
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic in the Rust core".to_string()
    }
}

/// Panics on purpose inside a guarded entry (on a rayon thread without the GIL with
/// `in_threads`), so the tests can check that the boundary turns it into `InternalError`.
#[pyo3::pyfunction]
#[pyo3(signature = (message, in_threads = false))]
fn debug_panic(py: pyo3::Python<'_>, message: String, in_threads: bool) -> PyResult<()> {
    guard(|| {
        if in_threads {
            use rayon::prelude::*;
            py.detach(|| {
                (0..4u8).into_par_iter().for_each(|i| {
                    if i == 3 {
                        panic!("{message}");
                    }
                })
            });
            Ok(())
        } else {
            panic!("{message}")
        }
    })
}

pub(super) fn register(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> PyResult<()> {
    use pyo3::prelude::*;
    m.add_function(pyo3::wrap_pyfunction!(debug_panic, m)?)
}
