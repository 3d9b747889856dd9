//! Property-based fuzzing of the core entry points the Python bindings call (proptest; the
//! stable toolchain has no `cargo fuzz`). Every input that passes the boundary checks must run
//! without a panic and within bounds; inputs that do not must be refused with an `Error`.
//!
//! Cases per property: `PROPTEST_CASES` (default 64, for CI); `make fuzz` runs 20,000.

use crate::cards::{CardSet, FULL_DECK};
use crate::maubinh::solver::{ranked_arrangements, Objective, MAX_ARRANGEMENTS};
use crate::rollout::{self, Payoff, Position, Setup, MAX_SEATS};
use crate::shedding::{classify, legal_plays, Combo, Rules};
use crate::tusac::melds::{min_rac_splits, MAX_SPLITS};
use crate::tusac::{min_rac, win_total, Hand, Kind, OddTotal, Scoring};
use crate::{maubinh, samloc, tienlen};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig::with_cases(cases)
}

const PRESETS: [Rules; 4] = [
    tienlen::south(),
    tienlen::north(),
    samloc::rules(false, false),
    samloc::rules(true, true),
];

/// Card masks of every size, biased to the sizes that matter.
fn deck_subset() -> impl Strategy<Value = u64> {
    prop_oneof![0usize..=13, Just(13usize), Just(14), Just(26), Just(52)].prop_flat_map(|n| {
        proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), n)
            .prop_map(|v| v.iter().fold(0u64, |m, &c| m | 1 << c))
    })
}

fn any_mask() -> impl Strategy<Value = u64> {
    prop_oneof![deck_subset(), any::<u64>()]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn card_sets_of_any_bits_iterate_and_print(bits in any::<u64>()) {
        let set = CardSet(bits);
        prop_assert_eq!(set.iter().count() as u32, (bits & FULL_DECK).count_ones());
        let _ = set.to_string();
        prop_assert_eq!(CardSet::from_mask(bits).is_ok(), bits & !FULL_DECK == 0);
    }

    #[test]
    fn combo_parts_are_checked(mask in any::<u64>(), kind in any::<u8>(), top in any::<u8>()) {
        if let Ok(c) = Combo::from_parts(mask, kind, top) {
            prop_assert!(c.cards.0 & !FULL_DECK == 0 && !c.cards.is_empty());
        }
    }

    #[test]
    fn move_generation_on_checked_hands(
        mask in any_mask(), table in any_mask(), preset in 0usize..4, must in any_mask(),
    ) {
        let rules = PRESETS[preset];
        let Ok(hand) = CardSet::from_mask(mask).and_then(|h| rules.check_hand(h)) else {
            prop_assert!(mask & !FULL_DECK != 0 || mask.count_ones() > u32::from(rules.hand_size));
            return Ok(());
        };
        let table = CardSet::from_mask(table).ok().and_then(|t| classify(t, &rules));
        let must = CardSet(must & mask);
        for play in legal_plays(hand, table.as_ref(), &rules, must) {
            prop_assert_eq!(play.cards.0 & !hand.0, 0);
            prop_assert_eq!(play.cards.0 & must.0, must.0);
            prop_assert_eq!(Some(play), classify(play.cards, &rules));
            prop_assert_eq!(Combo::from_parts(play.cards.0, play.kind as u8, play.top), Ok(play));
        }
    }

    #[test]
    fn tusac_searches_on_checked_hands(
        packed in prop_oneof![any::<u128>(), (0u128..1 << 84)],
        limit in any::<usize>(), exposed in any::<i32>(), offer in 0u8..28, odd in any::<bool>(),
    ) {
        let Ok(h) = Hand::unpack(packed).and_then(|h| h.checked()) else { return Ok(()); };
        let _ = min_rac(&h);
        prop_assert!(min_rac_splits(&h, limit).len() <= limit.clamp(1, MAX_SPLITS));
        let offer = Kind::from_index(offer).filter(|&k| h.check_offer(k).is_ok());
        let odd_total = if odd { OddTotal::Hand } else { OddTotal::Off };
        let _ = win_total(&h, exposed, offer, Scoring { odd_total, set_lenh: 1 });
    }

    #[test]
    fn ranked_arrangements_are_bounded(hand in deck_subset(), count in any::<usize>()) {
        let r = maubinh::Rules::default();
        match ranked_arrangements(hand, &r, Objective::Strongest, count) {
            Ok(v) => prop_assert!(v.len() <= count.min(MAX_ARRANGEMENTS)),
            Err(_) => prop_assert_ne!(hand.count_ones(), 13),
        }
    }

    #[test]
    fn rollouts_of_checked_positions_end(
        players in 2usize..=MAX_SEATS, me in 0usize..8, hand in deck_subset(), preset in 0usize..4,
        counts in proptest::collection::vec(0u8..20, MAX_SEATS), table in any_mask(),
        table_seat in 0usize..8, passed in any::<u8>(), out in any::<u8>(), sam in proptest::option::of(0usize..8),
        after_pass in any::<bool>(), seed in any::<u64>(),
    ) {
        let rules = PRESETS[preset];
        let setup = Setup {
            rules,
            players,
            after_pass: after_pass.then_some(crate::shedding::PlayFilter::Bombs),
            bao_mot: preset >= 2,
            finish_on_two: true,
            sam_may_finish_on_two: false,
            bao: Default::default(),
            payoff: Payoff { card: 1, cong: 26, black_two: 3, red_two: 6, quad: 12, places: vec![], sam: 20, sam_block_each: false },
        };
        let hand = CardSet(hand);
        let mut c = [0u8; MAX_SEATS];
        c.copy_from_slice(&counts);
        let pos = Position {
            me, hand, unseen: CardSet(FULL_DECK & !hand.0), counts: c, played_any: 0,
            table: CardSet::from_mask(table).ok().and_then(|t| classify(t, &rules)),
            table_seat, passed, out, must: CardSet::EMPTY, sam, violator: [0; MAX_SEATS], played: [0; MAX_SEATS],
        };
        if rollout::check(&setup, &pos).is_ok() {
            let means = rollout::evaluate(&setup, &pos, &[None], 2, seed);
            prop_assert!(means.iter().all(|m| m.is_finite()));
        }
    }
}
