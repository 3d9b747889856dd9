//! Mậu Binh as vector tables. The rules are the core's ([`crate::maubinh`]): the solver's ranked
//! arrangements are the legal list (as in the PettingZoo environment: at most 16, distinct
//! strengths, best first; choosing one arranges and confirms it), fouls and the settlement are
//! [`crate::maubinh::settle`]'s. The seats act one after the other, seat 0 first, as the
//! PettingZoo environment asks them; the hand is settled when the last has chosen.
//!
//! Every seat's ranked arrangements are computed once per deal, when the cards are dealt (the
//! solver's pruned search for the best 16, a few times the cost of one solve), in the vector
//! core's parallel pass over the tables with the GIL released; a step then only picks one.

use super::{Game, MAX_SEATS as MAX};
use crate::encode::observation::{maubinh, maubinh_size, MauBinhView};
use crate::maubinh::settle::settle;
use crate::maubinh::solver::{ranked_arrangements, Objective};
use crate::maubinh::{Arrangement, Rules};
use crate::rng::Rng;
use crate::table::Draw;

/// Most seats at a Mậu Binh table.
pub const MAX_SEATS: usize = 4;
/// Ranked arrangements offered to a seat (`MAUBINH_ARRANGEMENTS` of the PettingZoo environment).
pub const ARRANGEMENTS: usize = 16;

/// One Mậu Binh table.
#[derive(Clone, Debug)]
pub struct MauBinhTable {
    rules: Rules,
    players: usize,
    hands: [u64; MAX_SEATS],
    arranged: [Option<Arrangement>; MAX_SEATS],
    /// The seat to choose next (`players` once every seat has).
    next: usize,
    /// Each seat's ranked arrangements, computed when the hand is dealt.
    choices: [Vec<Arrangement>; MAX_SEATS],
    totals: [i32; MAX],
}

impl MauBinhTable {
    pub fn new(rules: Rules, players: usize) -> Result<MauBinhTable, crate::Error> {
        rules.validate()?;
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(crate::Error::Rules(format!(
                "maubinh takes 2–4 players, not {players}"
            )));
        }
        Ok(MauBinhTable {
            rules,
            players,
            hands: [0; MAX_SEATS],
            arranged: [None; MAX_SEATS],
            next: players,
            choices: Default::default(),
            totals: [0; MAX],
        })
    }

    /// The legal list of the seat to choose now (empty once every seat has).
    fn current(&self) -> &[Arrangement] {
        self.choices.get(self.next).map_or(&[], |c| c.as_slice())
    }
}

impl Game for MauBinhTable {
    fn players(&self) -> usize {
        self.players
    }
    fn observation_size(&self) -> usize {
        maubinh_size(self.players)
    }
    fn action_bound(&self) -> usize {
        ARRANGEMENTS
    }

    fn deal(&mut self, mut rng: Rng) {
        let mut perm = [0u32; 52];
        Draw::permutation(&mut rng, &mut perm);
        for s in 0..MAX_SEATS {
            self.hands[s] = if s < self.players {
                perm[13 * s..13 * s + 13]
                    .iter()
                    .fold(0, |m, &c| m | 1u64 << c)
            } else {
                0
            };
        }
        self.arranged = [None; MAX_SEATS];
        self.totals = [0; MAX];
        self.next = 0;
        for (seat, choices) in self.choices.iter_mut().enumerate() {
            choices.clear();
            if seat < self.players {
                let ranked = ranked_arrangements(
                    self.hands[seat],
                    &self.rules,
                    Objective::Expected,
                    ARRANGEMENTS,
                )
                .expect("a dealt 13-card hand");
                choices.extend(ranked.into_iter().map(|(a, _)| a));
            }
        }
    }

    fn is_over(&self) -> bool {
        self.next >= self.players
    }
    fn totals(&self) -> [i32; MAX] {
        self.totals
    }
    fn seat(&self) -> Option<usize> {
        (self.next < self.players).then_some(self.next)
    }
    fn num_actions(&self) -> usize {
        self.current().len()
    }

    fn apply(&mut self, index: usize) {
        self.arranged[self.next] = Some(self.current()[index]);
        self.next += 1;
        if self.next == self.players {
            let s =
                settle(&self.arranged[..self.players], &self.rules).expect("every seat arranged");
            for (t, &u) in self.totals.iter_mut().zip(&s.totals) {
                *t = i32::try_from(u).unwrap_or(0);
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        let held: usize = self.choices.iter().map(Vec::capacity).sum();
        held * std::mem::size_of::<Arrangement>()
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let n = self.players;
        let own = self.arranged[seat].unwrap_or(Arrangement {
            back: 0,
            middle: 0,
            front: 0,
        });
        let (mut done, mut pending) = (0u32, 0u32);
        for k in 0..n {
            let s = (seat + k) % n;
            done |= u32::from(self.arranged[s].is_some()) << k;
            pending |= u32::from(s >= self.next) << k;
        }
        let view = MauBinhView {
            hand: self.hands[seat],
            back: own.back,
            middle: own.middle,
            front: own.front,
            players: n,
            arranged: done,
            confirmed: done,
            pending,
            fouled: self.arranged[seat].is_some_and(|a| a.is_fouled(&self.rules)),
        };
        maubinh(&view, out);
    }
}
