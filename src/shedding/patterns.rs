//! Hand patterns that instant wins (tới trắng) and leftover penalties (thối) are made of.

use crate::cards::{CardSet, RANK_TWO};

/// Number of pairs a hand can make (a tứ quý counts as two pairs).
pub fn pair_count(hand: CardSet) -> u32 {
    hand.rank_counts().iter().map(|&c| u32::from(c / 2)).sum()
}

/// Number of ranks held at least `n` times.
pub fn ranks_with_at_least(hand: CardSet, n: u32) -> u32 {
    hand.ranks_with_at_least(n).count_ones()
}

/// The top rank of the highest run of `k` consecutive ranks below 2 each held at least twice
/// (`k` đôi thông), if any.
pub fn pair_run_top(hand: CardSet, k: u32) -> Option<u8> {
    let paired = hand.ranks_with_at_least(2) & !(1 << RANK_TWO);
    let mut run = 0u32;
    let mut best = None;
    for r in 0..RANK_TWO {
        run = if paired >> r & 1 == 1 { run + 1 } else { 0 };
        if run >= k {
            best = Some(r);
        }
    }
    best
}

/// Index of the highest card of rank `rank` in the hand, if any.
pub fn top_of_rank(hand: CardSet, rank: u8) -> Option<u8> {
    hand.of_rank(rank).highest().map(|c| c.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card_set;

    fn set(t: &str) -> CardSet {
        parse_card_set(t).unwrap().1
    }

    #[test]
    fn patterns() {
        let h = set("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 2♠2♣");
        assert_eq!(pair_run_top(h, 5), Some(5));
        assert_eq!(pair_run_top(h, 6), None);
        assert_eq!(pair_count(h), 6);
        assert_eq!(pair_count(set("3♠3♣3♦3♥")), 2);
        assert_eq!(ranks_with_at_least(set("3♠3♣3♦ 4♠4♣4♦ 5♠"), 3), 2);
        assert_eq!(top_of_rank(h, 0), None);
        assert_eq!(top_of_rank(h, 12), Some(49));
    }
}
