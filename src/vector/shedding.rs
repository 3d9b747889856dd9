//! The shedding games (Tiến Lên, Sâm Lốc) as vector tables: the shared flow
//! ([`crate::shedding::flow`]) with the legal-action list of the PettingZoo environments (the
//! seat's plays in the move generator's order, then pass when a table is open; in Sâm Lốc's
//! declarations: declare, decline) and their observation.

use super::{Game, MAX_SEATS};
use crate::encode::observation::{shedding, shedding_size, SheddingView};
use crate::family::{Flow, FlowRules, House};
use crate::rng::Rng;
use crate::rollout::{greedy_choice, sets_aside_two_finish, Context};
use crate::shedding::flow::{Discard, FinishOnTwo};
use crate::shedding::Combo;

/// Action bound of Tiến Lên (13-card hands: 2^13 − 1 plays and a pass) and Sâm Lốc (10 cards).
pub const fn action_bound(hand_size: u8) -> usize {
    1 << hand_size
}

/// One shedding table: its flow, the deal's stream and the legal list of the seat to act.
#[derive(Clone, Debug)]
pub struct SheddingTable {
    flow: Flow,
    rng: Rng,
    plays: Vec<Combo>,
    actions: usize,
}

impl SheddingTable {
    pub fn new(rules: FlowRules, players: usize) -> Result<SheddingTable, crate::Error> {
        Ok(SheddingTable {
            flow: Flow::new(rules, players)?,
            rng: Rng::from_key([0; 32]),
            plays: Vec::new(),
            actions: 0,
        })
    }

    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    /// The legal list of the seat to act, cached.
    fn refresh(&mut self) {
        let f = &self.flow;
        match f.turn {
            _ if f.over => {
                self.plays.clear();
                self.actions = 0;
            }
            Some(_) if f.member.phase => {
                self.plays.clear();
                self.actions = 2;
            }
            Some(seat) => {
                f.legal_plays_into(seat, &mut self.plays);
                self.actions = self.plays.len() + usize::from(f.table.is_some());
            }
            None => self.actions = 0,
        }
    }

    /// The `greedy` bot's choice (`vncards.bots.shedding.TienLenGreedyBot`) for the seat to
    /// act, as an index of the legal list, in Tiến Lên; `None` in Sâm Lốc (whose greedy bot
    /// also decides Sâm by sampling deals) or when nobody is to act. As the bot does: a play
    /// that would empty the hand with a 2 where that is not allowed is set aside while another
    /// play (or, on a table, a pass) is open; then the rollouts' greedy policy
    /// ([`greedy_choice`]) chooses, its `None` being a pass (or, leading, the first play).
    pub fn greedy_action(&self) -> Option<usize> {
        let f = &self.flow;
        let seat = f.turn.filter(|_| !f.over && !self.is_samloc())?;
        let hand = f.hands[seat];
        let can_pass = f.table.is_some();
        let pass = self.plays.len();
        let spare_two = f.finish_on_two() != FinishOnTwo::Allowed
            && sets_aside_two_finish(hand, &self.plays, can_pass);
        let kept: Vec<usize> = (0..self.plays.len())
            .filter(|&i| !spare_two || self.plays[i].cards != hand)
            .collect();
        if kept.is_empty() {
            return Some(if can_pass { pass } else { 0 });
        }
        let plays: Vec<Combo> = kept.iter().map(|&i| self.plays[i]).collect();
        let min_other = (0..f.players)
            .filter(|&s| s != seat && f.out >> s & 1 == 0)
            .map(|s| f.hands[s].len())
            .min()
            .unwrap_or(99);
        let ctx = Context {
            min_other,
            can_pass,
            finish_on_two: f.finish_on_two() == FinishOnTwo::Allowed,
        };
        Some(match greedy_choice(hand, &plays, f.table.as_ref(), ctx) {
            Some(i) => kept[i],
            None if can_pass => pass,
            None => kept[0],
        })
    }

    pub(crate) fn is_samloc(&self) -> bool {
        matches!(self.flow.rules.house, House::SamLoc(_))
    }
}

impl Game for SheddingTable {
    fn players(&self) -> usize {
        self.flow.players
    }

    fn observation_size(&self) -> usize {
        shedding_size(self.flow.players, self.is_samloc())
    }

    fn action_bound(&self) -> usize {
        action_bound(self.flow.rules.combos.hand_size)
    }

    fn deal(&mut self, rng: Rng) {
        self.rng = rng;
        self.flow.start(&mut self.rng, &mut Discard);
        self.refresh();
    }

    fn is_over(&self) -> bool {
        self.flow.over
    }

    fn totals(&self) -> [i32; MAX_SEATS] {
        self.flow.hand_totals
    }

    fn seat(&self) -> Option<usize> {
        self.flow.turn
    }

    fn num_actions(&self) -> usize {
        self.actions
    }

    fn apply(&mut self, index: usize) {
        let f = &mut self.flow;
        let seat = f.turn.expect("a seat to act");
        if f.member.phase {
            let done = if index == 0 {
                f.declare_sam(seat, &mut self.rng, &mut Discard)
            } else {
                f.decline_sam(seat, &mut self.rng, &mut Discard)
            };
            done.expect("a declaration by the seat to act");
        } else if index < self.plays.len() {
            f.do_play(seat, self.plays[index], &mut Discard);
        } else {
            f.do_pass(seat, &mut Discard);
        }
        self.refresh();
    }

    fn heap_bytes(&self) -> usize {
        self.plays.capacity() * std::mem::size_of::<Combo>()
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let f = &self.flow;
        let n = f.players;
        let mut played = [0u64; MAX_SEATS];
        let mut counts = [0u32; MAX_SEATS];
        let (mut passed, mut out_bits, mut to_act, mut owner) = (0u32, 0u32, 0u32, 0u32);
        for k in 0..n {
            let s = (seat + k) % n;
            played[k] = f.played[s].0;
            counts[k] = f.hands[s].len();
            passed |= u32::from(f.passed >> s & 1) << k;
            out_bits |= u32::from(f.out >> s & 1) << k;
            to_act |= u32::from(f.turn == Some(s)) << k;
            owner |= u32::from(f.table.is_some() && f.table_seat == Some(s)) << k;
        }
        let view = SheddingView {
            hand: f.hands[seat].0,
            table: f.table.map_or(0, |t| t.cards.0),
            must: if f.turn == Some(seat) { f.must.0 } else { 0 },
            played: &played[..n],
            counts: &counts[..n],
            passed,
            out: out_bits,
            to_act,
            owner,
            playing: self.is_samloc().then_some(!f.over && !f.member.phase),
        };
        shedding(&view, out);
    }
}
