//! The learned policy: a small network that scores each legal action of a seat from its view
//! (deep Monte-Carlo, as DouZero), evaluated in plain Rust at play time ([`net`]), the feature
//! rows it reads ([`features`]) and the self-play that trains it ([`selfplay`]).

pub mod features;
pub mod net;
pub mod selfplay;

pub use features::{encoding, Encoding, Learnable};
pub use net::{Header, Net};
pub use selfplay::{scores_batch, selfplay, Opponents, Samples};
