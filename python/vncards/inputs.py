"""The one contract for data that comes from a client: action dicts, card arguments, seats.

A game server decodes a client's message with ``json.loads`` and hands it to a game. Whatever
that decoder can produce (any nesting of dicts, lists, strings with lone surrogates, ints of
any size, floats, booleans, ``None``) is refused here with a :class:`~vncards.errors.VncardsError`
subclass, before a game looks at it, so a refusal never changes the game:

- a seat is an ``int`` in ``0..players-1`` (not a bool) -> else ``IllegalMoveError("invalid_seat")``;
- cards are text (``"3♠ 4♦"``), a :class:`~vncards.Card`, a combination, or a list of texts and
  ``Card``\\ s; a bare int is not a card (it would be ambiguous: index or mask) -> else
  :class:`~vncards.errors.InvalidCardError`;
- an action is a dict whose ``"type"`` names one of the game's actions and whose other keys
  are exactly that action's fields; unknown keys are refused -> else
  ``IllegalMoveError("invalid_action")``;
- sizes are bounded: :data:`MAX_TEXT` characters in a string, :data:`MAX_ITEMS` items in a
  list, :data:`MAX_KEYS` keys in an action.

Objects a JSON decoder cannot produce may raise :class:`TypeError` instead (never anything
else: an exception raised by the object itself, e.g. from ``__eq__`` or ``__iter__``, becomes a
``TypeError``).

Each game declares its actions as data (:class:`ActionSpec`) and calls :func:`parse_action`;
``TableGame._parse_action(action)`` does that with the game's own ``ACTIONS``.

>>> from vncards.inputs import parse_seat, parse_cards, parse_action, ActionSpec, SEAT, CARDS
>>> parse_seat(2, 4)
2
>>> parse_seat(True, 4)
Traceback (most recent call last):
...
vncards.errors.IllegalMoveError: no seat True at a 4-seat table
>>> bin(parse_cards("3♠ 3♣"))
'0b11'
>>> parse_cards(2**70)
Traceback (most recent call last):
...
vncards.errors.InvalidCardError: cards: a card is text or a Card, not an int
>>> specs = {"pass": ActionSpec(seat=SEAT), "play": ActionSpec(seat=SEAT, cards=CARDS)}
>>> parse_action({"type": "play", "seat": 1, "cards": "3♠"}, specs, players=4)
{'type': 'play', 'seat': 1, 'cards': 1}
>>> parse_action({"type": "pass", "seat": 1, "extra": 0}, specs, players=4)
Traceback (most recent call last):
...
vncards.errors.IllegalMoveError: pass: unknown key 'extra' (keys: type, seat)
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._core import Card, SheddingCombo, cards_to_mask
from .errors import IllegalMoveError, InvalidCardError

__all__ = [
    "MAX_TEXT",
    "MAX_ITEMS",
    "MAX_KEYS",
    "Parser",
    "ActionSpec",
    "SEAT",
    "CARDS",
    "LATER",
    "check_text",
    "parse_seat",
    "parse_cards",
    "parse_choice",
    "parse_action",
    "plain_dict",
    "as_list",
]

#: Longest string accepted anywhere in client input (card text, names).
MAX_TEXT = 512
#: Most items accepted in a list of cards.
MAX_ITEMS = 64
#: Most keys accepted in an action dict.
MAX_KEYS = 16

#: A field parser: ``(value, players) -> parsed value``; raises VncardsError (or TypeError).
Parser = Callable[[Any, int], Any]

_SCALARS = (type(None), bool, int, float)


def _guard(what: str, fn: Callable[[], Any]) -> Any:
    """Run ``fn`` that touches a foreign object; whatever it raises becomes a TypeError."""
    try:
        return fn()
    except (TypeError, IllegalMoveError, InvalidCardError):
        raise
    except Exception as e:  # a hostile __iter__/__index__/__eq__: not JSON data
        raise TypeError(f"{what}: {type(e).__name__} while reading a non-JSON object") from None


def check_text(value: str, what: str, error: type[Exception] = InvalidCardError) -> str:
    """A client string: at most :data:`MAX_TEXT` characters, valid Unicode (no lone surrogates).
    Returns an exact ``str`` (a subclass is copied)."""
    if type(value) is not str:
        value = str.__str__(value)
    if len(value) > MAX_TEXT:
        raise _error(error, f"{what}: text longer than {MAX_TEXT} characters", "")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _error(
                error, f"{what}: text is not valid Unicode", value.encode("utf-8", "replace").decode()
            ) from None
    return value


def _error(error: type[Exception], message: str, token: str | None) -> Exception:
    if error is InvalidCardError:
        return InvalidCardError(message, token=token)
    if error is IllegalMoveError:
        return IllegalMoveError("invalid_action", message)
    return error(message)


def parse_seat(value: Any, players: int) -> int:
    """A seat number ``0..players-1``; anything else is ``IllegalMoveError("invalid_seat")``.
    Integer-like objects (``numpy.int64``) are accepted through ``__index__``."""
    if type(value) is not int:
        if isinstance(value, (bool, float, str, list, dict, type(None))) or value is None:
            raise IllegalMoveError("invalid_seat", f"no seat {_short(value)} at a {players}-seat table")
        if not hasattr(type(value), "__index__"):
            raise IllegalMoveError("invalid_seat", f"no seat of type {type(value).__name__}")
        value = _guard("seat", lambda: operator.index(value))
    if not 0 <= value < players:
        raise IllegalMoveError("invalid_seat", f"no seat {_short(value)} at a {players}-seat table")
    return int(value)


def _short(value: Any) -> str:
    """A bounded repr for error messages (huge ints and long texts are cut)."""
    if type(value) is int and value.bit_length() > 64:
        return f"<int of {value.bit_length()} bits>"
    text = repr(value) if type(value) in (str, int, float, bool, type(None)) else f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def as_list(value: Any, what: str, error: type[Exception] = InvalidCardError) -> list[Any]:
    """The items of a list, tuple, set or other iterable (not a string), at most
    :data:`MAX_ITEMS` of them."""
    if type(value) in (list, tuple):
        items = list(value)
    elif isinstance(value, (str, bytes, Mapping, *_SCALARS)):
        raise _error(error, f"{what}: expected a list, not {type(value).__name__}", None)
    elif not isinstance(value, Iterable):
        raise TypeError(f"{what}: expected a list, not {type(value).__name__}")
    else:
        items = _guard(what, lambda: list(itertools.islice(iter(value), MAX_ITEMS + 1)))
    if len(items) > MAX_ITEMS:
        raise _error(error, f"{what}: more than {MAX_ITEMS} items", None)
    return items


def parse_cards(value: Any, what: str = "cards") -> int:
    """The 52-card mask of a card argument: text, a ``Card``, a combination, or a list of
    texts and ``Card``\\ s (no duplicates). Anything else is ``InvalidCardError``."""
    if isinstance(value, SheddingCombo):
        mask: int = value.mask
        return mask
    if isinstance(value, Card):
        return 1 << value.index
    if isinstance(value, str):
        return _cards_to_mask(check_text(value, what), what)
    if isinstance(value, int):
        raise InvalidCardError(f"{what}: a card is text or a Card, not an int", token=_short(value))
    items = as_list(value, what)
    clean: list[str | Card] = []
    for i, item in enumerate(items):
        if isinstance(item, Card):
            clean.append(item)
        elif isinstance(item, str):
            clean.append(check_text(item, f"{what}[{i}]"))
        else:
            kind = "an int" if isinstance(item, int) else type(item).__name__
            raise InvalidCardError(f"{what}[{i}]: a card is text or a Card, not {kind}", position=i)
    return _cards_to_mask(clean, what)


def _cards_to_mask(value: str | list[str | Card], what: str) -> int:
    mask: int = cards_to_mask(value)
    return mask


def parse_choice(choices: Iterable[str], what: str) -> Parser:
    """A field parser for one of ``choices`` (else ``IllegalMoveError("invalid_action")``)."""
    allowed = tuple(choices)

    def parse(value: Any, players: int) -> str:
        if type(value) is str and value in allowed:
            return value
        raise IllegalMoveError(
            "invalid_action", f"{what} must be one of {', '.join(allowed)}, not {_short(value)}"
        )

    return parse


def _seat(value: Any, players: int) -> int:
    """The ``seat`` field: :func:`parse_seat`."""
    return parse_seat(value, players)


def _cards(value: Any, players: int) -> int:
    """A ``cards`` field of the 52-card games: :func:`parse_cards` (a mask)."""
    return parse_cards(value)


def _later(value: Any, players: int) -> Any:
    """The value as given: the game parses it itself, with these same helpers."""
    return value


#: A field the game parses itself, with these same helpers (e.g. in a set order).
LATER: Parser = _later
#: The ``seat`` field of an action.
SEAT: Parser = _seat
#: A ``cards`` field of the 52-card games (parsed to a mask).
CARDS: Parser = _cards


@dataclass(frozen=True)
class ActionSpec:
    """The fields of one action type: ``ActionSpec(seat=SEAT, cards=CARDS)``; fields named
    in ``optional`` may be left out."""

    fields: dict[str, Parser] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()

    def __init__(self, optional: Iterable[str] = (), **fields: Parser) -> None:
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "optional", frozenset(optional))


def plain_dict(action: Any) -> dict[str, Any]:
    """The items of an action mapping as a plain dict with plain string keys (at most
    :data:`MAX_KEYS`); the values are not looked at."""
    if type(action) is dict:
        items = list(dict.items(action))
    elif isinstance(action, Mapping):
        items = _guard("action", lambda: list(itertools.islice(dict(action).items(), MAX_KEYS + 1)))
    elif isinstance(action, (str, bytes, list, tuple, *_SCALARS)):
        raise IllegalMoveError("invalid_action", f"an action is a dict, not {type(action).__name__}")
    else:
        raise TypeError(f"an action is a dict, not {type(action).__name__}")
    if len(items) > MAX_KEYS:
        raise IllegalMoveError("invalid_action", f"an action has at most {MAX_KEYS} keys")
    out: dict[str, Any] = {}
    for key, value in items:
        if type(key) is not str:
            raise IllegalMoveError("invalid_action", f"action keys are strings, not {_short(key)}")
        out[check_text(key, "action key", IllegalMoveError)] = value
    return out


def parse_action(action: Any, specs: Mapping[str, ActionSpec], players: int) -> dict[str, Any]:
    """The action dict with its ``"type"`` checked against ``specs`` and every field parsed
    (seats as ints, cards as masks, ...). Unknown keys, missing fields and bad values raise
    ``IllegalMoveError`` / ``InvalidCardError``; nothing else is raised for JSON data."""
    raw = plain_dict(action)
    kind = raw.get("type")
    if type(kind) is not str or kind not in specs:
        raise IllegalMoveError(
            "invalid_action", f"unknown action type {_short(kind)} (types: {', '.join(specs)})"
        )
    spec = specs[kind]
    out: dict[str, Any] = {"type": kind}
    for key in raw:
        if key != "type" and key not in spec.fields:
            raise IllegalMoveError(
                "invalid_action",
                f"{kind}: unknown key {_short(key)} (keys: {', '.join(['type', *spec.fields])})",
            )
    for name, parse in spec.fields.items():
        if name in raw:
            out[name] = parse(raw[name], players)
        elif name not in spec.optional:
            raise IllegalMoveError("invalid_action", f"{kind}: missing {name!r}")
    return out
