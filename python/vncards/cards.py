"""Cards of the 52-card deck (Tiến Lên order) and card-argument helpers.

``Card`` is implemented in Rust: frozen, hashable, ordered rank first (``3 < … < A < 2``)
then suit (``♠ < ♣ < ♦ < ♥``).

>>> from vncards import Card, parse_cards
>>> c = Card("Th")
>>> c, str(c), c.rank, c.suit, c.ascii, c.index
(Card('10♥'), '10♥', '10', '♥', 'Th', 31)
>>> Card("♥10") == Card("10h") == c
True
>>> [str(x) for x in parse_cards("♠4♣4, 2h")]
['4♠', '4♣', '2♥']
>>> Card("2♥") > Card("A♠") > Card("10♠") > Card("9♥")
True
"""

from __future__ import annotations

from collections.abc import Iterable

from ._core import Card, cards_to_mask, mask_to_cards, mask_to_text, parse_card, parse_cards

__all__ = [
    "Card",
    "CardsLike",
    "DECK",
    "parse_card",
    "parse_cards",
    "to_mask",
    "from_mask",
    "cards_text",
]

#: What every function taking cards accepts: ``"3♠ 4♦ ♥5"``, ``["3♠", "4♦"]`` or a list of ``Card``.
CardsLike = str | Iterable[str | Card]

#: The 52 cards, low to high in Tiến Lên order.
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def to_mask(cards: CardsLike | Card) -> int:
    """The 64-bit mask of a card argument (bit ``i`` = card index ``i``); duplicates raise."""
    return cards_to_mask(cards)


def from_mask(mask: int) -> list[Card]:
    """The cards of a mask, low to high."""
    return mask_to_cards(mask)


def cards_text(mask: int, ascii: bool = False) -> str:
    """Canonical text of a mask's cards, low to high: ``"3♠ 10♥"`` (or ``"3s Th"``)."""
    return mask_to_text(mask, ascii)
