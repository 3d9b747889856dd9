//! Sâm Lốc's part of the shared shedding flow ([`crate::shedding::flow`]): instant wins at the
//! deal (ăn trắng), the báo Sâm declarations, báo 1, a blocked Sâm, finishing on a 2 and the
//! settlement table (thối 2 and tứ quý at 15, cóng 15, đền làng). [`Options`] is the flow's
//! [`Variant`], with [`SamState`] its state of a hand; the hooks are functions generic over any
//! variant whose state is a [`SamState`], so a type that runs several members (the run-time
//! choice of `crate::family`) calls them too.

use super::instant_winner;
use crate::cards::CardSet;
use crate::error::Error;
use crate::shedding::flow::{
    Draw, Event, FinishOnTwo, Flow, FlowRules, Reason, Record, Seats, Variant, MAX_SEATS,
};
use crate::shedding::penalty::{penalty_items, Item, PenaltyTable, TWOS};
use crate::shedding::{Combo, Kind};

/// Ăn trắng (instant win) and Sâm: units from each other player (Sâm blocked: per other player).
pub const SAM_UNITS: u32 = 20;
/// Cóng: units of a seat that played no card, besides its 2s and tứ quý.
pub const CONG_UNITS: u32 = 15;
/// Units per 2 (thối 2, chặt 2, finishing on a 2) and per tứ quý (thối / chặt tứ quý).
pub const TWO_UNITS: u32 = 15;
/// Thối units: a 2 is worth 15 and a tứ quý 15; plain cards count 1.
pub const PENALTIES: PenaltyTable = PenaltyTable {
    black_two: TWO_UNITS,
    red_two: TWO_UNITS,
    three_pair_sequence: 0,
    four_of_a_kind: TWO_UNITS,
    four_pair_sequence: 0,
};

/// Sâm Lốc's flow options (the Python `samloc.Rules` besides the combinations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `sam_block_pays="each"`: a blocked Sâm pays 20 to each other seat (else the blocker
    /// 20 × (players − 1)).
    pub sam_block_each: bool,
    /// `bao_mot_scope="previous_seat"` (else every other seat is bound by báo 1).
    pub bao_mot_previous_seat: bool,
    /// `bao_mot_mode="enforce"`: lower singles are not legal (else allowed and paid for).
    pub bao_mot_enforce: bool,
    /// `bao_mot_den="payments"`: đền làng costs what every loser would have paid (else the
    /// cards the losers hold, 1 each).
    pub bao_mot_den_payments: bool,
    pub finish_on_two: FinishOnTwo,
    pub sam_may_finish_on_two: bool,
}

impl Options {
    /// The seed document's options.
    pub const fn seed() -> Options {
        Options {
            sam_block_each: false,
            bao_mot_previous_seat: false,
            bao_mot_enforce: false,
            bao_mot_den_payments: false,
            finish_on_two: FinishOnTwo::Forbidden,
            sam_may_finish_on_two: false,
        }
    }
}

/// The flow rules of Sâm Lốc with the seed's options.
pub const fn rules() -> FlowRules<Options> {
    FlowRules {
        combos: super::preset(),
        house: Options::seed(),
    }
}

impl Variant for Options {
    type State = SamState;

    fn after_deal(f: &mut Flow<Self>, draw: &mut impl Draw, rec: &mut impl Record) {
        after_deal(f, draw, rec);
    }
    fn first_leader(f: &Flow<Self>, _draw: &mut impl Draw) -> (usize, CardSet) {
        first_leader(f)
    }
    fn finish_on_two(f: &Flow<Self>) -> FinishOnTwo {
        finish_on_two(f, &f.rules.house)
    }
    fn cut_value(&self, table: &Combo) -> u32 {
        cut_value(table)
    }
    fn plays_closed(f: &Flow<Self>) -> bool {
        f.member.phase
    }
    fn refuse_turn(f: &Flow<Self>) -> Result<(), Error> {
        refuse_in_declarations(f)
    }
    fn filter_plays(f: &Flow<Self>, seat: usize, plays: &mut Vec<Combo>) {
        filter_plays(f, &f.rules.house, seat, plays);
    }
    fn check_play(f: &Flow<Self>, seat: usize, combo: &Combo) -> Result<(), Error> {
        check_play(f, &f.rules.house, seat, combo)
    }
    fn on_play(f: &mut Flow<Self>, seat: usize, combo: &Combo, rec: &mut impl Record) {
        let o = f.rules.house;
        on_play(f, &o, seat, combo, rec);
    }
    fn on_pass(f: &mut Flow<Self>, seat: usize) {
        on_pass(f, seat);
    }
    fn settle_finish_on_two(f: &mut Flow<Self>, seat: usize, combo: &Combo, rec: &mut impl Record) {
        settle_finish_on_two(f, seat, combo, rec);
    }
    fn settle_first_out(f: &mut Flow<Self>, winner: usize, _combo: &Combo, rec: &mut impl Record) {
        let o = f.rules.house;
        settle_first_out(f, &o, winner, rec);
    }
}

/// The Sâm Lốc state of a hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SamState {
    /// The seat the declarations start from, which leads unless someone declares Sâm.
    pub nominal: usize,
    /// The báo Sâm declarations are on.
    pub phase: bool,
    /// Seats that declined so far.
    pub declined: usize,
    pub declarer: Option<usize>,
    /// Báo 1 (mode "penalize"): for each one-card seat, the last seat that played a lower
    /// single while bound to play its highest, since the one-card seat last acted.
    pub violations: [Option<usize>; MAX_SEATS],
}

/// Instant wins at the deal, then the declarations from the nominal leader (first hand, or
/// after a hand nobody won: a random seat; later: the previous winner).
pub fn after_deal<V: Variant<State = SamState>>(
    f: &mut Flow<V>,
    draw: &mut impl Draw,
    rec: &mut impl Record,
) {
    f.member = SamState::default();
    f.member.nominal = match f.winner {
        Some(w) if !f.first_rule => w,
        _ => draw.below(f.players as u32) as usize,
    };
    if let Some((seat, win)) =
        instant_winner(&f.hands[..f.players], f.member.nominal, &f.rules.combos)
    {
        rec.event(Event::InstantWin {
            seat,
            kind: win.kind.name(),
            cards: f.hands[seat],
        });
        for s in (0..f.players).filter(|&s| s != seat) {
            f.pay(rec, s, seat, SAM_UNITS, Reason::AnTrang);
        }
        f.end_hand(Some(seat), false, rec);
        return;
    }
    f.member.phase = true;
    f.turn = Some(f.member.nominal);
}

/// The leader of a hand without a Sâm declarer: the nominal leader, with any play.
pub fn first_leader<V: Variant<State = SamState>>(f: &Flow<V>) -> (usize, CardSet) {
    (f.member.nominal, CardSet::EMPTY)
}

/// The finishing-on-a-2 rule now: a Sâm declarer may be exempt.
pub fn finish_on_two<V: Variant<State = SamState>>(f: &Flow<V>, o: &Options) -> FinishOnTwo {
    if f.member.declarer.is_some() && o.sam_may_finish_on_two {
        FinishOnTwo::Allowed
    } else {
        o.finish_on_two
    }
}

/// A one-card seat that passes did not go out with its next play (báo 1).
pub fn on_pass<V: Variant<State = SamState>>(f: &mut Flow<V>, seat: usize) {
    f.member.violations[seat] = None;
}

/// Playing and passing wait for the declarations.
pub fn refuse_in_declarations<V: Variant<State = SamState>>(f: &Flow<V>) -> Result<(), Error> {
    if f.member.phase && !f.over {
        return Err(Error::illegal(
            "declare_first",
            "declare Sâm or decline before playing",
        ));
    }
    Ok(())
}

fn require_declaration<V: Variant<State = SamState>>(
    f: &Flow<V>,
    seat: usize,
) -> Result<(), Error> {
    f.require_turn(seat)?;
    if !f.member.phase {
        return Err(Error::illegal(
            "not_declaring",
            "the báo Sâm declarations are over",
        ));
    }
    Ok(())
}

impl<V: Variant<State = SamState>> Flow<V> {
    /// Checks that `seat` may declare Sâm or decline now.
    pub fn check_declaration(&self, seat: usize) -> Result<(), Error> {
        require_declaration(self, seat)
    }

    /// `seat` declares Sâm (báo Sâm): it claims to play out its ten cards with no play of its
    /// beaten. It leads every round; any beat of its play blocks the Sâm.
    pub fn declare_sam(
        &mut self,
        seat: usize,
        draw: &mut impl Draw,
        rec: &mut impl Record,
    ) -> Result<(), Error> {
        require_declaration(self, seat)?;
        self.member.phase = false;
        self.member.declarer = Some(seat);
        rec.event(Event::DeclareSam { seat });
        self.open_lead(Some(seat), draw, rec);
        Ok(())
    }

    /// `seat` does not declare Sâm; after the last seat, the nominal leader leads.
    pub fn decline_sam(
        &mut self,
        seat: usize,
        draw: &mut impl Draw,
        rec: &mut impl Record,
    ) -> Result<(), Error> {
        require_declaration(self, seat)?;
        self.member.declined += 1;
        rec.event(Event::DeclineSam { seat });
        if self.member.declined == self.players {
            self.member.phase = false;
            self.open_lead(None, draw, rec);
        } else {
            self.turn = Some(self.next_seat(seat));
        }
        Ok(())
    }
}

/// One-card seats whose báo 1 binds `seat` to play its highest single.
fn bao_mot_seats<V: Variant<State = SamState>>(f: &Flow<V>, o: &Options, seat: usize) -> Seats {
    let mut out = Seats::default();
    if o.bao_mot_previous_seat {
        let next = f.next_seat(seat);
        if f.hands[next].len() == 1 {
            out.push(next);
        }
    } else {
        for s in (0..f.players).filter(|&s| s != seat && f.hands[s].len() == 1) {
            out.push(s);
        }
    }
    out
}

/// Is `combo` a single lower in rank than the highest card of `hand`?
fn lower_single(hand: CardSet, combo: &Combo) -> bool {
    super::breaks_bao_mot(hand, combo)
}

/// Báo 1 enforced: no lower single while another seat holds one card.
pub fn filter_plays<V: Variant<State = SamState>>(
    f: &Flow<V>,
    o: &Options,
    seat: usize,
    plays: &mut Vec<Combo>,
) {
    if o.bao_mot_enforce && !bao_mot_seats(f, o, seat).is_empty() {
        let hand = f.hands[seat];
        plays.retain(|c| !lower_single(hand, c));
    }
}

/// Báo 1 enforced: a lower single is refused.
pub fn check_play<V: Variant<State = SamState>>(
    f: &Flow<V>,
    o: &Options,
    seat: usize,
    combo: &Combo,
) -> Result<(), Error> {
    if o.bao_mot_enforce
        && lower_single(f.hands[seat], combo)
        && !bao_mot_seats(f, o, seat).is_empty()
    {
        return Err(Error::illegal(
            "bao_mot",
            "a seat holds one card (báo 1): play your highest single",
        ));
    }
    Ok(())
}

/// What a cut of `table` adds to the bomb chain: 15 a tứ quý, 15 per 2.
pub fn cut_value(table: &Combo) -> u32 {
    if table.kind == Kind::FourOfAKind {
        TWO_UNITS
    } else {
        TWO_UNITS * (table.cards.0 & TWOS).count_ones()
    }
}

/// After a play: a beat of the declarer blocks the Sâm (the hand ends at once); a lower
/// single while bound by báo 1 is recorded (mode "penalize").
pub fn on_play<V: Variant<State = SamState>>(
    f: &mut Flow<V>,
    o: &Options,
    seat: usize,
    combo: &Combo,
    rec: &mut impl Record,
) {
    if let Some(d) = f.member.declarer.filter(|&d| d != seat) {
        f.chain = None; // no other payment
        rec.event(Event::SamBlocked { seat, declarer: d });
        let n = f.players;
        if o.sam_block_each {
            for s in (0..n).filter(|&s| s != d) {
                f.pay(rec, d, s, SAM_UNITS, Reason::DenSam);
            }
        } else {
            f.pay(rec, d, seat, SAM_UNITS * (n as u32 - 1), Reason::DenSam);
        }
        f.end_hand(Some(seat), false, rec);
        return;
    }
    if combo.kind == Kind::Single && !o.bao_mot_enforce {
        let bound = bao_mot_seats(f, o, seat);
        if !bound.is_empty() {
            // Every single a bound seat plays is logged, so the log never tells the table
            // which ones broke báo 1 (that would show a higher card still held).
            let violation = lower_single(f.hands[seat].union(combo.cards), combo);
            if violation {
                for s in bound.iter() {
                    f.member.violations[s] = Some(seat);
                }
            }
            rec.event(Event::BaoMotSingle {
                seat,
                one_card_seats: bound,
                violation,
            });
        }
    }
    if f.hands[seat].len() == 1 {
        rec.event(Event::BaoMot { seat });
    }
}

/// What loser `seat` owes the winner, itemised: (cóng or thối rác, thối 2, thối tứ quý).
fn penalty<V: Variant<State = SamState>>(f: &Flow<V>, seat: usize) -> [(Reason, u32); 3] {
    let hand = f.hands[seat];
    let cong = f.played[seat].is_empty();
    let items = penalty_items(hand, &PENALTIES, if cong { 0 } else { 1 });
    let (mut twos, mut quads) = (0, 0);
    for &(item, _, units) in items.iter() {
        if item == Item::FourOfAKind {
            quads += units;
        } else {
            twos += units;
        }
    }
    let plain = if cong {
        (Reason::Cong, CONG_UNITS)
    } else {
        (Reason::ThoiRac, hand.difference(items.cards()).len())
    };
    [plain, (Reason::Thoi2, twos), (Reason::ThoiTuQuy, quads)]
}

/// `winner` went out: a Sâm succeeds; else the losers pay (or a báo 1 violator pays for the
/// whole table: đền làng).
pub fn settle_first_out<V: Variant<State = SamState>>(
    f: &mut Flow<V>,
    o: &Options,
    winner: usize,
    rec: &mut impl Record,
) {
    let n = f.players;
    if f.member.declarer == Some(winner) {
        rec.event(Event::SamSuccess { seat: winner });
        for s in (0..n).filter(|&s| s != winner) {
            f.pay(rec, s, winner, SAM_UNITS, Reason::Sam);
        }
        return;
    }
    let losers: Vec<usize> = (0..n).filter(|&s| s != winner).collect();
    let owed: Vec<[(Reason, u32); 3]> = losers.iter().map(|&s| penalty(f, s)).collect();
    for &s in &losers {
        if f.played[s].is_empty() {
            rec.event(Event::Cong { seat: s });
        }
    }
    if let Some(violator) = f.member.violations[winner] {
        let total = if o.bao_mot_den_payments {
            owed.iter().flatten().map(|&(_, u)| u).sum()
        } else {
            losers.iter().map(|&s| f.hands[s].len()).sum()
        };
        let mut one_card_seats = Seats::default();
        one_card_seats.push(winner);
        rec.event(Event::BaoMotViolation {
            seat: violator,
            one_card_seats,
        });
        rec.event(Event::DenLang {
            seat: violator,
            winner,
            units: total,
        });
        f.pay(rec, violator, winner, total, Reason::DenLang);
        return;
    }
    for (&s, items) in losers.iter().zip(&owed) {
        for &(reason, units) in items {
            f.pay(rec, s, winner, units, reason);
        }
    }
}

/// `seat` emptied its hand with `combo`, holding a 2: it pays each other seat 15 per 2.
pub fn settle_finish_on_two<V: Variant<State = SamState>>(
    f: &mut Flow<V>,
    seat: usize,
    combo: &Combo,
    rec: &mut impl Record,
) {
    let units = TWO_UNITS * (combo.cards.0 & TWOS).count_ones();
    for s in (0..f.players).filter(|&s| s != seat) {
        f.pay(rec, seat, s, units, Reason::FinishOnTwo);
    }
}
