//! Tứ Sắc (four colours): the 112-card deck, meld decomposition, scoring, claim legality and
//! the flow of a hand ([`flow`]), which `vncards.tusac.Game` runs.

pub mod cards;
pub mod claims;
pub mod flow;
pub mod melds;

pub use cards::{parse_card, parse_cards, parse_hand, Hand, Kind};
pub use claims::{check_claim, legal_claims, offered_claims, priority, rac_kinds, BungRule, Claim};
pub use melds::{
    classify, complete_lenh, complete_lenh_with, min_rac, min_rac_splits, win_total, Meld,
    MeldKind, OddTotal, Scoring,
};
