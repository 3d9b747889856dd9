"""A game's action and event logs kept compact: one array of ints, each record rendered as its
JSON dict only when read.

A game declares the fields of each logged action and event type as data, ``{type: {field:
codec}}`` (``ACTION_LOG`` and ``EVENT_LOG``); a :class:`Codec` says how the value the game
logs is stored as ints and how it reads back as JSON: :data:`INT` (ints as they are),
:data:`CARDS` (a card mask, read as its text), :data:`BOOL`, :func:`WORD` (a word of a known
vocabulary), :func:`OPTIONAL` (or None), :func:`LIST` and :data:`JSON` (any JSON value, kept
as an object: for rare, bulky fields). A record is its type's number followed by its fields'
ints, so a move costs a few machine words instead of two dicts.

A type the schema does not list is kept as the dict given (JSON values), so any event can
still be logged. The fields of a listed type must be given by name, exactly those of the
schema (they read back in the schema's order), with values its codecs take (a word of the
vocabulary, an int of 64 bits): anything else is a mistake in the game and raises ValueError
(or TypeError, OverflowError), logging nothing.

>>> class Table(Journal):
...     ACTION_LOG = {"play": {"seat": INT, "cards": CARDS}}
...     EVENT_LOG = {"play": {"seat": INT, "combo": WORD(("single", "pair")), "cards": CARDS}}
>>> t = Table()
>>> t._init_journal()
>>> t._log({"type": "play", "seat": 1, "cards": 0b11})
>>> t._emit("play", seat=1, combo="pair", cards=0b11)
>>> t._emit("chat", text="hi")
>>> t._logged(events=False)
[{'type': 'play', 'seat': 1, 'cards': '3♠ 3♣'}]
>>> t._logged(events=True)
[{'type': 'play', 'seat': 1, 'combo': 'pair', 'cards': '3♠ 3♣'}, {'type': 'chat', 'text': 'hi'}]
>>> len(t._ints)  # records of 3 and 4 ints; the unlisted event: 2 ints and an object
9
"""

from __future__ import annotations

import functools
import operator
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from ._core import mask_to_text
from .snapshot import json_copy

__all__ = [
    "Codec",
    "INT",
    "CARDS",
    "BOOL",
    "JSON",
    "WORD",
    "INDEX",
    "OPTIONAL",
    "LIST",
    "Fields",
    "Schema",
    "Journal",
    "cards_text",
]

# The int that stands for None in an OPTIONAL field.
_NONE = -(2**63)
# Record numbers 0 and 1: an action / event kept as an object (the next int is its index).
_OBJECT_ACTION, _OBJECT_EVENT = 0, 1
_INT = operator.index


def _apply(fn: Callable[[Any], Any], value: Any) -> Any:
    return fn(value)


# ``fn(value)`` as a C function where there is one (Python 3.11+), for ``map`` over fields.
_call: Callable[[Callable[[Any], Any], Any], Any] = getattr(operator, "call", _apply)


def _same_rank_masks() -> Iterable[int]:
    """Masks of one to four cards of one rank (single cards, pairs, triples, quads)."""
    for rank in range(13):
        for suits in range(1, 16):
            yield suits << (4 * rank)


# Texts of the commonest masks, read with one dict lookup (~30 ns); any other mask is written
# out by ``mask_to_text`` (~0.1 µs, plus ~10 ns a card) behind a small bounded cache (~60 ns
# a hit: a server reads the same game's plays and hands again and again).
_CARD_TEXTS: dict[int, str] = {m: mask_to_text(m) for m in _same_rank_masks()}
_card_text_get = _CARD_TEXTS.get
_other_text: Callable[[int], str] = functools.lru_cache(maxsize=4096)(mask_to_text)


def cards_text(mask: int) -> str:
    """``mask_to_text(mask)``, looked up for the commonest masks."""
    return _card_text_get(mask) or _other_text(mask)


class Codec:
    """How one field is stored. A *scalar* codec stores a value as one int: ``encode`` turns
    the value into it and ``render`` turns that int into JSON (``operator.index`` for an int
    that is its own JSON). Others override :meth:`put` and :meth:`take`."""

    __slots__ = ("encode", "render", "width", "scalar")

    def __init__(
        self,
        encode: Callable[[Any], int] = operator.index,
        render: Callable[[int], Any] = operator.index,
        width: int | None = 1,
    ) -> None:
        self.encode = encode
        self.render = render
        #: How many ints a value takes (None: it depends on the value).
        self.width = width
        cls = type(self)
        #: One int per value, through ``encode`` and ``render`` alone.
        self.scalar = width == 1 and cls.put is Codec.put and cls.take is Codec.take

    def put(self, ints: array[int], value: Any, log: Journal) -> None:
        """Append the ints of ``value``."""
        ints.append(self.encode(value))

    def take(self, ints: Sequence[int], i: int, objects: list[Any]) -> tuple[Any, int]:
        """The JSON value stored from ``ints[i]`` on, and the index after it."""
        return self.render(ints[i]), i + 1

    def skip(self, ints: Sequence[int], i: int) -> int:
        """The index after the value stored from ``ints[i]`` on."""
        return i + 1

    def __deepcopy__(self, memo: dict[int, Any]) -> Codec:
        return self  # immutable


#: An int (seat, count, units), stored as it is.
INT = Codec()
#: A card mask (an int), read as its text (``"3♠ 3♣"``; ``""`` for none).
CARDS = Codec(render=cards_text)
#: True or False (stored as 1 or 0).
BOOL = Codec(render=bool)


class _Json(Codec):
    __slots__ = ()

    def put(self, ints: array[int], value: Any, log: Journal) -> None:
        ints.append(log._keep(value))

    def take(self, ints: Sequence[int], i: int, objects: list[Any]) -> tuple[Any, int]:
        return json_copy(objects[ints[i]]), i + 1


#: Any JSON value, kept as an object beside the ints (for rare, bulky fields).
JSON: Codec = _Json()


def INDEX(words: Sequence[str]) -> Codec:
    """An index into ``words``, read as that word (a game that has the index at hand logs it
    without a lookup)."""
    vocabulary = tuple(words)
    return Codec(render=vocabulary.__getitem__)


class _Vocabulary(dict[str, int]):
    """Word -> index; a word outside the vocabulary is a ValueError."""

    def __missing__(self, word: Any) -> int:
        raise ValueError(f"{word!r} is not a word of this field's vocabulary ({', '.join(self)})")


def WORD(words: Iterable[str]) -> Codec:
    """A string of ``words``, stored as its index."""
    vocabulary = tuple(words)
    index = _Vocabulary({w: i for i, w in enumerate(vocabulary)})
    return Codec(encode=index.__getitem__, render=vocabulary.__getitem__)


class _Compound(Codec):
    """A codec built on another (``inner``), of varying width."""

    __slots__ = ("inner",)

    def __init__(self, inner: Codec) -> None:
        super().__init__(width=None)
        self.inner = inner


class _Optional(_Compound):
    __slots__ = ()

    def put(self, ints: array[int], value: Any, log: Journal) -> None:
        if value is None:
            ints.append(_NONE)
            return
        start = len(ints)
        self.inner.put(ints, value, log)
        if ints[start] == _NONE:
            raise OverflowError(f"{_NONE} in an OPTIONAL field (it stands for None)")

    def take(self, ints: Sequence[int], i: int, objects: list[Any]) -> tuple[Any, int]:
        if ints[i] == _NONE:
            return None, i + 1
        return self.inner.take(ints, i, objects)

    def skip(self, ints: Sequence[int], i: int) -> int:
        return i + 1 if ints[i] == _NONE else self.inner.skip(ints, i)


def OPTIONAL(inner: Codec) -> Codec:
    """None, or a value of ``inner``."""
    return _Optional(inner)


class _List(_Compound):
    __slots__ = ()

    def put(self, ints: array[int], value: Any, log: Journal) -> None:
        ints.append(len(value))
        item = self.inner
        if item.scalar:
            ints.extend(map(item.encode, value))
        else:
            for v in value:
                item.put(ints, v, log)

    def take(self, ints: Sequence[int], i: int, objects: list[Any]) -> tuple[Any, int]:
        n = ints[i]
        i += 1
        item = self.inner
        if item.scalar:
            return list(map(item.render, ints[i : i + n])), i + n
        out = []
        for _ in range(n):
            v, i = item.take(ints, i, objects)
            out.append(v)
        return out, i

    def skip(self, ints: Sequence[int], i: int) -> int:
        n = ints[i]
        i += 1
        width = self.inner.width
        if width is not None:
            return i + n * width
        for _ in range(n):
            i = self.inner.skip(ints, i)
        return i


def LIST(item: Codec) -> Codec:
    """A list of values of ``item`` (stored as its length, then the items)."""
    return _List(item)


#: The fields of one action or event type: ``{field: codec}``.
Fields = Mapping[str, Codec]


class _Record:
    """One listed action or event type: its number, name and fields."""

    __slots__ = (
        "number",
        "name",
        "event",
        "names",
        "codecs",
        "size",
        "scalar",
        "ints",
        "renders",
        "width",
    )

    def __init__(self, number: int, name: str, event: bool, fields: Fields) -> None:
        self.number = number
        self.name = name
        self.event = event
        self.names = tuple(fields)
        self.codecs = tuple(fields.values())
        #: Keys of a logged action dict (its ``type`` too) or of an event's fields.
        self.size = len(self.names) + (not event)
        #: Every field is one int, stored and read through ``encode``/``render`` alone.
        self.scalar = all(c.scalar for c in self.codecs)
        # (number, itemgetter of the values in schema order, number of fields, encoders by index).
        encoders = tuple((i, c.encode) for i, c in enumerate(self.codecs) if c.encode is not _INT)
        self.ints = (number, itemgetter(*self.names) if self.names else None, len(self.names), encoders)
        self.renders = tuple(c.render for c in self.codecs)
        widths = [c.width for c in self.codecs]
        #: Ints after the record's number, when fixed (records of the other log are skipped).
        self.width = None if None in widths else sum(w for w in widths if w is not None)

    def take(self, ints: Sequence[int], i: int, objects: list[Any]) -> tuple[dict[str, Any], int]:
        d: dict[str, Any] = {"type": self.name}
        if self.scalar:
            j = i + len(self.names)
            d.update(zip(self.names, map(_call, self.renders, ints[i:j]), strict=True))
            return d, j
        for name, codec in zip(self.names, self.codecs, strict=True):
            d[name], i = codec.take(ints, i, objects)
        return d, i

    def skip(self, ints: Sequence[int], i: int) -> int:
        """The index after the record's fields stored from ``ints[i]`` on."""
        for codec in self.codecs:
            i = codec.skip(ints, i)
        return i

    def renderer(self) -> Callable[[list[int], int, list[Any]], dict[str, Any]]:
        """For a record of fixed width: a function of ``(ints, i, objects)`` that builds the
        dict of the record whose number is ``ints[i]`` in one expression (made once per type:
        reads render a record with one call, no call per field of an int)."""
        assert self.width is not None
        constants: dict[str, Any] = {"_text": _card_text_get, "_other_text": _other_text}
        parts = [f"'type': {self.name!r}"]
        k = 1
        for j, (name, codec) in enumerate(zip(self.names, self.codecs, strict=True)):
            value, render = f"ints[i + {k}]", codec.render
            if not codec.scalar:
                constants[f"c{j}"] = codec
                expr = f"c{j}.take(ints, i + {k}, objects)[0]"
            elif render is _INT:
                expr = value
            elif render is bool:
                expr = f"({value} != 0)"
            elif render is cards_text:
                expr = f"(_text(v{j} := {value}) or _other_text(v{j}))"
            elif isinstance(getattr(render, "__self__", None), tuple) and render.__name__ == "__getitem__":
                constants[f"r{j}"] = render.__self__  # type: ignore[attr-defined]
                expr = f"r{j}[{value}]"
            else:
                constants[f"r{j}"] = render
                expr = f"r{j}({value})"
            parts.append(f"{name!r}: {expr}")
            k += 1 if codec.width is None else codec.width
        source = f"def render(ints, i, objects):\n    return {{{', '.join(parts)}}}\n"
        exec(compile(source, f"<journal record {self.name}>", "exec"), constants)
        return constants["render"]  # type: ignore[no-any-return]


def _read_object(ints: list[int], i: int, objects: list[Any]) -> Any:
    return json_copy(objects[ints[i + 1]])


def _skipped(ints: list[int], i: int, objects: list[Any]) -> Any:
    raise AssertionError("a record of the other log is skipped, never read")


# How one record number is read (see Schema._plan).
_Step = tuple[Callable[..., Any], int]


class Schema:
    """The listed action and event types of a game (``{type: {field: codec}}`` each)."""

    __slots__ = ("actions", "events", "records", "plans")

    def __init__(
        self, actions: Mapping[str, Fields] | None = None, events: Mapping[str, Fields] | None = None
    ) -> None:
        self.records: list[_Record | None] = [None, None]
        self.actions: dict[str, _Record] = {}
        self.events: dict[str, _Record] = {}
        for event, table, listed in ((False, self.actions, actions), (True, self.events, events)):
            for name, fields in (listed or {}).items():
                record = _Record(len(self.records), name, event, fields)
                self.records.append(record)
                table[name] = record
        #: How :meth:`Journal._logged` reads each record number, for the actions and the events.
        self.plans = (self._plan(event=False), self._plan(event=True))

    def _plan(self, event: bool) -> tuple[_Step, ...]:
        """``(read, step)`` by record number: ``step > 0``, a record of this log ``step`` ints
        long that ``read(ints, i, objects)`` renders; ``step < 0``, one of the other log to
        skip; ``0``, one of varying width, ``read`` gives ``(dict or None, next index)``."""
        plan: list[_Step] = []
        for number, record in enumerate(self.records):
            if record is None:
                mine = (number == _OBJECT_EVENT) == event
                plan.append((_read_object, 2) if mine else (_skipped, -2))
            elif record.width is not None:
                step = 1 + record.width
                plan.append((record.renderer(), step) if record.event == event else (_skipped, -step))
            elif record.event == event:
                plan.append((lambda ints, i, objects, r=record: r.take(ints, i + 1, objects), 0))
            else:
                plan.append((lambda ints, i, objects, r=record: (None, r.skip(ints, i + 1)), 0))
        return tuple(plan)

    def __deepcopy__(self, memo: dict[int, Any]) -> Schema:
        return self  # immutable


class Journal:
    """Mixin: the action and event logs of one game in one int array (see the module
    docstring). ``_log``/``_emit`` append; ``_logged`` builds fresh dicts each time."""

    #: ``{action type: {field: codec}}`` of the logged actions; types not listed are kept as given.
    ACTION_LOG: ClassVar[Mapping[str, Fields]] = {}
    #: ``{event type: {field: codec}}`` of the events; types not listed are kept as given.
    EVENT_LOG: ClassVar[Mapping[str, Fields]] = {}
    _SCHEMA: ClassVar[Schema] = Schema()
    # {type: (number, getter of its values, number of fields, (index, encoder) pairs)} of the
    # records of one int per field (the fast path of _log and _emit).
    _ACTION_INTS: ClassVar[dict[str, tuple[int, Any, int, Any]]] = {}
    _EVENT_INTS: ClassVar[dict[str, tuple[int, Any, int, Any]]] = {}

    _ints: array[int]
    #: How many actions were logged (a game's ``seq``).
    _seq: int
    #: Values kept as objects (unlisted records, JSON fields); None until the first.
    _objects: list[Any] | None
    #: Per log (False: actions, True: events), the last place a read from a later record
    #: started: ``(records before it, its index in _ints)``. The ints only grow (a record
    #: that fails is taken back whole), so a later read passes over only what follows it.
    _marks: dict[bool, tuple[int, int]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._SCHEMA = schema = Schema(cls.ACTION_LOG, cls.EVENT_LOG)
        cls._ACTION_INTS = {r.name: r.ints for r in schema.actions.values() if r.scalar}
        cls._EVENT_INTS = {r.name: r.ints for r in schema.events.values() if r.scalar}

    def _init_journal(self) -> None:
        self._ints = array("q")
        self._objects = None
        self._seq = 0
        self._marks = {}

    def _keep(self, value: Any) -> int:
        """Keep ``value`` beside the ints; its index."""
        if self._objects is None:
            self._objects = []
        self._objects.append(value)
        return len(self._objects) - 1

    def _log(self, action: Mapping[str, Any]) -> None:
        """Log an accepted action ``{"type": ..., field: value, ...}`` (values as its codecs
        take them, e.g. a card mask for a :data:`CARDS` field); ``_seq`` counts them."""
        ints = self._ACTION_INTS.get(action["type"])
        if ints is None:
            n = -1
        else:
            number, get, n, encoders = ints
        if len(action) != n + 1:
            self._log_other(action)
        elif encoders:
            self._put_encoded(number, get, n, encoders, action)
        elif n > 1:  # one fromlist: all of the record or, on an error, nothing
            self._ints.fromlist([number, *get(action)])
        elif n:
            self._ints.fromlist([number, get(action)])
        else:
            self._ints.append(number)
        self._seq += 1

    def _emit(self, kind: str, **fields: Any) -> None:
        """Log an event of type ``kind`` (values as its codecs take them)."""
        ints = self._EVENT_INTS.get(kind)
        if ints is None:
            n = -1
        else:
            number, get, n, encoders = ints
        if len(fields) != n:
            self._emit_other(kind, fields)
        elif encoders:
            self._put_encoded(number, get, n, encoders, fields)
        elif n > 1:
            self._ints.fromlist([number, *get(fields)])
        elif n:
            self._ints.fromlist([number, get(fields)])
        else:
            self._ints.append(number)

    def _put_encoded(self, number: int, get: Any, n: int, encoders: Any, fields: Mapping[str, Any]) -> None:
        values = list(get(fields)) if n > 1 else [get(fields)] if n else []
        for i, encode in encoders:
            values[i] = encode(values[i])
        self._ints.fromlist([number, *values])

    def _log_values(self, kind: str, *values: Any) -> None:
        """``_log`` of an action of type ``kind`` whose field values are given in the order
        of its ``ACTION_LOG`` entry (no dict to build: for the hot paths)."""
        ints = self._ACTION_INTS.get(kind)
        if ints is not None and len(values) == ints[2] and not ints[3]:
            self._ints.fromlist([ints[0], *values])
        else:
            self._values_other(kind, values, event=False)
        self._seq += 1

    def _emit_values(self, kind: str, *values: Any) -> None:
        """``_emit`` of an event of type ``kind`` whose field values are given in the order of
        its ``EVENT_LOG`` entry."""
        ints = self._EVENT_INTS.get(kind)
        if ints is not None and len(values) == ints[2] and not ints[3]:
            self._ints.fromlist([ints[0], *values])
        else:
            self._values_other(kind, values, event=True)

    def _values_other(self, kind: str, values: tuple[Any, ...], event: bool) -> None:
        record = (self._SCHEMA.events if event else self._SCHEMA.actions)[kind]
        fields = dict(zip(record.names, values, strict=True))
        if event:
            self._emit_other(kind, fields)
        else:
            self._log_other({"type": kind, **fields})

    def _log_other(self, action: Mapping[str, Any]) -> None:
        record = self._SCHEMA.actions.get(action["type"])
        if record is None:
            self._keep_record(_OBJECT_ACTION, dict(action))
        else:
            # Encoders replace values: in a copy, never in the caller's dict.
            self._add(record, dict(action))

    def _emit_other(self, kind: str, fields: dict[str, Any]) -> None:
        record = self._SCHEMA.events.get(kind)
        if record is None:
            self._keep_record(_OBJECT_EVENT, {"type": kind, **fields})
        else:
            self._add(record, fields)

    def _add(self, record: _Record, fields: dict[str, Any]) -> None:
        """Append ``record`` with ``fields`` (a dict of its own: encoded values replace
        those given); on any error nothing is logged."""
        if len(fields) != record.size:
            raise ValueError(
                f"{record.name}: fields {list(fields)} are not those logged: {list(record.names)}"
            )
        if record.scalar:
            self._put_encoded(*record.ints, fields)
            return
        ints = self._ints
        start = len(ints)
        kept = 0 if self._objects is None else len(self._objects)
        try:
            ints.append(record.number)
            for name, codec in zip(record.names, record.codecs, strict=True):
                codec.put(ints, fields[name], self)
        except BaseException:
            del ints[start:]
            if self._objects is not None:
                del self._objects[kept:]
            raise

    def _keep_record(self, number: int, value: dict[str, Any]) -> None:
        objects = self._objects
        if objects is None:
            objects = self._objects = []
        self._ints.fromlist([number, len(objects)])
        objects.append(value)

    def _load_events(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Append events given as JSON dicts (e.g. a position's history), kept as they are."""
        for e in events:
            self._keep_record(_OBJECT_EVENT, json_copy(e))

    def _logged(self, events: bool, start: int = 0) -> list[dict[str, Any]]:
        """The logged events (or actions), in order, as fresh JSON dicts; from the one numbered
        ``start`` on (``start >= 0``: the ones before are passed over, not built)."""
        objects, plan = self._objects, self._SCHEMA.plans[events]
        if start:
            marks = self._marks
            passed, base = marks.get(events, (0, 0))
            if passed > start:
                passed, base = 0, 0
            ints = self._ints[base:].tolist()  # indices below are from ``base`` on
            i, more = _pass_over(ints, objects, plan, start - passed)
            marks[events] = (passed + more, base + i)
        else:
            ints, i = self._ints.tolist(), 0
        out: list[dict[str, Any]] = []
        append = out.append
        n = len(ints)
        while i < n:
            read, step = plan[ints[i]]
            if step > 0:
                append(read(ints, i, objects))
                i += step
            elif step:
                i -= step
            else:
                d, i = read(ints, i, objects)
                if d is not None:
                    append(d)
        return out

    def _event_count(self) -> int:
        """``len(self._logged(events=True))``, without building the dicts."""
        ints = self._ints.tolist()
        return _pass_over(ints, self._objects, self._SCHEMA.plans[True], len(ints))[1]


def _pass_over(
    ints: list[int], objects: list[Any] | None, plan: tuple[_Step, ...], count: int
) -> tuple[int, int]:
    """Pass over the first ``count`` records of the log ``plan`` reads (all, if fewer): the
    index after them and how many there were."""
    passed, i, n = 0, 0, len(ints)
    while i < n and passed < count:
        read, step = plan[ints[i]]
        if step > 0:
            passed += 1
            i += step
        elif step:
            i -= step
        else:
            d, i = read(ints, i, objects)
            passed += d is not None
    return i, passed
