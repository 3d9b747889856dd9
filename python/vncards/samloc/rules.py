"""Sâm Lốc rules (:doc:`/rules/samloc`) as frozen data.

>>> from vncards.samloc import Rules
>>> r = Rules()
>>> r.finish_on_two, r.sam_block_pays, r.bao_mot_mode, r.bao_mot_scope, r.bao_mot_den
('forbidden', 'blocker', 'penalize', 'all', 'cards')
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

from .._core import SheddingFlowRules, SheddingRules, samloc_flow_rules, samloc_rules
from ..rules import RulesBase, option
from ..shedding import PenaltyTable

__all__ = ["PENALTIES", "Rules"]

#: Thối and chặt units (seed): a 2 is worth 15 and a tứ quý 15; plain cards count 1.
PENALTIES = PenaltyTable(black_two=15, red_two=15, four_of_a_kind=15)


@dataclass(frozen=True)
class Rules(RulesBase):
    """The options of a Sâm Lốc table (rules: :doc:`/rules/samloc`). Each names its default
    and where it comes from: the seed document (the original Vietnamese rules the engine
    follows) or a house rule.

    - ``low_straights`` (default off, seed: "K A 2, A 2 3, 2 3 4 không phải là sảnh"; on is a
      house rule): A-2-3, 2-3-4, … are the lowest straights (sảnh; K-A-2 never is).
    - ``quad_beats_pair_of_twos`` (default off, seed: a tứ quý cuts a 2 and a lower tứ quý;
      on is a house rule): a tứ quý (four of a kind) also cuts a pair of 2s.
    - ``sam_block_pays``: when a Sâm is blocked (chặn Sâm) the declarer pays the
      ``"blocker"`` 20 × (players − 1) (default, seed: "Đền Sâm: Mất 20 lần tiền cược x (số
      người chơi – 1)"), or pays 20 to ``"each"`` other player (house rule).
    - ``bao_mot_scope``: while a seat holds one card (báo 1), ``"all"`` other seats (default,
      seed: "những người chơi khác"), or only the ``"previous_seat"`` (house rule: the one
      playing just before it), must play their highest single.
    - ``bao_mot_mode``: ``"penalize"`` (default, seed): a lower single is allowed and recorded,
      and the violator pays for the whole table (đền làng) if the one-card seat goes out with
      its next play; ``"enforce"`` (house rule): lower singles are not legal.
    - ``bao_mot_den``: what the đền làng costs. ``"cards"`` (default, seed: "đền bằng tổng số
      lá bài của các người chơi nhân tiền cược"): the total number of cards the losers still
      hold, the violator's included, 1 unit per card whatever it is; ``"payments"`` (house
      rule): the sum of what every loser would have paid (2s and tứ quý at 15, cóng 15).
    - ``finish_on_two``: going out with a play containing a 2. ``"forbidden"`` (default, seed:
      "Không được để 2 cuối"): such a play is refused unless it is the only legal action, then
      penalised as under ``"penalized"`` (house rule: the player does not win, the hand ends
      and the player pays 15 per 2 in that play to each other player); ``"allowed"``.
      It binds every seat, a Sâm declarer included (the seed names no exception).
    - ``sam_may_finish_on_two`` (default off; on is a house rule, and the engine's behaviour
      before the seed reading): a Sâm declarer is exempt from ``finish_on_two``, so its last
      play may hold a 2 and still wins the Sâm.

    >>> Rules(finish_on_two="penalized", bao_mot_den="payments").bao_mot_den
    'payments'
    """

    low_straights: bool = option(False, "A-2-3, 2-3-4, … are the lowest straights (K-A-2 never is)")
    quad_beats_pair_of_twos: bool = option(False, "a tứ quý (four of a kind) also cuts a pair of 2s")
    sam_block_pays: Literal["blocker", "each"] = option(
        "blocker", "a blocked Sâm (chặn Sâm) pays the blocker 20 × (players − 1), or 20 to each other player"
    )
    bao_mot_scope: Literal["all", "previous_seat"] = option(
        "all", "who must play their highest single while a seat holds one card (báo 1)"
    )
    bao_mot_mode: Literal["penalize", "enforce"] = option(
        "penalize", "báo 1: a lower single is allowed and paid for (đền làng), or is not legal"
    )
    bao_mot_den: Literal["cards", "payments"] = option(
        "cards", "đền làng costs the cards the losers hold (1 each), or what every loser would have paid"
    )
    finish_on_two: Literal["forbidden", "penalized", "allowed"] = option(
        "forbidden", "going out with a play containing a 2 (về 2), for every seat"
    )
    sam_may_finish_on_two: bool = option(
        False, "a Sâm declarer is exempt from finish_on_two (its last play may hold a 2)"
    )

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        # Stored before the seed reading (neither option existed): đền làng paid what the
        # losers owed, and a Sâm declarer was exempt from finish_on_two.
        if "finish_on_two" in data and "bao_mot_den" not in data and "sam_may_finish_on_two" not in data:
            data.update(bao_mot_den="payments", sam_may_finish_on_two=True)
        return data

    def __post_init__(self) -> None:
        super().__post_init__()
        core = samloc_rules(
            low_straights=self.low_straights, quad_beats_pair_of_twos=self.quad_beats_pair_of_twos
        )
        object.__setattr__(self, "_core", core)
        flow = samloc_flow_rules(
            core,
            sam_block_pays=self.sam_block_pays,
            bao_mot_scope=self.bao_mot_scope,
            bao_mot_mode=self.bao_mot_mode,
            bao_mot_den=self.bao_mot_den,
            finish_on_two=self.finish_on_two,
            sam_may_finish_on_two=self.sam_may_finish_on_two,
        )
        object.__setattr__(self, "_flow", flow)

    @property
    def core(self) -> SheddingRules:
        """The combination rules as the Rust core reads them (rank only, no đôi thông,
        straights of 3–10 cards, ten-card hands, 2–5 players)."""
        return self._core  # type: ignore[attr-defined, no-any-return]

    @property
    def flow(self) -> SheddingFlowRules:
        """The flow rules (declarations, báo 1, finishing on a 2, payments) as the Rust core
        reads them."""
        return self._flow  # type: ignore[attr-defined, no-any-return]
