"""Reading ledgers: a ledger is a list of ``{"from", "to", "units", "reason"}`` entries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def net_totals(ledger: Iterable[Mapping[str, Any]], players: int) -> list[int]:
    """Each seat's net units over the ledger: what it received less what it paid."""
    totals = [0] * players
    for e in ledger:
        totals[e["from"]] -= e["units"]
        totals[e["to"]] += e["units"]
    return totals
