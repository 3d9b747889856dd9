"""Shuffling: deterministic seeded deals, OS-random unseeded deals, no bias."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vncards import Rng, RulesError, SnapshotError

# Pinned: the seeded stream is part of the replay contract across machines and versions.
GOLDEN_SEED_0 = [4, 31, 49, 43, 50, 7, 27, 38, 32, 51, 20, 24, 3]


def test_seeded_deal_is_pinned() -> None:
    assert Rng(0).permutation(52)[:13] == GOLDEN_SEED_0
    assert Rng(0).key == bytes(32)
    assert Rng(b"vncards").permutation(20) == [
        7,
        6,
        15,
        17,
        18,
        9,
        5,
        13,
        1,
        10,
        8,
        16,
        11,
        2,
        14,
        4,
        0,
        12,
        19,
        3,
    ]


def test_seeded_deals_match_across_processes() -> None:
    code = "import vncards; print(vncards.Rng(123456789).permutation(52))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(Rng(123456789).permutation(52))


def test_int_and_bytes_seeds() -> None:
    assert Rng(1).key == (1).to_bytes(32, "little")
    assert Rng(b"\x01").permutation(52) == Rng(1).permutation(52)
    assert Rng(2**256 - 1).key == b"\xff" * 32
    for bad in (-1, 2**256, "seed", 1.5, b"x" * 33):
        with pytest.raises(RulesError):
            Rng(bad)  # type: ignore[arg-type]  # bad seeds on purpose


def test_unseeded_deals_differ() -> None:
    deals = {tuple(Rng().permutation(52)) for _ in range(20)}
    assert len(deals) == 20
    assert len({Rng().key for _ in range(20)}) == 20


def test_restore_continues_stream() -> None:
    a = Rng(99)
    a.permutation(52)
    b = Rng.restore(a.key, a.position)
    assert [a.below(1000) for _ in range(100)] == [b.below(1000) for _ in range(100)]
    with pytest.raises(SnapshotError):
        Rng.restore(b"short", 0)


def test_below_and_choice() -> None:
    r = Rng(5)
    assert all(0 <= r.below(7) < 7 for _ in range(1000))
    assert {r.below(3) for _ in range(200)} == {0, 1, 2}
    assert r.choice("abc") in "abc"
    with pytest.raises(RulesError):
        r.below(0)
    with pytest.raises(RulesError):
        r.choice([])


def test_card_positions_are_unbiased() -> None:
    """Chi-square over the 52×52 table of (card, position) counts from seeded shuffles."""
    n = 20_800
    counts = [[0] * 52 for _ in range(52)]
    rng = Rng(2026)
    for _ in range(n):
        for pos, card in enumerate(rng.permutation(52)):
            counts[card][pos] += 1
    expected = n / 52
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    df = 51 * 51
    # Mean df, sd sqrt(2 df) ≈ 72: six standard deviations either side.
    assert df - 6 * 72 < chi2 < df + 6 * 72, chi2


def test_small_permutations_are_uniform() -> None:
    """All 24 orders of 4 items appear equally often (Fisher–Yates without modulo bias)."""
    rng = Rng(7)
    n = 48_000
    seen: dict[tuple[int, ...], int] = {}
    for _ in range(n):
        p = tuple(rng.permutation(4))
        seen[p] = seen.get(p, 0) + 1
    assert len(seen) == 24
    expected = n / 24
    chi2 = sum((c - expected) ** 2 / expected for c in seen.values())
    assert chi2 < 23 + 6 * (46**0.5), chi2
