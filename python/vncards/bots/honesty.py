"""Honest by construction: a bot must decide from what its seat may know, so re-dealing the
cards the seat cannot see may not change its decision.

:func:`redeal` gives the same table with the other seats' hidden cards (and the undealt cards,
and Tứ Sắc's stock) dealt again at random: the seat's view and events are exactly as before.
:func:`decides_honestly` plays a bot on a position and on re-deals of it and compares the
decisions (each from a fresh bot with the same seed, budgeted in rollouts so that a decision
is a pure function of what the seat knows): a bot that peeks at hidden cards gives itself
away, as the ``cheating`` bot does.

>>> from vncards.bots import make_bot
>>> from vncards.games import new_game
>>> game = new_game("tienlen", seed=5)
>>> other = redeal(game, 0, seed=1)
>>> other.view(0) == game.view(0), other.hand(1) != game.hand(1)
(True, True)
>>> decides_honestly(lambda: make_bot("hard", "tienlen", seed=3), game, game.pending_seats[0], redeals=3)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .._core import TuSacCard, mask_to_text, tusac_pack, tusac_rac_kinds
from ..errors import SnapshotError
from .base import Bot, decide

__all__ = ["redeal", "decides_honestly"]

_DECK = (1 << 52) - 1


def _bits(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def _shedding(state: dict[str, Any], seat: int, rng: random.Random) -> None:
    hands: list[int] = state["hands"]
    others = [s for s in range(len(hands)) if s != seat]
    undealt = _DECK & ~state["dealt"]
    pool = undealt
    for s in others:
        pool |= hands[s]
    cards = _bits(pool)
    rng.shuffle(cards)
    for s in others:
        n = hands[s].bit_count()
        hands[s] = sum(1 << c for c in cards[:n])
        cards = cards[n:]
    state["dealt"] = _DECK & ~sum(1 << c for c in cards)


def _maubinh(state: dict[str, Any], seat: int, rng: random.Random, rules: Any) -> None:
    from ..maubinh import best_arrangement

    hands: list[int] = state["hands"]
    others = [s for s in range(len(hands)) if s != seat]
    cards = [c for s in others for c in _bits(hands[s])]
    rng.shuffle(cards)
    for i, s in enumerate(others):
        hands[s] = sum(1 << c for c in cards[13 * i : 13 * i + 13])
        if state["arrangements"][s] is not None:
            state["arrangements"][s] = list(best_arrangement(mask_to_text(hands[s]), rules).masks)


def _tusac(state: dict[str, Any], seat: int, rng: random.Random, rules: Any) -> None:
    hands: list[str] = state["hands"]
    answered = {s for s, r in enumerate(state["responses"]) if r is not None and r.get("type") != "pass"}
    others = [s for s in range(len(hands)) if s != seat and s not in answered]
    pool = [c for s in others for c in hands[s].split()] + list(state["stock"])
    rng.shuffle(pool)
    for s in others:
        n = len(hands[s].split())
        hands[s] = " ".join(sorted(pool[:n], key=lambda c: TuSacCard(c).index))
        pool = pool[n:]
    state["stock"] = pool
    offer = state.get("offer")
    if offer is not None and offer["source"] == "discard":
        k = TuSacCard(offer["card"]).index
        before = tusac_pack(hands[offer["seat"]] + " " + offer["card"])
        offer["penalty"] = rules.discard_rule == "penalize" and k not in tusac_rac_kinds(before)


def redeal(game: Any, seat: int, seed: int | None = None, *, attempts: int = 100) -> Any:
    """A copy of ``game`` whose hidden cards, except ``seat``'s, are dealt again at random,
    consistently with everything ``seat`` has seen (its view and events are unchanged). A
    re-deal the game refuses (say, a Tứ Sắc seat that passed now holding a mandatory claim)
    is drawn again, up to ``attempts`` times."""
    rng = random.Random(seed)
    data = game.to_dict()
    name = data["game"]
    last: Exception | None = None
    for _ in range(attempts):
        d = {**data, "state": _copy(data["state"])}
        if name == "maubinh":
            _maubinh(d["state"], seat, rng, game.rules)
        elif name == "tusac":
            _tusac(d["state"], seat, rng, game.rules)
            if any(any(c == 4 for c in _counts(h).values()) for h in d["state"]["hands"]):
                continue  # a hidden quằn would have been laid down at the deal
        else:
            _shedding(d["state"], seat, rng)
        try:
            other = type(game).from_position(d)
        except SnapshotError as e:
            last = e
            continue
        if other.view(seat) == game.view(seat) and other.events_for(seat) == game.events_for(seat):
            return other
    raise RuntimeError(f"no consistent re-deal of {name} in {attempts} attempts ({last})")


def _counts(hand: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in hand.split():
        out[c] = out.get(c, 0) + 1
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def decides_honestly(
    make: Callable[[], Bot], game: Any, seat: int, *, redeals: int = 4, seed: int = 0
) -> bool:
    """Does a bot from ``make()`` take the same action for ``seat`` on ``game`` and on
    ``redeals`` re-deals of it (a fresh bot each time)? The bot should be budgeted in rollouts
    (not ``think_ms``), so that its decisions are reproducible."""
    want = decide(make(), game, seat)
    return all(decide(make(), redeal(game, seat, seed + i), seat) == want for i in range(redeals))
