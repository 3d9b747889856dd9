//! The shedding-game family (Tiến Lên Miền Nam/Bắc, Sâm Lốc): combinations, beating, bombs
//! and move generation, parameterised by [`Rules`] data. Each game keeps only its presets and
//! its own tables (instant wins, payments) in its own module.

pub mod combo;
pub mod moves;
pub mod patterns;
pub mod rules;

pub use combo::{beats, classify, is_cut, Combo, Kind};
pub use moves::{has_play, legal_plays, legal_plays_into, PlayFilter};
pub use rules::Rules;

#[cfg(test)]
mod tests;
