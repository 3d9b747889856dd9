"""Greedy bots for the shedding games (Tiến Lên, Sâm Lốc), and what every shedding bot reads
from a seat's view.

The play policy is the Rust rollout policy (``rollout_greedy_choice``): lead the longest play
holding the lowest card, follow with the cheapest play that breaks no pair or triple, keep 2s
and bombs (hàng chặt) for cutting 2s, for short hands and for opponents about to go out. In
Sâm Lốc the bot declares Sâm (báo Sâm) only when sampled deals say it almost always succeeds,
and respects báo 1 (plays its highest single while another seat holds one card).

>>> from vncards.games import new_game
>>> from vncards.simulate import play_game
>>> game = new_game("tienlen", seed=3)
>>> bots = [TienLenGreedyBot(seed=s, rules=game.rules) for s in range(4)]
>>> sum(play_game(game, bots).settlement)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .._core import (
    Rng,
    RolloutPosition,
    RolloutSetup,
    cards_to_mask,
    rollout_greedy_choice,
    rollout_sam_success,
)
from ..errors import RulesError
from ..shedding.game import PlayMoves
from ..table import Seed
from .base import Turn

__all__ = [
    "SheddingView",
    "TienLenGreedyBot",
    "SamLocGreedyBot",
    "tienlen_setup",
    "samloc_setup",
]

Action = dict[str, Any]
_DECK = (1 << 52) - 1
_TWOS = 0xF << 48
_PLACES = {2: [2, -2], 3: [2, 0, -2], 4: [2, 1, -1, -2]}
_AFTER_PASS = {"four_pair_sequence": "four_pair_sequences", "any_bomb": "bombs", "none": None}


def tienlen_setup(rules: Any, players: int) -> RolloutSetup:
    """Rollout rules and payoffs of a Tiến Lên table (count or ranked scoring)."""
    pen = rules.penalties
    ranked = rules.scoring == "ranked"
    return RolloutSetup(
        rules.core,
        players,
        after_pass=_AFTER_PASS[rules.bomb_after_pass],
        finish_on_two=rules.finish_on_two == "allowed",
        card=0 if ranked else 1,
        cong=4 if ranked else 26,
        black_two=pen.black_two,
        red_two=pen.red_two,
        quad=pen.four_of_a_kind,
        places=_PLACES[players] if ranked else [],
    )


def samloc_setup(rules: Any, players: int) -> RolloutSetup:
    """Rollout rules and payoffs of a Sâm Lốc table (thối 2 and tứ quý 15, cóng 15, Sâm 20)."""
    return RolloutSetup(
        rules.core,
        players,
        bao_mot=True,
        finish_on_two=rules.finish_on_two == "allowed",
        card=1,
        cong=15,
        black_two=15,
        red_two=15,
        quad=15,
        sam=20,
        sam_block_each=rules.sam_block_pays == "each",
        sam_may_finish_on_two=rules.sam_may_finish_on_two,
        bao_previous_seat_only=rules.bao_mot_scope == "previous_seat",
        bao_penalize=rules.bao_mot_mode == "penalize",
        bao_den_cards=rules.bao_mot_den == "cards",
    )


@dataclass(frozen=True)
class SheddingView:
    """The facts a shedding bot uses, read from ``game.view(seat)`` (nothing hidden)."""

    me: int
    hand: int
    counts: list[int]
    unseen: int
    played_any: int
    table: int | None
    table_seat: int
    passed: int
    out: int
    must: int
    sam: int | None
    #: The cards each seat has played this hand (masks by seat).
    played: tuple[int, ...] = ()

    @classmethod
    def read(cls, view: dict[str, Any]) -> SheddingView:
        """The parts of a seat's view the shedding bots use, read once."""
        hand = cards_to_mask(view["hand"])
        played = [cards_to_mask(p) for p in view["played"]]
        seen = hand
        for m in played:
            seen |= m
        table = view.get("table")
        return cls(
            me=view["seat"],
            hand=hand,
            counts=list(view["hand_counts"]),
            unseen=_DECK & ~seen,
            played_any=sum(1 << s for s, m in enumerate(played) if m),
            table=None if table is None else cards_to_mask(table["cards"]),
            table_seat=0 if table is None else table["seat"],
            passed=sum(1 << s for s in view["passed"]),
            out=sum(1 << s for s in view["out"]),
            must=cards_to_mask(view.get("must_include") or []),
            sam=view.get("sam_declarer"),
            played=tuple(played),
        )

    @classmethod
    def of_game(cls, game: Any, seat: int) -> SheddingView:
        """The same facts as ``read(game.view(seat))`` for the seat to act, read from the
        game's own masks (no view dict, no card text)."""
        facts = _SeatFacts(game, seat)
        return cls(**{f.name: getattr(facts, f.name) for f in fields(cls)})

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.counts)

    def min_other(self) -> int:
        """Fewest cards held by another seat still in the hand."""
        rest = [c for s, c in enumerate(self.counts) if s != self.me and not self.out >> s & 1]
        return min(rest, default=99)


class _SeatFacts:
    """The facts of :class:`SheddingView` for the seat to act, read from the game's own masks
    as a bot asks for them: the greedy play reads the hand, the table and the smallest other
    hand; the rollouts read everything."""

    __slots__ = ("_game", "me", "hand", "table", "sam")

    def __init__(self, game: Any, seat: int) -> None:
        self._game = game
        self.me = seat
        self.hand: int = game._hands[seat]
        table = game._table
        self.table: int | None = None if table is None else table.mask
        self.sam: int | None = getattr(game, "sam_declarer", None)

    @property
    def players(self) -> int:
        return len(self._game._hands)

    def min_other(self) -> int:
        me, out = self.me, self._game._out
        rest = [m.bit_count() for s, m in enumerate(self._game._hands) if s != me and not out >> s & 1]
        return min(rest, default=99)

    @property
    def counts(self) -> list[int]:
        return [m.bit_count() for m in self._game._hands]

    @property
    def unseen(self) -> int:
        seen = self.hand
        for m in self._game._played:
            seen |= m
        return _DECK & ~seen

    @property
    def played_any(self) -> int:
        return sum(1 << s for s, m in enumerate(self._game._played) if m)

    @property
    def played(self) -> tuple[int, ...]:
        return tuple(int(m) for m in self._game._played)

    @property
    def table_seat(self) -> int:
        return 0 if self.table is None else int(self._game._table_seat)

    @property
    def passed(self) -> int:
        return int(self._game._passed)

    @property
    def out(self) -> int:
        return int(self._game._out)

    @property
    def must(self) -> int:
        game = self._game
        return int(game._must) if self.me == game._turn else 0


#: What a shedding bot reads about its seat: a view read once, or the game's masks as needed.
Facts = SheddingView | _SeatFacts


def rollout_position(v: Facts) -> RolloutPosition:
    """A seat's position as the Rust rollouts and searches take it: every field of
    :class:`SheddingView` (``rollout_evaluate(setup, rollout_position(v), candidates=...)``)."""
    return RolloutPosition(**{f.name: getattr(v, f.name) for f in fields(SheddingView)})


class _SheddingBot:
    """What the shedding bots share: the table's rollout setup and the seat's random stream."""

    name = "greedy"
    #: Declare Sâm when the estimated success rate reaches this.
    SAM_THRESHOLD = 0.75
    SAM_SAMPLES = 200

    def __init__(self, seed: Seed = None, rules: Any = None) -> None:
        if rules is None:
            raise RulesError(f"{type(self).__name__} needs the table's rules")
        self._rng = Rng(seed)
        self._rules = rules
        self._setups: dict[int, RolloutSetup] = {}

    def _make_setup(self, players: int) -> RolloutSetup:
        raise NotImplementedError

    def setup(self, players: int) -> RolloutSetup:
        if players not in self._setups:
            self._setups[players] = self._make_setup(players)
        return self._setups[players]

    def _seed(self) -> int:
        return self._rng.below(2**31) << 31 | self._rng.below(2**31)

    def _plays(self, v: Facts, legal: Sequence[Action]) -> Plays:
        """The play actions' card masks and where each is in ``legal``, without going out on a
        2 where that is refused or penalised (unless nothing else is left to do; a Sâm declarer
        is exempt only under ``sam_may_finish_on_two``), as the rollouts' move generator keeps
        off it (Rust ``rollout::sets_aside_two_finish``)."""
        at: Sequence[int]
        if isinstance(legal, PlayMoves):
            masks = legal.play_masks
            at = range(len(masks))
        else:
            at = [i for i, a in enumerate(legal) if a["type"] == "play"]
            masks = [cards_to_mask(legal[i]["cards"]) for i in at]
        if not self._two_finish_allowed(v) and v.hand & _TWOS:
            kept = [k for k, m in enumerate(masks) if m != v.hand]
            if len(kept) < len(masks) and (kept or v.table is not None):
                return _only(masks, at, kept)
        return masks, at

    def _two_finish_allowed(self, v: Facts) -> bool:
        """May the seat to act empty its hand with a 2 without penalty?"""
        return bool(self._rules.finish_on_two == "allowed")

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise RulesError("a bot was asked to act with no legal action")
        if len(legal_actions) == 1:
            return legal_actions[0]
        kinds = {a["type"] for a in legal_actions}
        if "declare_sam" in kinds:
            return self._declare(view, legal_actions)
        return self._play(SheddingView.read(view), legal_actions)

    def act(self, turn: Turn) -> Action:
        """:meth:`choose` for ``turn``, reading the seat's facts from the game itself (no view
        dict, no action dict but the chosen one) where the game offers lazy moves."""
        legal = turn.legal_actions
        size = len(legal) if isinstance(legal, PlayMoves) else 0
        if size > 1:
            return self._play(_SeatFacts(turn.game, turn.seat), legal)
        return legal[0] if size == 1 else self.choose(turn.view, legal)

    def _declare(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        v = SheddingView.read(view)
        p = rollout_sam_success(
            self.setup(v.players),
            me=v.me,
            hand=v.hand,
            unseen=v.unseen,
            counts=v.counts,
            samples=self.SAM_SAMPLES,
            seed=self._seed(),
        )
        want = "declare_sam" if p >= self.SAM_THRESHOLD else "decline_sam"
        return next(a for a in legal if a["type"] == want)

    def _play(self, v: Facts, legal: Sequence[Action]) -> Action:
        masks, at = self._plays(v, legal)
        passing = pass_index(legal)
        if not masks:
            return legal[0 if passing is None else passing]
        i = rollout_greedy_choice(
            self.setup(v.players), v.hand, masks, v.table, v.min_other(), passing is not None
        )
        if i is None:
            return legal[at[0] if passing is None else passing]
        return legal[at[i]]


#: Plays open to a seat: their card masks, and the index of each in the legal actions.
Plays = tuple[list[int], Sequence[int]]


def _only(masks: list[int], at: Sequence[int], kept: list[int]) -> Plays:
    """The plays numbered ``kept`` of ``(masks, at)``."""
    return [masks[k] for k in kept], [at[k] for k in kept]


def pass_index(legal: Sequence[Action]) -> int | None:
    """Where the pass action is in ``legal`` (None: passing is not open)."""
    if isinstance(legal, PlayMoves):
        return legal.pass_index
    return next((i for i, a in enumerate(legal) if a["type"] == "pass"), None)


class TienLenGreedyBot(_SheddingBot):
    """Greedy Tiến Lên (Miền Nam or Bắc, count or ranked scoring): see the module notes."""

    def _make_setup(self, players: int) -> RolloutSetup:
        return tienlen_setup(self._rules, players)


class SamLocGreedyBot(_SheddingBot):
    """Greedy Sâm Lốc: declares Sâm only with a hand that is almost never beaten, and plays
    its highest single while another seat holds one card (báo 1)."""

    def _make_setup(self, players: int) -> RolloutSetup:
        return samloc_setup(self._rules, players)

    def _two_finish_allowed(self, v: Facts) -> bool:
        """As in Tiến Lên, and while a Sâm is declared, the declarer under the house rule
        ``sam_may_finish_on_two``."""
        exempt = v.sam is not None and self._rules.sam_may_finish_on_two
        return bool(exempt or super()._two_finish_allowed(v))

    def _plays(self, v: Facts, legal: Sequence[Action]) -> Plays:
        masks, at = super()._plays(v, legal)
        if v.min_other() != 1 or v.sam is not None:
            return masks, at
        top_rank = (v.hand.bit_length() - 1) >> 2
        kept = [k for k, m in enumerate(masks) if m.bit_count() > 1 or (m.bit_length() - 1) >> 2 == top_rank]
        return _only(masks, at, kept) if kept else (masks, at)
