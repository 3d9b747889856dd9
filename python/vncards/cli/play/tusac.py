"""Tứ Sắc at the terminal: cards by name in their colour, offers, claims and melds."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from ...words import term
from ..terminal import tusac_names
from .family import Family, seat_name

__all__ = ["TuSac"]


class TuSac(Family):
    """Tứ Sắc: discards and turned-up cards offered for claims (ăn), melds laid down."""

    forced_pass = "nothing to claim"
    typed_example = "Chốt trắng or PW"

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
        offer = view.get("offer")
        if isinstance(offer, dict):
            source = "discarded by" if offer["source"] == "discard" else "turned up by"
            console.print(
                f"on offer: {self.cards([offer['card']])} ({source} {seat_name(offer['seat'], None)})"
            )
        for s, melds in enumerate(view.get("exposed") or []):
            if melds:
                shown = "; ".join(f"{term(m['meld'])}: {self.cards(m['cards'])}" for m in melds)
                console.print(f"seat {s} melds: {shown}")

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        from ...tusac import parse_cards

        typed = sorted(str(c) for c in parse_cards(answer))
        for action in legal:
            held = [action["card"]] if "card" in action else action.get("cards")
            if held is not None and sorted(held) == typed:
                return action
        if len(typed) == 1:
            return {"type": "discard", "seat": seat, "card": typed[0]}
        return {"type": "claim", "seat": seat, "cards": typed}

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> str | None:
        if e.get("type") == "win" and "score" in e:  # the winning hand
            fields = self.event_fields(e, you)
            taken = f" on {fields['card']}" if e.get("card") else " with the dealt cards"
            hand = self.cards(e.get("hand") or [])
            return f"{fields['who']} win{fields['s']} (tới){taken}: {e['score']} lệnh; hand {hand}"
        return super().event_text(game, e, you)
