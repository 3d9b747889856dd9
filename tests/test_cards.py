"""Cards: every accepted text form, round-trips, errors, card arguments."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import vncards
from vncards import Card, InvalidCardError, parse_card, parse_cards
from vncards.cards import DECK, cards_text, from_mask, to_mask

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["♠", "♣", "♦", "♥"]
LETTERS = ["s", "c", "d", "h"]


def text_forms(rank: str, suit_i: int) -> list[str]:
    s, letter = SUITS[suit_i], LETTERS[suit_i]
    ranks = [rank, rank.lower()] + (["T", "t"] if rank == "10" else [])
    forms = []
    for r in ranks:
        forms += [
            f"{r}{s}",
            f"{s}{r}",
            f"{r}{letter}",
            f"{r}{letter.upper()}",
            f"{letter}{r}",
            f"{letter.upper()}{r}",
        ]
    return forms


@pytest.mark.parametrize("index", range(52))
def test_every_text_form_is_the_same_card(index: int) -> None:
    card = Card(index)
    forms = text_forms(RANKS[index // 4], index % 4)
    for form in forms:
        assert parse_card(form) == card, form
        assert Card(form) == card
        assert hash(Card(form)) == hash(card)
    assert parse_card(str(card)) == card
    assert parse_card(card.ascii) == card
    assert card.rank == RANKS[index // 4] and card.suit == SUITS[index % 4]
    assert card.index == index


def test_order_and_examples_from_rules() -> None:
    assert Card("3♠").index == 0 and Card("3♣").index == 1 and Card("2♥").index == 51
    assert max(DECK) == Card("2♥") and min(DECK) == Card("3♠")
    assert Card("10♠") > Card("9♥")
    assert sorted(DECK) == list(DECK)
    assert Card("Th").ascii == "Th" and str(Card("Th")) == "10♥"


@pytest.mark.parametrize(
    "text",
    ["♠4♣4", "4s4c", "4♠ 4♣", "4♠,4♣", "  4S , 4C ", "s4c4", "♠4 4c", "4♠;4♣"],
)
def test_separators_or_none(text: str) -> None:
    assert parse_cards(text) == [Card("4♠"), Card("4♣")]


def test_seed_examples_parse() -> None:
    hand = parse_cards("2♠4♠5♠6♠7♠8♠9♠10♠J♠Q♠K♠A♠A♣")
    assert len(hand) == 13
    assert parse_cards("♥J♥Q♠K") == [Card("J♥"), Card("Q♥"), Card("K♠")]


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("3♠ 1♥", "1♥", 3),
        ("3♠ 4x", "4x", 3),
        ("Z♠", "Z♠", 0),
        ("3♠ ♠", "♠", 3),
        ("3♠ 4♦ ♠3", "3♠", 6),  # duplicate
        ("11♠", "11♠", 0),
        ("3♠,,4♠", ",", 3),  # an empty token between separators
        (", 3♠", ",", 0),
        ("3♠ 4♠;", ";", 5),
    ],
)
def test_bad_text_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert info.value.token == token
    assert info.value.position == position
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["", " ", "3♠4♠", "♠", "10"])
def test_parse_card_wants_exactly_one(text: str) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(text)


def test_card_constructor_errors() -> None:
    with pytest.raises(InvalidCardError):
        Card(52)
    with pytest.raises(InvalidCardError):
        Card(-1)
    with pytest.raises(TypeError):
        Card(1.5)  # type: ignore[arg-type]  # not a card: refused at run time


def test_card_is_frozen_hashable_picklable() -> None:
    c = Card("Q♦")
    with pytest.raises(AttributeError):
        c.index = 3  # type: ignore[misc]  # Card is frozen: the assignment must fail
    assert {c: 1}[Card("dq")] == 1
    assert pickle.loads(pickle.dumps(c)) == c
    assert repr(c) == "Card('Q♦')"


def test_card_arguments_accept_text_cards_and_iterables() -> None:
    want = to_mask("3♠ 4♦ ♥5")
    assert to_mask(["3♠", "4♦", "♥5"]) == want
    assert to_mask([Card("3♠"), "4d", Card("5h")]) == want
    assert to_mask(Card("3♠")) == 1
    assert from_mask(want) == [Card("3♠"), Card("4♦"), Card("5♥")]
    assert cards_text(want) == "3♠ 4♦ 5♥" and cards_text(want, ascii=True) == "3s 4d 5h"
    with pytest.raises(InvalidCardError) as info:
        to_mask(["3♠", "3s"])
    assert info.value.position == 1
    with pytest.raises(InvalidCardError):
        to_mask(["3♠", "bad"])
    with pytest.raises(TypeError):
        to_mask([3])  # type: ignore[list-item]  # an int for a card: refused at run time
    with pytest.raises(InvalidCardError):
        from_mask(1 << 52)


@given(st.permutations(range(52)), st.integers(0, 52), st.sampled_from([" ", ",", ""]), st.booleans())
def test_format_parse_round_trip(order: list[int], n: int, sep: str, ascii: bool) -> None:
    cards = [Card(i) for i in order[:n]]
    text = sep.join(c.ascii if ascii else str(c) for c in cards)
    assert parse_cards(text) == cards


@given(
    st.text(alphabet=st.sampled_from(list("0123456789TJQKAtjqka♠♣♦♥♤♧♢♡sSCcdDhH ,;xZ1é\n")), max_size=40)
    | st.text(max_size=20)
)
def test_arbitrary_text_parses_or_raises_invalid_card(text: str) -> None:
    try:
        cards = parse_cards(text)
    except InvalidCardError as e:
        assert isinstance(e.position, int) and 0 <= e.position <= len(text)
        assert isinstance(e.token, str)
    else:
        assert len(set(cards)) == len(cards)


def test_version() -> None:
    assert isinstance(vncards.__version__, str) and vncards.__version__.count(".") == 2
