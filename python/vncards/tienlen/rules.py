"""Tiến Lên rules: every option of the Tiến Lên rules pages (:doc:`/rules/tienlen-south`, :doc:`/rules/tienlen-north`) as a
frozen dataclass.

>>> south, north = Rules.south(), Rules.north()
>>> south.scoring, north.finish_on_two, north.same_colour_pairs
('count', 'penalized', True)
>>> south.replace(scoring="ranked")
Traceback (most recent call last):
...
vncards.errors.RulesError: scoring='ranked' does not fit ending='first_out': ...
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from .._core import SheddingFlowRules, SheddingRules, tienlen_flow_rules
from ..errors import RulesError
from ..rules import RulesBase, option
from ..shedding.penalty import PenaltyTable

__all__ = ["Rules"]

_COUNT = PenaltyTable(black_two=3, red_two=6, three_pair_sequence=9, four_of_a_kind=12, four_pair_sequence=18)
_RANKED = PenaltyTable(black_two=1, red_two=2, three_pair_sequence=3, four_of_a_kind=4, four_pair_sequence=6)


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Options of Tiến Lên (rules: :doc:`/rules/tienlen-south`, :doc:`/rules/tienlen-north`). ``Rules()`` is Miền Nam
    (``south()``). Each option names its default and where it comes from: a seed document (the
    original Vietnamese rules the engine follows) or a house rule.

    - ``ending`` (default ``"first_out"``, seed: the hand ends when the first player goes out)
      or ``"ranked"`` (house rule: play on for nhất, nhì, ba, bét); ``scoring`` must match it:
      ``"count"`` (default, seed: cards left, thối, cóng 26, kết 3 bích) with ``first_out``,
      ``"ranked"`` with ``ranked``.
    - ``first_lead``: ``"three_of_spades"`` (default, seed: the holder of 3♠, or of the lowest
      dealt card, leads with it) or ``"random"`` (seed: a random seat leads with any play);
      applies to the first hand and after an instant win.
    - ``bomb_after_pass``: ``"none"`` (default, seed: "nếu một người bỏ lượt thì coi như bỏ cả
      vòng", a seat that passed is out of the round and is always skipped);
      ``"four_pair_sequence"`` (house rule: while the table can be cut, the turn comes back to
      every seat that passed, whatever it holds, so the turn never reveals a bomb; each may cut
      with a 4 đôi thông or pass again); ``"any_bomb"`` (house rule: the same for any bomb).
    - ``quad_beats_pair_of_twos`` (default on, common convention): a tứ quý cuts a pair of 2s.
    - ``ket_3_bich`` (default on, seed): going out with the single 3♠ (kết 3 bích), and chặn
      kết 3 bích.
    - ``finish_on_two``: emptying the hand with a 2 is ``"allowed"`` (default south),
      ``"penalized"`` (default north) or ``"forbidden"`` (unless nothing else is legal).
    - ``thoi_to`` (ranked scoring only): thối goes to the seat placed ``"above"`` (default) or
      to the ``"winner"``.
    - ``same_colour_instant_win`` (default off: 12 cards of one suit, seed) and
      ``first_hand_extras`` (default off): instant-win (tới trắng) house variants.
    - ``single_follows_suit``, ``triple_follows_suits``: northern beating of singles/triples.
    - Structural flags of the northern game: ``same_colour_pairs``, ``same_suit_straights``,
      and ``pair_sequences`` (đôi thông exist, as combinations and bombs).

    >>> Rules().bomb_after_pass, Rules(bomb_after_pass="any_bomb").bomb_after_pass
    ('none', 'any_bomb')
    """

    ending: Literal["first_out", "ranked"] = option(
        "first_out", "the hand ends when one player goes out, or plays on for nhất, nhì, ba, bét"
    )
    scoring: Literal["count", "ranked"] = option(
        "count", "count: losers pay cards left, thối, cóng, kết 3 bích; ranked: pay by place"
    )
    first_lead: Literal["three_of_spades", "random"] = option(
        "three_of_spades", "the first hand is led by the holder of 3♠ (with it), or a random seat"
    )
    bomb_after_pass: Literal["none", "four_pair_sequence", "any_bomb"] = option(
        "none", "which seats that passed may still cut (chặt) when their turn comes (none: seed 001)"
    )
    quad_beats_pair_of_twos: bool = option(True, "a tứ quý (four of a kind) cuts a pair of 2s")
    ket_3_bich: bool = option(True, "going out with the single 3♠ (kết 3 bích) is paid, and blocking it")
    finish_on_two: Literal["allowed", "penalized", "forbidden"] = option(
        "allowed", "emptying the hand with a play containing a 2 (về 2)"
    )
    thoi_to: Literal["above", "winner"] = option(
        "above", "ranked scoring: thối is paid to the seat placed just above, or to the winner"
    )
    same_colour_instant_win: bool = option(
        False,
        "instant win (tới trắng) with 12-13 cards of one colour instead of 12 of one suit",
        source="house",
    )
    first_hand_extras: bool = option(
        False, "first hand only: four 3s and 3 đôi thông with 3♠ are instant wins too", source="house"
    )
    single_follows_suit: bool = option(False, "a non-2 single is beaten only by a higher card of its suit")
    triple_follows_suits: bool = option(False, "a triple is beaten only by a higher triple of the same suits")
    same_colour_pairs: bool = option(False, "pairs must be one colour (♠♣ or ♦♥) and beaten within it")
    same_suit_straights: bool = option(False, "straights (sảnh) must be one suit and are beaten within it")
    pair_sequences: bool = option(True, "đôi thông (consecutive pairs) exist, as combinations and bombs")

    @classmethod
    def south(cls) -> Rules:
        """Tiến Lên Miền Nam (the defaults)."""
        return cls()

    @classmethod
    def north(cls) -> Rules:
        """Tiến Lên Miền Bắc: same-colour pairs, same-suit straights, singles follow suit,
        no đôi thông, tứ quý only in turn, a hand emptied with a 2 is penalised."""
        return cls(
            same_colour_pairs=True,
            same_suit_straights=True,
            single_follows_suit=True,
            pair_sequences=False,
            bomb_after_pass="none",
            finish_on_two="penalized",
        )

    def __post_init__(self) -> None:
        super().__post_init__()
        core = SheddingRules(
            suit_order=True,
            same_colour_pairs=self.same_colour_pairs,
            same_suit_straights=self.same_suit_straights,
            single_follows_suit=self.single_follows_suit,
            triple_follows_suits=self.triple_follows_suits,
            pair_sequences=self.pair_sequences,
            min_straight=3,
            max_straight=12,
            low_straights=False,
            quad_beats_pair_of_twos=self.quad_beats_pair_of_twos,
            hand_size=13,
            min_players=2,
            max_players=4,
        )
        object.__setattr__(self, "_core", core)
        flow = tienlen_flow_rules(
            core,
            ending=self.ending,
            scoring=self.scoring,
            first_lead=self.first_lead,
            bomb_after_pass=self.bomb_after_pass,
            ket_3_bich=self.ket_3_bich,
            finish_on_two=self.finish_on_two,
            thoi_to=self.thoi_to,
            same_colour_instant_win=self.same_colour_instant_win,
            first_hand_extras=self.first_hand_extras,
            penalties=self.penalties.as_tuple(),
        )
        object.__setattr__(self, "_flow", flow)

    def _check(self) -> None:
        if (self.scoring == "ranked") != (self.ending == "ranked"):
            raise RulesError(
                f"scoring={self.scoring!r} does not fit ending={self.ending!r}: "
                "'count' goes with 'first_out', 'ranked' with 'ranked'"
            )
        if self.bomb_after_pass == "four_pair_sequence" and not self.pair_sequences:
            raise RulesError(
                "bomb_after_pass='four_pair_sequence' needs pair_sequences "
                "(there is no đôi thông without them)"
            )

    @property
    def core(self) -> SheddingRules:
        """The combination rules as the Rust core reads them."""
        return self._core  # type: ignore[attr-defined, no-any-return]

    @property
    def flow(self) -> SheddingFlowRules:
        """The flow rules (instant wins, leads, after-pass cuts, scoring) as the Rust core
        reads them."""
        return self._flow  # type: ignore[attr-defined, no-any-return]

    @property
    def penalties(self) -> PenaltyTable:
        """Units of thối and of cut items under this ``scoring``."""
        table = _COUNT if self.scoring == "count" else _RANKED
        if not self.pair_sequences:
            table = dataclasses.replace(table, three_pair_sequence=0, four_pair_sequence=0)
        return table
