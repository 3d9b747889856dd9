"""OpenSpiel games: OpenSpiel's own random simulation test for every variant, clone(), and
the tensors from the shared encoder."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from vncards.integrations import encoding, openspiel  # noqa: E402
from vncards.table import TableGame  # noqa: E402

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


# -- starting from given hands ------------------------------------------------------------------


def seeded_hands(name: str, players: int, seed: int) -> list[str]:
    """Every seat's dealt cards in a seeded game of ``name`` (Tứ Sắc: concealed and quằn)."""
    from vncards import games

    state = games.new_game(name, players=players, seed=seed).to_dict()["state"]
    if name == "tusac":
        return [
            " ".join([*state["hands"][s].split(), *(c for m in state["exposed"][s] for c in m["cards"])])
            for s in range(players)
        ]
    from vncards.cards import cards_text

    return [
        cards_text(state["hands"][s] | state["played"][s]) if "played" in state else ""
        for s in range(players)
    ]


def hands_of(name: str, table: TableGame, players: int) -> list[list[str]]:
    state = table.to_dict()["state"]
    if name == "tusac":
        return [
            sorted([*state["hands"][s].split(), *(c for m in state["exposed"][s] for c in m["cards"])])
            for s in range(players)
        ]
    return [sorted(str(c) for c in table.hand(s)) for s in range(players)]


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test_from_given_hands(name: str) -> None:
    """Every seat given, and one seat left to the chance node: OpenSpiel's random simulation
    plays on from there, and every outcome of the chance node deals the given hands."""
    players = 3
    hands = seeded_hands(name, players, 5) if name != "maubinh" else maubinh_hands(players, 5)
    for given in (hands, [hands[0], None, hands[2]]):
        game = pyspiel.load_game(
            openspiel.GAME_NAMES[name], {"players": players, "hands": openspiel.hands_parameter(given)}
        )
        assert game.get_parameters()["hands"] == openspiel.hands_parameter(given)
        pyspiel.random_sim_test(game, num_sims=1 if name == "tusac" else 2, serialize=False, verbose=False)
        for outcome in (0, 9, openspiel.DEAL_OUTCOMES - 1):
            state = game.new_initial_state()
            assert state.is_chance_node()
            state.apply_action(outcome)
            got = hands_of(name, state.table, players)
            for s, h in enumerate(given):
                if h is not None:
                    assert got[s] == sorted(h.split())


def maubinh_hands(players: int, seed: int) -> list[str]:
    from vncards import games

    game = games.new_game("maubinh", players=players, seed=seed)
    return [" ".join(str(c) for c in game.hand(s)) for s in range(players)]


def test_given_hands_keep_the_deal_rules() -> None:
    """The game's own deal runs on the given hands: an instant win ends the hand at once,
    and the 3♠ leads."""
    four_twos = "2♠ 2♣ 2♦ 2♥ 3♥ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠"
    game = pyspiel.load_game("python_vncards_tienlen", {"players": 2, "hands": f"{four_twos}|"})
    state = game.new_initial_state()
    state.apply_action(3)
    assert state.is_terminal() and state.returns()[0] > 0 and sum(state.returns()) == 0
    spades = "3♠ 3♥ 5♠ 5♥ 7♠ 8♥ 9♠ 10♥ J♠ Q♥ K♠ A♥ 2♥"
    game = pyspiel.load_game("python_vncards_tienlen", {"players": 2, "hands": f"|{spades}"})
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.current_player() == 1 and state.table.to_dict()["state"]["must"] == 1


BAD_HANDS = {
    # (variant, players, hands parameter, error text)
    "wrong count": ("samloc", 2, "3♠ 4♠ 5♠|", "hands[0]: samloc deals 10 cards a seat, not 3"),
    "duplicate in a hand": ("tienlen", 2, "3♠ 3♠|", 'hands[0]: duplicate card: "3♠"'),
    "duplicate across hands": (
        "maubinh",
        2,
        "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠|A♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥",
        "hands[1]: A♠ is also in hands[0]",
    ),
    "not a card": ("tienlen-north", 2, "3♠ 1♥|", "hands[0]: "),
    "wrong number of hands": ("tienlen", 3, "|", "hands: 2 given for 3 players"),
    "tusac fifth copy": ("tusac", 2, " ".join(["KR"] * 5 + ["AR"] * 16) + "|", "hands[0]: "),
    "tusac not a card": ("tusac", 2, "KR ZZ|", "hands[0]: not a Tứ Sắc card"),
    "tusac non-dealer count": (
        "tusac",
        2,
        "|KR KR",
        "hands[1]: tusac deals 20 cards to a seat that is not the dealer, not 2",
    ),
}


@pytest.mark.parametrize("case", list(BAD_HANDS))
def test_bad_hands_are_refused_with_a_vncards_error(case: str) -> None:
    from vncards import VncardsError

    name, players, text, message = BAD_HANDS[case]
    with pytest.raises(VncardsError) as info:
        pyspiel.load_game(openspiel.GAME_NAMES[name], {"players": players, "hands": text})
    assert message in str(info.value)


def _observed(state: openspiel.VncardsState) -> tuple[object, ...]:
    """Everything a caller can read of a state (the vncards game's whole snapshot included)."""
    table = state.table
    return (
        str(state),
        tuple(state.history()),
        state.current_player(),
        None if table is None else table.to_json(),
    )


@pytest.mark.parametrize("name", NAMES)
def test_out_of_range_actions_raise_and_change_nothing(name: str) -> None:
    """Issue 30, item 4: a chance outcome of 5000 (outcomes are 0..4095) and a player action of
    -2 (which indexed the list from its end) were accepted."""
    from vncards import IllegalMoveError

    game = pyspiel.load_game(openspiel.GAME_NAMES[name], {"players": 2})
    state = game.new_initial_state()
    # (-1 is OpenSpiel's kInvalidAction: pyspiel refuses it itself, with a SpielError.)
    for outcome in (openspiel.DEAL_OUTCOMES, 5000, -2, 2**62):
        before = _observed(state)
        with pytest.raises(IllegalMoveError, match="chance outcome") as info:
            state.apply_action(outcome)
        assert info.value.reason == "invalid_action"
        assert _observed(state) == before
    state.apply_action(openspiel.DEAL_OUTCOMES - 1)
    steps = 0
    while not state.is_terminal() and steps < 40:
        legal = state.legal_actions()
        for action in (-2, -3, len(legal), game.num_distinct_actions(), 2**62):
            before = _observed(state)
            with pytest.raises(IllegalMoveError, match="player action"):
                state.apply_action(action)
            assert _observed(state) == before
        state.apply_action(legal[steps % len(legal)])
        steps += 1
    if state.is_terminal():
        before = _observed(state)
        with pytest.raises(IllegalMoveError):
            state.apply_action(0)
        assert _observed(state) == before


@pytest.mark.parametrize("name", NAMES)
def test_players_parameter_is_range_checked_when_loaded(name: str) -> None:
    from vncards import RulesError, games

    cls = games.spec(name).game_class()
    for players in (cls.MIN_PLAYERS - 1, cls.MAX_PLAYERS + 1, 9, 0, -3, 2**31 - 1):
        with pytest.raises(RulesError, match="players"):
            pyspiel.load_game(openspiel.GAME_NAMES[name], {"players": players})
    for players in (cls.MIN_PLAYERS, cls.MAX_PLAYERS):
        assert pyspiel.load_game(openspiel.GAME_NAMES[name], {"players": players}).num_players() == players
