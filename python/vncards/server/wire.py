"""What the server accepts from outside, checked at the door: JSON documents (HTTP bodies,
WebSocket frames, stored records) and the text fields people type (names).

Every document is parsed strictly: valid UTF-8 JSON, nested at most :data:`MAX_DEPTH` levels,
no ``NaN`` or ``Infinity``, and no string (key or value) holding a lone surrogate (``"\\udcff"``
is valid JSON but not text any encoder can write: one such string stored in a table would break
every frame and page that shows it). Anything else is refused with :class:`Refused`, which the
server answers with a 400 or an ``error`` frame; nothing has changed by then.

>>> loads('{"type": "ping", "id": 1}', "frame")
{'type': 'ping', 'id': 1}
>>> loads('{"name": "\\\\udcff"}', "body")
Traceback (most recent call last):
...
vncards.server.wire.Refused: body: text is not valid Unicode (a lone surrogate)
>>> loads('{"turn_seconds": NaN}', "body")
Traceback (most recent call last):
...
vncards.server.wire.Refused: body: NaN is not a number JSON allows
>>> check_name("  Lan  "), check_name("سارا")
('Lan', 'سارا')
>>> check_name("<script>alert(1)</script>")
'<script>alert(1)</script>'
>>> check_name("a\\u202eb")
Traceback (most recent call last):
...
vncards.server.wire.Refused: name: no control or bidirectional-override characters
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the server extra installs it
    _orjson = None  # type: ignore[assignment]

__all__ = [
    "Refused",
    "ActionRefused",
    "EngineFault",
    "dumps",
    "MAX_DEPTH",
    "MAX_NAME",
    "loads",
    "check_text",
    "check_name",
    "finite",
    "check_int",
    "Fields",
]

#: Deepest nesting accepted in a client document.
MAX_DEPTH = 16
#: Longest name a player may choose, in characters (code points, after NFC normalisation).
MAX_NAME = 32


class Refused(ValueError):
    """Input refused at the door: ``code`` is the short reason a client is told."""

    def __init__(self, message: str, code: str = "malformed") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ActionRefused(Exception):
    """A client message that changed nothing: ``code`` is a short snake_case reason (the
    engine's ``IllegalMoveError.reason`` where the engine refused it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class EngineFault(ActionRefused):
    """The engine raised something other than its typed errors: the action is refused and
    the table must be reloaded from its stored row (its in-memory state is not trusted)."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_action", f"the engine refused this action ({message})")


def _no_constant(name: str) -> Any:
    raise ValueError(name)


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def loads(text: str | bytes, what: str) -> Any:
    """``text`` as JSON, refused (:class:`Refused`, naming ``what``) unless it is strict JSON
    of valid text: see the module docstring."""
    try:
        if isinstance(text, str) and not text.startswith("\ufeff"):
            data = _DECODER.decode(text)  # json.loads, without a new decoder per document
        else:
            data = json.loads(text, parse_constant=_no_constant)
    except ValueError as e:
        if str(e) in ("NaN", "Infinity", "-Infinity"):
            raise Refused(f"{what}: {e} is not a number JSON allows") from None
        raise Refused(f"{what}: not JSON") from None
    except RecursionError:
        raise Refused(f"{what}: nested too deeply") from None
    raw = text if isinstance(text, str) else text.decode("utf-8", "replace")
    # A lone surrogate can only come from a \\u escape (the transport decoded strict UTF-8).
    escaped = "\\u" in raw
    _check(data, what, 0, escaped)
    return data


def _check(value: Any, what: str, depth: int, escaped: bool) -> None:
    if depth > MAX_DEPTH:
        raise Refused(f"{what}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if escaped:
            check_text(value, what)
    elif isinstance(value, float):
        if not math.isfinite(value):  # 1e400 parses as inf
            raise Refused(f"{what}: numbers are finite")
    elif isinstance(value, dict):
        for k, v in value.items():
            if escaped:
                check_text(k, what)
            _check(v, what, depth + 1, escaped)
    elif isinstance(value, list):
        for v in value:
            _check(v, what, depth + 1, escaped)


def check_text(value: str, what: str) -> str:
    """``value`` if every encoder can write it (no lone surrogates), else :class:`Refused`."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused(f"{what}: text is not valid Unicode (a lone surrogate)", "invalid_text") from None
    return value


def check_name(value: Any, what: str = "name") -> str:
    """A player's chosen name: text of 1 to :data:`MAX_NAME` characters once trimmed and
    NFC-normalised, every character printable (no control characters such as ``\n`` or
    ``\x00``, no invisible format characters, hence no bidirectional overrides); any script is
    welcome, right-to-left included. The name is kept as typed: pages escape it where they
    show it."""
    if not isinstance(value, str):
        raise Refused(f"{what}: a name is text", "invalid_name")
    try:
        check_text(value, what)
    except Refused as e:
        raise Refused(e.message, "invalid_name") from None
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise Refused(f"{what}: a name is not empty", "invalid_name")
    if len(name) > MAX_NAME:
        raise Refused(f"{what}: at most {MAX_NAME} characters", "invalid_name")
    if not name.isprintable():
        raise Refused(f"{what}: no control or bidirectional-override characters", "invalid_name")
    return name


def finite(value: Any, what: str, low: float, high: float) -> float:
    """``value`` as a float in ``[low, high]`` (an int or a finite float, not a bool), else
    :class:`Refused`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"{what}: a number in [{low:g}, {high:g}]")
    number = float(value) if not isinstance(value, int) or abs(value) < 2**53 else math.inf
    if not (math.isfinite(number) and low <= number <= high):
        raise Refused(f"{what}: a number in [{low:g}, {high:g}]")
    return number


class Fields:
    """Checked reading of one JSON object (a stored session record, a request body): each
    accessor returns the field if it has the type and range asked for, else raises
    :class:`Refused` naming the field (``where.key``).

    >>> f = Fields({"players": 4, "delay": 0.5, "name": None}, "meta")
    >>> f.integer("players", 2, 5), f.number("delay", 0, 60), f.optional_text("name", 32)
    (4, 0.5, None)
    >>> f.integer("delay", 0, 9)
    Traceback (most recent call last):
    ...
    vncards.server.wire.Refused: meta.delay: an integer in [0, 9]
    """

    def __init__(self, data: Any, where: str, exact: Sequence[str] | None = None) -> None:
        if not isinstance(data, dict):
            raise Refused(f"{where}: an object")
        if exact is not None and set(data) != set(exact):
            extra, missing = sorted(set(data) - set(exact)), sorted(set(exact) - set(data))
            raise Refused(
                f"{where}: "
                + (
                    "; ".join(
                        ([f"unknown fields {extra}"] if extra else [])
                        + ([f"missing fields {missing}"] if missing else [])
                    )
                )
            )
        self.data, self.where = data, where

    def _name(self, key: str) -> str:
        return f"{self.where}.{key}"

    def get(self, key: str) -> Any:
        """The raw field (``Refused`` if missing)."""
        if key not in self.data:
            raise Refused(f"{self._name(key)}: missing")
        return self.data[key]

    def integer(self, key: str, low: int, high: int) -> int:
        """An int (not a bool) in ``[low, high]``."""
        return check_int(self.get(key), self._name(key), low, high)

    def number(self, key: str, low: float, high: float) -> float:
        """A finite number in ``[low, high]``."""
        return finite(self.get(key), self._name(key), low, high)

    def flag(self, key: str) -> bool:
        """A JSON boolean."""
        value = self.get(key)
        if not isinstance(value, bool):
            raise Refused(f"{self._name(key)}: true or false")
        return value

    def optional_text(self, key: str, longest: int) -> str | None:
        """``None`` or text of at most ``longest`` characters."""
        value = self.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or len(value) > longest:
            raise Refused(f"{self._name(key)}: text of at most {longest} characters")
        return check_text(value, self._name(key))

    def integers(self, key: str, length: int, bound: int) -> list[int]:
        """A list of ``length`` ints, each of absolute value at most ``bound``."""
        value = self.get(key)
        if not isinstance(value, list) or len(value) != length:
            raise Refused(f"{self._name(key)}: a list of {length} integers")
        return [check_int(v, f"{self._name(key)}[{i}]", -bound, bound) for i, v in enumerate(value)]

    def items(self, key: str, longest: int) -> list[Any]:
        """A list of at most ``longest`` items."""
        value = self.get(key)
        if not isinstance(value, list) or len(value) > longest:
            raise Refused(f"{self._name(key)}: a list of at most {longest} items")
        return value

    def object(self, key: str) -> dict[str, Any]:
        """A JSON object."""
        value = self.get(key)
        if not isinstance(value, dict):
            raise Refused(f"{self._name(key)}: an object")
        return value


def check_int(value: Any, what: str, low: int, high: int) -> int:
    """``value`` if it is an int (not a bool) in ``[low, high]``, else :class:`Refused`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{what}: an integer in [{low}, {high}]")
    return value


def dumps(frame: Mapping[str, Any] | list[Any]) -> str:
    """A frame as compact JSON text, valid text only (a string holding a lone surrogate
    raises ``TypeError`` or ``ValueError``). Encoded by orjson (the ``server`` extra), which
    is several times faster than the standard library; without it, by ``json``. No checked
    input holds ``NaN`` or an infinity: orjson would write one as ``null``, ``json`` refuses
    it."""
    if _orjson is not None:
        return _orjson.dumps(frame, option=_orjson.OPT_NON_STR_KEYS).decode("utf-8")
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    text.encode("utf-8")  # a lone surrogate cannot be sent
    return text
