"""The published action bounds (``spaces.ACTION_BOUND``): ``len(legal_list)`` never exceeds
them over random states, under random rules options and seat counts (a few thousand states
per game here, 100,000 per game with ``VNCARDS_PROFILE=slow``), and Tứ Sắc's bound of 22 is
tight: the two worst cases of its proof are built and counted."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from conftest import slow_profile
from support.tusac_positions import build, play
from vncards import games
from vncards.errors import RulesError
from vncards.integrations.deals import deal_from_hands
from vncards.integrations.spaces import ACTION_BOUND, TUSAC_BOUND, VARIANTS, apply_index, legal_list
from vncards.table import TableGame
from vncards.tusac import Rules as TuSacRules

# Mậu Binh's list is the solver's (about 3 ms a state), the others' a few µs.
STATES = {name: 100_000 if slow_profile() else 300 if name == "maubinh" else 3000 for name in VARIANTS}


def random_table(name: str, rnd: random.Random, seed: int) -> TableGame:
    """A new game of ``name`` with a random seat count and random choices for every option
    that lists its values (int options keep their default)."""
    cls = games.spec(name).game_class()
    while True:
        options = {
            o["name"]: rnd.choice(o["values"])
            for o in games.rules_schema(name)
            if o["values"] and rnd.random() < 0.5
        }
        try:
            return games.new_game(
                name, players=rnd.randint(cls.MIN_PLAYERS, cls.MAX_PLAYERS), rules=options, seed=seed
            )
        except RulesError:  # an inconsistent combination: draw again
            continue


def walk(name: str, states: int, seed: int = 0) -> dict[str, Any]:
    """Random play through the env's transitions (a random index of the legal list, carried
    out by ``apply_index``), checking ``0 < len(legal_list) <= ACTION_BOUND`` at every
    state; returns the states seen, the most legal actions, the games and the seconds."""
    bound = ACTION_BOUND[name]
    rnd = random.Random(f"{name}/{seed}")
    start = time.perf_counter()
    seen = most = tables = 0
    while seen < states:
        tables += 1
        game = random_table(name, rnd, seed * 1_000_003 + tables)
        while not game.is_over and seen < states:
            seat = rnd.choice(game.pending_seats)
            legal = legal_list(name, game, seat)
            assert 0 < len(legal) <= bound, (name, seat, len(legal), game.to_dict())
            most = max(most, len(legal))
            seen += 1
            apply_index(name, game, rnd.choice(legal))
    return {"states": seen, "most": most, "games": tables, "seconds": time.perf_counter() - start}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_action_bound_holds_over_random_states(name: str) -> None:
    figures = walk(name, STATES[name])
    print(
        f"{name}: {figures['states']} states in {figures['games']} games, at most {figures['most']}"
        f" legal actions (bound {ACTION_BOUND[name]}), {figures['seconds']:.1f} s"
    )
    assert figures["states"] == STATES[name] and figures["most"] > 1


# -- Tứ Sắc: the bound is 22 and tight ---------------------------------------------------------

# The dealer's 21 distinct kinds: Tướng–Sĩ–Tượng of every colour, Xe–Pháo–Mã of three.
COMPLETE_21 = (
    " ".join(p + c for c in "RGWY" for p in "KAE") + " " + " ".join(p + c for c in "RGW" for p in "RCH")
)


def test_tusac_bound_is_published() -> None:
    assert ACTION_BOUND["tusac"] == TUSAC_BOUND == 22


def test_tusac_opening_discard_reaches_22() -> None:
    """The discard turn's worst case: 21 distinct kinds to discard (the Tướng as the tỳ) and
    the opening win."""
    game = deal_from_hands("tusac", [COMPLETE_21, None, None, None])
    legal = legal_list("tusac", game, 0)
    assert len(legal) == TUSAC_BOUND
    assert sorted(a["card"] for a in legal if a["type"] == "discard") == sorted(COMPLETE_21.split())
    assert [a["type"] for a in legal].count("win") == 1
    # Options only take actions away: no Tướng tỳ, or enforced rác discards.
    no_ty = deal_from_hands("tusac", [COMPLETE_21, None, None, None], rules={"tuong_as_ty": False})
    assert len(legal_list("tusac", no_ty, 0)) == TUSAC_BOUND - 4


def test_tusac_claim_answers_reach_8() -> None:
    """The answers' worst case: a white Chốt discarded to the entitled seat holding two white
    Chốt and one of each other colour, with the triple optional: win, pair, triple, three
    soldiers three ways, four soldiers, pass."""
    rules = TuSacRules(triple_optional=True)
    game = build(["PW", "KR PW PW PR PG PY", "", ""], to_discard=0, reserve="PW", rules=rules)
    play(game, 0, "discard", card="PW")
    legal = legal_list("tusac", game, 1)
    claims = sorted((a["meld"], tuple(sorted(a["cards"]))) for a in legal if a["type"] == "claim")
    assert claims == [
        ("claimed_triple", ("PW", "PW")),
        ("four_soldiers", ("PG", "PR", "PY")),
        ("pair", ("PW",)),
        ("three_soldiers", ("PG", "PR")),
        ("three_soldiers", ("PG", "PY")),
        ("three_soldiers", ("PR", "PY")),
    ]
    assert sorted(a["type"] for a in legal if a["type"] != "claim") == ["pass", "win"]
    # A mandatory triple (the default) is then the only claim, with no pass.
    strict = build(["PW", "KR PW PW PR PG PY", "", ""], to_discard=0, reserve="PW")
    play(strict, 0, "discard", card="PW")
    assert sorted(
        a["type"] if a["type"] != "claim" else a["meld"] for a in legal_list("tusac", strict, 1)
    ) == [
        "claimed_triple",
        "win",
    ]


def test_tusac_random_claim_windows_stay_within_8() -> None:
    """The two parts of the proof separately, over random games under random options: answers
    to an offer at most 8, a discard turn at most 22."""
    rnd = random.Random(17)
    most_answers = most_discards = 0
    for seed in range(40 if not slow_profile() else 400):
        game = random_table("tusac", rnd, seed)
        while not game.is_over:
            seat = rnd.choice(game.pending_seats)
            legal = legal_list("tusac", game, seat)
            if game.to_dict()["state"]["phase"] == "claim":
                most_answers = max(most_answers, len(legal))
                assert len(legal) <= 8
            else:
                most_discards = max(most_discards, len(legal))
                assert len(legal) <= TUSAC_BOUND
            apply_index("tusac", game, rnd.choice(legal))
    assert most_answers > 1 and most_discards > 1
