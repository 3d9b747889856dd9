"""TEMPORARY test-only stand-in for the trust part of the generic surface (API.md:
``to_json(key=)``, ``events_for(seat)``, ``public_events()``) until the trust branch lands on
main; delete after merging it. Installs only names that are missing."""

from __future__ import annotations

from typing import Any

from vncards import games
from vncards.table import TableGame


def install() -> None:
    for name in ("tienlen", "samloc", "maubinh", "tusac"):
        games.spec(name).load()
    classes = {games.spec(n).game_class() for n in games.GAMES}
    for cls in classes:
        if "key" not in cls.to_json.__code__.co_varnames:
            old_to_json = cls.to_json

            def to_json(self: Any, key: bytes | None = None, _old: Any = old_to_json) -> str:
                return str(_old(self))

            to_json.__doc__ = "Stand-in: the snapshot, unsigned."

            cls.to_json = to_json  # type: ignore[method-assign]
        if "key" not in cls.from_json.__code__.co_varnames:
            old_from_json = cls.from_json.__func__  # type: ignore[attr-defined]

            def from_json(c: Any, text: Any, key: bytes | None = None, _old: Any = old_from_json) -> Any:
                return _old(c, text)

            from_json.__doc__ = "Stand-in: restore, ignoring the key."

            cls.from_json = classmethod(from_json)  # type: ignore[assignment]
        if not hasattr(cls, "events_for"):

            def events_for(self: Any, seat: int | None) -> list[dict[str, Any]]:
                out = []
                for e in self.events:
                    if e.get("type") == "lead" and e.get("seat") != seat:
                        e = {**e, "must_include": ""}
                    out.append(e)
                return out

            def public_events(self: Any) -> list[dict[str, Any]]:
                """Stand-in: the events a spectator may know."""
                return events_for(self, None)

            events_for.__doc__ = "Stand-in: the events that seat may know."
            cls.events_for = events_for  # type: ignore[attr-defined]
            cls.public_events = public_events  # type: ignore[attr-defined]


_ = TableGame
