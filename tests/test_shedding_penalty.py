"""Thối and chặt values (``vncards.shedding.penalty``, computed in Rust) against an oracle
written here: the search of every tứ quý subset and every split of each run of pairs into 3-
and 4-pair đôi thông, as the games paid before the settlement moved to the Rust flow."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from vncards.samloc.rules import PENALTIES
from vncards.shedding import PenaltyTable, hand_units, penalty_items

COUNT = PenaltyTable(black_two=3, red_two=6, three_pair_sequence=9, four_of_a_kind=12, four_pair_sequence=18)
RANKED = PenaltyTable(black_two=1, red_two=2, three_pair_sequence=3, four_of_a_kind=4, four_pair_sequence=6)
NORTH = PenaltyTable(black_two=3, red_two=6, four_of_a_kind=12)
TABLES = [COUNT, RANKED, NORTH, PENALTIES]


def _nibble(mask: int, rank: int) -> int:
    return (mask >> (rank * 4)) & 0xF


def _pair_runs(mask: int) -> list[list[int]]:
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


def _split_run(
    run: list[int], mask: int, table: PenaltyTable, cu: int
) -> tuple[int, list[tuple[str, int, int]]]:
    pieces = [
        (3, "three_pair_sequence", table.three_pair_sequence),
        (4, "four_pair_sequence", table.four_pair_sequence),
    ]
    best: list[tuple[int, list[tuple[str, int, int]]]] = [(0, [])]
    for i in range(1, len(run) + 1):
        cand = best[i - 1]
        for size, name, units in pieces:
            gain = units - 2 * size * cu
            if units and i >= size and best[i - size][0] + gain > cand[0]:
                items_mask = 0
                for r in run[i - size : i]:
                    items_mask |= _lowest_two(mask, r)
                cand = (best[i - size][0] + gain, [*best[i - size][1], (name, items_mask, units)])
        best.append(cand)
    return best[-1]


def oracle(mask: int, table: PenaltyTable, cu: int) -> list[tuple[str, int, int]]:
    quads = [r for r in range(13) if _nibble(mask, r) == 0xF] if table.four_of_a_kind else []
    best: tuple[int, list[tuple[str, int, int]]] = (-1, [])
    for n in range(len(quads) + 1):
        for chosen in combinations(quads, n):
            items: list[tuple[str, int, int]] = []
            gain = 0
            rest = mask
            for r in chosen:
                items.append(("four_of_a_kind", 0xF << (r * 4), table.four_of_a_kind))
                gain += table.four_of_a_kind - 4 * cu
                rest &= ~(0xF << (r * 4))
            if table.three_pair_sequence or table.four_pair_sequence:
                for run in _pair_runs(rest):
                    g, run_items = _split_run(run, rest, table, cu)
                    gain += g
                    items += run_items
            for bit in range(48, 52):
                if rest >> bit & 1:
                    units = table.red_two if bit >= 50 else table.black_two
                    if units:
                        items.append(("red_two" if bit >= 50 else "black_two", 1 << bit, units))
                        gain += units - cu
            if gain > best[0]:
                best = (gain, items)
    return best[1]


# Hands rich in pairs, quads and 2s (where the splits differ), and plain random ones.
_RICH = st.lists(st.integers(0, 12), min_size=1, max_size=5, unique=True).flatmap(
    lambda ranks: st.tuples(*(st.integers(1, 15) for _ in ranks)).map(
        lambda suits: sum(s << (4 * r) for r, s in zip(ranks, suits, strict=True))
    )
)
_HANDS = st.one_of(_RICH, st.sets(st.integers(0, 51), max_size=13).map(lambda s: sum(1 << i for i in s)))


@given(_HANDS, st.sampled_from(TABLES), st.sampled_from([0, 1]))
def test_items_match_the_oracle(mask: int, table: PenaltyTable, cu: int) -> None:
    assert penalty_items(mask, table, cu) == oracle(mask, table, cu)


def test_exhaustive_runs_of_pairs_and_quads() -> None:
    # Every run of 1-6 pairs anywhere below 2, with and without a tứ quý and 2s beside it.
    for table in TABLES:
        for start in range(12):
            for length in range(1, 7):
                if start + length > 12:
                    continue
                run = sum(0b0011 << (4 * r) for r in range(start, start + length))
                for extra in (0, 0xF << 48, 0b0101 << 48, 0xF << (4 * ((start + length) % 12))):
                    mask = run | extra
                    for cu in (0, 1):
                        assert penalty_items(mask, table, cu) == oracle(mask, table, cu), (hex(mask), table)


def test_hand_units_and_cut_values() -> None:
    from vncards.cards import to_mask

    assert hand_units(to_mask("2♠ 2♥ 5♠5♣5♦5♥ 9♦"), COUNT, card_units=1) == 22
    assert COUNT.cut_value(to_mask("2♥"), "single") == 6
    assert COUNT.cut_value(to_mask("2♠ 2♥"), "pair") == 9
    assert COUNT.cut_value(to_mask("5♠5♣5♦5♥"), "four_of_a_kind") == 12
    assert COUNT.cut_value(to_mask("3♠3♣4♠4♣5♠5♣"), "pair_sequence") == 9
    assert COUNT.cut_value(to_mask("3♠3♣4♠4♣5♠5♣6♠6♣"), "pair_sequence") == 18
    assert PENALTIES.twos_value(to_mask("2♠ 2♦ 2♥ 3♠")) == 45
