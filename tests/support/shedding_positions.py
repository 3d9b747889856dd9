"""Exact Tiến Lên and Sâm Lốc positions, built the documented way: a seeded game's
``to_dict()`` snapshot with edited hands, restored by ``Game.from_position`` (which checks it);
plus small shortcuts for playing moves and reading the ledger."""

from __future__ import annotations

from typing import Any

from vncards import samloc, tienlen
from vncards.cards import to_mask

SOUTH = tienlen.Rules.south()
NORTH = tienlen.Rules.north()
RANKED = SOUTH.replace(ending="ranked", scoring="ranked")


def spread_played(masks: list[int], size: int, cong: tuple[int, ...], strict: bool = True) -> list[int]:
    """The cards each seat has played: the lowest free cards, up to ``size`` with its hand.
    Seats in ``cong`` must hold ``size`` cards; with ``strict`` only they may."""
    free = [i for i in range(52) if not any(m >> i & 1 for m in masks)]
    played = []
    for s, m in enumerate(masks):
        need = size - m.bit_count()
        if strict:
            assert (s in cong) == (need == 0)
        else:
            assert s not in cong or need == 0
        played.append(sum(1 << i for i in free[:need]))
        free = free[need:]
    return played


def setup(
    hands: list[str],
    rules: tienlen.Rules = SOUTH,
    turn: int = 0,
    cong: tuple[int, ...] = (),
    *,
    strict_cong: bool = True,
) -> tienlen.Game:
    """Tiến Lên: seats hold ``hands``; ``turn`` leads a new round. The rest of each seat's 13
    cards count as already played by it, so only seats in ``cong`` (holding 13) played nothing
    (see ``spread_played`` for ``strict_cong``)."""
    g = tienlen.Game(len(hands), rules, seed=1)
    d = g.to_dict()
    masks = [to_mask(h) for h in hands]
    played = spread_played(masks, 13, cong, strict_cong)
    d["state"].update(
        hands=masks,
        played=played,
        dealt=sum(masks) + sum(played),
        turn=turn,
        table=None,
        table_seat=-1,
        passed=0,
        round_seats=0,
        must=0,
        out=0,
        order=[],
        cong=[],
        chain=None,
        over=False,
        winner=None,
        next_first=False,
        hand_start=0,
    )
    d["events"], d["actions"], d["ledger"] = [], [], []
    return tienlen.Game.from_position(d)


def samloc_base(players: int, rules: samloc.Rules | None) -> dict[str, Any]:
    """The snapshot of the first seeded Sâm Lốc game that no instant win ends."""
    seed = 0
    while samloc.Game(players, rules, seed=seed).is_over:
        seed += 1
    return samloc.Game(players, rules, seed=seed).to_dict()


def dealt(
    hands: list[str], leader: int = 0, rules: samloc.Rules | None = None, *, ten_cards: bool = True
) -> samloc.Game:
    """Sâm Lốc: the báo Sâm phase with these hands (ten cards each, checked with
    ``ten_cards``); ``leader`` is the nominal leader."""
    d = samloc_base(len(hands), rules)
    masks = [to_mask(h) for h in hands]
    if ten_cards:
        assert all(m.bit_count() == 10 for m in masks)
    st = d["state"]
    st.update(hands=masks, dealt=sum(masks), turn=leader)
    st["samloc"]["nominal"] = leader
    return samloc.Game.from_position(d)


def midhand(
    hands: list[str], played: list[str] | list[int], turn: int, rules: samloc.Rules | None = None
) -> samloc.Game:
    """Sâm Lốc: play phase, at the start of a round led by ``turn``; ``played`` holds each
    seat's played cards (text or masks)."""
    d = samloc_base(len(hands), rules)
    st = d["state"]
    st["hands"] = [to_mask(h) for h in hands]
    st["played"] = [p if isinstance(p, int) else to_mask(p) for p in played]
    st["dealt"] = sum(st["hands"]) + sum(st["played"])
    st["turn"] = turn
    st["samloc"].update(sam_phase=False, declined=len(hands), nominal=turn)
    return samloc.Game.from_position(d)


def table(
    hands: list[str], turn: int = 0, rules: samloc.Rules | None = None, cong: tuple[int, ...] = ()
) -> samloc.Game:
    """Sâm Lốc: play phase, ``turn`` leads a new round; each seat's other cards count as played
    by it (only seats in ``cong``, holding ten, played nothing)."""
    played = spread_played([to_mask(h) for h in hands], 10, cong)
    return midhand(hands, played, turn, rules)


def act(g: tienlen.Game | samloc.Game, *moves: str | None) -> None:
    """Moves in turn order: card text plays, None passes."""
    for m in moves:
        seat = g.current_seat
        assert seat is not None
        if m is None:
            g.pass_turn(seat)
        else:
            g.play(seat, m)


def reasons(g: tienlen.Game | samloc.Game) -> list[tuple[int, int, int, str]]:
    """The ledger as (from, to, units, reason) rows, in order."""
    return [(e["from"], e["to"], e["units"], e["reason"]) for e in g.ledger]


def led(g: tienlen.Game | samloc.Game) -> list[tuple[int, int, int, str]]:
    """``reasons``, sorted."""
    return sorted(reasons(g))


# Edits of a mid-round snapshot's ``state`` that ``Game.from_dict`` must reject.


def duplicate_card(st: dict[str, Any]) -> None:
    """Seat 1 also holds seat 0's lowest card."""
    st["hands"][1] |= st["hands"][0] & -st["hands"][0]


def move_card(st: dict[str, Any]) -> None:
    """Seat 1's lowest card moves to seat 0."""
    card = st["hands"][1] & -st["hands"][1]
    st["hands"][1] ^= card
    st["hands"][0] |= card


def wrong_turn(st: dict[str, Any]) -> None:
    """The seat whose play is on the table cannot beat itself."""
    st["turn"] = st["table_seat"]


def passed_turn(st: dict[str, Any]) -> None:
    """The seat to act has passed this round."""
    st["passed"] |= 1 << st["turn"]
