//! Batched environments for learners: many tables of one game stepped in one call, each step
//! carried out by the game's own flow (the same rules the Python games run), across chunks of
//! tables in parallel (rayon).
//!
//! A [`Batch`] holds the tables and what a learner's step loop needs besides the game: the
//! seeds of each table's coming hands, a sampler for random legal actions, the actions of the
//! current hand (so a table can be rebuilt as an ordinary game) and the autoreset state. Every
//! call writes its results into caller-owned rows ([`Rows`]): the observation of one seat,
//! the rewards of every seat, terminated / truncated flags, the seat observed, the number of
//! legal actions and the packed action mask.
//!
//! Conventions (those of gymnasium's vector environments, next-step autoreset):
//!
//! - a table whose hand ended at the last step (terminated, or truncated after `max_cycles`
//!   steps) starts its next hand at this step: its action is ignored, its reward is 0 and the
//!   row shows the new hand;
//! - the reward row of a table is the hand's settlement on the step that ends the hand, 0
//!   otherwise, and sums to zero;
//! - a hand that ends at the deal (an instant win) asks nothing of anybody: the table deals its
//!   next hand at once, and that hand's settlement is added to the table's `deal_rewards` row of
//!   this call (0 otherwise), so no money is lost from the record;
//! - the seat observed is the seat to act; on the step that ends a hand, the seat that just
//!   acted (no action is legal: the mask is empty).
//!
//! A table deals each hand from its next seed (a ChaCha20 stream keyed by the seed's 8 bytes,
//! little-endian: the same deal as the Python game with `seed=that int`). When a table runs
//! out of seeds in a reset, it waits (`waiting`) until [`Batch::add_seeds`] and
//! [`Batch::finish_resets`] let it go on: seeds come from outside, so that a Python caller can
//! draw them exactly as the PettingZoo environments draw theirs.

pub mod maubinh;
pub mod shedding;
pub mod tusac;

use crate::rng::Rng;
use crate::rollout::FastRng as Sampler;
use rayon::prelude::*;
use std::collections::VecDeque;

/// Most seats a vector table may have (every game's largest table).
pub const MAX_SEATS: usize = 5;

/// One table of one game, as a batch drives it.
pub trait Game: Clone + Send + Sync {
    fn players(&self) -> usize;
    /// Length of one observation.
    fn observation_size(&self) -> usize;
    /// A bound on the number of legal actions (the action space).
    fn action_bound(&self) -> usize;
    /// Starts a new hand dealt from `rng` (kept for the hand's later draws).
    fn deal(&mut self, rng: Rng);
    fn is_over(&self) -> bool;
    /// Units won per seat in this hand.
    fn totals(&self) -> [i32; MAX_SEATS];
    /// The seat to act, if any.
    fn seat(&self) -> Option<usize>;
    /// The number of legal actions of the seat to act (0 when the hand is over).
    fn num_actions(&self) -> usize;
    /// Carries out legal action `index` (`index < num_actions()`) of the seat to act.
    fn apply(&mut self, index: usize);
    /// `seat`'s observation, into `out` (`observation_size()` long).
    fn observe(&self, seat: usize, out: &mut [f32]);
    /// Heap bytes the table holds besides itself.
    fn heap_bytes(&self) -> usize;
}

/// The key of the deal of a game seeded with `seed` (an int seed's 32 little-endian bytes).
pub fn seed_key(seed: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key
}

/// One table and its bookkeeping.
#[derive(Clone, Debug)]
pub struct Slot<G> {
    pub game: G,
    /// Seeds of the coming hands, next first.
    seeds: VecDeque<u64>,
    /// The seed of the current hand.
    pub hand_seed: u64,
    /// The action indices taken in the current hand.
    pub log: Vec<u32>,
    sampler: Sampler,
    steps: u32,
    /// The hand ended (or was truncated) at the last step: the next step deals a new one.
    done: bool,
    /// A reset is waiting for seeds.
    pub waiting: bool,
    /// The seat of the observation row.
    observer: usize,
    /// Mask bits set in the row now (the mask is a prefix of ones).
    shown: usize,
    /// Settlements of the hands that ended at the deal, in the reset now under way.
    deal_totals: [i32; MAX_SEATS],
}

/// Caller-owned output rows of a batch call (one row per table, row-major). The mask rows must
/// be those of the batch's previous call (zeros before the first): only the bytes that change
/// are written.
pub struct Rows<'a> {
    pub obs: &'a mut [f32],
    pub rewards: &'a mut [f32],
    pub deal_rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub seat: &'a mut [i64],
    pub num_actions: &'a mut [i64],
    pub mask: &'a mut [u8],
}

/// Output rows owned by the caller of a Rust loop (tests, benchmarks, a Rust learner).
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    pub obs: Vec<f32>,
    pub rewards: Vec<f32>,
    pub deal_rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub seat: Vec<i64>,
    pub num_actions: Vec<i64>,
    pub mask: Vec<u8>,
}

impl Outputs {
    /// Zeroed rows for every table of `batch`.
    pub fn new<G: Game>(batch: &Batch<G>) -> Outputs {
        let n = batch.len();
        Outputs {
            obs: vec![0.0; n * batch.observation_size()],
            rewards: vec![0.0; n * batch.players()],
            deal_rewards: vec![0.0; n * batch.players()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            seat: vec![0; n],
            num_actions: vec![0; n],
            mask: vec![0; n * batch.mask_bytes()],
        }
    }

    /// The rows, for a batch call.
    pub fn rows(&mut self) -> Rows<'_> {
        Rows {
            obs: &mut self.obs,
            rewards: &mut self.rewards,
            deal_rewards: &mut self.deal_rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            seat: &mut self.seat,
            num_actions: &mut self.num_actions,
            mask: &mut self.mask,
        }
    }
}

/// One table's part of [`Rows`].
struct Row<'a> {
    obs: &'a mut [f32],
    rewards: &'a mut [f32],
    deal_rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    seat: &'a mut i64,
    num_actions: &'a mut i64,
    mask: &'a mut [u8],
}

/// A batch of tables of one game.
#[derive(Clone, Debug)]
pub struct Batch<G> {
    pub slots: Vec<Slot<G>>,
    players: usize,
    obs_size: usize,
    mask_bytes: usize,
    max_cycles: u32,
}

/// Tables per parallel task: enough work per task to pay for the scheduling.
const CHUNK: usize = 32;

/// Bytes of a packed mask of `bound` actions.
pub const fn mask_bytes(bound: usize) -> usize {
    bound.div_ceil(8)
}

impl<G: Game> Batch<G> {
    /// `num_envs` copies of `table` (not dealt yet: call [`Batch::reset`]); `max_cycles`
    /// steps truncate a hand.
    pub fn new(table: G, num_envs: usize, max_cycles: u32) -> Batch<G> {
        let slot = Slot {
            game: table.clone(),
            seeds: VecDeque::new(),
            hand_seed: 0,
            log: Vec::new(),
            sampler: Sampler::new(0),
            steps: 0,
            done: true,
            waiting: false,
            observer: 0,
            shown: 0,
            deal_totals: [0; MAX_SEATS],
        };
        Batch {
            slots: vec![slot; num_envs],
            players: table.players(),
            obs_size: table.observation_size(),
            mask_bytes: mask_bytes(table.action_bound()),
            max_cycles: max_cycles.max(1),
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    pub fn players(&self) -> usize {
        self.players
    }
    pub fn observation_size(&self) -> usize {
        self.obs_size
    }
    pub fn mask_bytes(&self) -> usize {
        self.mask_bytes
    }

    /// Bytes the tables take: each slot and what it holds on the heap.
    pub fn memory(&self) -> usize {
        self.slots
            .iter()
            .map(|s| {
                std::mem::size_of::<Slot<G>>()
                    + s.seeds.capacity() * 8
                    + s.log.capacity() * 4
                    + s.game.heap_bytes()
            })
            .sum()
    }

    /// Drops every table's coming seeds and sets its sampler.
    pub fn reseed(&mut self, samplers: &[u64]) {
        for (slot, &s) in self.slots.iter_mut().zip(samplers) {
            slot.seeds.clear();
            slot.sampler = Sampler::new(s);
        }
    }

    /// Adds seeds of coming hands to table `i`.
    pub fn add_seeds(&mut self, i: usize, seeds: &[u64]) {
        self.slots[i].seeds.extend(seeds.iter().copied());
    }

    /// Tables holding fewer than `low` seeds (or waiting for some).
    pub fn seeds_low(&self, low: usize) -> Vec<usize> {
        (0..self.slots.len())
            .filter(|&i| self.slots[i].waiting || self.slots[i].seeds.len() < low)
            .collect()
    }

    /// Checks `actions` (one per table) before a step: each table that is not about to deal a
    /// new hand needs an index below its number of legal actions. The first bad table and
    /// action, if any.
    pub fn check_actions(&self, actions: &[i64]) -> Result<(), (usize, i64, usize)> {
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            if slot.done || slot.waiting {
                continue;
            }
            let n = slot.game.num_actions();
            if a < 0 || a as u64 >= n as u64 {
                return Err((i, a, n));
            }
        }
        Ok(())
    }

    fn rows<'a>(&self, rows: &'a mut Rows<'_>) -> Vec<Row<'a>> {
        let (d, p, m) = (self.obs_size, self.players, self.mask_bytes);
        let mut out = Vec::with_capacity(self.slots.len());
        let mut obs = rows.obs.chunks_mut(d);
        let mut rewards = rows.rewards.chunks_mut(p);
        let mut deal = rows.deal_rewards.chunks_mut(p);
        let mut mask = rows.mask.chunks_mut(m);
        let mut term = rows.terminated.iter_mut();
        let mut trunc = rows.truncated.iter_mut();
        let mut seat = rows.seat.iter_mut();
        let mut nact = rows.num_actions.iter_mut();
        for _ in 0..self.slots.len() {
            out.push(Row {
                obs: obs.next().expect("an observation row per table"),
                rewards: rewards.next().expect("a reward row per table"),
                deal_rewards: deal.next().expect("a deal-reward row per table"),
                terminated: term.next().expect("a flag per table"),
                truncated: trunc.next().expect("a flag per table"),
                seat: seat.next().expect("a seat per table"),
                num_actions: nact.next().expect("a count per table"),
                mask: mask.next().expect("a mask row per table"),
            });
        }
        out
    }

    fn check_rows(&self, rows: &Rows<'_>) {
        let n = self.slots.len();
        assert!(
            rows.obs.len() == n * self.obs_size
                && rows.rewards.len() == n * self.players
                && rows.deal_rewards.len() == n * self.players
                && rows.terminated.len() == n
                && rows.truncated.len() == n
                && rows.seat.len() == n
                && rows.num_actions.len() == n
                && rows.mask.len() == n * self.mask_bytes,
            "output rows do not fit the batch"
        );
    }

    /// Deals every table a new hand; results into `rows` (rewards 0). Tables left waiting for
    /// seeds are listed by [`Batch::seeds_low`].
    pub fn reset(&mut self, rows: &mut Rows<'_>) {
        self.check_rows(rows);
        let max_cycles = self.max_cycles;
        let mut out = self.rows(rows);
        self.slots
            .par_iter_mut()
            .zip(out.par_iter_mut())
            .with_min_len(CHUNK)
            .for_each(|(slot, row)| {
                slot.done = true;
                slot.deal_totals = [0; MAX_SEATS];
                slot.step(None, max_cycles, row);
            });
    }

    /// One step of every table: `actions[i]` for table `i` (ignored by a table dealing its next
    /// hand). Check them first with [`Batch::check_actions`]: a bad index panics.
    pub fn step(&mut self, actions: &[i64], rows: &mut Rows<'_>) {
        self.check_rows(rows);
        assert_eq!(actions.len(), self.slots.len(), "one action per table");
        let max_cycles = self.max_cycles;
        let mut out = self.rows(rows);
        self.slots
            .par_iter_mut()
            .zip(out.par_iter_mut())
            .zip(actions.par_iter())
            .with_min_len(CHUNK)
            .for_each(|((slot, row), &a)| {
                slot.deal_totals = [0; MAX_SEATS];
                slot.step(Some(a as usize), max_cycles, row);
            });
    }

    /// Carries on the resets that waited for seeds (after [`Batch::add_seeds`]), writing
    /// their rows; the step's other rows are left as they are.
    pub fn finish_resets(&mut self, rows: &mut Rows<'_>) {
        self.check_rows(rows);
        let max_cycles = self.max_cycles;
        let mut out = self.rows(rows);
        for (slot, row) in self.slots.iter_mut().zip(out.iter_mut()) {
            if slot.waiting {
                slot.step(None, max_cycles, row);
            }
        }
    }

    /// A uniformly random legal action of each table (0 for a table with none), from each
    /// table's own sampler.
    pub fn sample(&mut self, out: &mut [i64]) {
        for (slot, a) in self.slots.iter_mut().zip(out.iter_mut()) {
            let n = slot.game.num_actions();
            *a = if slot.done || slot.waiting || n == 0 {
                0
            } else {
                slot.sampler.below(n) as i64
            };
        }
    }
}

impl<G: Game> Slot<G> {
    /// One step: deal the next hand if the last one is done (or `action` is None), else carry
    /// `action` out; then fill `row`.
    fn step(&mut self, action: Option<usize>, max_cycles: u32, row: &mut Row<'_>) {
        *row.terminated = false;
        *row.truncated = false;
        row.rewards.fill(0.0);
        match action {
            Some(a) if !self.done && !self.waiting => {
                let seat = self.game.seat().unwrap_or(0);
                self.log.push(a as u32);
                self.game.apply(a);
                self.steps += 1;
                if self.game.is_over() {
                    *row.terminated = true;
                    let totals = self.game.totals();
                    for (r, &t) in row.rewards.iter_mut().zip(&totals) {
                        *r = t as f32;
                    }
                } else if self.steps >= max_cycles {
                    *row.truncated = true;
                }
                self.done = *row.terminated || *row.truncated;
                self.observer = if self.done {
                    seat
                } else {
                    self.game.seat().unwrap_or(seat)
                };
            }
            _ => {
                if !self.deal_next() {
                    self.write_deal_rewards(row);
                    return;
                }
            }
        }
        self.write_deal_rewards(row);
        self.show(row);
    }

    /// Deals hands until one asks for an action; false when it runs out of seeds first.
    fn deal_next(&mut self) -> bool {
        loop {
            let Some(seed) = self.seeds.pop_front() else {
                self.waiting = true;
                return false;
            };
            self.waiting = false;
            self.hand_seed = seed;
            self.log.clear();
            self.steps = 0;
            self.game.deal(Rng::from_key(seed_key(seed)));
            if self.game.is_over() {
                let totals = self.game.totals();
                for (d, t) in self.deal_totals.iter_mut().zip(totals) {
                    *d += t;
                }
                continue;
            }
            self.done = false;
            self.observer = self.game.seat().unwrap_or(0);
            return true;
        }
    }

    fn write_deal_rewards(&self, row: &mut Row<'_>) {
        for (r, &t) in row.deal_rewards.iter_mut().zip(&self.deal_totals) {
            *r = t as f32;
        }
    }

    /// The observation, the seat, the action count and the mask (a prefix of ones: only the
    /// bytes between the old and the new count change).
    fn show(&mut self, row: &mut Row<'_>) {
        self.game.observe(self.observer, row.obs);
        *row.seat = self.observer as i64;
        let n = if self.done {
            0
        } else {
            self.game.num_actions()
        };
        *row.num_actions = n as i64;
        set_prefix(row.mask, self.shown, n);
        self.shown = n;
    }
}

/// Turns a packed little-endian bit row holding `old` leading ones into one holding `new`
/// (only the bytes between the two counts are written).
fn set_prefix(mask: &mut [u8], old: usize, new: usize) {
    if old == new {
        return;
    }
    let full = new / 8;
    let first = old.min(new) / 8;
    let last = old.max(new).div_ceil(8).min(mask.len());
    for (b, byte) in mask[first..last].iter_mut().enumerate() {
        let b = first + b;
        *byte = match b.cmp(&full) {
            std::cmp::Ordering::Less => 0xFF,
            std::cmp::Ordering::Equal => ((1u16 << (new % 8)) - 1) as u8,
            std::cmp::Ordering::Greater => 0,
        };
    }
}

#[cfg(test)]
mod tests;
