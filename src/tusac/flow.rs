//! The flow of a Tứ Sắc hand: the deal (dealt quằn laid face up), the tỳ, offers, claim
//! windows with priority, the turn-up from the stock (nọc), the draw, the win and its payments.
//! `vncards.tusac.Game` and the vector environment run it; the readings of the rules it
//! follows are listed in that Python module's docstring.
//!
//! There is always one offer: the last discard or a card just turned up. Every seat that may
//! act on it answers in a claim window (claim, win or pass); the flow then resolves by priority
//! (win > quad > triple > the entitled seat's other claims; between equals the seat nearest
//! after the discarder) and carries out the winning claim. A claimer exposes its meld and
//! discards; if nobody claims, the offer goes dead and the next seat turns up a card, with no
//! action (the turn-up is no decision).

use super::cards::{Hand, Kind, COPIES, KINDS};
use super::claims::{check_claim, offered_claims, priority, rac_kinds, BungRule, Claim};
use super::melds::{classify, min_rac, win_total, MeldKind, Scoring};
use crate::error::Error;
use crate::table::Draw;

/// Most seats at a Tứ Sắc table.
pub const MAX_SEATS: usize = 4;
/// Kinds 0..4 are the four Tướng.
const GENERALS: u8 = 4;

/// A table's options (the Python `tusac.Rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub triple_optional: bool,
    /// `forbidden_triple="no_claim"`: a held pair whose mandatory triple is forbidden bars
    /// every other claim of that card (else `"other_claims"`: the seat keeps them).
    pub forbidden_no_claim: bool,
    /// `discard_rule="enforce"` (else `"penalize"`: đền làng).
    pub discard_enforce: bool,
    pub bung: BungRule,
    pub scoring: Scoring,
    pub tuong_as_ty: bool,
    pub draw_at_stock: u8,
    /// `payment="flat"` (else `"per_lenh"`).
    pub payment_flat: bool,
    /// `claim_window="every_seat"` (else `"eligible_seats"`).
    pub every_seat: bool,
}

impl Default for Rules {
    /// The seed document's options.
    fn default() -> Rules {
        Rules {
            triple_optional: false,
            forbidden_no_claim: false,
            discard_enforce: false,
            bung: BungRule::Seed,
            scoring: Scoring::default(),
            tuong_as_ty: true,
            draw_at_stock: 7,
            payment_flat: false,
            every_seat: true,
        }
    }
}

/// Where an offer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    Discard,
    /// Turned up from the stock.
    Stock,
}

impl Source {
    pub const fn name(self) -> &'static str {
        match self {
            Source::Discard => "discard",
            Source::Stock => "stock",
        }
    }
}

/// The card on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    pub card: Kind,
    pub source: Source,
    /// The discarder, or the seat that turned it up.
    pub seat: usize,
    /// A discard that was not a rác (`discard_rule="penalize"`): a win on it makes the
    /// discarder pay for the table (đền làng).
    pub penalty: bool,
}

/// The phase of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Discard,
    Claim,
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Discard => "discard",
            Phase::Claim => "claim",
            Phase::Over => "over",
        }
    }
}

/// A seat's answer to an offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Win,
    Pass,
    Claim(Claim),
}

impl Answer {
    /// Priority of the answer (pass: none).
    fn priority(&self) -> Option<u8> {
        match self {
            Answer::Pass => None,
            Answer::Win => Some(priority(None)),
            Answer::Claim(c) => Some(priority(Some(c.meld))),
        }
    }
}

/// What a seat may answer to the offer: its winning total (if it wins), its claims, and
/// whether it may not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub win: Option<i32>,
    pub claims: Vec<Claim>,
    pub must: bool,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub score: i32,
    pub draw: bool,
    /// The seat that paid for the table (đền làng).
    pub den_lang: Option<usize>,
    pub next_dealer: usize,
}

/// What happened, in order (the Python game's event log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Deal {
        dealer: usize,
        counts: [u8; MAX_SEATS],
        stock: usize,
    },
    /// A dealt quằn laid face up.
    Quan {
        seat: usize,
        card: Kind,
    },
    Dead {
        card: Kind,
    },
    TurnUp {
        seat: usize,
        card: Kind,
        stock: usize,
    },
    Discard {
        seat: usize,
        card: Kind,
        opening: bool,
    },
    Claim {
        seat: usize,
        meld: MeldKind,
        cards: Vec<Kind>,
        card: Kind,
        source: Source,
        origin: usize,
    },
    Win {
        seat: usize,
        score: i32,
        hand: Hand,
        card: Option<Kind>,
    },
    Draw {
        stock: usize,
    },
    Settle {
        settlement: [i32; MAX_SEATS],
    },
}

/// The pending seats of a flow, nearest to the offer first (no allocation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    len: u8,
    seats: [u8; MAX_SEATS],
}

impl Pending {
    fn push(&mut self, seat: usize) {
        self.seats[usize::from(self.len)] = seat as u8;
        self.len += 1;
    }
    pub fn first(&self) -> Option<usize> {
        (self.len > 0).then(|| usize::from(self.seats[0]))
    }
    pub fn contains(&self, seat: usize) -> bool {
        self.iter().any(|s| s == seat)
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.seats[..usize::from(self.len)]
            .iter()
            .map(|&s| usize::from(s))
    }
    /// The seats as a bit set.
    pub fn bits(&self) -> u32 {
        self.iter().fold(0, |m, s| m | 1 << s)
    }
}

/// Where the Tứ Sắc flow tells what happens.
pub trait Record: crate::table::Record<Event> {}

impl<R: crate::table::Record<Event>> Record for R {}

/// One hand of Tứ Sắc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    pub rules: Rules,
    pub players: usize,
    pub dealer: usize,
    pub hands: [Hand; MAX_SEATS],
    pub exposed: [Vec<(MeldKind, Vec<Kind>)>; MAX_SEATS],
    /// The stock, turned up from its end.
    pub stock: Vec<Kind>,
    pub dead: Vec<Kind>,
    pub offer: Option<Offer>,
    pub phase: Phase,
    pub to_discard: Option<usize>,
    /// The dealer's tỳ (the opening discard) comes first.
    pub opening: bool,
    /// Answers to the offer so far, in the order given.
    pub responses: Vec<(usize, Answer)>,
    pub options: [Option<Options>; MAX_SEATS],
    pub result: Option<Outcome>,
    /// Units won per seat.
    pub totals: [i32; MAX_SEATS],
}

fn illegal(reason: &'static str, message: impl Into<String>) -> Error {
    Error::illegal(reason, message)
}

/// An action of a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Discard(Kind),
    /// A claim of `used` (sorted) with the offer, into `meld` if given.
    Claim(Option<MeldKind>, Vec<Kind>),
    Win,
    Pass,
}

impl Flow {
    /// A table before its deal (call [`Flow::start`]).
    pub fn new(rules: Rules, players: usize, dealer: usize) -> Result<Flow, Error> {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(Error::Rules(format!(
                "tusac takes 2–4 players, not {players}"
            )));
        }
        if dealer >= players {
            return Err(Error::Rules(format!(
                "dealer must be a seat 0..{}, not {dealer}",
                players - 1
            )));
        }
        Ok(Flow {
            rules,
            players,
            dealer,
            hands: [Hand::EMPTY; MAX_SEATS],
            exposed: Default::default(),
            stock: Vec::new(),
            dead: Vec::new(),
            offer: None,
            phase: Phase::Discard,
            to_discard: None,
            opening: false,
            responses: Vec::new(),
            options: Default::default(),
            result: None,
            totals: [0; MAX_SEATS],
        })
    }

    /// Deals the hand: the dealer 21 cards, every other seat 20, the rest to the stock; a dealt
    /// quằn is laid face up at once.
    pub fn start(&mut self, draw: &mut impl Draw, rec: &mut impl Record) {
        let n = self.players;
        let mut perm = [0u32; KINDS * COPIES as usize];
        draw.permutation(&mut perm);
        let cards = perm.map(|i| Kind::from_index((i / u32::from(COPIES)) as u8).expect("a kind"));
        self.hands = [Hand::EMPTY; MAX_SEATS];
        self.exposed = Default::default();
        self.dead.clear();
        self.offer = None;
        self.responses.clear();
        self.options = Default::default();
        self.result = None;
        self.totals = [0; MAX_SEATS];
        let mut pos = 0;
        let mut counts = [0u8; MAX_SEATS];
        for i in 0..n {
            let seat = (self.dealer + i) % n;
            let take = if i == 0 { 21 } else { 20 };
            for &k in &cards[pos..pos + take] {
                self.hands[seat].add(k);
            }
            counts[seat] = take as u8;
            pos += take;
        }
        self.stock = cards[pos..].to_vec();
        rec.event(Event::Deal {
            dealer: self.dealer,
            counts,
            stock: self.stock.len(),
        });
        for seat in 0..n {
            for i in 0..KINDS as u8 {
                let k = Kind::from_index(i).expect("a kind");
                if self.hands[seat].count(k) == COPIES {
                    self.hands[seat].0[usize::from(i)] = 0;
                    self.exposed[seat].push((MeldKind::Quad, vec![k; 4]));
                    rec.event(Event::Quan { seat, card: k });
                }
            }
        }
        self.phase = Phase::Discard;
        self.to_discard = Some(self.dealer);
        self.opening = true;
    }

    fn pay(
        &mut self,
        rec: &mut impl Record,
        from: usize,
        to: usize,
        units: u32,
        reason: &'static str,
    ) {
        if units > 0 {
            let signed = i32::try_from(units).unwrap_or(i32::MAX);
            self.totals[from] = self.totals[from].saturating_sub(signed);
            self.totals[to] = self.totals[to].saturating_add(signed);
            rec.pay(from, to, units, reason);
        }
    }

    /// The lệnh of `seat`'s exposed melds.
    pub fn exposed_lenh(&self, seat: usize) -> i32 {
        let set = self.rules.scoring.set_lenh;
        self.exposed[seat]
            .iter()
            .map(|(m, _)| m.lenh_with(set))
            .sum()
    }

    /// The seat entitled to every claim of the offer: the next seat after a discarder, the
    /// turner of a turned-up card.
    pub fn entitled(&self) -> Option<usize> {
        self.offer.map(|o| match o.source {
            Source::Discard => (o.seat + 1) % self.players,
            Source::Stock => o.seat,
        })
    }

    /// Works out what each seat may answer to the offer.
    pub fn compute_options(&mut self) {
        self.options = Default::default();
        let Some(o) = self.offer else {
            return;
        };
        let entitled = self.entitled();
        let r = self.rules;
        for t in 0..self.players {
            if o.source == Source::Discard && t == o.seat {
                continue;
            }
            let hand = &self.hands[t];
            if hand.len() + 1 > super::cards::MAX_HAND || hand.count(o.card) >= COPIES {
                continue; // cannot happen in a dealt hand: the searches' bounds
            }
            let win = win_total(hand, self.exposed_lenh(t), Some(o.card), r.scoring);
            let is_entitled = Some(t) == entitled;
            let claims = offered_claims(
                hand,
                o.card,
                is_entitled,
                r.triple_optional,
                r.forbidden_no_claim,
                r.bung,
            );
            let held = hand.count(o.card);
            if win.is_none() && claims.is_empty() && !r.every_seat {
                continue;
            }
            // Khui is mandatory: a khạp holder takes the fourth copy, as the khui or, where
            // that completes the hand, as the win (also when the khui itself is impossible).
            let khap = held == 3 && (win.is_some() || !claims.is_empty());
            let must = khap
                || claims
                    .iter()
                    .any(|c| c.meld == MeldKind::ClaimedTriple && !r.triple_optional)
                || (!claims.is_empty()
                    && is_entitled
                    && o.source == Source::Stock
                    && o.card.index() < GENERALS);
            self.options[t] = Some(Options { win, claims, must });
        }
    }

    fn distance(&self, seat: usize) -> usize {
        let origin = self.offer.map_or(0, |o| o.seat);
        (seat + self.players - origin) % self.players
    }

    /// Priority, then nearness to the offer (a larger key wins).
    fn key(&self, seat: usize, priority: u8) -> (u8, isize) {
        (priority, -(self.distance(seat) as isize))
    }

    fn best_response(&self) -> Option<((u8, isize), usize)> {
        let mut best: Option<((u8, isize), usize)> = None;
        for (seat, answer) in &self.responses {
            let Some(p) = answer.priority() else {
                continue;
            };
            let key = self.key(*seat, p);
            if best.map_or(true, |(b, _)| key > b) {
                best = Some((key, *seat));
            }
        }
        best
    }

    fn answered(&self, seat: usize) -> bool {
        self.responses.iter().any(|(s, _)| *s == seat)
    }

    /// The seats that may act now: the seat to discard, or the seats still to answer the offer,
    /// nearest to it first.
    pub fn pending(&self) -> Pending {
        let mut out = Pending::default();
        match self.phase {
            Phase::Discard => {
                if let Some(s) = self.to_discard {
                    out.push(s);
                }
            }
            Phase::Over => {}
            Phase::Claim => {
                let origin = self.offer.map_or(0, |o| o.seat);
                // With every_seat, which seats are pending is a function of who has answered,
                // never of the hands (an early close would tell the table what they hold).
                let best = if self.rules.every_seat {
                    None
                } else {
                    self.best_response()
                };
                for d in 0..self.players {
                    let s = (origin + d) % self.players;
                    let Some(o) = self.options[s].as_ref() else {
                        continue;
                    };
                    if self.answered(s) {
                        continue;
                    }
                    let outranks = match best {
                        None => true,
                        Some((b, _)) => {
                            let potential = if o.win.is_some() {
                                Some(priority(None))
                            } else {
                                o.claims.iter().map(|c| priority(Some(c.meld))).max()
                            };
                            potential.is_some_and(|p| self.key(s, p) > b)
                        }
                    };
                    if outranks {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// The first pending seat, if any.
    pub fn first_pending(&self) -> Option<usize> {
        self.pending().first()
    }

    fn resolve(&mut self, rec: &mut impl Record) {
        match self.best_response() {
            None => self.offer_dead(rec),
            Some((_, seat)) => {
                let answer = self
                    .responses
                    .iter()
                    .find(|(s, _)| *s == seat)
                    .map(|(_, a)| a.clone())
                    .expect("an answer");
                match answer {
                    Answer::Claim(c) => self.claim(seat, c, rec),
                    _ => {
                        let score = self.options[seat].as_ref().and_then(|o| o.win).unwrap_or(0);
                        self.win(seat, score, rec);
                    }
                }
            }
        }
    }

    fn open_offer(&mut self, offer: Offer, rec: &mut impl Record) {
        self.offer = Some(offer);
        self.phase = Phase::Claim;
        self.find_window(rec);
    }

    /// Opens the claim window; while nobody may act on the offer, it goes dead and the next
    /// card is turned up.
    fn find_window(&mut self, rec: &mut impl Record) {
        self.responses.clear();
        self.compute_options();
        while self.options.iter().all(Option::is_none) {
            if !self.next_offer(rec) {
                return;
            }
            self.compute_options();
        }
    }

    /// The offer goes dead and the next seat turns up a card; false when the hand is drawn.
    fn next_offer(&mut self, rec: &mut impl Record) -> bool {
        let Some(o) = self.offer else {
            return false;
        };
        self.dead.push(o.card);
        rec.event(Event::Dead { card: o.card });
        // For a discard the next seat turns up; for a turned-up card, the seat after the turner.
        let turner = (o.seat + 1) % self.players;
        self.options = Default::default();
        self.responses.clear();
        if self.stock.len() <= usize::from(self.rules.draw_at_stock) {
            self.offer = None;
            self.draw(rec);
            return false;
        }
        let k = self.stock.pop().expect("a card in the stock");
        self.offer = Some(Offer {
            card: k,
            source: Source::Stock,
            seat: turner,
            penalty: false,
        });
        rec.event(Event::TurnUp {
            seat: turner,
            card: k,
            stock: self.stock.len(),
        });
        true
    }

    fn offer_dead(&mut self, rec: &mut impl Record) {
        if self.next_offer(rec) {
            self.find_window(rec);
        }
    }

    fn claim(&mut self, seat: usize, claim: Claim, rec: &mut impl Record) {
        let o = self.offer.expect("an offer");
        for &u in &claim.used {
            self.hands[seat].take(u);
        }
        let mut cards = claim.used.clone();
        cards.push(o.card);
        cards.sort_unstable();
        self.exposed[seat].push((claim.meld, cards.clone()));
        rec.event(Event::Claim {
            seat,
            meld: claim.meld,
            cards,
            card: o.card,
            source: o.source,
            origin: o.seat,
        });
        self.offer = None;
        self.options = Default::default();
        self.responses.clear();
        self.phase = Phase::Discard;
        self.to_discard = Some(seat);
    }

    fn win(&mut self, seat: usize, score: i32, rec: &mut impl Record) {
        let offer = self.offer;
        if let Some(o) = offer {
            self.hands[seat].add(o.card);
        }
        let covering = offer
            .filter(|o| o.source == Source::Discard && o.penalty)
            .map(|o| o.seat);
        rec.event(Event::Win {
            seat,
            score,
            hand: self.hands[seat],
            card: offer.map(|o| o.card),
        });
        for (payer, payee, units, reason) in self.payments(seat, score, covering) {
            self.pay(rec, payer, payee, units, reason);
        }
        self.offer = None;
        self.options = Default::default();
        self.responses.clear();
        self.phase = Phase::Over;
        self.to_discard = None;
        self.opening = false; // a win on the dealt 21 cards ends the opening too
        self.result = Some(Outcome {
            winner: Some(seat),
            score,
            draw: false,
            den_lang: covering,
            next_dealer: seat,
        });
        rec.event(Event::Settle {
            settlement: self.totals,
        });
    }

    /// What a win pays: each loser pays the unit (the score, or with `payment="flat"` 1, 2
    /// when the winner's final hand holds a quad); under đền làng `covering` (the discarder)
    /// pays every loser's share.
    pub fn payments(
        &self,
        winner: usize,
        score: i32,
        covering: Option<usize>,
    ) -> Vec<(usize, usize, u32, &'static str)> {
        let hand = &self.hands[winner];
        let has_quad =
            self.exposed[winner].iter().any(|(m, _)| m.is_quad()) || hand.0.contains(&COPIES);
        let unit = if self.rules.payment_flat {
            1 + u32::from(has_quad)
        } else {
            u32::try_from(score).unwrap_or(0)
        };
        (0..self.players)
            .filter(|&l| l != winner)
            .map(|loser| match covering {
                Some(c) if loser != c => (c, winner, unit, "den_lang"),
                _ => (loser, winner, unit, "toi"),
            })
            .collect()
    }

    fn draw(&mut self, rec: &mut impl Record) {
        self.phase = Phase::Over;
        self.to_discard = None;
        self.options = Default::default();
        self.responses.clear();
        self.result = Some(Outcome {
            winner: None,
            score: 0,
            draw: true,
            den_lang: None,
            next_dealer: self.dealer,
        });
        rec.event(Event::Draw {
            stock: self.stock.len(),
        });
    }

    // -- legal actions -----------------------------------------------------------------------

    /// A Tướng may be discarded only as the tỳ, under `tuong_as_ty`.
    pub fn may_discard_general(&self) -> bool {
        self.opening && self.rules.tuong_as_ty
    }

    /// The kinds `seat` may discard now (a Tướng tỳ, when allowed, last: the unusual choice).
    pub fn discardable(&self, seat: usize) -> Vec<Kind> {
        let hand = &self.hands[seat];
        let generals = if self.may_discard_general() {
            GENERALS
        } else {
            0
        };
        let order = (GENERALS..KINDS as u8).chain(0..generals);
        let mut kinds: Vec<Kind> = order
            .filter_map(Kind::from_index)
            .filter(|&k| hand.count(k) > 0)
            .collect();
        if self.rules.discard_enforce && hand.len() <= super::cards::MAX_HAND && min_rac(hand) > 0 {
            let rac = rac_kinds(hand);
            kinds.retain(|k| rac.contains(k));
        }
        kinds
    }

    /// The dealer's winning total with the dealt cards (before the tỳ), if they win.
    pub fn opening_win(&self) -> Option<i32> {
        let d = self.dealer;
        let hand = &self.hands[d];
        if hand.len() > super::cards::MAX_HAND {
            return None;
        }
        win_total(hand, self.exposed_lenh(d), None, self.rules.scoring)
    }

    /// `seat`'s answers to the offer: win, its claims, pass (unless mandatory).
    pub fn answers(&self, seat: usize) -> Vec<Answer> {
        let Some(o) = &self.options[seat] else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(o.claims.len() + 2);
        if o.win.is_some() {
            out.push(Answer::Win);
        }
        out.extend(o.claims.iter().cloned().map(Answer::Claim));
        if !o.must {
            out.push(Answer::Pass);
        }
        out
    }

    /// Every action `seat` may take now, in the order of the Python game's `legal_actions`.
    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        match self.phase {
            Phase::Discard if Some(seat) == self.to_discard => {
                let mut out: Vec<Action> = self
                    .discardable(seat)
                    .into_iter()
                    .map(Action::Discard)
                    .collect();
                if self.opening && self.opening_win().is_some() {
                    out.push(Action::Win);
                }
                out
            }
            Phase::Claim if self.pending().contains(seat) => self
                .answers(seat)
                .into_iter()
                .map(|a| match a {
                    Answer::Win => Action::Win,
                    Answer::Pass => Action::Pass,
                    Answer::Claim(mut c) => {
                        c.used.sort_unstable();
                        Action::Claim(Some(c.meld), c.used)
                    }
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    // -- actions -----------------------------------------------------------------------------

    /// Carries out `action` of `seat`, or says why not (nothing changes). For a claim, the
    /// answer recorded (the matching legal claim).
    pub fn act(
        &mut self,
        seat: usize,
        action: &Action,
        rec: &mut impl Record,
    ) -> Result<Option<Claim>, Error> {
        if self.phase == Phase::Over {
            return Err(illegal("game_over", "the hand is over"));
        }
        match action {
            Action::Discard(k) => {
                self.discard(seat, *k, rec)?;
                Ok(None)
            }
            other => self.respond(seat, other, rec),
        }
    }

    fn discard(&mut self, seat: usize, k: Kind, rec: &mut impl Record) -> Result<(), Error> {
        if self.phase != Phase::Discard || Some(seat) != self.to_discard {
            return Err(illegal(
                "not_your_turn",
                format!("seat {seat} has nothing to discard now"),
            ));
        }
        let hand = self.hands[seat];
        if hand.count(k) == 0 {
            return Err(illegal(
                "cards_not_in_hand",
                format!("seat {seat} holds no {k}"),
            ));
        }
        if k.index() < GENERALS && !self.may_discard_general() {
            return Err(illegal(
                "general_not_discarded",
                "a Tướng is never discarded, except as the tỳ",
            ));
        }
        let rac = if hand.len() <= super::cards::MAX_HAND {
            rac_kinds(&hand)
        } else {
            Vec::new()
        };
        if self.rules.discard_enforce && !rac.is_empty() && !rac.contains(&k) {
            return Err(illegal(
                "must_discard_rac",
                "only rác may be discarded while the hand has any",
            ));
        }
        let penalty = !self.rules.discard_enforce && !rac.contains(&k);
        self.hands[seat].take(k);
        rec.event(Event::Discard {
            seat,
            card: k,
            opening: self.opening,
        });
        self.opening = false;
        self.to_discard = None;
        self.open_offer(
            Offer {
                card: k,
                source: Source::Discard,
                seat,
                penalty,
            },
            rec,
        );
        Ok(())
    }

    fn respond(
        &mut self,
        seat: usize,
        action: &Action,
        rec: &mut impl Record,
    ) -> Result<Option<Claim>, Error> {
        if *action == Action::Win
            && self.phase == Phase::Discard
            && self.opening
            && seat == self.dealer
        {
            let Some(score) = self.opening_win() else {
                return Err(illegal(
                    "cannot_win",
                    "the dealt cards do not make a winning hand",
                ));
            };
            self.win(seat, score, rec);
            return Ok(None);
        }
        if self.phase != Phase::Claim {
            return Err(illegal("no_offer", "there is no offer to answer now"));
        }
        if !self.pending().contains(seat) {
            return Err(illegal(
                "not_your_turn",
                format!("seat {seat} has nothing to answer now"),
            ));
        }
        let o = self.options[seat]
            .as_ref()
            .expect("options of a pending seat");
        let (answer, claimed) = match action {
            Action::Win if o.win.is_none() => {
                return Err(illegal(
                    "cannot_win",
                    "the offer does not complete this hand",
                ))
            }
            Action::Win => (Answer::Win, None),
            Action::Pass if o.must => {
                return Err(illegal(
                    "must_claim",
                    "this claim is mandatory (khui, triple or Tướng)",
                ))
            }
            Action::Pass => (Answer::Pass, None),
            Action::Claim(meld, used) => {
                let c = self.match_claim(seat, *meld, used)?;
                (Answer::Claim(c.clone()), Some(c))
            }
            Action::Discard(_) => unreachable!("a discard is no answer"),
        };
        self.responses.push((seat, answer));
        if self.pending().is_empty() {
            self.resolve(rec);
        }
        Ok(claimed)
    }

    /// The legal claim `used` (sorted) and `meld` name, or why the claim is refused.
    fn match_claim(
        &self,
        seat: usize,
        meld: Option<MeldKind>,
        used: &[Kind],
    ) -> Result<Claim, Error> {
        let o = self.options[seat].as_ref().expect("options");
        for c in &o.claims {
            let mut u = c.used.clone();
            u.sort_unstable();
            if u == used && meld.map_or(true, |m| m == c.meld) {
                return Ok(c.clone());
            }
        }
        let offer = self.offer.expect("an offer");
        let mut all = used.to_vec();
        all.push(offer.card);
        let shape = classify(&all).map(|m| match m {
            MeldKind::Triple => MeldKind::ClaimedTriple,
            MeldKind::Quad => MeldKind::ClaimedQuad,
            m => m,
        });
        let claimable =
            shape.filter(|s| !matches!(s, MeldKind::Single | MeldKind::Triple | MeldKind::Quad));
        let Some(shape) = claimable.filter(|s| meld.map_or(true, |m| m == *s)) else {
            return Err(illegal(
                "invalid_combination",
                "these cards and the offer make no such meld",
            ));
        };
        let hand = &self.hands[seat];
        if !hand.contains(&Hand::from_kinds(used)) {
            return Err(illegal(
                "cards_not_in_hand",
                "the claim uses cards not in the hand",
            ));
        }
        let claim = Claim {
            meld: shape,
            used: used.to_vec(),
        };
        check_claim(
            hand,
            offer.card,
            &claim,
            Some(seat) == self.entitled(),
            self.rules.bung,
        )
        .map_err(|(reason, message)| illegal(reason, message))?;
        let reason = if o.claims.iter().any(|c| c.meld == MeldKind::ClaimedQuad) {
            "must_khui"
        } else {
            "must_triple"
        };
        Err(illegal(
            reason,
            "a mandatory claim comes first (khui / triple)",
        ))
    }

    /// Every score the winner's final hand can have been won with: by claiming any one of its
    /// hidden cards, or (the dealer) with the dealt cards.
    pub fn winning_totals(&self, winner: usize) -> Vec<i32> {
        let hand = self.hands[winner];
        let lenh = self.exposed_lenh(winner);
        let s = self.rules.scoring;
        if hand.len() > super::cards::MAX_HAND + 1 {
            return Vec::new();
        }
        let mut out: Vec<i32> = (0..KINDS as u8)
            .filter_map(Kind::from_index)
            .filter(|&k| hand.count(k) > 0)
            .filter_map(|k| {
                let mut rest = hand;
                rest.take(k);
                win_total(&rest, lenh, Some(k), s)
            })
            .collect();
        if winner == self.dealer && hand.len() <= super::cards::MAX_HAND {
            out.extend(win_total(&hand, lenh, None, s));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests;
