"""Issue 33 item 4: the search bots using the learned policy (its rollouts, the prior of the
tree's root, the filter of the root's candidates). What the search scores at the root is the
policy bot's own score of the seat's view; a guided search is a pure function of the view and
the seed (re-dealt hidden cards change no decision); where no weights ship it searches as it
does without the policy; the bindings check what they are given."""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import RulesError, _core, games
from vncards._core import PolicyNet, RolloutPosition, cards_to_mask, search_shedding, shedding_policy_scores
from vncards.bots import bot_view, decide, make_bot
from vncards.bots.catalog import LEVELS
from vncards.bots.honesty import decides_honestly, redeal
from vncards.bots.policy import Guide, rules_record, shipped_policy
from vncards.bots.search import TienLenSearchBot, _SeatPlays, unlike_greedy
from vncards.bots.shedding import SheddingView, rollout_position, samloc_setup, tienlen_setup
from vncards.learn.model import Architecture, init_layers, to_net
from vncards.samloc import Rules as SamRules
from vncards.tienlen import Rules as TienLenRules

#: Small budgets: the tests check behaviour, the benchmarks measure strength.
GUIDED = {"rollouts": 24, "policy_rollouts": True, "prior": 2.0, "policy_top": 5}
SHIPPED = ["tienlen", "tienlen-north"]


def _shipped(rules: Any) -> PolicyNet:
    """The shipped Nam policy for ``rules`` (these tests need it to ship)."""
    net = shipped_policy("tienlen", rules)
    assert net is not None
    return net


def _walk(game: Any, steps: int, seed: int) -> Any:
    """``game`` after ``steps`` random moves, at a decision with a choice."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        before = copy.deepcopy(game)
        game.apply(rng.choice(game.legal_actions(game.pending_seats[0])))
        if game.is_over:
            return before
    while not game.is_over and len(game.legal_actions(game.pending_seats[0])) < 2:
        game.apply(game.legal_actions(game.pending_seats[0])[0])
    return game


def _fresh(game: str, seed: int, players: int = 4) -> Any:
    while (g := games.new_game(game, players, seed=seed)).is_over:
        seed += 1000
    return g


def _samloc_net(players: int = 4) -> Any:
    """A small untrained Sâm Lốc network (no weights ship for Sâm Lốc)."""
    _, _, _, d, a = _core.policy_encoding("samloc", players)
    arch = Architecture(tower=(16,), join=8, head=(4,))
    layers = init_layers(arch, d, a, 3)
    layers = [(w, np.linspace(-0.2, 0.2, len(b)).astype(np.float32)) for w, b in layers]
    return to_net("samloc", players, arch, layers, rules_record("samloc", SamRules()), {"made by": "tests"})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), game=st.sampled_from(SHIPPED))
def test_the_root_scores_are_the_policy_bots_scores_of_the_seats_view(
    seed: int, steps: int, game: str
) -> None:
    g = _walk(_fresh(game, seed), steps, seed)
    if g.is_over:
        return
    seat = g.pending_seats[0]
    view = bot_view(g, seat)
    legal = g.legal_actions(seat)
    plays = [a for a in legal if a["type"] in ("play", "pass")]
    if not plays:
        return
    v = SheddingView.read(view)
    net = _shipped(g.rules)
    cands = [None if a["type"] == "pass" else cards_to_mask(a["cards"]) for a in plays]
    rust = shedding_policy_scores(
        tienlen_setup(g.rules, 4), rollout_position(v), candidates=cands, policy=net
    )
    bot = make_bot("policy", game, rules=g.rules)
    assert rust == pytest.approx(bot.scores(view, plays), rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("game", SHIPPED)
def test_a_guided_search_is_a_function_of_the_view_and_the_seed(game: str) -> None:
    for tree in (False, "own_seat"):
        g = _walk(_fresh(game, 8), 9, 2)
        seat = g.pending_seats[0]
        make = functools.partial(make_bot, "search", game, 5, g.rules, tree=tree, **GUIDED)
        first = decide(make(), g, seat)
        bot = make()
        assert bot.choose(bot_view(g, seat), g.legal_actions(seat)) == first
        assert bot.choose(bot_view(g, seat), g.legal_actions(seat)) == first
        # A whole game of guided bots plays the same twice.
        ends = []
        for _ in range(2):
            h = _fresh(game, 12)
            bots = [make_bot("search", game, s, h.rules, tree=tree, **GUIDED) for s in range(4)]
            while not h.is_over:
                s = h.pending_seats[0]
                h.apply(decide(bots[s], h, s))
            ends.append(h.to_json())
        assert ends[0] == ends[1]


@pytest.mark.parametrize("game", SHIPPED)
def test_a_guided_search_is_honest(game: str) -> None:
    for trial in range(3):
        g = _walk(_fresh(game, 60 + trial), 5 + 9 * trial, trial)
        if g.is_over:
            continue
        seat = g.pending_seats[0]
        other = redeal(g, seat, seed=trial)
        assert other.view(seat) == g.view(seat) and other.events_for(seat) == g.events_for(seat)
        for tree in (False, "own_seat"):
            make = functools.partial(make_bot, "search", game, 9, g.rules, tree=tree, **GUIDED)
            assert decides_honestly(make, g, seat, redeals=2), tree
        level = functools.partial(make_bot, "expert", game, 9, g.rules, rollouts=20)
        assert decides_honestly(level, g, seat, redeals=2)


@pytest.mark.parametrize("chain", [-1, 1.5, True, 1001, "8"])
def test_a_chain_that_is_not_a_step_count_is_refused(chain: Any) -> None:
    with pytest.raises(RulesError, match="chain"):
        make_bot("search", "tienlen", 1, TienLenRules(), chain=chain)


@pytest.mark.parametrize("game", [*SHIPPED, "samloc"])
def test_a_chained_search_is_reproducible_and_honest(game: str) -> None:
    # Deals drawn by a Metropolis chain (with the opponent model's exact tests where the
    # policy's weights fit): the same seed gives the same decision, and the hidden cards dealt
    # anew under the same view change nothing.
    opts: dict[str, Any] = {"rollouts": 40, "tree": "own_seat", "chain": 8}
    if game in SHIPPED:
        opts |= {"policy_rollouts": True, "opponents": "seen"}
    for trial in range(3):
        g = _walk(_fresh(game, 80 + trial), 6 + 9 * trial, trial)
        if g.is_over:
            continue
        seat = g.pending_seats[0]
        make = functools.partial(make_bot, "search", game, 9, g.rules, **opts)
        assert decide(make(), g, seat) == decide(make(), g, seat)
        assert decides_honestly(make, g, seat, redeals=2)


def test_the_rollouts_play_the_smaller_shipped_network_where_one_ships() -> None:
    # Nam ships a smaller network for the searches' rollouts (the expert's time a decision);
    # the policy bot, the prior and Bắc's rollouts read the play network.
    from vncards.bots.policy import shipped_weights

    fast = shipped_weights(rollouts=True)
    assert sorted(fast) == ["tienlen"]
    play = shipped_weights()
    rolled = Guide.of("tienlen", None, None, prior=0.0, rollouts=True, top=None).net
    assert rolled.to_bytes() == fast["tienlen"].read_bytes()
    assert rolled.encoding == _shipped(None).encoding
    assert len(rolled.data()) < len(_shipped(None).data())
    prior = Guide.of("tienlen", None, None, prior=2.0, rollouts=False, top=None).net
    assert prior.to_bytes() == play["tienlen"].read_bytes()
    north_rules = games.new_game("tienlen-north", 4, seed=1).rules
    north = Guide.of("tienlen", north_rules, None, prior=0.0, rollouts=True, top=None).net
    assert north.to_bytes() == play["tienlen-north"].read_bytes()


def test_the_guide_changes_the_search() -> None:
    # Rollouts played by the policy reach other values than greedy ones on the same deals.
    g = _walk(_fresh("tienlen", 5), 3, 1)
    v = SheddingView.of_game(g, g.pending_seats[0])
    setup = tienlen_setup(g.rules, 4)
    masks = [cards_to_mask(a["cards"]) for a in g.legal_actions(v.me) if a["type"] == "play"][:6]
    args: dict[str, Any] = {"candidates": masks, "seed": 3, "rollouts": 60}
    plain = search_shedding(setup, rollout_position(v), **args)
    net = _shipped(g.rules)
    guided = search_shedding(setup, rollout_position(v), policy=net, policy_rollouts=True, **args)
    assert plain[1] != guided[1]
    # A policy given but used for nothing searches as no policy does.
    assert search_shedding(setup, rollout_position(v), policy=net, **args) == plain
    # The filter: the first candidate and the policy's best others, in place.
    top = search_shedding(setup, rollout_position(v), policy=net, policy_top=3, **args)
    assert sum(n > 0 for n in top[2]) == 3 and top[2][0] > 0 and len(top[2]) == len(masks)


def test_where_no_weights_ship_the_levels_search_without_the_policy() -> None:
    # Sâm Lốc (no weights), Tiến Lên with rules that are not a preset, a 3-seat table: the
    # guided options fall back to greedy rollouts, deciding as the plain search does.
    house = TienLenRules(bomb_after_pass="any_bomb")
    cases = [("samloc", SamRules(), 3), ("tienlen", house, 4), ("tienlen", TienLenRules(), 3)]
    for game, rules, players in cases:
        assert (
            Guide.of(
                "samloc" if game == "samloc" else "tienlen", rules, None, prior=1.0, rollouts=True, top=4
            ).search_args(players)
            == {}
        )
        g = _walk(_fresh(game, 4, players), 4, 1) if rules == games.spec(game).rules() else None
        if g is None:
            g = games.new_game(game, players, seed=4, rules=rules)
            if g.is_over:
                continue
        seat = g.pending_seats[0]
        plain = decide(make_bot("search", game, 3, g.rules, rollouts=40), g, seat)
        guided = decide(make_bot("search", game, 3, g.rules, **{**GUIDED, "rollouts": 40}), g, seat)
        assert guided == plain, (game, players)
        for level in ("normal", "expert"):
            assert decide(
                make_bot(level, game, 3, g.rules, **_small(level, game)), g, seat
            ) in g.legal_actions(seat)


def _small(level: str, game: str) -> dict[str, Any]:
    """A level's options with a small search budget (its shape unchanged)."""
    base, _ = LEVELS[games.spec(game).module][level]
    return {"rollouts": 20} if base == "search" else {}


def test_weights_given_by_hand_must_fit_the_table() -> None:
    net = _samloc_net()
    with pytest.raises(RulesError, match="play samloc, not tienlen"):
        make_bot("search", "tienlen", weights=net, policy_rollouts=True)
    with pytest.raises(RulesError, match="trained for the samloc rules"):
        make_bot("search", "samloc", rules=SamRules(bao_mot_mode="enforce"), weights=net, prior=1.0)
    # Hand-given Sâm Lốc weights guide a Sâm Lốc search at their table size...
    g = _walk(_fresh("samloc", 3), 6, 2)
    seat = g.pending_seats[0]
    bot = make_bot("search", "samloc", 1, g.rules, weights=net, **GUIDED)
    assert decide(bot, g, seat) in g.legal_actions(seat)
    # ...and are refused at another one, not silently dropped.
    three = _fresh("samloc", 3, players=3)
    bot = make_bot("search", "samloc", 1, three.rules, weights=net, **GUIDED)
    with pytest.raises(RulesError, match="trained for 4 players, not 3"):
        while not three.is_over:  # past the Sâm declarations, to the first searched play
            three.apply(decide(bot, three, three.pending_seats[0]))
    with pytest.raises(RulesError, match="prior"):
        make_bot("search", "tienlen", prior=-1.0)
    with pytest.raises(RulesError, match="policy_top"):
        make_bot("search", "tienlen", policy_top=0)


def test_the_search_bindings_check_the_policy_and_the_played_cards() -> None:
    setup = tienlen_setup(TienLenRules(), 4)
    hand = cards_to_mask("3♠ 4♦ 5♥ 9♣ 9♦ K♠ 2♥")
    seen = cards_to_mask("6♠ 7♠")
    unseen = ((1 << 52) - 1) & ~hand & ~seen
    pos = RolloutPosition(me=0, hand=hand, unseen=unseen, counts=[7, 4, 5, 5], played=[0, seen, 0, 0])
    net = _shipped(None)
    plays = [cards_to_mask("3♠"), cards_to_mask("9♣ 9♦")]
    base: dict[str, Any] = {"candidates": plays, "seed": 2, "rollouts": 20, "policy": net}
    assert 0 <= search_shedding(setup, pos, **base, policy_rollouts=True)[0] < 2
    assert len(shedding_policy_scores(setup, pos, candidates=plays, policy=net)) == 2
    with pytest.raises(RulesError, match="prior"):
        search_shedding(setup, pos, **base, prior=float("nan"))
    with pytest.raises(RulesError, match="policy_top"):
        search_shedding(setup, pos, **base, policy_top=0)
    with pytest.raises(RulesError, match="trained for 4 players, not 3"):
        search_shedding(
            tienlen_setup(TienLenRules(), 3),
            RolloutPosition(me=0, hand=hand, unseen=unseen, counts=[7, 5, 5]),
            **base,
        )
    with pytest.raises(RulesError, match="not this table's game"):
        search_shedding(samloc_setup(SamRules(), 4), pos, **base)
    with pytest.raises(RulesError, match="played: 4 seats"):
        search_shedding(
            setup, RolloutPosition(me=0, hand=hand, unseen=unseen, counts=[7, 4, 5, 5], played=[seen]), **base
        )
    with pytest.raises(RulesError, match="played: seat 1"):
        bad = RolloutPosition(me=0, hand=hand, unseen=unseen, counts=[7, 4, 5, 5], played=[0, hand, 0, 0])
        search_shedding(setup, bad, **base)


def test_a_search_bot_reads_the_cards_each_seat_played() -> None:
    g = _walk(_fresh("tienlen", 7), 12, 3)
    seat = g.pending_seats[0]
    read = SheddingView.read(bot_view(g, seat))
    assert read.played == SheddingView.of_game(g, seat).played
    assert read.played == tuple(cards_to_mask(p) for p in g.view(seat)["played"])
    assert isinstance(make_bot("search", "tienlen"), TienLenSearchBot)


@pytest.mark.parametrize("game", SHIPPED)
def test_the_levels_use_the_policy_where_its_weights_fit_the_table(game: str) -> None:
    for trial in range(4):
        g = _walk(_fresh(game, 70 + trial), 4 + 8 * trial, trial)
        if g.is_over:
            continue
        seat = g.pending_seats[0]
        # normal plays the policy's choice.
        assert decide(make_bot("normal", game, 2, g.rules), g, seat) == decide(
            make_bot("policy", game, rules=g.rules), g, seat
        )
        # Nam's expert: an own-seat tree over rollouts the policy plays, the others modelled as
        # greedy until they show otherwise, its deals drawn by a chain. (In Bắc expert keeps its
        # own-seat tree over greedy rollouts: see the catalog.)
        opts: dict[str, Any] = {"tree": "own_seat"}
        if game == "tienlen":
            opts |= {"policy_rollouts": True, "opponents": "seen", "chain": 8}
        want = decide(make_bot("search", game, 2, g.rules, rollouts=30, **opts), g, seat)
        assert decide(make_bot("expert", game, 2, g.rules, rollouts=30), g, seat) == want
    # At a 3-seat table (the weights play four) the levels search with greedy rollouts.
    three = _walk(_fresh(game, 5, players=3), 6, 1)
    seat = three.pending_seats[0]
    levels: list[tuple[str, dict[str, Any]]] = [
        ("normal", {"rollouts": 200, "infer": False, "candidates": 8}),
        ("expert", {"rollouts": 40, "tree": "own_seat"}),
    ]
    for level, plain in levels:
        opts = {"rollouts": 40} if level == "expert" else {}
        want = decide(make_bot("search", game, 2, three.rules, **plain), three, seat)
        assert decide(make_bot(level, game, 2, three.rules, **opts), three, seat) == want
    with pytest.raises(RulesError, match="guided options"):
        make_bot("search", game, guided={"guided": {}})


def _greedy_game(seed: int) -> Any:
    """A whole game of four greedy bots (dealt anew until it is not won at the deal)."""
    g = _fresh("tienlen", seed)
    bots = [make_bot("greedy", "tienlen", s, g.rules) for s in range(4)]
    while not g.is_over:
        s = g.pending_seats[0]
        g.apply(decide(bots[s], g, s))
    return g


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), me=st.integers(-1, 3))
def test_greedy_players_never_look_unlike_greedy(seed: int, me: int) -> None:
    # The opponent model's evidence is proof: no prefix of a greedy game flags a greedy seat.
    g = _greedy_game(seed)
    events = g.events
    core = g.rules.core
    for k in range(len(events) + 1):
        assert unlike_greedy(events[:k], me, core) == set()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, (1 << 52) - 1)), max_size=40),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 45)), max_size=20),
)
def test_seat_plays_since_is_the_union_of_the_seats_plays_from_the_event_on(
    plays: list[tuple[int, int]], asks: list[tuple[int, int]]
) -> None:
    # Differential: the suffix unions (asked between adds too) against a scan of every play.
    record = _SeatPlays()
    seen: list[tuple[int, int, int]] = []
    for index, (seat, mask) in enumerate(plays):
        record.add(seat, index, mask)
        seen.append((seat, index, mask))
        for s, i in asks[index % 3 :: 3]:
            want = 0
            for ps, pi, pm in seen:
                if ps == s and pi >= i:
                    want |= pm
            assert record.since(s, i) == want


def test_a_lead_above_a_card_played_later_and_a_short_pass_on_a_held_beat_are_unlike_greedy() -> None:
    core = TienLenRules().core
    deal = {"type": "deal", "counts": [13, 13, 13, 13]}
    lead: list[dict[str, Any]] = [deal, {"type": "new_round", "leader": 1}, _play(1, "pair", "9♠ 9♥")]
    assert unlike_greedy(lead, 0, core) == set()
    # A lower card played after the lead proves it was held then.
    later: list[dict[str, Any]] = [
        *lead,
        _play(2, "pair", "10♠ 10♥"),
        {"type": "pass", "seat": 3},
        {"type": "pass", "seat": 0},
        {"type": "pass", "seat": 1},
        {"type": "new_round", "leader": 2},
        _play(2, "single", "5♦"),
        _play(3, "single", "6♦"),
        _play(0, "single", "7♦"),
        _play(1, "single", "8♦"),
    ]
    assert unlike_greedy(later, 0, core) == {1}
    # The seat deciding is never modelled; nor a lead containing a 2.
    assert unlike_greedy(later, 1, core) == set()
    two: list[dict[str, Any]] = [
        deal,
        {"type": "new_round", "leader": 1},
        _play(1, "pair", "2♠ 2♥"),
        _play(1, "single", "4♦"),
    ]
    assert unlike_greedy(two, 0, core) == set()
    # A seat of five cards that passed on a 9 and later played a 10 held a beat it declined.
    short = {"type": "deal", "counts": [5, 5, 5, 5]}
    passed: list[dict[str, Any]] = [
        short,
        {"type": "new_round", "leader": 0},
        _play(0, "single", "9♠"),
        {"type": "pass", "seat": 1},
        _play(2, "single", "J♠"),
    ]
    assert unlike_greedy(passed, 3, core) == set()
    round_two: list[dict[str, Any]] = [
        {"type": "pass", "seat": 3},
        {"type": "pass", "seat": 0},
        {"type": "new_round", "leader": 2},
        _play(2, "single", "3♥"),
        _play(3, "single", "4♥"),
        _play(0, "single", "5♥"),
        _play(1, "single", "10♣"),
    ]
    assert unlike_greedy([*passed, *round_two], 0, core) == {1}
    # With six cards greedy may decline a beat that breaks a pair: no proof.
    six: list[dict[str, Any]] = [{"type": "deal", "counts": [6, 6, 6, 6]}, *passed[1:], *round_two]
    assert unlike_greedy(six, 0, core) == set()


def _play(seat: int, combo: str, cards: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "combo": combo, "cards": cards}


@pytest.mark.parametrize("opponents", ["greedy", "seen"])
def test_an_opponent_model_keeps_the_search_honest_and_reproducible(opponents: str) -> None:
    opts = {**GUIDED, "opponents": opponents}
    for trial in range(3):
        g = _walk(_fresh("tienlen", 80 + trial), 6 + 10 * trial, trial)
        if g.is_over:
            continue
        seat = g.pending_seats[0]
        make = functools.partial(make_bot, "search", "tienlen", 4, g.rules, **opts)
        assert decides_honestly(make, g, seat, redeals=2)
        assert decide(make(), g, seat) == decide(make(), g, seat)
    with pytest.raises(RulesError, match="opponents"):
        make_bot("search", "tienlen", opponents="nobody")


def test_the_opponent_model_reaches_the_rollouts() -> None:
    g = _walk(_fresh("tienlen", 5), 3, 1)
    v = SheddingView.of_game(g, g.pending_seats[0])
    setup = tienlen_setup(g.rules, 4)
    masks = [cards_to_mask(a["cards"]) for a in g.legal_actions(v.me) if a["type"] == "play"][:6]
    net = _shipped(g.rules)
    args: dict[str, Any] = {
        "candidates": masks,
        "seed": 3,
        "rollouts": 60,
        "policy": net,
        "policy_rollouts": True,
    }
    others = [s for s in range(4) if s != v.me]
    by_policy = search_shedding(setup, rollout_position(v), **args)
    by_greedy = search_shedding(setup, rollout_position(v), greedy_seats=others, **args)
    assert by_policy[1] != by_greedy[1]
    # The root seat always plays the policy: naming it changes nothing.
    assert search_shedding(setup, rollout_position(v), greedy_seats=[v.me], **args) == by_policy
    with pytest.raises(RulesError, match="greedy_seats"):
        search_shedding(setup, rollout_position(v), greedy_seats=[4], **args)
