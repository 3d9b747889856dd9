"""What ``vncards play`` needs to know about a family of games: how its cards, moves, events,
table and settlement are shown, and how a move typed out is read. The loop itself
(:mod:`vncards.cli.play`) is the same for every game.

:class:`Family` holds what all games share: events rendered from their data through
:data:`~vncards.words.EVENT_WORDS` (a new event of the engine reads in words without a line
here), the cards each seat holds, your hand, the payments. Each family
(:mod:`vncards.cli.play.shedding`, :mod:`vncards.cli.play.maubinh`,
:mod:`vncards.cli.play.tusac`) overrides what differs.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape

from ...words import EVENT_WORDS, payment_text, term
from ..terminal import colour_cards

__all__ = ["Family", "seat_name"]


def seat_name(seat: Any, you: int | None) -> str:
    """``"you"`` for your seat, else ``"seat 2"``."""
    return "you" if seat == you else f"seat {seat}"


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


class Family:
    """The common part; a family of games overrides what differs."""

    #: Why a lone legal pass is made for you.
    forced_pass = "no play beats the table"
    #: An example of typed cards for the prompt's hint.
    typed_example = "3s 3c"

    def glossary_note(self) -> str:
        """A line the glossary ends with ("" for none)."""
        return ""

    def cards(self, cards: Any) -> str:
        """Cards in colour (markup): text like ``"3♠ 3♣"`` or a list of card codes."""
        codes = cards.split() if isinstance(cards, str) else [str(c) for c in cards]
        return colour_cards(" ".join(codes))

    # -- moves ---------------------------------------------------------------------------------

    def action_text(self, game: Any, action: dict[str, Any]) -> str:
        """One legal move in words (markup)."""
        if action.get("type") == "pass":
            return "pass (bỏ lượt)"
        return escape(term(str(action.get("type"))))

    def moves_hint(self, legal: list[dict[str, Any]]) -> str | None:
        """The line under the numbered moves: what else may be typed."""
        if any("card" in a or "cards" in a for a in legal):
            return f"(or type the cards, e.g. {self.typed_example})"
        return None

    def forced_text(self, game: Any, view: dict[str, Any], action: dict[str, Any]) -> str:
        """Why the only legal move is made for you, and what it is (markup)."""
        if action.get("type") == "pass":
            return f"{self.forced_pass}: you pass (forced)"
        why = "your last card" if len(view.get("hand") or ()) == 1 else "your only move"
        return f"{why}: {self.action_text(game, action)} (forced)"

    def answer_hint(self, legal: list[dict[str, Any]]) -> str | None:
        """What to type when only words answer the question ``legal`` offers (the Sâm
        declaration: y or n), or None when cards may be typed. Any other answer is refused
        with it."""
        return None

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """A move typed out instead of picked by number: the legal action it names, or (for
        the engine to explain) the action it would be. Bad card text raises InvalidCardError."""
        raise NotImplementedError

    def accept(self, console: Console, game: Any, seat: int, action: dict[str, Any]) -> bool:
        """Whether to make the chosen ``action``: a family may ask again first (False: the
        player changed their mind)."""
        return True

    # -- the table -----------------------------------------------------------------------------

    def show_table(self, game: Any, view: dict[str, Any], console: Console) -> None:
        """The public state you need, then your hand."""
        you = view.get("seat")
        counts = view.get("hand_counts")
        if counts:
            held = ", ".join(f"{seat_name(s, you)}: {c}" for s, c in enumerate(counts))
            console.print(f"cards held: {held}")
        self.show_public(game, view, console)
        self.show_hand(game, view, console)

    def show_public(self, game: Any, view: dict[str, Any], console: Console) -> None:
        """What the family shows of the table between the card counts and your hand."""

    def show_hand(self, game: Any, view: dict[str, Any], console: Console) -> None:
        """Your hand."""
        hand = view.get("hand")
        if hand:
            console.print(f"[bold]your hand:[/bold] {self.cards(hand)}")

    # -- events --------------------------------------------------------------------------------

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> RenderableType | None:
        """One event in words (markup, or a table), or None for bookkeeping the player does
        not need."""
        kind = str(e.get("type"))
        who = seat_name(e.get("seat"), you)
        fields = self.event_fields(e, you)
        if kind in EVENT_WORDS:
            return EVENT_WORDS[kind].format_map(fields)
        if kind == "deal":
            return "cards dealt (chia bài)" + (f", hand {e['hand_number']}" if "hand_number" in e else "")
        if kind == "lead":
            must = e.get("must_include")
            return f"{who} lead{fields['s']}" + (f", with {self.cards(must)}" if must else "")
        if kind == "hand_end":
            winner = e.get("winner")
            return "hand over: " + ("nobody won" if winner is None else f"{seat_name(winner, you)} won")
        if kind == "settle":
            return None
        rest = ", ".join(f"{term(k)} {fields[k]}" for k in e if k not in ("type", "seat"))
        return f"{who if 'seat' in e else ''} {term(kind)}{': ' + rest if rest else ''}".strip()

    def event_fields(self, e: dict[str, Any], you: int | None) -> dict[str, str]:
        """The fields :data:`~vncards.words.EVENT_WORDS` fills in: every field of the event as
        text, seats as "you" or "seat N", codes in words, cards in colour."""
        who = seat_name(e.get("seat"), you)
        fields = _Blank({k: escape(str(v)) for k, v in e.items()})
        fields.update(who=who, s="" if who == "you" else "s", term=term(str(e.get("type"))))
        for key in ("combo", "meld", "win"):
            if key in e:
                fields[key] = term(str(e[key]))
        for key in ("victim", "leader"):
            if key in e:
                fields[key] = seat_name(e[key], you)
        if isinstance(e.get("card"), str):
            fields["card"] = self.cards([e["card"]])
        if isinstance(e.get("cards"), (str, list)):
            fields["cards"] = self.cards(e["cards"])
        return fields

    # -- the end -------------------------------------------------------------------------------

    def show_payments(self, game: Any, you: int, players: list[str], console: Console) -> None:
        """The ledger in words, one payment a line (``players``: "you" or each seat's bot)."""
        if game.ledger:
            console.print("[bold]Payments[/bold]")
            for item in game.ledger:
                console.print(f"  {escape(payment_text(item, you))}")
