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

from dataclasses import dataclass
from itertools import combinations

__all__ = ["TWOS_MASK", "PenaltyTable", "hand_units", "penalty_items"]

#: The four 2s (rank 12) as a card mask.
TWOS_MASK = 0xF << 48
_RED_TWOS = 0xC << 48


@dataclass(frozen=True)
class PenaltyTable:
    """Units of each penalised item (0: not an item in this game)."""

    black_two: int = 0
    red_two: int = 0
    three_pair_sequence: int = 0
    four_of_a_kind: int = 0
    four_pair_sequence: int = 0

    def cut_value(self, mask: int, kind: str) -> int:
        """What a cut play is worth: its 2s one by one, or the bomb's item value."""
        if kind == "four_of_a_kind":
            return self.four_of_a_kind
        if kind == "pair_sequence":
            pairs = mask.bit_count() // 2
            return self.three_pair_sequence if pairs == 3 else self.four_pair_sequence
        return self.twos_value(mask)

    def twos_value(self, mask: int) -> int:
        """The value of the 2s among ``mask``, one by one."""
        red = (mask & _RED_TWOS).bit_count()
        return red * self.red_two + ((mask & TWOS_MASK).bit_count() - red) * self.black_two


def _nibble(mask: int, rank: int) -> int:
    return (mask >> (rank * 4)) & 0xF


def _pair_runs(mask: int) -> list[list[int]]:
    """Maximal runs of consecutive ranks below 2 held at least twice."""
    runs: list[list[int]] = []
    run: list[int] = []
    for r in range(12):
        if _nibble(mask, r).bit_count() >= 2:
            run.append(r)
        else:
            if run:
                runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def _lowest_two(mask: int, rank: int) -> int:
    nib = _nibble(mask, rank)
    low = nib & -nib
    nib ^= low
    return (low | (nib & -nib)) << (rank * 4)


def _split_run(run: list[int], mask: int, table: PenaltyTable, card_units: int
               ) -> tuple[int, list[tuple[str, int, int]]]:
    """Best split of a run of pairs into 3- and 4-pair đôi thông (dynamic programming)."""
    pieces = [(3, "three_pair_sequence", table.three_pair_sequence),
              (4, "four_pair_sequence", table.four_pair_sequence)]
    best: list[tuple[int, list[tuple[str, int, int]]]] = [(0, [])]
    for i in range(1, len(run) + 1):
        cand = best[i - 1]
        for size, name, units in pieces:
            gain = units - 2 * size * card_units
            if units and i >= size and best[i - size][0] + gain > cand[0]:
                items_mask = 0
                for r in run[i - size:i]:
                    items_mask |= _lowest_two(mask, r)
                cand = (best[i - size][0] + gain, best[i - size][1] + [(name, items_mask, units)])
        best.append(cand)
    return best[-1]


def penalty_items(mask: int, table: PenaltyTable, card_units: int = 1
                  ) -> list[tuple[str, int, int]]:
    """The penalised items of a hand as ``(name, card_mask, units)``, chosen to maximise the
    payment, where each plain card is worth ``card_units`` (1 when cards left are counted, 0
    when only items are paid)."""
    quads = [r for r in range(13) if _nibble(mask, r) == 0xF] if table.four_of_a_kind else []
    best: tuple[int, list[tuple[str, int, int]]] = (-1, [])
    for n in range(len(quads) + 1):
        for chosen in combinations(quads, n):
            items: list[tuple[str, int, int]] = []
            gain = 0
            rest = mask
            for r in chosen:
                items.append(("four_of_a_kind", 0xF << (r * 4), table.four_of_a_kind))
                gain += table.four_of_a_kind - 4 * card_units
                rest &= ~(0xF << (r * 4))
            if table.three_pair_sequence or table.four_pair_sequence:
                for run in _pair_runs(rest):
                    g, run_items = _split_run(run, rest, table, card_units)
                    gain += g
                    items += run_items
            for bit_index in range(48, 52):
                if rest >> bit_index & 1:
                    units = table.red_two if bit_index >= 50 else table.black_two
                    if units:
                        items.append(("red_two" if bit_index >= 50 else "black_two",
                                      1 << bit_index, units))
                        gain += units - card_units
            if gain > best[0]:
                best = (gain, items)
    return best[1]


def hand_units(mask: int, table: PenaltyTable, card_units: int = 1) -> int:
    """Total units a hand left is worth: plain cards at ``card_units`` plus its items."""
    items = penalty_items(mask, table, card_units)
    covered = 0
    for _, m, _ in items:
        covered |= m
    return (mask & ~covered).bit_count() * card_units + sum(u for _, _, u in items)
