"""The bots: legal moves in every game and table size, view-only inputs, the Sâm and Tứ Sắc
decisions and the rollout bindings (the search bots: tests/test_bots_search.py; the strength
benchmark: tests/test_bots_strength.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support import shedding_positions
from vncards import RulesError
from vncards._core import (
    RolloutPosition,
    RolloutSetup,
    cards_to_mask,
    rollout_evaluate,
    rollout_greedy_choice,
    rollout_sam_success,
)
from vncards.bots import Turn, bot_names, decide, make_bot
from vncards.bots.policy import shipped_weights
from vncards.bots.shedding import SheddingView, _SeatFacts, samloc_setup
from vncards.bots.tusac import TuSacGreedyBot
from vncards.games import new_game
from vncards.samloc import Rules as SamRules
from vncards.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _legal_game(game: str, players: int, names: list[str], seed: int, **opts: Any) -> Any:
    g = new_game(game, players, opts, seed=seed)
    bots = [
        make_bot(names[s % len(names)], game, seed=seed + s, rules=g.rules, budget=40)
        if names[s % len(names)] == "montecarlo"
        else make_bot(names[s % len(names)], game, seed=seed + s, rules=g.rules)
        for s in range(players)
    ]
    for _ in range(5000):
        if g.is_over:
            break
        seat = g.pending_seats[0]
        legal = g.legal_actions(seat)
        choice = bots[seat].choose(g.view(seat), legal)
        assert choice in legal
        g.apply(choice)
    assert g.is_over and g.settlement is not None and sum(g.settlement) == 0
    return g


def test_every_game_lists_its_bots() -> None:
    levels = ["easy", "normal", "hard", "expert"]
    # The learned policy is offered where its weights ship: every game it plays.
    assert set(shipped_weights()) == {"tienlen", "tienlen-north", "samloc", "tusac"}
    assert bot_names("tienlen") == [*levels, "random", "greedy", "montecarlo", "policy", "search"]
    assert bot_names("tienlen-north") == [*levels, "random", "greedy", "montecarlo", "policy", "search"]
    assert bot_names("samloc") == [*levels, "random", "greedy", "montecarlo", "policy", "search"]
    assert bot_names("tusac") == [*levels, "random", "greedy", "policy", "search"]
    assert bot_names("maubinh") == [*levels, "random", "greedy", "search", "solver"]
    with pytest.raises(RulesError, match="no bot 'montecarlo' for tusac"):
        make_bot("montecarlo", "tusac")


@pytest.mark.parametrize(
    "game,players",
    [
        ("tienlen", 4),
        ("tienlen", 2),
        ("tienlen-north", 3),
        ("samloc", 2),
        ("samloc", 5),
        ("samloc", 4),
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_shedding_bots_play_legal_games(game: str, players: int, seed: int) -> None:
    _legal_game(game, players, ["montecarlo", "greedy", "random"], seed)


def test_tienlen_bots_under_ranked_scoring() -> None:
    for seed in range(3):
        g = _legal_game("tienlen", 4, ["montecarlo", "greedy"], seed, ending="ranked", scoring="ranked")
        assert len(g.finishing_order) == 4 or any(e["type"] == "instant_win" for e in g.events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tusac_greedy_plays_legal_games(players: int) -> None:
    for seed in range(3):
        _legal_game("tusac", players, ["greedy", "random"], seed)


def test_maubinh_solver_bot_through_make_bot() -> None:
    summary = simulate("maubinh", 20, ["solver", "random"], players=4, seed=2, jobs=1)
    assert summary.bots["solver"].mean > 0


def test_the_view_gives_the_unseen_cards_exactly() -> None:
    g = new_game("tienlen", 4, seed=5)
    for _ in range(9):
        g.auto_play(g.pending_seats[0])
    seat = g.pending_seats[0]
    v = SheddingView.read(g.view(seat))
    others = 0
    for s in range(4):
        if s != seat:
            others |= g.hand_mask(s)
    assert v.unseen == others  # four seats: every card not held or played is in another hand
    assert v.hand == g.hand_mask(seat) and v.hand & v.unseen == 0


def test_bots_see_only_the_view() -> None:
    # Two tables whose other hands differ but whose view of seat 0 is the same get the same move.
    g = new_game("samloc", 3, seed=11)
    h = g.clone()
    state = h.to_dict()
    hands = state["state"]["hands"]
    hands[1], hands[2] = hands[2], hands[1]
    h = type(g).from_position(state)
    assert g.view(0) == h.view(0) and g.hand(1) != h.hand(1)
    for name in ("greedy", "montecarlo"):
        a = make_bot(name, "samloc", seed=3, rules=g.rules)
        b = make_bot(name, "samloc", seed=3, rules=g.rules)
        seat = g.pending_seats[0]
        assert a.choose(g.view(seat), g.legal_actions(seat)) == b.choose(h.view(seat), h.legal_actions(seat))


def _sam_view(hand: str) -> dict[str, Any]:
    return {
        "seat": 0,
        "hand": hand.split(),
        "hand_counts": [10, 10, 10],
        "played": [[], [], []],
        "table": None,
        "passed": [],
        "out": [],
        "must_include": [],
        "sam_declarer": None,
    }


SAM_ACTIONS = [{"type": "declare_sam", "seat": 0}, {"type": "decline_sam", "seat": 0}]


@pytest.mark.parametrize("name", ["greedy", "montecarlo"])
def test_sam_is_declared_only_with_a_strong_hand(name: str) -> None:
    bot = make_bot(name, "samloc", seed=1)
    strong = _sam_view("2♠ 2♣ 2♦ 2♥ A♠ A♣ A♦ A♥ K♠ K♣")
    weak = _sam_view("3♠ 3♦ 5♣ 5♥ 7♦ 7♠ 9♥ 9♣ J♠ K♣")
    assert bot.choose(strong, SAM_ACTIONS)["type"] == "declare_sam"
    assert bot.choose(weak, SAM_ACTIONS)["type"] == "decline_sam"


SAM_DECLARER_HANDS = [
    "3♣ 3♦ 5♣ 5♦ 7♣ 7♦ 9♣ J♣ K♣ A♣",
    "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 2♠ 2♣ 2♦",
    "4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ Q♠ A♠ 2♥",
    "3♥ 4♥ 5♠ 6♥ 8♣ 10♦ J♦ Q♦ K♦ A♦",
]


@pytest.mark.parametrize("exempt", [False, True])
def test_greedy_sam_declarer_goes_out_on_a_two_only_where_the_house_rule_exempts_it(exempt: bool) -> None:
    # Seat 1 declares Sâm, leads its straight, and keeps 2♠ 2♣ 2♦: going out with them is
    # penalised (finish_on_two="penalized") unless sam_may_finish_on_two exempts the declarer.
    rules = SamRules(finish_on_two="penalized", sam_may_finish_on_two=exempt)
    g = shedding_positions.dealt(SAM_DECLARER_HANDS, leader=0, rules=rules, ten_cards=True)
    g.decline_sam(0)
    g.declare_sam(1)
    g.play(1, "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦")
    for seat in (2, 3, 0):
        g.pass_turn(seat)
    bot = make_bot("greedy", "samloc", seed=1, rules=rules)
    action = bot.choose(g.view(1), g.legal_actions(1))
    assert action["type"] == "play"
    assert (cards_to_mask(action["cards"]) == cards_to_mask("2♠ 2♣ 2♦")) is exempt


def test_sam_success_binding() -> None:
    setup = samloc_setup(SamRules(), 3)
    hand = cards_to_mask("2♠ 2♣ 2♦ 2♥ A♠ A♣ A♦ A♥ K♠ K♣")
    unseen = ((1 << 52) - 1) & ~hand
    assert (
        rollout_sam_success(setup, me=0, hand=hand, unseen=unseen, counts=[10, 10, 10], samples=50, seed=1)
        == 1.0
    )
    with pytest.raises(RulesError):
        rollout_sam_success(setup, me=0, hand=hand, unseen=unseen, counts=[10, 10], samples=5, seed=1)
    with pytest.raises(RulesError):
        RolloutSetup(SamRules().core, 9)


def test_rollout_bindings_reject_bad_input() -> None:
    setup = samloc_setup(SamRules(), 2)
    hand = cards_to_mask("3♠ 4♠")
    with pytest.raises(Exception, match="not a combination"):
        rollout_greedy_choice(setup, hand, [cards_to_mask("3♠ 4♠")], None, 10, False)
    with pytest.raises(RulesError, match="overlap"):
        rollout_evaluate(
            setup,
            RolloutPosition(me=0, hand=hand, unseen=hand, counts=[2, 0]),
            candidates=[None],
            rollouts=1,
            seed=0,
        )
    assert (
        rollout_greedy_choice(setup, hand, [cards_to_mask("3♠"), cards_to_mask("4♠")], None, 10, False) == 0
    )


def test_tusac_greedy_wins_and_discards_rac() -> None:
    bot = TuSacGreedyBot(seed=0)
    view = {"hand": ["KY", "KY", "KY", "AW"], "dead": [], "exposed": []}
    assert bot.choose(view, [{"type": "pass", "seat": 0}, {"type": "win", "seat": 0}])["type"] == "win"
    # AW is the only rác: discarding it leaves a meld.
    choice = bot.choose(view, [{"type": "discard", "seat": 0, "card": c} for c in ("AW", "KY")])
    assert choice["card"] == "AW"


def test_simulate_with_bots_is_reproducible() -> None:
    a = simulate("samloc", 30, ["montecarlo", "greedy", "random"], seed=4, jobs=1)
    b = simulate("samloc", 30, ["montecarlo", "greedy", "random"], seed=4, jobs=1)
    assert a.to_dict() == b.to_dict()
    assert sum(s.units for s in a.bots.values()) == 0


def test_maubinh_greedy_plays_the_strongest_arrangement_and_loses_to_the_solver() -> None:
    from vncards.maubinh import Game, best_arrangement
    from vncards.simulate import simulate

    game = Game(players=2, seed=5)
    bot = make_bot("greedy", "maubinh", seed=1)
    while not game.is_over:
        seat = game.pending_seats[0]
        game.apply(bot.choose(game.view(seat), game.legal_actions(seat)))
    assert game.arrangement(0) == best_arrangement(game.hand(0), objective="strongest")
    summary = simulate("maubinh", 200, ["solver", "greedy"], players=4, jobs=1)
    assert summary.bots["solver"].mean > summary.bots["greedy"].mean


# -- the lazy per-move interface (act(Turn)) makes exactly the choices of choose(view, legal) ---


@pytest.mark.parametrize("game_name", ["tienlen", "samloc"])
@pytest.mark.parametrize("bot_name", ["random", "greedy", "montecarlo"])
def test_act_on_a_turn_plays_the_same_game_as_choose(game_name: str, bot_name: str) -> None:
    for seed in range(3 if bot_name == "montecarlo" else 12):
        lazy, eager = new_game(game_name, seed=seed), new_game(game_name, seed=seed)
        options = {"budget": 40} if bot_name == "montecarlo" else {}
        lazy_bots = [make_bot(bot_name, game_name, seed=s, rules=lazy.rules, **options) for s in range(4)]
        eager_bots = [make_bot(bot_name, game_name, seed=s, rules=eager.rules, **options) for s in range(4)]
        for _ in range(400):
            if lazy.is_over:
                break
            seat = lazy.pending_seats[0]
            turn = Turn(lazy, seat)
            assert list(turn.legal_actions) == lazy.legal_actions(seat)
            if bot_name != "random" and lazy.view(seat).get("phase") != "sam":
                assert SheddingView.of_game(lazy, seat) == SheddingView.read(lazy.view(seat))
                facts = _SeatFacts(lazy, seat)
                assert facts.min_other() == SheddingView.read(lazy.view(seat)).min_other()
            lazy.apply(decide(lazy_bots[seat], lazy, seat))
            eager.apply(eager_bots[seat].choose(eager.view(seat), eager.legal_actions(seat)))
        assert lazy.is_over and lazy.actions == eager.actions and lazy.settlement == eager.settlement


def test_lazy_moves_behave_as_a_list() -> None:
    g = new_game("tienlen", seed=4)
    seat = g.pending_seats[0]
    moves, legal = Turn(g, seat).legal_actions, g.legal_actions(seat)
    assert len(moves) == len(legal) and moves[-1] == legal[-1] and moves[2:5] == legal[2:5]
    assert legal[-1] in moves and moves.index(legal[-1]) == len(legal) - 1
    with pytest.raises(IndexError):
        moves[len(legal)]
    other = (seat + 1) % g.players
    assert list(Turn(g, other).legal_actions) == g.legal_actions(other) == []


@pytest.mark.parametrize("seed", range(4))
def test_tusac_act_plays_the_same_game_as_choose(seed: int) -> None:
    # act(Turn) takes a forced move without the view; every choice must stay the same.
    lazy, eager = new_game("tusac", seed=seed), new_game("tusac", seed=seed)
    lazy_bots = [make_bot("greedy", "tusac", seed=s, rules=lazy.rules) for s in range(lazy.players)]
    eager_bots = [make_bot("greedy", "tusac", seed=s, rules=eager.rules) for s in range(eager.players)]
    for _ in range(5000):
        if lazy.is_over:
            break
        seat = lazy.pending_seats[0]
        lazy.apply(decide(lazy_bots[seat], lazy, seat))
        eager.apply(eager_bots[seat].choose(eager.view(seat), eager.legal_actions(seat)))
    assert lazy.is_over and lazy.actions == eager.actions and lazy.settlement == eager.settlement


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (3, {"triple_optional": True}),
        (4, {"discard_rule": "enforce", "bung_rule": "min_rac"}),
        (2, {"tuong_as_ty": False, "bung_rule": "off"}),
        (4, {"payment": "flat", "claim_window": "eligible_seats", "forbidden_triple": "no_claim"}),
    ],
)
def test_tusac_greedy_in_rust_is_the_python_greedy_on_every_decision(
    players: int, options: dict[str, Any]
) -> None:
    # The Rust greedy (TuSacFlow.greedy: the search's rollouts, self-play's greedy seats and the
    # bot's act play it) against the Python bot's choose, on every decision with a choice of
    # games whose seats play greedy or random (to reach positions greedy alone would not).
    python = TuSacGreedyBot(seed=0)
    decisions = 0
    for seed in range(12):
        g = new_game("tusac", players, options, seed=seed)
        walkers = [
            make_bot("random" if (seed + s) % 3 == 0 else "greedy", "tusac", seed=seed + s, rules=g.rules)
            for s in range(players)
        ]
        for _ in range(5000):
            if g.is_over:
                break
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            if len(legal) > 1:
                pick = g._flow.greedy(seat)
                assert pick is not None and legal[pick] == python.choose(g.view(seat), legal)
                decisions += 1
            g.apply(decide(walkers[seat], g, seat))
        assert g.is_over
    assert g._flow.greedy(g.pending_seats[0] if g.pending_seats else 0) is None
    assert decisions > 250


@pytest.mark.parametrize("game", ["tienlen", "samloc", "maubinh", "tusac"])
def test_every_cheating_bot_refuses_a_view(game: str) -> None:
    """Issue 36: the cheating variants share one refusal (``CheatingSearch``): no view, no
    move; through ``act(turn)`` they read the game."""
    g = new_game(game, players=3 if game != "maubinh" else 2, seed=3)
    bot = make_bot("cheating", game, seed=1, rules=g.rules, rollouts=20)
    seat = g.pending_seats[0]
    assert bot.name == "cheating"
    with pytest.raises(RulesError, match=r"act\(turn\) only"):
        bot.choose(g.view(seat), g.legal_actions(seat))
    assert g.can_apply(decide(bot, g, seat))
