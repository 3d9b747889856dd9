"""One API across the five games: the same loop, keywords, views, errors and schema everywhere.

Nothing here branches on the game: every test runs the same code over every variant.
"""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import (
    IllegalMoveError,
    InvalidCardError,
    RulesError,
    SnapshotError,
    VncardsError,
    games,
    maubinh,
)
from vncards.surface import COMMON_VIEW_KEYS

VARIANTS = list(games.GAMES)
# Card text that is no card in any game, in the field each game's actions carry cards in.
BAD_CARD = "zz"


def _hidden_cards(game: Any) -> set[str]:
    """Every card text held in a hand (the things a public view must not show)."""
    out: set[str] = set()
    for seat in range(game.players):
        out.update(str(c) for c in game.hand(seat))
    return out


def _public_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _public_strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _public_strings(v)]
    return []


def test_variants_are_the_five_games() -> None:
    assert VARIANTS == ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generic_loop(name: str, seed: int) -> None:
    """new_game → legal_actions/apply → view/public_view → from_json → settlement, with no
    per-game branch."""
    rnd = random.Random(seed)
    game = games.new_game(name, players=4, rules=None, seed=seed)
    for _step in range(3000):
        if game.is_over:
            break
        pending = game.pending_seats
        assert pending and pending == game.public_view()["pending_seats"]
        for seat in range(game.players):
            view = game.view(seat)
            assert set(COMMON_VIEW_KEYS) <= set(view)
            assert view["seat"] == seat and view["pending_seats"] == pending
            assert view["is_over"] is False and view["settlement"] is None
            json.dumps(view)
            if seat not in pending:
                assert game.legal_actions(seat) == []
        seat = rnd.choice(pending)
        legal = game.legal_actions(seat)
        assert legal, f"pending seat {seat} has no legal action"
        action = rnd.choice(legal)
        assert game.can_apply(action) and game.explain(action) is None
        before = game.to_json()
        game.apply(action)
        assert game.to_json() != before
        public = game.public_view()
        assert set(COMMON_VIEW_KEYS) <= set(public)
        assert public["seat"] is None and public["hand"] is None
        json.dumps(public)
        if rnd.random() < 0.2:
            restored = games.from_json(game.to_json())
            assert type(restored) is type(game) and restored.to_json() == game.to_json()
            game = restored
    assert game.is_over and game.pending_seats == []
    settlement = game.settlement
    assert settlement is not None and sum(settlement) == 0
    for seat in range(game.players):
        assert game.view(seat)["settlement"] == settlement and game.legal_actions(seat) == []
    assert game.public_view()["settlement"] == settlement


@pytest.mark.parametrize("name", VARIANTS)
def test_public_view_shows_no_hidden_card(name: str) -> None:
    game = games.new_game(name, seed=11)
    hidden = _hidden_cards(game)
    shown = set(_public_strings(game.public_view()))
    assert not hidden & shown
    # and each seat's view shows its own hand but no card another seat holds alone
    for seat in range(game.players):
        own = {str(c) for c in game.hand(seat)}
        assert set(game.view(seat)["hand"]) == own


@pytest.mark.parametrize("name", VARIANTS)
def test_same_construction_keywords(name: str) -> None:
    cls = games.spec(name).game_class()
    rules = games.spec(name).rules()
    a = cls(players=3, rules=rules, seed=5)
    b = games.new_game(name, players=3, rules=rules, seed=5)
    c = games.new_game(name, 3, rules.to_dict(), 5)
    assert a.to_json() == b.to_json() == c.to_json()


def _other_values(option: dict[str, Any]) -> list[Any]:
    """The values of a schema option other than its default (for an int: one either side)."""
    if option["values"] is None:
        return [option["default"] + 1, option["default"] - 1]
    return [v for v in option["values"] if v != option["default"]]


@pytest.mark.parametrize("name", VARIANTS)
def test_rules_dict_overrides_the_preset(name: str) -> None:
    """Every option can be moved off the preset by a dict of overrides: on its own, or, where
    that single override is inconsistent (a RulesError naming it), together with one other
    option. Putting the defaults back gives the preset again."""
    schema = games.rules_schema(name)
    preset = games.spec(name).rules()
    for option in schema:
        key = option["name"]
        accepted = None
        for other in _other_values(option):
            candidates = [{key: other}] + [
                {key: other, o["name"]: v} for o in schema if o["name"] != key for v in _other_values(o)
            ]
            for overrides in candidates:
                try:
                    game = games.new_game(name, rules=overrides, seed=1)
                except RulesError as e:
                    if len(overrides) == 1:
                        assert key in str(e)
                    continue
                accepted = overrides
                break
            if accepted is not None:
                break
        assert accepted is not None, f"{name}: no consistent value of {key} off the preset"
        for k, v in accepted.items():
            assert getattr(game.rules, k) == v
        defaults = {o["name"]: o["default"] for o in schema if o["name"] in accepted}
        assert game.rules.replace(**defaults) == preset


def test_options_keyword_is_a_deprecated_alias() -> None:
    with pytest.warns(DeprecationWarning):
        game = games.new_game("samloc", options={"low_straights": True}, seed=1)
    assert game.rules.low_straights is True
    with warnings.catch_warnings(), pytest.raises(RulesError):
        warnings.simplefilter("ignore")
        games.new_game("samloc", rules={}, options={"low_straights": True})


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("other", ["tienlen", "samloc", "maubinh", "tusac"])
def test_wrong_rules_name_both_games(name: str, other: str) -> None:
    mine = games.spec(name).game_class().GAME
    if other == mine:
        return
    wrong = games.spec(other).rules()
    with pytest.raises(RulesError, match=rf"^{mine}\.Game needs {mine}\.Rules, got {other}\.Rules$"):
        games.spec(name).game_class()(rules=wrong)
    with pytest.raises(RulesError, match=rf"needs {mine}\.Rules, got {other}\.Rules"):
        games.new_game(name, rules=wrong)


def test_wrong_rules_in_functions_name_both_games() -> None:
    from vncards import samloc, tienlen, tusac

    with pytest.raises(RulesError, match=r"tienlen needs tienlen\.Rules, got samloc\.Rules"):
        tienlen.classify("3♠", rules=samloc.Rules())  # type: ignore[arg-type]  # the wrong game's rules, on purpose
    with pytest.raises(RulesError, match=r"maubinh needs maubinh\.Rules, got tusac\.Rules"):
        maubinh.hand_rank("3♠ 4♠ 5♠ 6♠ 7♠", rules=tusac.Rules())  # type: ignore[arg-type]  # the wrong game's rules


@pytest.mark.parametrize("name", VARIANTS)
def test_legal_actions_needs_a_seat(name: str) -> None:
    game = games.new_game(name, seed=3)
    with pytest.raises(TypeError):
        game.legal_actions()  # type: ignore[call-arg]  # no seat: refused at run time
    with pytest.raises(IllegalMoveError) as e:
        game.legal_actions(9)
    assert e.value.reason == "invalid_seat"


JUNK: list[Any] = [
    None,
    5,
    "play",
    [],
    {},
    {"type": "fly"},
    {"type": "pass"},
    {"type": "pass", "seat": 99},
    {"type": "pass", "seat": "0"},
    {"type": "pass", "seat": True},
    {"seat": 0},
]


@pytest.mark.parametrize("name", VARIANTS)
def test_can_apply_and_explain_never_raise_nor_change(name: str) -> None:
    game = games.new_game(name, seed=4)
    before = game.to_json()
    seat = game.pending_seats[0]
    other = (seat + 1) % 4
    wrong_seat = (
        [] if other in game.pending_seats else [{**a, "seat": other} for a in game.legal_actions(seat)]
    )
    for action in [*JUNK, *wrong_seat]:
        assert game.can_apply(action) is False
        reason = game.explain(action)
        assert isinstance(reason, str) and reason
        with pytest.raises(Exception):  # noqa: B017 - verify raises what apply raises
            game.verify(action)
    for action in game.legal_actions(seat):
        assert game.can_apply(action) and game.explain(action) is None
        game.verify(action)
    assert game.to_json() == before


@pytest.mark.parametrize("name", VARIANTS)
def test_explain_gives_the_reason_apply_raises(name: str) -> None:
    game = games.new_game(name, seed=6)
    seat = game.pending_seats[0]
    waiting = [s for s in range(game.players) if s not in game.pending_seats]
    other = waiting[0] if waiting else None
    for action in game.legal_actions(seat):
        if other is None:
            break
        wrong = {**action, "seat": other}
        reason = game.explain(wrong)
        with pytest.raises(IllegalMoveError) as e:
            game.apply(wrong)
        assert e.value.reason == reason


@pytest.mark.parametrize("name", VARIANTS)
def test_bad_card_text_is_invalid_card_error(name: str) -> None:
    game = games.new_game(name, seed=8)
    seat = game.pending_seats[0]
    before = game.to_json()
    card_actions = [a for s in range(game.players) for a in game.legal_actions(s)]
    # drive the game until some seat has an action that carries cards
    rnd = random.Random(0)
    for _ in range(200):
        card_actions = [a for s in game.pending_seats for a in game.legal_actions(s) if _card_field(a)]
        if card_actions:
            break
        s = game.pending_seats[0]
        game.apply(rnd.choice(game.legal_actions(s)))
        before = game.to_json()
    assert card_actions, "no action with cards within 200 moves"
    action = card_actions[0]
    field = _card_field(action)
    assert field is not None
    value = action[field]
    bad: Any = f"{value} {BAD_CARD}" if isinstance(value, str) else [*value, BAD_CARD]
    with pytest.raises(InvalidCardError) as e:
        game.apply({**action, field: bad})
    assert e.value.reason == "invalid_card" and e.value.token is not None
    assert BAD_CARD in e.value.token.lower() and e.value.position is not None
    assert game.explain({**action, field: bad}) == "invalid_card"
    assert game.to_json() == before
    del seat


def _card_field(action: dict[str, Any]) -> str | None:
    for key in ("cards", "card", "back"):
        if key in action:
            return key
    return None


@pytest.mark.parametrize("name", VARIANTS)
def test_rules_schema_is_complete(name: str) -> None:
    schema = games.rules_schema(name)
    rules = games.spec(name).rules()
    assert [o["name"] for o in schema] == list(rules.to_dict())
    for o in schema:
        assert set(o) == {"name", "type", "values", "min", "max", "default", "description", "source"}
        assert o["description"].strip(), f"{name}: option {o['name']} has no description"
        assert o["source"] in ("seed", "house"), f"{name}: option {o['name']} has no source"
        assert o["default"] == getattr(rules, o["name"])
        assert o["type"] in ("bool", "int", "choice")
        if o["type"] != "int":
            assert o["default"] in o["values"]
            assert o["min"] is None and o["max"] is None
        else:
            assert o["values"] is None and o["min"] <= o["default"] <= o["max"]
        json.dumps(o)


def test_rules_schema_unknown_game() -> None:
    with pytest.raises(RulesError, match="unknown game"):
        games.rules_schema("poker")


def test_from_json_picks_the_class_and_refuses_junk() -> None:
    for name in VARIANTS:
        game = games.new_game(name, seed=2)
        assert type(games.from_json(game.to_json())) is type(game)
    for junk in ("", "[]", "{}", '{"game": "poker"}', '{"game": 5}', "nope"):
        with pytest.raises(SnapshotError):
            games.from_json(junk)


def test_maubinh_arrange_text_and_fouled_warning() -> None:
    game = maubinh.Game(players=2, seed=3)
    cards = game.hand(0)
    best = maubinh.best_arrangement(cards)
    assert game.arrange(0, str(best)) is None
    view = game.view(0)
    assert view["fouled"] is False and view["warning"] is None
    assert view["arrangement"] == best.to_text()
    # The weakest cards in the back: fouled, accepted, with a warning.
    splits = [(best.middle, best.back, best.front), (cards[:5], cards[5:10], cards[10:])]
    fouled = next(
        " | ".join(" ".join(map(str, p)) for p in split) for split in splits if maubinh.is_fouled(split)
    )
    warning = game.arrange(0, fouled)
    assert warning is not None and "binh lủng" in warning
    assert game.view(0)["fouled"] is True and game.view(1)["fouled"] is False
    assert game.public_view()["fouled"] is False and game.public_view()["arrangement"] is None
    with pytest.raises(InvalidCardError) as bad:
        game.arrange(0, "zz | yy | xx")
    assert (bad.value.token, bad.value.position, bad.value.reason) == ("zz", 0, "invalid_card")
    with pytest.raises(InvalidCardError) as bad:
        game.arrange(0, "3♠ 4♠ 5♠ 6♠ 7♠ | 8♠ 9♠ 10♠ J♠ Q♠ | K♠ A♠ 1♠")
    assert (bad.value.token, bad.value.position) == ("1♠", 41)
    with pytest.raises(IllegalMoveError) as e:
        game.arrange(0, "3♠ 4♠")
    assert e.value.reason == "invalid_arrangement"
    game.confirm(0)
    game.auto_arrange(1)
    assert game.is_over and game.view(1)["reveal"]["fouled"] == [True, False]


def _mutations(action: dict[str, Any], players: int) -> list[Any]:
    """Near-miss variants of a legal action: another seat, other cards, a missing field."""
    out: list[Any] = [{**action, "seat": s} for s in range(players + 1)]
    for key in ("cards", "card", "back", "meld"):
        if key in action:
            out.append({k: v for k, v in action.items() if k != key})
            out.append({**action, key: "3♠"})
            out.append({**action, key: "PW"})
    out.append({**action, "type": "pass"})
    return out


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), pick=st.integers(0, 10**6))
def test_explain_agrees_with_apply(name: str, seed: int, steps: int, pick: int) -> None:
    """For legal actions and near misses alike: explain(a) is None exactly when apply(a)
    succeeds, and otherwise names the reason apply raises; a refused apply changes nothing."""
    rnd = random.Random(seed)
    game = games.new_game(name, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = rnd.choice(game.pending_seats)
        game.apply(rnd.choice(game.legal_actions(seat)))
    if game.is_over:
        return
    seat = game.pending_seats[pick % len(game.pending_seats)]
    legal = game.legal_actions(seat)
    candidates = [*legal, *_mutations(legal[pick % len(legal)], game.players)]
    action = candidates[pick % len(candidates)]
    before = game.to_json()
    reason = game.explain(action)
    assert game.to_json() == before
    if reason is None:
        game.apply(action)
    else:
        with pytest.raises(VncardsError) as e:
            game.apply(action)
        assert getattr(e.value, "reason", "invalid_action") == reason
        assert game.to_json() == before
