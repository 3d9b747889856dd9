"""The parts of one seat's view that the Rust observation writers take, seat-relative (the
observing seat first, the others in turn order), with no numpy: what
:mod:`vncards.integrations.encoding` encodes into arrays and what the learned policy
(:mod:`vncards.bots.policy`) hands to the Rust core at play time.

>>> from vncards import games
>>> game = games.new_game("tienlen", seed=7)
>>> groups, counts, passed, out, to_act, owner, playing = shedding_parts(game.view(2), 4)
>>> len(groups), counts, to_act, playing
(7, [13, 13, 13, 13], 1, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["seat_order", "seat_bits", "shedding_parts", "tusac_parts", "SheddingParts", "TuSacParts"]

#: ``shedding_parts``: groups, counts, then the seat bits passed, out, to_act, owner, and
#: ``playing`` (Sâm Lốc: in the play phase; None in Tiến Lên). Its length is fixed so that
#: ``encode_shedding_view(*parts)`` and ``PolicyNet.scores_shedding(*parts, actions)`` type-check.
SheddingParts = tuple[list[Any], list[int], int, int, int, int, bool | None]
#: ``tusac_parts``: groups, counts, the seat bits pending and offered_by, the stock, claim.
TuSacParts = tuple[list[Any], list[int], int, int, int, bool]


def seat_order(seat: int, players: int) -> list[int]:
    """Seats from ``seat`` on, in turn order."""
    return [(seat + i) % players for i in range(players)]


def seat_bits(seats: Any, order: list[int]) -> int:
    """``seats`` as a seat-relative bit set (bit k: the k-th seat of ``order``)."""
    chosen = set(seats or ())
    return sum(1 << k for k, s in enumerate(order) if s in chosen)


def shedding_parts(view: Mapping[str, Any], players: int) -> SheddingParts:
    """The arguments of ``_core.encode_shedding_view`` for a Tiến Lên or Sâm Lốc ``view``."""
    order = seat_order(int(view["seat"]), players)
    table = view["table"]
    groups = [view["hand"], None if table is None else table["cards"], view["must_include"]]
    counts = view["hand_counts"]
    return (
        groups + [view["played"][s] for s in order],
        [counts[s] for s in order],
        seat_bits(view["passed"], order),
        seat_bits(view["out"], order),
        seat_bits(view["pending_seats"], order),
        seat_bits([] if table is None else [table["seat"]], order),
        view.get("phase") == "play" if view["game"] == "samloc" else None,
    )


def tusac_parts(view: Mapping[str, Any], players: int) -> TuSacParts:
    """The arguments of ``_core.encode_tusac_view`` for a Tứ Sắc ``view``."""
    order = seat_order(int(view["seat"]), players)
    offer = view["offer"]
    exposed = [[m["cards"] for m in view["exposed"][s]] for s in order]  # one row per seat
    counts = view["hand_counts"]
    return (
        [view["hand"], view["dead"], None if offer is None else offer["card"], *exposed],
        [counts[s] for s in order],
        seat_bits(view["pending_seats"], order),
        seat_bits([] if offer is None else [offer["seat"]], order),
        view["stock"],
        view["phase"] == "claim",
    )
