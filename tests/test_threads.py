"""Threads: a game shared by a server's thread pool stays consistent (every public method holds
the game's lock), and the module functions and batch APIs, which take no lock, give from many
threads exactly what one thread gets."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

from conftest import slow_profile
from support.tables import FACTORIES, NAMES
from vncards import IllegalMoveError, maubinh, samloc, tienlen, tusac
from vncards.cards import DECK
from vncards.table import TableGame

WRITERS, READERS = 3, 2
STEPS = 400 if slow_profile() else 60


@contextmanager
def fast_switching() -> Iterator[None]:
    """Make CPython switch threads very often, so races show up in a short run."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def check_snapshot(game: TableGame, text: str) -> TableGame:
    """A snapshot taken at any moment is a state that existed: it restores (the replay of its
    log reproduces it exactly) and its money adds up."""
    restored = type(game).from_json(text)
    totals = [0] * restored.players
    for e in restored.ledger:
        totals[e["from"]] -= e["units"]
        totals[e["to"]] += e["units"]
    assert sum(totals) == 0
    if restored.is_over:
        assert restored.settlement == totals
    return restored


def check_view(view: dict[str, Any], seat: int) -> None:
    assert view["seat"] == seat
    if view["hand"] is not None and view["game"] != "maubinh":
        assert len(view["hand"]) == view["hand_counts"][seat]
    assert (view["pending_seats"] == []) == view["is_over"] or view["game"] == "maubinh"


def run_threads(targets: list[Callable[[], None]]) -> None:
    errors: list[BaseException] = []

    def guarded(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except BaseException as e:  # reported in the main thread
                errors.append(e)

        return run

    threads = [threading.Thread(target=guarded(t)) for t in targets]
    with fast_switching():
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]


@pytest.mark.parametrize("name", NAMES)
def test_a_shared_game_survives_writers_and_readers(name: str) -> None:
    game: TableGame = FACTORIES[name](11)
    g: Any = game
    done = threading.Event()
    applied = [0]

    def writer(tid: int) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(tid)
            for _ in range(STEPS):
                pending = g.pending_seats
                if not pending:
                    break
                seat = rng.choice(pending)
                actions = g.legal_actions(seat)
                if not actions:
                    continue
                try:
                    g.apply(rng.choice(actions))
                except IllegalMoveError:
                    continue  # another writer moved first: the action went stale
                applied[0] += 1
                check_snapshot(game, g.to_json())
            done.set()

        return run

    def reader(tid: int) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(100 + tid)
            while not done.is_set():
                seat = rng.randrange(g.players)
                check_view(g.view(seat), seat)
                check_snapshot(game, g.to_json())
                g.events_for(seat)

        return run

    run_threads([writer(i) for i in range(WRITERS)] + [reader(i) for i in range(READERS)])
    assert applied[0] > 0
    final = check_snapshot(game, g.to_json())
    assert final.to_json() == g.to_json()
    # The shared game's log replays to the same game: no step was half-applied.
    again = type(game).replay(g.actions, players=g.players, rules=g.rules, seed=g.rng_key, **g._setup())
    assert again.to_json() == g.to_json()


def same_from_many_threads(fn: Callable[[Any], Any], inputs: list[Any], workers: int = 8) -> None:
    expected = [fn(x) for x in inputs]
    with fast_switching(), ThreadPoolExecutor(workers) as pool:
        for _ in range(3):
            assert list(pool.map(fn, inputs)) == expected


def random_hands(count: int, size: int, seed: int) -> list[list[Any]]:
    rng = random.Random(seed)
    return [rng.sample(DECK, size) for _ in range(count)]


def test_module_functions_agree_across_threads() -> None:
    hands13 = random_hands(40, 13, 1)
    south = tienlen.Rules.south()
    same_from_many_threads(lambda h: [c.mask for c in tienlen.legal_plays(h, rules=south)], hands13)
    same_from_many_threads(lambda h: tienlen.instant_win(h), hands13)
    same_from_many_threads(lambda h: len(samloc.legal_plays(h[:10])), hands13)
    same_from_many_threads(lambda h: str(maubinh.best_arrangement(h)), hands13[:8])
    same_from_many_threads(lambda h: maubinh.hand_rank(h[:5]), hands13)
    tusac_hands = [" ".join(str(c) for c in tusac.Game(seed=s).hand(0)) for s in range(6)]
    same_from_many_threads(lambda h: tusac.min_rac(tusac.parse_cards(h)), tusac_hands)


def test_batch_apis_agree_across_threads() -> None:
    hands13 = random_hands(16, 13, 2)
    fives = [h[:5] for h in random_hands(200, 5, 3)]
    same_from_many_threads(
        lambda hs: [str(a) for a in maubinh.best_arrangements(hs)], [hands13[:4], hands13[4:8]], 4
    )
    same_from_many_threads(lambda hs: list(maubinh.hand_ranks(hs)), [fives[:100], fives[100:]], 4)


class CountingLock:
    """A re-entrant lock that counts its acquisitions."""

    def __init__(self) -> None:
        self.inner = threading.RLock()
        self.acquired = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        self.acquired += 1
        return self.inner.acquire(blocking, timeout)

    def release(self) -> None:
        self.inner.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@pytest.mark.parametrize("name", NAMES)
def test_an_action_takes_the_lock_once(name: str) -> None:
    """The lock's cost stays one acquire per action: ``apply`` takes it inline, and nothing it
    calls takes it again (internal calls go to the private bodies, never a public method)."""
    game: Any = FACTORIES[name](5)
    rng = random.Random(5)
    steps = 0
    while not game.is_over and steps < 200:
        seat = rng.choice(game.pending_seats)
        action = rng.choice(game.legal_actions(seat))
        game._lock = lock = CountingLock()
        game.apply(action)
        assert lock.acquired == 1, f"{action} took the lock {lock.acquired} times"
        assert not lock.inner._is_owned()  # type: ignore[attr-defined]  # RLock._is_owned: CPython's private check, not in typeshed
        steps += 1
    assert steps > 0
    for cls in (tienlen.Game, samloc.Game, maubinh.Game, tusac.Game):
        assert cls.apply is TableGame.apply, f"{cls.__name__} overrides apply: implement _apply"


def test_lock_wrappers_keep_the_signature_and_defaults() -> None:
    """A wrapper has its method's own parameters, defaults and keywords (no ``*args``), and
    ``__wrapped__`` is the method."""
    import inspect

    from vncards.atomic import _atomic

    class Probe:
        def __init__(self) -> None:
            self._lock = threading.RLock()

        def method(self, a: int, /, b: int = 2, *rest: int, c: int = 3, **more: int) -> tuple[Any, ...]:
            assert self._lock._is_owned()  # type: ignore[attr-defined]  # RLock._is_owned: CPython's private check, not in typeshed
            return a, b, rest, c, more

    bare = Probe.method
    Probe.method = _atomic(bare)  # type: ignore[method-assign]  # the method wrapped as the games wrap theirs
    p = Probe()
    assert p.method(1) == (1, 2, (), 3, {})
    assert p.method(1, 5, 6, 7, c=8, d=9) == (1, 5, (6, 7), 8, {"d": 9})
    assert inspect.signature(Probe.method) == inspect.signature(bare)
    assert Probe.method.__wrapped__ is bare  # type: ignore[attr-defined]  # functools.wraps sets __wrapped__, untyped
    assert not p._lock._is_owned()  # type: ignore[attr-defined]  # RLock._is_owned: CPython's private check, not in typeshed
    with pytest.raises(TypeError):
        p.method(a=1)  # type: ignore[call-arg]  # positional-only stays positional-only
    for cls in (tienlen.Game, samloc.Game, maubinh.Game, tusac.Game):
        for name in ("apply", "legal_actions", "view", "to_json"):
            fn = getattr(cls, name)
            assert getattr(fn, "__atomic__", False), (cls, name)
            assert not fn.__code__.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
