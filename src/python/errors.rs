//! Maps the core [`Error`] onto the Python exception hierarchy defined in `vncards.errors`.

use crate::error::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The Python exception for a core error (exhaustive over the enum).
pub(crate) fn to_py(err: Error) -> PyErr {
    Python::attach(|py| match build(py, &err) {
        Ok(e) => e,
        Err(e) => e,
    })
}

fn build(py: Python<'_>, err: &Error) -> PyResult<PyErr> {
    let module = py.import("vncards.errors")?;
    let message = err.to_string();
    let instance = match err {
        Error::InvalidCard {
            token, position, ..
        } => {
            let kwargs = PyDict::new(py);
            kwargs.set_item("token", token)?;
            kwargs.set_item("position", position)?;
            module
                .getattr("InvalidCardError")?
                .call((message,), Some(&kwargs))?
        }
        Error::IllegalMove { reason, .. } => module
            .getattr("IllegalMoveError")?
            .call1((*reason, message))?,
        Error::Rules(_) => module.getattr("RulesError")?.call1((message,))?,
        Error::Snapshot(_) => module.getattr("SnapshotError")?.call1((message,))?,
        Error::Internal(_) => module.getattr("InternalError")?.call1((message,))?,
    };
    Ok(PyErr::from_value(instance))
}
