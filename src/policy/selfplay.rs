//! Self-play for deep Monte-Carlo learning (DouZero's method): every seat of a table plays the
//! current network (the best-scored action, or with probability `epsilon` a uniformly random
//! legal one), and every decision with a choice is kept as a sample: the seat's observation,
//! the row of the action it took, and the units the seat won in the end (the Monte-Carlo
//! return the network learns to predict).
//!
//! Seats may instead be played by the `greedy` bot or by a frozen network (an earlier or a
//! shipped one: a league), a bit per seat and hand for each ([`Opponents`]): they learn
//! nothing, so their decisions give no samples, but the learner's returns are then those of a
//! table with these opponents. A frozen network plays as the `policy` bot does (its best-scored
//! action, reading its own seat's observation only), in Rust, in the same parallel pass.
//!
//! Hands are independent and each draws from its own seed, so the samples are the same
//! whatever the number of threads, in the order of the seeds.

use super::features::Learnable;
use super::net::Net;
use crate::rng::Rng;
use crate::rollout::FastRng;
use crate::vector::seed_key;
use rayon::prelude::*;

/// The samples of a batch of hands, row-major.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub obs: Vec<f32>,
    pub actions: Vec<f32>,
    pub returns: Vec<f32>,
    /// Hands played out, and those cut at the step cap (whose samples are dropped).
    pub hands: usize,
    pub truncated: usize,
    /// Decisions made (with or without a choice).
    pub decisions: usize,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.returns.len()
    }
    pub fn is_empty(&self) -> bool {
        self.returns.is_empty()
    }
}

/// Who plays the seats the learner does not, hand by hand: empty slices (or `None`) for
/// nobody, else one bit mask per hand (seat `s` is bit `s`), the two masks disjoint.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opponents<'a> {
    /// The seats [`Learnable::greedy`] plays (the caller checks the game has it).
    pub greedy: &'a [u8],
    /// A frozen network and the seats it plays.
    pub frozen: Option<(&'a Net, &'a [u8])>,
}

/// Plays one hand of `proto`'s game dealt from `seed`, the seats of `greedy_seats` (bits)
/// played by [`Learnable::greedy`], those of `frozen`'s mask by its network.
fn hand<G: Learnable>(
    proto: &G,
    net: &Net,
    seed: u64,
    greedy_seats: u8,
    frozen: Option<(&Net, u8)>,
    epsilon: f64,
    max_steps: usize,
) -> Samples {
    let mut g = proto.clone();
    g.deal(Rng::from_key(seed_key(seed)));
    let mut rng = FastRng::new(seed ^ 0x5eed_da7a_0f5e_1f00);
    let d = g.observation_size();
    let a = g.action_size();
    let mut obs = vec![0.0f32; d];
    let mut rows = Vec::new();
    let mut scratch = Vec::new();
    let mut out = Samples {
        hands: 1,
        ..Samples::default()
    };
    let mut seats = Vec::new();
    let mut steps = 0;
    while !g.is_over() {
        let Some(seat) = g.seat() else { break };
        let n = g.num_actions();
        if n == 0 || steps >= max_steps {
            break;
        }
        steps += 1;
        out.decisions += 1;
        if n == 1 {
            g.apply(0);
            continue;
        }
        if greedy_seats >> seat & 1 == 1 {
            g.apply(g.greedy().expect("a game with a greedy player in Rust"));
            continue;
        }
        g.observe(seat, &mut obs);
        rows.clear();
        g.action_rows(&mut rows);
        debug_assert_eq!(rows.len(), n * a);
        if let Some((other, mask)) = frozen {
            if mask >> seat & 1 == 1 {
                g.apply(other.choose(&obs, &rows, &mut scratch));
                continue;
            }
        }
        let pick = if epsilon > 0.0 && rng.unit() < epsilon {
            rng.below(n)
        } else {
            net.choose(&obs, &rows, &mut scratch)
        };
        out.obs.extend_from_slice(&obs);
        out.actions
            .extend_from_slice(&rows[pick * a..(pick + 1) * a]);
        seats.push(seat);
        g.apply(pick);
    }
    if !g.is_over() {
        return Samples {
            hands: 1,
            truncated: 1,
            decisions: out.decisions,
            ..Samples::default()
        };
    }
    let totals = g.totals();
    out.returns = seats.iter().map(|&s| totals[s] as f32).collect();
    out
}

/// Plays a hand from each of `seeds` (in parallel) and gathers their samples in seed order.
/// `opponents`: the seats of each hand that the `greedy` bot or a frozen network plays (every
/// seat plays the learner's network where both are empty).
pub fn selfplay<G: Learnable>(
    proto: &G,
    net: &Net,
    seeds: &[u64],
    opponents: Opponents<'_>,
    epsilon: f64,
    max_steps: usize,
) -> Samples {
    let greedy_seats = opponents.greedy;
    assert!(greedy_seats.is_empty() || greedy_seats.len() == seeds.len());
    if let Some((_, masks)) = opponents.frozen {
        assert!(masks.is_empty() || masks.len() == seeds.len());
    }
    let parts: Vec<Samples> = seeds
        .par_iter()
        .enumerate()
        .map(|(i, &s)| {
            let greedy = greedy_seats.get(i).copied().unwrap_or(0);
            let frozen = opponents
                .frozen
                .map(|(other, masks)| (other, masks.get(i).copied().unwrap_or(0)));
            hand(proto, net, s, greedy, frozen, epsilon, max_steps)
        })
        .collect();
    let mut all = Samples::default();
    for p in parts {
        all.obs.extend(p.obs);
        all.actions.extend(p.actions);
        all.returns.extend(p.returns);
        all.hands += p.hands;
        all.truncated += p.truncated;
        all.decisions += p.decisions;
    }
    all
}

/// Scores many positions at once (in parallel): position `i` has observation row `i` of `obs`
/// and the action rows `offsets[i]..offsets[i + 1]` of `actions`; one score per action row.
pub fn scores_batch(net: &Net, obs: &[f32], actions: &[f32], offsets: &[usize]) -> Vec<f32> {
    let d = net.observation_size();
    let a = net.action_size();
    let parts: Vec<Vec<f32>> = (0..offsets.len().saturating_sub(1))
        .into_par_iter()
        .map(|i| {
            let mut out = Vec::new();
            net.scores(
                &obs[i * d..(i + 1) * d],
                &actions[offsets[i] * a..offsets[i + 1] * a],
                &mut out,
            );
            out
        })
        .collect();
    parts.concat()
}
