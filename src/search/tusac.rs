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
//! **Inference.** Khui and the triple are mandatory (unless `triple_optional`), so a seat that
//! was offered a card and did not make the triple held at most one copy of it then, and holds
//! at most one now (hidden hands only shrink). Deals give those seats a second copy only when
//! no other deal is found (a bài bụng may have forbidden the claim).

use super::{mix, race, Budget, Outcome, Trial};
use crate::rollout::FastRng;
use crate::tusac::{
    legal_claims, min_rac, priority, win_total, BungRule, Claim, Hand, Kind, MeldKind, Scoring,
};

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

/// A root decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Discard(Kind),
    Claim(Claim),
    Win,
    Pass,
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
    seen: Hand,
    stock: Vec<Kind>,
    phase: Phase,
    opening: bool,
    over: bool,
    score: [i32; MAX_SEATS],
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
    /// The greedy discard of `seat`: fewest rác after, then no Tướng, then most copies in sight.
    fn greedy_discard(&self, setup: &TuSacSetup, seat: usize) -> Kind {
        let h = &self.hands[seat];
        let allowed = discardable(setup, h, self.opening);
        let mut best: Option<((u32, bool, i32, u8), Kind)> = None;
        for k in allowed {
            let seen = i32::from(self.seen.count(k)) + i32::from(h.count(k));
            let key = (min_rac(&without(h, k)), k.is_general(), -seen, k.index());
            if best.as_ref().map_or(true, |(b, _)| key < *b) {
                best = Some((key, k));
            }
        }
        best.map_or_else(
            || kinds_held(h).next().expect("a hand to discard from"),
            |b| b.1,
        )
    }

    /// Fewest rác after one non-Tướng discard from `h` (and minus copies in sight).
    fn best_discard(&self, h: &Hand) -> (u32, i32) {
        let mut best = (h.len() + 1, 0);
        for k in kinds_held(h).filter(|k| !k.is_general()) {
            let seen = i32::from(self.seen.count(k)) + i32::from(h.count(k));
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
        let h = &self.hands[seat];
        let must =
            claims.iter().any(|c| {
                c.meld == MeldKind::ClaimedQuad
                    || (c.meld == MeldKind::ClaimedTriple && !setup.triple_optional)
            }) || (!claims.is_empty() && entitled && offer.from_stock && offer.card.is_general());
        let mut best: Option<((u32, i32), Claim)> = None;
        for c in claims {
            let key = self.best_discard(&h.minus(&Hand::from_kinds(&c.used)));
            if best.as_ref().map_or(true, |(b, _)| key < *b) {
                best = Some((key, c));
            }
        }
        match best {
            Some(((rac, _), c)) if must || rac <= min_rac(h) => Choice::Claim(c),
            _ => Choice::Pass,
        }
    }

    /// Every seat answers the offer (the root with `root`, when given); the best answer by
    /// priority is carried out.
    fn resolve(&mut self, setup: &TuSacSetup, me: usize, root: Option<&Choice>) {
        let Phase::Offer(offer, penalty) = self.phase else {
            return;
        };
        let n = setup.players;
        let k = offer.card;
        let ent = entitled(setup, &offer);
        let mut best: Option<((u8, i32), usize, Choice)> = None;
        for d in 0..n {
            let t = (offer.seat + d) % n;
            if !offer.from_stock && t == offer.seat {
                continue;
            }
            let h = &self.hands[t];
            let answer = match root.filter(|_| t == me) {
                Some(c) => c.clone(),
                None => {
                    let win = win_total(h, self.lenh[t], Some(k), setup.scoring).is_some();
                    let claims = legal_claims(h, k, t == ent, setup.triple_optional, setup.bung);
                    if !win && claims.is_empty() {
                        continue;
                    }
                    self.greedy_answer(setup, t, &offer, win, claims)
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
                }
                self.seen.add(k);
                self.lenh[t] += c.meld.lenh_with(setup.scoring.set_lenh);
                self.quad[t] |= c.meld.is_quad();
                self.phase = Phase::Discard(t);
            }
            _ => self.dead(setup, &offer),
        }
    }

    fn dead(&mut self, setup: &TuSacSetup, offer: &Offer) {
        self.seen.add(offer.card);
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

    /// Plays on with the greedy policy; the root's score.
    fn finish(&mut self, setup: &TuSacSetup, me: usize) -> i32 {
        // Every offer either makes a meld (the hand shrinks) or goes dead (the stock shrinks).
        for _ in 0..1000 {
            if self.over {
                break;
            }
            match self.phase {
                Phase::Discard(s) => {
                    let k = self.greedy_discard(setup, s);
                    self.discard(setup, s, k);
                }
                Phase::Offer(..) => self.resolve(setup, me, None),
            }
        }
        self.score[me]
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

struct Rollouts<'a> {
    setup: &'a TuSacSetup,
    pos: &'a TuSacPosition,
    cands: &'a [Choice],
    known: Option<&'a [Hand]>,
    rng: FastRng,
    start: Option<Sim>,
}

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
        Sim {
            hands,
            lenh: pos.exposed_lenh,
            quad: pos.exposed_quad,
            seen: in_sight(pos),
            stock: pool,
            phase,
            opening: pos.opening,
            over: false,
            score: [0; MAX_SEATS],
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
        match &self.cands[c] {
            Choice::Discard(k) => sim.discard(setup, me, *k),
            answer => sim.resolve(setup, me, Some(answer)),
        }
        sim.finish(setup, me)
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

/// Races the root's candidate choices (all legal for it now).
pub fn search(
    setup: &TuSacSetup,
    pos: &TuSacPosition,
    cands: &[Choice],
    known: Option<&[Hand]>,
    budget: &Budget,
    seed: u64,
) -> Outcome {
    let mut trial = Rollouts {
        setup,
        pos,
        cands,
        known,
        rng: FastRng::new(mix(seed, 0x7535)),
        start: None,
    };
    race(&mut trial, cands.len(), budget)
}

/// The greedy choice for the root (the `greedy` bot's), among `cands`: for tests and for
/// ordering candidates (the greedy choice first).
pub fn greedy_choice(setup: &TuSacSetup, pos: &TuSacPosition, cands: &[Choice]) -> usize {
    let sim = Sim {
        hands: {
            let mut h = [Hand::EMPTY; MAX_SEATS];
            h[pos.me] = pos.hand;
            h
        },
        lenh: pos.exposed_lenh,
        quad: pos.exposed_quad,
        seen: in_sight(pos),
        stock: Vec::new(),
        phase: Phase::Discard(pos.me),
        opening: pos.opening,
        over: false,
        score: [0; MAX_SEATS],
    };
    let want = match pos.offer {
        None => Choice::Discard(sim.greedy_discard(setup, pos.me)),
        Some(o) => {
            let claims: Vec<Claim> = cands
                .iter()
                .filter_map(|c| match c {
                    Choice::Claim(c) => Some(c.clone()),
                    _ => None,
                })
                .collect();
            let win = cands.contains(&Choice::Win);
            let answer = sim.greedy_answer(setup, pos.me, &o, win, claims);
            if answer == Choice::Pass && !cands.contains(&Choice::Pass) {
                cands
                    .iter()
                    .find(|c| matches!(c, Choice::Claim(_)))
                    .cloned()
                    .unwrap_or(Choice::Pass)
            } else {
                answer
            }
        }
    };
    cands.iter().position(|c| *c == want).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
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
            unseen: Hand::DECK.minus(&hand),
            stock: 112 - 81,
            offer: None,
            opening: true,
            single: [0; 4],
        }
    }

    const HAND: &str = "KR KG AW AW AW EY EG RG RW RW RW CY CY CY CR CG HG PY PY PY PR";

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
        };
        for _ in 0..50 {
            t.draw();
            let mut sim = t.start.clone().unwrap();
            sim.finish(&s, 0);
            assert!(sim.over);
            assert_eq!(sim.score.iter().sum::<i32>(), 0);
            let cards: u32 = sim.hands.iter().map(|h| h.len()).sum::<u32>()
                + sim.seen.len()
                + sim.stock.len() as u32;
            // Every card is in a hand, in sight or in the stock (a winner's offer aside).
            assert!((111..=112).contains(&cards), "{cards}");
        }
        let a = search(&s, &pos, &cands, None, &Budget::rollouts(200), 5);
        assert_eq!(a, search(&s, &pos, &cands, None, &Budget::rollouts(200), 5));
        let g = greedy_choice(&s, &pos, &cands);
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
}
