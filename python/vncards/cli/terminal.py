"""What the terminal shows: cards in colour (rich markup) and the plain ASCII fallback.

Colours read on light and dark backgrounds alike (no white, no pale yellow). ``--ascii`` (or
a terminal that cannot show ♠♥♦♣) sends every output through :func:`to_ascii`.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from typing import TextIO

from rich.markup import escape

__all__ = ["colour_cards", "to_ascii", "tusac_names", "AsciiFile", "cannot_show_suits"]

RED = "bold red3"
#: Tứ Sắc colour letter -> style; white cards in the terminal's own colour.
TUSAC_COLOURS = {"W": "bold", "Y": "bold dark_goldenrod", "R": RED, "G": "bold green4"}


def colour_cards(text: str) -> str:
    """Rich markup drawing ♦ and ♥ cards red (and Tứ Sắc codes in their colour; white cards
    in the terminal's own colour, so they show on light and dark backgrounds):

    >>> colour_cards("10♥ 3♠")
    '[bold red3]10♥[/bold red3] 3♠'
    >>> colour_cards("PW KG")
    '[bold]PW[/bold] [bold green4]KG[/bold green4]'
    """
    out = []
    for token in text.split(" "):
        style = None
        if token[-1:] in ("♦", "♥"):
            style = RED
        elif len(token) == 2 and token.isupper() and token[-1] in TUSAC_COLOURS:
            style = TUSAC_COLOURS[token[-1]]
        out.append(f"[{style}]{escape(token)}[/{style}]" if style else escape(token))
    return " ".join(out)


def tusac_names(codes: Sequence[str]) -> str:
    """Tứ Sắc cards by name in their colour: ``["KR", "PW"]`` -> ``Tướng đỏ, Chốt trắng``."""
    from .._core import TuSacCard

    out = []
    for code in codes:
        style = TUSAC_COLOURS.get(code[-1:], "")
        name = escape(TuSacCard(code).name)
        out.append(f"[{style}]{name}[/{style}]" if style else name)
    return ", ".join(out)


_ASCII = str.maketrans(
    {
        "♠": "s",
        "♣": "c",
        "♦": "d",
        "♥": "h",
        "đ": "d",
        "Đ": "D",
        "→": ">",
        "±": "~",
        "×": "x",
        "–": "-",
        "—": "-",
        "…": ".",
        "·": ".",
        "≥": ">",
        "≤": "<",
        "−": "-",
    }
)


def to_ascii(text: str) -> str:
    """Text a plain ASCII terminal shows: suits as letters (``10h``, which every card argument
    accepts), Vietnamese without accents; one character for one, so tables stay aligned.

    >>> to_ascii("thối 2: 10♥ 3♠ — Tướng đỏ")
    'thoi 2: 10h 3s - Tuong do'
    """
    text = unicodedata.normalize("NFKD", text.translate(_ASCII))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


class AsciiFile(io.TextIOBase):
    """A text stream that writes everything through :func:`to_ascii`; it reports an ASCII
    encoding, so rich draws its tables with ``+-|``."""

    encoding = "ascii"

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(to_ascii(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def cannot_show_suits(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding lacks the suits or Vietnamese letters."""
    try:
        "♠♥♦♣ố".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False
