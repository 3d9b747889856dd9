//! What the learned policy reads: the seat's observation (the learning environments' own
//! writers, [`crate::encode::observation`]) and one feature row per legal action, in the
//! legal-action order of the environments.
//!
//! **Action rows.** Shedding games (Tiến Lên, Sâm Lốc): the 52 cards the play puts down, then
//! three flags: pass, declare Sâm (báo Sâm), decline. Tứ Sắc: the 28 kinds the action puts
//! down (copies / 4; a claim: the cards it uses from the hand and the offered card), then four
//! flags: discard, claim, win, pass.
//!
//! **Encoding identity.** [`Encoding::hash`] is a hash of what the writers produce on a fixed
//! probe view and fixed probe actions: a change of any writer changes it, so weights trained
//! on another encoding are refused instead of read wrongly.

use crate::encode::observation::{shedding, shedding_size, tusac, tusac_size};
use crate::encode::observation::{SheddingView, TuSacView};
use crate::error::Error;
use crate::tusac::cards::{Kind, KINDS};
use crate::tusac::flow::Action as TuSacAction;
use crate::vector::shedding::SheddingTable;
use crate::vector::tusac::TuSacTable;
use crate::vector::Game;

/// Width of a shedding action row: 52 cards, then pass, declare Sâm, decline.
pub const SHEDDING_ACTION: usize = 52 + 3;
/// Width of a Tứ Sắc action row: 28 kinds, then discard, claim, win, pass.
pub const TUSAC_ACTION: usize = KINDS + 4;
/// The version of the action rows and of this module's use of the observations.
pub const VERSION: u32 = 1;

/// The encoding a game's policy reads: its name, version, hash and sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    pub name: &'static str,
    pub version: u32,
    pub hash: u64,
    pub observation: usize,
    pub action: usize,
}

/// What one shedding action puts down: a play's cards, or a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheddingAct {
    Play(u64),
    Pass,
    Declare,
    Decline,
}

/// Writes the row of `act` into `out` (`SHEDDING_ACTION` long).
pub fn shedding_row(act: SheddingAct, out: &mut [f32]) {
    out[..SHEDDING_ACTION].fill(0.0);
    match act {
        SheddingAct::Play(mask) => {
            for (i, cell) in out[..52].iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    *cell = 1.0;
                }
            }
        }
        SheddingAct::Pass => out[52] = 1.0,
        SheddingAct::Declare => out[53] = 1.0,
        SheddingAct::Decline => out[54] = 1.0,
    }
}

/// What one Tứ Sắc action is: its kind (0 discard, 1 claim, 2 win, 3 pass) and the copies of
/// each kind it puts down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuSacAct {
    pub flag: usize,
    pub cards: [u8; KINDS],
}

/// Writes the row of `act` into `out` (`TUSAC_ACTION` long).
pub fn tusac_row(act: &TuSacAct, out: &mut [f32]) {
    for (cell, &c) in out[..KINDS].iter_mut().zip(&act.cards) {
        *cell = f32::from(c) / 4.0;
    }
    out[KINDS..TUSAC_ACTION].fill(0.0);
    out[KINDS + act.flag.min(3)] = 1.0;
}

/// The Tứ Sắc act of a flow action (`offer`: the offered card, which a claim takes).
pub fn tusac_act(action: &TuSacAction, offer: Option<Kind>) -> TuSacAct {
    let mut cards = [0u8; KINDS];
    let flag = match action {
        TuSacAction::Discard(k) => {
            cards[usize::from(k.index())] += 1;
            0
        }
        TuSacAction::Claim(_, used) => {
            for k in used.iter().chain(offer.iter()) {
                cards[usize::from(k.index())] += 1;
            }
            1
        }
        TuSacAction::Win => 2,
        TuSacAction::Pass => 3,
    };
    TuSacAct { flag, cards }
}

/// FNV-1a over the bits of `values`, continuing from `h`.
fn fnv(mut h: u64, values: &[f32]) -> u64 {
    for v in values {
        for b in v.to_bits().to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The hash of the shedding writers on a probe view (with or without Sâm Lốc's flag).
fn shedding_hash(players: usize, samloc: bool) -> u64 {
    let played: Vec<u64> = (0..players).map(|k| 0x0101_0101 << k).collect();
    let counts: Vec<u32> = (0..players).map(|k| 13 - k as u32).collect();
    let view = SheddingView {
        hand: 0x00f0_0f0f_f00f,
        table: 0b1110 << 20,
        must: 1,
        played: &played,
        counts: &counts,
        passed: 0b10,
        out: 0b100,
        to_act: 0b1,
        owner: 0b10,
        playing: samloc.then_some(true),
    };
    let mut obs = vec![0.0f32; shedding_size(players, samloc)];
    shedding(&view, &mut obs);
    let mut h = fnv(FNV_START ^ u64::from(VERSION), &obs);
    let mut row = [0.0f32; SHEDDING_ACTION];
    for act in [
        SheddingAct::Play(0b1011 << 40),
        SheddingAct::Pass,
        SheddingAct::Declare,
        SheddingAct::Decline,
    ] {
        shedding_row(act, &mut row);
        h = fnv(h, &row);
    }
    h
}

/// The hash of the Tứ Sắc writers on a probe view.
fn tusac_hash(players: usize) -> u64 {
    let mut hand = [0u8; KINDS];
    let mut dead = [0u8; KINDS];
    for k in 0..KINDS {
        hand[k] = (k % 5) as u8;
        dead[k] = (k % 3 == 0) as u8;
    }
    let exposed: Vec<[u8; KINDS]> = (0..players)
        .map(|s| {
            let mut row = [0u8; KINDS];
            row[s * 3] = 2;
            row
        })
        .collect();
    let counts: Vec<u32> = (0..players).map(|k| 20 - k as u32).collect();
    let view = TuSacView {
        hand: &hand,
        dead: &dead,
        offer: Some(7),
        exposed: &exposed,
        counts: &counts,
        pending: 0b101,
        offered_by: 0b10,
        stock: 31,
        claim: true,
    };
    let mut obs = vec![0.0f32; tusac_size(players)];
    tusac(&view, &mut obs);
    let mut h = fnv(FNV_START ^ u64::from(VERSION) ^ 0x7475, &obs);
    let mut row = [0.0f32; TUSAC_ACTION];
    for flag in 0..4 {
        let mut cards = [0u8; KINDS];
        cards[flag * 5] = 2;
        tusac_row(&TuSacAct { flag, cards }, &mut row);
        h = fnv(h, &row);
    }
    h
}

/// The encoding of `game` (a variant name: `tienlen`, `tienlen-north`, `samloc`, `tusac`) at a
/// table of `players` seats; a `RulesError` for a game the policy does not play.
pub fn encoding(game: &str, players: usize) -> Result<Encoding, Error> {
    let (lo, hi) = (2, 4); // every game the policy plays seats 2–4
    if !(lo..=hi).contains(&players) {
        return Err(Error::Rules(format!(
            "the policy plays {game} with {lo}–{hi} players, not {players}"
        )));
    }
    match game {
        "tienlen" | "tienlen-north" | "samloc" => {
            let samloc = game == "samloc";
            Ok(Encoding {
                name: if samloc {
                    "samloc-view"
                } else {
                    "tienlen-view"
                },
                version: VERSION,
                hash: shedding_hash(players, samloc),
                observation: shedding_size(players, samloc),
                action: SHEDDING_ACTION,
            })
        }
        "tusac" => Ok(Encoding {
            name: "tusac-view",
            version: VERSION,
            hash: tusac_hash(players),
            observation: tusac_size(players),
            action: TUSAC_ACTION,
        }),
        _ => Err(Error::Rules(format!(
            "no learned policy for {game:?} (games: tienlen, tienlen-north, samloc, tusac)"
        ))),
    }
}

/// A vector table the policy can play: the action rows of the seat to act.
pub trait Learnable: Game {
    /// Width of one action row.
    fn action_size(&self) -> usize;
    /// Appends one row per legal action of the seat to act, in the legal-action order.
    fn action_rows(&self, out: &mut Vec<f32>);
}

impl Learnable for SheddingTable {
    fn action_size(&self) -> usize {
        SHEDDING_ACTION
    }

    fn action_rows(&self, out: &mut Vec<f32>) {
        let f = self.flow();
        let Some(seat) = f.turn else { return };
        if f.over {
            return;
        }
        let mut push = |act| {
            let at = out.len();
            out.resize(at + SHEDDING_ACTION, 0.0);
            shedding_row(act, &mut out[at..]);
        };
        if f.member.phase {
            push(SheddingAct::Declare);
            push(SheddingAct::Decline);
            return;
        }
        let mut plays = Vec::new();
        f.legal_plays_into(seat, &mut plays);
        for c in &plays {
            push(SheddingAct::Play(c.cards.0));
        }
        if f.table.is_some() {
            push(SheddingAct::Pass);
        }
    }
}

impl Learnable for TuSacTable {
    fn action_size(&self) -> usize {
        TUSAC_ACTION
    }

    fn action_rows(&self, out: &mut Vec<f32>) {
        let Some(seat) = self.seat() else { return };
        let f = self.flow();
        let offer = f.offer.map(|o| o.card);
        for a in f.legal_actions(seat) {
            let at = out.len();
            out.resize(at + TUSAC_ACTION, 0.0);
            tusac_row(&tusac_act(&a, offer), &mut out[at..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_differ_by_game_and_table_size() {
        let a = encoding("tienlen", 4).unwrap();
        let b = encoding("samloc", 4).unwrap();
        let c = encoding("tienlen", 3).unwrap();
        assert_eq!(a, encoding("tienlen-north", 4).unwrap());
        assert_ne!(a.hash, b.hash);
        assert_ne!(a.hash, c.hash);
        assert_eq!(b.observation, a.observation + 1);
        assert!(encoding("maubinh", 4).is_err());
        assert!(encoding("tienlen", 5).is_err());
        assert_eq!(encoding("tusac", 4).unwrap().action, TUSAC_ACTION);
    }

    #[test]
    fn rows_mark_cards_and_flags() {
        let mut row = [9.0f32; SHEDDING_ACTION];
        shedding_row(SheddingAct::Play(0b101), &mut row);
        assert_eq!(row.iter().sum::<f32>(), 2.0);
        shedding_row(SheddingAct::Pass, &mut row);
        assert_eq!((row[52], row.iter().sum::<f32>()), (1.0, 1.0));
    }
}
