"""Card parsing speed from Python (cards/s), against a plain-Python parser of the same forms."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import rate, report

from vncards import parse_cards
from vncards.cards import to_mask

HAND = "3♠ 3♣ 4♦ 4♥ 5♠ 5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥"
RANKS = {r: i for i, r in enumerate(["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"])}
SUITS = {s: i for i, s in enumerate("♠♣♦♥")}
TOKEN = re.compile(r"(10|[2-9JQKA])([♠♣♦♥])")


def python_parse(text: str) -> list[int]:
    return [RANKS[r] * 4 + SUITS[s] for r, s in TOKEN.findall(text)]


def main() -> None:
    print("cards: parsing a 13-card hand")
    a = rate(lambda: parse_cards(HAND), per_call=13)
    b = rate(lambda: to_mask(HAND), per_call=13)
    c = rate(lambda: python_parse(HAND), per_call=13)
    report("vncards.parse_cards -> list[Card]", a, "cards/s")
    report("vncards.cards.to_mask -> int", b, "cards/s")
    report("plain-Python regex parser (one form only)", c, "cards/s")
    print(f"ratio parse_cards / plain Python: {a / c:.2f}x; to_mask / plain Python: {b / c:.2f}x")


if __name__ == "__main__":
    main()
