//! What the learned policy reads: the seat's observation (the learning environments' own
//! writers, [`crate::encode::observation`]) and one feature row per legal action, in the
//! legal-action order of the environments.
//!
//! **Action rows.** Shedding games (Tiến Lên, Sâm Lốc): the 52 cards the play puts down, then
//! three flags: pass, declare Sâm (báo Sâm), decline. Tứ Sắc: the 28 kinds the action puts
//! down (copies / 4; a claim: the cards it uses from the hand and the offered card), then four
//! flags: discard, claim, win, pass, then [`TUSAC_MELD`] cells of what the action leaves the
//! hand, read by the meld decomposition ([`crate::tusac::min_rac`]; see [`tusac_meld_cells`]).
//! Tứ Sắc's choices hang on which held cards make melds; a network reading only counts of kinds
//! learns that slowly (distilling `greedy` from those rows stalled at 1.01 nats of
//! cross-entropy), so the rows give it the melds' arithmetic, the `greedy` bot's own criteria
//! among them: a network can represent `greedy` exactly and learn from there.
//!
//! The meld cells are computed from the seat's observation alone ([`TuSacContext`] decodes
//! the hand, the cards in sight and the offer from it), so a row, like the observation, reads
//! nothing the seat cannot see.
//!
//! **Encoding identity.** [`Encoding::hash`] is a hash of what the writers produce on a fixed
//! probe view and fixed probe actions: a change of any writer changes it, so weights trained
//! on another encoding are refused instead of read wrongly.

use crate::encode::observation::{shedding, shedding_size, tusac, tusac_size};
use crate::encode::observation::{SheddingView, TuSacView};
use crate::error::Error;
use crate::tusac::cards::{Hand, Kind, KINDS};
use crate::tusac::flow::Action as TuSacAction;
use crate::tusac::min_rac;
use crate::vector::shedding::SheddingTable;
use crate::vector::tusac::TuSacTable;
use crate::vector::Game;

/// Width of a shedding action row: 52 cards, then pass, declare Sâm, decline.
pub const SHEDDING_ACTION: usize = 52 + 3;
/// Cells of what a Tứ Sắc action leaves the hand (see [`tusac_meld_cells`]).
pub const TUSAC_MELD: usize = 8;
/// Width of a Tứ Sắc action row: 28 kinds, then discard, claim, win, pass, then the meld cells.
pub const TUSAC_ACTION: usize = KINDS + 4 + TUSAC_MELD;
/// The version of the shedding games' action rows and of this module's use of their
/// observations.
pub const VERSION: u32 = 1;
/// The version of Tứ Sắc's action rows (2: the meld cells) and of the use of its observation.
pub const TUSAC_VERSION: u32 = 2;

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

/// What a Tứ Sắc seat's observation says that the meld cells need: its concealed hand, the
/// copies of each kind in its sight (its hand, the dead pile and every seat's exposed melds,
/// as the `greedy` bot counts them), the offered card, and the hand's fewest rác now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuSacContext {
    pub hand: Hand,
    pub seen: [u8; KINDS],
    pub offer: Option<Kind>,
    pub rac: u32,
}

/// The copies a cell of a Tứ Sắc observation holds (`copies / 4`), 0–4.
fn copies(cell: f32) -> u8 {
    (cell * 4.0).round().clamp(0.0, 4.0) as u8
}

impl TuSacContext {
    /// The context of a Tứ Sắc observation ([`crate::encode::observation::tusac`]: the hand,
    /// dead pile, offer and per-seat exposed rows, then per-seat cells whose count gives the
    /// table size).
    pub fn from_observation(obs: &[f32]) -> TuSacContext {
        let players = obs.len().saturating_sub(3 * KINDS + 2) / (KINDS + 3);
        let mut hand = Hand::EMPTY;
        let mut seen = [0u8; KINDS];
        let mut offer = None;
        for k in 0..KINDS {
            hand.0[k] = copies(obs[k]);
            let exposed: u8 = (0..players).map(|s| copies(obs[(3 + s) * KINDS + k])).sum();
            seen[k] = (hand.0[k] + copies(obs[KINDS + k]) + exposed).min(4);
            if obs[2 * KINDS + k] > 0.0 {
                offer = Kind::from_index(k as u8);
            }
        }
        TuSacContext {
            hand,
            seen,
            offer,
            rac: min_rac(&hand),
        }
    }

    /// Copies of `k` the seat has not seen (not in its sight, not on offer).
    fn unseen(&self, k: usize) -> u32 {
        let offered = u8::from(self.offer.is_some_and(|o| usize::from(o.index()) == k));
        u32::from(4u8.saturating_sub(self.seen[k] + offered))
    }

    /// `(fewest rác after, copies in sight, kind)` of the best non-Tướng discard from `h` (the
    /// `greedy` bot's pick after a claim: fewest rác, then most copies in sight); `None`
    /// when `h` holds only Tướng.
    fn best_discard(&self, h: &Hand) -> Option<(u32, u8, Kind)> {
        let mut best: Option<(u32, u8, Kind)> = None;
        for (i, &c) in h.0.iter().enumerate() {
            let Some(k) = Kind::from_index(i as u8) else {
                continue;
            };
            if c == 0 || k.is_general() {
                continue;
            }
            let mut after = *h;
            after.take(k);
            let cand = (min_rac(&after), self.seen[i], k);
            if best.map_or(true, |b| {
                (cand.0, -i32::from(cand.1)) < (b.0, -i32::from(b.1))
            }) {
                best = Some(cand);
            }
        }
        best
    }

    /// `(improving, completing)`: the unseen copies of the kinds that, joining `h` (whose
    /// fewest rác is `rac`), would leave fewer rác than it has, and those that would leave none.
    fn outs(&self, h: &Hand, rac: u32) -> (u32, u32) {
        let (mut better, mut done) = (0, 0);
        for i in 0..KINDS {
            let live = self.unseen(i);
            if live == 0 || h.0[i] >= 4 {
                continue;
            }
            let mut with = *h;
            with.0[i] += 1;
            let r = min_rac(&with);
            if r < rac {
                better += live;
            }
            if r == 0 {
                done += live;
            }
        }
        (better, done)
    }
}

/// The meld cells of `act` in the position `ctx` (`TUSAC_MELD` long), from the hand the action
/// leaves: for a discard the hand without the card; for a claim the hand without the cards it
/// uses and without the discard `greedy` would make next (the claim's discard is a decision of
/// its own); for a pass the hand as it is; a win has no cells.
///
/// 0. fewest rác after it / 8 (for a claim: after the claim and that discard; for a pass: now),
///    the `greedy` bot's first criterion;
/// 1. that minus the fewest rác now, / 4;
/// 2. copies of the discarded card in sight / 4 (a claim: of the discard after it), `greedy`'s
///    last criterion;
/// 3. the discard is a Tướng (the tỳ), `greedy`'s second;
/// 4. the fewest rác now / 8;
/// 5. unseen copies of the kinds that would lower the rác of the hand left / 16;
/// 6. unseen copies of the kinds that would leave it no rác / 8;
/// 7. the cards a claim uses from the hand / 3.
///
/// Rank the actions by cells 0, 3 then 2 (a pass after every claim of its rác) and you have
/// `greedy`'s choice: a linear score the network can represent exactly.
pub fn tusac_meld_cells(ctx: &TuSacContext, act: &TuSacAct, out: &mut [f32]) {
    out[..TUSAC_MELD].fill(0.0);
    // `left_rac`: the fewest rác of `left`, which `outs` starts from (each arm has it already).
    let (rac, seen, general, left, left_rac, used) = match act.flag {
        0 => {
            let Some(k) = (0..KINDS).find(|&k| act.cards[k] > 0) else {
                return;
            };
            let mut left = ctx.hand;
            left.0[k] = left.0[k].saturating_sub(1);
            let kind = Kind::from_index(k as u8).expect("a kind");
            let rac = min_rac(&left);
            (rac, ctx.seen[k], kind.is_general(), left, rac, 0)
        }
        1 => {
            let mut used = Hand(act.cards);
            if let Some(o) = ctx.offer {
                used.take(o);
            }
            let mut left = ctx.hand;
            for (a, b) in left.0.iter_mut().zip(used.0) {
                *a = a.saturating_sub(b);
            }
            let n = used.len();
            match ctx.best_discard(&left) {
                Some((rac, seen, k)) => {
                    left.take(k);
                    (rac, seen, false, left, rac, n)
                }
                None => (left.len() + 1, 0, false, left, min_rac(&left), n),
            }
        }
        3 => (ctx.rac, 0, false, ctx.hand, ctx.rac, 0),
        _ => return,
    };
    let (better, done) = ctx.outs(&left, left_rac);
    out[0] = rac as f32 / 8.0;
    out[1] = (rac as f32 - ctx.rac as f32) / 4.0;
    out[2] = f32::from(seen) / 4.0;
    out[3] = f32::from(u8::from(general));
    out[4] = ctx.rac as f32 / 8.0;
    out[5] = better as f32 / 16.0;
    out[6] = done as f32 / 8.0;
    out[7] = used as f32 / 3.0;
}

/// Writes the row of `act` in the position `ctx` into `out` (`TUSAC_ACTION` long).
pub fn tusac_row(ctx: &TuSacContext, act: &TuSacAct, out: &mut [f32]) {
    for (cell, &c) in out[..KINDS].iter_mut().zip(&act.cards) {
        *cell = f32::from(c) / 4.0;
    }
    out[KINDS..KINDS + 4].fill(0.0);
    out[KINDS + act.flag.min(3)] = 1.0;
    tusac_meld_cells(ctx, act, &mut out[KINDS + 4..TUSAC_ACTION]);
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
    let mut h = fnv(FNV_START ^ u64::from(TUSAC_VERSION) ^ 0x7475, &obs);
    let ctx = TuSacContext::from_observation(&obs);
    let mut row = [0.0f32; TUSAC_ACTION];
    for flag in 0..4 {
        let mut cards = [0u8; KINDS];
        cards[flag * 5 + 1] = 1 + u8::from(flag == 1);
        tusac_row(&ctx, &TuSacAct { flag, cards }, &mut row);
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
            version: TUSAC_VERSION,
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
pub trait Learnable: Game + GreedySeat {
    /// Width of one action row.
    fn action_size(&self) -> usize;
    /// Appends one row per legal action of the seat to act, in the legal-action order.
    fn action_rows(&self, out: &mut Vec<f32>);
}

/// A vector table whose seats the `greedy` bot can play in Rust (self-play's greedy seats).
/// Each is the table's own: Tiến Lên's [`SheddingTable::greedy_action`], Tứ Sắc's
/// [`TuSacTable::greedy_action`] (the rollouts' greedy, `crate::rollout::tusac`, which the
/// search's rollouts play too). The impls sit here, beside the trait: the tables and the
/// rollouts sit below the policy and read neither it nor the search.
pub trait GreedySeat {
    /// The `greedy` bot's choice for the seat to act (an index of the legal list), where the
    /// game has it in Rust (Tiến Lên, Tứ Sắc); `None` elsewhere (Sâm Lốc) or when nobody is
    /// to act.
    fn greedy(&self) -> Option<usize> {
        None
    }
}

impl GreedySeat for SheddingTable {
    fn greedy(&self) -> Option<usize> {
        self.greedy_action()
    }
}

impl GreedySeat for TuSacTable {
    fn greedy(&self) -> Option<usize> {
        self.greedy_action()
    }
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
        // The meld cells read the seat's observation, as the network does.
        let mut obs = vec![0.0f32; self.observation_size()];
        self.observe(seat, &mut obs);
        let ctx = TuSacContext::from_observation(&obs);
        for a in f.legal_actions(seat) {
            let at = out.len();
            out.resize(at + TUSAC_ACTION, 0.0);
            tusac_row(&ctx, &tusac_act(&a, offer), &mut out[at..]);
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
    fn tusac_context_reads_the_seats_observation_and_discard_cells_its_melds() {
        use crate::rng::Rng;
        use crate::tusac::flow::Rules;
        use crate::vector::seed_key;
        let mut t = TuSacTable::new(Rules::default(), 4).unwrap();
        t.deal(Rng::from_key(seed_key(3)));
        let seat = t.seat().unwrap();
        let mut obs = vec![0.0f32; t.observation_size()];
        t.observe(seat, &mut obs);
        let ctx = TuSacContext::from_observation(&obs);
        let hand = t.flow().hands[seat];
        assert_eq!(ctx.hand, hand);
        assert_eq!(ctx.seen, hand.0); // nothing dead or exposed at the opening discard
        assert_eq!((ctx.offer, ctx.rac), (None, min_rac(&hand)));
        let mut rows = Vec::new();
        t.action_rows(&mut rows);
        assert_eq!(rows.len(), t.num_actions() * TUSAC_ACTION);
        for (row, a) in rows
            .chunks_exact(TUSAC_ACTION)
            .zip(t.flow().legal_actions(seat))
        {
            if let TuSacAction::Discard(k) = a {
                let mut left = hand;
                left.take(k);
                assert_eq!(row[KINDS + 4], min_rac(&left) as f32 / 8.0);
                assert_eq!(row[KINDS + 7], f32::from(u8::from(k.is_general())));
            }
        }
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
