//! Search for Mậu Binh: the solver's best arrangements by the `expected` objective (and the
//! strongest one) raced against sampled opponents. Each determinisation deals the 39 cards
//! the seat does not hold to the other seats, arranges their hands with the solver (the model
//! of a careful opponent), and settles every candidate against them with the table's rules:
//! a best response to that field with the seat's own cards removed from the deck, scoops,
//! bonuses and instant wins counted exactly.

use super::{mix, race, Budget, Outcome, Trial};
use crate::maubinh::expected::Model;
use crate::maubinh::population::Population;
use crate::maubinh::settle::settle;
use crate::maubinh::solver::{best_with_tables, Objective};
use crate::maubinh::{Arrangement, Rules};
use crate::rollout::FastRng;
use std::sync::Arc;

const DECK: u64 = (1 << 52) - 1;

struct Field<'a> {
    rules: &'a Rules,
    tables: Arc<Population>,
    cands: &'a [Arrangement],
    hand: u64,
    players: usize,
    known: Option<&'a [u64]>,
    rng: FastRng,
    seats: Vec<Option<Arrangement>>,
}

impl Trial for Field<'_> {
    fn draw(&mut self) {
        let opponents: Vec<u64> = match self.known {
            Some(hands) => hands.to_vec(),
            None => {
                let mut pool: Vec<u8> = (0..52u8)
                    .filter(|&c| (DECK & !self.hand) >> c & 1 == 1)
                    .collect();
                (1..self.players)
                    .map(|_| {
                        let mut h = 0u64;
                        for _ in 0..13 {
                            let j = self.rng.below(pool.len());
                            h |= 1 << pool.swap_remove(j);
                        }
                        h
                    })
                    .collect()
            }
        };
        self.seats.truncate(1);
        for h in opponents {
            let a = best_with_tables(h, self.rules, Objective::Expected, &self.tables)
                .expect("13 cards")
                .arrangement;
            self.seats.push(Some(a));
        }
    }

    fn play(&mut self, c: usize) -> i32 {
        self.seats[0] = Some(self.cands[c]);
        let totals = settle(&self.seats, self.rules)
            .expect("valid arrangements")
            .totals;
        totals[0] as i32
    }
}

/// Races the arrangements `cands` of the 13 cards `hand` at a table of `players` against
/// solver-arranged opponents dealt from the other cards (`known`: the other seats' hands,
/// the cheating bot's view).
pub fn search(
    hand: u64,
    rules: &Rules,
    players: usize,
    cands: &[Arrangement],
    known: Option<&[u64]>,
    budget: &Budget,
    seed: u64,
) -> Outcome {
    let mut field = Field {
        rules,
        tables: Population::shipped(rules, Model::Expected),
        cands,
        hand,
        players,
        known,
        rng: FastRng::new(mix(seed, 0x4D42)),
        seats: vec![cands.first().copied()],
    };
    race(&mut field, cands.len(), budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;
    use crate::maubinh::solver::ranked_arrangements;

    #[test]
    fn the_search_picks_a_valid_candidate_reproducibly() {
        let hand = parse_card_set("A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠")
            .unwrap()
            .1
             .0;
        let rules = Rules::default();
        let cands: Vec<Arrangement> = ranked_arrangements(hand, &rules, Objective::Expected, 4)
            .unwrap()
            .into_iter()
            .map(|(a, _)| a)
            .collect();
        let a = search(hand, &rules, 4, &cands, None, &Budget::rollouts(40), 3);
        assert_eq!(
            a,
            search(hand, &rules, 4, &cands, None, &Budget::rollouts(40), 3)
        );
        assert!(a.best < cands.len() && a.rollouts <= 40);
    }
}
