"""Mậu Binh at the terminal: arrangements typed as back | middle | front and shown back row by
row with their hand categories, a fouled one confirmed twice, the showdown as a table and one
line per opponent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape

from ...cards import to_mask
from ...errors import IllegalMoveError
from ...words import MOVE_WORDS, ROWS, term
from ..terminal import to_ascii
from .family import Family, seat_name

__all__ = ["MauBinh"]


def _row_name(code: str) -> str:
    """``back (chi 1)``: the hand's short names."""
    english, vietnamese = next((e, v) for c, e, v in ROWS if c == code)
    return f"{english} ({vietnamese.split(',')[0]})"


class MauBinh(Family):
    """Mậu Binh: one arrangement per seat, then the showdown (so bài)."""

    def rows(self, hands: Sequence[str], indent: str = "    ") -> str:
        """Three hands back to front, one a line with its name and hand category (markup)."""
        from ...maubinh import cards_text, hand_category

        hands = [cards_text(h) for h in hands]  # the one Mậu Binh order, whatever the source
        names = [_row_name(code) for code, _, _ in ROWS]
        width = max(len(n) for n in names)
        cards_width = max(len(h) for h in hands)
        lines = []
        for name, hand in zip(names, hands, strict=True):
            pad = " " * (cards_width - len(hand))
            lines.append(f"{indent}{name:<{width}}  {self.cards(hand)}{pad}  {term(hand_category(hand))}")
        return "\n".join(lines)

    def action_text(self, game: Any, action: dict[str, Any]) -> str:
        kind = action.get("type")
        if kind == "arrange":
            hands = [action[code] for code, _, _ in ROWS]
            return "arrange as the solver suggests:\n" + self.rows(hands, indent=" " * 9)
        if kind == "confirm":
            return "confirm your arrangement (báo xong)"
        if kind == "forfeit":
            return "forfeit: leave the hand, counted as fouled (binh lủng)"
        return super().action_text(game, action)

    def moves_hint(self, legal: list[dict[str, Any]]) -> str | None:
        return "(or type your own arrangement: back | middle | front)"

    def show_table(self, game: Any, view: dict[str, Any], console: Console) -> None:
        hand = view.get("hand")
        if hand:
            console.print(f"[bold]your hand:[/bold] {self.cards(hand)}")
        arrangement = view.get("arrangement")
        if arrangement:
            console.print("[bold]your arrangement:[/bold]")
            console.print(self.rows(arrangement))
        if view.get("fouled"):
            console.print(f"[yellow]{escape(str(view.get('warning')))}[/yellow]")

    def typed_action(self, game: Any, seat: int, answer: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        from ...maubinh import Arrangement, cards_text

        arrangement = Arrangement.parse(answer)
        hand = to_mask(game.view(seat)["hand"])
        typed = to_mask(arrangement.cards)
        if typed & ~hand:
            left_out = hand & ~typed
            raise IllegalMoveError(
                "cards_not_in_hand",
                f"not in your hand: {cards_text(typed & ~hand)}"
                + (f" (your hand also holds {cards_text(left_out)})" if left_out else ""),
            )
        back, middle, front = arrangement.to_text()
        return {"type": "arrange", "seat": seat, "back": back, "middle": middle, "front": front}

    def accept(self, console: Console, game: Any, seat: int, action: dict[str, Any]) -> bool:
        """A fouled arrangement (binh lủng) is confirmed only after a second yes."""
        view = game.view(seat)
        if action.get("type") != "confirm" or not view.get("fouled"):
            return True
        console.print(
            f"[yellow]{escape(str(view.get('warning')))}[/yellow]\n"
            "A fouled arrangement loses to every opponent."
        )
        answer = console.input("confirm it anyway? y to confirm, n to change it> ")
        if " ".join(to_ascii(answer).lower().split()) in {to_ascii(w) for w in MOVE_WORDS["confirm"]}:
            return True
        console.print("not confirmed: pick a move or type another arrangement")
        return False

    def event_text(self, game: Any, e: dict[str, Any], you: int | None) -> RenderableType | None:
        kind = e.get("type")
        if kind == "arranged":
            return f"{seat_name(e.get('seat'), you)} arranged" if e.get("seat") != you else None
        if kind == "reveal":
            return self._showdown(e, you)
        return super().event_text(game, e, you)

    def _showdown(self, e: dict[str, Any], you: int | None) -> str:
        """Every seat's three hands row by row with their categories, and its instant win or
        foul."""
        lines = ["hands revealed (so bài):"]
        instants = e.get("instants") or []
        fouled = e.get("fouled") or []
        for seat, arrangement in enumerate(e.get("arrangements") or []):
            head = seat_name(seat, you)
            if arrangement is None:
                lines.append(f"    {head}: left the table (bỏ cuộc)")
                continue
            if seat < len(instants) and instants[seat]:
                head += f": instant win, {term(instants[seat])}"
            elif seat < len(fouled) and fouled[seat]:
                head += ": [yellow]fouled (binh lủng)[/yellow]"
            lines += [f"    {head}", self.rows(arrangement, indent=" " * 6)]
        return "\n".join(lines)

    def show_payments(self, game: Any, you: int, players: list[str], console: Console) -> None:
        """One line per opponent: what each hand (and a scoop, foul or instant win) brought you
        against them, and the net."""
        reveal = game.view(you).get("reveal") or {}
        console.print("[bold]Against each opponent[/bold]")
        for other in range(game.players):
            if other == you:
                continue
            console.print(
                f"  {seat_name(other, you)} ({players[other]}): {self._versus(game, reveal, you, other)}"
            )

    def _versus(self, game: Any, reveal: dict[str, Any], you: int, other: int) -> str:
        parts: list[str] = []
        net = 0
        rows_paid: set[str] = set()
        for item in game.ledger:
            if {item["from"], item["to"]} != {you, other}:
                continue
            units = item["units"] if item["to"] == you else -item["units"]
            net += units
            reason = str(item["reason"])
            head, _, bonus = reason.partition(":")
            if head in ("back", "middle", "front"):
                rows_paid.add(head)
                parts.append(f"{head} {units:+d}" + (f" ({term(bonus)})" if bonus else ""))
            elif head == "instant":
                whose = "your" if item["to"] == you else "their"
                parts.append(f"{whose} instant win, {term(bonus)} {units:+d}")
            elif head == "foul":
                whose = "you" if item["from"] == you else "they"
                parts.append(f"{whose} fouled (binh lủng) {units:+d}")
            else:
                parts.append(f"{term(reason)} {units:+d}")
        compared = not any(
            side in (you, other) and flag
            for key in ("instants", "fouled")
            for side, flag in enumerate(reveal.get(key) or [])
        )
        if compared:  # a hand neither won is a tie (hòa)
            ties = [code for code, _, _ in ROWS if code not in rows_paid]
            order = {code: i for i, (code, _, _) in enumerate(ROWS)}
            parts = sorted(parts, key=lambda p: order.get(p.split(" ")[0], 3))
            for code in ties:
                parts.insert(order[code], f"{code} tie")
        elif not parts:
            both_fouled = all((reveal.get("fouled") or [False] * game.players)[s] for s in (you, other))
            parts.append("both fouled (binh lủng)" if both_fouled else "equal instant wins")
        return f"{', '.join(parts)}: you {net:+d}"
