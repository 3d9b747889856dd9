"""Tiến Lên and Sâm Lốc at the terminal: combinations to beat, typed cards, Sâm declarations."""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType

from ...cards import cards_text, to_mask
from ...words import term
from .family import Family, seat_name

__all__ = ["Shedding"]

#: The moves of the Sâm declaration (báo Sâm): answered y or n, never with cards.
_SAM_ANSWERS = ("declare_sam", "decline_sam")


def _combo_kind(game: Any, cards: Any) -> str | None:
    from ..._core import shedding_classify

    core = getattr(game.rules, "core", None)
    if core is None:
        return None
    combo = shedding_classify(to_mask(cards), core)
    return None if combo is None else str(combo.kind)


class Shedding(Family):
    """The shedding games (Tiến Lên Miền Nam and Miền Bắc, Sâm Lốc)."""

    def action_text(self, game: Any, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "play":
            what = _combo_kind(game, action["cards"])
            return f"play {term(what) if what else 'cards'}: {self.cards(action['cards'])}"
        if kind == "declare_sam":
            return "declare Sâm (báo Sâm): play out all ten cards unbeaten"
        if kind == "decline_sam":
            return "do not declare Sâm (không báo)"
        return super().action_text(game, action)

    def show_public(self, game: Any, view: dict[str, Any], console: Console) -> None:
        table = view.get("table")
        if isinstance(table, dict):
            console.print(
                f"to beat: {term(table['kind'])}: {self.cards(table['cards'])} "
                f"({seat_name(table['seat'], view.get('seat'))})"
            )

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> RenderableType | None:
        if e.get("type") == "bao_mot_single":
            # Sâm Lốc, báo 1: a single played while a seat holds one card. The play itself is
            # its own event; only whether it broke báo 1 is news, and only to its player.
            if e.get("seat") != you or not e.get("violation"):
                return None
            return (
                "you did not play your highest single while a seat has one card left (báo 1): "
                "if that seat wins the hand, you pay for the whole table (đền làng)"
            )
        return super().event_text(game, e, you)

    def answer_hint(self, legal: list[dict[str, Any]]) -> str | None:
        if legal and all(a["type"] in _SAM_ANSWERS for a in legal):  # the Sâm question
            return "type y or n: y (có) to declare Sâm (báo Sâm), n (không) not to"
        return None

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        mask = to_mask(answer)
        for action in legal:
            if "cards" in action and to_mask(action["cards"]) == mask:
                return action
        return {"type": "play", "seat": seat, "cards": cards_text(mask)}
