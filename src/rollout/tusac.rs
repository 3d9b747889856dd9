//! Rollouts for Tứ Sắc: a hand played out from a position, every seat deciding by the greedy
//! policy (or another `Player`), and that policy alone, for the `greedy` bot, self-play's
//! greedy seats and the search's rollouts (`crate::search::tusac`) to share.
//!
//! A [`TuSacPosition`] is what one seat knows: its hand, the cards it has not seen (the other
//! hidden hands and the stock, nọc), every seat's hidden count and exposed melds, the dead
//! cards and the offer. A `Sim` is one deal of those cards being played out. It follows the
//! game's flow (`vncards.tusac.Game`): an offer is answered by every seat that may act on it,
//! resolved by priority (win > quad > triple > the entitled seat's other claims; between
//! equals the seat nearest after the offer's seat), a claimer exposes its meld and discards,
//! an unclaimed offer goes dead and the next card is turned up until the stock is down to
//! `draw_at_stock`. The greedy policy is the `greedy` bot's: win when possible; claim when
//! the claim and one discard leave no more rác than the hand has now; discard the card whose
//! loss leaves the fewest rác, preferring cards with many copies in sight.

use crate::tusac::cards::KINDS;
use crate::tusac::flow::{Action, Flow, Source};
use crate::tusac::{
    legal_claims, min_rac, priority, win_total, BungRule, Claim, Hand, Kind, MeldKind, Scoring,
};

/// Most seats at a Tứ Sắc table.
pub const MAX_SEATS: usize = 4;
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

/// Whose move it is: `seat` to discard, or an offer waiting for answers (and whether a win on
/// it makes the discarder pay for the table, đền làng).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Discard(usize),
    Offer(Offer, bool),
}

/// One deal of a position being played out.
#[derive(Clone, Debug)]
pub(crate) struct Sim {
    pub(crate) hands: [Hand; MAX_SEATS],
    pub(crate) lenh: [i32; MAX_SEATS],
    pub(crate) quad: [bool; MAX_SEATS],
    /// The cards in sight (`dead` and every `exposed`), as `greedy` counts them.
    pub(crate) seen: Hand,
    pub(crate) dead: Hand,
    pub(crate) exposed: [Hand; MAX_SEATS],
    pub(crate) stock: Vec<Kind>,
    pub(crate) phase: Phase,
    pub(crate) opening: bool,
    pub(crate) over: bool,
    pub(crate) score: [i32; MAX_SEATS],
    /// The hidden counts and the stock a seat saw, where the `Sim` holds only that seat's
    /// hand (a past decision replayed for the inference); `None`: read from the hands and
    /// the stock.
    pub(crate) shown: Option<([u8; MAX_SEATS], u32)>,
}

/// The hand `h` less one copy of `k`.
fn without(h: &Hand, k: Kind) -> Hand {
    let mut out = *h;
    out.take(k);
    out
}

/// The kinds `h` holds, in kind order.
fn kinds_held(h: &Hand) -> impl Iterator<Item = Kind> + '_ {
    (0..KINDS as u8)
        .filter(|&i| h.0[i as usize] > 0)
        .filter_map(Kind::from_index)
}
impl Sim {
    /// The deal of `pos` that gives the seats `hands` and the stock `stock` (turned up from
    /// its end), `phase` to play: what is in sight, exposed and dead, the lệnh and the tỳ are
    /// the position's.
    pub(crate) fn dealt(
        pos: &TuSacPosition,
        hands: [Hand; MAX_SEATS],
        stock: Vec<Kind>,
        phase: Phase,
    ) -> Sim {
        Sim {
            hands,
            lenh: pos.exposed_lenh,
            quad: pos.exposed_quad,
            seen: in_sight(pos),
            dead: dead_of(pos),
            exposed: pos.exposed,
            stock,
            phase,
            opening: pos.opening,
            over: false,
            score: [0; MAX_SEATS],
            shown: None,
        }
    }

    /// The greedy discard of `seat`: fewest rác after, then no Tướng, then most copies in sight.
    pub(crate) fn greedy_discard(&self, setup: &TuSacSetup, seat: usize) -> Kind {
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

    /// `seat` discards `k`: the card goes on offer.
    pub(crate) fn discard(&mut self, setup: &TuSacSetup, seat: usize, k: Kind) {
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
    pub(crate) fn greedy_answer(
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
    pub(crate) fn resolve(
        &mut self,
        setup: &TuSacSetup,
        me: usize,
        root: Option<&Choice>,
        player: &mut impl Player,
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
    pub(crate) fn finish(
        &mut self,
        setup: &TuSacSetup,
        me: usize,
        player: &mut impl Player,
    ) -> i32 {
        // Every offer either makes a meld (the hand shrinks) or goes dead (the stock shrinks).
        for _ in 0..1000 {
            if self.over || player.stopped() {
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

/// Who decides for the seats of a rollout: the greedy policy ([`Greedy`]), or another (the
/// search's learned policy).
pub(crate) trait Player {
    /// What `seat` discards.
    fn discard(&mut self, sim: &Sim, setup: &TuSacSetup, seat: usize) -> Kind;

    /// What `seat` answers to `offer` (`ask`: its options; `pending`: the seats still to
    /// answer, itself among them).
    fn answer(
        &mut self,
        sim: &Sim,
        setup: &TuSacSetup,
        seat: usize,
        offer: &Offer,
        ask: Ask,
        pending: u32,
    ) -> Choice;

    /// Has the rollout stopped before the hand's end (the search's cut on the policy's
    /// value)? The greedy policy plays every hand out.
    fn stopped(&self) -> bool {
        false
    }
}

/// The greedy policy for every seat ([`Sim::greedy_discard`], [`Sim::greedy_answer`]).
pub(crate) struct Greedy;

impl Player for Greedy {
    fn discard(&mut self, sim: &Sim, setup: &TuSacSetup, seat: usize) -> Kind {
        sim.greedy_discard(setup, seat)
    }

    fn answer(
        &mut self,
        sim: &Sim,
        setup: &TuSacSetup,
        seat: usize,
        offer: &Offer,
        ask: Ask,
        _pending: u32,
    ) -> Choice {
        sim.greedy_answer(setup, seat, offer, ask.win, ask.claims)
    }
}

/// What a seat may answer to an offer: the win, and its legal claims.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ask {
    pub(crate) win: bool,
    pub(crate) claims: Vec<Claim>,
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
    pub(crate) fn must(&self, setup: &TuSacSetup, held: u8, entitled: bool, offer: &Offer) -> bool {
        let any = !self.claims.is_empty();
        (held == 3 && (self.win || any))
            || self.claims.iter().any(|c| {
                c.meld == MeldKind::ClaimedQuad
                    || (c.meld == MeldKind::ClaimedTriple && !setup.triple_optional)
            })
            || (any && entitled && offer.from_stock && offer.card.is_general())
    }
}

/// The cards in sight but the offer (the exposed melds and the dead cards): a claim or the
/// offer going dead puts the offer among them.
pub(crate) fn in_sight(pos: &TuSacPosition) -> Hand {
    let mut seen = pos.public;
    if let Some(o) = pos.offer {
        seen.take(o.card);
    }
    seen
}

/// The dead cards: those in sight but the offer that no seat has exposed.
pub(crate) fn dead_of(pos: &TuSacPosition) -> Hand {
    pos.exposed
        .iter()
        .fold(in_sight(pos), |rest, e| rest.minus(e))
}

/// The seat entitled to the offer's other claims (chắn, ăn): the seat that turned it up, or
/// the discarder's next.
pub(crate) fn entitled(setup: &TuSacSetup, offer: &Offer) -> usize {
    if offer.from_stock {
        offer.seat
    } else {
        (offer.seat + 1) % setup.players
    }
}

/// The kinds `h` may discard: no Tướng except as the tỳ (`tuong_as_ty`); under
/// `enforce_rac` only rác while the hand has any.
pub(crate) fn discardable(setup: &TuSacSetup, h: &Hand, opening: bool) -> Vec<Kind> {
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

/// The greedy choice ([`greedy_choice`]) of `seat` at the flow's table among `actions`, its
/// legal actions in the flow's order ([`Flow::legal_actions`]): an index of `actions`, `None`
/// when there is none. Self-play's greedy seats (`TuSacTable::greedy_action`) and the `greedy`
/// bot (`TuSacFlow.greedy`) play it.
pub fn greedy_action(flow: &Flow, seat: usize, actions: &[Action]) -> Option<usize> {
    if actions.is_empty() {
        return None;
    }
    let pos = TuSacPosition::of_flow(flow, seat);
    let cands: Vec<Choice> = actions.iter().map(Choice::of_action).collect();
    Some(greedy_choice(&pos, &cands))
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
    let mut hands = [Hand::EMPTY; MAX_SEATS];
    hands[pos.me] = pos.hand;
    let sim = Sim::dealt(pos, hands, Vec::new(), Phase::Discard(pos.me));
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
    use crate::rollout::fixtures::tusac_setup;

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
            let s = TuSacSetup {
                players,
                ..tusac_setup()
            };
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
}
