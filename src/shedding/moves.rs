//! Move generation: every distinct card set a hand may play now, built directly from the
//! hand's rank nibbles (never by testing all subsets).

use super::combo::{beats, real_rank, same_colour_pair, Combo, Kind, VRANK_OFFSET, VRANK_TWO};
use super::rules::Rules;
use crate::cards::{CardSet, RANK_ACE, RANK_TWO, SUIT_MASK};
use crate::error::Error;

/// Which plays a seat may choose from (a seat that passed may be allowed only bombs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayFilter {
    /// Every legal play.
    All,
    /// Only bombs (tứ quý, 3 or 4 đôi thông).
    Bombs,
    /// Only 4 đôi thông.
    FourPairSequences,
}

impl PlayFilter {
    const fn admits(self, c: &Combo) -> bool {
        match self {
            PlayFilter::All => true,
            PlayFilter::Bombs => c.is_bomb(),
            PlayFilter::FourPairSequences => c.pairs() == 4,
        }
    }
}

const PAIR_MASKS: [u8; 6] = [0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100];
const TRIPLE_MASKS: [u8; 4] = [0b0111, 0b1011, 0b1101, 0b1110];
const QUAD_MASKS: [u8; 1] = [0b1111];

/// Index of the highest bit of a non-empty nibble.
const fn high_bit(nibble: u8) -> u8 {
    7 - nibble.leading_zeros() as u8
}

struct Gen<'a> {
    hand: CardSet,
    rules: &'a Rules,
    table: Option<Combo>,
    must: u64,
    filter: PlayFilter,
    out: &'a mut Vec<Combo>,
    /// No table, no required card, no filter: every generated combination is pushed.
    plain: bool,
    /// Suit nibble of each virtual rank (A and 2 appear low only with `low_straights`).
    vnib: [u8; 15],
    /// Non-empty virtual ranks (bit v).
    vranks: u32,
    /// Ranks (bit r) held at least `k` times, for k = 0..=4.
    ranks_with: [u16; 5],
}

impl Gen<'_> {
    #[inline(always)]
    fn emit(&mut self, cards: u64, kind: Kind, top: u8) {
        // Built at the push in the plain case: a combo first spilled to the stack (to be
        // passed by reference) costs a store-forwarding stall on every push.
        if self.plain {
            self.out.push(Combo {
                cards: CardSet(cards),
                kind,
                top,
            });
        } else {
            self.emit_checked(Combo {
                cards: CardSet(cards),
                kind,
                top,
            });
        }
    }

    fn emit_checked(&mut self, c: Combo) {
        if self.admits(&c) {
            self.out.push(c);
        }
    }

    fn admits(&self, c: &Combo) -> bool {
        c.cards.0 & self.must == self.must
            && self.filter.admits(c)
            && match &self.table {
                Some(t) => beats(c, t, self.rules),
                None => true,
            }
    }

    /// Singles, pairs, triples or quads (`masks` lists the suit patterns) with top vrank ≥ `min_v`.
    fn sets(&mut self, kind: Kind, masks: &[u8], min_v: u8) {
        let first = min_v.saturating_sub(VRANK_OFFSET);
        let need = masks[0].count_ones() as usize;
        let mut ranks = self.ranks_with[need] & (0x1FFF << first);
        while ranks != 0 {
            let r = ranks.trailing_zeros() as u8;
            ranks &= ranks - 1;
            let nib = self.hand.rank_nibble(r);
            for &m in masks {
                if m & nib != m
                    || (kind == Kind::Pair && self.rules.same_colour_pairs && !same_colour_pair(m))
                {
                    continue;
                }
                self.emit(
                    u64::from(m) << (r * 4),
                    kind,
                    (r + VRANK_OFFSET) * 4 + high_bit(m),
                );
            }
        }
    }

    fn singles(&mut self, min_v: u8) {
        let from = u64::from(min_v.saturating_sub(VRANK_OFFSET)) * 4;
        let mut rest = self.hand.0 & (u64::MAX << from);
        while rest != 0 {
            let i = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            self.emit(1u64 << i, Kind::Single, i + 4 * VRANK_OFFSET);
        }
    }

    /// Straights of `min_len..=max_len` cards whose top vrank is ≥ `min_v`.
    fn straights(&mut self, min_len: usize, max_len: usize, min_v: u8) {
        for start in 0..self.vnib.len() {
            let run = ((self.vranks >> start).trailing_ones() as usize).min(max_len);
            if run < min_len || start + run - 1 < usize::from(min_v) {
                continue;
            }
            if self.rules.same_suit_straights {
                for suit in 0..4u8 {
                    let mut cards = 0u64;
                    for v in start..start + run {
                        if self.vnib[v] >> suit & 1 == 0 {
                            break;
                        }
                        cards |= 1u64 << (real_rank(v as u8) * 4 + suit);
                        let len = v - start + 1;
                        if len >= min_len && v >= usize::from(min_v) {
                            self.emit(cards, Kind::Straight, v as u8 * 4 + suit);
                        }
                    }
                }
            } else {
                self.straight_levels(start, start + run, min_len, min_v);
            }
        }
    }

    /// Builds the straights from `start` one rank at a time in the tail of `out`: the level of
    /// length `k + 1` extends each straight of length `k` by one card of the next rank. The
    /// tail then keeps only straights of a legal length that may be played.
    fn straight_levels(&mut self, start: usize, end: usize, min_len: usize, min_v: u8) {
        let base = self.out.len();
        let (mut a, mut b) = (base, base);
        for v in start..end {
            let rank = u32::from(real_rank(v as u8));
            let nib = self.vnib[v];
            let top_v = v as u8 * 4;
            let extend = |out: &mut Vec<Combo>, m: u64| {
                let mut bits = nib;
                while bits != 0 {
                    let suit = bits.trailing_zeros();
                    bits &= bits - 1;
                    let cards = CardSet(m | 1u64 << (rank * 4 + suit));
                    out.push(Combo {
                        cards,
                        kind: Kind::Straight,
                        top: top_v + suit as u8,
                    });
                }
            };
            if v == start {
                extend(self.out, 0);
            } else {
                for i in a..b {
                    let m = self.out[i].cards.0;
                    extend(self.out, m);
                }
            }
            a = b;
            b = self.out.len();
            if self.plain && v + 1 - start == min_len {
                // Every longer level is legal too: drop the shorter prefixes once, then
                // extend in place.
                self.out.copy_within(a..b, base);
                self.out.truncate(base + b - a);
                (a, b) = (base, base + b - a);
            }
        }
        if self.plain {
            return;
        }
        let mut w = base;
        for i in base..self.out.len() {
            let c = self.out[i];
            if c.len() as usize >= min_len && c.top_vrank() >= min_v && self.admits(&c) {
                self.out[w] = c;
                w += 1;
            }
        }
        self.out.truncate(w);
    }

    /// Pair sequences of `min_pairs..=max_pairs` pairs with top vrank ≥ `min_v` (never a 2).
    fn pair_sequences(&mut self, min_pairs: usize, max_pairs: usize, min_v: u8) {
        let paired = self.ranks_with[2] & 0xFFF;
        for start in 0..12 {
            let run = ((paired >> start).trailing_ones() as usize).min(max_pairs);
            if run < min_pairs || start + run - 1 + usize::from(VRANK_OFFSET) < usize::from(min_v) {
                continue;
            }
            self.pair_dfs(start, start, start + run, 0, min_pairs, min_v);
        }
    }

    fn pair_dfs(
        &mut self,
        start: usize,
        r: usize,
        end: usize,
        acc: u64,
        min_pairs: usize,
        min_v: u8,
    ) {
        let nib = self.hand.rank_nibble(r as u8);
        for m in PAIR_MASKS {
            if m & nib != m {
                continue;
            }
            let cards = acc | u64::from(m) << (r * 4);
            let v = r + usize::from(VRANK_OFFSET);
            if r + 1 - start >= min_pairs && v >= usize::from(min_v) {
                self.emit(cards, Kind::PairSequence, v as u8 * 4 + high_bit(m));
            }
            if r + 1 < end {
                self.pair_dfs(start, r + 1, end, cards, min_pairs, min_v);
            }
        }
    }

    fn all_of_kind(&mut self, kind: Kind, len: Option<usize>, min_v: u8) {
        match kind {
            Kind::Single => self.singles(min_v),
            Kind::Pair => self.sets(kind, &PAIR_MASKS, min_v),
            Kind::Triple => self.sets(kind, &TRIPLE_MASKS, min_v),
            Kind::FourOfAKind => self.sets(kind, &QUAD_MASKS, min_v),
            Kind::Straight => {
                let (lo, hi) = match len {
                    Some(n) => (n, n),
                    None => (
                        usize::from(self.rules.min_straight),
                        usize::from(self.rules.max_straight),
                    ),
                };
                self.straights(lo, hi, min_v);
            }
            Kind::PairSequence => {
                if self.rules.pair_sequences {
                    let (lo, hi) = len.map_or((3, 12), |n| (n / 2, n / 2));
                    self.pair_sequences(lo, hi, min_v);
                }
            }
        }
    }
}

/// Ranks (bit r) held at least `k` times, for k = 0..=4, computed on all nibbles at once.
fn ranks_with(hand: CardSet) -> [u16; 5] {
    let a = hand.0;
    let (b, c, d) = (a >> 1, a >> 2, a >> 3);
    let spaced = [
        SUIT_MASK,
        a | b | c | d,
        (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d),
        (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d),
        a & b & c & d,
    ];
    spaced.map(|m| {
        let mut m = m & SUIT_MASK;
        let mut out = 0u16;
        while m != 0 {
            out |= 1 << (m.trailing_zeros() / 4);
            m &= m - 1;
        }
        out
    })
}

/// Appends to `out` every distinct set of cards from `hand` that may be played on `table`
/// (`None`: leading a round), each containing all of `must_include`, admitted by `filter`.
pub fn legal_plays_into(
    hand: CardSet,
    table: Option<&Combo>,
    rules: &Rules,
    must_include: CardSet,
    filter: PlayFilter,
    out: &mut Vec<Combo>,
) {
    let mut vnib = [0u8; 15];
    for (v, n) in vnib
        .iter_mut()
        .enumerate()
        .take(usize::from(VRANK_TWO))
        .skip(usize::from(VRANK_OFFSET))
    {
        *n = hand.rank_nibble(real_rank(v as u8));
    }
    if rules.low_straights {
        vnib[0] = hand.rank_nibble(RANK_ACE);
        vnib[1] = hand.rank_nibble(RANK_TWO);
    }
    let vranks = vnib
        .iter()
        .enumerate()
        .fold(0u32, |acc, (v, &n)| acc | u32::from(n != 0) << v);
    let plain = table.is_none() && must_include.is_empty() && filter == PlayFilter::All;
    let mut g = Gen {
        hand,
        rules,
        table: table.copied(),
        must: must_include.0,
        filter,
        out,
        plain,
        vnib,
        vranks,
        ranks_with: ranks_with(hand),
    };
    match table {
        None => {
            for kind in Kind::ALL {
                g.all_of_kind(kind, None, 0);
            }
        }
        Some(t) => {
            g.all_of_kind(t.kind, Some(t.len() as usize), t.top_vrank());
            // Bombs of another shape that may cut the table.
            if t.is_bomb() || t.is_twos() {
                if t.kind != Kind::FourOfAKind {
                    g.all_of_kind(Kind::FourOfAKind, None, 0);
                }
                for pairs in [3usize, 4] {
                    if t.pairs() as usize != pairs {
                        g.all_of_kind(Kind::PairSequence, Some(pairs * 2), 0);
                    }
                }
            }
        }
    }
}

/// Every distinct set of cards from `hand` that may be played now (see [`legal_plays_into`]).
pub fn legal_plays(
    hand: CardSet,
    table: Option<&Combo>,
    rules: &Rules,
    must_include: CardSet,
) -> Vec<Combo> {
    let mut out = Vec::new();
    legal_plays_into(hand, table, rules, must_include, PlayFilter::All, &mut out);
    out
}

/// Does the hand hold any play admitted by `filter` on `table`?
pub fn has_play(hand: CardSet, table: Option<&Combo>, rules: &Rules, filter: PlayFilter) -> bool {
    let mut out = Vec::new();
    legal_plays_into(hand, table, rules, CardSet::EMPTY, filter, &mut out);
    !out.is_empty()
}

/// Checks a play of `cards` from `hand` on `table` (`None`: a lead) that must include
/// `must_include`: the combination, or why not (`invalid_combination`, `cards_not_in_hand`,
/// `must_include_lowest`, `does_not_beat`).
pub fn check_play(
    hand: CardSet,
    cards: CardSet,
    table: Option<&Combo>,
    rules: &Rules,
    must_include: CardSet,
) -> Result<Combo, Error> {
    if cards.is_empty() {
        return Err(Error::illegal(
            "invalid_combination",
            "a play needs at least one card",
        ));
    }
    if !cards.is_subset(hand) {
        return Err(Error::illegal(
            "cards_not_in_hand",
            format!("not in hand: {}", cards.difference(hand)),
        ));
    }
    let Some(combo) = super::combo::classify(cards, rules) else {
        return Err(Error::illegal(
            "invalid_combination",
            format!("{cards} is not a combination"),
        ));
    };
    if !must_include.is_subset(cards) {
        return Err(Error::illegal(
            "must_include_lowest",
            format!("the first play must include {must_include}"),
        ));
    }
    if let Some(t) = table {
        if !beats(&combo, t, rules) {
            return Err(Error::illegal(
                "does_not_beat",
                format!("{} does not beat {}", combo.cards, t.cards),
            ));
        }
    }
    Ok(combo)
}
