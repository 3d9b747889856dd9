use super::*;
use crate::rng::Rng;
use crate::samloc::flow::Options as SamLoc;
use crate::shedding::flow::Event;
use crate::tienlen::flow::{BombAfterPass, Options as TienLen};

/// Events and payments as they come.
#[derive(Debug, Default, PartialEq)]
struct Log {
    events: Vec<Event>,
    paid: Vec<(usize, usize, u32, &'static str)>,
}

impl crate::table::Record<Event> for Log {
    fn event(&mut self, e: Event) {
        self.events.push(e);
    }
    fn pay(&mut self, from: usize, to: usize, units: u32, reason: &'static str) {
        self.paid.push((from, to, units, reason));
    }
}

fn south(o: impl FnOnce(&mut TienLen)) -> FlowRules {
    let mut opts = TienLen::south();
    o(&mut opts);
    FlowRules {
        combos: crate::tienlen::south(),
        house: House::TienLen(opts),
    }
}

fn samloc(o: impl FnOnce(&mut SamLoc)) -> FlowRules {
    let mut opts = SamLoc::seed();
    o(&mut opts);
    FlowRules {
        combos: crate::samloc::preset(),
        house: House::SamLoc(opts),
    }
}

/// A random declaration, if the hand is in Sâm Lốc's declarations (else `false`).
fn declare<V: Variant<State = SamState>>(
    f: &mut shedding::Flow<V>,
    seat: usize,
    rng: &mut Rng,
    log: &mut Log,
) -> bool {
    if !f.member.phase {
        return false;
    }
    if rng.below(6) == 0 {
        f.declare_sam(seat, rng, log).unwrap();
    } else {
        f.decline_sam(seat, rng, log).unwrap();
    }
    true
}

/// A game without declarations.
fn no_declarations<V: Variant>(
    _: &mut shedding::Flow<V>,
    _: usize,
    _: &mut Rng,
    _: &mut Log,
) -> bool {
    false
}

/// Plays `hands` hands of random legal actions; checks the invariants after each action.
fn play_random(rules: FlowRules, players: usize, seed: u8, hands: usize) -> Log {
    play_random_as(rules, players, seed, hands, declare)
}

/// [`play_random`] for a flow of any variant (`declare`: its declarations, if any).
fn play_random_as<V: Variant>(
    rules: shedding::FlowRules<V>,
    players: usize,
    seed: u8,
    hands: usize,
    declare: fn(&mut shedding::Flow<V>, usize, &mut Rng, &mut Log) -> bool,
) -> Log {
    let mut rng = Rng::from_key([seed; 32]);
    let mut log = Log::default();
    let mut f = shedding::Flow::new(rules, players).unwrap();
    f.start(&mut rng, &mut log);
    let mut plays = Vec::new();
    for _ in 0..hands {
        let mut steps = 0;
        while !f.over {
            steps += 1;
            assert!(steps < 500, "the hand does not end");
            let seat = f.turn.expect("a seat to act");
            if declare(&mut f, seat, &mut rng, &mut log) {
                continue;
            }
            f.legal_plays_into(seat, &mut plays);
            let can_pass = f.table.is_some();
            let n = plays.len() + usize::from(can_pass);
            assert!(n > 0, "no legal action");
            let i = rng.below(n as u32) as usize;
            // A rejected action changes nothing.
            let before = f.clone();
            assert!(f.pass_turn((seat + 1) % players, &mut log).is_err());
            assert_eq!(f, before);
            if i < plays.len() {
                assert_eq!(f.check_play(seat, plays[i].cards), Ok(plays[i]));
                f.play(seat, plays[i].cards, &mut log).unwrap();
            } else {
                f.pass_turn(seat, &mut log).unwrap();
            }
            let held: u64 = (0..players).fold(0, |m, s| {
                assert_eq!(m & (f.hands[s].0 | f.played[s].0), 0, "a card twice");
                m | f.hands[s].0 | f.played[s].0
            });
            assert_eq!(held, f.dealt.0, "cards are conserved");
        }
        assert_eq!(f.hand_totals.iter().sum::<i32>(), 0);
        let Some(Event::HandEnd { settlement, .. }) = log.events.last() else {
            panic!("a hand ends with hand_end");
        };
        assert_eq!(*settlement, f.hand_totals);
        f.next_hand(&mut rng, &mut log).unwrap();
    }
    log
}

#[test]
fn random_hands_end_and_sum_to_zero() {
    for seed in 0..40u8 {
        let players = 2 + usize::from(seed) % 3;
        let r = south(|o| {
            o.bomb_after_pass = [
                BombAfterPass::None,
                BombAfterPass::FourPairSequence,
                BombAfterPass::AnyBomb,
            ][usize::from(seed) % 3];
            o.finish_on_two = [
                FinishOnTwo::Allowed,
                FinishOnTwo::Penalized,
                FinishOnTwo::Forbidden,
            ][usize::from(seed / 3) % 3];
            o.ranked = seed % 2 == 1;
            o.count_scoring = !o.ranked;
            o.first_lead_random = seed % 5 == 0;
        });
        let log = play_random(r, players, seed, 3);
        let total: i64 = log.paid.iter().map(|&(_, _, u, _)| i64::from(u)).sum();
        assert!(total > 0 || seed % 2 == 1);
        let s = samloc(|o| {
            o.bao_mot_enforce = seed % 2 == 0;
            o.bao_mot_previous_seat = seed % 3 == 0;
            o.sam_block_each = seed % 4 == 0;
            o.finish_on_two = [
                FinishOnTwo::Allowed,
                FinishOnTwo::Penalized,
                FinishOnTwo::Forbidden,
            ][usize::from(seed) % 3];
        });
        play_random(s, 2 + usize::from(seed) % 4, seed, 3);
    }
}

#[test]
fn the_holder_of_the_three_of_spades_leads_with_it() {
    let mut rng = Rng::from_key([3; 32]);
    let mut log = Log::default();
    let mut f = Flow::new(south(|_| {}), 4).unwrap();
    f.start(&mut rng, &mut log);
    if f.over {
        return; // an instant win at the deal
    }
    let seat = f.turn.unwrap();
    assert!(f.hands[seat].0 & 1 == 1 && f.must == CardSet(1));
    let mut plays = Vec::new();
    f.legal_plays_into(seat, &mut plays);
    assert!(plays.iter().all(|c| c.cards.0 & 1 == 1));
    let other = plays.iter().find(|c| c.cards.0 & 1 == 0);
    assert!(other.is_none());
    let err = f.check_play(
        seat,
        CardSet(f.hands[seat].0 & !1 & f.hands[seat].0.wrapping_neg() << 1),
    );
    assert!(err.is_err());
    assert!(matches!(
        f.pass_turn(seat, &mut log),
        Err(Error::IllegalMove {
            reason: "cannot_pass_on_lead",
            ..
        })
    ));
}

#[test]
fn players_outside_the_rules_are_refused() {
    assert!(Flow::new(south(|_| {}), 5).is_err());
    assert!(Flow::new(samloc(|_| {}), 5).is_ok());
    assert!(Flow::new(samloc(|_| {}), 1).is_err());
}

/// Each member is a variant of its own: a flow of Tiến Lên's or Sâm Lốc's options alone plays
/// exactly as the run-time choice of that game.
#[test]
fn a_member_alone_plays_as_the_run_time_choice() {
    for seed in 0..12u8 {
        let players = 2 + usize::from(seed) % 3;
        let mut o = TienLen::south();
        o.ranked = seed % 2 == 1;
        o.count_scoring = !o.ranked;
        o.first_lead_random = seed % 3 == 0;
        o.bomb_after_pass = BombAfterPass::AnyBomb;
        let alone = shedding::FlowRules {
            combos: crate::tienlen::south(),
            house: o,
        };
        assert_eq!(
            play_random_as(alone, players, seed, 3, no_declarations),
            play_random(rules(alone), players, seed, 3)
        );
        let mut o = SamLoc::seed();
        o.bao_mot_enforce = seed % 2 == 0;
        o.sam_may_finish_on_two = seed % 3 == 0;
        let alone = shedding::FlowRules {
            combos: crate::samloc::preset(),
            house: o,
        };
        let players = 2 + usize::from(seed) % 4;
        assert_eq!(
            play_random_as(alone, players, seed, 3, declare),
            play_random(rules(alone), players, seed, 3)
        );
    }
}
