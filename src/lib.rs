//! vncards core: rules engines for Vietnamese card games.
//!
//! Pure Rust; the Python bindings live in [`python`] behind the `python` feature, so
//! `cargo test` and `cargo bench` run without Python.

pub mod cards;
pub mod encode;
pub mod error;
pub mod family;
pub mod maubinh;
pub mod policy;
pub mod rng;
pub mod rollout;
pub mod samloc;
pub mod search;
pub mod shedding;
pub mod table;
pub mod tienlen;
pub mod tusac;
pub mod vector;

#[cfg(feature = "python")]
mod python;

#[cfg(test)]
mod fuzz;

pub use cards::{Card, CardSet};
pub use error::{Error, Result};
