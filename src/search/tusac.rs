//! Search for Tứ Sắc: the root's discards and answers to an offer (claims, pass) raced over
//! deals of the cards it has not seen to the other hands and the stock (nọc), each deal played
//! out by the rollouts of [`crate::rollout::tusac`] (every seat's greedy policy there, unless
//! the learned policy plays them).
//!
//! **The learned policy in the rollouts.** With a [`Guide`] whose `rollouts` is set, every seat
//! of a rollout (but those in its `greedy_seats`) discards and answers offers as the learned
//! Tứ Sắc policy does ([`crate::policy`]): the network scores each legal action from that
//! seat's observation of the rollout's table, written by the learning environments' own writer
//! ([`crate::encode::observation::tusac`]): its hand, the dead cards, every seat's exposed
//! melds, the counts, the offer and the stock, and nothing of another hand. A win is always
//! taken, as `greedy` and the root do. The deals stay those above: the hidden hands of the
//! others come from the cards the root has not seen, so the root's choice reads nothing hidden.
//! One decision of the network (with the meld cells of each action) costs tens of microseconds
//! against greedy's few, so a rollout it plays is far dearer (see the learning guide).
//!
//! **Rollouts cut short by the policy's value.** With `value_after = Some(d)` (and the policy
//! playing the rollouts) a rollout stops at the root seat's `d`-th later decision that is its
//! own to make (two or more choices, no win on offer) and is scored there by the policy's best
//! score of that decision (the network scores actions in the units a seat expects to win by
//! the hand's end), read from the root seat's observation of the rollout's table, so it reads
//! nothing hidden; a hand that ends before is scored by its settlement. Such a rollout puts
//! the network's estimate of the rest of the hand in place of playing it: cheaper, and its
//! score less spread than a played-out one's, at the price of the network's error. The race
//! keeps these scores in hundredths of a unit and reports its means in units.
//!
//! **Inference.** Khui and the triple are mandatory (unless `triple_optional`), so a seat that
//! was offered a card and did not make the triple held at most one copy of it then, and holds
//! at most one now (hidden hands only shrink). Deals give those seats a second copy only when
//! no other deal is found (a bài bụng may have forbidden the claim).

use super::guide::{Guide, Scorer};
use super::infer::{Chain, Evidence};
use super::{mix, race_keeping_first, Budget, Outcome, Trial};
use crate::encode::observation::{tusac as write_observation, TuSacView};
use crate::policy::features::{tusac_row, TuSacAct, TuSacContext};
use crate::policy::net::argmax;
use crate::rollout::tusac::{
    discardable, entitled, Ask, Choice, Greedy, Offer, Phase, Player, Sim, TuSacPosition,
    TuSacSetup, MAX_SEATS,
};
use crate::rollout::FastRng;
use crate::tusac::cards::KINDS;
use crate::tusac::{legal_claims, min_rac, Claim, Hand, Kind};

/// Writes `seat`'s observation of the rollout's table (the learning environments' writer, seats
/// in turn order from it; `pending`: the seats still to act, by seat).
fn observe(sim: &Sim, setup: &TuSacSetup, seat: usize, pending: u32, out: &mut [f32]) {
    let n = setup.players;
    let offer = match sim.phase {
        Phase::Offer(o, _) => Some(o),
        Phase::Discard(_) => None,
    };
    let mut exposed = [[0u8; KINDS]; MAX_SEATS];
    let mut counts = [0u32; MAX_SEATS];
    let (mut to_act, mut offered_by) = (0u32, 0u32);
    for k in 0..n {
        let s = (seat + k) % n;
        exposed[k] = sim.exposed[s].0;
        counts[k] = sim
            .shown
            .map_or(sim.hands[s].len(), |(c, _)| u32::from(c[s]));
        to_act |= (pending >> s & 1) << k;
        offered_by |= u32::from(offer.is_some_and(|o| o.seat == s)) << k;
    }
    let view = TuSacView {
        hand: &sim.hands[seat].0,
        dead: &sim.dead.0,
        offer: offer.map(|o| o.card.index()),
        exposed: &exposed[..n],
        counts: &counts[..n],
        pending: to_act,
        offered_by,
        stock: sim
            .shown
            .map_or(sim.stock.len(), |(_, stock)| stock as usize),
        claim: offer.is_some(),
    };
    write_observation(&view, out);
}

/// Who decides for the seats of the search's rollouts: the greedy policy, or the learned one.
enum Policy<'a> {
    Greedy,
    Net(Box<NetSeat<'a>>),
}

/// The learned policy deciding for the seats of a rollout from their own observations (see
/// the module notes).
struct NetSeat<'a> {
    scorer: Scorer<'a>,
    /// Seats that play the greedy policy instead ([`Guide::greedy_seats`]).
    greedy_seats: u32,
    acts: Vec<TuSacAct>,
    /// Where a rollout stops on the policy's value (`value_after`), if it does.
    leaf: Option<Leaf>,
}

/// A rollout's stop at the root seat's `d`-th own decision (see the module notes).
#[derive(Clone, Copy, Debug)]
struct Leaf {
    /// The root seat.
    seat: usize,
    /// Its own decisions before the stop (`value_after`).
    after: u32,
    /// Its own decisions still to come before the stop in this rollout.
    left: u32,
    /// The policy's best score at the stop, once reached.
    value: Option<f32>,
}

impl<'a> Policy<'a> {
    /// The rollouts' player of a search by the root seat `me` under `guide`.
    /// `value_after`: cut each rollout short at the root's `d`-th own decision (only when the
    /// policy plays the rollouts).
    fn of(guide: Option<&Guide<'a>>, me: usize, value_after: Option<u32>) -> Policy<'a> {
        match guide {
            Some(g) if g.rollouts => Policy::Net(Box::new(NetSeat {
                scorer: Scorer::new(g.net),
                greedy_seats: g.greedy_seats & !(1 << me),
                acts: Vec::new(),
                leaf: value_after.map(|after| Leaf {
                    seat: me,
                    after,
                    left: after,
                    value: None,
                }),
            })),
            _ => Policy::Greedy,
        }
    }

    /// Readies the player for a new rollout (the stop not yet reached).
    fn restart(&mut self) {
        if let Policy::Net(p) = self {
            if let Some(leaf) = &mut p.leaf {
                leaf.left = leaf.after;
                leaf.value = None;
            }
        }
    }

    /// The policy's value where the rollout stopped (`None`: it has not stopped).
    fn value(&self) -> Option<f32> {
        match self {
            Policy::Net(p) => p.leaf.and_then(|l| l.value),
            Policy::Greedy => None,
        }
    }

    /// Do the rollouts stop on the policy's value?
    fn cuts(&self) -> bool {
        matches!(self, Policy::Net(p) if p.leaf.is_some())
    }

    /// The learned policy for `seat`, unless the seat plays greedy.
    fn net_for(&mut self, seat: usize) -> Option<&mut NetSeat<'a>> {
        match self {
            Policy::Net(p) if p.greedy_seats >> seat & 1 == 0 => Some(p),
            _ => None,
        }
    }
}

impl Player for Policy<'_> {
    fn stopped(&self) -> bool {
        self.value().is_some()
    }

    fn discard(&mut self, sim: &Sim, setup: &TuSacSetup, seat: usize) -> Kind {
        let Some(p) = self.net_for(seat) else {
            return Greedy.discard(sim, setup, seat);
        };
        let kinds = discardable(setup, &sim.hands[seat], sim.opening);
        if kinds.len() < 2 {
            return sim.greedy_discard(setup, seat);
        }
        p.acts.clear();
        p.acts.extend(kinds.iter().map(|k| {
            let mut cards = [0u8; KINDS];
            cards[usize::from(k.index())] = 1;
            TuSacAct { flag: 0, cards }
        }));
        kinds[p.best(sim, setup, seat, 1 << seat)]
    }

    /// The learned policy always takes a win.
    fn answer(
        &mut self,
        sim: &Sim,
        setup: &TuSacSetup,
        seat: usize,
        offer: &Offer,
        ask: Ask,
        pending: u32,
    ) -> Choice {
        let Some(p) = self.net_for(seat) else {
            return Greedy.answer(sim, setup, seat, offer, ask, pending);
        };
        if ask.win {
            return Choice::Win;
        }
        let held = sim.hands[seat].count(offer.card);
        let must = ask.must(setup, held, entitled(setup, offer) == seat, offer);
        if ask.claims.is_empty() || (must && ask.claims.len() == 1) {
            return ask
                .claims
                .into_iter()
                .next()
                .map_or(Choice::Pass, Choice::Claim);
        }
        p.acts.clear();
        p.acts.extend(ask.claims.iter().map(|c| {
            let mut cards = [0u8; KINDS];
            for k in c.used.iter().chain([&offer.card]) {
                cards[usize::from(k.index())] += 1;
            }
            TuSacAct { flag: 1, cards }
        }));
        if !must {
            p.acts.push(TuSacAct {
                flag: 3,
                cards: [0; KINDS],
            });
        }
        let i = p.best(sim, setup, seat, pending);
        ask.claims
            .into_iter()
            .nth(i)
            .map_or(Choice::Pass, Choice::Claim)
    }
}

impl NetSeat<'_> {
    /// The index of the best-scored of `acts` for `seat` (`pending`: the seats still to act).
    fn best(&mut self, sim: &Sim, setup: &TuSacSetup, seat: usize, pending: u32) -> usize {
        observe(sim, setup, seat, pending, &mut self.scorer.obs);
        let ctx = TuSacContext::from_observation(&self.scorer.obs);
        let acts = &self.acts;
        let scores = self
            .scorer
            .score(acts.len(), |i, row| tusac_row(&ctx, &acts[i], row));
        if let Some(leaf) = self.leaf.as_mut().filter(|l| l.seat == seat) {
            leaf.left = leaf.left.saturating_sub(1);
            if leaf.left == 0 && leaf.value.is_none() {
                leaf.value = Some(scores.iter().copied().fold(f32::NEG_INFINITY, f32::max));
            }
        }
        argmax(scores)
    }
}

/// Likelihood of a past decision of another seat that is not the model's choice from the
/// hand a deal gives that seat (see [`Seen`]).
pub const MISS: f64 = 0.1;
/// Most observations of other seats' decisions a search tests (the latest are kept).
pub const MAX_OBSERVED: usize = 96;

/// A public decision of another seat this hand, for the inference: the table as that seat
/// saw it then (everything in it public), the cards it has let go of its hidden hand since,
/// and what it did.
#[derive(Clone, Debug)]
pub struct TuSacObservation {
    pub seat: usize,
    /// The dead cards then.
    pub dead: Hand,
    /// Each seat's exposed cards then.
    pub exposed: [Hand; MAX_SEATS],
    /// Each seat's hidden count then.
    pub counts: [u8; MAX_SEATS],
    pub stock: u32,
    /// The offer it answered (`None`: it discarded).
    pub offer: Option<Offer>,
    /// The decision was the dealer's first discard.
    pub opening: bool,
    /// The cards the seat's hidden hand has lost since, this decision's included (its
    /// discards, the cards of its claims): hidden hands only shrink in Tứ Sắc (a card turned
    /// up from the stock is public and goes to a meld or the dead), so with what it holds now
    /// they are what it held then.
    pub later: Hand,
    /// What it did: a discard, a claim, or a pass (an offer it let go dead).
    pub choice: Choice,
}

/// The hand `now` with the cards `more` added.
fn with(now: Hand, more: &Hand) -> Hand {
    let mut h = now;
    for k in 0..KINDS {
        h.0[k] += more.0[k];
    }
    h
}

/// The claim with its cards in kind order (a claim's cards are a multiset).
fn sorted(c: &Claim) -> Claim {
    let mut used = c.used.clone();
    used.sort_by_key(|k| k.index());
    Claim { meld: c.meld, used }
}

/// The other seats' observed decisions as a likelihood of their hands, the [`Evidence`] of
/// the search's chain: a decision scores 1 when the model (the learned policy where the
/// search has one, else `greedy`) makes it again from the hand a deal gives the seat then
/// (what it holds in the deal and its [`TuSacObservation::later`] cards), else [`MISS`]. The
/// model reads only the seat's observation of that table, as in the rollouts. An answer is
/// tested only where the hand then had a claim of the offer (a seat with none could only
/// pass); a win is not tested (the exposed lệnh then is not recorded, and a seat that could
/// have won and did not is rare).
pub struct Seen<'a> {
    setup: &'a TuSacSetup,
    obs: &'a [TuSacObservation],
    /// Indices into `obs` grouped by seat, each seat's in their order.
    by_seat: Vec<usize>,
    /// Seat `s`'s observations: `by_seat[from[s]..from[s + 1]]` (the stock, holder
    /// `players`, has none).
    from: [usize; MAX_SEATS + 2],
    model: Policy<'a>,
}

impl<'a> Seen<'a> {
    /// The evidence of `obs` (only the last [`MAX_OBSERVED`] count) for a search by `me`,
    /// with the learned policy of `guide` as the model of every other seat (greedy without).
    pub fn new(
        setup: &'a TuSacSetup,
        obs: &'a [TuSacObservation],
        me: usize,
        guide: Option<&Guide<'a>>,
    ) -> Seen<'a> {
        let obs = &obs[obs.len().saturating_sub(MAX_OBSERVED)..];
        let mut by_seat: Vec<usize> = (0..obs.len())
            .filter(|&i| obs[i].seat != me && obs[i].seat < setup.players)
            .collect();
        by_seat.sort_by_key(|&i| obs[i].seat);
        let mut from = [0; MAX_SEATS + 2];
        for (s, f) in from.iter_mut().enumerate().skip(1) {
            *f = by_seat.partition_point(|&i| obs[i].seat < s);
        }
        let model = match guide {
            Some(g) => Policy::of(
                Some(&Guide {
                    rollouts: true,
                    greedy_seats: 0,
                    ..*g
                }),
                me,
                None,
            ),
            None => Policy::Greedy,
        };
        Seen {
            setup,
            obs,
            by_seat,
            from,
            model,
        }
    }

    /// How likely the model makes observation `o` for a seat holding `now` today.
    pub fn likelihood(&mut self, now: Hand, o: &TuSacObservation) -> f64 {
        let setup = self.setup;
        let then = with(now, &o.later);
        let seat = o.seat;
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        hands[seat] = then;
        let dead = o.dead;
        let seen = o.exposed.iter().fold(dead, with);
        let sim = Sim {
            hands,
            lenh: [0; MAX_SEATS],
            quad: [false; MAX_SEATS],
            seen,
            dead,
            exposed: o.exposed,
            stock: Vec::new(),
            phase: match o.offer {
                Some(offer) => Phase::Offer(offer, false),
                None => Phase::Discard(seat),
            },
            opening: o.opening,
            over: false,
            score: [0; MAX_SEATS],
            shown: Some((o.counts, o.stock)),
        };
        let model = match o.offer {
            None => Choice::Discard(self.model.discard(&sim, setup, seat)),
            Some(offer) => {
                let ent = entitled(setup, &offer) == seat;
                let claims =
                    legal_claims(&then, offer.card, ent, setup.triple_optional, setup.bung);
                if claims.is_empty() {
                    return if o.choice == Choice::Pass { 1.0 } else { MISS };
                }
                // Still to answer: this seat and every one after it in the answering order.
                let n = setup.players;
                let d = (seat + n - offer.seat) % n;
                let pending = (d..n)
                    .map(|e| (offer.seat + e) % n)
                    .filter(|&t| offer.from_stock || t != offer.seat)
                    .fold(0u32, |m, t| m | 1 << t);
                let ask = Ask { win: false, claims };
                self.model.answer(&sim, setup, seat, &offer, ask, pending)
            }
        };
        let same = match (&model, &o.choice) {
            (Choice::Claim(a), Choice::Claim(b)) => sorted(a) == sorted(b),
            (a, b) => a == b,
        };
        if same {
            1.0
        } else {
            MISS
        }
    }
}

impl Evidence<Hand> for Seen<'_> {
    fn observations(&self, holder: usize) -> usize {
        self.from[holder + 1] - self.from[holder]
    }

    fn factor(&mut self, holder: usize, i: usize, now: Hand) -> f64 {
        let obs = self.obs;
        self.likelihood(now, &obs[self.by_seat[self.from[holder] + i]])
    }
}

struct Rollouts<'a> {
    setup: &'a TuSacSetup,
    pos: &'a TuSacPosition,
    cands: &'a [Choice],
    known: Option<&'a [Hand]>,
    rng: FastRng,
    start: Option<Sim>,
    player: Policy<'a>,
    /// The inference: the evidence, the chain over the deals, and its steps per deal (see
    /// [`Rollouts::deal`]); `None` without observations or steps.
    infer: Option<(Seen<'a>, Option<Chain<Hand>>, u32)>,
}

/// Hundredths of a unit: the race's scores when rollouts stop on the policy's value.
const VALUE_SCALE: f64 = 100.0;

impl Rollouts<'_> {
    /// Deals the unseen cards: each other seat its count (at most one copy of the kinds it
    /// let go, while the pool allows), the rest to the stock in random order.
    fn deal(&mut self) -> Sim {
        let pos = self.pos;
        let n = self.setup.players;
        let mut pool: Vec<Kind> = pos.unseen.kinds();
        for i in (1..pool.len()).rev() {
            pool.swap(i, self.rng.below(i + 1));
        }
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        hands[pos.me] = pos.hand;
        for s in (0..n).filter(|&s| s != pos.me) {
            if let Some(known) = self.known {
                hands[s] = known[s];
                continue;
            }
            let mut need = usize::from(pos.counts[s]);
            let mut i = 0;
            while need > 0 && i < pool.len() {
                let k = pool[i];
                let capped = pos.single[s] >> k.index() & 1 == 1 && hands[s].count(k) >= 1;
                if capped {
                    i += 1;
                    continue;
                }
                hands[s].add(k);
                pool.swap_remove(i);
                need -= 1;
            }
            // The constraints could not all be met: fill from what is left.
            while need > 0 {
                let Some(k) = pool.pop() else { break };
                hands[s].add(k);
                need -= 1;
            }
        }
        if let Some((seen, chain, steps)) = self.infer.as_mut() {
            // The chain starts from the first deal above and walks from its last deal since.
            let chain = chain.get_or_insert_with(|| {
                let mut held = vec![Hand::EMPTY; n + 1];
                held[..n].copy_from_slice(&hands[..n]);
                held[n] = Hand::from_kinds(&pool);
                Chain::new(held, (0..=n).filter(|&s| s != pos.me), seen)
            });
            chain.walk(*steps, &mut self.rng, seen);
            let held = chain.held();
            for s in (0..n).filter(|&s| s != pos.me) {
                hands[s] = held[s];
            }
            pool = held[n].kinds();
            for i in (1..pool.len()).rev() {
                pool.swap(i, self.rng.below(i + 1));
            }
        }
        if let Some(known) = self.known {
            // Every hand is known: the stock is what nobody holds.
            let mut rest = pos.unseen;
            for s in (0..n).filter(|&s| s != pos.me) {
                rest = rest.minus(&known[s]);
            }
            pool = rest.kinds();
            for i in (1..pool.len()).rev() {
                pool.swap(i, self.rng.below(i + 1));
            }
        }
        pool.truncate(pos.stock as usize);
        let phase = match pos.offer {
            None => Phase::Discard(pos.me),
            Some(o) => {
                // Was the discard a meld card of the discarder's hand (then đền làng)?
                let penalty = !o.from_stock && !self.setup.enforce_rac && {
                    let h = hands[o.seat];
                    let mut with = h;
                    with.add(o.card);
                    min_rac(&h) >= min_rac(&with)
                };
                Phase::Offer(o, penalty)
            }
        };
        Sim::dealt(pos, hands, pool, phase)
    }
}

impl Trial for Rollouts<'_> {
    fn draw(&mut self) {
        self.start = Some(self.deal());
    }

    fn play(&mut self, c: usize) -> i32 {
        let (setup, me) = (self.setup, self.pos.me);
        let mut sim = self.start.clone().expect("a deal drawn");
        self.player.restart();
        match &self.cands[c] {
            Choice::Discard(k) => sim.discard(setup, me, *k),
            answer => sim.resolve(setup, me, Some(answer), &mut self.player),
        }
        let score = sim.finish(setup, me, &mut self.player);
        if !self.player.cuts() {
            return score;
        }
        let value = self.player.value().map_or(f64::from(score), f64::from);
        (value * VALUE_SCALE).round() as i32
    }
}

/// Races the root's candidate choices (all legal for it now); with a `guide` whose
/// `rollouts` is set, the learned policy plays the rollouts (see the module notes), and with
/// `value_after` (`Some(d)`, at least 1) each stops at the root's `d`-th own decision on the
/// policy's value; with `keep_first` the first candidate is kept unless beaten on evidence
/// ([`super::race_keeping_first`]); with `chain` above 0 and `observed` decisions of other
/// seats, each deal is drawn by `chain` Metropolis card swaps from the last one, weighted by
/// how well the model replays those decisions ([`Seen`]). The means are in units either way.
#[allow(clippy::too_many_arguments)]
pub fn search<'a>(
    setup: &'a TuSacSetup,
    pos: &'a TuSacPosition,
    cands: &'a [Choice],
    known: Option<&'a [Hand]>,
    budget: &Budget,
    seed: u64,
    guide: Option<&Guide<'a>>,
    keep_first: Option<f64>,
    value_after: Option<u32>,
    observed: &'a [TuSacObservation],
    chain: u32,
) -> Outcome {
    let infer = (known.is_none() && chain > 0)
        .then(|| Seen::new(setup, observed, pos.me, guide))
        .filter(|seen| !seen.by_seat.is_empty())
        .map(|seen| (seen, None, chain));
    let mut trial = Rollouts {
        setup,
        pos,
        cands,
        known,
        rng: FastRng::new(mix(seed, 0x7535)),
        start: None,
        player: Policy::of(guide, pos.me, value_after.filter(|&d| d > 0)),
        infer,
    };
    let mut out = race_keeping_first(&mut trial, cands.len(), budget, keep_first);
    if trial.player.cuts() {
        for m in &mut out.means {
            *m /= VALUE_SCALE;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::features::TUSAC_ACTION;
    use crate::policy::Net;
    use crate::rollout::fixtures::{
        tusac_opening as opening, tusac_setup as setup, TUSAC_HAND as HAND,
    };
    use crate::rollout::tusac::{check, dead_of, greedy_choice};
    use crate::search::guide::linear_net;
    use crate::tusac::parse_hand;

    #[test]
    fn rollouts_end_zero_sum_and_searches_reproduce() {
        let s = setup();
        let pos = opening(HAND);
        check(&s, &pos).unwrap();
        let cands: Vec<Choice> = discardable(&s, &pos.hand, true)
            .into_iter()
            .map(Choice::Discard)
            .collect();
        let mut t = Rollouts {
            setup: &s,
            pos: &pos,
            cands: &cands,
            known: None,
            rng: FastRng::new(3),
            start: None,
            infer: None,
            player: Policy::Greedy,
        };
        for _ in 0..50 {
            t.draw();
            let mut sim = t.start.clone().unwrap();
            sim.finish(&s, 0, &mut Greedy);
            assert!(sim.over);
            assert_eq!(sim.score.iter().sum::<i32>(), 0);
            let cards: u32 = sim.hands.iter().map(|h| h.len()).sum::<u32>()
                + sim.seen.len()
                + sim.stock.len() as u32;
            // Every card is in a hand, in sight or in the stock (a winner's offer aside).
            assert!((111..=112).contains(&cards), "{cards}");
        }
        let run = || {
            search(
                &s,
                &pos,
                &cands,
                None,
                &Budget::rollouts(200),
                5,
                None,
                None,
                None,
                &[],
                0,
            )
        };
        assert_eq!(run(), run());
        let g = greedy_choice(&pos, &cands);
        assert!(g < cands.len());
    }

    #[test]
    fn deals_respect_the_cards_a_seat_let_go() {
        let s = setup();
        let mut pos = opening(HAND);
        // Seat 1 let every Chốt and Mã go: it holds at most one of each.
        pos.single[1] = (0..28u32)
            .filter(|&k| k / 4 >= 5)
            .fold(0, |m, k| m | 1 << k);
        let mut t = Rollouts {
            setup: &s,
            pos: &pos,
            cands: &[],
            known: None,
            rng: FastRng::new(8),
            start: None,
            infer: None,
            player: Policy::Greedy,
        };
        for _ in 0..40 {
            let sim = t.deal();
            for k in 0..28 {
                if pos.single[1] >> k & 1 == 1 {
                    assert!(sim.hands[1].0[k] <= 1);
                }
            }
            assert_eq!(sim.hands[1].len(), 20);
            assert_eq!(sim.stock.len(), 31);
        }
    }

    /// A position later in the hand: seat 1 has exposed a triple and the discarder's card is
    /// on offer (`offer`), or the root is to discard; two cards are dead.
    fn midgame(offer: Option<Offer>) -> TuSacPosition {
        let hand = parse_hand(HAND).unwrap();
        let triple = parse_hand("HW HW HW").unwrap();
        let dead = parse_hand("EW KY").unwrap();
        let mut public = Hand::EMPTY;
        for k in triple.kinds().into_iter().chain(dead.kinds()) {
            public.add(k);
        }
        if let Some(o) = offer {
            public.add(o.card);
        }
        let unseen = Hand::DECK.minus(&hand).minus(&public);
        let mut exposed = [Hand::EMPTY; 4];
        exposed[1] = triple;
        TuSacPosition {
            counts: [hand.len() as u8, 17, 20, 19],
            exposed_lenh: [0, 1, 0, 0],
            public,
            exposed,
            stock: unseen.len() - 56,
            unseen,
            offer,
            opening: false,
            ..opening(HAND)
        }
    }

    /// A network whose every choice is `greedy`'s: the meld cells scored as `features.rs`
    /// documents it can (fewest rác after, then no Tướng, then most copies in sight), the
    /// first of equal scores taken as `greedy` takes the first of equal keys.
    fn greedy_net() -> Net {
        let mut w = vec![0.0f32; TUSAC_ACTION];
        let meld = KINDS + 4;
        w[meld] = -80.0; // cell 0, rác after / 8: -10 a rác
        w[meld + 3] = -5.0; // cell 3: a Tướng
        w[meld + 2] = 1.0; // cell 2, copies in sight / 4: +0.25 a copy
        linear_net("tusac", 4, &w, 1000.0)
    }

    fn candidates(s: &TuSacSetup, pos: &TuSacPosition) -> Vec<Choice> {
        match pos.offer {
            None => discardable(s, &pos.hand, pos.opening)
                .into_iter()
                .map(Choice::Discard)
                .collect(),
            Some(o) => {
                let claims =
                    legal_claims(&pos.hand, o.card, entitled(s, &o) == pos.me, false, s.bung);
                let mut out: Vec<Choice> = claims.into_iter().map(Choice::Claim).collect();
                out.push(Choice::Pass);
                out
            }
        }
    }

    fn positions() -> Vec<TuSacPosition> {
        let offer = |card: &str, from_stock, seat| {
            Some(Offer {
                card: parse_hand(card).unwrap().kinds()[0],
                from_stock,
                seat,
            })
        };
        vec![
            opening(HAND),
            midgame(None),
            // A Chốt Đỏ the seat before discarded: a pair, Chốt sets, or a pass...
            midgame(offer("PR", false, 3)),
            // ... and a Tướng Xanh the root turned up itself (it must take it, but how?).
            midgame(offer("KG", true, 0)),
        ]
    }

    #[test]
    fn rollouts_a_greedy_network_plays_are_the_greedy_rollouts() {
        // The differential test of the policy's rollouts: the observation of every seat of
        // every rollout (hand, dead cards, exposed melds, offer) feeds the meld cells, and
        // only a faithful one makes this network choose as `greedy` does.
        let s = setup();
        let net = greedy_net();
        let guide = Guide {
            rollouts: true,
            ..Guide::of(&net)
        };
        for pos in positions() {
            check(&s, &pos).unwrap();
            let cands = candidates(&s, &pos);
            assert!(cands.len() > 1);
            for seed in 0..3 {
                let budget = Budget::rollouts(90);
                let greedy = search(
                    &s,
                    &pos,
                    &cands,
                    None,
                    &budget,
                    seed,
                    None,
                    None,
                    None,
                    &[],
                    0,
                );
                let policy = search(
                    &s,
                    &pos,
                    &cands,
                    None,
                    &budget,
                    seed,
                    Some(&guide),
                    None,
                    None,
                    &[],
                    0,
                );
                assert_eq!(greedy, policy, "{:?}", pos.offer);
            }
        }
    }

    #[test]
    fn another_network_plays_other_rollouts_the_same_for_the_same_seed() {
        // A network that discards the card leaving the most rác plays another game.
        let s = setup();
        let mut w = vec![0.0f32; TUSAC_ACTION];
        w[KINDS + 4] = 80.0;
        let net = linear_net("tusac", 4, &w, 10.0);
        let guide = Guide {
            rollouts: true,
            ..Guide::of(&net)
        };
        // Every seat but the root plays greedy: the root's own later play still changes.
        let masked = Guide {
            greedy_seats: 0b1110,
            ..guide
        };
        let pos = midgame(None);
        let cands = candidates(&s, &pos);
        let budget = Budget::rollouts(120);
        let run = |g: Option<&Guide<'_>>| {
            search(&s, &pos, &cands, None, &budget, 4, g, None, None, &[], 0)
        };
        let greedy = run(None);
        let policy = run(Some(&guide));
        let own = run(Some(&masked));
        assert_ne!(greedy.means, policy.means);
        assert_ne!(own.means, policy.means);
        assert_ne!(own.means, greedy.means);
        assert_eq!(policy, run(Some(&guide)));
    }

    /// The root's score of candidate `c` on `deals` deals of `pos`, rollouts played by `net`
    /// and stopped at the root's `value_after`-th own decision (`None`: played out).
    fn plays(
        s: &TuSacSetup,
        pos: &TuSacPosition,
        cands: &[Choice],
        net: &Net,
        value_after: Option<u32>,
        deals: usize,
    ) -> Vec<Vec<i32>> {
        let guide = Guide {
            rollouts: true,
            ..Guide::of(net)
        };
        let mut t = Rollouts {
            setup: s,
            pos,
            cands,
            known: None,
            rng: FastRng::new(11),
            start: None,
            infer: None,
            player: Policy::of(Some(&guide), pos.me, value_after),
        };
        (0..deals)
            .map(|_| {
                t.draw();
                (0..cands.len()).map(|c| t.play(c)).collect()
            })
            .collect()
    }

    #[test]
    fn a_rollout_cut_short_scores_the_policys_value_at_the_roots_next_decision() {
        // A network that scores every action 7.25 (and plays the first): a rollout stopped at
        // the root's decision is worth 7.25 units (725 hundredths); one whose hand ends first
        // is worth its settlement, the very score of the same rollout played out.
        let s = setup();
        let net = linear_net("tusac", 4, &[0.0; TUSAC_ACTION], 7.25);
        for pos in positions() {
            let cands = candidates(&s, &pos);
            let full = plays(&s, &pos, &cands, &net, None, 12);
            let next = plays(&s, &pos, &cands, &net, Some(1), 12);
            let later = plays(&s, &pos, &cands, &net, Some(3), 12);
            let mut cut = [0; 2];
            for ((f, n), l) in full
                .iter()
                .flatten()
                .zip(next.iter().flatten())
                .zip(later.iter().flatten())
            {
                assert!(*n == 725 || *n == 100 * f, "{n} {f}");
                assert!(*l == 725 || *l == 100 * f, "{l} {f}");
                // A rollout that reaches the root's third decision reached its first.
                if *l == 725 {
                    assert_eq!(*n, 725);
                }
                cut[0] += usize::from(*n == 725);
                cut[1] += usize::from(*l == 725);
            }
            assert!(cut[0] > 0 && cut[1] <= cut[0], "{cut:?}");
        }
        // The race reports its means in units, and reproduces.
        let pos = midgame(None);
        let cands = candidates(&s, &pos);
        let guide = Guide {
            rollouts: true,
            ..Guide::of(&net)
        };
        let plain = Guide::of(&net);
        let run = |g: Option<&Guide<'_>>, d| {
            search(
                &s,
                &pos,
                &cands,
                None,
                &Budget::rollouts(60),
                2,
                g,
                None,
                d,
                &[],
                0,
            )
        };
        let out = run(Some(&guide), Some(1));
        assert_eq!(out, run(Some(&guide), Some(1)));
        assert!(
            out.means.iter().all(|m| (-200.0..=200.0).contains(m)),
            "{:?}",
            out.means
        );
        assert_ne!(out.means, run(Some(&guide), None).means);
        // Zero decisions is no cut; without the policy in the rollouts there is none either.
        assert_eq!(run(Some(&guide), Some(0)), run(Some(&guide), None));
        assert_eq!(run(Some(&plain), Some(1)), run(None, None));
    }

    #[test]
    fn a_rollout_sees_the_dead_and_exposed_cards_apart() {
        let s = setup();
        let pos = midgame(None);
        let sim = Rollouts {
            setup: &s,
            pos: &pos,
            cands: &[],
            known: None,
            rng: FastRng::new(2),
            start: None,
            infer: None,
            player: Policy::Greedy,
        }
        .deal();
        assert_eq!(sim.exposed[1], parse_hand("HW HW HW").unwrap());
        assert_eq!(sim.dead, parse_hand("EW KY").unwrap());
        let mut obs = vec![0.0; crate::encode::observation::tusac_size(4)];
        // Seat 3's observation: its own hand first, seat 1 (two seats on) exposed a triple.
        observe(&sim, &s, 3, 1 << 3, &mut obs);
        let ctx = TuSacContext::from_observation(&obs);
        assert_eq!(ctx.hand, sim.hands[3]);
        let hw = parse_hand("HW").unwrap().kinds()[0];
        assert_eq!(obs[(3 + 2) * KINDS + usize::from(hw.index())], 0.75);
        assert_eq!(
            ctx.seen[usize::from(hw.index())],
            3 + sim.hands[3].count(hw)
        );
        // Exposed cards not in sight are refused.
        let mut bad = midgame(None);
        bad.exposed[2] = parse_hand("CW").unwrap();
        assert!(check(&s, &bad).is_err());
    }

    /// A hand played from a random deal of the opening position by `player` for every seat,
    /// with the decisions of the seats but 0 recorded as the inference reads them from the
    /// public events (discards, claims, passes on offers that went dead), their `later` cards
    /// from the hands at the end, and the hands at the end.
    fn played(
        s: &TuSacSetup,
        seed: u64,
        turns: usize,
        player: &mut Policy<'_>,
    ) -> (Vec<TuSacObservation>, [Hand; MAX_SEATS]) {
        let pos = opening(HAND);
        let cands = [Choice::Pass];
        let mut t = Rollouts {
            setup: s,
            pos: &pos,
            cands: &cands,
            known: None,
            rng: FastRng::new(seed),
            start: None,
            infer: None,
            player: Policy::Greedy,
        };
        let mut sim = t.deal();
        let mut seen: Vec<(Hand, TuSacObservation)> = Vec::new();
        for _ in 0..turns {
            if sim.over {
                break;
            }
            let table = |sim: &Sim, seat: usize, offer: Option<Offer>, choice: Choice| {
                let mut counts = [0u8; MAX_SEATS];
                for (c, h) in counts.iter_mut().zip(&sim.hands) {
                    *c = h.len() as u8;
                }
                let o = TuSacObservation {
                    seat,
                    dead: sim.dead,
                    exposed: sim.exposed,
                    counts,
                    stock: sim.stock.len() as u32,
                    offer,
                    opening: sim.opening,
                    later: Hand::EMPTY,
                    choice,
                };
                (sim.hands[seat], o)
            };
            match sim.phase {
                Phase::Discard(seat) => {
                    let k = player.discard(&sim, s, seat);
                    if seat != 0 {
                        seen.push(table(&sim, seat, None, Choice::Discard(k)));
                    }
                    sim.discard(s, seat, k);
                }
                Phase::Offer(offer, _) => {
                    let before = sim.clone();
                    sim.resolve(s, 0, None, player);
                    if sim.over {
                        continue;
                    }
                    if sim.dead.count(offer.card) > before.dead.count(offer.card) {
                        for t in (1..s.players).filter(|&t| offer.from_stock || t != offer.seat) {
                            seen.push(table(&before, t, Some(offer), Choice::Pass));
                        }
                    } else if let Some(t) =
                        (1..s.players).find(|&t| sim.exposed[t] != before.exposed[t])
                    {
                        let mut used = sim.exposed[t].minus(&before.exposed[t]);
                        used.take(offer.card);
                        let claim = legal_claims(
                            &before.hands[t],
                            offer.card,
                            entitled(s, &offer) == t,
                            s.triple_optional,
                            s.bung,
                        )
                        .into_iter()
                        .find(|c| Hand::from_kinds(&c.used) == used)
                        .expect("the claim made is a legal one");
                        seen.push(table(&before, t, Some(offer), Choice::Claim(claim)));
                    }
                }
            }
        }
        let obs = seen
            .into_iter()
            .map(|(then, o)| TuSacObservation {
                later: then.minus(&sim.hands[o.seat]),
                ..o
            })
            .collect();
        (obs, sim.hands)
    }

    #[test]
    fn the_models_own_decisions_pass_every_exact_test() {
        let s = setup();
        let net = greedy_net();
        let mut w = vec![0.0f32; TUSAC_ACTION];
        w[KINDS + 4] = 80.0;
        w[3] = -5.0;
        let other = linear_net("tusac", 4, &w, 10.0);
        let mut tested = [0usize; 3];
        for seed in 0..12 {
            for (m, net) in [None, Some(&net), Some(&other)].into_iter().enumerate() {
                let guide = net.map(|n| Guide {
                    rollouts: true,
                    ..Guide::of(n)
                });
                let mut player = Policy::of(guide.as_ref(), 0, None);
                let (obs, hands) = played(&s, seed, 400, &mut player);
                let mut seen = Seen::new(&s, &obs, 0, guide.as_ref());
                for o in &obs {
                    assert_eq!(seen.likelihood(hands[o.seat], o), 1.0, "{o:?}");
                    tested[m] += 1;
                }
                // Another hand for the seat (a card it let go of swapped in) fails some test.
                assert!(obs.iter().any(|o| {
                    let mut h = hands[o.seat];
                    h.0.iter().position(|&c| c > 0).is_some_and(|k| {
                        h.0[k] -= 1;
                        h.0[(k + 9) % KINDS] += 1;
                        seen.likelihood(h, o) < 1.0
                    })
                }));
            }
        }
        assert!(tested.iter().all(|&t| t > 300), "{tested:?}");
    }

    #[test]
    fn a_seat_that_passed_on_an_offer_it_must_claim_seldom_holds_its_pair() {
        // Seat 1 let a turned-up PW go dead: holding two PW it would have had to make the
        // triple, so the chain's deals give it two far less often than uniform deals do.
        let s = setup();
        let mut pos = midgame(None);
        pos.single = [0; MAX_SEATS];
        let pw = Kind::from_index(27).expect("a kind");
        let mut counts = [0u8; MAX_SEATS];
        counts[..4].copy_from_slice(&pos.counts);
        let passed = TuSacObservation {
            seat: 1,
            dead: dead_of(&pos),
            exposed: pos.exposed,
            counts,
            stock: pos.stock + 1,
            offer: Some(Offer {
                card: pw,
                from_stock: true,
                seat: 1,
            }),
            opening: false,
            later: Hand::EMPTY,
            choice: Choice::Pass,
        };
        let mut two = Hand::EMPTY;
        two.add(pw);
        two.add(pw);
        let mut seen = Seen::new(&s, std::slice::from_ref(&passed), 0, None);
        assert_eq!(seen.likelihood(two, &passed), MISS);
        assert_eq!(seen.likelihood(Hand::EMPTY, &passed), 1.0);
        let obs = [passed];
        let cands = [Choice::Pass];
        let pairs = |chain: u32| {
            let mut t = Rollouts {
                setup: &s,
                pos: &pos,
                cands: &cands,
                known: None,
                rng: FastRng::new(11),
                start: None,
                infer: (chain > 0).then(|| (Seen::new(&s, &obs, 0, None), None, chain)),
                player: Policy::Greedy,
            };
            (0..2000)
                .filter(|_| {
                    let sim = t.deal();
                    let held: u32 = (0..4).map(|s| sim.hands[s].len()).sum();
                    // Every seat its count, the stock its size, from the unseen cards.
                    assert_eq!(
                        held + sim.stock.len() as u32,
                        pos.hand.len() + pos.unseen.len()
                    );
                    assert!((1..4).all(|q| sim.hands[q].len() == u32::from(pos.counts[q])));
                    sim.hands[1].count(pw) >= 2
                })
                .count()
        };
        let (uniform, inferred) = (pairs(0), pairs(8));
        assert!(uniform > 100, "{uniform}");
        // Under half as often (not a tenth: the pass also counts against hands with a claim
        // the model makes from one PW, which weighs the other deals down too).
        assert!(inferred * 2 < uniform, "{inferred} against {uniform}");
    }
}
