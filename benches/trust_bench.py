"""What the server-side guarantees cost: restoring a snapshot (replay + verification) per
action, the per-game lock's share of an apply, copies (deepcopy vs pickle), per-seat events."""

from __future__ import annotations

import copy
import functools
import gc
import inspect
import pickle
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from common import rate, report

from vncards import maubinh, samloc, tienlen, tusac
from vncards.table import TableGame


def finished(cls: Any, seed: int) -> TableGame:
    game: Any = cls(players=4, seed=seed)
    while not game.is_over:
        game.auto_play(game.pending_seats[0])
    return game  # type: ignore[no-any-return]


def restore(cls: Any, texts: list[str]) -> list[TableGame]:
    """The snapshots ``texts`` restored (``from_json``: bounded parse, replay, compare)."""
    return [cls.from_json(t) for t in texts]


def replay(cls: Any, games: list[Any]) -> list[TableGame]:
    """The hands ``games`` replayed from their actions alone (no parse, no compare)."""
    return [cls.replay(g.actions, players=4, rules=g.rules, seed=g.rng_key, **g._setup()) for g in games]


def pickled(game: TableGame) -> TableGame:
    """A pickle round trip of ``game`` (its unpickling replays and verifies the hand)."""
    copied: TableGame = pickle.loads(pickle.dumps(game))
    return copied


@contextmanager
def without_locks(cls: type) -> Iterator[None]:
    """Temporarily replace every lock wrapper on ``cls``'s MRO by the function it wraps, and
    ``apply`` (which takes the lock inline) by the same body without the lock."""
    saved: list[tuple[type, str, Any]] = [(TableGame, "apply", TableGame.apply)]
    TableGame.apply = bare_apply  # type: ignore[method-assign]
    for klass in cls.__mro__[:-1]:
        for name, value in list(vars(klass).items()):
            if isinstance(value, property) and value.fget and getattr(value.fget, "__atomic__", False):
                fset = value.fset and inspect.unwrap(value.fset)
                saved.append((klass, name, value))
                setattr(klass, name, property(inspect.unwrap(value.fget), fset, value.fdel, value.__doc__))
            elif getattr(value, "__atomic__", False) and hasattr(value, "__wrapped__"):
                saved.append((klass, name, value))
                setattr(klass, name, inspect.unwrap(value))
    try:
        yield
    finally:
        for klass, name, value in saved:
            setattr(klass, name, value)


def bare_apply(self: Any, action: Any) -> None:
    """``TableGame.apply`` without its lock."""
    self._apply(self._parse_action(action))


def apply_all(starts: list[Any], logs: list[list[dict[str, Any]]]) -> float:
    """Seconds to apply every action of ``logs`` (one list per game) to fresh copies of ``starts``."""
    games = [copy.deepcopy(s) for s in starts]
    gc.collect()
    gc.disable()  # a collection would land on whichever side happens to cross the threshold
    try:
        t = time.perf_counter()
        for g, log in zip(games, logs, strict=True):
            for action in log:
                g.apply(action)
        return time.perf_counter() - t
    finally:
        gc.enable()


def lock_share(label: str, cls: Any, rounds: int = 41) -> None:
    """The lock's share of an apply, two ways: measured, as the median over interleaved rounds
    of (locked / bare - 1); and computed, as the locked calls per action (counted) times the
    cost of one acquire/release pair (timed alone) over the time of an apply."""
    played = [finished(cls, seed) for seed in range(20)]
    starts = [cls(players=4, rules=g.rules, seed=g.rng_key, **g._setup()) for g in played] * 3
    logs = [g.actions for g in played] * 3
    n_actions = sum(map(len, logs))
    calls = locked_calls(starts, logs) / n_actions
    ratios, locked_times = [], []
    for i in range(rounds):  # interleaved, in alternating order, so load hits both alike
        if i % 2:
            locked = apply_all(starts, logs)
        with without_locks(cls):
            bare = apply_all(starts, logs)
        if not i % 2:
            locked = apply_all(starts, logs)
        ratios.append(locked / bare - 1)
        locked_times.append(locked)
    per_action = min(locked_times) / n_actions
    computed = calls * acquire_release_seconds(starts[0]._lock) / per_action
    report(f"{label} apply, locked", per_action * 1e6, "µs/action")
    print(
        f"  lock cost: measured {statistics.median(ratios) * 100:+.2f}% (median of {rounds} rounds), "
        f"computed {computed * 100:.2f}% ({calls:.2f} acquire per action); goal < 2%"
    )


def acquire_release_seconds(lock: Any, n: int = 200_000, rounds: int = 7) -> float:
    """Seconds one ``acquire()``/``release()`` pair of ``lock`` costs (best of rounds)."""
    acquire, release = lock.acquire, lock.release
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            acquire()
            release()
        looped = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(n):
            pass
        best = min(best, (looped - (time.perf_counter() - t)) / n)
    return best


def locked_calls(starts: list[Any], logs: list[list[dict[str, Any]]]) -> int:
    """How many times the games' locks are taken while the actions of ``logs`` are applied
    (the profiler sees every C call: count the ``acquire`` calls on a game's lock)."""
    games = [copy.deepcopy(s) for s in starts]
    locks = {id(g._lock) for g in games}
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event == "c_call" and getattr(arg, "__name__", "") == "acquire":
            count += id(getattr(arg, "__self__", None)) in locks

    sys.setprofile(profile)
    try:
        for g, log in zip(games, logs, strict=True):
            for action in log:
                g.apply(action)
    finally:
        sys.setprofile(None)
    return count


def lock_overhead_ns(n: int = 200_000, rounds: int = 7) -> float:
    """Nanoseconds a locked property read costs over the bare one (median of rounds)."""
    g = tienlen.Game(seed=1)
    players: property = inspect.getattr_static(type(g), "players")
    assert players.fget is not None
    bare = inspect.unwrap(players.fget)
    diffs = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            g.players  # noqa: B018
        locked = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(n):
            bare(g)
        diffs.append((locked - (time.perf_counter() - t)) / n * 1e9)
    return statistics.median(diffs)


def main() -> None:
    print("snapshots: restoring finished hands (from_json = bounded parse + replay + compare)")
    for label, cls in (
        ("Tiến Lên", tienlen.Game),
        ("Sâm Lốc", samloc.Game),
        ("Mậu Binh", maubinh.Game),
        ("Tứ Sắc", tusac.Game),
    ):
        games = [finished(cls, seed) for seed in range(20)]
        texts = [g.to_json() for g in games]
        actions = sum(len(g.actions) for g in games)
        per_s = rate(functools.partial(restore, cls, texts), per_call=actions)
        bare = rate(functools.partial(replay, cls, games), per_call=actions)
        report(f"{label}: from_json, per action", 1e6 / per_s, "µs/action")
        report(f"{label}: bare replay (no parse/compare), per action", 1e6 / bare, "µs/action")
        chars = sum(len(t) for t in texts) // len(texts)
        print(f"  ({actions / len(games):.0f} actions and {chars} characters per snapshot on average)")

    print("the per-game lock: apply with and without it (the actions of 20 finished hands per game)")
    for label, cls in (
        ("Tiến Lên", tienlen.Game),
        ("Sâm Lốc", samloc.Game),
        ("Mậu Binh", maubinh.Game),
        ("Tứ Sắc", tusac.Game),
    ):
        lock_share(label, cls)
    overhead = lock_overhead_ns()
    print(f"one locked call costs {overhead:.0f} ns more than the bare method (a property read)")
    hands = [finished(tienlen.Game, seed) for seed in range(20)]

    print("copies of a mid-game Tứ Sắc table and a finished Tiến Lên hand")
    mid: Any = tusac.Game(seed=3)
    for _ in range(30):
        mid.auto_play(mid.pending_seats[0])
    for label, g in (("Tứ Sắc mid-game", mid), ("Tiến Lên finished", hands[0])):
        report(f"{label}: copy.deepcopy", rate(functools.partial(copy.deepcopy, g)), "copies/s")
        report(
            f"{label}: pickle round trip (verified replay)",
            rate(functools.partial(pickled, g)),
            "copies/s",
        )
        report(f"{label}: events_for(0)", rate(functools.partial(g.events_for, 0)), "calls/s")


if __name__ == "__main__":
    main()
