"""Observation vectors and per-action card features for learning agents.

Everything here is built from what :meth:`~vncards.surface.GameSurface.view` shows one seat
(never another seat's hidden card), with the card rows made in Rust
(``_core.encode_card_rows``): no per-card Python loop. The shedding and Tứ Sắc vectors are
written by the Rust writers the batched environment (:mod:`vncards.vector`) uses too
(``_core.encode_shedding_view``, ``_core.encode_tusac_view``, ``_core.encode_maubinh_view``).

**Observation** (float32, values in ``[0, 1]``), seat-relative (the observing seat first, the
others in turn order after it), for ``P`` seats:

- Tiến Lên / Sâm Lốc (52-card rows): own hand, the cards on the table, the card the next
  play must include, then the cards each seat has played (``P`` rows); then per seat its card
  count / 13, passed, out, to act, owns the table; then Sâm Lốc's phase flag.
- Mậu Binh: own hand, own arrangement (back, middle, front rows); per seat arranged,
  confirmed, to act; own arrangement fouled.
- Tứ Sắc (28-kind rows of counts / 4): own hand, the dead pile, the offered card, then the
  cards each seat has exposed (``P`` rows); per seat its card count / 28, to act, offered by;
  the stock / 100; the phase (discard or claim).

**Action features** (uint8, one row per legal action in ``legal_actions(seat)`` order): the
cards the action puts down: ``(n, 52)`` for Tiến Lên and Sâm Lốc (a pass is a zero row),
``(n, 28)`` counts for Tứ Sắc, ``(n, 3, 52)`` (back, middle, front) for Mậu Binh's ranked
arrangements.

>>> from vncards import games
>>> game = games.new_game("tienlen", seed=7)
>>> seat = game.pending_seats[0]
>>> obs = observation(game.view(seat), 4)
>>> obs.dtype, obs.shape == (observation_size("tienlen", 4),)
(dtype('float32'), True)
>>> int(obs[:52].sum())
13
>>> feats = action_cards("tienlen", game.legal_actions(seat))
>>> feats.shape[1], int(feats[0].sum())
(52, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..bots.view_parts import seat_bits as _bits
from ..bots.view_parts import seat_order as _order
from ..bots.view_parts import shedding_parts, tusac_parts

__all__ = ["DECKS", "observation", "observation_size", "action_cards", "card_rows"]

#: The deck of each game: ``"52"`` (French, Card.index) or ``"tusac"`` (28 kinds, 4 copies).
DECKS = {"tienlen": "52", "tienlen-north": "52", "samloc": "52", "maubinh": "52", "tusac": "tusac"}

_WIDTH = {"52": 52, "tusac": 28}


def card_rows(groups: Sequence[Any], deck: str = "52") -> npt.NDArray[np.uint8]:
    """``_core.encode_card_rows``: one uint8 count row per group of card texts."""
    return _core.encode_card_rows(groups, deck)


def _shedding(view: Mapping[str, Any], order: list[int]) -> npt.NDArray[np.float32]:
    # The Rust writer the vector environment uses too (``_core.encode_shedding_view``).
    obs: npt.NDArray[np.float32] = _core.encode_shedding_view(*shedding_parts(view, len(order)))
    return obs


def _maubinh(view: Mapping[str, Any], order: list[int]) -> npt.NDArray[np.float32]:
    # The Rust writer the vector environment uses too (``_core.encode_maubinh_view``).
    arrangement = view["arrangement"] or [None, None, None]
    obs: npt.NDArray[np.float32] = _core.encode_maubinh_view(
        [view["hand"], *arrangement],
        len(order),
        _bits([s for s in order if view["arranged"][s]], order),
        _bits([s for s in order if view["confirmed"][s]], order),
        _bits(view["pending_seats"], order),
        bool(view["fouled"]),
    )
    return obs


def _tusac(view: Mapping[str, Any], order: list[int]) -> npt.NDArray[np.float32]:
    # The Rust writer the vector environment uses too (``_core.encode_tusac_view``).
    obs: npt.NDArray[np.float32] = _core.encode_tusac_view(*tusac_parts(view, len(order)))
    return obs


_OBSERVERS = {"52": _shedding, "maubinh": _maubinh, "tusac": _tusac}


def observation(view: Mapping[str, Any], players: int) -> npt.NDArray[np.float32]:
    """The float32 observation vector of ``view`` (one seat's :meth:`view`), ``players`` seats."""
    name = str(view["game"])
    order = _order(int(view["seat"]), players)
    encode = _OBSERVERS.get(name, _shedding)
    return encode(view, order)


def observation_size(game: str, players: int) -> int:
    """The length of :func:`observation` for ``game`` (a variant name) with ``players`` seats."""
    if game == "maubinh":
        return 4 * 52 + 3 * players + 1
    if game == "tusac":
        return (3 + players) * 28 + 3 * players + 2
    return (3 + players) * 52 + 5 * players + (1 if game == "samloc" else 0)


def _action_groups(actions: Sequence[Mapping[str, Any]]) -> list[Any]:
    return [a.get("cards", a.get("card")) for a in actions]


def action_cards(game: str, actions: Sequence[Mapping[str, Any]]) -> npt.NDArray[np.uint8]:
    """Per-action card features of ``actions`` (a seat's legal-action list) for ``game``."""
    if game == "maubinh":
        groups = [g for a in actions for g in (a.get("back"), a.get("middle"), a.get("front"))]
        return card_rows(groups).reshape(len(actions), 3, 52)
    return card_rows(_action_groups(actions), DECKS[game])
