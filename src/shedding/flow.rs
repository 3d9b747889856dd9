//! The flow every shedding game shares (Tiến Lên, Sâm Lốc): the deal, leads, rounds, passing,
//! hưởng sái, bomb chains (chặt chồng), going out, finishing on a 2, cóng, and the hand
//! sequence. What differs between the games (instant wins, who leads first, what is paid, Sâm
//! Lốc's declarations and báo 1) is each member game's own module, which implements
//! [`Variant`]: the hooks this flow calls at fixed points, and the member's own state of a hand.
//! The turn machinery is here once and names no member: a new shedding game implements
//! [`Variant`] in its own module and leaves this one alone.
//!
//! Round rules: a seat beats the table or passes; a seat that passes is out of the round
//! (unless the game lets it cut after passing); when every other seat in the round has
//! passed, the last seat to play leads a new round, or, if it has gone out, the next seat
//! still in the hand leads (hưởng sái).
//!
//! A [`Flow`] is one table's state. Its actions check everything first and change nothing
//! when they refuse (an [`Error::IllegalMove`] saying why); what happens is told to a
//! [`Record`] as [`Event`]s and payments in order, which the Python games turn into their
//! event log and ledger, and which the vector environment ([`crate::vector`]) mostly drops.
//! Randomness (the shuffle, a drawn leader) comes from a [`Draw`].

use super::combo::{classify, is_cut, Combo, Kind};
use super::moves::{check_play, legal_plays_into, PlayFilter};
use super::penalty::TWOS;
use super::rules::Rules;
use crate::cards::CardSet;
use crate::error::Error;
pub use crate::table::{Discard, Draw};
use core::fmt::Debug;
use core::hash::Hash;

/// Most seats at a shedding table (Sâm Lốc seats five).
pub const MAX_SEATS: usize = 5;

/// Emptying the hand with a play containing a 2 (về 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinishOnTwo {
    Allowed,
    /// The seat does not win: the hand ends and it pays for its 2s.
    Penalized,
    /// Refused unless it is the seat's only legal action (then penalised).
    Forbidden,
}

/// The rules of one game's flow: the combinations, and the member game's own options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlowRules<V> {
    pub combos: Rules,
    pub house: V,
}

/// What a member game of the family brings to the flow: its options (the value itself, kept in
/// [`FlowRules::house`]), its own state of a hand ([`Variant::State`], kept in
/// [`Flow::member`]), and the hooks the flow calls at fixed points of a hand. The defaults are
/// a game without the hook's rule.
pub trait Variant: Copy + Debug + PartialEq + Eq + Hash {
    /// The member's own state of a hand (Sâm Lốc: the declarations and báo 1).
    type State: Copy + Debug + Default + PartialEq + Eq + Hash;

    /// After the deal (instant wins, declarations): may end the hand or give the turn; if it
    /// does neither, the flow gives the first lead.
    fn after_deal(f: &mut Flow<Self>, draw: &mut impl Draw, rec: &mut impl Record);

    /// The card a first lead under the first-lead rule must include (empty: none).
    fn lead_card(_f: &Flow<Self>) -> CardSet {
        CardSet::EMPTY
    }

    /// The leader of a hand under the first-lead rule, and the card its first play must include.
    fn first_leader(f: &Flow<Self>, draw: &mut impl Draw) -> (usize, CardSet);

    /// Play on after the first player goes out, for a full finishing order.
    fn ranked_ending(&self) -> bool {
        false
    }

    /// The finishing-on-a-2 rule that binds the seats now.
    fn finish_on_two(f: &Flow<Self>) -> FinishOnTwo;

    /// Which plays a seat that passed may still make on `table`, or `None` (passed seats are
    /// skipped).
    fn after_pass_filter(&self, _table: Option<&Combo>) -> Option<PlayFilter> {
        None
    }

    /// What a cut of `table` adds to the bomb chain.
    fn cut_value(&self, table: &Combo) -> u32;

    /// Plays are closed for now (Sâm Lốc's declarations): no seat has a legal play.
    fn plays_closed(_f: &Flow<Self>) -> bool {
        false
    }

    /// Refuses any play or pass while the hand is in a phase of the member's own (checked
    /// before the turn).
    fn refuse_turn(_f: &Flow<Self>) -> Result<(), Error> {
        Ok(())
    }

    /// Removes from `plays` (the legal plays of `seat`) those the member's rules refuse.
    fn filter_plays(_f: &Flow<Self>, _seat: usize, _plays: &mut Vec<Combo>) {}

    /// Refuses a play the shared rules accept (checked last).
    fn check_play(_f: &Flow<Self>, _seat: usize, _combo: &Combo) -> Result<(), Error> {
        Ok(())
    }

    /// After a play has been made (before its seat may go out); may end the hand.
    fn on_play(_f: &mut Flow<Self>, _seat: usize, _combo: &Combo, _rec: &mut impl Record) {}

    /// After a pass and the turn's move to the next seat.
    fn on_pass(_f: &mut Flow<Self>, _seat: usize) {}

    /// `seat` emptied its hand with `combo`, holding a 2, and is penalised: its payments (the
    /// flow then ends the hand, won by no one).
    fn settle_finish_on_two(f: &mut Flow<Self>, seat: usize, combo: &Combo, rec: &mut impl Record);

    /// `winner` went out first with `combo` and the hand ends there: the payments.
    fn settle_first_out(f: &mut Flow<Self>, winner: usize, combo: &Combo, rec: &mut impl Record);

    /// A ranked hand is over (`order`: the finishing order, cóng seats last): the payments.
    fn settle_ranked(_f: &mut Flow<Self>, _order: &Seats, _rec: &mut impl Record) {}
}

/// A small ordered set of seats (a finishing order, the cóng seats, seats bound by báo 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats {
    len: u8,
    seats: [u8; MAX_SEATS],
}

impl Seats {
    pub fn push(&mut self, seat: usize) {
        self.seats[usize::from(self.len)] = seat as u8;
        self.len += 1;
    }
    pub const fn len(&self) -> usize {
        self.len as usize
    }
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.seats[..self.len()]
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&s| usize::from(s))
    }
    pub fn contains(&self, seat: usize) -> bool {
        self.iter().any(|s| s == seat)
    }
    /// `self` followed by `other`.
    pub fn chain(&self, other: &Seats) -> Seats {
        let mut out = *self;
        for s in other.iter() {
            out.push(s);
        }
        out
    }
    /// Seats from a list (at most [`MAX_SEATS`]).
    pub fn from_slice(seats: &[usize]) -> Seats {
        let mut out = Seats::default();
        for &s in seats.iter().take(MAX_SEATS) {
            out.push(s);
        }
        out
    }
}

/// What a bomb chain (chặt chồng) owes so far: the units, the last cutter and the last seat cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    pub units: u32,
    pub cutter: usize,
    pub victim: usize,
}

/// Why a payment is made (the ledger's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A paid bomb chain (chặt).
    Chat,
    /// Tiến Lên: an instant win at the deal (tới trắng).
    InstantWin,
    CardsLeft,
    /// Thối of one item: `thoi_` and the item's name.
    Thoi(super::penalty::Item),
    Ket3Bich,
    Chan3Bich,
    Cong,
    Rank,
    FinishOnTwo,
    /// Sâm Lốc: an instant win at the deal (ăn trắng).
    AnTrang,
    /// A blocked Sâm (đền Sâm).
    DenSam,
    Sam,
    DenLang,
    ThoiRac,
    Thoi2,
    ThoiTuQuy,
}

impl Reason {
    /// The ledger text.
    pub const fn name(self) -> &'static str {
        use super::penalty::Item;
        match self {
            Reason::Chat => "chat",
            Reason::InstantWin => "instant_win",
            Reason::CardsLeft => "cards_left",
            Reason::Thoi(Item::FourOfAKind) => "thoi_four_of_a_kind",
            Reason::Thoi(Item::ThreePairSequence) => "thoi_three_pair_sequence",
            Reason::Thoi(Item::FourPairSequence) => "thoi_four_pair_sequence",
            Reason::Thoi(Item::BlackTwo) => "thoi_black_two",
            Reason::Thoi(Item::RedTwo) => "thoi_red_two",
            Reason::Ket3Bich => "ket_3_bich",
            Reason::Chan3Bich => "chan_ket_3_bich",
            Reason::Cong => "cong",
            Reason::Rank => "rank",
            Reason::FinishOnTwo => "finish_on_two",
            Reason::AnTrang => "an_trang",
            Reason::DenSam => "den_sam",
            Reason::Sam => "sam",
            Reason::DenLang => "den_lang",
            Reason::ThoiRac => "thoi_rac",
            Reason::Thoi2 => "thoi_2",
            Reason::ThoiTuQuy => "thoi_tu_quy",
        }
    }
}

/// What happened, in order (the Python games' event log, field for field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Deal {
        hand_number: u32,
        counts: [u8; MAX_SEATS],
    },
    Lead {
        seat: usize,
        must: CardSet,
    },
    Play {
        seat: usize,
        combo: Combo,
    },
    Pass {
        seat: usize,
    },
    Cut {
        seat: usize,
        victim: usize,
        units: u32,
    },
    NewRound {
        leader: usize,
    },
    Out {
        seat: usize,
        place: usize,
    },
    Cong {
        seat: usize,
    },
    FinishOnTwo {
        seat: usize,
    },
    HandEnd {
        hand_number: u32,
        winner: Option<usize>,
        order: Seats,
        settlement: [i32; MAX_SEATS],
        hands: [CardSet; MAX_SEATS],
    },
    /// An instant win at the deal (tới trắng): its kind's name and the winning hand.
    InstantWin {
        seat: usize,
        kind: &'static str,
        cards: CardSet,
    },
    DeclareSam {
        seat: usize,
    },
    DeclineSam {
        seat: usize,
    },
    SamBlocked {
        seat: usize,
        declarer: usize,
    },
    /// A seat is down to one card (báo 1).
    BaoMot {
        seat: usize,
    },
    /// A single played by a seat báo 1 binds; `violation` (it held a higher single) is the
    /// player's alone until the hand ends.
    BaoMotSingle {
        seat: usize,
        one_card_seats: Seats,
        violation: bool,
    },
    /// A paid báo 1 violation, announced with the settlement.
    BaoMotViolation {
        seat: usize,
        one_card_seats: Seats,
    },
    SamSuccess {
        seat: usize,
    },
    DenLang {
        seat: usize,
        winner: usize,
        units: u32,
    },
}

/// Where the shedding flow tells what happens.
pub trait Record: crate::table::Record<Event> {}

impl<R: crate::table::Record<Event>> Record for R {}

/// One shedding table: the hand being played and what carries over to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow<V: Variant> {
    pub rules: FlowRules<V>,
    pub players: usize,
    pub hand_number: u32,
    /// The last hand's winner (this hand's, once it is over).
    pub winner: Option<usize>,
    /// The next hand is led by the first-lead rule (not by the winner).
    pub next_first: bool,
    /// This hand is led by the first-lead rule.
    pub first_rule: bool,
    pub hands: [CardSet; MAX_SEATS],
    pub played: [CardSet; MAX_SEATS],
    pub dealt: CardSet,
    pub turn: Option<usize>,
    pub table: Option<Combo>,
    pub table_seat: Option<usize>,
    pub passed: u8,
    /// Seats that played in the current round.
    pub round_seats: u8,
    /// Cards the next play must include (the first lead's lowest card).
    pub must: CardSet,
    pub out: u8,
    pub order: Seats,
    pub cong: Seats,
    pub chain: Option<Chain>,
    pub over: bool,
    /// Units won per seat in this hand so far.
    pub hand_totals: [i32; MAX_SEATS],
    /// The member game's own state of the hand ([`Variant::State`]).
    pub member: V::State,
}

/// The error of an action a flow refuses.
fn illegal(reason: &'static str, message: impl Into<String>) -> Error {
    Error::illegal(reason, message)
}

impl<V: Variant> Flow<V> {
    /// A table before its first deal (call [`Flow::start`]).
    pub fn new(rules: FlowRules<V>, players: usize) -> Result<Flow<V>, Error> {
        let (lo, hi) = (
            usize::from(rules.combos.min_players),
            usize::from(rules.combos.max_players),
        );
        if !(lo..=hi).contains(&players) || players > MAX_SEATS {
            return Err(Error::Rules(format!(
                "players must be {lo}..{hi}, not {players}"
            )));
        }
        Ok(Flow {
            rules,
            players,
            hand_number: 1,
            winner: None,
            next_first: true,
            first_rule: true,
            hands: [CardSet::EMPTY; MAX_SEATS],
            played: [CardSet::EMPTY; MAX_SEATS],
            dealt: CardSet::EMPTY,
            turn: None,
            table: None,
            table_seat: None,
            passed: 0,
            round_seats: 0,
            must: CardSet::EMPTY,
            out: 0,
            order: Seats::default(),
            cong: Seats::default(),
            chain: None,
            over: false,
            hand_totals: [0; MAX_SEATS],
            member: V::State::default(),
        })
    }

    /// Deals the first hand.
    pub fn start(&mut self, draw: &mut impl Draw, rec: &mut impl Record) {
        self.start_after(None, 1, draw, rec);
    }

    /// Deals a hand that follows one `leader` won (`None`: a first hand): the first-hand
    /// rules are off and `leader` leads with any play (Sâm Lốc: the declarations start from it).
    /// `hand_number`: the number its deal event carries (a match's hand played as its own game).
    pub fn start_after(
        &mut self,
        leader: Option<usize>,
        hand_number: u32,
        draw: &mut impl Draw,
        rec: &mut impl Record,
    ) {
        self.hand_number = hand_number;
        self.winner = leader;
        self.next_first = leader.is_none();
        self.begin_hand(leader.is_none(), draw, rec);
    }

    pub(crate) fn pay(
        &mut self,
        rec: &mut impl Record,
        from: usize,
        to: usize,
        units: u32,
        reason: Reason,
    ) {
        if units > 0 {
            let signed = i32::try_from(units).unwrap_or(i32::MAX);
            self.hand_totals[from] = self.hand_totals[from].saturating_sub(signed);
            self.hand_totals[to] = self.hand_totals[to].saturating_add(signed);
            rec.pay(from, to, units, reason.name());
        }
    }

    pub(crate) const fn next_seat(&self, seat: usize) -> usize {
        if seat + 1 < self.players {
            seat + 1
        } else {
            0
        }
    }

    pub(crate) const fn is_out(&self, seat: usize) -> bool {
        self.out >> seat & 1 == 1
    }

    fn begin_hand(&mut self, first: bool, draw: &mut impl Draw, rec: &mut impl Record) {
        let n = self.players;
        let size = usize::from(self.rules.combos.hand_size);
        let mut perm = [0u32; 52];
        draw.permutation(&mut perm);
        let mut counts = [0u8; MAX_SEATS];
        self.dealt = CardSet::EMPTY;
        for s in 0..MAX_SEATS {
            self.hands[s] = CardSet::EMPTY;
            if s < n {
                for &i in &perm[s * size..(s + 1) * size] {
                    self.hands[s].0 |= 1u64 << i;
                }
                self.dealt = self.dealt.union(self.hands[s]);
                counts[s] = self.hands[s].len() as u8;
            }
        }
        self.first_rule = first;
        self.played = [CardSet::EMPTY; MAX_SEATS];
        self.turn = None;
        self.table = None;
        self.table_seat = None;
        self.passed = 0;
        self.round_seats = 0;
        self.must = CardSet::EMPTY;
        self.out = 0;
        self.order = Seats::default();
        self.cong = Seats::default();
        self.chain = None;
        self.over = false;
        self.hand_totals = [0; MAX_SEATS];
        rec.event(Event::Deal {
            hand_number: self.hand_number,
            counts,
        });
        V::after_deal(self, draw, rec);
        if !self.over && self.turn.is_none() {
            self.open_lead(None, draw, rec);
        }
    }

    /// Gives the first lead of the hand: to `leader` if given (a Sâm declarer), else by the
    /// first-lead rule or to the previous winner.
    pub(crate) fn open_lead(
        &mut self,
        leader: Option<usize>,
        draw: &mut impl Draw,
        rec: &mut impl Record,
    ) {
        let (leader, must) = match leader {
            Some(l) => (l, CardSet::EMPTY),
            None => match self.winner {
                Some(w) if !self.first_rule => (w, CardSet::EMPTY),
                _ => self.first_leader(draw),
            },
        };
        self.turn = Some(leader);
        self.must = must;
        rec.event(Event::Lead { seat: leader, must });
    }

    /// The card a first lead under the first-lead rule must include (empty: none), by the
    /// member's rule ([`Variant::lead_card`]).
    pub fn lead_card(&self) -> CardSet {
        V::lead_card(self)
    }

    /// The first hand's leader and the card its first play must include.
    fn first_leader(&self, draw: &mut impl Draw) -> (usize, CardSet) {
        V::first_leader(self, draw)
    }

    /// Deals the next hand once this one is over: the previous winner leads with any play
    /// (after an instant win, or a hand nobody won, the first-lead rule applies again).
    pub fn next_hand(&mut self, draw: &mut impl Draw, rec: &mut impl Record) -> Result<(), Error> {
        if !self.over {
            return Err(illegal(
                "hand_not_over",
                "the current hand is still being played",
            ));
        }
        self.hand_number += 1;
        self.begin_hand(self.next_first, draw, rec);
        Ok(())
    }

    // -- the game's rules --------------------------------------------------------------------

    /// Play on after the first player goes out, for a full finishing order.
    fn ranked_ending(&self) -> bool {
        self.rules.house.ranked_ending()
    }

    /// The finishing-on-a-2 rule that binds the seats now.
    pub fn finish_on_two(&self) -> FinishOnTwo {
        V::finish_on_two(self)
    }

    /// Which plays a seat that passed may still make on the current table, or `None` (passed
    /// seats are skipped).
    pub fn after_pass_filter(&self) -> Option<PlayFilter> {
        self.rules.house.after_pass_filter(self.table.as_ref())
    }

    /// Does a seat that passed get the turn again (to cut or pass again)? Whenever the table
    /// admits a cut after passing, whatever the seat holds: asking only the seats holding a
    /// bomb would tell the table who holds one.
    pub fn may_reenter(&self) -> bool {
        self.after_pass_filter().is_some()
    }

    fn cut_value(&self, table: &Combo) -> u32 {
        self.rules.house.cut_value(table)
    }

    // -- queries -----------------------------------------------------------------------------

    /// The seats still to act: the seat whose turn it is, if any.
    pub fn pending(&self) -> Option<usize> {
        self.turn
    }

    fn seat_filter(&self, seat: usize) -> PlayFilter {
        if self.passed >> seat & 1 == 1 {
            self.after_pass_filter().unwrap_or(PlayFilter::All)
        } else {
            PlayFilter::All
        }
    }

    /// Every distinct play `seat` may make now (no pass entry), into `out` (cleared first).
    /// Empty while the member closes plays ([`Variant::plays_closed`]: Sâm Lốc's declarations).
    pub fn legal_plays_into(&self, seat: usize, out: &mut Vec<Combo>) {
        out.clear();
        if V::plays_closed(self) {
            return;
        }
        let hand = self.hands[seat];
        legal_plays_into(
            hand,
            self.table.as_ref(),
            &self.rules.combos,
            self.must,
            self.seat_filter(seat),
            out,
        );
        if let Some(i) = out.iter().position(|c| c.cards == hand) {
            if self.emptying_two_refused(hand, Some(out.len())) {
                out.remove(i);
            }
        }
        V::filter_plays(self, seat, out);
    }

    /// `finish_on_two` forbidden: a play that empties `hand` and holds a 2 is refused unless
    /// the seat has no other legal action (on a table, passing always is one). `lead_plays`:
    /// the number of legal leads, when the caller already has them.
    fn emptying_two_refused(&self, hand: CardSet, lead_plays: Option<usize>) -> bool {
        if hand.0 & TWOS == 0 || self.finish_on_two() != FinishOnTwo::Forbidden {
            return false;
        }
        if self.table.is_some() {
            return true;
        }
        let leads = lead_plays.unwrap_or_else(|| {
            let mut out = Vec::new();
            legal_plays_into(
                hand,
                None,
                &self.rules.combos,
                self.must,
                PlayFilter::All,
                &mut out,
            );
            out.len()
        });
        leads > 1
    }

    // -- actions -----------------------------------------------------------------------------

    /// Refuses unless it is `seat`'s turn (`game_over`, `not_your_turn`).
    pub fn require_turn(&self, seat: usize) -> Result<(), Error> {
        if self.over {
            return Err(illegal("game_over", "the hand is over"));
        }
        match self.turn {
            Some(t) if t == seat => Ok(()),
            turn => Err(illegal(
                "not_your_turn",
                format!(
                    "it is seat {}'s turn, not {seat}'s",
                    turn.map_or("None".into(), |t| t.to_string())
                ),
            )),
        }
    }

    /// Checks that `seat` may play `cards` now: the combination, or why not (nothing changes).
    pub fn check_play(&self, seat: usize, cards: CardSet) -> Result<Combo, Error> {
        V::refuse_turn(self)?;
        self.require_turn(seat)?;
        let hand = self.hands[seat];
        let combo = check_play(
            hand,
            cards,
            self.table.as_ref(),
            &self.rules.combos,
            self.must,
        )?;
        if self.passed >> seat & 1 == 1 {
            let allowed = match self.after_pass_filter() {
                None => false,
                Some(PlayFilter::Bombs) => combo.is_bomb(),
                Some(_) => combo.kind == Kind::PairSequence && combo.len() == 8,
            };
            if !allowed {
                return Err(illegal(
                    "must_cut_or_pass",
                    "after passing, a seat may only cut with a bomb or pass",
                ));
            }
        }
        if combo.cards == hand && self.emptying_two_refused(hand, None) {
            return Err(illegal(
                "cannot_finish_on_two",
                "a hand may not be emptied with a play containing a 2",
            ));
        }
        V::check_play(self, seat, &combo)?;
        Ok(combo)
    }

    /// `seat` plays `cards` (checked as [`Flow::check_play`] checks them).
    pub fn play(
        &mut self,
        seat: usize,
        cards: CardSet,
        rec: &mut impl Record,
    ) -> Result<(), Error> {
        let combo = self.check_play(seat, cards)?;
        self.do_play(seat, combo, rec);
        Ok(())
    }

    /// Checks that `seat` may pass now.
    pub fn check_pass(&self, seat: usize) -> Result<(), Error> {
        V::refuse_turn(self)?;
        self.require_turn(seat)?;
        if self.table.is_none() {
            return Err(illegal(
                "cannot_pass_on_lead",
                "the leader of a round must play",
            ));
        }
        Ok(())
    }

    /// `seat` passes: it is out of the round until a new round starts.
    pub fn pass_turn(&mut self, seat: usize, rec: &mut impl Record) -> Result<(), Error> {
        self.check_pass(seat)?;
        self.do_pass(seat, rec);
        Ok(())
    }

    /// Carries out a pass already checked.
    pub fn do_pass(&mut self, seat: usize, rec: &mut impl Record) {
        self.passed |= 1 << seat;
        rec.event(Event::Pass { seat });
        self.advance(seat, rec);
        V::on_pass(self, seat);
    }

    /// Carries out a play already checked (one of [`Flow::legal_plays_into`]'s, or one that
    /// passed [`Flow::check_play`]).
    pub fn do_play(&mut self, seat: usize, combo: Combo, rec: &mut impl Record) {
        if let (Some(table), Some(victim)) = (self.table, self.table_seat) {
            if is_cut(&combo, &table, &self.rules.combos) {
                let units = self.cut_value(&table);
                let before = self.chain.map_or(0, |c| c.units);
                self.chain = Some(Chain {
                    units: before.saturating_add(units),
                    cutter: seat,
                    victim,
                });
                rec.event(Event::Cut {
                    seat,
                    victim,
                    units,
                });
            }
        }
        self.hands[seat] = self.hands[seat].difference(combo.cards);
        self.played[seat] = self.played[seat].union(combo.cards);
        self.passed &= !(1 << seat);
        self.round_seats |= 1 << seat;
        self.table = Some(combo);
        self.table_seat = Some(seat);
        self.must = CardSet::EMPTY;
        rec.event(Event::Play { seat, combo });
        V::on_play(self, seat, &combo, rec);
        if !self.over && self.hands[seat].is_empty() {
            self.goes_out(seat, &combo, rec);
        }
        if !self.over {
            self.advance(seat, rec);
        }
    }

    /// Gives the turn to the next seat still in the round after `frm`, or closes the round.
    fn advance(&mut self, frm: usize, rec: &mut impl Record) {
        let owner = self.table_seat;
        let reenter = self.may_reenter();
        let mut t = frm;
        for _ in 0..self.players {
            t = self.next_seat(t);
            if Some(t) == owner {
                break;
            }
            if self.is_out(t) {
                continue;
            }
            if self.passed >> t & 1 == 0 || reenter {
                self.turn = Some(t);
                return;
            }
        }
        self.new_round(rec);
    }

    fn new_round(&mut self, rec: &mut impl Record) {
        self.close_chain(rec);
        let mut leader = self.table_seat.unwrap_or(0);
        for _ in 0..self.players {
            if !self.is_out(leader) {
                break;
            }
            leader = self.next_seat(leader); // hưởng sái
        }
        self.table = None;
        self.table_seat = None;
        self.passed = 0;
        self.round_seats = 0;
        self.turn = Some(leader);
        rec.event(Event::NewRound { leader });
    }

    /// The last seat cut pays the whole chain to the last cutter, unless the cut play took
    /// its owner out.
    fn close_chain(&mut self, rec: &mut impl Record) {
        if let Some(c) = self.chain.take() {
            if !self.hands[c.victim].is_empty() {
                self.pay(rec, c.victim, c.cutter, c.units, Reason::Chat);
            }
        }
    }

    fn goes_out(&mut self, seat: usize, combo: &Combo, rec: &mut impl Record) {
        if combo.cards.0 & TWOS != 0 && self.finish_on_two() != FinishOnTwo::Allowed {
            self.chain = None;
            rec.event(Event::FinishOnTwo { seat });
            V::settle_finish_on_two(self, seat, combo, rec);
            self.end_hand(None, false, rec);
            return;
        }
        self.out |= 1 << seat;
        self.order.push(seat);
        rec.event(Event::Out {
            seat,
            place: self.order.len(),
        });
        if !self.ranked_ending() {
            self.close_chain(rec);
            V::settle_first_out(self, seat, combo, rec);
            self.end_hand(Some(seat), false, rec);
            return;
        }
        let n = self.players;
        if self.order.len() == 1 {
            for k in 1..n {
                let s = (seat + k) % n;
                if self.played[s].is_empty() {
                    self.out |= 1 << s;
                    self.cong.push(s);
                    rec.event(Event::Cong { seat: s });
                }
            }
        }
        let left: Vec<usize> = (0..n).filter(|&s| !self.is_out(s)).collect();
        if left.len() <= 1 {
            for &s in &left {
                self.out |= 1 << s;
                self.order.push(s);
            }
            self.close_chain(rec);
            let order = self.order.chain(&self.cong);
            V::settle_ranked(self, &order, rec);
            let first = self.order.iter().next();
            self.end_hand(first, false, rec);
        }
    }

    /// Ends the hand; the next hand is led by `winner` unless it is `None` or
    /// `first_rule_next` (then the first-lead rule applies again).
    pub(crate) fn end_hand(
        &mut self,
        winner: Option<usize>,
        first_rule_next: bool,
        rec: &mut impl Record,
    ) {
        self.over = true;
        self.turn = None;
        self.winner = winner;
        self.next_first = winner.is_none() || first_rule_next;
        rec.event(Event::HandEnd {
            hand_number: self.hand_number,
            winner,
            order: self.order.chain(&self.cong),
            settlement: self.hand_totals,
            hands: self.hands,
        });
    }

    /// The seats in finishing order (nhất first; cóng seats of a ranked hand last).
    pub fn finishing_order(&self) -> Seats {
        self.order.chain(&self.cong)
    }

    /// The combination `cards` form under these rules, if any.
    pub fn classify(&self, cards: CardSet) -> Option<Combo> {
        classify(cards, &self.rules.combos)
    }
}
