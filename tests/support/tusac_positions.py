"""Exact Tứ Sắc positions, built through the documented snapshot format (``Game.from_position``),
which validates them (card conservation, seat counts) like any restored game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from vncards.tusac import Game, Rules

# The 28 kinds in index order (a conformance test checks this against ``TuSacCard``).
CODES = [p + c for p in "KAERCHP" for c in "YRGW"]
# Filler pairs come from these kinds, away from each seat's own groups; no Tướng and never a
# third kind of one Xe–Pháo–Mã or a third Chốt colour, so fillers only ever split into pairs
# (0 lệnh, no rác) and scores of the seats filled this way are exact.
FILLER_ORDER = [p + c for c in "WGRY" for p in "RCHAE"] + ["P" + c for c in "WGRY"]
# Looser orders, with the Tướng too: Chốt before Tướng, or Tướng before Chốt.
FILLER_ORDER_LOOSE = FILLER_ORDER + ["K" + c for c in "WGRY"]
FILLER_ORDER_KP = [p + c for c in "WGRY" for p in "RCHAE"] + [p + c for p in "KP" for c in "WGRY"]
# A seat given nothing holds two rác (it cannot win on one card) plus fillers.
JUNK = ["AR HY", "AG HW", "ER CY", "EG CW"]


def group(code: str) -> str:
    """The group a card melds within: Tướng–Sĩ–Tượng or Xe–Pháo–Mã of a colour, or the Chốt."""
    return ("G" + code[1]) if code[0] in "KAE" else ("X" + code[1]) if code[0] in "RCH" else "P"


def build(
    hands: list[str],
    *,
    to_discard: int = 0,
    dealer: int = 0,
    exposed: list[list[tuple[str, str]]] | None = None,
    stock_top: str = "",
    reserve: str = "",
    rules: Rules | None = None,
    window: str = "eligible_seats",
    opening: bool = False,
    exact: tuple[int, ...] = (),
    filler: Sequence[str] = FILLER_ORDER_LOOSE,
) -> Game:
    """A game in the discard phase: ``hands[s]`` (``JUNK[s]`` when empty) plus filler pairs up
    to 20 cards (21 for ``to_discard``). Fillers never share a meld group with the seat's own
    cards, so they leave its rác alone; ``reserve`` kinds (e.g. the cards to be offered) are
    never fillers. The stock is every other card, ``stock_top`` turned up first. Seats in
    ``exact`` are filled first, from ``FILLER_ORDER`` with at most two kinds a set, so they
    only ever split into pairs and their scores are exact; other seats take ``filler``."""
    n = len(hands)
    exposed = exposed or [[] for _ in range(n)]
    cards = [(h or JUNK[s]).split() for s, h in enumerate(hands)]
    left = Counter({k: 4 for k in CODES})
    for s in range(n):
        left.subtract(cards[s])
        for _, g in exposed[s]:
            left.subtract(g.split())
    top = stock_top.split()
    left.subtract(top)
    blocked = set(reserve.split()) | set(top)
    for s in [*exact, *(s for s in range(n) if s not in exact)]:
        need = (21 if s == to_discard else 20) - len(cards[s]) - sum(len(g.split()) for _, g in exposed[s])
        assert need % 2 == 0 and need >= 0, (s, need)
        sensitive = {group(k) for k in cards[s]}
        kinds_in: Counter[str] = Counter()
        for k in FILLER_ORDER if s in exact else filler:
            set_group = k[1] if k[0] in "RCH" else "P" if k[0] == "P" else k
            if (
                need
                and left[k] >= 2
                and k not in blocked
                and group(k) not in sensitive
                and (kinds_in[set_group] < 2 or s not in exact)
            ):
                kinds_in[set_group] += 1
                cards[s] += [k, k]
                left[k] -= 2
                need -= 2
        assert need == 0, f"not enough filler for seat {s}"
    assert all(v >= 0 for v in left.values())
    rest = [k for k in CODES for _ in range(left[k])]
    state = {
        "dealer": dealer,
        "phase": "discard",
        "hands": [" ".join(c) for c in cards],
        "exposed": [[{"meld": m, "cards": g.split()} for m, g in ex] for ex in exposed],
        "stock": rest + list(reversed(top)),
        "dead": [],
        "offer": None,
        "to_discard": to_discard,
        "opening": opening,
        "responses": [None] * n,
        "result": None,
    }
    return Game.from_position(
        {
            "format": "vncards",
            "game": "tusac",
            "version": 1,
            "players": n,
            "rules": (rules or Rules()).replace(claim_window=window).to_dict(),
            "rng": {"key": "00" * 32, "position": 0},
            "events": [],
            "actions": [],
            "ledger": [],
            "state": state,
        }
    )


def play(g: Game, seat: int, kind: str, **fields: Any) -> None:
    g.act(seat, {"type": kind, **fields})


def kinds(actions: list[dict[str, Any]]) -> set[str]:
    """Action types, claims as ``claim:<meld>``."""
    return {a["type"] if a["type"] != "claim" else f"claim:{a['meld']}" for a in actions}


def options(g: Game, seat: int) -> set[str]:
    """``kinds`` of the seat's legal actions."""
    return kinds(g.legal_actions(seat))


def opening_search_position(hand: str, *, seed: int) -> dict[str, Any]:
    """The binding ``tusac_search``'s position for the dealer's opening discard of ``hand`` (21
    cards; three other seats of 20, nothing exposed, 31 in the stock): keyword arguments to
    which a test adds its candidates and rollouts."""
    from vncards._core import tusac_pack

    return {
        "me": 0,
        "hand": tusac_pack(hand),
        "counts": [21, 20, 20, 20],
        "exposed_lenh": [0, 0, 0, 0],
        "exposed_quad": [False] * 4,
        "public": 0,
        "stock": 31,
        "offer": None,
        "opening": True,
        "seed": seed,
    }
