"""Per-seat events: ``events_for(seat)`` holds exactly what that seat may know and
``public_events()`` what a spectator may know, in agreement with the views; ``events`` stays the
server's full log. Checked over whole random games of every game."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
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


def blanked(event: dict[str, Any], private: Mapping[str, str], seat: int | None) -> dict[str, Any]:
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


# -- no event tells a seat more than it has seen ---------------------------------------------
#
# Issue 30, item 1: Sâm Lốc's ``bao_mot_violation`` was public the moment the single was played,
# so every seat learnt that the player still held a higher single. The property: deal the cards
# a seat has not seen by some moment (the others' hidden hands, the undealt cards, Tứ Sắc's
# stock) anew, in any way consistent with what it has seen, replay the same actions up to that
# moment, and that seat's events and the public events are the same, event for event and step
# for step. A re-deal is consistent with what the seat has seen when the game accepts it as a
# position (``from_position``) and accepts every action of the log (legality is public: a pass
# that a mandatory claim would forbid tells the table something, by the rules), the same seats
# are pending at every step, and at the moment the seat's view (for a spectator: the public
# view) is the same, including, once the hand is over, what it paid. Each moment is checked with
# two random re-deals and two that give one other seat the lowest, then the highest, hidden
# cards, where a rank-based leak (a higher card still held) shows.

MOMENTS = 8 if slow_profile() else 6
GAMES_PER_OPTIONS = 3 if slow_profile() else 1


def option_sets(name: str) -> list[dict[str, Any]]:
    """The preset, then every other value of every option (an int option: both ends of its
    range), with one other option where that value alone is inconsistent."""
    from vncards import RulesError, games

    schema = games.rules_schema(name)
    out: list[dict[str, Any]] = [{}]
    for o in schema:
        values = o["values"] if o["type"] != "int" else [o["min"], o["max"]]
        for value in values:
            if value == o["default"]:
                continue
            candidates = [{o["name"]: value}] + [
                {o["name"]: value, p["name"]: w}
                for p in schema
                if p["name"] != o["name"] and p["values"]
                for w in p["values"]
                if w != p["default"]
            ]
            for c in candidates:
                try:
                    games.spec(name).rules(c)
                except RulesError:
                    continue
                out.append(c)
                break
    return out


def _policy_step(game: TableGame, rng: random.Random) -> bool:
    """One random legal action, declining Sâm mostly (so that hands are played out)."""
    if game.is_over:
        return False
    seat = rng.choice(game.pending_seats)
    actions = game.legal_actions(seat)
    if game.GAME == "samloc" and any(a["type"] == "decline_sam" for a in actions) and rng.random() < 0.9:
        actions = [a for a in actions if a["type"] == "decline_sam"]
    if game.GAME == "maubinh":
        actions = [a for a in actions if a["type"] != "forfeit"] or actions
    game.apply(rng.choice(actions))
    return True


def _mask_map(mapping: dict[int, int], mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out |= 1 << mapping.get(i, i)
        mask ^= low
    return out


def _unseen_cards(game: TableGame, seat: int | None) -> tuple[list[int], list[list[int]]]:
    """52-card games: the cards ``seat`` has not seen by now, and each other seat's share."""
    state = game.to_dict()["state"]
    if game.is_over:
        return [], []  # the end shows every hand
    seen = 0
    if game.GAME == "maubinh":
        seen = 0 if seat is None else state["hands"][seat]
    else:
        for m in state["played"]:
            seen |= m
        if seat is not None:
            seen |= state["hands"][seat]
    hidden = [i for i in range(52) if not seen >> i & 1]
    shares = [[i for i in range(52) if h >> i & 1 and not seen >> i & 1] for h in state["hands"]]
    return hidden, [x for x in shares if x]


def _orders(hidden: list[Any], share: int | None, rng: random.Random, key: Any = None) -> list[list[Any]]:
    """New orders of ``hidden`` (a re-deal maps ``hidden[i]`` to ``order[i]``): two random,
    then two that put the lowest, then the highest, cards at the ``share`` first places."""
    out = []
    for _ in range(2):
        order = list(hidden)
        rng.shuffle(order)
        out.append(order)
    if share:
        for reverse in (False, True):
            ranked = sorted(hidden, key=key, reverse=reverse)
            rest = ranked[share:]
            rng.shuffle(rest)
            out.append(ranked[:share] + rest)
    return out


def _card_redeals(
    game: TableGame,
    start: dict[str, Any],
    actions: list[dict[str, Any]],
    seat: int | None,
    rng: random.Random,
) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """52-card games: start positions (and the action log) with the unseen cards re-dealt."""
    from vncards._core import mask_to_text
    from vncards.cards import to_mask

    hidden, shares = _unseen_cards(game, seat)
    if not hidden:
        return []
    share = rng.choice(shares) if shares else []
    # Put that share first, so that an extreme order gives it the extreme cards.
    hidden = share + [c for c in hidden if c not in share]
    out = []
    for order in _orders(hidden, len(share), rng):
        mapping = dict(zip(hidden, order, strict=True))
        d = json.loads(json.dumps(start))
        st = d["state"]
        st["hands"] = [_mask_map(mapping, h) for h in st["hands"]]
        if "dealt" in st:
            st["dealt"] = _mask_map(mapping, st["dealt"])
            st["must"] = _mask_map(mapping, st["must"])
        moved = []
        for a in actions:  # Mậu Binh's arrangements name hidden cards
            a = dict(a)
            for key in ("cards", "back", "middle", "front"):
                if isinstance(a.get(key), str):
                    a[key] = mask_to_text(_mask_map(mapping, to_mask(a[key])))
            moved.append(a)
        out.append((d, moved))
    return out


def _tusac_redeals(
    game: TableGame,
    start: dict[str, Any],
    actions: list[dict[str, Any]],
    seat: int | None,
    rng: random.Random,
) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Tứ Sắc: start positions dealing anew what ``seat`` has not seen: the others' concealed
    cards (the winner shows its hand at the end) and the stock not yet turned up."""
    from collections import Counter

    from vncards.tusac.game import CODES

    now = game.to_dict()["state"]
    winner = (now["result"] or {}).get("winner")
    others = [s for s in range(game.players) if s != seat and s != winner]
    concealed = {s: now["hands"][s].split() for s in others}
    left = len(now["stock"])
    holders = [s for s in others if concealed[s]]
    first = rng.choice(holders) if holders else None
    others.sort(key=lambda s: s != first)  # the extreme orders go to that seat's share
    pool = [c for s in others for c in concealed[s]] + start["state"]["stock"][:left]
    out = []
    for order in _orders(pool, len(concealed[first]) if first is not None else None, rng, CODES.index):
        d = json.loads(json.dumps(start))
        it = iter(order)
        for s in others:
            kept = Counter(d["state"]["hands"][s].split()) - Counter(concealed[s])
            hand = [*kept.elements(), *(next(it) for _ in concealed[s])]
            d["state"]["hands"][s] = " ".join(sorted(hand, key=CODES.index))
        d["state"]["stock"] = [next(it) for _ in range(left)] + start["state"]["stock"][left:]
        out.append((d, actions))
    return out


def _replayed(
    cls: type[TableGame], start: dict[str, Any], actions: list[dict[str, Any]], pending: list[list[int]]
) -> tuple[TableGame, list[int]] | None:
    """The re-dealt game after ``actions`` and its event count after each step, or None when
    a step is refused or the pending seats (which every view shows) differ."""
    from vncards import VncardsError

    try:
        game = cls.from_position(start)
        counts = [game._event_count()]
        for a, seats in zip(actions, pending, strict=False):
            if game.pending_seats != seats:
                return None
            game.apply(a)
            counts.append(game._event_count())
    except VncardsError:
        return None
    return (game, counts) if game.pending_seats == pending[len(actions)] else None


def _check_moment(
    game: TableGame, start: dict[str, Any], pending: list[list[int]], counts: list[int], rng: random.Random
) -> int:
    """Every seat (and a spectator) at this moment; the number of re-deals compared."""
    compared = 0
    cls = type(game)
    actions = game.actions
    public, public_view = game.public_events(), game.public_view()
    redeal = _tusac_redeals if game.GAME == "tusac" else _card_redeals
    where = f"{game.GAME} {game.rules.to_dict()} after {len(actions)} actions"
    for seat in (*range(game.players), None):
        mine = public if seat is None else game.events_for(seat)
        view = public_view if seat is None else game.view(seat)
        for d, moved in redeal(game, start, actions, seat, rng):
            replayed = _replayed(cls, d, moved, pending)
            if replayed is None:
                continue
            other, other_counts = replayed
            if (other.public_view() if seat is None else other.view(seat)) != view:
                continue  # the seat would have seen the difference
            compared += 1
            assert other_counts == counts, f"the events' timing tells a hidden card ({where})"
            if seat is not None:
                assert other.events_for(seat) == mine, f"seat {seat} learns a hidden card ({where})"
            assert other.public_events() == public, f"public events tell a hidden card ({where})"
    return compared


@pytest.mark.parametrize("name", NAMES)
def test_redealing_what_a_seat_has_not_seen_never_changes_its_events(name: str) -> None:
    from vncards import games

    compared = 0
    for i, options in enumerate(option_sets(name)):
        for k in range(GAMES_PER_OPTIONS):
            seed = 1000 * i + k
            game = games.new_game(name, players=(2, 3, 4)[seed % 3], rules=options, seed=seed)
            start = game.to_dict()
            rng = random.Random(seed)
            pending, counts = [game.pending_seats], [game._event_count()]
            while _policy_step(game, rng):
                pending.append(game.pending_seats)
                counts.append(game._event_count())
            actions = game.actions
            # The moments: random steps of the hand, and its end.
            steps = len(actions)
            for t in sorted({*rng.sample(range(steps), min(MOMENTS, steps)), steps}):
                at = type(game).from_position(start)
                for a in actions[:t]:
                    at.apply(a)
                compared += _check_moment(at, start, pending[: t + 1], counts[: t + 1], rng)
    assert compared > 10 * len(option_sets(name)), compared
