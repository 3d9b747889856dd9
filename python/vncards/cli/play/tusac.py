"""Tứ Sắc at the terminal: cards by name in their colour, your hand by colour and meld, offers,
claims and melds on the table."""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape

from ...errors import IllegalMoveError
from ...words import term
from ..terminal import TUSAC_COLOURS, tusac_names
from .family import Family, seat_name

__all__ = ["TuSac"]

#: Colour letters in the deck's order, and the pieces' letters strongest first.
_COLOURS = "YRGW"
_PIECES = "KAERCHP"
_COLOUR_WORDS = {"Y": "vàng", "R": "đỏ", "G": "xanh", "W": "trắng"}
#: Melds of cards of different colours, shown on a line of their own.
_MIXED = ("three_soldiers", "four_soldiers")


def _styled(text: str, colour: str) -> str:
    style = TUSAC_COLOURS.get(colour, "")
    return f"[{style}]{escape(text)}[/{style}]" if style else escape(text)


class TuSac(Family):
    """Tứ Sắc: discards and turned-up cards offered for claims (ăn), melds laid down."""

    forced_pass = "nothing to claim"
    typed_example = "Chốt trắng or PW"

    def glossary_note(self) -> str:
        """The letters of the card codes (``PW`` is Chốt trắng)."""
        from ..._core import TuSacCard

        pieces = ", ".join(f"{TuSacCard(p + 'Y').name.split()[0]} {p}" for p in _PIECES)
        colours = ", ".join(f"{_COLOUR_WORDS[c]} {c}" for c in _COLOURS)
        return f"card codes: {pieces}; {colours} (PW is Chốt trắng)"

    def cards(self, cards: Any) -> str:
        codes = cards.split() if isinstance(cards, str) else [str(c) for c in cards]
        return tusac_names(codes)

    def action_text(self, game: Any, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "pass":
            return "pass: do not claim (bỏ)"
        if kind == "discard":
            return f"discard {self.cards([action['card']])}"
        if kind == "claim":
            return f"claim it with your {self.cards(action['cards'])}: {term(str(action.get('meld')))}"
        if kind == "win":
            return "win (tới)"
        return super().action_text(game, action)

    def show_public(self, game: Any, view: dict[str, Any], console: Console) -> None:
        you = view.get("seat")
        offer = view.get("offer")
        if isinstance(offer, dict):
            source = "discarded by" if offer["source"] == "discard" else "turned up by"
            console.print(
                f"on offer: {self.cards([offer['card']])} ({source} {seat_name(offer['seat'], you)})"
            )
        for s, melds in enumerate(view.get("exposed") or []):
            if melds:
                shown = "; ".join(f"{term(m['meld'])}: {self.cards(m['cards'])}" for m in melds)
                console.print(f"{'your' if s == you else f'seat {s}'} melds: {shown}")

    def show_hand(self, game: Any, view: dict[str, Any], console: Console) -> None:
        """Your hand by colour, each colour's melds in brackets and its rác (cards in no meld)
        after them, in the split with the fewest rác and the most lệnh; soldiers of different
        colours on a line of their own."""
        hand = view.get("hand")
        if not hand:
            return
        from ...tusac import melds

        split = melds(hand, limit=1)[0]
        rows: dict[str, list[str]] = {c: [] for c in _COLOURS}
        loose: dict[str, list[str]] = {c: [] for c in _COLOURS}
        mixed: list[str] = []
        rac = 0
        for meld in split:
            cards = sorted(meld.cards, key=lambda c: _PIECES.index(c.piece))
            if meld.kind == "single":
                rac += 1
                loose[cards[0].colour].append(cards[0].name.split()[0])
            elif meld.kind in _MIXED:
                names = " ".join(_styled(c.name, c.colour) for c in cards)
                mixed.append(f"{escape('[')}{names}]")
            else:
                names = " ".join(c.name.split()[0] for c in cards)
                rows[cards[0].colour].append(f"[{names}]")
        rac_text = "no rác" if rac == 0 else f"{rac} rác (cards in no meld)"
        console.print(f"[bold]your hand[/bold], {len(hand)} cards by colour, melds in \\[ ]: {rac_text}")
        for colour in _COLOURS:
            items = [*rows[colour], *loose[colour]]
            if items:
                console.print(
                    f"  {_styled(f'{_COLOUR_WORDS[colour]:<6}', colour)} {_styled('  '.join(items), colour)}"
                )
        for line in mixed:
            console.print(f"  {'Chốt':<6} {line}")

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        from collections import Counter

        from ...tusac import parse_cards

        cards = parse_cards(answer)
        typed = sorted(str(c) for c in cards)
        for action in legal:
            held = [action["card"]] if "card" in action else action.get("cards")
            if held is not None and sorted(held) == typed:
                return action
        # Refusals name the pieces as the player knows them (Xe đỏ), the code beside the name.
        hand = Counter(game.view(seat).get("hand") or [])
        short = [c for c in cards if typed.count(str(c)) > hand[str(c)]]
        if short:
            c = short[0]
            have = hand[str(c)]
            held_text = "no" if have == 0 else f"only {have}"
            raise IllegalMoveError("cards_not_in_hand", f"you hold {held_text} {c.name} ({c})")
        if len(typed) == 1:
            if not any(a["type"] == "discard" for a in legal):
                raise IllegalMoveError(
                    "not_your_turn",
                    f"you do not discard now: claim the card on offer with cards of your hand "
                    f"(not {cards[0].name} alone), or pass",
                )
            return {"type": "discard", "seat": seat, "card": typed[0]}
        return {"type": "claim", "seat": seat, "cards": typed}

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> RenderableType | None:
        if e.get("type") == "win" and "score" in e:  # the winning hand
            fields = self.event_fields(e, you)
            taken = f" on {fields['card']}" if e.get("card") else " with the dealt cards"
            hand = self.cards(e.get("hand") or [])
            return f"{fields['who']} win{fields['s']} (tới){taken}: {e['score']} lệnh; hand {hand}"
        return super().event_text(game, e, you)
