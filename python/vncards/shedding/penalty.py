"""Penalties for cards left in hand (thối) and the value of what a bomb cut (chặt).

A game gives a :class:`PenaltyTable` (units per item; 0 = that item is not penalised) and
whether each plain card left counts 1 unit (``card_units``). :func:`penalty_items` splits a hand
into the penalised items that make the payment largest: a tứ quý of 2s, for instance, is worth
more as four 2s when 2s are dear.

>>> from vncards.cards import to_mask
>>> table = PenaltyTable(black_two=3, red_two=6, three_pair_sequence=9, four_of_a_kind=12,
...                      four_pair_sequence=18)
>>> [(name, units) for name, _, units in penalty_items(to_mask("2♠ 2♥ 5♠5♣5♦5♥ 9♦"), table)]
[('four_of_a_kind', 12), ('black_two', 3), ('red_two', 6)]
>>> hand_units(to_mask("2♠ 2♥ 5♠5♣5♦5♥ 9♦"), table, card_units=1)
22
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .._core import shedding_cut_value, shedding_penalty_items, shedding_twos_value

__all__ = ["TWOS_MASK", "PenaltyTable", "hand_units", "penalty_items"]

#: The four 2s (rank 12) as a card mask.
TWOS_MASK = 0xF << 48


@dataclass(frozen=True)
class PenaltyTable:
    """Units of each penalised item (0: not an item in this game)."""

    black_two: int = 0
    red_two: int = 0
    three_pair_sequence: int = 0
    four_of_a_kind: int = 0
    four_pair_sequence: int = 0

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        """The units in field order, as the Rust core takes them."""
        return dataclasses.astuple(self)

    def cut_value(self, mask: int, kind: str) -> int:
        """What a cut play is worth: its 2s one by one, or the bomb's item value."""
        return shedding_cut_value(mask, kind, self.as_tuple())

    def twos_value(self, mask: int) -> int:
        """The value of the 2s among ``mask``, one by one."""
        return shedding_twos_value(mask, self.as_tuple())


def penalty_items(mask: int, table: PenaltyTable, card_units: int = 1) -> list[tuple[str, int, int]]:
    """The penalised items of a hand as ``(name, card_mask, units)``, chosen to maximise the
    payment, where each plain card is worth ``card_units`` (1 when cards left are counted, 0
    when only items are paid). Tứ quý are tried in every combination, then each run of pairs
    is split into the dearest 3- and 4-pair đôi thông, then the 2s (the Rust core's
    ``shedding::penalty``, which the games' settlements use)."""
    return shedding_penalty_items(mask, table.as_tuple(), card_units)


def hand_units(mask: int, table: PenaltyTable, card_units: int = 1) -> int:
    """Total units a hand left is worth: plain cards at ``card_units`` plus its items."""
    items = penalty_items(mask, table, card_units)
    covered = 0
    for _, m, _ in items:
        covered |= m
    return (mask & ~covered).bit_count() * card_units + sum(u for _, _, u in items)
