"""Copies a search, an RL framework or a process pool can rely on: copy.copy, copy.deepcopy and
pickle for every game (mid-game; each copy plays on by itself) and for Rng, Card, TuSacCard,
Rules and Arrangement; and no aliasing: what a caller gets never edits the game."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from support.tables import NAMES, midgame, random_step
from vncards import Card, Rng, maubinh, samloc, tienlen, tusac
from vncards.rules import RulesBase
from vncards.table import TableGame

COPIERS: dict[str, Callable[[TableGame], TableGame]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    "clone": lambda g: g.clone(),
}


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize("name", NAMES)
def test_a_copy_mid_game_is_equal_and_plays_on_alone(name: str, how: str) -> None:
    g = midgame(name, seed=7)
    text = g.to_json()
    c: TableGame = COPIERS[how](g)
    assert type(c) is type(g) and c is not g
    assert c.to_json() == text
    # The copy plays to the end; the original has not moved, then plays the same way.
    rng = random.Random(1)
    while random_step(c, rng):
        pass
    assert g.to_json() == text
    rng = random.Random(1)
    while random_step(g, rng):
        pass
    assert g.to_json() == c.to_json() and g.is_over


@pytest.mark.parametrize("name", NAMES)
def test_copies_share_no_lock_and_no_state(name: str) -> None:
    g = midgame(name, seed=8)
    c = copy.deepcopy(g)
    assert c._lock is not g._lock
    assert c._rng is not g._rng and c._rng.position == g._rng.position
    assert c._ints is not g._ints and c._ledger is not g._ledger


def test_rng_copies_draw_the_same_stream_independently() -> None:
    r = Rng(42)
    r.permutation(52)
    for c in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert c is not r and c.key == r.key and c.position == r.position
        assert c.below(1000) == copy.copy(r).below(1000)
    before = r.position
    copy.deepcopy(r).permutation(10)
    assert r.position == before


def test_values_pickle_and_copy() -> None:
    values: list[Any] = [
        Card("10♥"),
        tusac.parse_cards("PW")[0],
        tienlen.Rules.south(),
        tienlen.Rules.north().replace(ending="ranked", scoring="ranked"),
        samloc.Rules(),
        maubinh.Rules(),
        tusac.Rules(),
        maubinh.Arrangement("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠"),
    ]
    for v in values:
        for c in (copy.copy(v), copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
            assert c == v and type(c) is type(v)
            assert hash(c) == hash(v)
            # Rules pickle by their options (RulesBase): the core objects they keep come back.
            for kept in ("core", "flow"):
                if isinstance(v, RulesBase) and hasattr(v, kept):
                    assert getattr(c, kept) == getattr(v, kept)


@pytest.mark.parametrize("name", NAMES)
def test_nothing_returned_aliases_the_game(name: str) -> None:
    """Editing ``events``, ``actions``, ``ledger``, ``to_dict()``, views and event lists in
    place (as a server redacting before a broadcast might) never changes the game."""
    g = midgame(name, seed=9, steps=10)
    rng = random.Random(2)
    for _ in range(500):
        if g.ledger or not random_step(g, rng):
            break
    text = g.to_json()

    def scribble(value: Any) -> None:
        if isinstance(value, dict):
            for k in list(value):
                scribble(value[k])
                value[k] = "x"
            value["x"] = 1
        elif isinstance(value, list):
            for item in value:
                scribble(item)
            value.append("x")

    seat = 0
    for got in (
        g.events,
        g.actions,
        g.ledger,
        g.to_dict(),
        g.view(seat),
        g.public_view(),
        g.events_for(seat),
        g.public_events(),
        g.legal_actions(seat),
    ):
        scribble(got)
        assert g.to_json() == text
