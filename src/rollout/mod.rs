//! Determinised rollouts for the shedding games (Tiến Lên, Sâm Lốc): the engine behind the
//! `montecarlo` bots, and the fast greedy policy the rollouts (and the `greedy` bots) play.
//!
//! A [`Position`] is what one seat knows: its hand, the cards it has not seen (held by the
//! others or never dealt), the others' card counts and the public table state. Each rollout
//! deals the unseen cards at random to the other seats by their counts, applies one candidate
//! play (or a pass), then plays the hand out with [`greedy_choice`] for every seat and scores
//! it for the root seat with a simplified [`Payoff`] (cards left, thối, cóng, chặt, places,
//! Sâm). Candidates share the same deals (common random numbers), so their means compare with
//! less noise than independent samples would give.
//!
//! Tứ Sắc's rollouts and greedy policy are its own ([`tusac`]).

use crate::cards::CardSet;
use crate::samloc::{breaks_bao_mot, legal_plays_into_bao_mot};
use crate::shedding::penalty::{RED_TWOS, TWOS};
use crate::shedding::{is_cut, Combo, Kind, PlayFilter, Rules};

/// Most seats at a shedding table.
pub const MAX_SEATS: usize = 5;

/// What a hand is worth at its end, from the rules' scoring table (a simplified model: the
/// bot compares moves, it does not settle the game).
#[derive(Clone, Debug, PartialEq)]
pub struct Payoff {
    /// Units per card left in a loser's hand (first-out scoring).
    pub card: i32,
    /// Units a seat that played no card pays (cóng).
    pub cong: i32,
    /// Thối: units of each black 2, red 2 and tứ quý left in a loser's hand.
    pub black_two: i32,
    pub red_two: i32,
    pub quad: i32,
    /// Ranked ending: units won per place (nhất first); empty for first-out scoring.
    pub places: Vec<i32>,
    /// Sâm: units each other seat pays a successful declarer (and a blocked one pays).
    pub sam: i32,
    /// A blocked Sâm pays every other seat (`true`) or only the blocker (`false`).
    pub sam_block_each: bool,
}

impl Payoff {
    fn thoi(&self, hand: CardSet) -> i32 {
        let red = (hand.0 & RED_TWOS).count_ones() as i32;
        let black = (hand.0 & TWOS).count_ones() as i32 - red;
        let quads = i32::from(hand.ranks_with_at_least(4).count_ones() as u8);
        red * self.red_two + black * self.black_two + quads * self.quad
    }

    fn twos_value(&self, cards: CardSet) -> i32 {
        let red = (cards.0 & RED_TWOS).count_ones() as i32;
        red * self.red_two + ((cards.0 & TWOS).count_ones() as i32 - red) * self.black_two
    }

    /// Units a cut (chặt) of `table` costs its owner.
    fn cut_value(&self, table: &Combo) -> i32 {
        if table.kind == Kind::FourOfAKind || table.kind == Kind::PairSequence {
            self.quad
        } else {
            self.twos_value(table.cards)
        }
    }
}

/// The table's rules as the rollouts need them.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub players: usize,
    /// Which plays a seat that passed may still make on a table of 2s or a bomb (Tiến Lên's
    /// `bomb_after_pass`); `None`: passed seats wait for the next round.
    pub after_pass: Option<PlayFilter>,
    /// Báo 1 (Sâm Lốc): while another seat holds one card, singles must be the highest.
    pub bao_mot: bool,
    /// May a hand be emptied with a play holding a 2 (otherwise the seat pays, wins nothing)?
    pub finish_on_two: bool,
    /// Sâm Lốc's house rule `sam_may_finish_on_two`: a Sâm declarer is exempt from
    /// `finish_on_two` (by default it is bound like every seat).
    pub sam_may_finish_on_two: bool,
    /// How báo 1 binds and what breaking it costs (Sâm Lốc's `bao_mot_*` options).
    pub bao: BaoMot,
    pub payoff: Payoff,
}

/// Báo 1 beyond the rollout policy (which always plays the highest single): which seats a
/// one-card seat binds, and whether a lower single is allowed and paid for (đền làng).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaoMot {
    /// Only the seat playing just before the one-card seat is bound (`bao_mot_scope =
    /// "previous_seat"`); otherwise every other seat.
    pub previous_seat_only: bool,
    /// A lower single is allowed and recorded (`bao_mot_mode = "penalize"`): if the one-card
    /// seat goes out with its next play, the violator pays for the whole table.
    pub penalize: bool,
    /// Đền làng pays the losers' cards left, one unit each (`bao_mot_den = "cards"`);
    /// otherwise the sum every loser would have paid.
    pub den_cards: bool,
}

/// What the root seat knows, plus the public state of the hand.
#[derive(Clone, Debug)]
pub struct Position {
    pub me: usize,
    pub hand: CardSet,
    /// Cards the root has not seen: in the others' hands or never dealt.
    pub unseen: CardSet,
    /// Cards held by each seat (the root's entry is its hand size).
    pub counts: [u8; MAX_SEATS],
    /// Seats that have played a card this hand (the others are still cóng).
    pub played_any: u8,
    pub table: Option<Combo>,
    pub table_seat: usize,
    pub passed: u8,
    pub out: u8,
    /// Cards the root's play must include (the first lead).
    pub must: CardSet,
    /// The Sâm declarer, if any.
    pub sam: Option<usize>,
    /// Báo 1 violations on record: per one-card seat, the violator plus one (0: none).
    pub violator: [u8; MAX_SEATS],
    /// The cards each seat has played this hand (public: what the learned policy reads).
    pub played: [u64; MAX_SEATS],
}

/// A small, fast generator for the deals (SplitMix64).
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    pub const fn new(seed: u64) -> FastRng {
        FastRng(seed)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A uniform float in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// A uniform integer in `0..n` (n ≥ 1; multiply-shift, bias below 2^-32 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Context of a greedy decision besides the hand and the plays.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Fewest cards held by another seat still in the hand.
    pub min_other: u32,
    /// May the seat pass (false when leading)?
    pub can_pass: bool,
    /// May a hand be emptied with a 2? If not, 2s are shed whenever they beat the table.
    pub finish_on_two: bool,
}

fn uses_twos(c: &Combo) -> bool {
    c.cards.0 & TWOS != 0
}

/// Does playing `c` split a pair, triple or quad of `hand` it does not use whole?
fn breaks_group(hand: CardSet, c: &Combo) -> u32 {
    let mut broken = 0;
    for card in c.cards.iter() {
        let r = card.rank();
        let held = hand.rank_nibble(r).count_ones();
        let used = c.cards.rank_nibble(r).count_ones();
        if held >= 2 && used < held {
            broken += 1;
        }
    }
    broken
}

/// Should a seat holding `hand` that would rather not empty it with a 2 (the rules refuse or
/// penalise it: `finish_on_two` other than allowed) set aside the plays that would? Yes when
/// `hand` holds a 2, one of `plays` is the whole hand, and something else is left to do:
/// another play, or a pass (`can_pass`). The rollouts' move generator ([`Sim::plays`]) and the
/// vector tables' `greedy` seats (`SheddingTable::greedy_action`) both ask it.
pub fn sets_aside_two_finish(hand: CardSet, plays: &[Combo], can_pass: bool) -> bool {
    hand.0 & TWOS != 0
        && plays.iter().any(|c| c.cards == hand)
        && (can_pass || plays.iter().any(|c| c.cards != hand))
}

/// The fast greedy policy: the index of the play to make among `plays` (all legal for the
/// seat holding `hand`), or `None` to pass. Leading: go out if possible, else the longest
/// play holding the lowest card (no 2s or bombs while other plays exist; no single while an
/// opponent holds one card; when a hand may not be emptied with a 2, never a lead that would
/// leave only 2s). Following: the cheapest play that breaks no group, keeping 2s
/// and bombs for cutting 2s, for short hands, and for opponents close to going out.
pub fn greedy_choice(
    hand: CardSet,
    plays: &[Combo],
    table: Option<&Combo>,
    ctx: Context,
) -> Option<usize> {
    if plays.is_empty() {
        return None;
    }
    if let Some(i) = plays.iter().position(|c| c.cards == hand) {
        return Some(i);
    }
    let danger = ctx.min_other <= 2;
    match table {
        None => {
            let low = hand.0 & hand.0.wrapping_neg();
            let key = |c: &Combo| {
                let rest = hand.0 & !c.cards.0;
                let strands = u32::from(!ctx.finish_on_two && rest != 0 && rest & !TWOS == 0);
                let costly = u32::from(uses_twos(c) || c.is_bomb());
                let lone = u32::from(ctx.min_other == 1 && c.kind == Kind::Single);
                let misses_low = u32::from(c.cards.0 & low == 0);
                // Lone singles against a one-card opponent: lead the highest.
                let top = if lone == 1 {
                    255 - u32::from(c.top)
                } else {
                    u32::from(c.top)
                };
                (
                    strands,
                    lone,
                    costly,
                    misses_low,
                    breaks_group(hand, c),
                    u32::MAX - c.len(),
                    top,
                )
            };
            (0..plays.len()).min_by_key(|&i| key(&plays[i]))
        }
        Some(t) => {
            let short = hand.len() <= 5 || danger;
            let mut best: Option<(bool, u32, u8, usize)> = None;
            for (i, c) in plays.iter().enumerate() {
                let costly = (ctx.finish_on_two && uses_twos(c)) || c.is_bomb();
                if costly && !(short || t.is_twos() || t.is_bomb()) {
                    continue;
                }
                let key = (costly, breaks_group(hand, c), c.top, i);
                if best.map_or(true, |b| key < b) {
                    best = Some(key);
                }
            }
            match best {
                Some((_, broken, _, i)) if broken == 0 || short || !ctx.can_pass => Some(i),
                None if !ctx.can_pass => Some(0),
                _ => None,
            }
        }
    }
}

/// Who plays the seats of a rollout: the greedy policy ([`Greedy`]), or another (the search's
/// learned policy). `choose` returns the index of the play among `plays` (from
/// [`Sim::plays`]) or `None` to pass, as [`Sim::policy`] does.
pub(crate) trait Player {
    fn choose(&mut self, sim: &Sim, setup: &Setup, seat: usize, plays: &[Combo]) -> Option<usize>;
}

/// The greedy rollout policy ([`Sim::policy`]).
pub(crate) struct Greedy;

impl Player for Greedy {
    fn choose(&mut self, sim: &Sim, setup: &Setup, seat: usize, plays: &[Combo]) -> Option<usize> {
        sim.policy(setup, seat, plays)
    }
}

/// One determinised hand being played out.
#[derive(Clone, Debug)]
pub(crate) struct Sim {
    pub(crate) hands: [CardSet; MAX_SEATS],
    /// The cards each seat has played this hand.
    pub(crate) played: [u64; MAX_SEATS],
    played_any: u8,
    pub(crate) table: Option<Combo>,
    pub(crate) table_seat: usize,
    pub(crate) passed: u8,
    pub(crate) out: u8,
    places: Vec<usize>,
    pub(crate) turn: usize,
    pub(crate) must: CardSet,
    pub(crate) sam: Option<usize>,
    /// Per one-card seat, the seat (plus one; 0: none) that broke báo 1 against it.
    violator: [u8; MAX_SEATS],
    score: [i32; MAX_SEATS],
    pub(crate) over: bool,
}

impl Sim {
    /// The hand of `pos` with the seats holding `hands`, `turn` to act.
    pub(crate) fn new(pos: &Position, hands: [CardSet; MAX_SEATS], turn: usize) -> Sim {
        Sim {
            hands,
            played: pos.played,
            played_any: pos.played_any,
            table: pos.table,
            table_seat: if pos.table.is_some() {
                pos.table_seat
            } else {
                usize::MAX
            },
            passed: pos.passed,
            out: pos.out,
            places: Vec::new(),
            turn,
            must: if turn == pos.me {
                pos.must
            } else {
                CardSet::EMPTY
            },
            sam: pos.sam,
            violator: pos.violator,
            score: [0; MAX_SEATS],
            over: false,
        }
    }

    /// One-card seats whose báo 1 binds `seat` (a mask of seats).
    fn bao_bound(&self, setup: &Setup, seat: usize) -> u8 {
        let n = setup.players;
        let one = |s: usize| s != seat && self.in_hand(s) && self.hands[s].len() == 1;
        if setup.bao.previous_seat_only {
            let next = if seat + 1 < n { seat + 1 } else { 0 };
            return u8::from(one(next)) << next;
        }
        (0..n).filter(|&s| one(s)).fold(0, |m, s| m | 1 << s)
    }

    fn pay(&mut self, from: usize, to: usize, units: i32) {
        self.score[from] -= units;
        self.score[to] += units;
    }

    fn in_hand(&self, s: usize) -> bool {
        self.out >> s & 1 == 0
    }

    fn min_other(&self, setup: &Setup, seat: usize) -> u32 {
        (0..setup.players)
            .filter(|&s| s != seat && self.in_hand(s))
            .map(|s| self.hands[s].len())
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Legal plays of `seat` now, into `out` (empty: it must pass).
    pub(crate) fn plays(&self, setup: &Setup, seat: usize, out: &mut Vec<Combo>) {
        out.clear();
        let filter = if self.passed >> seat & 1 == 1 {
            match (setup.after_pass, self.table) {
                (Some(f), Some(t)) if t.is_twos() || t.is_bomb() => f,
                _ => return,
            }
        } else {
            PlayFilter::All
        };
        let hand = self.hands[seat];
        let bao_mot = setup.bao_mot && self.bao_bound(setup, seat) != 0;
        let must = if seat == self.turn {
            self.must
        } else {
            CardSet::EMPTY
        };
        legal_plays_into_bao_mot(
            hand,
            self.table.as_ref(),
            &setup.rules,
            must,
            filter,
            bao_mot,
            out,
        );
        // Emptying the hand with a 2 is avoided unless nothing else may be done.
        let exempt = self.sam.is_some() && setup.sam_may_finish_on_two;
        if !setup.finish_on_two && !exempt && sets_aside_two_finish(hand, out, self.table.is_some())
        {
            out.retain(|c| c.cards != hand);
        }
    }

    /// Carries out `seat`'s play (or pass), then gives the turn on.
    pub(crate) fn act(&mut self, setup: &Setup, seat: usize, play: Option<Combo>) {
        let n = setup.players;
        let Some(c) = play else {
            self.passed |= 1 << seat;
            // A one-card seat that passes did not go out with its next play.
            self.violator[seat] = 0;
            self.advance(setup, seat);
            return;
        };
        if setup.bao.penalize && setup.bao_mot && breaks_bao_mot(self.hands[seat], &c) {
            let bound = self.bao_bound(setup, seat);
            for s in (0..n).filter(|&s| bound >> s & 1 == 1) {
                self.violator[s] = seat as u8 + 1;
            }
        }
        if let Some(d) = self.sam {
            if seat != d {
                // Chặn Sâm: the hand ends at once.
                if setup.payoff.sam_block_each {
                    for s in (0..n).filter(|&s| s != d) {
                        self.pay(d, s, setup.payoff.sam);
                    }
                } else {
                    self.pay(d, seat, setup.payoff.sam * (n as i32 - 1));
                }
                self.over = true;
                return;
            }
        }
        if let Some(t) = self.table {
            if is_cut(&c, &t, &setup.rules) {
                self.pay(self.table_seat, seat, setup.payoff.cut_value(&t));
            }
        }
        self.hands[seat] = self.hands[seat].difference(c.cards);
        self.played[seat] |= c.cards.0;
        self.played_any |= 1 << seat;
        self.passed &= !(1 << seat);
        self.table = Some(c);
        self.table_seat = seat;
        self.must = CardSet::EMPTY;
        if self.hands[seat].is_empty() {
            self.goes_out(setup, seat, &c);
            if self.over {
                return;
            }
        }
        self.advance(setup, seat);
    }

    /// What loser `s` pays the first seat out (first-out scoring): its cards left, or cóng,
    /// plus thối.
    fn loser_units(&self, setup: &Setup, s: usize) -> i32 {
        let p = &setup.payoff;
        let hand = self.hands[s];
        if self.played_any >> s & 1 == 0 {
            p.cong + p.thoi(hand)
        } else {
            p.card * hand.len() as i32 + p.thoi(hand)
        }
    }

    fn goes_out(&mut self, setup: &Setup, seat: usize, c: &Combo) {
        let n = setup.players;
        let p = &setup.payoff;
        let others = (0..n).filter(move |&s| s != seat);
        let exempt = self.sam.is_some() && setup.sam_may_finish_on_two;
        if let Some(d) = self
            .sam
            .filter(|_| exempt || setup.finish_on_two || !uses_twos(c))
        {
            for s in others {
                self.pay(s, d, p.sam);
            }
            self.over = true;
            return;
        }
        if !setup.finish_on_two && uses_twos(c) {
            let units = p.twos_value(c.cards);
            for s in others {
                self.pay(seat, s, units);
            }
            self.over = true;
            return;
        }
        self.out |= 1 << seat;
        self.places.push(seat);
        if let Some(v) = self.violator[seat].checked_sub(1).map(usize::from) {
            if p.places.is_empty() {
                // Đền làng: the báo 1 violator pays for the whole table.
                let units: i32 = (0..n)
                    .filter(|&s| s != seat)
                    .map(|s| {
                        if setup.bao.den_cards {
                            self.hands[s].len() as i32
                        } else {
                            self.loser_units(setup, s)
                        }
                    })
                    .sum();
                self.pay(v, seat, units);
                self.over = true;
                return;
            }
        }
        if p.places.is_empty() {
            for s in others {
                let units = self.loser_units(setup, s);
                self.pay(s, seat, units);
            }
            self.over = true;
            return;
        }
        if self.places.len() == 1 {
            for s in others {
                if self.played_any >> s & 1 == 0 {
                    // Cóng in a ranked hand: out at once, paid to the winner, placed last.
                    self.out |= 1 << s;
                    self.pay(s, seat, p.cong);
                }
            }
        }
        let left: Vec<usize> = (0..n).filter(|&s| self.in_hand(s)).collect();
        if left.len() <= 1 {
            self.places.extend(left);
            for s in 0..n {
                if !self.places.contains(&s) {
                    self.places.push(s); // cóng seats come last
                }
            }
            for (place, &s) in self.places.clone().iter().enumerate() {
                self.score[s] += p.places.get(place).copied().unwrap_or(0);
            }
            self.over = true;
        }
    }

    fn advance(&mut self, setup: &Setup, frm: usize) {
        let n = setup.players;
        let mut t = frm;
        for _ in 0..n {
            t = if t + 1 < n { t + 1 } else { 0 };
            if t == self.table_seat {
                break;
            }
            if !self.in_hand(t) {
                continue;
            }
            let reenter = self.passed >> t & 1 == 1
                && match (setup.after_pass, self.table) {
                    (Some(_), Some(tb)) => tb.is_twos() || tb.is_bomb(),
                    _ => false,
                };
            if self.passed >> t & 1 == 0 || reenter {
                self.turn = t;
                return;
            }
        }
        // New round: the last player leads, or the next seat in the hand (hưởng sái). A bounded
        // search: with no seat in the hand (impossible for a checked position) the hand ends.
        let start = if self.table_seat < n {
            self.table_seat
        } else {
            frm
        };
        let Some(leader) = (0..n).map(|i| (start + i) % n).find(|&s| self.in_hand(s)) else {
            self.over = true;
            return;
        };
        self.table = None;
        self.table_seat = usize::MAX;
        self.passed = 0;
        self.turn = leader;
    }

    /// The rollout policy's choice for `seat` among its `plays` (from [`Sim::plays`]): the
    /// greedy one, or against a Sâm declarer any block. `None`: pass.
    pub(crate) fn policy(&self, setup: &Setup, seat: usize, plays: &[Combo]) -> Option<usize> {
        if self.sam.is_some_and(|d| d != seat) {
            // Against a Sâm, any legal play blocks it.
            return (!plays.is_empty()).then_some(0);
        }
        let ctx = Context {
            min_other: self.min_other(setup, seat),
            can_pass: self.table.is_some(),
            finish_on_two: setup.finish_on_two,
        };
        greedy_choice(self.hands[seat], plays, self.table.as_ref(), ctx)
    }

    /// May the seat to act pass (a table is there to beat)?
    pub(crate) fn can_pass(&self) -> bool {
        self.table.is_some()
    }

    /// Every seat's score so far (final once the hand is over).
    pub(crate) fn scores(&self) -> [i32; MAX_SEATS] {
        self.score
    }

    /// Plays the hand out with the greedy policy; returns the root's score.
    pub(crate) fn finish(&mut self, setup: &Setup, me: usize, scratch: &mut Vec<Combo>) -> i32 {
        self.finish_with(setup, me, scratch, &mut Greedy)
    }

    /// Plays the hand out with `player` choosing for every seat; returns the root's score.
    pub(crate) fn finish_with(
        &mut self,
        setup: &Setup,
        me: usize,
        scratch: &mut Vec<Combo>,
        player: &mut impl Player,
    ) -> i32 {
        // Every play sheds a card and a round ends within a lap, so this bounds the length.
        for _ in 0..(52 * MAX_SEATS * 2) {
            if self.over {
                break;
            }
            let seat = self.turn;
            self.plays(setup, seat, scratch);
            let play = player
                .choose(self, setup, seat, scratch)
                .map(|i| scratch[i]);
            if play.is_none() && self.table.is_none() {
                break; // cannot happen with legal data; stop rather than loop
            }
            self.act(setup, seat, play);
        }
        self.score[me]
    }
}

/// Deals the unseen cards to the other seats by their counts.
pub(crate) fn determinise(
    pos: &Position,
    players: usize,
    rng: &mut FastRng,
    pool: &mut Vec<u8>,
) -> [CardSet; MAX_SEATS] {
    pool.clear();
    pool.extend(pos.unseen.iter().map(|c| c.index()));
    let mut hands = [CardSet::EMPTY; MAX_SEATS];
    hands[pos.me] = pos.hand;
    let mut next = 0;
    for (s, hand) in hands.iter_mut().enumerate().take(players) {
        if s == pos.me {
            continue;
        }
        for _ in 0..pos.counts[s] {
            let j = next + rng.below(pool.len() - next);
            pool.swap(next, j);
            hand.0 |= 1u64 << pool[next];
            next += 1;
        }
    }
    hands
}

/// Checks that a position is consistent enough to roll out.
pub fn check(setup: &Setup, pos: &Position) -> Result<(), String> {
    if !(2..=MAX_SEATS).contains(&setup.players) || pos.me >= setup.players {
        return Err(format!("seat {} at a {}-seat table", pos.me, setup.players));
    }
    if pos.hand.0 & pos.unseen.0 != 0 {
        return Err("the hand and the unseen cards overlap".into());
    }
    let hidden: u32 = (0..setup.players)
        .filter(|&s| s != pos.me)
        .map(|s| u32::from(pos.counts[s]))
        .sum();
    if hidden > pos.unseen.len() {
        return Err(format!(
            "{hidden} hidden cards but only {} unseen",
            pos.unseen.len()
        ));
    }
    if pos.table.is_some() && pos.table_seat >= setup.players {
        return Err("table_seat out of range".into());
    }
    let seats = (1u8 << setup.players) - 1;
    for (name, bits) in [
        ("played_any", pos.played_any),
        ("passed", pos.passed),
        ("out", pos.out),
    ] {
        if bits & !seats != 0 {
            return Err(format!(
                "{name} {bits:#b} names a seat beyond the {} seats",
                setup.players
            ));
        }
    }
    if pos.out >> pos.me & 1 == 1 {
        // The hand would have no seat to lead a new round: the root must still be playing.
        return Err(format!("seat {} is out of the hand", pos.me));
    }
    if let Some(d) = pos.sam.filter(|&d| d >= setup.players) {
        return Err(format!("the Sâm declarer {d} is not a seat"));
    }
    let most = u32::from(setup.rules.hand_size);
    if pos.hand.len() > most {
        return Err(format!(
            "a hand holds at most {most} cards, not {}",
            pos.hand.len()
        ));
    }
    if let Some(s) = (0..setup.players).find(|&s| u32::from(pos.counts[s]) > most) {
        return Err(format!(
            "seat {s} holds {} cards, more than {most}",
            pos.counts[s]
        ));
    }
    if pos.must.0 & !pos.hand.0 != 0 {
        return Err("must: cards not in the hand".into());
    }
    let mut seen = pos.hand.0 | pos.unseen.0;
    for (s, &m) in pos.played.iter().enumerate() {
        if m != 0 && s >= setup.players {
            return Err(format!(
                "played: seat {s} at a {}-seat table",
                setup.players
            ));
        }
        if m & seen != 0 || m & !CardSet::DECK.0 != 0 {
            return Err(format!(
                "played: seat {s}'s cards are in the hand, unseen or another seat's played"
            ));
        }
        seen |= m;
    }
    Ok(())
}

/// Most rollouts × candidates (or Sâm samples) one call may ask for: tens of seconds of work.
/// The bots ask for a few thousand; a caller's number never sets an unbounded loop.
pub const MAX_ROLLOUT_WORK: u64 = 10_000_000;

/// Checks a request of `rollouts` deals for `candidates` plays against [`MAX_ROLLOUT_WORK`].
pub fn check_work(rollouts: u32, candidates: usize) -> Result<(), String> {
    let work = u64::from(rollouts).saturating_mul(candidates.max(1) as u64);
    if work > MAX_ROLLOUT_WORK {
        return Err(format!(
            "{rollouts} rollouts × {candidates} candidates exceed {MAX_ROLLOUT_WORK}"
        ));
    }
    Ok(())
}

/// Mean root score of each candidate (`None`: pass) over `rollouts` determinised deals.
pub fn evaluate(
    setup: &Setup,
    pos: &Position,
    candidates: &[Option<Combo>],
    rollouts: u32,
    seed: u64,
) -> Vec<f64> {
    let mut rng = FastRng::new(seed);
    let mut totals = vec![0i64; candidates.len()];
    let mut pool = Vec::with_capacity(52);
    let mut scratch = Vec::with_capacity(128);
    for _ in 0..rollouts {
        let hands = determinise(pos, setup.players, &mut rng, &mut pool);
        for (total, cand) in totals.iter_mut().zip(candidates) {
            let mut sim = Sim::new(pos, hands, pos.me);
            sim.act(setup, pos.me, *cand);
            *total += i64::from(sim.finish(setup, pos.me, &mut scratch));
        }
    }
    let n = f64::from(rollouts.max(1));
    totals.into_iter().map(|t| t as f64 / n).collect()
}

/// The share of `samples` deals in which the root, declaring Sâm with `pos.hand`, plays out
/// its hand with no play beaten (the greedy policy choosing its leads).
pub fn sam_success(setup: &Setup, pos: &Position, samples: u32, seed: u64) -> f64 {
    let mut rng = FastRng::new(seed);
    let mut pool = Vec::with_capacity(52);
    let mut scratch = Vec::with_capacity(128);
    let mut wins = 0u32;
    for _ in 0..samples {
        let hands = determinise(pos, setup.players, &mut rng, &mut pool);
        let mut sim = Sim::new(pos, hands, pos.me);
        sim.played_any = 0;
        sim.table = None;
        sim.table_seat = usize::MAX;
        sim.passed = 0;
        sim.out = 0;
        sim.must = CardSet::EMPTY;
        sim.sam = Some(pos.me);
        sim.violator = [0; MAX_SEATS];
        sim.played = [0; MAX_SEATS];
        if sim.finish(setup, pos.me, &mut scratch) > 0 {
            wins += 1;
        }
    }
    f64::from(wins) / f64::from(samples.max(1))
}

pub mod tusac;

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
