"""TEMPORARY test-only stand-in for the second-wave generic surface (API.md) until the api and
trust branches land on main; delete after merging them. Installs only names that are missing."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from vncards import games
from vncards.table import TableGame


def install() -> None:
    for name in ("tienlen", "samloc", "maubinh", "tusac"):
        games.spec(name).load()
    if "rules" not in games.new_game.__code__.co_varnames:
        old = games.new_game

        def new_game(name: str, players: int | None = None, rules: Any = None, seed: Any = None) -> Any:
            return old(name, players=players, options=rules, seed=seed)

        games.new_game = new_game  # type: ignore[assignment]
    if not hasattr(games, "from_json"):

        def from_json(text: str, key: bytes | None = None) -> Any:
            kind = json.loads(text)["game"]
            return games.spec(kind).game_class().from_json(text)

        games.from_json = from_json  # type: ignore[attr-defined]
    if not hasattr(games, "rules_schema"):

        def rules_schema(name: str) -> list[dict[str, Any]]:
            rules = games.spec(name).rules()
            out = []
            for f in dataclasses.fields(rules):
                v = getattr(rules, f.name)
                if isinstance(v, (bool, int, str)):
                    out.append({"name": f.name, "type": type(v).__name__, "values": None, "default": v})
            return out

        games.rules_schema = rules_schema  # type: ignore[attr-defined]
    classes = {games.spec(n).game_class() for n in games.GAMES}
    for cls in classes:
        if "key" not in cls.to_json.__code__.co_varnames:
            old_to_json = cls.to_json

            def to_json(self: Any, key: bytes | None = None, _old: Any = old_to_json) -> str:
                return str(_old(self))

            cls.to_json = to_json  # type: ignore[method-assign]
        if not hasattr(cls, "public_view"):

            def public_view(self: Any) -> dict[str, Any]:
                v = dict(self.view(0))
                v["seat"] = None
                v["hand"] = []
                for k in ("arrangement", "legal_actions", "must_include"):
                    v.pop(k, None)
                return v

            cls.public_view = public_view  # type: ignore[attr-defined]
        if not hasattr(cls, "events_for"):

            def events_for(self: Any, seat: int | None) -> list[dict[str, Any]]:
                out = []
                for e in self.events:
                    if e.get("type") == "lead" and e.get("seat") != seat:
                        e = {**e, "must_include": ""}
                    out.append(e)
                return out

            cls.events_for = events_for  # type: ignore[attr-defined]
            cls.public_events = lambda self: self.events_for(None)  # type: ignore[attr-defined]


_ = TableGame
