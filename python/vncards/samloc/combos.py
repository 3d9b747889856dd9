"""Sâm Lốc combinations: classification, beating and move generation by rank only, on the
shared shedding core (rules: :doc:`/rules/samloc`).

Suits never compare, so equal ranks never beat each other; there is no đôi thông; straights
(sảnh) have 3–10 cards and never hold a 2 unless ``low_straights``; a tứ quý (four of a kind)
cuts a single 2 and a lower tứ quý.

>>> from vncards import samloc
>>> samloc.classify("5♠ 6♦ 7♥").kind
'straight'
>>> samloc.classify("K♠ A♦ 2♥") is None
True
>>> samloc.beats("5♥", "5♠"), samloc.beats("6♠", "5♥"), samloc.beats("7♠7♣7♦7♥", "2♥")
(False, True, True)
>>> [str(c) for c in samloc.legal_plays("3♠ 5♦ 9♣ K♥ K♠", "10♦")]
['K♠', 'K♥']
>>> samloc.instant_win("4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦")
'five_pairs'
"""

from __future__ import annotations

from typing import TypeAlias

from .._args import count_arg
from .._core import (
    PlayList,
    SheddingCombo,
    SheddingRules,
    cards_to_mask,
    samloc_instant_win,
    samloc_instant_winner,
    samloc_legal_plays,
    shedding_beats,
    shedding_classify,
)
from ..cards import Card, CardsLike, from_mask
from ..shedding import core_of
from .rules import Rules

__all__ = [
    "INSTANT_WINS",
    "Combo",
    "beats",
    "classify",
    "core_rules",
    "instant_win",
    "instant_winner",
    "legal_plays",
]

#: A combination: ``.kind`` (``"single"``, ``"pair"``, ``"triple"``, ``"straight"``,
#: ``"four_of_a_kind"``), ``.cards`` (low to high), ``.mask``, ``.is_bomb``, ``.is_twos``.
Combo = SheddingCombo

#: Instant-win kinds (tới trắng), strongest first.
INSTANT_WINS = ("dragon", "four_twos", "same_colour", "three_triples", "five_pairs")

PlayLike: TypeAlias = CardsLike | Card | SheddingCombo | int

_DEFAULT = Rules()


def core_rules(rules: Rules | None = None) -> SheddingRules:
    """The shared shedding-core rules of a Sâm Lốc ``Rules`` (the defaults for ``None``)."""
    return core_of(rules, Rules, _DEFAULT)


def classify(cards: PlayLike, rules: Rules | None = None) -> Combo | None:
    """The combination these cards form (rank only, no đôi thông), or ``None``.

    >>> classify("A♠ 2♦ 3♥") is None, classify("A♠ 2♦ 3♥", Rules(low_straights=True)).kind
    (True, 'straight')
    """
    return shedding_classify(cards, core_rules(rules))


def beats(play: PlayLike, table: PlayLike, rules: Rules | None = None) -> bool:
    """Does ``play`` beat ``table`` in turn: same kind and length with a higher top rank, or a
    tứ quý cutting (chặt) a single 2 (a pair of 2s with ``quad_beats_pair_of_twos``) or a lower
    tứ quý? Cards that form no combination never beat.

    >>> beats("♠6♦6", "♣5♥5"), beats("7♠7♣7♦7♥", "2♠2♥")
    (True, False)
    """
    return shedding_beats(play, table, core_rules(rules))


def legal_plays(
    hand: CardsLike | int,
    table: PlayLike | None = None,
    rules: Rules | None = None,
    *,
    must_include: CardsLike | None = None,
    bao_mot: bool = False,
) -> PlayList:
    """Every distinct set of cards from ``hand`` that may be played on ``table`` (``None``:
    leading), each containing ``must_include``; no pass entry. With ``bao_mot`` (báo 1 in
    mode ``"enforce"``: another seat holds one card), singles lower than the hand's highest
    rank are left out.

    >>> [str(c) for c in legal_plays("3♠ 5♦ 9♣ K♥", bao_mot=True) if c.kind == "single"]
    ['K♥']
    """
    must = 0 if must_include is None else cards_to_mask(must_include)
    return samloc_legal_plays(hand, table, core_rules(rules), bao_mot, must)


def instant_win(hand: CardsLike | int, rules: Rules | None = None) -> str | None:
    """The strongest instant win (tới trắng) of a dealt ten-card hand, or ``None``: ``"dragon"``
    (sảnh rồng, ten cards in one straight), ``"four_twos"`` (tứ quý heo), ``"same_colour"``
    (đồng hoa, ten cards of one colour), ``"three_triples"`` (3 sám), ``"five_pairs"`` (5 đôi;
    a tứ quý counts as two pairs). A hand of another size is never an instant win.

    >>> instant_win("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠"), instant_win("4♦4♥4♠6♣6♠6♥J♦J♥J♣A♠")
    ('dragon', 'three_triples')
    """
    found = samloc_instant_win(hand, core_rules(rules))
    return None if found is None else found[0]


def _hand_mask(hand: CardsLike | int) -> int:
    """The mask of a hand given as cards or as a mask (checked: only the 52 card bits)."""
    if isinstance(hand, int):
        from_mask(hand)  # raises InvalidCardError outside the card bits
        return hand
    return cards_to_mask(hand)


def instant_winner(
    hands: list[CardsLike | int], leader: int = 0, rules: Rules | None = None
) -> tuple[int, str] | None:
    """The seat that wins at the deal and its instant-win kind, or ``None``: the strongest kind
    wins; the same kind, the higher top rank (the highest triple or pair for those kinds);
    still equal, the seat nearer ``leader`` in turn order.

    >>> pairs_q, pairs_k = "4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦", "3♦3♥5♦5♥6♣6♥8♣8♥K♣K♦"
    >>> instant_winner([pairs_q, pairs_k, "3♠4♣6♦7♠8♥10♠J♣Q♥K♠A♦"])
    (1, 'five_pairs')
    >>> instant_winner(["4♠4♣5♠5♣6♦6♠8♠8♦K♥K♠", pairs_k], leader=1)
    (1, 'five_pairs')
    """
    masks = [_hand_mask(h) for h in hands]
    leader = count_arg("leader", leader, minimum=0, maximum=max(len(masks) - 1, 0))
    found = samloc_instant_winner(masks, leader, core_rules(rules))
    return None if found is None else (found[0], found[1])
