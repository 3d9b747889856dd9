"""Random full-game simulations through the public API, across presets and option sets:
every game ends, settlements are zero-sum and equal the ledger, cards are conserved, and a
replay from the seed and the action log gives the same events and settlement."""

from __future__ import annotations

import json
import random

import pytest

from support.ledger import net_totals
from vncards.tienlen import Game, Rules

PRESETS = {
    "south": Rules.south(),
    "north": Rules.north(),
    "south_ranked": Rules.south().replace(ending="ranked", scoring="ranked"),
}

OPTION_SETS = [
    Rules.south().replace(bomb_after_pass="any_bomb", finish_on_two="penalized"),
    Rules.south().replace(bomb_after_pass="none", finish_on_two="forbidden", ket_3_bich=False),
    Rules.south().replace(
        first_lead="random",
        quad_beats_pair_of_twos=False,
        same_colour_instant_win=True,
        first_hand_extras=True,
    ),
    Rules.south().replace(ending="ranked", scoring="ranked", thoi_to="winner"),
    Rules.north().replace(triple_follows_suits=True, finish_on_two="forbidden"),
    Rules.north().replace(
        single_follows_suit=False,
        finish_on_two="allowed",
        ending="ranked",
        scoring="ranked",
        bomb_after_pass="any_bomb",
    ),
]


def play_random(game: Game, rng: random.Random, pass_rate: float = 0.25) -> int:
    """Plays random legal moves until the hand ends; returns the number of actions."""
    n = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        plays = game.legal_plays()
        if game.table is not None and (not plays or rng.random() < pass_rate):
            game.pass_turn(seat)
        else:
            game.play(seat, rng.choice(plays))
        n += 1
        assert n < 500
    return n


def check_finished(game: Game) -> None:
    settlement = game.settlement
    assert settlement is not None and sum(settlement) == 0
    assert all(e["units"] > 0 and e["from"] != e["to"] for e in game.ledger)
    assert net_totals(game.ledger, game.players) == settlement
    state = json.loads(game.to_json())["state"]
    seen = 0
    for m in state["hands"] + state["played"]:
        assert not m & seen
        seen |= m
    assert seen == state["dealt"] and seen.bit_count() == 13 * game.players
    assert game.events[-1]["type"] == "hand_end"


def simulate(rules: Rules, games: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(games):
        players = 2 + i % 3
        g = Game(players, rules, seed=seed * 100_000 + i)
        play_random(g, rng)
        check_finished(g)
        if i % 50 == 0:
            again = Game.replay(g.actions, players=players, rules=rules, seed=seed * 100_000 + i)
            assert again.events == g.events and again.settlement == g.settlement
            g.next_hand()
            play_random(g, rng)
            check_finished(g)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_games(name: str) -> None:
    simulate(PRESETS[name], 500, seed=sorted(PRESETS).index(name) + 1)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_random_games_with_options(index: int) -> None:
    simulate(OPTION_SETS[index], 150, seed=100 + index)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_many_random_games(name: str) -> None:
    simulate(PRESETS[name], 10_000, seed=1000 + sorted(PRESETS).index(name))
