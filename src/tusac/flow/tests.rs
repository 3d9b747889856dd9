use super::*;
use crate::rng::Rng;
use crate::table::Discard;

/// Plays random legal actions to the end; checks the invariants at every step.
fn play(rules: Rules, players: usize, dealer: usize, seed: u8) -> Flow {
    let mut rng = Rng::from_key([seed; 32]);
    let mut f = Flow::new(rules, players, dealer).unwrap();
    f.start(&mut rng, &mut Discard);
    for _ in 0..2000 {
        if f.phase == Phase::Over {
            break;
        }
        let seat = f.first_pending().expect("a seat to act");
        let actions = f.legal_actions(seat);
        assert!(!actions.is_empty(), "seat {seat} has nothing to do");
        let a = &actions[rng.below(actions.len() as u32) as usize];
        // Another seat's action changes nothing.
        let before = f.clone();
        let other = (0..players).find(|&s| !f.pending().contains(s));
        if let Some(o) = other {
            assert!(f.act(o, a, &mut Discard).is_err());
            assert_eq!(f, before);
        }
        f.act(seat, a, &mut Discard).unwrap();
        let mut cards = [0u8; KINDS];
        for s in 0..players {
            for (c, &n) in cards.iter_mut().zip(&f.hands[s].0) {
                *c += n;
            }
            for (_, ks) in &f.exposed[s] {
                for k in ks {
                    cards[usize::from(k.index())] += 1;
                }
            }
        }
        for k in f
            .stock
            .iter()
            .chain(&f.dead)
            .chain(f.offer.iter().map(|o| &o.card))
        {
            cards[usize::from(k.index())] += 1;
        }
        assert!(cards.iter().all(|&c| c == COPIES), "cards are conserved");
    }
    assert_eq!(f.phase, Phase::Over, "the hand ends");
    assert_eq!(f.totals.iter().sum::<i32>(), 0);
    f
}

#[test]
fn random_hands_end_conserve_cards_and_sum_to_zero() {
    let mut wins = 0;
    for seed in 0..30u8 {
        let rules = Rules {
            triple_optional: seed % 2 == 1,
            forbidden_no_claim: seed % 7 == 2,
            discard_enforce: seed % 3 == 0,
            every_seat: seed % 4 != 1,
            payment_flat: seed % 5 == 0,
            ..Rules::default()
        };
        let f = play(
            rules,
            2 + usize::from(seed) % 3,
            usize::from(seed) % 2,
            seed,
        );
        wins += usize::from(f.result.is_some_and(|r| !r.draw));
    }
    assert!(wins > 0);
}

#[test]
fn a_bad_dealer_or_table_is_refused() {
    assert!(Flow::new(Rules::default(), 5, 0).is_err());
    assert!(Flow::new(Rules::default(), 3, 3).is_err());
}
