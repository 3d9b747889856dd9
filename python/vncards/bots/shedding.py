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
from dataclasses import dataclass
from typing import Any

from .._core import Rng, RolloutSetup, cards_to_mask, rollout_greedy_choice, rollout_sam_success
from ..errors import RulesError
from ..shedding.game import PlayMoves
from ..table import Seed
from . import Turn

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
        )

    @classmethod
    def of_game(cls, game: Any, seat: int) -> SheddingView:
        """The same facts as ``read(game.view(seat))`` for the seat to act, read from the
        game's own masks (no view dict, no card text)."""
        hands, played = game._hands, game._played
        seen = hands[seat]
        for m in played:
            seen |= m
        table = game._table
        return cls(
            me=seat,
            hand=hands[seat],
            counts=[m.bit_count() for m in hands],
            unseen=_DECK & ~seen,
            played_any=sum(1 << s for s, m in enumerate(played) if m),
            table=None if table is None else table.mask,
            table_seat=0 if table is None else game._table_seat,
            passed=game._passed,
            out=game._out,
            must=game._must if seat == game._turn else 0,
            sam=getattr(game, "sam_declarer", None),
        )

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.counts)

    def min_other(self) -> int:
        """Fewest cards held by another seat still in the hand."""
        rest = [c for s, c in enumerate(self.counts) if s != self.me and not self.out >> s & 1]
        return min(rest, default=99)


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

    def _plays(self, v: SheddingView, legal: Sequence[Action]) -> list[tuple[int, int]]:
        """The play actions as (mask, index in ``legal``), without going out on a 2 where that
        is penalised (unless nothing else is left, or the seat is a Sâm declarer)."""
        if isinstance(legal, PlayMoves):
            plays = [(m, i) for i, m in enumerate(legal.play_masks)]
        else:
            plays = [(cards_to_mask(a["cards"]), i) for i, a in enumerate(legal) if a["type"] == "play"]
        if self._rules.finish_on_two != "allowed" and v.hand & _TWOS and v.sam != v.me:
            kept = [(m, i) for m, i in plays if m != v.hand]
            if kept or v.table is not None:
                return kept
        return plays

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
        if not isinstance(legal, PlayMoves) or not legal:
            return self.choose(turn.view, legal)
        if len(legal) == 1:
            return legal[0]
        return self._play(SheddingView.of_game(turn.game, turn.seat), legal)

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

    def _play(self, v: SheddingView, legal: Sequence[Action]) -> Action:
        plays = self._plays(v, legal)
        passing = pass_index(legal)
        if not plays:
            return legal[0 if passing is None else passing]
        i = rollout_greedy_choice(
            self.setup(v.players),
            v.hand,
            [m for m, _ in plays],
            v.table,
            v.min_other(),
            passing is not None,
        )
        if i is None:
            return legal[plays[0][1] if passing is None else passing]
        return legal[plays[i][1]]


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

    def _plays(self, v: SheddingView, legal: Sequence[Action]) -> list[tuple[int, int]]:
        plays = super()._plays(v, legal)
        if v.min_other() != 1 or v.sam is not None:
            return plays
        top_rank = (v.hand.bit_length() - 1) >> 2
        kept = [(m, i) for m, i in plays if m.bit_count() > 1 or (m.bit_length() - 1) >> 2 == top_rank]
        return kept or plays
