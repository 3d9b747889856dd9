//! Search for the shedding games (Tiến Lên, Sâm Lốc): the candidate plays raced over deals of
//! the unseen cards weighted by what each other seat has shown, each deal played out by the
//! greedy rollout policy ([`crate::rollout`]).
//!
//! **Inference.** A deal is kept with the probability a greedy-like player would have acted as
//! each seat did, holding the cards the deal gives it plus the cards it has played since:
//! passing while holding a cheap beat of the table (one that breaks no pair, no 2, no bomb)
//! is unlikely ([`PASS_HOLDING_BEAT`]); so is following with a higher card than a cheaper
//! beat it held ([`PLAY_ABOVE_CHEAPER`]). Rejection stops at the first failed test, so an
//! unlikely deal costs little; after [`ATTEMPTS`] rejections the deal that passed the most
//! tests is kept (strong evidence then narrows the deals as far as it can).

use super::guide::{filtered, Guide, Rollouts};
use super::infer::{Chain, Evidence};
use super::{race, Budget, Outcome, Trial};
use crate::cards::CardSet;
use crate::rollout::{
    determinise, greedy_choice, Context, FastRng, Position, Setup, Sim, MAX_SEATS,
};
use crate::shedding::{legal_plays_into, Combo, PlayFilter};

/// What another seat did in public: passed on `table`, or followed it with `play`, or (no
/// `table`) led `play`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    pub seat: usize,
    /// `None`: the seat led `play` (a lead the greedy model makes with its lowest card: the
    /// caller sends only those, see [`LEAD_ABOVE_LOWEST`]).
    pub table: Option<Combo>,
    /// `None`: the seat passed.
    pub play: Option<Combo>,
    /// The cards the seat has played since, its `play` included: with the cards it holds
    /// now, what it held then.
    pub later: CardSet,
    /// Fewest cards another seat still in the hand held then.
    pub min_other: u32,
}

/// Likelihood of a pass by a seat that held a play the greedy model would have made.
pub const PASS_HOLDING_BEAT: f64 = 0.15;
/// Likelihood of following with a higher card of the kind than the cheaper beat held.
pub const PLAY_ABOVE_CHEAPER: f64 = 0.4;
/// Likelihood of following where the greedy model would have passed.
pub const PLAY_WHEN_MODEL_PASSES: f64 = 0.7;
/// Likelihood of leading above a lower card held, where the greedy model leads its lowest.
pub const LEAD_ABOVE_LOWEST: f64 = 0.1;
/// Likelihood of any action but the greedy model's exact choice, for a seat the search
/// models as the greedy player (see [`Shedding::sharp_for`]).
pub const SHARP_MISS: f64 = 0.05;
/// Deals tried for one kept deal.
pub const ATTEMPTS: u32 = 32;
pub use super::infer::MAX_CHAIN;

/// The determinisations and rollouts of one shedding decision.
pub struct Shedding<'a> {
    setup: &'a Setup,
    pos: &'a Position,
    obs: &'a [Observation],
    cands: &'a [Option<Combo>],
    /// Every seat's hand (the cheating bot's view): no dealing, no inference.
    known: Option<[CardSet; MAX_SEATS]>,
    /// Where rollouts start without a root play (a value of the position, not of a move).
    start: Option<usize>,
    rng: FastRng,
    pool: Vec<u8>,
    scratch: Vec<Combo>,
    hands: [CardSet; MAX_SEATS],
    /// Who plays the rollouts.
    player: Rollouts<'a>,
    /// What the other seats' observations say of their hands.
    seen: Seen<'a>,
    /// The Markov chain over the deals (see [`Shedding::walk`]).
    chain: Option<Chain<CardSet>>,
    /// Card swaps tried per deal drawn by the chain (0: no chain, rejection only).
    steps: u32,
}

impl<'a> Shedding<'a> {
    pub fn new(
        setup: &'a Setup,
        pos: &'a Position,
        obs: &'a [Observation],
        cands: &'a [Option<Combo>],
        known: Option<[CardSet; MAX_SEATS]>,
        seed: u64,
    ) -> Shedding<'a> {
        Shedding {
            setup,
            pos,
            obs,
            cands,
            known,
            start: None,
            rng: FastRng::new(seed),
            pool: Vec::with_capacity(52),
            scratch: Vec::with_capacity(128),
            hands: [CardSet::EMPTY; MAX_SEATS],
            player: Rollouts::Greedy,
            seen: Seen {
                setup,
                sharp: 0,
                scratch: Vec::with_capacity(128),
                by_seat: Vec::new(),
                from: [0; MAX_SEATS + 2],
            },
            chain: None,
            steps: 0,
        }
    }

    /// The same trial testing the observations of the seats in `sharp` (a mask: the seats
    /// modelled as the greedy player) against the greedy model's exact choice, and drawing its
    /// deals by `chain` Metropolis steps each (0: by rejection; see [`Shedding::walk`]).
    pub(crate) fn inferring(self, sharp: u32, chain: u32) -> Shedding<'a> {
        let mut by_seat = Vec::new();
        let mut from = [0; MAX_SEATS + 2];
        if chain > 0 {
            // A stable sort: each seat's likelihood multiplies its factors in the same order
            // as a scan of `obs` would, so the chain's deals do not depend on the index.
            by_seat = self.obs.to_vec();
            by_seat.sort_by_key(|o| o.seat);
            for (s, f) in from.iter_mut().enumerate().skip(1) {
                *f = by_seat.partition_point(|o| o.seat < s);
            }
        }
        Shedding {
            seen: Seen {
                sharp,
                by_seat,
                from,
                ..self.seen
            },
            steps: chain,
            ..self
        }
    }

    /// The same trial with `player` playing its rollouts.
    pub(crate) fn played_by(self, player: Rollouts<'a>) -> Shedding<'a> {
        Shedding { player, ..self }
    }

    /// Sequential acceptance: how many observations the deal passed, and whether all did.
    fn test(&mut self, hands: &[CardSet; MAX_SEATS]) -> (u32, bool) {
        let mut passed = 0;
        for o in self.obs {
            let f = self.seen.likelihood(hands[o.seat], o);
            if f < 1.0 && self.rng.unit() >= f {
                return (passed, false);
            }
            passed += 1;
        }
        (passed, true)
    }

    /// The product of the likelihoods of `seat`'s observations for a seat holding `hand`
    /// ([`super::infer::likelihood`] over the index by seat).
    #[cfg(test)]
    fn seat_likelihood(&mut self, seat: usize, hand: CardSet, scale: f64, floor: f64) -> f64 {
        super::infer::likelihood(&mut self.seen, seat, hand, scale, floor)
    }

    /// [`Shedding::steps`] Metropolis steps of the chain ([`super::infer::Chain`]) from its deal:
    /// a random card swapped between two holders of unseen cards (the other seats, and the
    /// undealt rest as holder `players`, which no observation tests), started from the deal
    /// rejection drew.
    fn walk(&mut self) {
        let (players, me) = (self.setup.players, self.pos.me);
        let seen = &mut self.seen;
        let chain = self.chain.get_or_insert_with(|| {
            let mut held = vec![CardSet::EMPTY; MAX_SEATS + 1];
            held[..MAX_SEATS].copy_from_slice(&self.hands);
            let dealt = (0..players)
                .filter(|&s| s != me)
                .fold(CardSet::EMPTY, |d, s| d.union(held[s]));
            held[players] = self.pos.unseen.difference(dealt);
            Chain::new(held, (0..=players).filter(|&s| s != me), seen)
        });
        chain.walk(self.steps, &mut self.rng, seen);
        self.hands.copy_from_slice(&chain.held()[..MAX_SEATS]);
    }

    fn uniform(&mut self) -> [CardSet; MAX_SEATS] {
        determinise(self.pos, self.setup.players, &mut self.rng, &mut self.pool)
    }

    /// The next deal (see [`Trial::draw`]).
    pub(crate) fn deal(&mut self) -> [CardSet; MAX_SEATS] {
        self.draw();
        self.hands
    }
}

/// The observations of the other seats, as a likelihood of their hands (see the module
/// notes): the [`Evidence`] of the chain.
struct Seen<'a> {
    setup: &'a Setup,
    /// Seats modelled as the greedy player (bit `s` for seat `s`): their observations are
    /// tested against the greedy model's exact choice ([`SHARP_MISS`]).
    sharp: u32,
    scratch: Vec<Combo>,
    /// The observations grouped by seat, each seat's in their order in `obs`.
    by_seat: Vec<Observation>,
    /// Where each seat's observations start in `by_seat` (seat `s`: `from[s]..from[s + 1]`;
    /// the undealt rest, holder `players`, has none).
    from: [usize; MAX_SEATS + 2],
}

impl Seen<'_> {
    /// The greedy model's choice (`None`: pass) for a seat holding `then`, facing `table`
    /// (`None`: leading) with `min_other` the fewest cards another seat holds.
    fn greedy_model(
        &mut self,
        then: CardSet,
        table: Option<&Combo>,
        min_other: u32,
    ) -> Option<Combo> {
        self.scratch.clear();
        legal_plays_into(
            then,
            table,
            &self.setup.rules,
            CardSet::EMPTY,
            PlayFilter::All,
            &mut self.scratch,
        );
        let ctx = Context {
            min_other,
            can_pass: table.is_some(),
            finish_on_two: self.setup.finish_on_two,
        };
        greedy_choice(then, &self.scratch, table, ctx).map(|i| self.scratch[i])
    }

    /// How likely the greedy model makes `o` for a seat holding `now` today. For a seat
    /// modelled as the greedy player (`sharp`), 1 for the model's exact choice and
    /// [`SHARP_MISS`] for any other.
    fn likelihood(&mut self, now: CardSet, o: &Observation) -> f64 {
        let then = now.union(o.later);
        if self.sharp >> o.seat & 1 == 1 {
            let model = self.greedy_model(then, o.table.as_ref(), o.min_other);
            return if o.play.map(|p| p.cards) == model.map(|m| m.cards) {
                1.0
            } else {
                SHARP_MISS
            };
        }
        let Some(table) = o.table else {
            let low = o.play.map_or(0, |p| p.cards.0 & p.cards.0.wrapping_neg());
            return if then.0 & low.wrapping_sub(1) != 0 {
                LEAD_ABOVE_LOWEST
            } else {
                1.0
            };
        };
        let model = self.greedy_model(then, Some(&table), o.min_other);
        match (o.play, model) {
            (None, None) => 1.0,
            (None, Some(_)) => PASS_HOLDING_BEAT,
            (Some(_), None) => PLAY_WHEN_MODEL_PASSES,
            (Some(p), Some(m)) if m.kind == p.kind && m.top < p.top => PLAY_ABOVE_CHEAPER,
            _ => 1.0,
        }
    }
}

impl Evidence<CardSet> for Seen<'_> {
    fn observations(&self, holder: usize) -> usize {
        self.from[holder + 1] - self.from[holder]
    }

    fn factor(&mut self, holder: usize, i: usize, now: CardSet) -> f64 {
        let o = self.by_seat[self.from[holder] + i];
        self.likelihood(now, &o)
    }
}

impl Trial for Shedding<'_> {
    fn draw(&mut self) {
        if let Some(h) = self.known {
            self.hands = h;
            return;
        }
        if self.steps > 0 && !self.obs.is_empty() {
            if self.chain.is_none() {
                self.reject();
            }
            self.walk();
            return;
        }
        self.reject();
    }

    fn play(&mut self, c: usize) -> i32 {
        let (setup, me) = (self.setup, self.pos.me);
        let mut sim = Sim::new(self.pos, self.hands, self.start.unwrap_or(me));
        if self.start.is_none() {
            sim.act(setup, me, self.cands[c]);
        }
        sim.finish_with(setup, me, &mut self.scratch, &mut self.player)
    }
}

impl Shedding<'_> {
    /// A deal by sequential rejection: the first of [`ATTEMPTS`] uniform deals that passes every
    /// observation's test, else the one that passed the most.
    fn reject(&mut self) {
        let first = self.uniform();
        let (mut most, ok) = self.test(&first);
        self.hands = first;
        if ok {
            return;
        }
        for _ in 1..ATTEMPTS {
            let hands = self.uniform();
            let (passed, ok) = self.test(&hands);
            if ok {
                self.hands = hands;
                return;
            }
            if passed > most {
                most = passed;
                self.hands = hands;
            }
        }
    }
}

/// Races the candidate plays (`None`: pass) of the root seat of `pos`; with a `guide`, the
/// rollouts play its policy (`rollouts`) and the race keeps only its best candidates (`top`).
/// `chain`: Metropolis steps per deal (see [`Shedding::inferring`]).
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
    guide: Option<&Guide<'_>>,
) -> Outcome {
    filtered(guide, setup, pos, cands, |kept| {
        let mut trial = Shedding::new(setup, pos, obs, kept, known, seed)
            .played_by(Rollouts::of(guide, pos.me))
            .inferring(sharp_seats(guide, pos.me), chain);
        race(&mut trial, kept.len(), budget)
    })
}

/// The seats whose observations a search tests exactly: those its `guide`'s rollouts model as
/// the greedy player (none without policy rollouts).
pub(crate) fn sharp_seats(guide: Option<&Guide<'_>>, me: usize) -> u32 {
    match guide {
        Some(g) if g.rollouts => g.greedy_seats & !(1 << me),
        _ => 0,
    }
}

/// The root's mean score over `rollouts` deals when the hand is played out by the greedy
/// policy from `turn` on (the value of declining Sâm, for one).
pub fn value(
    setup: &Setup,
    pos: &Position,
    obs: &[Observation],
    turn: usize,
    known: Option<[CardSet; MAX_SEATS]>,
    rollouts: u32,
    seed: u64,
) -> f64 {
    let mut trial = Shedding::new(setup, pos, obs, &[], known, seed);
    trial.start = Some(turn);
    let mut total = 0i64;
    for _ in 0..rollouts {
        trial.draw();
        total += i64::from(trial.play(0));
    }
    total as f64 / f64::from(rollouts.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::fixtures::{open_position, set, south_setup};
    use crate::rollout::{FastRng, Sim};
    use crate::shedding::{classify, legal_plays};

    fn south() -> Setup {
        south_setup(4)
    }

    fn position(hand: &str, counts: [u8; 4]) -> Position {
        let hand = set(hand);
        Position {
            played_any: 0b1111,
            ..open_position(0, hand, &counts)
        }
    }

    #[test]
    fn a_seat_that_led_a_nine_seldom_holds_a_lower_card() {
        let setup = south();
        let nine = classify(set("9♠"), &setup.rules).unwrap();
        let base = position("3♠ 4♦ 5♥", [3, 2, 2, 2]);
        let mut played = [0; MAX_SEATS];
        played[1] = nine.cards.0;
        let pos = Position {
            unseen: base.unseen.difference(nine.cards),
            played,
            ..base
        };
        let obs = [Observation {
            seat: 1,
            table: None,
            play: Some(nine),
            later: set("9♠"),
            min_other: 3,
        }];
        let lower = |obs: &[Observation]| {
            let mut t = Shedding::new(&setup, &pos, obs, &[], None, 5);
            (0..1000)
                .filter(|_| {
                    t.draw();
                    t.hands[1].0 & (nine.cards.0 - 1) != 0
                })
                .count()
        };
        let (uniform, weighted) = (lower(&[]), lower(&obs));
        // Uniform deals: about 69% of two-card hands hold one of the 21 unseen cards below the
        // 9; weighted by the lead, few do.
        assert!(uniform > 600, "{uniform}");
        assert!(weighted < uniform / 3, "{weighted} against {uniform}");
    }

    /// One seat's pass on 7♠ holding two cards (the greedy model, short, plays any beat).
    fn passed_on_a_seven() -> (Setup, Position, [Observation; 1], Combo) {
        let setup = south();
        let pos = position("3♠ 4♦ 5♥", [3, 2, 2, 2]);
        let seven = classify(set("7♠"), &setup.rules).unwrap();
        let obs = [Observation {
            seat: 1,
            table: Some(seven),
            play: None,
            later: CardSet::EMPTY,
            min_other: 3,
        }];
        (setup, pos, obs, seven)
    }

    /// Of 1,000 deals drawn with `sharp` and `chain`, how many give seat 1 a card above 7♠.
    fn holding_a_beat(sharp: u32, chain: u32, obs: &[Observation]) -> usize {
        let (setup, pos, _, seven) = passed_on_a_seven();
        let mut t = Shedding::new(&setup, &pos, obs, &[], None, 9).inferring(sharp, chain);
        (0..1000)
            .filter(|_| {
                t.draw();
                t.hands[1].iter().any(|c| c.index() > seven.top - 8)
            })
            .count()
    }

    #[test]
    fn a_chain_deals_every_seat_its_count_from_the_unseen_cards() {
        let (setup, pos, obs, _) = passed_on_a_seven();
        let mut t = Shedding::new(&setup, &pos, &obs, &[], None, 3).inferring(0b10, 8);
        for _ in 0..500 {
            t.draw();
            assert_eq!(t.hands[0], pos.hand);
            let mut seen = CardSet::EMPTY;
            for s in 1..4 {
                assert_eq!(t.hands[s].len(), u32::from(pos.counts[s]));
                assert!(t.hands[s].0 & seen.0 == 0, "a card dealt twice");
                assert!(
                    t.hands[s].0 & !pos.unseen.0 == 0,
                    "a card that is not unseen"
                );
                seen = seen.union(t.hands[s]);
            }
        }
    }

    #[test]
    fn a_seat_that_passed_on_a_single_seldom_holds_a_higher_one() {
        let (_, _, obs, _) = passed_on_a_seven();
        let uniform = holding_a_beat(0, 0, &[]);
        let rejection = holding_a_beat(0, 0, &obs);
        let chain = holding_a_beat(0, 8, &obs);
        let sharp = holding_a_beat(0b10, 8, &obs);
        // Uniform deals: about 93% hold a higher card; weighted by the pass (likelihood 0.15),
        // about 2/3, and the chain's deals agree with rejection's; the exact test (0.05) of a
        // seat modelled as greedy leaves about 40%.
        assert!(uniform > 880, "{uniform}");
        assert!(rejection < uniform - 150, "{rejection} against {uniform}");
        assert!(
            rejection.abs_diff(chain) < 80,
            "{chain} against {rejection}"
        );
        assert!(sharp < chain - 150, "{sharp} against {chain}");
    }

    #[test]
    fn the_greedy_players_own_actions_pass_every_exact_test() {
        // Whole hands played by the greedy rollout policy: every decision, read as an
        // observation of a seat modelled as greedy, has likelihood 1 under the true hand.
        let setup = south();
        let mut rng = FastRng::new(11);
        let mut plays = Vec::new();
        let mut tested = 0;
        for _ in 0..40 {
            let hands = random_deal(&mut rng);
            let pos = open_position(0, hands[0], &[13; 4]);
            let mut sim = Sim::new(&pos, hands, 0);
            let mut seen = Vec::new();
            while !sim.over {
                let seat = sim.turn;
                sim.plays(&setup, seat, &mut plays);
                let pick = sim.policy(&setup, seat, &plays).map(|i| plays[i]);
                if sim.passed >> seat & 1 == 0 {
                    let min_other = (0..4)
                        .filter(|&s| s != seat && sim.out >> s & 1 == 0)
                        .map(|s| sim.hands[s].len())
                        .min()
                        .unwrap_or(u32::MAX);
                    let o = Observation {
                        seat,
                        table: sim.table,
                        play: pick,
                        later: CardSet::EMPTY,
                        min_other,
                    };
                    seen.push((sim.hands[seat], o));
                }
                sim.act(&setup, seat, pick);
            }
            let mut t = Shedding::new(&setup, &pos, &[], &[], None, 1).inferring(0b1111, 0);
            for (hand, o) in seen {
                assert_eq!(t.seen.likelihood(hand, &o), 1.0, "{o:?} holding {hand:?}");
                tested += 1;
            }
        }
        assert!(tested > 1000, "{tested}");
    }

    /// Four 13-card hands dealt at random.
    fn random_deal(rng: &mut FastRng) -> [CardSet; MAX_SEATS] {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        for (k, s) in (0..52).zip((0..4).cycle()) {
            let j = k + rng.below(52 - k);
            deck.swap(k, j);
            hands[s].0 |= 1u64 << deck[k];
        }
        hands
    }

    /// Seat 0's position after `turns` decisions of a hand the greedy policy plays from a
    /// random deal, with the other seats' decisions as observations (passes, follows, leads)
    /// and the true hands.
    fn midgame(seed: u64, turns: usize) -> (Position, Vec<Observation>, [CardSet; MAX_SEATS]) {
        let setup = south();
        let hands = random_deal(&mut FastRng::new(seed));
        let start = open_position(0, hands[0], &[13; 4]);
        let mut sim = Sim::new(&start, hands, 0);
        let mut plays = Vec::new();
        let mut seen = Vec::new();
        for _ in 0..turns {
            if sim.over {
                break;
            }
            let seat = sim.turn;
            sim.plays(&setup, seat, &mut plays);
            let pick = sim.policy(&setup, seat, &plays).map(|i| plays[i]);
            if seat != 0 && sim.passed >> seat & 1 == 0 {
                let o = Observation {
                    seat,
                    table: sim.table,
                    play: pick,
                    later: CardSet::EMPTY,
                    min_other: 13,
                };
                seen.push((sim.hands[seat], o));
            }
            sim.act(&setup, seat, pick);
        }
        let obs = seen
            .into_iter()
            .map(|(then, o)| Observation {
                later: then.difference(sim.hands[o.seat]),
                ..o
            })
            .collect();
        let counts = sim.hands.map(|h| h.len() as u8);
        let pos = Position {
            unseen: sim.hands[1].union(sim.hands[2]).union(sim.hands[3]),
            played_any: 0b1111,
            ..open_position(0, sim.hands[0], &counts[..4])
        };
        (pos, obs, sim.hands)
    }

    #[test]
    fn the_index_by_seat_gives_each_seat_the_likelihood_of_a_scan() {
        let setup = south();
        for seed in 0..20 {
            let (pos, obs, hands) = midgame(seed, 24 + seed as usize);
            for sharp in [0, 0b1110, 0b0100] {
                let mut t = Shedding::new(&setup, &pos, &obs, &[], None, seed).inferring(sharp, 8);
                for k in 0..60 {
                    if k > 0 {
                        t.draw();
                    }
                    let dealt = if k == 0 { hands } else { t.hands };
                    for s in 1..=4 {
                        let held = dealt.get(s).copied().unwrap_or(CardSet::EMPTY);
                        let scan = obs
                            .iter()
                            .filter(|o| o.seat == s)
                            .fold(1.0, |l, o| l * t.seen.likelihood(held, o));
                        let indexed = t.seat_likelihood(s, held, 1.0, f64::NEG_INFINITY);
                        assert_eq!(indexed.to_bits(), scan.to_bits(), "seat {s}, seed {seed}");
                    }
                }
            }
        }
    }

    /// The Metropolis steps as they were before the index by seat and the early rejection
    /// (the same proposals, drawn in the same order): each swap's two likelihoods in full by
    /// a scan of every observation. `state`: the plain chain's deal and likelihoods.
    type Plain = Option<([CardSet; MAX_SEATS + 1], [f64; MAX_SEATS + 1])>;
    fn plain_walk(t: &mut Shedding<'_>, state: &mut Plain) {
        let (players, me) = (t.setup.players, t.pos.me);
        let whole = |t: &mut Shedding<'_>, seat: usize, hand: CardSet| {
            let mut l = 1.0;
            for o in t.obs {
                if o.seat == seat {
                    l *= t.seen.likelihood(hand, o);
                }
            }
            l
        };
        let (mut held, mut lik) = state.unwrap_or_else(|| {
            let mut held = [CardSet::EMPTY; MAX_SEATS + 1];
            held[..MAX_SEATS].copy_from_slice(&t.hands);
            let mut lik = [1.0; MAX_SEATS + 1];
            for s in (0..players).filter(|&s| s != me) {
                lik[s] = whole(t, s, held[s]);
            }
            held[players] = (0..players).fold(t.pos.unseen, |u, s| {
                if s == me {
                    u
                } else {
                    u.difference(held[s])
                }
            });
            (held, lik)
        });
        let holders: Vec<usize> = (0..=players)
            .filter(|&s| s != me && !held[s].is_empty())
            .collect();
        let n = holders.len();
        for _ in 0..if n < 2 { 0 } else { t.steps } {
            let a = holders[t.rng.below(n)];
            let mut b = holders[t.rng.below(n - 1)];
            if b == a {
                b = holders[n - 1];
            }
            let ca = nth(held[a].0, t.rng.below(held[a].len() as usize));
            let cb = nth(held[b].0, t.rng.below(held[b].len() as usize));
            let (na, nb) = (CardSet(held[a].0 & !ca | cb), CardSet(held[b].0 & !cb | ca));
            let u = t.rng.unit();
            let (la, lb) = (whole(t, a, na), whole(t, b, nb));
            if u * lik[a] * lik[b] < la * lb {
                (held[a], held[b], lik[a], lik[b]) = (na, nb, la, lb);
            }
        }
        t.hands.copy_from_slice(&held[..MAX_SEATS]);
        *state = Some((held, lik));
    }

    /// The card of the `k`-th lowest set bit of `mask`, by a scan.
    fn nth(mask: u64, k: usize) -> u64 {
        let bits: Vec<u64> = (0..64)
            .map(|b| 1u64 << b)
            .filter(|b| mask & b != 0)
            .collect();
        bits[k]
    }

    #[test]
    fn the_chain_draws_the_deals_of_the_plain_walk() {
        let setup = south();
        for seed in 0..12 {
            let (pos, obs, _) = midgame(100 + seed, 20 + 2 * seed as usize);
            for (sharp, steps) in [(0, 8), (0b1110, 8), (0b1010, 24)] {
                let mut fast =
                    Shedding::new(&setup, &pos, &obs, &[], None, seed).inferring(sharp, steps);
                let mut plain =
                    Shedding::new(&setup, &pos, &obs, &[], None, seed).inferring(sharp, steps);
                let mut state: Plain = None;
                let mut moved = 0;
                let mut last = None;
                for _ in 0..200 {
                    fast.draw();
                    if state.is_none() {
                        plain.reject();
                    }
                    plain_walk(&mut plain, &mut state);
                    assert_eq!(fast.hands, plain.hands, "seed {seed}, sharp {sharp:b}");
                    moved += usize::from(last.is_some_and(|h| h != fast.hands));
                    last = Some(fast.hands);
                }
                // The chain moves: the test compares walks, not one standing deal.
                assert!(moved > 20, "{moved}");
            }
        }
    }

    #[test]
    fn known_hands_make_every_deal_the_same_and_searches_reproducible() {
        let setup = south();
        let pos = position("3♠ 4♦ 5♥ 9♣ 9♦ K♠ 2♥", [7, 5, 5, 5]);
        let plays = legal_plays(pos.hand, None, &setup.rules, CardSet::EMPTY);
        let cands: Vec<_> = plays.iter().map(|c| Some(*c)).collect();
        let budget = Budget::rollouts(300);
        let run = |g: Option<&Guide<'_>>| search(&setup, &pos, &[], &cands, None, &budget, 4, 0, g);
        let a = run(None);
        assert_eq!(a, run(None));
        assert!(a.rollouts <= 300 && a.best < cands.len());
        let mut known = [CardSet::EMPTY; MAX_SEATS];
        known[0] = pos.hand;
        known[1] = set("6♠ 7♠ 8♠ 10♠ J♠");
        known[2] = set("6♣ 7♣ 8♣ 10♣ J♣");
        known[3] = set("6♦ 7♦ 8♦ 10♦ J♦");
        // A guide keeping the net's best three: the race sees three, reported at their places.
        let net = crate::search::guide::test_net(4, 0.0, 1.0);
        let b = run(Some(&Guide {
            top: Some(3),
            ..Guide::of(&net)
        }));
        assert_eq!(b.samples.iter().filter(|&&n| n > 0).count(), 3);
        assert!(b.samples[0] > 0 && b.samples[b.best] > 0);
        let v = value(&setup, &pos, &[], 0, Some(known), 5, 1);
        assert_eq!(v, value(&setup, &pos, &[], 0, Some(known), 1, 2));
    }
}
