"""Every action open now at a table, over all its pending seats (tests only: a server asks
``legal_actions(seat)`` for one seat, since a seat's options are private)."""

from __future__ import annotations

from typing import Any


def open_actions(game: Any) -> list[dict[str, Any]]:
    return [a for seat in game.pending_seats for a in game.legal_actions(seat)]
