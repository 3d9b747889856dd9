"""What a run of many games shares, whoever plays it (:mod:`vncards.simulate`, the bots'
benchmark :mod:`vncards.bots.strength`): the streams of each game of the run
(:func:`game_seeds`: its deal and each seat's bot, spawned from the run's seed as
:class:`numpy.random.SeedSequence` spawns them) and the interval of a win rate
(:func:`wilson_interval`). It sits below the bots and the simulator, which both read it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ._args import count_arg, seed_arg

__all__ = ["GameSeeds", "game_seeds", "wilson_interval"]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default): unlike the normal
    approximation it is never empty at 0 or n wins.

    >>> low, high = wilson_interval(0, 500)
    >>> low, round(high, 4)
    (0.0, 0.0076)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameSeeds:
    """The seeds of one game of a run: its deal, and each seat's bot."""

    deal: int
    bots: tuple[int, ...]


# numpy's SeedSequence (``numpy/random/bit_generator.pyx``) written out over Python ints, so a
# game's streams cost microseconds instead of a SeedSequence object each, and the run seed's
# share of the mixing is done once per run (:func:`_run_pool`). The tests check it against
# numpy's own for small and huge seeds and indexes.
_U32 = 0xFFFF_FFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4


def _words(n: int) -> list[int]:
    """``n`` as little-endian 32-bit words (0 is one word), as SeedSequence reads an int."""
    out = [n & _U32]
    while n := n >> 32:
        out.append(n & _U32)
    return out


def _hashmix(value: int, hash_const: int) -> tuple[int, int]:
    """SeedSequence's ``hashmix`` of ``value``, and the hash constant after it."""
    value ^= hash_const
    hash_const = hash_const * _MULT_A & _U32
    value = value * hash_const & _U32
    return value ^ value >> 16, hash_const


def _mix(x: int, y: int) -> int:
    """SeedSequence's ``mix`` of two pool words."""
    mixed = (_MIX_L * x - _MIX_R * y) & _U32
    return mixed ^ mixed >> 16


def _mix_in(pool: list[int], hash_const: int, words: list[int]) -> tuple[list[int], int]:
    """The pool after hashing ``words`` into every pool word (the last loop of
    ``SeedSequence.mix_entropy``), and the hash constant after them."""
    pool = pool.copy()
    for w in words:
        for dst in range(_POOL):
            value, hash_const = _hashmix(w, hash_const)
            pool[dst] = _mix(pool[dst], value)
    return pool, hash_const


@functools.lru_cache(maxsize=16)
def _run_pool(seed: int) -> tuple[list[int], int]:
    """The entropy pool of ``SeedSequence(seed, spawn_key=key)`` before ``key`` is mixed in
    (the same for every game of a run), and the hash constant at that point. Callers copy."""
    entropy = _words(seed)
    entropy += [0] * (_POOL - len(entropy))  # padded to the pool: a spawn key follows
    hash_const = _INIT_A
    pool = []
    for w in entropy[:_POOL]:
        value, hash_const = _hashmix(w, hash_const)
        pool.append(value)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                value, hash_const = _hashmix(pool[src], hash_const)
                pool[dst] = _mix(pool[dst], value)
    return _mix_in(pool, hash_const, entropy[_POOL:])


def _hash_steps(hash_const: int, mult: int, steps: int) -> tuple[tuple[int, int], ...]:
    """The hash constant before and after each of ``steps`` steps (it does not depend on the
    data hashed, so it is computed once)."""
    out = []
    for _ in range(steps):
        after = hash_const * mult & _U32
        out.append((hash_const, after))
        hash_const = after
    return tuple(out)


#: (pool word, hash constant before, after, bit offset) of each word of ``generate_state(8)``.
_STATE = tuple((i % _POOL, *h, 32 * i) for i, h in enumerate(_hash_steps(_INIT_B, _MULT_B, 8)))


def _state_seed(pool: list[int]) -> int:
    """``generate_state(8, uint32)`` of the pool as one little-endian 256-bit int (the seed
    :class:`vncards.Rng` takes)."""
    seed = 0
    for k, before, after, shift in _STATE:
        value = (pool[k] ^ before) * after & _U32
        seed |= (value ^ value >> 16) << shift
    return seed


#: Most seats game_seeds gives streams for.
_MAX_SEATS = 64


def game_seeds(seed: int, index: int, players: int) -> GameSeeds:
    """The streams of game ``index`` of the run seeded ``seed``: the run's
    :class:`~numpy.random.SeedSequence` spawns one child per game (``spawn_key=(index,)``),
    which gives the deal's seed and spawns one child per seat for the bots. Any game of any
    run can be replayed on its own from ``(seed, index)``. ``seed`` and ``index`` are
    non-negative ints, ``players`` 1..64.

    >>> s = game_seeds(0, 5, 4)
    >>> len(s.bots), s == game_seeds(0, 5, 4), s.deal == game_seeds(1, 5, 4).deal
    (4, True, False)
    """
    seed, index = seed_arg(seed), seed_arg(index, "index")
    players = count_arg("players", players, minimum=1, maximum=_MAX_SEATS)
    # The game's sequence is SeedSequence(seed, spawn_key=(index,)); its k-th spawned child
    # has spawn_key (index, k).
    pool, hash_const = _mix_in(*_run_pool(seed), _words(index))
    bots = tuple(_state_seed(_mix_in(pool, hash_const, _words(k))[0]) for k in range(players))
    return GameSeeds(_state_seed(pool), bots)
