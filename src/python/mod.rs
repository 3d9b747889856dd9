//! The Python binding layer: every `#[pyclass]` and `#[pyfunction]` lives under this module and
//! nothing else in the crate imports PyO3. Game modules add a `register` function in a file of
//! their own here and one line in the module below.

use pyo3::prelude::*;

mod arrays;
mod cards;
mod encode;
mod errors;
mod flow;
mod guard;
mod maubinh;
mod policy;
mod rng;
mod rollout;
mod samloc;
mod search;
mod shedding;
mod table;
mod tusac;
mod tusac_flow;
mod vector;

#[allow(unused_imports)] // used by the game bindings
pub(crate) use cards::{cards_from_mask, mask_from_py};
#[allow(unused_imports)]
pub(crate) use errors::to_py;

/// The compiled Rust core of vncards: card sets, classification, move generation, solvers and
/// rollouts. Private: the Python modules wrap it with parsing, rules objects and typed errors.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    guard::register(m)?;
    cards::register(m)?;
    rng::register(m)?;
    shedding::register(m)?;
    flow::register(m)?;
    samloc::register(m)?;
    tusac::register(m)?;
    tusac_flow::register(m)?;
    maubinh::register(m)?;
    encode::register(m)?;
    rollout::register(m)?;
    vector::register(m)?;
    search::register(m)?;
    policy::register(m)?;
    Ok(())
}
