"""OpenSpiel games: OpenSpiel's own random simulation test for every variant, clone(), and
the tensors from the shared encoder."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from vncards.integrations import encoding, openspiel  # noqa: E402

NAMES = list(openspiel.GAME_NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(openspiel.GAME_NAMES[name])
    pyspiel.random_sim_test(game, num_sims=1 if name == "tusac" else 2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_clone_is_independent_and_tensors_come_from_the_encoder(name: str) -> None:
    game = pyspiel.load_game(openspiel.GAME_NAMES[name], {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel.DEAL_OUTCOMES
    state.apply_action(11)
    if state.is_terminal():
        return
    copy = state.clone()
    before = str(state)
    copy.apply_action(copy.legal_actions()[0])
    assert str(state) == before and len(copy.history()) == len(state.history()) + 1
    player = state.current_player()
    want = encoding.observation(state.table.view(player), 3)
    np.testing.assert_array_equal(np.asarray(state.information_state_tensor(player), np.float32), want)
    np.testing.assert_array_equal(np.asarray(state.observation_tensor(player), np.float32), want)
    assert len(state.legal_actions()) <= game.num_distinct_actions()
