//! The learned policy in the shedding searches ([`crate::policy`]): as the rollout policy (every
//! seat of a rollout, and the other seats inside an own-seat tree, play the network's best-scored
//! action instead of the greedy one), as the prior of the tree's root (a PUCT term from the
//! network's scores of the candidates), and as a filter of the root's candidates (the
//! network's best few). Its [`Scorer`] (the network with its buffers) also plays the Tứ Sắc
//! rollouts ([`super::tusac`]), whose simulation and observation are that game's own.
//!
//! **What it reads.** A seat of a determinised hand is scored from the observation the learning
//! environments write for that seat ([`crate::encode::observation::shedding`]): its own hand,
//! the table, the cards each seat has played, the counts and the seat flags, all public or its
//! own. At the root that is the deciding seat's view: the prior depends on nothing hidden.
//!
//! **Cost.** One decision of the network is a pass of its state tower and one small head per
//! legal action: about ten microseconds (9.8 µs for a position of eight legal actions), against
//! the greedy policy's fraction of one. A rollout played by the network (about 0.1 ms in Tiến
//! Lên) is that much dearer, so a budget of time buys fewer of them, each a far better estimate
//! (see the learning guide for the trade, measured); the prior and the filter cost one decision
//! of the network per search.

use super::Outcome;
use crate::encode::observation::{shedding, SheddingView};
use crate::policy::features::{shedding_row, SheddingAct};
use crate::policy::net::argmax;
use crate::policy::Net;
use crate::rollout::{determinise, FastRng, Player, Position, Setup, Sim, MAX_SEATS};
use crate::shedding::Combo;

/// How a search uses a learned policy (`net`, trained for the table's game and size).
#[derive(Clone, Copy, Debug)]
pub struct Guide<'a> {
    pub net: &'a Net,
    /// The rollouts (and the other seats inside an own-seat tree) play the policy.
    pub rollouts: bool,
    /// Weight of the policy's prior in the tree's root selection (0: none).
    pub prior: f64,
    /// The search keeps at most this many candidates: the first (the caller's default) and
    /// the policy's best-scored others.
    pub top: Option<usize>,
    /// Seats (bit `s` for seat `s`) that play the greedy policy in rollouts the policy plays:
    /// the search's model of opponents seen to play like `greedy` (the root seat itself
    /// always plays the policy).
    pub greedy_seats: u32,
}

impl<'a> Guide<'a> {
    /// A guide of `net` that uses it for nothing (set the fields it should do).
    pub const fn of(net: &'a Net) -> Guide<'a> {
        Guide {
            net,
            rollouts: false,
            prior: 0.0,
            top: None,
            greedy_seats: 0,
        }
    }
}

/// Units of the network's scores that make a factor e in the prior (the softmax temperature).
pub const TEMPERATURE: f64 = 2.0;

/// The network scoring one seat's legal actions, with its buffers kept between decisions:
/// what every game's rollout player shares (this module's shedding [`NetPlayer`], Tứ Sắc's in
/// [`super::tusac`]). Its caller writes the seat's observation into `obs`, then asks for the
/// scores of the action rows it writes.
pub(crate) struct Scorer<'a> {
    pub(crate) net: &'a Net,
    /// The observation of the seat to score (the caller writes it).
    pub(crate) obs: Vec<f32>,
    rows: Vec<f32>,
    scores: Vec<f32>,
}

impl<'a> Scorer<'a> {
    pub(crate) fn new(net: &'a Net) -> Scorer<'a> {
        Scorer {
            net,
            obs: vec![0.0; net.observation_size()],
            rows: Vec::new(),
            scores: Vec::new(),
        }
    }

    /// The network's scores of `n` actions from the observation in `obs`, `row(i, out)`
    /// writing the `i`-th action's row.
    pub(crate) fn score(&mut self, n: usize, mut row: impl FnMut(usize, &mut [f32])) -> &[f32] {
        let width = self.net.action_size();
        self.rows.clear();
        self.rows.resize(n * width, 0.0);
        for (i, r) in self.rows.chunks_exact_mut(width).enumerate() {
            row(i, r);
        }
        self.net.scores(&self.obs, &self.rows, &mut self.scores);
        &self.scores
    }
}

/// The network choosing for a seat of a rollout (see the module notes).
pub(crate) struct NetPlayer<'a> {
    scorer: Scorer<'a>,
    samloc: bool,
    /// Seats that play the greedy policy instead (see [`Guide::greedy_seats`]).
    greedy_seats: u32,
}

impl<'a> NetPlayer<'a> {
    pub(crate) fn new(net: &'a Net) -> NetPlayer<'a> {
        NetPlayer {
            scorer: Scorer::new(net),
            samloc: net.encoding.name == "samloc-view",
            greedy_seats: 0,
        }
    }

    /// Writes `seat`'s observation of `sim` (seat-relative, as the environments do).
    fn observe(&mut self, sim: &Sim, setup: &Setup, seat: usize) {
        let n = setup.players;
        let mut played = [0u64; MAX_SEATS];
        let mut counts = [0u32; MAX_SEATS];
        let (mut passed, mut out, mut owner) = (0u32, 0u32, 0u32);
        for k in 0..n {
            let s = (seat + k) % n;
            played[k] = sim.played[s];
            counts[k] = sim.hands[s].len();
            passed |= u32::from(sim.passed >> s & 1) << k;
            out |= u32::from(sim.out >> s & 1) << k;
            if sim.table.is_some() && sim.table_seat == s {
                owner |= 1 << k;
            }
        }
        let view = SheddingView {
            hand: sim.hands[seat].0,
            table: sim.table.map_or(0, |c| c.cards.0),
            must: if seat == sim.turn { sim.must.0 } else { 0 },
            played: &played[..n],
            counts: &counts[..n],
            passed,
            out,
            to_act: 1,
            owner,
            playing: self.samloc.then_some(true),
        };
        shedding(&view, &mut self.scorer.obs);
    }

    /// The network's score of each of `acts` (`None`: pass) for `seat`, the seat to act.
    fn score(&mut self, sim: &Sim, setup: &Setup, seat: usize, acts: &[Option<Combo>]) -> &[f32] {
        self.observe(sim, setup, seat);
        self.scorer.score(acts.len(), |i, row| {
            let act = acts[i].map_or(SheddingAct::Pass, |c| SheddingAct::Play(c.cards.0));
            shedding_row(act, row);
        })
    }
}

impl Player for NetPlayer<'_> {
    fn choose(&mut self, sim: &Sim, setup: &Setup, seat: usize, plays: &[Combo]) -> Option<usize> {
        let can_pass = sim.can_pass();
        // Facing a Sâm declarer any play blocks it; with nothing to choose, nothing to score;
        // a seat modelled as greedy plays greedy.
        if sim.sam.is_some_and(|d| d != seat)
            || plays.is_empty()
            || (plays.len() == 1 && !can_pass)
            || self.greedy_seats >> seat & 1 == 1
        {
            return sim.policy(setup, seat, plays);
        }
        let mut acts: Vec<Option<Combo>> = plays.iter().copied().map(Some).collect();
        if can_pass {
            acts.push(None);
        }
        let best = argmax(self.score(sim, setup, seat, &acts));
        (best < plays.len()).then_some(best)
    }
}

/// Who plays a search's rollouts: the greedy policy, or the network.
pub(crate) enum Rollouts<'a> {
    Greedy,
    Net(Box<NetPlayer<'a>>),
}

impl<'a> Rollouts<'a> {
    /// The rollouts of a search by the root seat `me` under `guide`.
    pub(crate) fn of(guide: Option<&Guide<'a>>, me: usize) -> Rollouts<'a> {
        match guide {
            Some(g) if g.rollouts => {
                let mut p = NetPlayer::new(g.net);
                p.greedy_seats = g.greedy_seats & !(1 << me);
                Rollouts::Net(Box::new(p))
            }
            _ => Rollouts::Greedy,
        }
    }
}

impl Player for Rollouts<'_> {
    fn choose(&mut self, sim: &Sim, setup: &Setup, seat: usize, plays: &[Combo]) -> Option<usize> {
        match self {
            Rollouts::Greedy => sim.policy(setup, seat, plays),
            Rollouts::Net(p) => p.choose(sim, setup, seat, plays),
        }
    }
}

/// The network's scores of the root seat's candidates `cands` (`None`: pass) in `pos`: what
/// it reads is the root seat's own view (its hand, the public state, the others' counts).
pub fn root_scores(net: &Net, setup: &Setup, pos: &Position, cands: &[Option<Combo>]) -> Vec<f32> {
    // Any deal of the unseen cards gives the others their counts; the observation reads
    // nothing else of their hands.
    let mut pool = Vec::with_capacity(52);
    let hands = determinise(pos, setup.players, &mut FastRng::new(0), &mut pool);
    let sim = Sim::new(pos, hands, pos.me);
    NetPlayer::new(net)
        .score(&sim, setup, pos.me, cands)
        .to_vec()
}

/// Runs `search` on the candidates a `guide`'s filter keeps (all of them without one, or
/// when they are no more than its `top`), and reports the outcome at the places of `cands`
/// (those the filter dropped with no sample).
pub fn filtered(
    guide: Option<&Guide<'_>>,
    setup: &Setup,
    pos: &Position,
    cands: &[Option<Combo>],
    search: impl FnOnce(&[Option<Combo>]) -> Outcome,
) -> Outcome {
    let keep: Vec<usize> = match guide.and_then(|g| g.top.map(|k| (g, k))) {
        Some((g, k)) if cands.len() > k => keep_top(&root_scores(g.net, setup, pos, cands), k),
        _ => return search(cands),
    };
    let kept: Vec<Option<Combo>> = keep.iter().map(|&i| cands[i]).collect();
    let out = search(&kept);
    let (mut means, mut samples) = (vec![0.0; cands.len()], vec![0; cands.len()]);
    for (k, &i) in keep.iter().enumerate() {
        means[i] = out.means[k];
        samples[i] = out.samples[k];
    }
    Outcome {
        best: keep[out.best],
        means,
        samples,
        rollouts: out.rollouts,
    }
}

/// The prior of `scores`: their softmax at [`TEMPERATURE`].
pub fn prior(scores: &[f32]) -> Vec<f64> {
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let w: Vec<f64> = scores
        .iter()
        .map(|&s| (f64::from(s - top) / TEMPERATURE).exp())
        .collect();
    let sum: f64 = w.iter().sum();
    w.into_iter()
        .map(|x| x / sum.max(f64::MIN_POSITIVE))
        .collect()
}

/// The candidates a flat race keeps under `top`: the first, then the best-scored others (in
/// their first order), `scores` one per candidate.
pub fn keep_top(scores: &[f32], top: usize) -> Vec<usize> {
    let mut rest: Vec<usize> = (1..scores.len()).collect();
    // Best score first; the lower index first among equal scores.
    rest.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    rest.truncate(top.saturating_sub(1));
    rest.sort_unstable();
    let mut keep = Vec::with_capacity(rest.len() + 1);
    if !scores.is_empty() {
        keep.push(0);
    }
    keep.extend(rest);
    keep
}

/// A network for tests whose score of an action is `bias + weights · row` (its row's cells
/// alone, nothing of the observation; `bias` keeps the inner ReLU open).
#[cfg(test)]
pub(crate) fn linear_net(game: &str, players: usize, weights: &[f32], bias: f32) -> Net {
    use crate::policy::{encoding, Header};
    let enc = encoding(game, players).unwrap();
    assert_eq!(weights.len(), enc.action);
    let shapes = vec![(1, enc.observation), (1, 1), (1, enc.action), (1, 1)];
    let mut data = vec![0.0f32; enc.observation + 1]; // the tower: zeros
    data.extend([0.0, 0.0]); // J_s
    data.extend(weights);
    data.push(bias);
    data.extend([1.0, 0.0]); // the head: identity
    let header = Header {
        game: game.into(),
        players,
        encoding_name: enc.name.into(),
        encoding_version: enc.version,
        encoding_hash: enc.hash,
        shapes,
        tower: 1,
        rules: "{}".into(),
        provenance: "{}".into(),
    };
    Net::new(header, &data).unwrap()
}

/// A network for tests that scores an action by its cells alone: `pass` for a pass, and per
/// card `-1` plus `card` times its index (a positive `card` prefers high cards).
#[cfg(test)]
pub(crate) fn test_net(players: usize, pass: f32, card: f32) -> Net {
    let mut ja: Vec<f32> = (0..52).map(|i| card * i as f32 - 1.0).collect();
    ja.extend([pass, 0.0, 0.0]);
    linear_net("tienlen", players, &ja, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rollout::fixtures::{open_position, set, south_setup};
    use crate::shedding::{classify, legal_plays};

    #[test]
    fn the_prior_is_a_softmax_and_the_filter_keeps_the_first() {
        let p = prior(&[0.0, 2.0, 2.0, -40.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((p[1] / p[0] - std::f64::consts::E).abs() < 1e-9);
        assert_eq!(p[1], p[2]);
        assert!(p[3] < 1e-8);
        assert_eq!(keep_top(&[0.0, 1.0, 3.0, 2.0, 3.0], 3), vec![0, 2, 4]);
        assert_eq!(keep_top(&[5.0, 1.0], 9), vec![0, 1]);
        assert_eq!(keep_top(&[], 3), Vec::<usize>::new());
    }

    #[test]
    fn the_network_plays_a_seat_from_its_own_view() {
        let setup = south_setup(4);
        let hand = set("3♠ 4♦ 9♣ 9♦ K♠ 2♥");
        let pos = Position {
            table: classify(set("7♠"), &setup.rules),
            table_seat: 3,
            played_any: 0b1000,
            played: [0, 0, 0, set("7♠").0, 0],
            ..open_position(0, hand, &[6, 13, 13, 12])
        };
        let plays = legal_plays(hand, pos.table.as_ref(), &setup.rules, CardSet::EMPTY);
        let mut cands: Vec<Option<Combo>> = plays.iter().copied().map(Some).collect();
        cands.push(None);
        // A net that likes passing passes; one that likes high cards plays the 2.
        let passer = test_net(4, 500.0, 0.0);
        let high = test_net(4, 0.0, 1.0);
        let mut pool = Vec::new();
        let hands = determinise(&pos, 4, &mut FastRng::new(1), &mut pool);
        let sim = Sim::new(&pos, hands, 0);
        assert_eq!(
            NetPlayer::new(&passer).choose(&sim, &setup, 0, &plays),
            None
        );
        let two = NetPlayer::new(&high)
            .choose(&sim, &setup, 0, &plays)
            .unwrap();
        assert_eq!(plays[two].cards, set("2♥"));
        // Seats modelled as greedy play greedy; the root seat plays the net all the same.
        let guide = Guide {
            rollouts: true,
            greedy_seats: 0b11,
            ..Guide::of(&passer)
        };
        let mut masked = Rollouts::of(Some(&guide), 1);
        assert_eq!(
            masked.choose(&sim, &setup, 0, &plays),
            sim.policy(&setup, 0, &plays)
        );
        assert!(sim.policy(&setup, 0, &plays).is_some());
        let mut mine = Rollouts::of(Some(&guide), 0);
        assert_eq!(mine.choose(&sim, &setup, 0, &plays), None);
        // The root's scores are the seat's own choice's scores.
        let scores = root_scores(&high, &setup, &pos, &cands);
        assert_eq!(scores.len(), cands.len());
        assert_eq!(argmax(&scores), two);
    }
}
