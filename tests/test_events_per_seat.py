"""Per-seat events: ``events_for(seat)`` holds exactly what that seat may know and
``public_events()`` what a spectator may know, in agreement with the views; ``events`` stays the
server's full log. Checked over whole random games of every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import slow_profile
from support.tables import FACTORIES, NAMES, random_step
from vncards import Card, IllegalMoveError
from vncards.table import TableGame
from vncards.tusac.game import CODES

CARD_TEXTS = {str(Card(i)) for i in range(52)} | set(CODES)
GAMES_PER_KIND = 40 if slow_profile() else 4


def card_tokens(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value (card texts inside strings and lists)."""
    if isinstance(value, dict):
        return set().union(*(card_tokens(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_tokens(v) for v in value)) if value else set()
    if isinstance(value, str):
        return {t for t in value.split() if t in CARD_TEXTS}
    return set()


def blanked(event: dict[str, Any], private: dict[str, str], seat: int | None) -> dict[str, Any]:
    out = dict(event)
    for name, owner in private.items():
        if name in out and out.get(owner) != seat:
            out[name] = "" if isinstance(out[name], str) else [] if isinstance(out[name], list) else None
    return out


@pytest.mark.parametrize("name", NAMES)
def test_events_for_a_seat_name_no_card_its_views_do_not_show(name: str) -> None:
    for seed in range(GAMES_PER_KIND):
        game: TableGame = FACTORIES[name](seed)
        rng = random.Random(seed)
        n = game.players
        seen = [card_tokens(game.view(s)) for s in range(n)]
        seen_public = card_tokens(game.public_view())
        while True:
            for s in range(n):
                seen[s] |= card_tokens(game.view(s))
                assert card_tokens(game.events_for(s)) <= seen[s], f"seat {s} learns more from events"
            seen_public |= card_tokens(game.public_view())
            assert card_tokens(game.public_events()) <= seen_public
            if not random_step(game, rng):
                break


@pytest.mark.parametrize("name", NAMES)
def test_per_seat_events_are_the_full_log_with_private_fields_blanked(name: str) -> None:
    game: TableGame = FACTORIES[name](3)
    rng = random.Random(3)
    private = type(game).PRIVATE_FIELDS
    while random_step(game, rng):
        pass
    full = game.events
    assert full == game.to_dict()["events"]
    for seat in (*range(game.players), None):
        mine = game.public_events() if seat is None else game.events_for(seat)
        assert len(mine) == len(full)
        for a, b in zip(full, mine, strict=True):
            assert b == blanked(a, private.get(a["type"], {}), seat)


def test_the_lead_requirement_is_the_leaders_alone() -> None:
    """The issue's leak: the first lead's ``must_include`` (the lowest card dealt, 3♠ with four
    players) is public in ``events`` but only the leader's in ``events_for`` and views."""
    from vncards import tienlen

    game = tienlen.Game(players=3, seed=5)
    lead = next(e for e in game.events if e["type"] == "lead")
    leader = lead["seat"]
    assert lead["must_include"]
    for s in range(3):
        mine = next(e for e in game.events_for(s) if e["type"] == "lead")
        view = game.view(s)["must_include"]
        if s == leader:
            assert mine["must_include"] == lead["must_include"] == " ".join(view)
        else:
            assert mine["must_include"] == "" and view == []
    assert next(e for e in game.public_events() if e["type"] == "lead")["must_include"] == ""
    with pytest.raises(IllegalMoveError):
        game.events_for(3)
