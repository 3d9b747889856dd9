use super::fixtures::{open_position, sam_setup, set, south_setup};
use super::*;
use crate::shedding::legal_plays;
use crate::tienlen;

fn south(players: usize) -> Setup {
    Setup {
        after_pass: Some(PlayFilter::FourPairSequences),
        ..south_setup(players)
    }
}

fn position(me: usize, hand: &str, others: u8, players: usize) -> Position {
    open_position(me, set(hand), &vec![others; players])
}

const CTX: Context = Context {
    min_other: 13,
    can_pass: true,
    finish_on_two: true,
};

#[test]
fn greedy_leads_the_longest_play_with_the_lowest_card() {
    let r = tienlen::south();
    let hand = set("3♠ 4♦ 5♥ 9♣ 9♦ K♠ 2♥");
    let plays = legal_plays(hand, None, &r, CardSet::EMPTY);
    let i = greedy_choice(
        hand,
        &plays,
        None,
        Context {
            can_pass: false,
            ..CTX
        },
    )
    .unwrap();
    assert_eq!(plays[i].cards, set("3♠ 4♦ 5♥"));
}

#[test]
fn greedy_goes_out_when_it_can_and_keeps_twos() {
    let r = tienlen::south();
    let hand = set("9♣ 9♦");
    let table = classify_text("5♠ 5♣", &r);
    let plays = legal_plays(hand, Some(&table), &r, CardSet::EMPTY);
    assert_eq!(
        plays[greedy_choice(hand, &plays, Some(&table), CTX).unwrap()].cards,
        hand
    );
    let hand = set("3♠ 4♦ 5♥ 9♣ 10♦ K♠ 2♥");
    let table = classify_text("A♠", &r);
    let plays = legal_plays(hand, Some(&table), &r, CardSet::EMPTY);
    assert_eq!(
        greedy_choice(hand, &plays, Some(&table), CTX),
        None,
        "a 2 is kept early on"
    );
    let table = classify_text("6♠", &r);
    let plays = legal_plays(hand, Some(&table), &r, CardSet::EMPTY);
    let i = greedy_choice(hand, &plays, Some(&table), CTX).unwrap();
    assert_eq!(plays[i].cards, set("9♣"));
}

fn classify_text(text: &str, r: &Rules) -> Combo {
    crate::shedding::classify(set(text), r).unwrap()
}

#[test]
fn going_out_now_is_worth_more_than_passing() {
    let setup = south(4);
    let mut pos = position(0, "9♣ 9♦", 13, 4);
    pos.counts = [2, 5, 5, 5, 0];
    pos.played_any = 0b1111;
    pos.table = Some(classify_text("5♠ 5♣", &setup.rules));
    pos.table_seat = 3;
    pos.unseen = set("3♠ 3♣ 3♦ 4♠ 4♣ 4♦ 6♠ 6♣ 6♦ 7♠ 7♣ 7♦ 8♠ 8♣ 8♦");
    let win = Some(classify_text("9♣ 9♦", &setup.rules));
    let v = evaluate(&setup, &pos, &[win, None], 64, 7);
    assert_eq!(
        v[0], 15.0,
        "each of three seats pays its 5 cards (no 2s, no tứ quý)"
    );
    assert!(v[1] < v[0]);
    check(&setup, &pos).unwrap();
}

#[test]
fn deals_respect_counts_and_never_overlap() {
    let pos = position(1, "3♠ 4♦ 5♥ 9♣ 9♦ K♠ 2♥ 2♦ 7♣ 8♣", 10, 3);
    let mut rng = FastRng::new(3);
    let mut pool = Vec::new();
    for _ in 0..50 {
        let hands = determinise(&pos, 3, &mut rng, &mut pool);
        assert_eq!(hands[1], pos.hand);
        let all = hands.iter().fold(0u64, |m, h| {
            assert_eq!(m & h.0, 0);
            m | h.0
        });
        assert_eq!(all.count_ones(), 30);
        assert!(hands[0].len() == 10 && hands[2].len() == 10);
    }
}

#[test]
fn rollouts_are_zero_sum_and_reproducible() {
    let setup = south(4);
    let pos = position(0, "3♠ 4♦ 5♥ 6♣ 9♣ 9♦ 10♠ J♥ Q♦ K♠ A♠ 2♥ 2♦", 13, 4);
    let plays = legal_plays(pos.hand, None, &setup.rules, CardSet::EMPTY);
    let cands: Vec<_> = plays.iter().take(5).map(|c| Some(*c)).collect();
    let a = evaluate(&setup, &pos, &cands, 40, 11);
    assert_eq!(a, evaluate(&setup, &pos, &cands, 40, 11));
    let hands = determinise(&pos, 4, &mut FastRng::new(1), &mut Vec::new());
    let mut sim = Sim::new(&pos, hands, 0);
    sim.finish(&setup, 0, &mut Vec::new());
    assert!(sim.over);
    assert_eq!(sim.score.iter().sum::<i32>(), 0);
}

#[test]
fn ranked_rollouts_pay_places() {
    let mut setup = south(4);
    setup.payoff.places = vec![2, 1, -1, -2];
    let pos = position(2, "3♠ 4♦ 5♥ 6♣ 9♣ 9♦ 10♠ J♥ Q♦ K♠ A♠ 2♥ 2♦", 13, 4);
    let plays = legal_plays(pos.hand, None, &setup.rules, CardSet::EMPTY);
    let v = evaluate(&setup, &pos, &[Some(plays[0])], 50, 5);
    assert!((-28.0..=26.0).contains(&v[0]));
}

#[test]
fn sam_succeeds_only_with_unbeatable_plays() {
    let setup = sam_setup(3);
    // bound by finish_on_two like every seat, the declarer sheds its 2s before its last card
    let pos = position(0, "2♠ 2♣ 2♦ 2♥ A♠ A♣ A♦ A♥", 10, 3);
    assert_eq!(sam_success(&setup, &pos, 50, 1), 1.0);
    let exempt = Setup {
        sam_may_finish_on_two: true,
        ..sam_setup(3)
    };
    assert_eq!(sam_success(&exempt, &pos, 50, 1), 1.0);
    let pos = position(0, "3♠ 5♣ 7♦ 9♥ J♠ K♣ 3♦ 5♥ 7♠ 9♣", 10, 3);
    assert!(sam_success(&setup, &pos, 50, 1) < 0.1);
}
