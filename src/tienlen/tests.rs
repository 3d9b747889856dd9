//! Examples of docs/rules/tienlen-south.md, tienlen-north.md and samloc.md and a brute-force
//! differential test of the shared move generator ([`crate::shedding`]) under Tiến Lên's presets.

use super::{north, south};
use crate::cards::{parse_card_set, CardSet};
use crate::rng::Rng;
use crate::shedding::*;

fn set(t: &str) -> CardSet {
    parse_card_set(t).unwrap().1
}
fn combo(t: &str, r: &Rules) -> Combo {
    classify(set(t), r).unwrap_or_else(|| panic!("{t} is not a combination"))
}
fn kind(t: &str, r: &Rules) -> Option<Kind> {
    classify(set(t), r).map(|c| c.kind)
}
fn beat(p: &str, t: &str, r: &Rules) -> bool {
    beats(&combo(p, r), &combo(t, r), r)
}

/// Sâm Lốc's combination rules, to show the core expresses them.
fn samloc(low: bool) -> Rules {
    Rules {
        suit_order: false,
        pair_sequences: false,
        max_straight: 10,
        low_straights: low,
        quad_beats_pair_of_twos: false,
        hand_size: 10,
        max_players: 5,
        ..south()
    }
}

#[test]
fn south_kinds() {
    let s = south();
    assert_eq!(kind("3♠", &s), Some(Kind::Single));
    assert_eq!(kind("♠4♦4", &s), Some(Kind::Pair));
    assert_eq!(kind("5♠5♦5♥", &s), Some(Kind::Triple));
    assert_eq!(kind("Q♠K♦A♥", &s), Some(Kind::Straight));
    assert_eq!(kind("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣", &s), Some(Kind::Straight));
    assert_eq!(kind("K♠A♦2♥", &s), None);
    assert_eq!(kind("A♠2♦3♥", &s), None);
    assert_eq!(kind("2♠3♦4♥", &s), None);
    assert_eq!(kind("3♠3♣4♦4♥5♠5♦", &s), Some(Kind::PairSequence));
    assert_eq!(kind("K♠K♣A♦A♥2♠2♦", &s), None);
    assert_eq!(kind("3♠3♣4♦4♥", &s), None);
    assert_eq!(kind("3♠3♣3♦3♥", &s), Some(Kind::FourOfAKind));
    assert_eq!(kind("3♠3♣4♦", &s), None);
    assert_eq!(kind("", &s), None);
}

#[test]
fn south_beating_examples() {
    let s = south();
    assert!(beat("10♠", "9♥", &s));
    assert!(beat("♥J♥Q♠K", "♣10♦J♥Q", &s));
    assert!(beat("♦5♠6♣7", "♥5♥6♠7", &s));
    assert!(beat("♦5♣5", "♦4♥4", &s));
    assert!(beat("♠5♦5♥5", "♠4♦4♥4", &s));
    assert!(!beat("9♥", "10♠", &s));
    assert!(!beat("4♠5♠6♠7♠", "3♠4♠5♠", &s));
    assert!(beat("2♥", "2♠", &s));
}

#[test]
fn south_bombs() {
    let s = south();
    let three_ps = "3♠3♣4♦4♥5♠5♦";
    let quad = "7♠7♣7♦7♥";
    let four_ps = "8♠8♣9♦9♥10♠10♦J♣J♥";
    assert!(beat(three_ps, "2♥", &s));
    assert!(!beat(three_ps, "2♠2♥", &s));
    assert!(beat("4♠4♣5♦5♥6♠6♦", three_ps, &s));
    assert!(beat(quad, "2♥", &s));
    assert!(beat(quad, "2♠2♥", &s));
    assert!(!beat(
        quad,
        "2♠2♥",
        &Rules {
            quad_beats_pair_of_twos: false,
            ..s
        }
    ));
    assert_eq!(kind("Q♠Q♣Q♦K♠K♣K♦", &s), None);
    assert!(beat(quad, "J♠J♣Q♦Q♥K♠K♦", &s));
    assert!(beat("8♠8♣8♦8♥", quad, &s));
    assert!(!beat(quad, four_ps, &s));
    for t in ["2♥", "2♠2♥", three_ps, quad] {
        assert!(beat(four_ps, t, &s), "{t}");
    }
    assert!(beat("9♠9♣10♦10♥J♠J♦Q♣Q♥", four_ps, &s));
    assert!(!beat(four_ps, "2♠2♣2♥", &s));
    assert!(!beat(quad, "2♠2♣2♥", &s));
    // 5 đôi thông only beats 5 đôi thông.
    assert!(!beat("3♠3♣4♦4♥5♠5♦6♠6♣7♦7♥", "2♥", &s));
    assert!(is_cut(&combo(quad, &s), &combo("2♥", &s), &s));
    assert!(!is_cut(&combo("2♥", &s), &combo("2♠", &s), &s));
    assert!(is_cut(&combo("8♠8♣8♦8♥", &s), &combo(quad, &s), &s));
}

#[test]
fn north_examples() {
    let n = north();
    assert_eq!(kind("♠4♣4", &n), Some(Kind::Pair));
    assert_eq!(kind("♥A♦A", &n), Some(Kind::Pair));
    assert_eq!(kind("♠4♦4", &n), None);
    assert!(beat("♦5♥5", "♦4♥4", &n));
    assert!(!beat("♠5♣5", "♦4♥4", &n));
    assert!(beat("2♠2♣", "♦A♥A", &n));
    for t in ["♣4♣5♣6", "♥6♥7♥8♥9♥10", "♦Q♦K♦A"] {
        assert_eq!(kind(t, &n), Some(Kind::Straight), "{t}");
    }
    assert_eq!(kind("♥6♠7♥8", &n), None);
    assert!(beat("♥J♥Q♥K", "♥8♥9♥10", &n));
    assert!(!beat("♠J♠Q♠K", "♥8♥9♥10", &n));
    assert!(beat("9♥", "8♥", &n));
    assert!(!beat("9♠", "8♥", &n));
    assert!(beat("2♠", "A♥", &n));
    assert!(beat("2♥", "2♠", &n));
    assert!(beat("5♠5♣5♦", "4♠4♣4♥", &n));
    let t = Rules {
        triple_follows_suits: true,
        ..n
    };
    assert!(!beat("5♠5♣5♦", "4♠4♣4♥", &t));
    assert!(beat("5♠5♣5♥", "4♠4♣4♥", &t));
    assert!(beat("2♠2♣2♦", "4♠4♣4♥", &t));
    assert_eq!(kind("3♠3♣4♠4♣5♠5♣", &n), None);
    assert!(beat("7♠7♣7♦7♥", "2♥", &n));
    assert!(beat("7♠7♣7♦7♥", "2♦2♥", &n));
}

#[test]
fn samloc_rules_are_expressible() {
    let s = samloc(false);
    s.validate().unwrap();
    assert!(!beat("5♥", "5♠", &s));
    assert!(beat("6♠", "5♥", &s));
    assert!(!beat("4♥5♥6♥", "4♠5♠6♠", &s));
    assert_eq!(kind("A♠2♦3♥", &s), None);
    assert_eq!(kind("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠", &s), Some(Kind::Straight));
    assert_eq!(kind("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♠", &s), None);
    let low = samloc(true);
    assert_eq!(kind("A♠2♦3♥", &low), Some(Kind::Straight));
    assert_eq!(kind("2♦3♥4♠5♠", &low), Some(Kind::Straight));
    assert_eq!(kind("K♠A♦2♥", &low), None);
    assert!(beat("2♦3♥4♠", "A♠2♣3♦", &low));
    assert!(beat("3♦4♥5♠", "2♠3♣4♦", &low));
    assert!(beat("Q♦K♥A♠", "3♦4♥5♠", &low));
    assert!(beat("7♠7♣7♦7♥", "2♥", &s));
    assert!(!beat("7♠7♣7♦7♥", "2♦2♥", &s));
    assert!(beat("8♠8♣8♦8♥", "7♠7♣7♦7♥", &s));
    assert_eq!(kind("3♠3♣4♦4♥5♠5♦", &s), None);
}

#[test]
fn eighty_two_leads() {
    let hand = set("3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥");
    let plays = legal_plays(hand, None, &south(), CardSet::EMPTY);
    assert_eq!(plays.len(), 82);
    let with_spade = legal_plays(hand, None, &south(), set("3♠"));
    assert!(with_spade
        .iter()
        .all(|c| c.cards.contains(crate::cards::parse_card("3♠").unwrap())));
    assert_eq!(with_spade.len(), 1 + 1 + 1 + 20);
}

/// The move generator's plays of `hand` on `table`, as sorted masks.
fn generated(hand: CardSet, table: Option<&Combo>, rules: &Rules) -> Vec<u64> {
    let mut got: Vec<u64> = legal_plays(hand, table, rules, CardSet::EMPTY)
        .iter()
        .map(|c| c.cards.0)
        .collect();
    got.sort_unstable();
    got
}

/// Every subset of the hand, classified and tested against the table.
fn oracle(hand: CardSet, table: Option<&Combo>, rules: &Rules, must: CardSet) -> Vec<u64> {
    let cards: Vec<u64> = hand.iter().map(|c| c.bit()).collect();
    let mut out = Vec::new();
    for sub in 1u32..(1 << cards.len()) {
        let m: u64 = (0..cards.len())
            .filter(|i| sub >> i & 1 == 1)
            .map(|i| cards[i])
            .sum();
        if m & must.0 != must.0 {
            continue;
        }
        if let Some(c) = classify(CardSet(m), rules) {
            if table.map_or(true, |t| beats(&c, t, rules)) {
                out.push(m);
            }
        }
    }
    out.sort_unstable();
    out
}

fn random_hand(rng: &mut Rng, n: usize) -> CardSet {
    rng.permutation(52)[..n]
        .iter()
        .map(|&i| crate::cards::Card::from_index(i as u8).unwrap())
        .collect()
}

#[test]
fn legal_plays_match_brute_force() {
    let variants = [
        south(),
        north(),
        Rules {
            quad_beats_pair_of_twos: false,
            ..south()
        },
        Rules {
            triple_follows_suits: true,
            single_follows_suit: false,
            ..north()
        },
        samloc(false),
        samloc(true),
    ];
    let mut rng = Rng::from_key([42; 32]);
    for round in 0..300 {
        let rules = &variants[round % variants.len()];
        // Hands rich in pairs and runs: draw from a few ranks sometimes.
        let hand = if round % 3 == 0 {
            let ranks = 6 + rng.below(4) as u8;
            let start = rng.below(u32::from(13 - ranks) + 1) as u8;
            let pool: Vec<u64> = (start * 4..(start + ranks) * 4)
                .map(|i| 1u64 << i)
                .collect();
            let perm = rng.permutation(pool.len());
            CardSet(
                perm[..13.min(pool.len())]
                    .iter()
                    .map(|&i| pool[i as usize])
                    .sum(),
            )
        } else {
            random_hand(&mut rng, 13)
        };
        assert_eq!(
            generated(hand, None, rules),
            oracle(hand, None, rules, CardSet::EMPTY),
            "lead {hand}"
        );
        // Tables: random plays of another hand.
        let other = random_hand(&mut rng, 13);
        let leads = legal_plays(other, None, rules, CardSet::EMPTY);
        for _ in 0..6 {
            let t = leads[rng.below(leads.len() as u32) as usize];
            let rest = CardSet(hand.0 & !t.cards.0);
            assert_eq!(
                generated(rest, Some(&t), rules),
                oracle(rest, Some(&t), rules, CardSet::EMPTY),
                "{rest} on {}",
                t.cards
            );
        }
    }
}

#[test]
fn bombs_on_twos_are_generated() {
    let s = south();
    let hand = set("3♠3♣4♦4♥5♠5♦6♠6♣ 7♠7♣7♦7♥ 2♠");
    let t = combo("2♥", &s);
    let got = legal_plays(hand, Some(&t), &s, CardSet::EMPTY);
    let mut want = oracle(hand, Some(&t), &s, CardSet::EMPTY);
    let mut g: Vec<u64> = got.iter().map(|c| c.cards.0).collect();
    g.sort_unstable();
    want.sort_unstable();
    assert_eq!(g, want);
    // 3 đôi thông 3-4-5, 4-5-6 and 5-6-7 (six pairs of 7s); 4 đôi thông 3-6 and 4-7 (six); tứ quý.
    assert_eq!(got.len(), 2 + 6 + 1 + 6 + 1);
    assert!(has_play(hand, Some(&t), &s, PlayFilter::FourPairSequences));
    assert!(!has_play(
        set("7♠7♣7♦7♥"),
        Some(&t),
        &s,
        PlayFilter::FourPairSequences
    ));
}
