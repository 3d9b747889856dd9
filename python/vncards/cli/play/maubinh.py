"""Mậu Binh at the terminal: arrangements typed as back | middle | front, the showdown."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape

from ...words import term
from .family import Family, seat_name

__all__ = ["MauBinh"]


class MauBinh(Family):
    """Mậu Binh: one arrangement per seat, then the showdown (so bài)."""

    def action_text(self, game: Any, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "arrange":
            from ...maubinh import hand_category

            parts = [
                f"{self.cards(action[p])} ({term(hand_category(action[p]))})"
                for p in ("back", "middle", "front")
            ]
            return "arrange " + " | ".join(parts)
        if kind == "confirm":
            return "confirm the arrangement (báo xong)"
        if kind == "forfeit":
            return "forfeit: leave the hand, counted as fouled (binh lủng)"
        return super().action_text(game, action)

    def moves_hint(self, legal: list[dict[str, Any]]) -> str | None:
        return "(or type your own arrangement: back | middle | front)"

    def show_public(self, game: Any, view: dict[str, Any], console: Console) -> None:
        if view.get("fouled"):
            console.print(f"[yellow]{escape(str(view.get('warning')))}[/yellow]")

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        from ...maubinh import Arrangement

        back, middle, front = Arrangement.parse(answer).to_text()
        return {"type": "arrange", "seat": seat, "back": back, "middle": middle, "front": front}

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> str | None:
        kind = e.get("type")
        if kind == "arranged":
            return f"{seat_name(e.get('seat'), you)} arranged" if e.get("seat") != you else None
        if kind == "reveal":
            return self._reveal_text(e, you)
        return super().event_text(game, e, you)

    def _reveal_text(self, e: dict[str, Any], you: int | None) -> str:
        lines = ["hands revealed (so bài):"]
        instants = e.get("instants") or []
        fouled = e.get("fouled") or []
        for seat, arr in enumerate(e.get("arrangements") or []):
            shown = "left the table" if arr is None else " | ".join(self.cards(h) for h in arr)
            if seat < len(instants) and instants[seat]:
                shown += f"  instant win: {term(instants[seat])}"
            elif seat < len(fouled) and fouled[seat]:
                shown += "  fouled (binh lủng)"
            lines.append(f"    {seat_name(seat, you)}: {shown}")
        return "\n".join(lines)
