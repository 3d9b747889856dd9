use super::*;
use crate::cards::parse_card_set;
use crate::shedding::{beats, classify, legal_plays};

fn set(t: &str) -> CardSet {
    parse_card_set(t).unwrap().1
}

fn combo(t: &str, r: &Rules) -> Combo {
    classify(set(t), r).unwrap_or_else(|| panic!("{t} is not a combination"))
}

fn kind(t: &str, r: &Rules) -> Option<&'static str> {
    classify(set(t), r).map(|c| c.kind.name())
}

#[test]
fn preset_is_valid() {
    for (low, quad) in [(false, false), (true, false), (false, true), (true, true)] {
        rules(low, quad).validate().unwrap();
    }
    assert_eq!(rules(false, false), preset());
}

#[test]
fn rank_only_comparison() {
    let r = preset();
    // Suits never compare: equal ranks never beat each other.
    assert!(!beats(&combo("5♥", &r), &combo("5♠", &r), &r));
    assert!(!beats(&combo("5♠", &r), &combo("5♥", &r), &r));
    assert!(beats(&combo("6♠", &r), &combo("5♥", &r), &r));
    assert!(beats(&combo("2♠", &r), &combo("A♥", &r), &r));
    assert!(!beats(&combo("♦5♥5", &r), &combo("♠5♣5", &r), &r));
    assert!(beats(&combo("♠6♦6", &r), &combo("♣5♥5", &r), &r));
    assert!(!beats(&combo("5♥6♥7♥", &r), &combo("5♠6♠7♠", &r), &r));
    assert!(beats(&combo("6♠7♠8♠", &r), &combo("5♥6♥7♥", &r), &r));
    // Different length never beats.
    assert!(!beats(&combo("6♠7♠8♠9♠", &r), &combo("5♥6♥7♥", &r), &r));
}

#[test]
fn combinations() {
    let r = preset();
    assert_eq!(kind("♠4♦4", &r), Some("pair"));
    assert_eq!(kind("♠4♦4♥4", &r), Some("triple"));
    assert_eq!(kind("♠4♦4♥4♣4", &r), Some("four_of_a_kind"));
    assert_eq!(kind("Q♠K♦A♥", &r), Some("straight"));
    assert_eq!(kind("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠", &r), Some("straight"));
    // Longer than ten cards never happens with ten-card hands, and is not a straight.
    assert_eq!(kind("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♠", &r), None);
    // No đôi thông.
    assert_eq!(kind("3♠3♣4♠4♣5♠5♣", &r), None);
    // 2s never in straights by default; K-A-2 never.
    assert_eq!(kind("K♠A♦2♥", &r), None);
    assert_eq!(kind("A♠2♦3♥", &r), None);
    assert_eq!(kind("2♠3♦4♥", &r), None);
    let low = rules(true, false);
    assert_eq!(kind("K♠A♦2♥", &low), None);
    assert_eq!(kind("A♠2♦3♥", &low), Some("straight"));
    assert_eq!(kind("2♠3♦4♥5♣", &low), Some("straight"));
    assert_eq!(kind("A♠2♦3♥4♣5♠", &low), Some("straight"));
    // Low straights are the lowest: A-2-3 < 2-3-4 < 3-4-5.
    let a23 = combo("A♠2♦3♥", &low);
    let s234 = combo("2♠3♦4♥", &low);
    let s345 = combo("3♠4♦5♥", &low);
    assert!(beats(&s234, &a23, &low) && beats(&s345, &s234, &low));
    assert!(!beats(&a23, &s234, &low) && !beats(&s234, &s345, &low));
}

#[test]
fn bombs() {
    let r = preset();
    let quad = combo("7♠7♣7♦7♥", &r);
    assert!(beats(&quad, &combo("2♠", &r), &r));
    assert!(!beats(&quad, &combo("A♥", &r), &r));
    assert!(!beats(&quad, &combo("2♠2♥", &r), &r));
    assert!(beats(&combo("8♠8♣8♦8♥", &r), &quad, &r));
    assert!(!beats(&quad, &combo("8♠8♣8♦8♥", &r), &r));
    assert!(!beats(&quad, &combo("2♠2♥2♦", &r), &r));
    let opt = rules(false, true);
    assert!(beats(&quad, &combo("2♠2♥", &opt), &opt));
    assert!(!beats(&quad, &combo("2♠2♥2♦", &opt), &opt));
    // Generated: the quad appears among the plays on a single 2, not on a pair of 2s.
    let hand = set("7♠7♣7♦7♥ 3♠ 5♦ 9♣ J♥ K♦ A♠");
    let on_two = legal_plays(hand, Some(&combo("2♦", &r)), &r, CardSet::EMPTY);
    assert_eq!(on_two, vec![quad]);
    assert!(legal_plays(hand, Some(&combo("2♦2♥", &r)), &r, CardSet::EMPTY).is_empty());
    assert_eq!(
        legal_plays(hand, Some(&combo("2♦2♥", &opt)), &opt, CardSet::EMPTY),
        vec![quad]
    );
}

#[test]
fn instant_wins_of_the_seed() {
    let r = preset();
    let win = |t: &str| instant_win(set(t), &r).map(|i| (i.kind.name(), i.top_rank));
    assert_eq!(win("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠"), Some(("dragon", 9)));
    assert_eq!(win("2♠2♣2♦2♥ 3♠5♦7♥9♣J♠K♦"), Some(("four_twos", 12)));
    assert_eq!(win("4♦4♥5♦5♥6♥8♦10♥J♦K♦A♥"), Some(("same_colour", 11)));
    assert_eq!(win("4♦4♥4♠6♣6♠6♥J♦J♥J♣A♠"), Some(("three_triples", 8)));
    assert_eq!(win("4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦"), Some(("five_pairs", 9)));
    // A tứ quý counts as two pairs, and holds a triple.
    assert_eq!(win("4♠4♣4♦4♥ 7♦7♥9♣9♥Q♣Q♦"), Some(("five_pairs", 9)));
    assert_eq!(win("4♠4♣4♦4♥ 7♦7♥7♣9♥9♣9♦"), Some(("three_triples", 6)));
    assert_eq!(win("4♦4♥7♦7♥9♣9♥10♣10♥Q♣K♦"), None);
    // Stronger kinds win inside one hand: ten red cards in five pairs are đồng hoa.
    assert_eq!(win("4♦4♥5♦5♥6♦6♥8♦8♥K♦K♥"), Some(("same_colour", 10)));
    // Only a dealt hand of ten cards.
    assert_eq!(win("2♠2♣2♦2♥"), None);
    // With low_straights a low ten-card straight is a dragon (top rank 8 = J).
    let low = rules(true, false);
    let h = set("2♠3♦4♥5♣6♥7♦8♦9♠10♥J♠");
    assert_eq!(instant_win(h, &r), None);
    assert_eq!(instant_win(h, &low).map(|i| i.top_rank), Some(8));
}

#[test]
fn instant_ranking_and_tie_break() {
    let r = preset();
    let hands = [
        set("4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦"), // five pairs, top Q
        set("3♦3♥5♦5♥6♣6♥8♣8♥K♣K♦"),   // five pairs, top K
        set("3♠4♣6♦7♠8♥10♠J♣Q♦K♠A♦"),  // nothing
        set("4♠4♣5♠5♣6♦6♠8♠8♦K♥K♠"),   // five pairs, top K
    ];
    // The higher top rank wins; equal top rank: the seat nearer the leader.
    assert_eq!(instant_winner(&hands, 0, &r).map(|w| w.0), Some(1));
    assert_eq!(instant_winner(&hands, 2, &r).map(|w| w.0), Some(3));
    assert_eq!(instant_winner(&hands, 3, &r).map(|w| w.0), Some(3));
    assert_eq!(instant_winner(&hands[2..3], 0, &r), None);
    // Kind order: dragon > four 2s > same colour > three triples > five pairs.
    for pair in InstantKind::ALL.windows(2) {
        let strong = Instant {
            kind: pair[0],
            top_rank: 0,
        };
        let weak = Instant {
            kind: pair[1],
            top_rank: 12,
        };
        assert!(strong.beats(&weak) && !weak.beats(&strong));
    }
}

#[test]
fn bao_mot_singles() {
    let r = preset();
    let hand = set("3♠ 5♦ 9♣ K♥ K♠");
    let mut all = Vec::new();
    legal_plays_into_bao_mot(
        hand,
        None,
        &r,
        CardSet::EMPTY,
        PlayFilter::All,
        false,
        &mut all,
    );
    let mut enforced = Vec::new();
    legal_plays_into_bao_mot(
        hand,
        None,
        &r,
        CardSet::EMPTY,
        PlayFilter::All,
        true,
        &mut enforced,
    );
    let singles = |v: &[Combo]| {
        v.iter()
            .filter(|c| c.kind == Kind::Single)
            .map(|c| c.cards)
            .collect::<Vec<_>>()
    };
    assert_eq!(singles(&all).len(), 5);
    // Either king is the highest rank.
    assert_eq!(singles(&enforced), vec![set("K♠"), set("K♥")]);
    assert_eq!(all.len() - enforced.len(), 3);
    assert!(breaks_bao_mot(hand, &combo("9♣", &r)));
    assert!(!breaks_bao_mot(hand, &combo("K♠", &r)));
    assert!(!breaks_bao_mot(hand, &combo("K♠K♥", &r)));
    // On a table the rule keeps only the highest single, if it beats.
    let mut on_ten = Vec::new();
    let ten = combo("10♦", &r);
    legal_plays_into_bao_mot(
        hand,
        Some(&ten),
        &r,
        CardSet::EMPTY,
        PlayFilter::All,
        true,
        &mut on_ten,
    );
    assert_eq!(singles(&on_ten).len(), 2);
    let mut on_ace = Vec::new();
    let ace = combo("A♦", &r);
    legal_plays_into_bao_mot(
        hand,
        Some(&ace),
        &r,
        CardSet::EMPTY,
        PlayFilter::All,
        true,
        &mut on_ace,
    );
    assert!(on_ace.is_empty());
}
