"""The settlement ledger: itemised payments whose per-seat sums are the settlement.

Every payment moves units from one seat to another, so the settlement always sums to zero.

>>> ledger = Ledger(3)
>>> ledger.pay(1, 0, 7, "cards_left")
>>> ledger.pay(2, 0, 26, "cong")
>>> ledger.totals()
[33, -7, -26]
>>> ledger.entries[0]
{'from': 1, 'to': 0, 'units': 7, 'reason': 'cards_left'}
"""

from __future__ import annotations

from typing import Any

from .errors import SnapshotError

__all__ = ["Ledger", "MAX_UNITS"]

#: The most units one restored ledger entry may carry (the largest payment of any game is a
#: few hundred units): keeps every total a 64-bit int, as the event log stores it.
MAX_UNITS = 10**9


class Ledger:
    """Append-only list of ``{"from", "to", "units", "reason"}`` payments between seats (kept
    as ``(from, to, units, reason)`` tuples: a third of the dicts' memory)."""

    __slots__ = ("_players", "_entries")

    def __init__(self, players: int) -> None:
        self._players = players
        self._entries: list[tuple[int, int, int, str]] = []

    def pay(self, payer: int, payee: int, units: int, reason: str) -> None:
        """Record that ``payer`` pays ``payee`` ``units`` (> 0) for ``reason``; 0 is skipped."""
        if isinstance(units, bool) or not isinstance(units, int) or units < 0:
            raise ValueError(f"units must be a non-negative int, not {units!r}")
        if not (0 <= payer < self._players and 0 <= payee < self._players) or payer == payee:
            raise ValueError(f"bad payment seats {payer} -> {payee}")
        if units:
            self._entries.append((payer, payee, units, reason))

    @property
    def entries(self) -> list[dict[str, Any]]:
        """A copy of the itemised payments, in the order they were recorded."""
        return [{"from": a, "to": b, "units": u, "reason": r} for a, b, u, r in self._entries]

    def totals(self, start: int = 0) -> list[int]:
        """Net units per seat (positive = won) of the payments from entry ``start`` on (all by
        default); sums to zero."""
        out = [0] * self._players
        for payer, payee, units, _ in self._entries[start:]:
            out[payer] -= units
            out[payee] += units
        return out

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def from_entries(cls, players: int, entries: Any) -> Ledger:
        """A ledger restored from ``entries``; anything malformed raises SnapshotError."""
        ledger = cls(players)
        if not isinstance(entries, list):
            raise SnapshotError("ledger must be a list")
        for i, e in enumerate(entries):
            if not isinstance(e, dict) or set(e) != {"from", "to", "units", "reason"}:
                raise SnapshotError(f"ledger entry {i} must have keys from, to, units, reason")
            if not isinstance(e["reason"], str):
                raise SnapshotError(f"ledger entry {i}: reason must be a string")
            for key in ("from", "to", "units"):
                if isinstance(e[key], bool) or not isinstance(e[key], int):
                    raise SnapshotError(f"ledger entry {i}: {key} must be an int")
            if not 0 < e["units"] <= MAX_UNITS:
                raise SnapshotError(f"ledger entry {i}: units must be in 1..{MAX_UNITS}")
            try:
                ledger.pay(e["from"], e["to"], e["units"], e["reason"])
            except ValueError as err:
                raise SnapshotError(f"ledger entry {i}: {err}") from None
        return ledger
