//! The shedding family's members as one type chosen at run time: [`House`] is the
//! [`Variant`] of a table whose game (Tiến Lên or Sâm Lốc) is known only when the table is made
//! (the Python games, the vector environment). Each hook dispatches to the member's own
//! function ([`crate::tienlen::flow`], [`crate::samloc::flow`]); the shared flow
//! ([`crate::shedding::flow`]) knows neither. A new shedding game implements [`Variant`] in its
//! own module and gets a variant here.

use crate::cards::CardSet;
use crate::error::Error;
use crate::samloc::flow::{self as samloc, SamState};
use crate::shedding::flow::{self as shedding, Draw, FinishOnTwo, Record, Seats, Variant};
use crate::shedding::{Combo, PlayFilter};
use crate::tienlen::flow as tienlen;

/// The game whose flow a table runs, with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    TienLen(tienlen::Options),
    SamLoc(samloc::Options),
}

/// A shedding table of either game.
pub type Flow = shedding::Flow<House>;
/// The flow rules of either game.
pub type FlowRules = shedding::FlowRules<House>;

/// A member's flow rules as those of a table of either game.
pub fn rules<V: Variant + Into<House>>(rules: shedding::FlowRules<V>) -> FlowRules {
    FlowRules {
        combos: rules.combos,
        house: rules.house.into(),
    }
}

impl From<tienlen::Options> for House {
    fn from(o: tienlen::Options) -> House {
        House::TienLen(o)
    }
}

impl From<samloc::Options> for House {
    fn from(o: samloc::Options) -> House {
        House::SamLoc(o)
    }
}

impl Variant for House {
    /// Sâm Lốc's (Tiến Lên leaves it at its default).
    type State = SamState;

    fn after_deal(f: &mut Flow, draw: &mut impl Draw, rec: &mut impl Record) {
        match f.rules.house {
            House::TienLen(o) => tienlen::after_deal(f, &o, rec),
            House::SamLoc(_) => samloc::after_deal(f, draw, rec),
        }
    }
    fn lead_card(f: &Flow) -> CardSet {
        match f.rules.house {
            House::TienLen(o) => tienlen::lead_card(f, &o),
            House::SamLoc(_) => CardSet::EMPTY,
        }
    }
    fn first_leader(f: &Flow, draw: &mut impl Draw) -> (usize, CardSet) {
        match f.rules.house {
            House::TienLen(o) => tienlen::first_leader(f, &o, draw),
            House::SamLoc(_) => samloc::first_leader(f),
        }
    }
    fn ranked_ending(&self) -> bool {
        matches!(self, House::TienLen(o) if o.ranked)
    }
    fn finish_on_two(f: &Flow) -> FinishOnTwo {
        match f.rules.house {
            House::TienLen(o) => o.finish_on_two,
            House::SamLoc(o) => samloc::finish_on_two(f, &o),
        }
    }
    fn after_pass_filter(&self, table: Option<&Combo>) -> Option<PlayFilter> {
        match self {
            House::TienLen(o) => tienlen::after_pass_filter(o, table),
            House::SamLoc(_) => None,
        }
    }
    fn cut_value(&self, table: &Combo) -> u32 {
        match self {
            House::TienLen(o) => o.penalties.cut_value(table),
            House::SamLoc(_) => samloc::cut_value(table),
        }
    }
    fn plays_closed(f: &Flow) -> bool {
        f.member.phase
    }
    fn refuse_turn(f: &Flow) -> Result<(), Error> {
        samloc::refuse_in_declarations(f)
    }
    fn filter_plays(f: &Flow, seat: usize, plays: &mut Vec<Combo>) {
        if let House::SamLoc(o) = f.rules.house {
            samloc::filter_plays(f, &o, seat, plays);
        }
    }
    fn check_play(f: &Flow, seat: usize, combo: &Combo) -> Result<(), Error> {
        match f.rules.house {
            House::SamLoc(o) => samloc::check_play(f, &o, seat, combo),
            House::TienLen(_) => Ok(()),
        }
    }
    fn on_play(f: &mut Flow, seat: usize, combo: &Combo, rec: &mut impl Record) {
        if let House::SamLoc(o) = f.rules.house {
            samloc::on_play(f, &o, seat, combo, rec);
        }
    }
    fn on_pass(f: &mut Flow, seat: usize) {
        samloc::on_pass(f, seat);
    }
    fn settle_finish_on_two(f: &mut Flow, seat: usize, combo: &Combo, rec: &mut impl Record) {
        match f.rules.house {
            House::TienLen(o) => tienlen::settle_finish_on_two(f, &o, seat, combo, rec),
            House::SamLoc(_) => samloc::settle_finish_on_two(f, seat, combo, rec),
        }
    }
    fn settle_first_out(f: &mut Flow, winner: usize, combo: &Combo, rec: &mut impl Record) {
        match f.rules.house {
            House::TienLen(o) => tienlen::settle_first_out(f, &o, winner, combo, rec),
            House::SamLoc(o) => samloc::settle_first_out(f, &o, winner, rec),
        }
    }
    fn settle_ranked(f: &mut Flow, order: &Seats, rec: &mut impl Record) {
        if let House::TienLen(o) = f.rules.house {
            tienlen::settle_ranked(f, &o, order, rec);
        }
    }
}

#[cfg(test)]
mod tests;
