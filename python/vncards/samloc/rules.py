"""Sâm Lốc rules (RULES.md §3) as frozen data.

>>> from vncards.samloc import Rules
>>> r = Rules()
>>> r.finish_on_two, r.sam_block_pays, r.bao_mot_mode, r.bao_mot_scope
('penalized', 'blocker', 'penalize', 'all')
>>> r.replace(low_straights=True).core == Rules(low_straights=True).core
True
>>> Rules().replace(bao_mot_mode="strict")
Traceback (most recent call last):
...
vncards.errors.RulesError: Rules.bao_mot_mode must be one of 'penalize', 'enforce', not 'strict'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .._core import SheddingRules, samloc_rules
from ..rules import RulesBase, option
from ..shedding import PenaltyTable

__all__ = ["PENALTIES", "Rules"]

#: Thối and chặt units (RULES.md §3): a 2 is worth 15 and a tứ quý 15; plain cards count 1.
PENALTIES = PenaltyTable(black_two=15, red_two=15, four_of_a_kind=15)


@dataclass(frozen=True)
class Rules(RulesBase):
    """The house rules of a Sâm Lốc table; the defaults are those of RULES.md §3.

    - ``low_straights``: A-2-3, 2-3-4, … are the lowest straights (sảnh; K-A-2 never is).
    - ``quad_beats_pair_of_twos``: a tứ quý (four of a kind) also cuts a pair of 2s.
    - ``sam_block_pays``: when a Sâm is blocked (chặn Sâm) the declarer pays the
      ``"blocker"`` 20 × (players − 1), or pays 20 to ``"each"`` other player.
    - ``bao_mot_scope``: while a seat holds one card (báo 1), ``"all"`` other seats, or only the
      ``"previous_seat"`` (the one playing just before it), must play their highest single.
    - ``bao_mot_mode``: ``"penalize"``: a lower single is allowed and recorded, and the violator
      pays for the whole table (đền làng) if the one-card seat goes out with its next play;
      ``"enforce"``: lower singles are not legal.
    - ``finish_on_two``: going out with a play containing a 2: ``"penalized"`` (the player does
      not win and pays 15 per 2 to each other player), ``"forbidden"`` (refused unless it is
      the only legal action, then penalised), or ``"allowed"``.
    """

    low_straights: bool = option(
        False, "A-2-3, 2-3-4, … are the lowest straights (K-A-2 never is)", source="house"
    )
    quad_beats_pair_of_twos: bool = option(
        False, "a tứ quý (four of a kind) also cuts a pair of 2s", source="house"
    )
    sam_block_pays: Literal["blocker", "each"] = option(
        "blocker", "a blocked Sâm (chặn Sâm) pays the blocker 20 × (players − 1), or 20 to each other player"
    )
    bao_mot_scope: Literal["all", "previous_seat"] = option(
        "all", "who must play their highest single while a seat holds one card (báo 1)"
    )
    bao_mot_mode: Literal["penalize", "enforce"] = option(
        "penalize", "báo 1: a lower single is allowed and paid for (đền làng), or is not legal"
    )
    finish_on_two: Literal["penalized", "forbidden", "allowed"] = option(
        "penalized", "going out with a play containing a 2 (về 2)"
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        core = samloc_rules(
            low_straights=self.low_straights, quad_beats_pair_of_twos=self.quad_beats_pair_of_twos
        )
        object.__setattr__(self, "_core", core)

    @property
    def core(self) -> SheddingRules:
        """The combination rules as the Rust core reads them (rank only, no đôi thông,
        straights of 3–10 cards, ten-card hands, 2–5 players)."""
        return self._core  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self).from_dict, (self.to_dict(),))
