//! Tứ Sắc as vector tables: the Tứ Sắc flow ([`crate::tusac::flow`]) with the legal-action list
//! of the PettingZoo environment (the first pending seat's discards, then win at the opening;
//! or its answers: win, claims, pass) and its observation.

use super::{Game, MAX_SEATS as MAX};
use crate::encode::observation::{tusac, tusac_size, TuSacView};
use crate::rng::Rng;
use crate::rollout::tusac::greedy_action;
use crate::table::Discard;
use crate::tusac::cards::KINDS;
use crate::tusac::flow::{Action, Flow, Phase, Rules, MAX_SEATS};

/// The most legal actions of a Tứ Sắc seat (21 discards + win; see `vncards.integrations.spaces`).
pub const ACTION_BOUND: usize = 22;

/// One Tứ Sắc table: its flow and the legal list of the seat to act.
#[derive(Clone, Debug)]
pub struct TuSacTable {
    flow: Flow,
    seat: Option<usize>,
    /// The pending seats (bit set).
    pending: u32,
    actions: Vec<Action>,
}

impl TuSacTable {
    pub fn new(rules: Rules, players: usize) -> Result<TuSacTable, crate::Error> {
        Ok(TuSacTable {
            flow: Flow::new(rules, players, 0)?,
            seat: None,
            pending: 0,
            actions: Vec::new(),
        })
    }

    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    /// The legal actions of the seat to act, in the legal-action order (empty when nobody is
    /// to act).
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The `greedy` bot's choice for the seat to act (an index of the legal list), the
    /// rollouts' greedy ([`greedy_action`]); `None` when nobody is to act. Self-play's greedy
    /// seats play it.
    pub fn greedy_action(&self) -> Option<usize> {
        greedy_action(&self.flow, self.seat?, &self.actions)
    }

    fn refresh(&mut self) {
        let pending = self.flow.pending();
        self.seat = pending.first();
        self.pending = pending.bits();
        self.actions = match self.seat {
            Some(s) => self.flow.legal_actions(s),
            None => Vec::new(),
        };
    }
}

impl Game for TuSacTable {
    fn players(&self) -> usize {
        self.flow.players
    }

    fn observation_size(&self) -> usize {
        tusac_size(self.flow.players)
    }

    fn action_bound(&self) -> usize {
        ACTION_BOUND
    }

    fn deal(&mut self, mut rng: Rng) {
        self.flow.start(&mut rng, &mut Discard);
        self.refresh();
    }

    fn is_over(&self) -> bool {
        self.flow.phase == Phase::Over
    }

    fn totals(&self) -> [i32; MAX] {
        let mut out = [0; MAX];
        out[..MAX_SEATS].copy_from_slice(&self.flow.totals);
        out
    }

    fn seat(&self) -> Option<usize> {
        self.seat
    }

    fn num_actions(&self) -> usize {
        self.actions.len()
    }

    fn apply(&mut self, index: usize) {
        let seat = self.seat.expect("a seat to act");
        let action = self.actions[index].clone();
        self.flow
            .act(seat, &action, &mut Discard)
            .expect("a legal action of the seat to act");
        self.refresh();
    }

    fn heap_bytes(&self) -> usize {
        let f = &self.flow;
        let exposed: usize = f
            .exposed
            .iter()
            .map(|e| e.capacity() * 32 + e.len() * 4)
            .sum();
        f.stock.capacity() + f.dead.capacity() + exposed + self.actions.capacity() * 40
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let f = &self.flow;
        let n = f.players;
        let mut hand = [0u8; KINDS];
        hand.copy_from_slice(&f.hands[seat].0);
        let mut dead = [0u8; KINDS];
        for k in &f.dead {
            dead[usize::from(k.index())] += 1;
        }
        let mut exposed = [[0u8; KINDS]; MAX_SEATS];
        let mut counts = [0u32; MAX_SEATS];
        let (mut pending, mut offered_by) = (0u32, 0u32);
        for k in 0..n {
            let s = (seat + k) % n;
            for (_, cards) in &f.exposed[s] {
                for c in cards {
                    exposed[k][usize::from(c.index())] += 1;
                }
            }
            counts[k] = f.hands[s].len();
            pending |= (self.pending >> s & 1) << k;
            offered_by |= u32::from(f.offer.is_some_and(|o| o.seat == s)) << k;
        }
        let view = TuSacView {
            hand: &hand,
            dead: &dead,
            offer: f.offer.map(|o| o.card.index()),
            exposed: &exposed[..n],
            counts: &counts[..n],
            pending,
            offered_by,
            stock: f.stock.len(),
            claim: f.phase == Phase::Claim,
        };
        tusac(&view, out);
    }
}
