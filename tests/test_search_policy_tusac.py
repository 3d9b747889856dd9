"""Issue 33: the Tứ Sắc search with rollouts the learned policy plays (``policy_rollouts``),
racing the policy's best candidates (``policy_top``) and keeping its choice unless beaten on
evidence (``keep_first``). The search stays a pure function of the seat's view and its seed
(re-dealt hidden cards change no decision), the policy's rollouts reach other values than
greedy ones on the same deals, where the shipped weights do not fit the table it searches as
without them, and the bindings refuse what does not fit. That every seat of a rollout reads its own observation faithfully is
checked in Rust (``src/search/tusac.rs``: a network that scores as ``greedy`` does plays the
very rollouts ``greedy`` plays)."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.tusac_positions import opening_search_position
from vncards import RulesError, games
from vncards._core import TuSacRolloutSetup, tusac_pack, tusac_search, tusac_unpack
from vncards.bots import decide, make_bot
from vncards.bots.honesty import decides_honestly, redeal
from vncards.bots.policy import shipped_policy
from vncards.bots.tusac_search import TuSacSearchBot, observed

#: Small budgets: the tests check behaviour, the benchmarks measure strength.
GUIDED: dict[str, Any] = {"rollouts": 12, "policy_rollouts": True, "policy_top": 3, "keep_first": 1.0}
HAND = "KR KG AW AW AW EY EG RG RW RW RW CY CY CY CR CG HG PY PY PY PR"


def _fresh(seed: int, players: int = 4) -> Any:
    while (g := games.new_game("tusac", players, seed=seed)).is_over:
        seed += 1000
    return g


def _walk(seed: int, steps: int, players: int = 4) -> Any:
    """A Tứ Sắc game after ``steps`` random moves, at a decision with a choice (None if the
    hand ended first)."""
    game = _fresh(seed, players)
    rng = random.Random(seed)
    for _ in range(steps):
        before = copy.deepcopy(game)
        game.apply(rng.choice(game.legal_actions(game.pending_seats[0])))
        if game.is_over:
            game = before
            break
    while not game.is_over and len(game.legal_actions(game.pending_seats[0])) < 2:
        game.apply(game.legal_actions(game.pending_seats[0])[0])
    return None if game.is_over else game


def _positions(seed: int, steps: int, stride: int, trials: int) -> Iterator[tuple[int, Any, int]]:
    """``(trial, game, seat to decide)`` for walks of seeds ``seed + trial`` and
    ``steps + stride * trial`` random moves, skipping hands that ended first."""
    for trial in range(trials):
        g = _walk(seed + trial, steps + stride * trial)
        if g is not None:
            yield trial, g, g.pending_seats[0]


def _binding_args() -> dict[str, Any]:
    """A position for ``tusac_search``: the opening discard of the dealer's hand."""
    return {
        **opening_search_position(HAND, seed=3),
        "rollouts": 40,
        "candidates": [("discard", k, None, []) for k in (8, 12, 16, 20)],
    }


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30))
def test_a_search_over_policy_rollouts_is_a_function_of_the_view_and_the_seed(seed: int, steps: int) -> None:
    g = _walk(seed, steps)
    if g is None:
        return
    seat = g.pending_seats[0]
    make = functools.partial(make_bot, "search", "tusac", 5, g.rules, **GUIDED)
    first = decide(make(), g, seat)
    assert first in g.legal_actions(seat)
    assert decide(make(), g, seat) == first
    bot = make()
    view = g.view(seat)
    assert bot.choose(view, g.legal_actions(seat)) == bot.choose(view, g.legal_actions(seat))


def test_a_whole_game_of_searches_over_policy_rollouts_replays() -> None:
    ends = []
    for _ in range(2):
        g = _fresh(12)
        bots = [make_bot("search", "tusac", s, g.rules, **GUIDED) for s in range(4)]
        while not g.is_over:
            s = g.pending_seats[0]
            g.apply(decide(bots[s], g, s))
        ends.append(g.to_json())
    assert ends[0] == ends[1]
    settlement = games.from_json(ends[0]).settlement
    assert settlement is not None and sum(settlement) == 0


def test_a_search_over_policy_rollouts_is_honest() -> None:
    checked = 0
    for trial, g, seat in _positions(60, 4, 11, trials=4):
        other = redeal(g, seat, seed=trial)
        assert other.view(seat) == g.view(seat) and other.events_for(seat) == g.events_for(seat)
        make = functools.partial(make_bot, "search", "tusac", 9, g.rules, **GUIDED)
        assert decides_honestly(make, g, seat, redeals=2)
        checked += 1
    assert checked >= 2


def test_policy_rollouts_change_the_search_and_a_policy_used_for_nothing_does_not() -> None:
    setup = TuSacRolloutSetup(4)
    args = _binding_args()
    net = shipped_policy("tusac", None)
    plain = tusac_search(setup, **args)
    guided = tusac_search(setup, policy=net, policy_rollouts=True, **args)
    assert guided[1] != plain[1]
    assert tusac_search(setup, policy=net, policy_rollouts=True, **args) == guided
    assert tusac_search(setup, policy=net, **args) == plain
    # Every other seat modelled as greedy: only the root's own later play is the policy's.
    own = tusac_search(setup, policy=net, policy_rollouts=True, greedy_seats=[1, 2, 3], **args)
    assert own[1] not in (plain[1], guided[1])
    # Exposed cards split from the dead ones change nothing of a greedy search.
    seen = tusac_pack("HW HW HW EW")
    placed = {**args, "public": seen, "stock": 31, "counts": [21, 19, 18, 19]}
    assert tusac_search(setup, **placed) == tusac_search(
        setup, exposed=[0, tusac_pack("HW HW HW"), 0, 0], **placed
    )


def test_the_option_reaches_the_rollouts_only_where_the_weights_fit() -> None:
    bot = TuSacSearchBot(1, games.spec("tusac").rules(), policy_rollouts=True)
    assert bot.guide.rollouts and bot._policy_args(4)["policy_rollouts"] is True
    assert bot._policy_args(3) == {}  # the shipped weights are for four seats
    assert TuSacSearchBot(1, games.spec("tusac").rules())._policy_args(4) == {}
    # At a three-seat table the option searches as the plain search does.
    g = _walk(7, 6, players=3)
    assert g is not None
    seat = g.pending_seats[0]
    plain = decide(make_bot("search", "tusac", 3, g.rules, rollouts=30), g, seat)
    assert (
        decide(make_bot("search", "tusac", 3, g.rules, rollouts=30, policy_rollouts=True), g, seat) == plain
    )


def test_bad_policy_options_are_refused() -> None:
    setup = TuSacRolloutSetup(4)
    args = _binding_args()
    tienlen = shipped_policy("tienlen", None)
    tusac = shipped_policy("tusac", None)
    with pytest.raises(RulesError, match="play tienlen"):
        make_bot("search", "tusac", weights=tienlen, policy_rollouts=True, rules=games.spec("tusac").rules())
    with pytest.raises(RulesError, match="not Tứ Sắc"):
        tusac_search(setup, policy=tienlen, policy_rollouts=True, **args)
    three = {
        **args,
        "counts": [21, 20, 20],
        "exposed_lenh": [0] * 3,
        "exposed_quad": [False] * 3,
        "stock": 51,
    }
    with pytest.raises(RulesError, match="trained for 4 players, not 3"):
        tusac_search(TuSacRolloutSetup(3), policy=tusac, policy_rollouts=True, **three)
    with pytest.raises(RulesError, match="greedy_seats"):
        tusac_search(setup, policy=tusac, policy_rollouts=True, greedy_seats=[4], **args)
    with pytest.raises(RulesError, match="claim_window"):
        TuSacRolloutSetup(4, claim_window="everyone")
    with pytest.raises(RulesError, match="exposed: 4 seats"):
        tusac_search(setup, exposed=[0, 0], **args)
    with pytest.raises(RulesError, match="not in sight"):
        tusac_search(setup, exposed=[0, tusac_pack("HW"), 0, 0], **args)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30))
def test_the_policys_first_choice_stands_without_evidence_against_it(seed: int, steps: int) -> None:
    g = _walk(seed, steps)
    if g is None:
        return
    seat = g.pending_seats[0]
    policy = decide(make_bot("policy", "tusac", 1, g.rules), g, seat)
    # One candidate: the policy's choice, with no search; a bar no small race clears: the same.
    for options in ({"policy_top": 1}, {"policy_top": 3, "keep_first": 100.0}):
        bot = make_bot("search", "tusac", 1, g.rules, rollouts=12, policy_rollouts=True, **options)
        assert decide(bot, g, seat) == policy, options
    # The race among the policy's best two picks one of them.
    view = g.view(seat)
    legal = g.legal_actions(seat)
    scores = make_bot("policy", "tusac", 1, g.rules).scores(view, legal)
    best_two = sorted(range(len(legal)), key=lambda i: -scores[i])[:2]
    bot = make_bot("search", "tusac", 1, g.rules, rollouts=12, policy_rollouts=True, policy_top=2)
    if not any(a["type"] == "win" for a in legal):
        assert legal.index(decide(bot, g, seat)) in best_two


def test_keep_first_must_be_a_number_of_standard_errors() -> None:
    rules = games.spec("tusac").rules()
    for bad in (-1.0, float("nan"), "2", 1000.0):
        with pytest.raises(RulesError, match="keep_first"):
            TuSacSearchBot(1, rules, keep_first=bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="policy_top"):
        TuSacSearchBot(1, rules, policy_top=0)
    with pytest.raises(RulesError, match="keep_first"):
        tusac_search(TuSacRolloutSetup(4), keep_first=-0.5, **_binding_args())
    kept = tusac_search(TuSacRolloutSetup(4), keep_first=100.0, **_binding_args())
    assert kept[0] == 0 and kept[1] == tusac_search(TuSacRolloutSetup(4), **_binding_args())[1]


def test_the_levels_use_the_policy_where_its_weights_fit_the_table() -> None:
    for trial in range(3):
        g = _walk(70 + trial, 5 + 9 * trial)
        if g is None:
            continue
        seat = g.pending_seats[0]
        # normal searches greedy rollouts; hard plays the policy's choice; expert races its
        # best three candidates over rollouts it plays, keeping its choice unless beaten.
        plain = decide(make_bot("search", "tusac", 2, g.rules, rollouts=300), g, seat)
        assert decide(make_bot("normal", "tusac", 2, g.rules), g, seat) == plain
        policy = decide(make_bot("policy", "tusac", rules=g.rules), g, seat)
        assert decide(make_bot("hard", "tusac", 2, g.rules), g, seat) == policy
        guided = {"policy_rollouts": True, "policy_top": 3, "keep_first": 1.5}
        want = decide(make_bot("search", "tusac", 2, g.rules, rollouts=180, **guided), g, seat)
        assert decide(make_bot("expert", "tusac", 2, g.rules), g, seat) == want
    # At a 3-seat table (the weights play four) the levels search with greedy rollouts.
    three = _walk(5, 6, players=3)
    assert three is not None
    seat = three.pending_seats[0]
    for level, rollouts in (("hard", 600), ("expert", 900)):
        want = decide(make_bot("search", "tusac", 2, three.rules, rollouts=rollouts), three, seat)
        assert decide(make_bot(level, "tusac", 2, three.rules), three, seat) == want, level


def test_the_policy_margin_races_only_where_the_policy_is_unsure() -> None:
    checked = 0
    for _, g, seat in _positions(90, 3, 7, trials=6):
        view, legal = g.view(seat), g.legal_actions(seat)
        scores = make_bot("policy", "tusac", 1, g.rules).scores(view, legal)
        top = sorted(scores, reverse=True)
        policy = decide(make_bot("policy", "tusac", 1, g.rules), g, seat)
        make = functools.partial(make_bot, "search", "tusac", 4, g.rules, rollouts=24, policy_rollouts=True)
        # A margin below the gap between the policy's best two: its choice, with no race.
        if top[0] - top[1] > 1e-3 and not any(a["type"] == "win" for a in legal):
            assert decide(make(policy_top=3, policy_margin=(top[0] - top[1]) / 2), g, seat) == policy
            assert decide(make(policy_margin=(top[0] - top[1]) / 2), g, seat) == policy
            checked += 1
        # A margin wider than every gap races what policy_top alone races.
        assert decide(make(policy_top=3, policy_margin=1e9), g, seat) == decide(make(policy_top=3), g, seat)
    assert checked >= 2


def test_a_search_cut_short_on_the_policys_value_is_honest_and_replays() -> None:
    cut = {**GUIDED, "policy_value": 1}
    for _, g, seat in _positions(40, 6, 10, trials=3):
        make = functools.partial(make_bot, "search", "tusac", 9, g.rules, **cut)
        assert decide(make(), g, seat) == decide(make(), g, seat)
        assert decides_honestly(make, g, seat, redeals=2)
    # In the binding: other means than rollouts played out, the same for the same seed, in
    # units (a Tứ Sắc hand pays a few tens at most).
    setup = TuSacRolloutSetup(4)
    args = _binding_args()
    net = shipped_policy("tusac", None)
    full = tusac_search(setup, policy=net, policy_rollouts=True, **args)
    short = tusac_search(setup, policy=net, policy_rollouts=True, value_after=1, **args)
    assert short == tusac_search(setup, policy=net, policy_rollouts=True, value_after=1, **args)
    assert short[1] != full[1]
    assert all(abs(m) < 100 for m in short[1])


def test_bad_margin_and_value_options_are_refused() -> None:
    rules = games.spec("tusac").rules()
    for bad in (-1.0, float("nan"), float("inf"), "1"):
        with pytest.raises(RulesError, match="policy_margin"):
            TuSacSearchBot(1, rules, policy_margin=bad)  # type: ignore[arg-type]
    for bad_value in (0, 1.5, True, "2"):
        with pytest.raises(RulesError, match="policy_value"):
            TuSacSearchBot(1, rules, policy_value=bad_value)  # type: ignore[arg-type]
    setup = TuSacRolloutSetup(4)
    net = shipped_policy("tusac", None)
    with pytest.raises(RulesError, match="value_after"):
        tusac_search(setup, policy=net, policy_rollouts=True, value_after=0, **_binding_args())
    with pytest.raises(RulesError, match="value_after"):
        tusac_search(setup, policy=net, value_after=1, **_binding_args())


# -- The inference from the other seats' decisions (``chain``) ---------------------------------

INFERRING: dict[str, Any] = {**GUIDED, "chain": 4}


def _played(seed: int, moves: int) -> Any:
    """A Tứ Sắc game after ``moves`` decisions of four ``policy`` bots, at a decision with a
    choice (None if the hand ended first): decisions the inference can read."""
    game = _fresh(seed)
    bots = [make_bot("policy", "tusac", s, game.rules) for s in range(4)]
    for _ in range(moves):
        s = game.pending_seats[0]
        game.apply(decide(bots[s], game, s))
        if game.is_over:
            return None
    while not game.is_over and len(game.legal_actions(game.pending_seats[0])) < 2:
        game.apply(game.legal_actions(game.pending_seats[0])[0])
    return None if game.is_over else game


def test_an_inferring_search_is_honest_and_replays() -> None:
    checked = 0
    for trial in range(4):
        g = _played(300 + trial, 24 + 6 * trial)
        if g is None:
            continue
        seat = g.pending_seats[0]
        assert observed(g.events_for(seat), 4, seat)
        make = functools.partial(make_bot, "search", "tusac", 9, g.rules, **INFERRING)
        assert decide(make(), g, seat) == decide(make(), g, seat)
        assert decides_honestly(make, g, seat, redeals=2)
        checked += 1
    assert checked >= 2


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_the_observed_decisions_are_what_the_table_showed(seed: int, moves: int) -> None:
    g = _played(seed, moves)
    if g is None:
        return
    seat = g.pending_seats[0]
    view = g.view(seat)
    offer = [view["offer"]["card"]] if view["offer"] else []
    shown = [*view["dead"], *(c for ms in view["exposed"] for m in ms for c in m["cards"]), *offer]
    counts = view["hand_counts"]
    for s, choice, _dead, _exposed, then, _stock, offered, _opening, later in observed(
        g.events_for(seat), 4, seat
    ):
        assert s != seat
        assert (offered is None) == (choice[0] == "discard")
        lost = tusac_unpack(later)
        # What the seat has let go of since is all in sight now (dead, in a meld, or on
        # offer), and with the cards it hides now it makes the count it hid then.
        assert all(shown.count(str(c)) >= lost.count(c) for c in set(lost))
        assert then[s] == counts[s] + len(lost)
        if choice[0] == "discard":
            assert choice[1] in [c.index for c in lost]


def test_the_inference_moves_the_deals_and_only_with_observations() -> None:
    g = _played(41, 40)
    assert g is not None
    seat = g.pending_seats[0]
    bot = make_bot("search", "tusac", 9, g.rules, **INFERRING)
    calls: list[dict[str, Any]] = []

    def capture(*a: Any, **kw: Any) -> Any:
        calls.append(kw)
        return tusac_search(*a, **kw)

    import vncards.bots.tusac_search as module

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "tusac_search", capture)
        decide(bot, g, seat)
    args = calls[-1]  # the race (the first call ordered the candidates)
    assert args["chain"] == 4 and args["observed"]
    setup = TuSacRolloutSetup(4)
    call = {k: v for k, v in args.items() if k not in ("observed", "chain")}
    plain = tusac_search(setup, **call)
    inferred = tusac_search(setup, observed=args["observed"], chain=4, **call)
    assert inferred == tusac_search(setup, observed=args["observed"], chain=4, **call)
    assert inferred[1] != plain[1]
    assert tusac_search(setup, observed=[], chain=4, **call) == plain
    assert tusac_search(setup, observed=args["observed"], chain=0, **call) == plain


def test_bad_inference_options_are_refused() -> None:
    rules = games.spec("tusac").rules()
    for bad in (-1, 1001, 1.5, True, "4"):
        with pytest.raises(RulesError, match="chain"):
            TuSacSearchBot(1, rules, chain=bad)  # type: ignore[arg-type]
    setup = TuSacRolloutSetup(4)
    with pytest.raises(RulesError, match="chain"):
        tusac_search(setup, chain=1001, **_binding_args())
    table = (0, [0, 0, 0, 0], [20, 20, 20, 20], 31)
    discard: tuple[str, int, None, list[int]] = ("discard", 8, None, [])
    for bad_obs, words in (
        ((4, discard, *table, None, True, 0), "seat below"),
        ((1, discard, *table, (8, True, 1), False, 0), "discard without an offer"),
        ((1, ("pass", None, None, []), *table, None, False, 0), "discard without an offer"),
        ((1, ("win", None, None, []), *table, (8, True, 1), False, 0), "discard without an offer"),
        ((1, discard, 0, [0, 0], [20, 20], 31, None, True, 0), "seat below"),
    ):
        with pytest.raises(RulesError, match=words):
            tusac_search(setup, observed=[bad_obs], chain=2, **_binding_args())
