"""Tiến Lên Miền Nam and Miền Bắc (rules: :doc:`/rules/tienlen-south`, :doc:`/rules/tienlen-north`).

Combinations, beating and move generation run in the Rust core; :class:`Game` is the server
engine (deal, rounds, chặt, thối, cóng, kết 3 bích, settlement, snapshots, replay).

>>> from vncards import tienlen
>>> len(tienlen.legal_plays("3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥"))
82
>>> tienlen.classify("♦5 ♠6 ♣7").kind
'straight'
>>> tienlen.beats("♦5♠6♣7", "♥5♥6♠7")
True
>>> tienlen.beats("3♠3♣4♦4♥5♠5♦", "2♥")
True
>>> tienlen.instant_win("2♠2♣2♦2♥ 3♠4♠6♦8♥10♠Q♦K♥A♠9♣")
'four_twos'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import (
    PlayList,
    SheddingCombo,
    SheddingRules,
    cards_to_mask,
    shedding_beats,
    shedding_classify,
    shedding_legal_play_masks,
    shedding_legal_plays,
    tienlen_instant_win,
)
from ..shedding import core_of
from .game import Game
from .rules import Rules

if TYPE_CHECKING:  # numpy is optional (the `numpy` extra): only legal_play_masks needs it
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Combo",
    "Game",
    "Rules",
    "beats",
    "classify",
    "instant_win",
    "legal_play_masks",
    "legal_plays",
]

#: A combination: ``.kind``, ``.cards`` (low to high), ``.mask``; frozen and hashable.
Combo = SheddingCombo

_SOUTH = Rules.south()


_SOUTH_CORE = _SOUTH.core


def _core(rules: Rules | None) -> SheddingRules:
    return _SOUTH_CORE if rules is None else core_of(rules, Rules, _SOUTH)


def classify(cards: Any, rules: Rules | None = None) -> Combo | None:
    """The combination the cards form (single, pair, triple, straight (sảnh), pair_sequence
    (đôi thông), four_of_a_kind (tứ quý)), or None.

    >>> classify("K♠ A♦ 2♥") is None
    True
    >>> classify("♠4 ♦4", Rules.north()) is None
    True
    """
    return shedding_classify(cards, _core(rules))


def beats(play: Any, table: Any, rules: Rules | None = None) -> bool:
    """Does ``play`` beat ``table`` (ordinary beating or a bomb, chặt)? Cards or Combos.

    >>> beats("7♠7♣7♦7♥", "2♠2♥")
    True
    >>> beats("9♠", "8♥", Rules.north())
    False
    """
    return shedding_beats(play, table, _core(rules))


def legal_plays(
    hand: Any, table: Any = None, rules: Rules | None = None, *, must_include: Any = None
) -> PlayList:
    """Every distinct set of cards from ``hand`` that may be played on ``table`` (None: a
    lead), each containing ``must_include`` if given. No pass entry.

    The result is a read-only sequence (``PlayList``) that builds each Combo when it is read,
    compares equal to the list of its Combos, and gives every play's card mask as ``.masks``.

    >>> [str(c) for c in legal_plays("3♠ 4♠ 5♠ 9♥", "4♥")]
    ['5♠', '9♥']
    >>> [str(c) for c in legal_plays("3♠ 4♠ 5♠ 9♥", must_include="3♠")]
    ['3♠', '3♠ 4♠ 5♠']
    """
    must = 0 if must_include is None else cards_to_mask(must_include)
    return shedding_legal_plays(hand, table, _core(rules), must)


def legal_play_masks(
    hand: Any, table: Any = None, rules: Rules | None = None, *, must_include: Any = None
) -> npt.NDArray[np.uint64]:
    """The card masks of :func:`legal_plays` (the same plays, in the same order) as a numpy
    ``uint64`` array, without building a Combo per play: for servers and learners that only
    need action masks. Bit ``i`` is ``Card.index`` ``i``.

    >>> from vncards.cards import from_mask
    >>> [" ".join(map(str, from_mask(int(m)))) for m in legal_play_masks("3♠ 4♠ 5♠ 9♥", "4♥")]
    ['5♠', '9♥']
    >>> legal_play_masks("3♠ 4♠ 5♠ 9♥").dtype
    dtype('uint64')
    """
    if must_include is None and rules is None:
        return shedding_legal_play_masks(hand, table, _SOUTH_CORE)
    must = 0 if must_include is None else cards_to_mask(must_include)
    return shedding_legal_play_masks(hand, table, _core(rules), must)


def instant_win(hand: Any, rules: Rules | None = None, *, first_hand: bool = False) -> str | None:
    """The strongest instant win (tới trắng) of a dealt hand, e.g. ``"dragon"`` or
    ``"six_pairs"``, or None. ``first_hand`` enables the ``first_hand_extras`` kinds.

    >>> instant_win("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣ 2♥")
    'dragon'
    """
    r = _SOUTH if rules is None else rules
    found = tienlen_instant_win(
        hand, _core(rules), r.same_colour_instant_win, r.first_hand_extras and first_hand
    )
    return None if found is None else found[0]
