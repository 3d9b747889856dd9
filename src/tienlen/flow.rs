//! Tiến Lên's part of the shared shedding flow ([`crate::shedding::flow`]): instant wins at
//! the deal, the first lead, cutting after passing, and the two scoring tables (count: cards
//! left, thối, cóng, kết 3 bích; ranked: by place). [`Options`] is the flow's
//! [`Variant`]; the hooks are functions generic over the flow's variant, so a type that runs
//! several members (the run-time choice of `crate::family`) calls them too.

use super::instant::{instant_win, InstantOptions};
use crate::cards::CardSet;
use crate::shedding::flow::{
    Draw, Event, FinishOnTwo, Flow, FlowRules, Reason, Record, Seats, Variant,
};
use crate::shedding::penalty::{penalty_items, PenaltyTable, TWOS};
use crate::shedding::{Combo, PlayFilter};

/// Which seats that passed may still cut (chặt) when their turn comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BombAfterPass {
    /// A seat that passed is out of the round.
    None,
    /// While the table can be cut, every seat that passed gets the turn: a 4 đôi thông or pass.
    FourPairSequence,
    /// The same for any bomb.
    AnyBomb,
}

/// Tiến Lên's flow options (the Python `tienlen.Rules` besides the combinations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `ending="ranked"`: play on for nhất, nhì, ba, bét (else the hand ends at the first out).
    pub ranked: bool,
    /// `scoring="count"` (else `"ranked"`).
    pub count_scoring: bool,
    /// `first_lead="random"` (else the holder of 3♠, or of the lowest dealt card, leads with it).
    pub first_lead_random: bool,
    pub bomb_after_pass: BombAfterPass,
    pub ket_3_bich: bool,
    pub finish_on_two: FinishOnTwo,
    /// `thoi_to="winner"` (else to the seat placed just above).
    pub thoi_to_winner: bool,
    pub same_colour_instant_win: bool,
    pub first_hand_extras: bool,
    /// Units of thối and of cut items under the scoring.
    pub penalties: PenaltyTable,
}

impl Options {
    /// Miền Nam's defaults (count scoring, the 3♠ leads, no cut after passing).
    pub const fn south() -> Options {
        Options {
            ranked: false,
            count_scoring: true,
            first_lead_random: false,
            bomb_after_pass: BombAfterPass::None,
            ket_3_bich: true,
            finish_on_two: FinishOnTwo::Allowed,
            thoi_to_winner: false,
            same_colour_instant_win: false,
            first_hand_extras: false,
            penalties: COUNT,
        }
    }

    /// Miền Bắc's defaults: a hand emptied with a 2 is penalised; no đôi thông to pay.
    pub const fn north() -> Options {
        Options {
            finish_on_two: FinishOnTwo::Penalized,
            penalties: PenaltyTable {
                three_pair_sequence: 0,
                four_pair_sequence: 0,
                ..COUNT
            },
            ..Options::south()
        }
    }
}

/// Count scoring's thối and chặt units.
pub const COUNT: PenaltyTable = PenaltyTable {
    black_two: 3,
    red_two: 6,
    three_pair_sequence: 9,
    four_of_a_kind: 12,
    four_pair_sequence: 18,
};

/// The flow rules of Miền Nam (`north`: Miền Bắc) with their default options.
pub const fn rules(north: bool) -> FlowRules<Options> {
    if north {
        FlowRules {
            combos: super::north(),
            house: Options::north(),
        }
    } else {
        FlowRules {
            combos: super::south(),
            house: Options::south(),
        }
    }
}

impl Variant for Options {
    type State = ();

    fn after_deal(f: &mut Flow<Self>, _draw: &mut impl Draw, rec: &mut impl Record) {
        let o = f.rules.house;
        after_deal(f, &o, rec);
    }
    fn lead_card(f: &Flow<Self>) -> CardSet {
        lead_card(f, &f.rules.house)
    }
    fn first_leader(f: &Flow<Self>, draw: &mut impl Draw) -> (usize, CardSet) {
        first_leader(f, &f.rules.house, draw)
    }
    fn ranked_ending(&self) -> bool {
        self.ranked
    }
    fn finish_on_two(f: &Flow<Self>) -> FinishOnTwo {
        f.rules.house.finish_on_two
    }
    fn after_pass_filter(&self, table: Option<&Combo>) -> Option<PlayFilter> {
        after_pass_filter(self, table)
    }
    fn cut_value(&self, table: &Combo) -> u32 {
        self.penalties.cut_value(table)
    }
    fn settle_finish_on_two(f: &mut Flow<Self>, seat: usize, combo: &Combo, rec: &mut impl Record) {
        let o = f.rules.house;
        settle_finish_on_two(f, &o, seat, combo, rec);
    }
    fn settle_first_out(f: &mut Flow<Self>, winner: usize, combo: &Combo, rec: &mut impl Record) {
        let o = f.rules.house;
        settle_first_out(f, &o, winner, combo, rec);
    }
    fn settle_ranked(f: &mut Flow<Self>, order: &Seats, rec: &mut impl Record) {
        let o = f.rules.house;
        settle_ranked(f, &o, order, rec);
    }
}

/// The 3♠ (card 0).
const THREE_OF_SPADES: CardSet = CardSet(1);

/// Ranked scoring: `(loser place, winner place, units)` by number of players.
fn rank_payments(players: usize) -> &'static [(usize, usize, u32)] {
    match players {
        4 => &[(3, 0, 2), (2, 1, 1)],
        3 => &[(2, 0, 2)],
        _ => &[(1, 0, 2)],
    }
}

/// The lowest dealt card, which the first lead must include, unless the first leader is random.
pub fn lead_card<V: Variant>(f: &Flow<V>, o: &Options) -> CardSet {
    if o.first_lead_random {
        CardSet::EMPTY
    } else {
        CardSet(f.dealt.0 & f.dealt.0.wrapping_neg())
    }
}

/// The first leader: a random seat, or the holder of the lowest dealt card, with it.
pub fn first_leader<V: Variant>(
    f: &Flow<V>,
    o: &Options,
    draw: &mut impl Draw,
) -> (usize, CardSet) {
    if o.first_lead_random {
        return (draw.below(f.players as u32) as usize, CardSet::EMPTY);
    }
    let lowest = lead_card(f, o);
    let seat = (0..f.players)
        .find(|&s| f.hands[s].0 & lowest.0 != 0)
        .unwrap_or(0);
    (seat, lowest)
}

/// Instant wins (tới trắng): the strongest one takes the hand at once (ties: the lower seat).
pub fn after_deal<V: Variant>(f: &mut Flow<V>, o: &Options, rec: &mut impl Record) {
    let opts = InstantOptions {
        same_colour: o.same_colour_instant_win,
        first_hand_extras: o.first_hand_extras && f.first_rule,
    };
    let mut best: Option<(usize, u8, u8, &'static str)> = None;
    for seat in 0..f.players {
        if let Some(w) = instant_win(f.hands[seat], &f.rules.combos, opts) {
            let strength = 100 - w.kind as u8;
            if best.map_or(true, |(_, s, t, _)| (strength, w.top) > (s, t)) {
                best = Some((seat, strength, w.top, w.kind.name()));
            }
        }
    }
    let Some((seat, _, _, kind)) = best else {
        return;
    };
    rec.event(Event::InstantWin {
        seat,
        kind,
        cards: f.hands[seat],
    });
    let units = if o.count_scoring { 26 } else { 4 };
    for s in (0..f.players).filter(|&s| s != seat) {
        f.pay(rec, s, seat, units, Reason::InstantWin);
    }
    f.end_hand(Some(seat), true, rec);
}

/// Which plays a seat that passed may make on `table`, if any.
pub fn after_pass_filter(o: &Options, table: Option<&Combo>) -> Option<PlayFilter> {
    match (o.bomb_after_pass, table) {
        (BombAfterPass::None, _) | (_, None) => None,
        (_, Some(t)) if !(t.is_bomb() || t.is_twos()) => None,
        (BombAfterPass::FourPairSequence, _) => Some(PlayFilter::FourPairSequences),
        (BombAfterPass::AnyBomb, _) => Some(PlayFilter::Bombs),
    }
}

/// `seat` pays `to` for the cards it holds: plain cards at `card_units` each, penalised items
/// (thối) at their value.
fn pay_thoi<V: Variant>(
    f: &mut Flow<V>,
    o: &Options,
    seat: usize,
    to: usize,
    card_units: u32,
    rec: &mut impl Record,
) {
    let hand = f.hands[seat];
    let items = penalty_items(hand, &o.penalties, card_units);
    if card_units > 0 {
        let plain = hand.difference(items.cards()).len() * card_units;
        f.pay(rec, seat, to, plain, Reason::CardsLeft);
    }
    for &(item, _, units) in items.iter() {
        f.pay(rec, seat, to, units, Reason::Thoi(item));
    }
}

/// Count scoring when `winner` went out with `combo`: kết 3 bích, chặn kết 3 bích, cóng, cards
/// left and thối.
pub fn settle_first_out<V: Variant>(
    f: &mut Flow<V>,
    o: &Options,
    winner: usize,
    combo: &Combo,
    rec: &mut impl Record,
) {
    let n = f.players;
    let mut others: Vec<usize> = (0..n).filter(|&s| s != winner).collect();
    if o.ket_3_bich && combo.cards == THREE_OF_SPADES {
        for s in others {
            f.pay(rec, s, winner, 26, Reason::Ket3Bich);
        }
        return;
    }
    let holds_3s = |f: &Flow<V>, s: usize| f.hands[s] == THREE_OF_SPADES;
    if o.ket_3_bich && others.iter().any(|&s| holds_3s(f, s)) {
        // Chặn kết 3 bích: seats that did not play in the final round neither pay nor receive.
        others.retain(|&s| f.round_seats >> s & 1 == 1 || holds_3s(f, s));
    }
    for s in others {
        if o.ket_3_bich && holds_3s(f, s) {
            let round = f.round_seats;
            for t in (0..n).filter(|&t| t != s && round >> t & 1 == 1) {
                f.pay(rec, s, t, 26, Reason::Chan3Bich);
            }
        } else if f.played[s].is_empty() {
            f.pay(rec, s, winner, 26, Reason::Cong);
            pay_thoi(f, o, s, winner, 0, rec);
        } else {
            pay_thoi(f, o, s, winner, 1, rec);
        }
    }
}

/// Ranked scoring: by place (`order`: nhất first, cóng seats last), cóng, then thối.
pub fn settle_ranked<V: Variant>(
    f: &mut Flow<V>,
    o: &Options,
    order: &Seats,
    rec: &mut impl Record,
) {
    let order = order.as_slice();
    let cong = f.cong;
    let at = |place: usize| usize::from(order[place]);
    for &(lo, hi, units) in rank_payments(order.len()) {
        if !cong.contains(at(lo)) {
            f.pay(rec, at(lo), at(hi), units, Reason::Rank);
        }
    }
    for s in cong.iter() {
        f.pay(rec, s, at(0), 4, Reason::Cong);
    }
    for place in 1..order.len() {
        let s = at(place);
        if !f.hands[s].is_empty() {
            let to = if o.thoi_to_winner {
                at(0)
            } else {
                at(place - 1)
            };
            pay_thoi(f, o, s, to, 0, rec);
        }
    }
}

/// `seat` emptied its hand with `combo`, holding a 2: it pays each other seat for those 2s.
pub fn settle_finish_on_two<V: Variant>(
    f: &mut Flow<V>,
    o: &Options,
    seat: usize,
    combo: &Combo,
    rec: &mut impl Record,
) {
    let units = o.penalties.twos_value(CardSet(combo.cards.0 & TWOS));
    for s in (0..f.players).filter(|&s| s != seat) {
        f.pay(rec, seat, s, units, Reason::FinishOnTwo);
    }
}
