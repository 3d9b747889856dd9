//! The shedding-game family (Tiến Lên Miền Nam/Bắc, Sâm Lốc): combinations, beating, bombs,
//! move generation and the flow of a hand ([`flow`]), parameterised by [`Rules`] data. Each
//! game keeps only its presets and its own tables (instant wins, payments) in its own module.

pub mod combo;
pub mod flow;
pub mod moves;
pub mod patterns;
pub mod penalty;
pub mod rules;

pub use combo::{beats, classify, is_cut, Combo, Kind};
pub use flow::{Flow, FlowRules, Variant};
pub use moves::{check_play, has_play, legal_plays, legal_plays_into, PlayFilter};
pub use rules::Rules;
