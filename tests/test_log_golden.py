"""Snapshots, events and actions of seeded games of every game, pinned: a table recorded with
the code from before the action and event logs became compact (built on demand from one
int log), so any change in what a game logs, in the order of keys or in the JSON text of a
snapshot fails here. Regenerate only for an intended format change:

    python tests/test_log_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from vncards.games import GAMES, new_game
from vncards.table import TableGame

GOLDEN = Path(__file__).parent / "data" / "log_golden.json"

# (game, players, rules overrides): the presets and the variants that emit other events.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("tienlen", 4, {}),
    ("tienlen", 3, {"ending": "ranked", "scoring": "ranked"}),
    ("tienlen", 2, {"first_lead": "random"}),
    ("tienlen-north", 4, {}),
    ("tienlen-north", 4, {"ending": "ranked", "scoring": "ranked", "finish_on_two": "forbidden"}),
    ("samloc", 4, {}),
    ("samloc", 5, {"bao_mot_mode": "penalize"}),
    ("samloc", 3, {"sam_block_pays": "blocker"}),
    ("maubinh", 4, {}),
    ("maubinh", 2, {}),
    ("tusac", 4, {}),
    ("tusac", 3, {"claim_window": "eligible_seats"}),
    ("tusac", 4, {"discard_rule": "penalize", "payment": "flat"}),
]
SEEDS = range(4)
HANDS = 3  # shedding games play on with next_hand up to this many hands


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _step(game: Any, rnd: random.Random | None) -> bool:
    """One random legal action (``rnd`` None: the game's ``auto_play``), or the next hand;
    False once the game is done."""
    if game.is_over:
        if hasattr(game, "next_hand") and game.hand_number < HANDS:
            game.apply({"type": "next_hand"})
            return True
        return False
    seat = game.pending_seats[0]
    if rnd is None:
        game.auto_play(seat)
        return True
    legal = game.legal_actions(seat)
    game.apply(legal[rnd.randrange(len(legal))])
    return True


def _fingerprint(game: TableGame) -> dict[str, str]:
    out = {
        "to_json": _sha(game.to_json()),
        "signed": _sha(game.to_json(key=b"golden")),
        "to_dict": _sha(_dump(game.to_dict())),
        "events": _sha(_dump(game.events)),
        "actions": _sha(_dump(game.actions)),
        "ledger": _sha(_dump(game.ledger)),
        "public_events": _sha(_dump(game.public_events())),
    }
    for s in range(game.players):
        out[f"events_for_{s}"] = _sha(_dump(game.events_for(s)))
    return out


def _play(name: str, players: int, rules: dict[str, Any], seed: int, auto: bool = False) -> dict[str, Any]:
    rnd = None if auto else random.Random(seed)
    game: Any = new_game(name, players=players, rules=rules, seed=seed)
    marks: dict[str, Any] = {}
    steps = 0
    while _step(game, rnd):
        steps += 1
        if steps == 7:
            marks["early"] = _fingerprint(game)
        if steps > 2000:
            raise AssertionError("game did not end")
    marks["end"] = _fingerprint(game)
    marks["actions"] = len(game.actions)
    marks["events"] = len(game.events)
    return marks


def _from_position(seed: int) -> dict[str, Any]:
    """A Tiến Lên game set up from a mid-game position (its snapshots hold an ``origin``)."""
    rnd = random.Random(seed)
    game: Any = new_game("tienlen", seed=seed)
    for _ in range(9):
        _step(game, rnd)
    game = type(game).from_position(game.to_dict())
    while _step(game, rnd):
        pass
    return {"end": _fingerprint(game), "text": game.to_json() if seed == 0 else None}


def observed() -> dict[str, Any]:
    """What the current code logs, in the shape of the pinned table."""
    out: dict[str, Any] = {}
    for name, players, rules in CASES:
        for seed in SEEDS:
            out[f"{name}/{players}/{_dump(rules)}/{seed}"] = _play(name, players, rules, seed)
    # auto_play ends hands the way good players do (wins, Sâm made, cóng, finishing on a 2).
    for name, players, rules in CASES:
        for seed in range(10, 13):
            out[f"auto/{name}/{players}/{_dump(rules)}/{seed}"] = _play(name, players, rules, seed, auto=True)
    for seed in range(2):
        out[f"from_position/{seed}"] = _from_position(seed)
    # One whole snapshot text of each game, for a readable diff when something changes.
    for name in GAMES:
        rnd = random.Random(99)
        game = new_game(name, seed=99)
        while _step(game, rnd):
            pass
        out[f"text/{name}"] = game.to_json()
    return out


def test_golden_table_covers_every_game() -> None:
    assert {name for name, _, _ in CASES} == set(GAMES)


@pytest.mark.parametrize("part", ["cases", "texts"])
def test_snapshots_events_and_actions_are_unchanged(part: str) -> None:
    pinned = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = observed()
    assert set(now) == set(pinned)
    for key in sorted(pinned):
        if (part == "texts") == key.startswith("text/"):
            assert now[key] == pinned[key], key


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_log_golden.py --write")
    GOLDEN.write_text(
        json.dumps(observed(), ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {GOLDEN}")
