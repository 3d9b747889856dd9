"""Every worked example of docs/rules/tienlen-south.md and tienlen-north.md (combinations, beating, bombs, instant wins) and the
rules object."""

from __future__ import annotations

import collections.abc
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import Card, RulesError, tienlen
from vncards.tienlen import Rules

SOUTH = Rules.south()
NORTH = Rules.north()


def kind(cards: str, rules: Rules = SOUTH) -> str | None:
    c = tienlen.classify(cards, rules)
    return None if c is None else c.kind


def test_card_order() -> None:
    assert max(Card(i) for i in range(52)) == Card("2♥")
    assert min(Card(i) for i in range(52)) == Card("3♠")
    assert tienlen.beats("10♠", "9♥")


@pytest.mark.parametrize(
    "cards, want",
    [
        ("3♠", "single"),
        ("♠4♦4", "pair"),
        ("5♠5♦5♥", "triple"),
        ("Q♠K♦A♥", "straight"),
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣", "straight"),
        ("K♠A♦2♥", None),
        ("A♠2♦3♥", None),
        ("2♠3♦4♥", None),
        ("3♠3♣4♦4♥5♠5♦", "pair_sequence"),
        ("K♠K♣A♦A♥2♠2♦", None),
        ("3♠3♣3♦3♥", "four_of_a_kind"),
        ("3♠3♣4♦4♥", None),
        ("3♠4♦", None),
    ],
)
def test_south_combinations(cards: str, want: str | None) -> None:
    assert kind(cards) == want


@pytest.mark.parametrize(
    "play, table",
    [
        ("♥J♥Q♠K", "♣10♦J♥Q"),
        ("♦5♠6♣7", "♥5♥6♠7"),
        ("♦5♣5", "♦4♥4"),
        ("♠5♦5♥5", "♠4♦4♥4"),
        ("2♥", "2♠"),
    ],
)
def test_south_beating_examples(play: str, table: str) -> None:
    assert tienlen.beats(play, table)
    assert not tienlen.beats(table, play)


def test_different_kinds_or_sizes_never_beat() -> None:
    assert not tienlen.beats("4♠5♠6♠7♠", "3♠4♠5♠")
    assert not tienlen.beats("9♠9♣", "8♠")
    assert not tienlen.beats("9♠", "8♠ 9♦")  # the table is not a combination


def test_bomb_table() -> None:
    three_ps, quad = "3♠3♣4♦4♥5♠5♦", "7♠7♣7♦7♥"
    four_ps = "8♠8♣9♦9♥10♠10♦J♣J♥"
    assert tienlen.beats(three_ps, "2♥") and not tienlen.beats(three_ps, "2♠2♥")
    assert tienlen.beats("4♠4♣5♦5♥6♠6♦", three_ps)
    for t in ("2♥", "2♠2♥", "J♠J♣Q♦Q♥K♠K♦", "6♠6♣6♦6♥"):
        assert tienlen.beats(quad, t), t
    assert not tienlen.beats(quad, "2♠2♥", SOUTH.replace(quad_beats_pair_of_twos=False))
    for t in ("2♥", "2♠2♥", three_ps, quad, "7♠7♣8♦8♥9♠9♣10♦10♥"):
        assert tienlen.beats(four_ps, t), t
    assert not tienlen.beats(quad, four_ps)
    for bomb in (three_ps, quad, four_ps):
        assert not tienlen.beats(bomb, "2♠2♣2♥")
    assert not tienlen.beats("3♠3♣4♦4♥5♠5♦6♠6♣7♦7♥", "2♥")  # 5 đôi thông is not a bomb
    assert tienlen.beats("4♠4♣5♦5♥6♠6♦7♠7♣8♦8♥", "3♠3♣4♦4♥5♠5♦6♠6♣7♦7♥")


def test_north_combinations_and_beating() -> None:
    assert kind("♠4♣4", NORTH) == "pair" and kind("♥A♦A", NORTH) == "pair"
    assert kind("♠4♦4", NORTH) is None
    assert tienlen.beats("♦5♥5", "♦4♥4", NORTH)
    assert not tienlen.beats("♠5♣5", "♦4♥4", NORTH)
    assert tienlen.beats("2♠2♣", "♦A♥A", NORTH)
    for s in ("♣4♣5♣6", "♥6♥7♥8♥9♥10", "♦Q♦K♦A"):
        assert kind(s, NORTH) == "straight"
    assert kind("♥6♠7♥8", NORTH) is None
    assert tienlen.beats("♥J♥Q♥K", "♥8♥9♥10", NORTH)
    assert not tienlen.beats("♠J♠Q♠K", "♥8♥9♥10", NORTH)
    assert tienlen.beats("9♥", "8♥", NORTH) and not tienlen.beats("9♠", "8♥", NORTH)
    assert tienlen.beats("2♠", "A♥", NORTH) and tienlen.beats("2♥", "2♠", NORTH)
    assert tienlen.beats("9♠", "8♥", NORTH.replace(single_follows_suit=False))
    assert tienlen.beats("5♠5♣5♦", "4♠4♣4♥", NORTH)
    follow = NORTH.replace(triple_follows_suits=True)
    assert not tienlen.beats("5♠5♣5♦", "4♠4♣4♥", follow)
    assert tienlen.beats("5♠5♣5♥", "4♠4♣4♥", follow)
    assert kind("3♠3♣4♠4♣5♠5♣", NORTH) is None
    assert tienlen.beats("7♠7♣7♦7♥", "2♥", NORTH)
    assert tienlen.beats("7♠7♣7♦7♥", "2♦2♥", NORTH)
    assert tienlen.beats("8♠8♣8♦8♥", "7♠7♣7♦7♥", NORTH)


@pytest.mark.parametrize(
    "hand, want",
    [
        ("4♦4♥5♦5♥6♠6♥7♣7♥J♠J♦K♠K♣ 3♠", "six_pairs"),
        ("2♠2♣2♦2♥ 3♠4♠6♦8♥10♠Q♦K♥A♠9♣", "four_twos"),
        ("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥", "five_pair_sequence"),
        ("2♠4♠5♠6♠7♠8♠9♠10♠J♠Q♠K♠A♠A♣", "twelve_same_suit"),
        ("3♠3♣3♦3♥5♠5♣5♦5♥ 7♠9♦J♥K♣A♠", "two_quads"),
        ("2♠2♣2♦4♠4♣4♦5♠5♣5♦10♠10♣10♦A♥", "four_triples"),
        ("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦9♣9♦ 2♠", "six_pair_sequence"),
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣ 2♥", "dragon"),
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣2♣ 2♥", None),
    ],
)
def test_instant_win_examples(hand: str, want: str | None) -> None:
    assert tienlen.instant_win(hand) == want


def test_instant_win_options() -> None:
    colour = "3♠3♣4♠5♣6♠7♣8♠9♣10♠J♣Q♠K♣ K♥"
    assert tienlen.instant_win(colour) is None
    assert tienlen.instant_win(colour, SOUTH.replace(same_colour_instant_win=True)) == "same_colour"
    extras = SOUTH.replace(first_hand_extras=True)
    quads3 = "3♠3♣3♦3♥ 5♠7♦9♥J♣K♠A♦2♣6♥8♣"
    assert tienlen.instant_win(quads3, extras) is None
    assert tienlen.instant_win(quads3, extras, first_hand=True) == "four_threes"
    seq = "3♠3♣4♦4♥5♠5♦ 7♦9♥J♣K♠A♦2♣8♣"
    assert tienlen.instant_win(seq, extras, first_hand=True) == "three_pair_sequence_with_3s"
    assert tienlen.instant_win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥", NORTH) is None


def test_rules_presets_and_validation() -> None:
    assert Rules() == SOUTH
    assert NORTH.same_colour_pairs and NORTH.same_suit_straights and not NORTH.pair_sequences
    assert NORTH.bomb_after_pass == "none" and NORTH.finish_on_two == "penalized"
    with pytest.raises(RulesError):
        SOUTH.replace(scoring="ranked")
    with pytest.raises(RulesError):
        SOUTH.replace(ending="ranked")
    with pytest.raises(RulesError):
        NORTH.replace(bomb_after_pass="four_pair_sequence")
    with pytest.raises(RulesError):
        SOUTH.replace(finish_on_two="sometimes")
    with pytest.raises(RulesError):
        SOUTH.replace(colour=True)
    ranked = SOUTH.replace(ending="ranked", scoring="ranked", thoi_to="winner")
    assert Rules.from_dict(ranked.to_dict()) == ranked
    assert pickle.loads(pickle.dumps(ranked)) == ranked
    with pytest.raises(RulesError):
        tienlen.classify("3♠", rules="south")  # type: ignore[arg-type]  # a preset name for Rules: refused at run time


def test_legal_plays_refuses_oversized_hands() -> None:
    from vncards import DECK, InvalidCardError

    with pytest.raises(InvalidCardError):
        tienlen.legal_plays(DECK)
    assert len(tienlen.legal_plays(DECK[:13])) > 0


def test_python_presets_match_the_rust_presets() -> None:
    from vncards._core import SheddingRules

    assert SOUTH.core == SheddingRules.tienlen_south()
    assert NORTH.core == SheddingRules.tienlen_north()
    assert SOUTH.core.hand_size == 13 and (SOUTH.core.min_players, SOUTH.core.max_players) == (2, 4)


def test_batch_and_loop_entry_points() -> None:
    from vncards._core import shedding_count_leads_batch, shedding_legal_plays_loop
    from vncards.cards import to_mask

    hand = to_mask("3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥")
    assert shedding_count_leads_batch([hand, to_mask("3♠ 4♠")], SOUTH.core) == [82, 2]
    assert shedding_legal_plays_loop(hand, None, SOUTH.core, 10) == 820
    assert shedding_legal_plays_loop(hand, "9♠", SOUTH.core, 1) == len(tienlen.legal_plays(hand, "9♠"))


# -- the lazy result of legal_plays and the mask API ---------------------------------------------


def test_legal_plays_is_a_lazy_sequence_equal_to_its_list() -> None:
    plays = tienlen.legal_plays("3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥")
    items = list(plays)
    assert isinstance(plays, collections.abc.Sequence)
    assert len(plays) == len(items) == 82 and plays == items and plays == tuple(items)
    assert plays[0] == items[0] and plays[-1] == items[-1] and plays[5:9] == items[5:9]
    assert items[3] in plays and tienlen.classify("K♠") not in plays
    assert plays.masks == [c.mask for c in items]
    assert pickle.loads(pickle.dumps(plays)) == items
    assert repr(plays) == repr(items)
    with pytest.raises(IndexError):
        plays[82]
    assert tienlen.legal_plays("3♠", "2♥") == [] and not tienlen.legal_plays("3♠", "2♥")


@given(st.integers(0, 2**52 - 1), st.booleans())
def test_legal_play_masks_are_the_masks_of_legal_plays(deck_bits: int, north: bool) -> None:
    hand = 0
    for i in range(52):
        if deck_bits >> i & 1 and hand.bit_count() < 13:
            hand |= 1 << i
    rules = tienlen.Rules.north() if north else None
    for table in (None, "5♦", "7♠7♣", "3♣4♣5♣"):
        masks = tienlen.legal_play_masks(hand, table, rules)
        assert masks.dtype == np.uint64
        assert [int(m) for m in masks] == tienlen.legal_plays(hand, table, rules).masks
