"""Games started from given hands (``vncards.integrations.deals``, no framework needed): the
given seats hold exactly their hands, the rest of the deal is seeded, the game plays on and
its snapshots replay; bad hands of any shape raise a VncardsError."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import VncardsError, games
from vncards.cards import cards_text
from vncards.errors import InvalidCardError, SnapshotError
from vncards.integrations.deals import deal_from_hands, hand_sizes
from vncards.shedding.game import SheddingGame
from vncards.table import TableGame

NAMES = list(games.GAMES)


def dealt(name: str, game: TableGame) -> list[list[str]]:
    """Each seat's dealt cards, sorted (Tứ Sắc: concealed and dealt quằn; shedding games:
    held and played)."""
    state = game.to_dict()["state"]
    if name == "tusac":
        return [
            sorted([*state["hands"][s].split(), *(c for m in state["exposed"][s] for c in m["cards"])])
            for s in range(game.players)
        ]
    masks = [h | p for h, p in zip(state["hands"], state.get("played", [0] * game.players), strict=True)]
    return [sorted(cards_text(m).split()) for m in masks]


@given(
    name=st.sampled_from(NAMES),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    keep=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_given_seats_hold_their_hands_and_the_game_plays_on(
    name: str, players: int, seed: int, keep: list[bool]
) -> None:
    source = games.new_game(name, players=players, seed=seed)
    hands: list[Any] = [" ".join(h) if k else None for h, k in zip(dealt(name, source), keep, strict=False)]
    game = deal_from_hands(name, hands, seed=seed + 1)
    got = dealt(name, game)
    for s, h in enumerate(hands):
        if h is not None:
            assert got[s] == sorted(h.split())
    everything = sorted(c for h in got for c in h)
    assert len(everything) == sum(hand_sizes(name, players))
    if name != "tusac":
        assert len(set(everything)) == len(everything)
    again = deal_from_hands(name, hands, seed=seed + 1)
    assert again.to_dict() == game.to_dict()
    rnd = random.Random(seed)
    while not game.is_over:
        game.apply(rnd.choice(game.legal_actions(game.pending_seats[0])))
    assert sum(game.settlement or [1]) == 0
    assert type(game).from_json(game.to_json()).to_dict() == game.to_dict()


def test_hands_as_lists_and_ascii() -> None:
    game = deal_from_hands(
        "tienlen-north",
        [["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "Ah", "2h"], None],
    )
    assert isinstance(game, SheddingGame)
    assert cards_text(game.hand_mask(0), ascii=True) == "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h"
    tusac = deal_from_hands("tusac", [None, "KR " * 4 + FILL_16 + " AR"], dealer=1)
    state = tusac.to_dict()["state"]
    assert sorted(m["cards"][0] for m in state["exposed"][1]) == ["KR", "PG", "PR", "PW", "PY"]
    assert state["hands"][1] == "AR" and state["to_discard"] == 1 and len(state["hands"][0].split()) == 20


# Sixteen cards of four Chốt kinds, four copies each.
FILL_16 = " ".join(k for k in ("PW", "PR", "PG", "PY") for _ in range(4))

BAD: list[tuple[str, Any, dict[str, Any], type[VncardsError], str]] = [
    ("tienlen", "3♠", {}, SnapshotError, "hands: expected a list"),
    ("tienlen", object(), {}, SnapshotError, "hands: expected a list"),
    ("tienlen", [object(), None], {}, InvalidCardError, "hands[0]: expected a list"),
    ("tienlen", ["3♠"], {}, SnapshotError, "hands: tienlen takes 2–4 hands, not 1"),
    ("tienlen", [None] * 5, {}, SnapshotError, "not 5"),
    ("tienlen", [7, None], {}, InvalidCardError, "hands[0]: a card is text"),
    ("tienlen", [{"a": 1}, None], {}, InvalidCardError, "hands[0]"),
    ("tienlen", [[3, 4], None], {}, InvalidCardError, "hands[0][0]"),
    ("tienlen", ["3♠ 4♠", None], {}, SnapshotError, "hands[0]: tienlen deals 13 cards a seat, not 2"),
    ("samloc", ["x" * 600, None], {}, InvalidCardError, "hands[0]: text longer"),
    ("maubinh", [None, "3♠ 3♠"], {}, InvalidCardError, "hands[1]: duplicate card"),
    ("tienlen", [None, None], {"dealer": 1}, SnapshotError, "dealer: only tusac"),
    ("tusac", [None, None], {"dealer": 2}, SnapshotError, "dealer: a seat 0..1"),
    ("tusac", [None, None], {"dealer": True}, SnapshotError, "dealer"),
    ("tusac", [["KR", 5], None], {}, InvalidCardError, "hands[0]: a card is text"),
    ("tusac", ["KR " * 5 + FILL_16, None], {}, SnapshotError, "hands[0]: the deck holds only 4 KR"),
    (
        "tusac",
        ["KR " * 3 + "AR AR " + FILL_16, "KR KR " + "AW " * 4 + "AG " * 4 + "AY " * 4 + "ER " * 4 + "EW EW"],
        {},
        SnapshotError,
        "hands[1]: the deck holds only 4 KR",
    ),
    (
        "tusac",
        [FILL_16 + " KR KR KR KR", None],
        {},
        SnapshotError,
        "hands[0]: tusac deals 21 cards to the dealer, not 20",
    ),
    ("samloc", [None, None], {"rules": {"nope": 1}}, VncardsError, "nope"),
]


@pytest.mark.parametrize(("name", "hands", "kwargs", "error", "message"), BAD)
def test_bad_hands_raise_a_named_vncards_error(
    name: str, hands: Any, kwargs: dict[str, Any], error: type[VncardsError], message: str
) -> None:
    with pytest.raises(error) as info:
        deal_from_hands(name, hands, **kwargs)
    assert message in str(info.value)


@given(
    st.lists(
        st.one_of(st.none(), st.text(max_size=40), st.lists(st.text(max_size=4), max_size=14)), max_size=5
    )
)
def test_junk_hands_never_crash(hands: list[Any]) -> None:
    for name in ("tienlen", "tusac"):
        with contextlib.suppress(VncardsError):
            deal_from_hands(name, hands)
