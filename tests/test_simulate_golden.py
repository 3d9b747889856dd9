"""Seeded simulations are pinned: the summaries (and every move of a few games) recorded in
``tests/data/simulate_golden.json`` before the simulator and the bots were made faster must come
out the same, bot decision for bot decision. Regenerate only for an intended change of results:
``python tests/test_simulate_golden.py``."""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import pytest

from vncards.bots import make_bot
from vncards.games import new_game
from vncards.simulate import game_seeds, play_game, simulate

GOLDEN = pathlib.Path(__file__).parent / "data" / "simulate_golden.json"

#: (name, simulate keywords): every game with its cheap bots, odd seat counts, duplicate mode.
RUNS: dict[str, dict[str, Any]] = {
    "tienlen greedy/random": {
        "game_name": "tienlen",
        "games": 200,
        "bot_names": ["greedy", "random"],
        "seed": 3,
    },
    "tienlen random": {"game_name": "tienlen", "games": 200, "bot_names": ["random"], "seed": 4},
    "tienlen greedy x3": {"game_name": "tienlen", "games": 30, "bot_names": ["greedy"] * 3, "seed": 5},
    "tienlen greedy x2 duplicate": {
        "game_name": "tienlen",
        "games": 20,
        "bot_names": ["greedy", "random"],
        "seed": 6,
        "duplicate": True,
    },
    "tienlen ranked": {
        "game_name": "tienlen",
        "games": 30,
        "bot_names": ["greedy", "random"],
        "seed": 7,
        "options": {"scoring": "ranked", "ending": "ranked"},
    },
    "tienlen-north greedy/random": {
        "game_name": "tienlen-north",
        "games": 40,
        "bot_names": ["greedy", "random"],
        "seed": 8,
    },
    "samloc greedy/random": {
        "game_name": "samloc",
        "games": 200,
        "bot_names": ["greedy", "random"],
        "seed": 9,
    },
    "samloc montecarlo/greedy": {
        "game_name": "samloc",
        "games": 4,
        "bot_names": ["montecarlo", "greedy"],
        "seed": 10,
    },
    "maubinh greedy/random": {
        "game_name": "maubinh",
        "games": 30,
        "bot_names": ["greedy", "random"],
        "seed": 11,
    },
    "tusac greedy/random": {"game_name": "tusac", "games": 20, "bot_names": ["greedy", "random"], "seed": 12},
}

#: (game, bot, run seed, games): the action log of each game, hashed.
LOGS = [("tienlen", "greedy", 0, 12), ("samloc", "greedy", 1, 12), ("tusac", "greedy", 2, 2)]


def summary_of(run: dict[str, Any]) -> Any:
    # Through JSON so the recorded file and a fresh run compare alike (inf, float reprs).
    return json.loads(json.dumps(simulate(**run, jobs=1).to_dict()))


def log_digest(game_name: str, bot: str, seed: int, index: int) -> str:
    seeds = game_seeds(seed, index, new_game(game_name, seed=0).players)
    game = new_game(game_name, seed=seeds.deal)
    bots = [make_bot(bot, game_name, seed=s, rules=game.rules) for s in seeds.bots]
    play_game(game, bots)
    text = json.dumps([game.actions, game.settlement], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def record() -> dict[str, Any]:
    return {
        "summaries": {name: summary_of(run) for name, run in RUNS.items()},
        "logs": {f"{g} {b} seed {s}": [log_digest(g, b, s, i) for i in range(n)] for g, b, s, n in LOGS},
    }


@pytest.fixture(scope="module")
def golden() -> Any:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("name", list(RUNS))
def test_seeded_summary_is_unchanged(golden: Any, name: str) -> None:
    assert summary_of(RUNS[name]) == golden["summaries"][name]


@pytest.mark.parametrize(("game_name", "bot", "seed", "games"), LOGS)
def test_every_move_of_seeded_games_is_unchanged(
    golden: Any, game_name: str, bot: str, seed: int, games: int
) -> None:
    got = [log_digest(game_name, bot, seed, i) for i in range(games)]
    assert got == golden["logs"][f"{game_name} {bot} seed {seed}"]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN}")
