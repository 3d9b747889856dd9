"""Side channels: whose turn it is, and which seats are pending, never depend on hidden hands.

Tiến Lên (``bomb_after_pass``): two copies of a game play the same random actions; before each
action the second copy's hidden hands are dealt again at random, consistently with what an
observing seat knows (the observer keeps its hand, the acting seat keeps its hand when it
plays, every seat keeps its card count, the cards in play are the same). The turn and the
pending seats after every action must be identical in both copies: the sequence a seat
observes is then a function of what it may know, over thousands of games in the slow profile.

Tứ Sắc (``claim_window="every_seat"``): at every step of random games the pending seats of a
claim window must equal a function of public facts only: every seat but the discarder (for a
discard) that has not answered yet, nearest to the offer first. The re-deal check runs on a
sample of the claim-window steps too: re-dealing the unanswered seats' hands (and so their claim
options) never changes who is pending. Fast profile: 150 games per case; slow: 3,000.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from conftest import slow_profile
from vncards import tienlen, tusac

GAMES = 3000 if slow_profile() else 150
#: Share of claim-window steps also checked by re-dealing the hidden hands (a snapshot clone).
REDEAL_SHARE = 0.25 if slow_profile() else 0.1


def _redeal(hands: list[int], keep: set[int], rng: random.Random) -> list[int]:
    """The card masks of `hands` with every seat outside `keep` dealt again from their pool."""
    others = [s for s in range(len(hands)) if s not in keep]
    pool = [bit for s in others for bit in range(52) if hands[s] >> bit & 1]
    rng.shuffle(pool)
    out = list(hands)
    for s in others:
        n = hands[s].bit_count()
        out[s] = sum(1 << b for b in pool[:n])
        pool = pool[n:]
    return out


def _turn_state(g: Any) -> tuple[Any, ...]:
    return (g.current_seat, tuple(g.pending_seats) if hasattr(g, "pending_seats") else (), g.is_over)


@pytest.mark.parametrize("mode", ["four_pair_sequence", "any_bomb"])
@pytest.mark.parametrize("ending", ["first_out", "ranked"])
def test_tienlen_turn_never_reveals_a_bomb(mode: str, ending: str) -> None:
    rules = tienlen.Rules.south().replace(
        bomb_after_pass=mode, ending=ending, scoring="count" if ending == "first_out" else "ranked"
    )
    rng = random.Random(f"{mode}/{ending}")
    returned = 0  # turns that came back to a seat that had passed (the case under test)
    for game in range(GAMES):
        a = tienlen.Game(4, rules=rules, seed=game)
        b = tienlen.Game(4, rules=rules, seed=game)
        steps = 0
        while not a.is_over and steps < 400:
            steps += 1
            seat = a.current_seat
            assert seat is not None
            actions = a.legal_actions(seat)
            # Cuts and 2s as often as possible: they open the after-pass turns.
            strong = [
                x
                for x in actions
                if x["type"] == "play" and ("2" in x["cards"].split()[0] or len(x["cards"].split()) >= 4)
            ]
            action = rng.choice(strong if strong and rng.random() < 0.5 else actions)
            observer = rng.randrange(4)
            keep = {observer} | ({seat} if action["type"] == "play" else set())
            b._hands = _redeal(a._hands, keep, rng)
            returned += a._passed >> seat & 1
            a.apply(action)
            b.apply(action)
            assert _turn_state(a) == _turn_state(b), (game, steps, action)
    assert returned > GAMES // 10  # the after-pass turn was exercised


def _expected_pending(view: dict[str, Any], players: int, answered: set[int]) -> list[int]:
    offer = view["offer"]
    origin, source = offer["seat"], offer["source"]
    seats = [s for s in range(players) if not (source == "discard" and s == origin) and s not in answered]
    return sorted(seats, key=lambda s: (s - origin) % players)


def test_tusac_claim_window_pending_is_public() -> None:
    rng = random.Random(18)
    windows = checked = 0
    for game in range(GAMES):
        g = tusac.Game(players=4, seed=game)
        answered: set[int] = set()
        offer: Any = None
        steps = 0
        while not g.is_over and steps < 2000:
            steps += 1
            # A new offer: the stock or the dead pile has moved, or another card is up.
            now = (g.offer, g.stock_count, len(g.view(0)["dead"]))
            if now != offer:
                offer, answered = now, set()
                windows += g.view(0)["phase"] == "claim"
            view = g.view(0)
            if view["phase"] == "claim":
                assert g.pending_seats == _expected_pending(view, 4, answered)
                if rng.random() < REDEAL_SHARE:  # the re-deal clones the game: sampled
                    _check_redeal_invariance(g, answered, rng)
                    checked += 1
            seat = g.pending_seats[0]
            actions = g.legal_actions(seat)
            action = rng.choice(actions)
            if view["phase"] == "claim" and action["type"] in ("claim", "win", "pass"):
                answered.add(seat)
            g.apply(action)
    assert windows > GAMES and checked > 0


def _check_redeal_invariance(g: Any, answered: set[int], rng: random.Random) -> None:
    """Re-deal the unanswered seats' hidden cards among them (and recompute their options): the
    pending seats are unchanged."""
    clone = copy.deepcopy(g)
    flow = clone._flow
    hands = flow.hands
    unanswered = [s for s in range(g.players) if s not in answered]
    kinds = [k for s in unanswered for k in range(28) for _ in range(hands[s] >> (3 * k) & 7)]
    rng.shuffle(kinds)
    for s in unanswered:
        n = sum(hands[s] >> (3 * k) & 7 for k in range(28))
        packed = 0
        for k in kinds[:n]:
            packed += 1 << (3 * k)
        kinds = kinds[n:]
        hands[s] = packed
    flow.hands = hands
    flow.compute_options(keep=sorted(answered))
    assert clone.pending_seats == g.pending_seats
