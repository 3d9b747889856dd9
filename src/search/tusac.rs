//! Search for Tứ Sắc: a hand played out in Rust by the greedy policy of every seat, and the
//! root's discards and answers to an offer (claims, pass) raced over deals of the cards it has
//! not seen to the other hands and the stock (nọc).
//!
//! The rollout follows the game's flow (`vncards.tusac.Game`): an offer is answered by every
//! seat that may act on it, resolved by priority (win > quad > triple > the entitled seat's
//! other claims; between equals the seat nearest after the offer's seat), a claimer exposes
//! its meld and discards, an unclaimed offer goes dead and the next card is turned up until
//! the stock is down to `draw_at_stock`. The greedy policy is the `greedy` bot's: win when
//! possible; claim when the claim and one discard leave no more rác than the hand has now;
//! discard the card whose loss leaves the fewest rác, preferring cards with many copies in
//! sight.
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
use crate::policy::features::{tusac_row, GreedySeat, TuSacAct, TuSacContext};
use crate::policy::net::argmax;
use crate::rollout::FastRng;
use crate::tusac::flow::{Action, Flow, Source};
use crate::tusac::{
    legal_claims, min_rac, priority, win_total, BungRule, Claim, Hand, Kind, MeldKind, Scoring,
};
use crate::vector::tusac::TuSacTable;
use crate::vector::Game;

/// Most seats at a Tứ Sắc table.
pub const MAX_SEATS: usize = 4;
const KINDS: usize = 28;
const GENERALS: u8 = 4;

/// A table's rules as the rollouts need them.
#[derive(Clone, Copy, Debug)]
pub struct TuSacSetup {
    pub players: usize,
    pub scoring: Scoring,
    pub triple_optional: bool,
    pub bung: BungRule,
    /// `discard_rule = "enforce"`: only rác may be discarded while the hand has any.
    pub enforce_rac: bool,
    pub tuong_as_ty: bool,
    pub draw_at_stock: u32,
    /// `payment = "flat"`: 1 per loser, 2 when the winner holds a quad.
    pub flat: bool,
    /// `claim_window = "every_seat"`: every seat but the discarder answers an offer (else only
    /// those with a claim or the win). Only the learned policy reads it (which seats are still
    /// to answer is part of its observation).
    pub every_seat: bool,
}

/// The card on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub card: Kind,
    /// Turned up from the stock (else discarded).
    pub from_stock: bool,
    /// The discarder, or the seat that turned the card up.
    pub seat: usize,
}

/// What the root knows, and the public state.
#[derive(Clone, Debug)]
pub struct TuSacPosition {
    pub me: usize,
    pub hand: Hand,
    /// Hidden cards of every seat (the root's entry is its hand size).
    pub counts: [u8; MAX_SEATS],
    pub exposed_lenh: [i32; MAX_SEATS],
    /// Seats with a quad among their exposed melds (dealt quằn, 4 con khui).
    pub exposed_quad: [bool; MAX_SEATS],
    /// Cards in sight of everyone: exposed melds, dead cards, and the offer (if any).
    pub public: Hand,
    /// Each seat's exposed cards (its melds), among `public`; the rest of `public` but the
    /// offer is dead. Only the learned policy tells them apart.
    pub exposed: [Hand; MAX_SEATS],
    /// Cards the root has not seen: the other hidden hands and the stock.
    pub unseen: Hand,
    pub stock: u32,
    /// `Some`: an offer waits for answers; `None`: the root must discard.
    pub offer: Option<Offer>,
    /// The dealer's first discard (the tỳ), which may be a Tướng under `tuong_as_ty`.
    pub opening: bool,
    /// Per seat, bit k: the seat holds at most one copy of kind k (it let one go).
    pub single: [u32; MAX_SEATS],
}

impl TuSacPosition {
    /// The position of seat `me` holding `hand`, with `public` in sight (the exposed and dead
    /// cards and the offer), `stock` cards left in the stock and `offer` waiting for answers:
    /// the cards it has not seen are the rest of the deck. The per-seat fields start empty
    /// (no hidden cards, nothing exposed, nothing let go) for the caller to fill; an error
    /// when a kind has more than four copies in the hand and in sight.
    pub fn new(
        me: usize,
        hand: Hand,
        public: Hand,
        stock: u32,
        offer: Option<Offer>,
        opening: bool,
    ) -> Result<TuSacPosition, String> {
        let mut unseen = Hand::DECK;
        for k in 0..KINDS {
            let used = hand.0[k] + public.0[k];
            if used > 4 {
                return Err(format!("kind {k}: more than four copies"));
            }
            unseen.0[k] -= used;
        }
        Ok(TuSacPosition {
            me,
            hand,
            counts: [0; MAX_SEATS],
            exposed_lenh: [0; MAX_SEATS],
            exposed_quad: [false; MAX_SEATS],
            public,
            exposed: [Hand::EMPTY; MAX_SEATS],
            unseen,
            stock,
            offer,
            opening,
            single: [0; MAX_SEATS],
        })
    }

    /// What `seat` knows at the flow's table, as the search bot reads it from the seat's view
    /// (`vncards.bots.tusac_search`): its hand, every seat's hidden count and exposed melds
    /// (their lệnh, a quad among them), the dead cards, the offer and the stock. The kinds a
    /// seat let go are not read (`single` stays empty: the greedy choice needs none).
    pub fn of_flow(flow: &Flow, seat: usize) -> TuSacPosition {
        let n = flow.players;
        let mut exposed = [Hand::EMPTY; MAX_SEATS];
        let mut public = Hand::EMPTY;
        for (s, melds) in flow.exposed.iter().enumerate().take(n) {
            for (_, cards) in melds {
                for &k in cards {
                    exposed[s].add(k);
                    public.add(k);
                }
            }
        }
        for &k in &flow.dead {
            public.add(k);
        }
        let offer = flow.offer.map(|o| {
            public.add(o.card);
            Offer {
                card: o.card,
                from_stock: o.source == Source::Stock,
                seat: o.seat,
            }
        });
        let mut pos = TuSacPosition::new(
            seat,
            flow.hands[seat],
            public,
            flow.stock.len() as u32,
            offer,
            flow.opening,
        )
        .expect("a flow holds four copies of each kind");
        for s in 0..n {
            pos.counts[s] = flow.hands[s].len() as u8;
            pos.exposed_lenh[s] = flow.exposed_lenh(s);
            pos.exposed_quad[s] = flow.exposed[s].iter().any(|(m, _)| m.is_quad());
        }
        pos.exposed = exposed;
        pos
    }
}

/// A root decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Discard(Kind),
    Claim(Claim),
    Win,
    Pass,
}

impl Choice {
    /// The choice of a legal action of the flow (whose claims name their meld).
    pub fn of_action(action: &Action) -> Choice {
        match action {
            Action::Discard(k) => Choice::Discard(*k),
            Action::Claim(meld, used) => Choice::Claim(Claim {
                meld: meld.expect("a legal claim names its meld"),
                used: used.clone(),
            }),
            Action::Win => Choice::Win,
            Action::Pass => Choice::Pass,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Discard(usize),
    Offer(Offer, bool),
}

#[derive(Clone, Debug)]
struct Sim {
    hands: [Hand; MAX_SEATS],
    lenh: [i32; MAX_SEATS],
    quad: [bool; MAX_SEATS],
    /// The cards in sight (`dead` and every `exposed`), as `greedy` counts them.
    seen: Hand,
    dead: Hand,
    exposed: [Hand; MAX_SEATS],
    stock: Vec<Kind>,
    phase: Phase,
    opening: bool,
    over: bool,
    score: [i32; MAX_SEATS],
    /// The hidden counts and the stock a seat saw, where the `Sim` holds only that seat's
    /// hand (a past decision replayed for the inference); `None`: read from the hands and
    /// the stock.
    shown: Option<([u8; MAX_SEATS], u32)>,
}

fn without(h: &Hand, k: Kind) -> Hand {
    let mut out = *h;
    out.take(k);
    out
}

fn kinds_held(h: &Hand) -> impl Iterator<Item = Kind> + '_ {
    (0..KINDS as u8)
        .filter(|&i| h.0[i as usize] > 0)
        .filter_map(Kind::from_index)
}

impl Sim {
    /// Writes `seat`'s observation of the table (the learning environments' writer, seats
    /// in turn order from it; `pending`: the seats still to act, by seat).
    fn observe(&self, setup: &TuSacSetup, seat: usize, pending: u32, out: &mut [f32]) {
        let n = setup.players;
        let offer = match self.phase {
            Phase::Offer(o, _) => Some(o),
            Phase::Discard(_) => None,
        };
        let mut exposed = [[0u8; KINDS]; MAX_SEATS];
        let mut counts = [0u32; MAX_SEATS];
        let (mut to_act, mut offered_by) = (0u32, 0u32);
        for k in 0..n {
            let s = (seat + k) % n;
            exposed[k] = self.exposed[s].0;
            counts[k] = self
                .shown
                .map_or(self.hands[s].len(), |(c, _)| u32::from(c[s]));
            to_act |= (pending >> s & 1) << k;
            offered_by |= u32::from(offer.is_some_and(|o| o.seat == s)) << k;
        }
        let view = TuSacView {
            hand: &self.hands[seat].0,
            dead: &self.dead.0,
            offer: offer.map(|o| o.card.index()),
            exposed: &exposed[..n],
            counts: &counts[..n],
            pending: to_act,
            offered_by,
            stock: self
                .shown
                .map_or(self.stock.len(), |(_, stock)| stock as usize),
            claim: offer.is_some(),
        };
        write_observation(&view, out);
    }

    /// The greedy discard of `seat`: fewest rác after, then no Tướng, then most copies in sight.
    fn greedy_discard(&self, setup: &TuSacSetup, seat: usize) -> Kind {
        let h = &self.hands[seat];
        self.greedy_discard_of(seat, discardable(setup, h, self.opening))
            .unwrap_or_else(|| kinds_held(h).next().expect("a hand to discard from"))
    }

    /// The greedy discard of `seat` among `allowed` (the `greedy` bot's key: fewest rác after,
    /// then no Tướng, then most copies in sight, then the lowest kind); `None` when `allowed`
    /// is empty.
    fn greedy_discard_of(
        &self,
        seat: usize,
        allowed: impl IntoIterator<Item = Kind>,
    ) -> Option<Kind> {
        let h = &self.hands[seat];
        let mut best: Option<((u32, bool, i32, u8), Kind)> = None;
        for k in allowed {
            let seen = i32::from(self.seen.count(k)) + i32::from(h.count(k));
            let key = (min_rac(&without(h, k)), k.is_general(), -seen, k.index());
            if best.as_ref().map_or(true, |(b, _)| key < *b) {
                best = Some((key, k));
            }
        }
        best.map(|b| b.1)
    }

    /// Fewest rác after one non-Tướng discard from `h` (and minus copies in sight), the
    /// copies in sight counted as the `greedy` bot counts them before its claim: those in
    /// `held` (the whole hand), the dead and the exposed.
    fn best_discard(&self, h: &Hand, held: &Hand) -> (u32, i32) {
        let mut best = (h.len() + 1, 0);
        for k in kinds_held(h).filter(|k| !k.is_general()) {
            let seen = i32::from(self.seen.count(k)) + i32::from(held.count(k));
            best = best.min((min_rac(&without(h, k)), -seen));
        }
        best
    }

    fn discard(&mut self, setup: &TuSacSetup, seat: usize, k: Kind) {
        let before = self.hands[seat];
        self.hands[seat].take(k);
        // A meld card (no rác of the fewest-rác splits) pays đền làng if won on.
        let penalty = !setup.enforce_rac && min_rac(&self.hands[seat]) >= min_rac(&before);
        self.opening = false;
        self.phase = Phase::Offer(
            Offer {
                card: k,
                from_stock: false,
                seat,
            },
            penalty,
        );
    }

    /// The greedy answer of `seat` to the offer: its priority and what it does.
    fn greedy_answer(
        &self,
        setup: &TuSacSetup,
        seat: usize,
        offer: &Offer,
        win: bool,
        claims: Vec<Claim>,
    ) -> Choice {
        if win {
            return Choice::Win;
        }
        let entitled = entitled(setup, offer) == seat;
        let must =
            claims.iter().any(|c| {
                c.meld == MeldKind::ClaimedQuad
                    || (c.meld == MeldKind::ClaimedTriple && !setup.triple_optional)
            }) || (!claims.is_empty() && entitled && offer.from_stock && offer.card.is_general());
        self.greedy_claim(seat, claims, must)
    }

    /// The greedy claim of `seat` among `claims` (the first of those whose claim and best
    /// discard after leave the fewest rác, then most copies of that discard in sight), made
    /// when it must claim or when it leaves no more rác than the hand has now; else a pass.
    fn greedy_claim(&self, seat: usize, claims: Vec<Claim>, must: bool) -> Choice {
        let h = &self.hands[seat];
        let mut best: Option<((u32, i32), Claim)> = None;
        for c in claims {
            let key = self.best_discard(&h.minus(&Hand::from_kinds(&c.used)), h);
            if best.as_ref().map_or(true, |(b, _)| key < *b) {
                best = Some((key, c));
            }
        }
        match best {
            Some(((rac, _), c)) if must || rac <= min_rac(h) => Choice::Claim(c),
            _ => Choice::Pass,
        }
    }

    /// The seats that may act on the offer answer it in turn from the offer's seat (the root
    /// with `root`, when given; the others as `player` decides), each asked only while its
    /// best answer could outrank the best so far (the others' answers could not change the
    /// outcome); the best answer by priority is carried out.
    fn resolve(
        &mut self,
        setup: &TuSacSetup,
        me: usize,
        root: Option<&Choice>,
        player: &mut Player<'_>,
    ) {
        let Phase::Offer(offer, penalty) = self.phase else {
            return;
        };
        let n = setup.players;
        let k = offer.card;
        let ent = entitled(setup, &offer);
        // Each seat's options by its place in the answering order.
        let mut asks: [Option<Ask>; MAX_SEATS] = Default::default();
        for (d, ask) in asks.iter_mut().enumerate().take(n) {
            let t = (offer.seat + d) % n;
            if !offer.from_stock && t == offer.seat {
                continue;
            }
            let h = &self.hands[t];
            let win = win_total(h, self.lenh[t], Some(k), setup.scoring).is_some();
            let claims = legal_claims(h, k, t == ent, setup.triple_optional, setup.bung);
            *ask = Some(Ask { win, claims });
        }
        let mut best: Option<((u8, i32), usize, Choice)> = None;
        for d in 0..n {
            let t = (offer.seat + d) % n;
            let Some(ask) = asks[d].take() else {
                continue;
            };
            let floor = best.as_ref().map(|(b, _, _)| b.0);
            let answer = match root.filter(|_| t == me) {
                Some(c) => c.clone(),
                None => {
                    // A later seat outranks only with a higher priority (`None`, a seat
                    // that can only pass, is below every priority).
                    if ask.potential() <= floor {
                        continue;
                    }
                    // Still to answer: this seat and those after it (under `every_seat`
                    // every eligible one; else those whose best answer could outrank).
                    let mut pending = 1u32 << t;
                    for (e, later) in asks.iter().enumerate().take(n).skip(d + 1) {
                        let s = (offer.seat + e) % n;
                        let open = later
                            .as_ref()
                            .is_some_and(|a| setup.every_seat || a.potential() > floor);
                        if open {
                            pending |= 1 << s;
                        }
                    }
                    player.answer(self, setup, t, &offer, ask, pending)
                }
            };
            let p = match &answer {
                Choice::Pass | Choice::Discard(_) => continue,
                Choice::Win => 3,
                Choice::Claim(c) => priority(Some(c.meld)),
            };
            let key = (p, -(d as i32));
            if best.as_ref().map_or(true, |(b, _, _)| key > *b) {
                best = Some((key, t, answer));
            }
        }
        match best {
            Some((_, t, Choice::Win)) => self.win(setup, t, &offer, penalty),
            Some((_, t, Choice::Claim(c))) => {
                for &u in &c.used {
                    self.hands[t].take(u);
                    self.seen.add(u);
                    self.exposed[t].add(u);
                }
                self.seen.add(k);
                self.exposed[t].add(k);
                self.lenh[t] += c.meld.lenh_with(setup.scoring.set_lenh);
                self.quad[t] |= c.meld.is_quad();
                self.phase = Phase::Discard(t);
            }
            _ => self.dead(setup, &offer),
        }
    }

    fn dead(&mut self, setup: &TuSacSetup, offer: &Offer) {
        self.seen.add(offer.card);
        self.dead.add(offer.card);
        let turner = (offer.seat + 1) % setup.players;
        if self.stock.len() as u32 <= setup.draw_at_stock {
            self.over = true; // a draw pays nothing
            return;
        }
        let card = self.stock.pop().expect("stock above draw_at_stock");
        self.phase = Phase::Offer(
            Offer {
                card,
                from_stock: true,
                seat: turner,
            },
            false,
        );
    }

    fn win(&mut self, setup: &TuSacSetup, seat: usize, offer: &Offer, penalty: bool) {
        let h = self.hands[seat];
        let Some(score) = win_total(&h, self.lenh[seat], Some(offer.card), setup.scoring) else {
            self.over = true;
            return;
        };
        let mut full = h;
        full.add(offer.card);
        let unit = if setup.flat {
            if self.quad[seat] || full.0.contains(&4) {
                2
            } else {
                1
            }
        } else {
            score
        };
        let covering = (penalty && !offer.from_stock).then_some(offer.seat);
        for loser in (0..setup.players).filter(|&s| s != seat) {
            let payer = covering.unwrap_or(loser);
            self.score[payer] -= unit;
            self.score[seat] += unit;
        }
        self.over = true;
    }

    /// Plays on, `player` deciding for every seat; the root's score.
    fn finish(&mut self, setup: &TuSacSetup, me: usize, player: &mut Player<'_>) -> i32 {
        // Every offer either makes a meld (the hand shrinks) or goes dead (the stock shrinks).
        for _ in 0..1000 {
            if self.over || player.stopped().is_some() {
                break;
            }
            match self.phase {
                Phase::Discard(s) => {
                    let k = player.discard(self, setup, s);
                    self.discard(setup, s, k);
                }
                Phase::Offer(..) => self.resolve(setup, me, None, player),
            }
        }
        self.score[me]
    }
}

/// What a seat may answer to an offer: the win, and its legal claims.
#[derive(Clone, Debug, Default)]
struct Ask {
    win: bool,
    claims: Vec<Claim>,
}

impl Ask {
    /// The priority of the best answer (`None`: the seat can only pass).
    fn potential(&self) -> Option<u8> {
        if self.win {
            return Some(3);
        }
        self.claims.iter().map(|c| priority(Some(c.meld))).max()
    }

    /// Must the seat claim (khui, the triple unless optional, a Tướng turned up for it)? As
    /// the game's flow decides it.
    fn must(&self, setup: &TuSacSetup, held: u8, entitled: bool, offer: &Offer) -> bool {
        let any = !self.claims.is_empty();
        (held == 3 && (self.win || any))
            || self.claims.iter().any(|c| {
                c.meld == MeldKind::ClaimedQuad
                    || (c.meld == MeldKind::ClaimedTriple && !setup.triple_optional)
            })
            || (any && entitled && offer.from_stock && offer.card.is_general())
    }
}

/// Who decides for the seats of a rollout: the greedy policy, or the learned one.
enum Player<'a> {
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

impl<'a> Player<'a> {
    /// The rollouts' player of a search by the root seat `me` under `guide`.
    /// `value_after`: cut each rollout short at the root's `d`-th own decision (only when the
    /// policy plays the rollouts).
    fn of(guide: Option<&Guide<'a>>, me: usize, value_after: Option<u32>) -> Player<'a> {
        match guide {
            Some(g) if g.rollouts => Player::Net(Box::new(NetSeat {
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
            _ => Player::Greedy,
        }
    }

    /// Readies the player for a new rollout (the stop not yet reached).
    fn restart(&mut self) {
        if let Player::Net(p) = self {
            if let Some(leaf) = &mut p.leaf {
                leaf.left = leaf.after;
                leaf.value = None;
            }
        }
    }

    /// The policy's value where the rollout stopped (`None`: it has not stopped).
    fn stopped(&self) -> Option<f32> {
        match self {
            Player::Net(p) => p.leaf.and_then(|l| l.value),
            Player::Greedy => None,
        }
    }

    /// Do the rollouts stop on the policy's value?
    fn cuts(&self) -> bool {
        matches!(self, Player::Net(p) if p.leaf.is_some())
    }

    /// The learned policy for `seat`, unless the seat plays greedy.
    fn net_for(&mut self, seat: usize) -> Option<&mut NetSeat<'a>> {
        match self {
            Player::Net(p) if p.greedy_seats >> seat & 1 == 0 => Some(p),
            _ => None,
        }
    }

    /// What `seat` discards.
    fn discard(&mut self, sim: &Sim, setup: &TuSacSetup, seat: usize) -> Kind {
        let Some(p) = self.net_for(seat) else {
            return sim.greedy_discard(setup, seat);
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

    /// What `seat` answers to `offer` (`ask`: its options; `pending`: the seats still to
    /// answer, itself among them). A win is always taken.
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
            return sim.greedy_answer(setup, seat, offer, ask.win, ask.claims);
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
        sim.observe(setup, seat, pending, &mut self.scorer.obs);
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

/// The cards in sight but the offer (the exposed melds and the dead cards): a claim or the
/// offer going dead puts the offer among them.
fn in_sight(pos: &TuSacPosition) -> Hand {
    let mut seen = pos.public;
    if let Some(o) = pos.offer {
        seen.take(o.card);
    }
    seen
}

/// The dead cards: those in sight but the offer that no seat has exposed.
fn dead_of(pos: &TuSacPosition) -> Hand {
    pos.exposed
        .iter()
        .fold(in_sight(pos), |rest, e| rest.minus(e))
}

fn entitled(setup: &TuSacSetup, offer: &Offer) -> usize {
    if offer.from_stock {
        offer.seat
    } else {
        (offer.seat + 1) % setup.players
    }
}

/// The kinds `h` may discard: no Tướng except as the tỳ (`tuong_as_ty`); under
/// `enforce_rac` only rác while the hand has any.
fn discardable(setup: &TuSacSetup, h: &Hand, opening: bool) -> Vec<Kind> {
    let generals_ok = opening && setup.tuong_as_ty;
    let mut out: Vec<Kind> = kinds_held(h)
        .filter(|k| generals_ok || k.index() >= GENERALS)
        .collect();
    if setup.enforce_rac {
        let base = min_rac(h);
        if base > 0 {
            let rac: Vec<Kind> = out
                .iter()
                .copied()
                .filter(|&k| min_rac(&without(h, k)) < base)
                .collect();
            if !rac.is_empty() {
                out = rac;
            }
        }
    }
    out
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
    model: Player<'a>,
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
            Some(g) => Player::of(
                Some(&Guide {
                    rollouts: true,
                    greedy_seats: 0,
                    ..*g
                }),
                me,
                None,
            ),
            None => Player::Greedy,
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
    player: Player<'a>,
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
        let seen = in_sight(pos);
        Sim {
            hands,
            lenh: pos.exposed_lenh,
            quad: pos.exposed_quad,
            seen,
            dead: dead_of(pos),
            exposed: pos.exposed,
            stock: pool,
            phase,
            opening: pos.opening,
            over: false,
            score: [0; MAX_SEATS],
            shown: None,
        }
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
        let value = self.player.stopped().map_or(f64::from(score), f64::from);
        (value * VALUE_SCALE).round() as i32
    }
}

/// Checks that a position is consistent enough to roll out.
pub fn check(setup: &TuSacSetup, pos: &TuSacPosition) -> Result<(), String> {
    let n = setup.players;
    if !(2..=MAX_SEATS).contains(&n) || pos.me >= n {
        return Err(format!("seat {} at a {n}-seat table", pos.me));
    }
    let hidden: u32 = (0..n)
        .filter(|&s| s != pos.me)
        .map(|s| u32::from(pos.counts[s]))
        .sum();
    if hidden + pos.stock != pos.unseen.len() {
        return Err(format!(
            "{hidden} hidden cards and a stock of {} but {} unseen",
            pos.stock,
            pos.unseen.len()
        ));
    }
    let mut exposed = Hand::EMPTY;
    for (s, e) in pos.exposed.iter().enumerate() {
        if s >= n && !e.is_empty() {
            return Err(format!("exposed cards of seat {s} at a {n}-seat table"));
        }
        for k in 0..KINDS {
            exposed.0[k] += e.0[k];
        }
    }
    if !in_sight(pos).contains(&exposed) {
        return Err("exposed cards that are not in sight".into());
    }
    if u32::from(pos.counts[pos.me]) != pos.hand.len() {
        return Err("the root's count is not its hand size".into());
    }
    for k in 0..KINDS {
        let total = pos.hand.0[k] + pos.public.0[k] + pos.unseen.0[k];
        if total != 4 {
            return Err(format!(
                "kind {k}: {total} copies in hand, sight and unseen"
            ));
        }
    }
    if let Some(o) = pos.offer {
        if o.seat >= n {
            return Err("offer seat out of range".into());
        }
    } else if pos.hand.is_empty() {
        return Err("nothing to discard".into());
    }
    Ok(())
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
        player: Player::of(guide, pos.me, value_after.filter(|&d| d > 0)),
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

/// The greedy choice ([`greedy_choice`]) of `seat` at the flow's table among `actions`, its
/// legal actions in the flow's order ([`Flow::legal_actions`]): an index of `actions`, `None`
/// when there is none. Self-play's greedy seats ([`TuSacTable`]) and
/// the `greedy` bot (`TuSacFlow.greedy`) play it.
pub fn greedy_action(flow: &Flow, seat: usize, actions: &[Action]) -> Option<usize> {
    if actions.is_empty() {
        return None;
    }
    let pos = TuSacPosition::of_flow(flow, seat);
    let cands: Vec<Choice> = actions.iter().map(Choice::of_action).collect();
    Some(greedy_choice(&pos, &cands))
}

/// Self-play's greedy seats at a Tứ Sắc vector table play the search's greedy
/// ([`greedy_action`]) for the seat to act.
impl GreedySeat for TuSacTable {
    fn greedy(&self) -> Option<usize> {
        greedy_action(self.flow(), self.seat()?, self.actions())
    }
}

/// The greedy choice for the root (the `greedy` bot's, `python/vncards/bots/tusac.py`) among
/// `cands`, the root's legal choices: a win whenever one is among them; else the discard of
/// the fewest rác after (then no Tướng, then most copies in sight) among the candidate
/// discards; else the claim whose best discard after leaves the fewest rác, made unless a
/// pass is among them and the claim leaves more rác than the hand has now. The first of equal
/// keys is taken. The rollouts' greedy seats, self-play's greedy seats and the `greedy` bot
/// ([`greedy_action`]) and the ordering of the search's candidates play it.
pub fn greedy_choice(pos: &TuSacPosition, cands: &[Choice]) -> usize {
    if let Some(i) = cands.iter().position(|c| *c == Choice::Win) {
        return i;
    }
    let sim = Sim {
        hands: {
            let mut h = [Hand::EMPTY; MAX_SEATS];
            h[pos.me] = pos.hand;
            h
        },
        lenh: pos.exposed_lenh,
        quad: pos.exposed_quad,
        seen: in_sight(pos),
        dead: dead_of(pos),
        exposed: pos.exposed,
        stock: Vec::new(),
        phase: Phase::Discard(pos.me),
        opening: pos.opening,
        over: false,
        score: [0; MAX_SEATS],
        shown: None,
    };
    let discards = cands.iter().filter_map(|c| match c {
        Choice::Discard(k) => Some(*k),
        _ => None,
    });
    let want = match sim.greedy_discard_of(pos.me, discards) {
        Some(k) => Choice::Discard(k),
        None => {
            let claims: Vec<Claim> = cands
                .iter()
                .filter_map(|c| match c {
                    Choice::Claim(c) => Some(c.clone()),
                    _ => None,
                })
                .collect();
            sim.greedy_claim(pos.me, claims, !cands.contains(&Choice::Pass))
        }
    };
    cands.iter().position(|c| *c == want).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::features::TUSAC_ACTION;
    use crate::policy::Net;
    use crate::search::guide::linear_net;
    use crate::tusac::{parse_hand, OddTotal};

    fn setup() -> TuSacSetup {
        TuSacSetup {
            players: 4,
            scoring: Scoring {
                odd_total: OddTotal::Hand,
                set_lenh: 1,
            },
            triple_optional: false,
            bung: BungRule::Seed,
            enforce_rac: false,
            tuong_as_ty: true,
            draw_at_stock: 7,
            flat: false,
            every_seat: true,
        }
    }

    fn opening(hand: &str) -> TuSacPosition {
        let hand = parse_hand(hand).unwrap();
        TuSacPosition {
            me: 0,
            hand,
            counts: [hand.len() as u8, 20, 20, 20],
            exposed_lenh: [0; 4],
            exposed_quad: [false; 4],
            public: Hand::EMPTY,
            exposed: [Hand::EMPTY; 4],
            unseen: Hand::DECK.minus(&hand),
            stock: 112 - 81,
            offer: None,
            opening: true,
            single: [0; 4],
        }
    }

    const HAND: &str = "KR KG AW AW AW EY EG RG RW RW RW CY CY CY CR CG HG PY PY PY PR";

    /// Whole hands of the flow with `greedy_action` at every seat (and, every third seed,
    /// a seat choosing its last action instead, to reach other positions): at each decision
    /// the seat's position is consistent (`check`), its unseen cards are exactly the other
    /// hidden hands and the stock, and the choice is one of the legal actions.
    #[test]
    fn positions_of_the_flow_are_what_the_seat_has_not_seen() {
        use crate::rng::Rng;
        use crate::table::Discard;
        use crate::tusac::flow::{Phase as FlowPhase, Rules};
        for (seed, players) in (0..9u8).zip([4, 3, 2].into_iter().cycle()) {
            let mut f = Flow::new(Rules::default(), players, 0).unwrap();
            f.start(&mut Rng::from_key([seed; 32]), &mut Discard);
            let s = TuSacSetup { players, ..setup() };
            for step in 0..2000 {
                if f.phase == FlowPhase::Over {
                    break;
                }
                let seat = f.pending().first().expect("a seat to act");
                let actions = f.legal_actions(seat);
                let pos = TuSacPosition::of_flow(&f, seat);
                check(&s, &pos).unwrap();
                let mut hidden = Hand::EMPTY;
                for t in (0..players).filter(|&t| t != seat) {
                    for k in f.hands[t].kinds() {
                        hidden.add(k);
                    }
                }
                for &k in &f.stock {
                    hidden.add(k);
                }
                assert_eq!(pos.unseen, hidden);
                let i = greedy_action(&f, seat, &actions).unwrap();
                let pick = if seed % 3 == 2 && step % 5 == 0 {
                    actions.len() - 1
                } else {
                    i
                };
                f.act(seat, &actions[pick], &mut Discard).unwrap();
            }
            assert_eq!(f.phase, FlowPhase::Over);
        }
    }

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
            player: Player::Greedy,
        };
        for _ in 0..50 {
            t.draw();
            let mut sim = t.start.clone().unwrap();
            sim.finish(&s, 0, &mut Player::Greedy);
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
            player: Player::Greedy,
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
            player: Player::of(Some(&guide), pos.me, value_after),
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
            player: Player::Greedy,
        }
        .deal();
        assert_eq!(sim.exposed[1], parse_hand("HW HW HW").unwrap());
        assert_eq!(sim.dead, parse_hand("EW KY").unwrap());
        let mut obs = vec![0.0; crate::encode::observation::tusac_size(4)];
        // Seat 3's observation: its own hand first, seat 1 (two seats on) exposed a triple.
        sim.observe(&s, 3, 1 << 3, &mut obs);
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
        player: &mut Player<'_>,
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
            player: Player::Greedy,
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
                let mut player = Player::of(guide.as_ref(), 0, None);
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
                player: Player::Greedy,
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
