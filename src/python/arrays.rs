//! numpy is optional (the `numpy` extra): the game engines never need it, only the batch
//! functions that hand back arrays. Those call [`require`] first, which imports numpy once and,
//! when it is missing, raises `ModuleNotFoundError` (`name="numpy"`) saying which function needs
//! it and how to install it, instead of the numpy crate's panic. Functions that *accept* an
//! array look for one only when numpy is already imported ([`loaded`]): no array can exist
//! before, so without numpy a list of hands goes straight to the iterable path.

use pyo3::exceptions::{PyImportError, PyModuleNotFoundError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// Set once numpy has been imported in this process.
static NUMPY: PyOnceLock<()> = PyOnceLock::new();

/// Ok when numpy is importable (importing it the first time); otherwise a
/// `ModuleNotFoundError` naming `what` (the public function that returns an array) and the extra.
pub(super) fn require(py: Python<'_>, what: &str) -> PyResult<()> {
    if NUMPY.get(py).is_some() {
        return Ok(());
    }
    match py.import("numpy") {
        Ok(_) => {
            let _ = NUMPY.set(py, ());
            Ok(())
        }
        Err(e) if e.is_instance_of::<PyImportError>(py) => {
            let err = PyModuleNotFoundError::new_err(format!(
                "{what} returns a numpy array, and numpy is not installed: \
                 pip install 'vncards[numpy]'"
            ));
            err.value(py).setattr("name", "numpy")?;
            err.set_cause(py, Some(e));
            Err(err)
        }
        Err(e) => Err(e),
    }
}

/// True when numpy is imported already, so that an argument may be a numpy array.
pub(super) fn loaded(py: Python<'_>) -> bool {
    if NUMPY.get(py).is_some() {
        return true;
    }
    let imported = py
        .import("sys")
        .and_then(|sys| sys.getattr("modules"))
        .and_then(|modules| modules.get_item("numpy"))
        .is_ok_and(|module| !module.is_none());
    if imported {
        let _ = NUMPY.set(py, ());
    }
    imported
}
