//! Information-set Monte Carlo tree search (single observer) for the shedding games.
//!
//! One tree of action sequences seen from the root seat: each iteration deals the unseen
//! cards (weighted by what the other seats have shown, as [`super::shedding`] does), walks
//! down the tree choosing, at every seat's turn, among the actions legal in that deal by UCB1
//! with availability counts (an action is scored against the visits of the deals in which it
//! was legal), adds one node, plays the rest of the hand out with the greedy policy, and
//! credits each node on the path with the final score of the seat that chose it. Nodes below
//! the root list a few actions per seat (the greedy one, pass, and the cheapest other plays),
//! so the tree stays narrow enough to reach the root seat's next decisions; the root lists
//! the caller's candidates. The move chosen is the root child visited most.
//!
//! [`Branching::OwnSeat`] branches on the root seat's decisions only: the other seats play
//! the rollout policy inside the tree too, which is the flat search's model of them, and the
//! iterations go to the root seat's own later plays (what to keep for the next round, when
//! to spend a 2). Against opponents that play like the model it is strictly better informed
//! than the flat race; [`Branching::EverySeat`] searches the others' replies as well.

use super::guide::{filtered, prior, root_scores, Guide, Rollouts};
use super::shedding::{Observation, Shedding};
use super::{Budget, Outcome};
use crate::cards::CardSet;
use crate::rollout::{Player, Position, Setup, Sim, MAX_SEATS};
use crate::shedding::penalty::TWOS;
use crate::shedding::Combo;

/// Whose decisions the tree branches on below the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// Every seat's: the other seats choose by UCB too (they are searched as opponents who
    /// find their best replies).
    EverySeat,
    /// The root seat's only: the other seats play the rollout policy inside the tree as in
    /// the rollouts (the opponent model of the flat search), so the tree spends all its
    /// iterations on the root seat's own later decisions.
    OwnSeat,
}

/// Actions a node below the root lists per seat at most.
pub const WIDTH: usize = 4;
/// UCB1's exploration constant (on scores divided by [`SCALE`]).
pub const EXPLORE: f64 = 0.7;
/// Units that count as one in the UCB formula: a typical loss of a hand.
pub const SCALE: f64 = 13.0;

#[derive(Clone, Debug)]
struct Node {
    action: Option<Combo>,
    /// The seat that chose `action` (whose score this node accumulates).
    actor: usize,
    children: Vec<u32>,
    visits: u32,
    avail: u32,
    total: f64,
}

impl Node {
    fn new(action: Option<Combo>, actor: usize) -> Node {
        Node {
            action,
            actor,
            children: Vec::new(),
            visits: 0,
            avail: 0,
            total: 0.0,
        }
    }
}

/// The actions a node lists for `seat` in this deal: the rollout policy's choice first, then
/// pass (when allowed), then the cheapest other plays (no 2s first, lowest top, longest).
fn actions(
    setup: &Setup,
    sim: &Sim,
    seat: usize,
    plays: &[Combo],
    player: &mut impl Player,
    out: &mut Vec<Option<Combo>>,
) {
    out.clear();
    let greedy = player.choose(sim, setup, seat, plays);
    out.push(greedy.map(|i| plays[i]));
    if sim.can_pass() && greedy.is_some() {
        out.push(None);
    }
    let mut rest: Vec<&Combo> = plays
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != greedy)
        .map(|(_, c)| c)
        .collect();
    rest.sort_by_key(|c| (c.cards.0 & TWOS != 0, c.top, u32::MAX - c.len()));
    for c in rest {
        if out.len() >= WIDTH {
            break;
        }
        out.push(Some(*c));
    }
}

/// Searches the root seat's `cands` (all legal for it now) by ISMCTS within `budget`
/// iterations (each one deal and one rollout), branching on the decisions `branching` says.
/// With a `guide`, the rollouts (and the other seats of an own-seat tree) play its policy
/// (`rollouts`), the root's selection adds the PUCT term `prior · P(a) · √N / (1 + n)` of
/// the policy's prior `P` ([`super::guide::prior`]), and the root keeps only the policy's
/// best candidates (`top`). `chain`: Metropolis steps per deal (see
/// [`super::shedding::Shedding::inferring`]).
#[allow(clippy::too_many_arguments)]
pub fn search(
    setup: &Setup,
    pos: &Position,
    obs: &[Observation],
    cands: &[Option<Combo>],
    known: Option<[CardSet; MAX_SEATS]>,
    budget: &Budget,
    seed: u64,
    chain: u32,
    branching: Branching,
    guide: Option<&Guide<'_>>,
) -> Outcome {
    filtered(guide, setup, pos, cands, |kept| {
        tree_of(
            setup, pos, obs, kept, known, budget, seed, chain, branching, guide,
        )
    })
}

/// [`search`] on the candidates the guide's filter kept.
#[allow(clippy::too_many_arguments)]
fn tree_of(
    setup: &Setup,
    pos: &Position,
    obs: &[Observation],
    cands: &[Option<Combo>],
    known: Option<[CardSet; MAX_SEATS]>,
    budget: &Budget,
    seed: u64,
    chain: u32,
    branching: Branching,
    guide: Option<&Guide<'_>>,
) -> Outcome {
    let me = pos.me;
    let mut nodes = vec![Node::new(None, me)];
    for &c in cands {
        nodes.push(Node::new(c, me));
        let id = nodes.len() as u32 - 1;
        nodes[0].children.push(id);
    }
    if cands.len() <= 1 {
        return Outcome {
            best: 0,
            means: vec![0.0; cands.len()],
            samples: vec![0; cands.len()],
            rollouts: 0,
        };
    }
    let root_prior: Option<(f64, Vec<f64>)> = guide
        .filter(|g| g.prior > 0.0)
        .map(|g| (g.prior, prior(&root_scores(g.net, setup, pos, cands))));
    let mut player = Rollouts::of(guide, me);
    let mut trial = Shedding::new(setup, pos, obs, cands, known, seed)
        .inferring(super::shedding::sharp_seats(guide, me), chain);
    let mut scratch = Vec::with_capacity(128);
    let mut listed = Vec::with_capacity(WIDTH);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut spent = 0u64;
    while spent < budget.rollouts && (spent == 0 || !budget.late()) {
        spent += 1;
        let mut sim = Sim::new(pos, trial.deal(), me);
        path.clear();
        let mut node = 0usize;
        loop {
            if sim.over {
                break;
            }
            let seat = sim.turn;
            sim.plays(setup, seat, &mut scratch);
            if node == 0 {
                listed.clear();
                listed.extend_from_slice(cands);
            } else if seat != me && branching == Branching::OwnSeat {
                listed.clear();
                listed.push(
                    player
                        .choose(&sim, setup, seat, &scratch)
                        .map(|i| scratch[i]),
                );
            } else {
                actions(setup, &sim, seat, &scratch, &mut player, &mut listed);
            }
            // A forced move (nothing to choose) gets no node.
            if node != 0 && listed.len() == 1 {
                sim.act(setup, seat, listed[0]);
                continue;
            }
            let mut unexpanded = None;
            let mut best: Option<(f64, usize)> = None;
            let log = |avail: u32| f64::from(avail.max(1)).ln();
            for &a in &listed {
                match nodes[node]
                    .children
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| nodes[c].action == a)
                {
                    Some(c) => {
                        nodes[c].avail += 1;
                        if nodes[c].visits == 0 {
                            unexpanded.get_or_insert(c);
                            continue;
                        }
                        let n = &nodes[c];
                        let mut value = n.total / f64::from(n.visits) / SCALE
                            + EXPLORE * (log(n.avail) / f64::from(n.visits)).sqrt();
                        if let (0, Some((w, p))) = (node, &root_prior) {
                            // Root children are nodes 1..=cands.len(), in candidate order.
                            let parent = f64::from(n.avail).sqrt();
                            value += w * p[c - 1] * parent / (1.0 + f64::from(n.visits));
                        }
                        if best.map_or(true, |(b, _)| value > b) {
                            best = Some((value, c));
                        }
                    }
                    None if unexpanded.is_none() => {
                        nodes.push(Node::new(a, seat));
                        let c = nodes.len() - 1;
                        nodes[c].avail = 1;
                        nodes[node].children.push(c as u32);
                        unexpanded = Some(c);
                    }
                    None => {}
                }
            }
            let Some(child) = unexpanded.or(best.map(|b| b.1)) else {
                break;
            };
            path.push(child);
            sim.act(setup, seat, nodes[child].action);
            node = child;
            if nodes[child].visits == 0 {
                break; // the new node: roll out from here
            }
        }
        sim.finish_with(setup, me, &mut scratch, &mut player);
        let scores = sim.scores();
        for &n in &path {
            nodes[n].visits += 1;
            nodes[n].total += f64::from(scores[nodes[n].actor]);
        }
    }
    let kids = &nodes[0].children;
    let means: Vec<f64> = kids
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            if n.visits == 0 {
                0.0
            } else {
                n.total / f64::from(n.visits)
            }
        })
        .collect();
    let samples: Vec<u32> = kids.iter().map(|&c| nodes[c as usize].visits).collect();
    // The most visited; ties to the better mean, then the lower index.
    let best = (0..kids.len())
        .max_by(|&a, &b| {
            (samples[a], means[a])
                .partial_cmp(&(samples[b], means[b]))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        })
        .unwrap_or(0);
    Outcome {
        best,
        means,
        samples,
        rollouts: spent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::net::argmax;
    use crate::rollout::fixtures::{open_position, set, south_setup};
    use crate::search::guide::{root_scores, test_net};
    use crate::shedding::legal_plays;

    /// A 13-card opening lead and its first eight plays.
    fn opening() -> (Setup, Position, Vec<Option<Combo>>) {
        let setup = south_setup(4);
        let hand = set("3♠ 4♦ 5♥ 6♣ 9♣ 9♦ 10♠ J♥ Q♦ K♠ A♠ 2♥ 2♦");
        let pos = open_position(0, hand, &[13, 13, 13, 13]);
        let cands: Vec<_> = legal_plays(hand, None, &setup.rules, CardSet::EMPTY)
            .into_iter()
            .take(8)
            .map(Some)
            .collect();
        (setup, pos, cands)
    }

    /// [`search`] of `cands` with no observations, no known hands, seed 3 and no chain.
    fn searched(
        setup: &Setup,
        pos: &Position,
        cands: &[Option<Combo>],
        budget: &Budget,
        branching: Branching,
        guide: Option<&Guide<'_>>,
    ) -> Outcome {
        search(setup, pos, &[], cands, None, budget, 3, 0, branching, guide)
    }

    #[test]
    fn the_tree_search_is_reproducible_and_within_budget() {
        let (setup, pos, cands) = opening();
        for branching in [Branching::EverySeat, Branching::OwnSeat] {
            let budget = Budget::rollouts(400);
            let run = || searched(&setup, &pos, &cands, &budget, branching, None);
            let a = run();
            assert_eq!(a, run());
            assert_eq!(a.rollouts, 400);
            assert_eq!(a.samples.iter().sum::<u32>(), 400);
            assert!(a.best < cands.len());
        }
    }

    #[test]
    fn a_guided_tree_is_reproducible_and_follows_a_strong_prior() {
        let (setup, pos, cands) = opening();
        let high = test_net(4, 0.0, 1.0);
        let budget = Budget::rollouts(300);
        let run = |guide: Option<&Guide<'_>>| {
            searched(&setup, &pos, &cands, &budget, Branching::OwnSeat, guide)
        };
        let plain = run(None);
        // A guide with no prior and greedy rollouts searches as no guide does.
        assert_eq!(run(Some(&Guide::of(&high))), plain);
        let top = argmax(&root_scores(&high, &setup, &pos, &cands));
        for rollouts in [false, true] {
            let guide = Guide {
                rollouts,
                prior: 1000.0,
                ..Guide::of(&high)
            };
            let a = run(Some(&guide));
            assert_eq!(a, run(Some(&guide)));
            assert_eq!(a.samples.iter().sum::<u32>(), 300);
            // The candidate the net scores highest (the highest cards) takes the visits.
            assert_eq!(a.best, top, "{a:?}");
        }
        // Rollouts by the net play other hands than the greedy ones.
        let by_net = Guide {
            rollouts: true,
            ..Guide::of(&high)
        };
        assert_ne!(run(Some(&by_net)).means, plain.means);
        // The filter keeps the first candidate and the net's best others, reported in place.
        let f = run(Some(&Guide {
            top: Some(3),
            ..Guide::of(&high)
        }));
        assert_eq!(f.samples.len(), cands.len());
        assert_eq!(f.samples.iter().filter(|&&n| n > 0).count(), 3);
        assert!(f.samples[0] > 0 && f.samples[f.best] > 0);
    }
}
