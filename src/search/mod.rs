//! Search for the bots of every game: candidate moves raced over sampled determinisations.
//!
//! A search bot lists its candidate moves, then repeats: draw one determinisation (a deal of
//! the cards it cannot see, weighted by what the other seats have shown), score every candidate
//! still in the race on it (a rollout, or a settlement), and from time to time drop the
//! candidates whose paired score differences against the leader say, with confidence, that
//! they are worse (successive elimination over common random numbers). The budget is a
//! number of rollouts (a decision is then a pure function of the position and the seed) or a
//! deadline (`think_ms`), whichever ends first.
//!
//! The games plug in through [`Trial`]: [`shedding`] (Tiến Lên, Sâm Lốc, with the Sâm plan in
//! [`sam`]), [`tusac`] and [`maubinh`]. The shedding games also have a tree search over the
//! same deals ([`tree`], information-set MCTS), which looks past the root's next play.

use std::time::Instant;

pub mod guide;
pub mod infer;
pub mod maubinh;
pub mod sam;
pub mod shedding;
pub mod tree;
pub mod tusac;

/// How much a decision may spend: rollouts (candidate × determinisation evaluations), and
/// optionally a wall-clock deadline. The search stops at whichever comes first.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub rollouts: u64,
    pub deadline: Option<Instant>,
}

impl Budget {
    /// A budget of `rollouts` evaluations and no deadline.
    pub const fn rollouts(rollouts: u64) -> Budget {
        Budget {
            rollouts,
            deadline: None,
        }
    }

    pub(crate) fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// One game's determinisations and candidate evaluations.
pub trait Trial {
    /// Draws the next determinisation (the one every [`Trial::play`] until the next draw uses).
    fn draw(&mut self);
    /// The root seat's score for candidate `c` on the current determinisation.
    fn play(&mut self, c: usize) -> i32;
}

/// What a race found.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Index of the chosen candidate.
    pub best: usize,
    /// Mean score of each candidate over the determinisations it was played on.
    pub means: Vec<f64>,
    /// Determinisations each candidate was played on (fewer for those dropped early).
    pub samples: Vec<u32>,
    /// Evaluations spent.
    pub rollouts: u64,
}

/// A candidate is dropped when its mean paired difference to the leader exceeds this many
/// standard errors (and is positive).
const DROP_Z: f64 = 2.0;
/// The first elimination waits for this many determinisations.
const FIRST_CHECK: u32 = 8;

/// Races `cands` candidates within `budget`: at least one determinisation is always played
/// (with a single candidate, none). Deterministic for a given trial and budget without a
/// deadline. Ties go to the lower index, so callers list their default move first.
pub fn race(trial: &mut impl Trial, cands: usize, budget: &Budget) -> Outcome {
    race_keeping_first(trial, cands, budget, None)
}

/// [`race`], and with `keep_first` (`Some(z)`) the first candidate is kept (the caller's
/// default, e.g. the learned policy's choice) unless the leader beats it by more than `z`
/// standard errors of their mean paired difference over the same deals: a search whose
/// budget buys few deals then leaves a strong default only on evidence, instead of for the
/// noisiest best mean.
pub fn race_keeping_first(
    trial: &mut impl Trial,
    cands: usize,
    budget: &Budget,
    keep_first: Option<f64>,
) -> Outcome {
    let mut scores: Vec<Vec<i32>> = vec![Vec::new(); cands];
    let mut alive: Vec<usize> = (0..cands).collect();
    let mut spent = 0u64;
    let mut deals = 0u32;
    let mut next_check = FIRST_CHECK;
    while alive.len() > 1 {
        let over_budget = spent + alive.len() as u64 > budget.rollouts;
        if deals > 0 && (over_budget || budget.late()) {
            break;
        }
        trial.draw();
        let mut complete = true;
        for &c in &alive {
            if deals > 0 && budget.late() {
                complete = false;
                break;
            }
            scores[c].push(trial.play(c));
            spent += 1;
        }
        if !complete {
            // A deadline in mid-deal: every survivor keeps the same deals.
            for &c in &alive {
                scores[c].truncate(deals as usize);
            }
            break;
        }
        deals += 1;
        if deals >= next_check {
            next_check = next_check.saturating_mul(2);
            eliminate(&scores, &mut alive);
        }
    }
    let mean = |v: &Vec<i32>| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64
        }
    };
    let means: Vec<f64> = scores.iter().map(mean).collect();
    let mut best = leader(&alive, &means).unwrap_or(0);
    if let Some(z) = keep_first {
        // The first was dropped only when confidently worse than a leader.
        if best != 0 && alive.contains(&0) && !beats(&scores[best], &scores[0], z) {
            best = 0;
        }
    }
    Outcome {
        best,
        samples: scores.iter().map(|v| v.len() as u32).collect(),
        means,
        rollouts: spent,
    }
}

fn leader(alive: &[usize], means: &[f64]) -> Option<usize> {
    // The first of the highest means (a strict comparison keeps the lower index on ties).
    alive.iter().copied().fold(None, |best, c| match best {
        Some(b) if means[b] >= means[c] => Some(b),
        _ => Some(c),
    })
}

/// Does `a` beat `b` by more than `z` standard errors of their mean paired difference (over
/// the deals both played; fewer than two: no)?
fn beats(a: &[i32], b: &[i32], z: f64) -> bool {
    let n = a.len().min(b.len());
    if n < 2 {
        return false;
    }
    let diffs = a.iter().zip(b).map(|(&x, &y)| f64::from(x - y));
    let (sum, sq) = diffs.fold((0.0, 0.0), |(s, q), d| (s + d, q + d * d));
    let m = sum / n as f64;
    let var = ((sq - sum * sum / n as f64) / (n as f64 - 1.0)).max(0.0);
    let se = (var / n as f64).sqrt();
    m > 0.0 && m > z * se
}

/// Drops the candidates confidently worse than the leader (paired over the common deals).
fn eliminate(scores: &[Vec<i32>], alive: &mut Vec<usize>) {
    let means: Vec<f64> = scores
        .iter()
        .map(|v| v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len().max(1) as f64)
        .collect();
    let Some(lead) = leader(alive, &means) else {
        return;
    };
    alive.retain(|&c| c == lead || !beats(&scores[lead], &scores[c], DROP_Z));
}

/// A 64-bit mix of a seed and a salt (SplitMix64's finaliser): independent streams for the
/// parts of one decision.
pub const fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidate c scores c plus noise on each deal: the race must find the last one.
    struct Noisy {
        state: u64,
        noise: i32,
    }

    impl Trial for Noisy {
        fn draw(&mut self) {
            self.state = mix(self.state, 1);
            self.noise = (self.state % 21) as i32 - 10;
        }
        fn play(&mut self, c: usize) -> i32 {
            c as i32 * 3 + self.noise
        }
    }

    #[test]
    fn the_race_finds_the_best_and_spends_within_budget() {
        let mut t = Noisy { state: 7, noise: 0 };
        let out = race(&mut t, 6, &Budget::rollouts(600));
        assert_eq!(out.best, 5);
        assert!(out.rollouts <= 600);
        // Common noise: the paired differences are exact, so the first check keeps only the
        // best and the race ends there.
        assert_eq!(out.samples, vec![FIRST_CHECK; 6]);
        assert_eq!(out.rollouts, 6 * u64::from(FIRST_CHECK));
    }

    #[test]
    fn one_candidate_needs_no_rollout_and_ties_go_low() {
        let mut t = Noisy { state: 7, noise: 0 };
        assert_eq!(race(&mut t, 1, &Budget::rollouts(100)).rollouts, 0);
        struct Flat;
        impl Trial for Flat {
            fn draw(&mut self) {}
            fn play(&mut self, _: usize) -> i32 {
                1
            }
        }
        let out = race(&mut Flat, 4, &Budget::rollouts(40));
        assert_eq!(out.best, 0);
        // A tiny budget still plays one full deal.
        assert_eq!(race(&mut Flat, 4, &Budget::rollouts(1)).rollouts, 4);
    }

    #[test]
    fn a_past_deadline_stops_after_one_deal() {
        let mut t = Noisy { state: 3, noise: 0 };
        let budget = Budget {
            rollouts: 1_000_000,
            deadline: Some(Instant::now()),
        };
        let out = race(&mut t, 5, &budget);
        assert_eq!(out.rollouts, 5);
    }

    #[test]
    fn a_kept_first_candidate_yields_only_to_evidence() {
        // Candidate 1 is better by 1 a deal under noise of ±10: within a few deals its lead
        // is not shown, and the first is kept; with many deals it is, and the first yields.
        struct Slight(Noisy);
        impl Trial for Slight {
            fn draw(&mut self) {
                self.0.draw();
            }
            fn play(&mut self, c: usize) -> i32 {
                // Unpaired noise (each candidate its own), so the paired difference is noisy.
                self.0.draw();
                c as i32 + self.0.noise
            }
        }
        let few = Budget::rollouts(16);
        let plain = race(&mut Slight(Noisy { state: 5, noise: 0 }), 2, &few);
        let kept = race_keeping_first(
            &mut Slight(Noisy { state: 5, noise: 0 }),
            2,
            &few,
            Some(2.0),
        );
        assert_eq!(kept.means, plain.means);
        assert_eq!(kept.best, 0);
        let many = Budget::rollouts(20_000);
        let out = race_keeping_first(
            &mut Slight(Noisy { state: 5, noise: 0 }),
            2,
            &many,
            Some(2.0),
        );
        assert_eq!(out.best, 1);
        // A clear lead (3 a deal, no noise) wins at once; without the option the race is as before.
        let mut t = Noisy { state: 7, noise: 0 };
        assert_eq!(
            race_keeping_first(&mut t, 6, &Budget::rollouts(600), Some(2.0)).best,
            5
        );
    }
}
