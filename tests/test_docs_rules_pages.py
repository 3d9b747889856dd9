"""The rules pages (docs/rules/*.md) agree with the engine: every option of every game is in
its page's options table, with the engine's default and allowed values."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from support.tree import source_tree
from vncards import games

pytestmark = source_tree

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
PAGES = {
    "tienlen": "tienlen-south.md",
    "tienlen-north": "tienlen-north.md",
    "samloc": "samloc.md",
    "maubinh": "maubinh.md",
    "tusac": "tusac.md",
}
ROW = re.compile(r"^\| `(?P<name>[a-z0-9_]+)` \| (?P<default>[^|]+) \|(?P<rest>.*)$")


def options_table(page: str) -> dict[str, tuple[Any, str]]:
    """``{option: (documented default, rest of the row)}`` from the page's "## Options" table."""
    text = (RULES / page).read_text(encoding="utf-8")
    section = text.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[Any, str]] = {}
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            rows[m["name"]] = (ast.literal_eval(m["default"].strip().strip("`")), m["rest"])
    return rows


@pytest.mark.parametrize("game", [g for g in PAGES if g != "tienlen-north"])
def test_every_option_is_documented_with_its_default_and_values(game: str) -> None:
    table = options_table(PAGES[game])
    schema = {o["name"]: o for o in games.rules_schema(game)}
    assert sorted(table) == sorted(schema)
    for name, option in schema.items():
        default, rest = table[name]
        assert default == option["default"], name
        if option["type"] == "choice":
            for value in option["values"]:
                assert f'`"{value}"`' in rest, (name, value)
        if option["type"] == "int":
            assert f"int {option['min']}–{option['max']}" in rest, (name, "its range")


def test_the_northern_page_lists_what_the_preset_changes() -> None:
    table = options_table(PAGES["tienlen-north"])
    south = {o["name"]: o["default"] for o in games.rules_schema("tienlen")}
    north = {o["name"]: o["default"] for o in games.rules_schema("tienlen-north")}
    changed = {name for name in north if north[name] != south[name]}
    assert changed <= set(table)
    for name, (default, _) in table.items():
        assert default == north[name], name


def test_the_pages_say_what_the_engine_does_where_the_rules_left_room() -> None:
    """Issue 29, item 13: the Tiến Lên page said "cuts are paid at once" while the ledger pays a
    chain when its round closes; the Tứ Sắc page now says the khạp rule binds claims only, that
    khui may be taken as the win, and what a forbidden mandatory triple leaves (the engine's
    behaviour is pinned by test_conformance_tienlen / test_conformance_tusac)."""
    south = (RULES / PAGES["tienlen"]).read_text(encoding="utf-8")
    assert "paid at once" not in south
    assert "Cuts are paid when their round closes" in south
    assert "the last seat cut pays\nthe whole chain, that play's value included" in south
    tusac = " ".join((RULES / PAGES["tusac"]).read_text(encoding="utf-8").split())
    assert "Both bind **claims only**" in tusac
    assert "as the khui or, where taking it completes the hand, as the win; it may never pass" in tusac
    assert "A mandatory triple that is itself forbidden" in tusac
