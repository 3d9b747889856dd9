"""The compact action and event logs (:mod:`vncards.journal`): every codec reads back exactly
what a plain list of dicts would hold, a mistaken record logs nothing, every game's records are
listed in its schema, and the logs stay compact."""

from __future__ import annotations

import copy
import json
import random
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import _core, maubinh, tienlen
from vncards.games import GAMES, new_game
from vncards.journal import BOOL, CARDS, INDEX, INT, JSON, LIST, OPTIONAL, WORD, Codec, Journal, cards_text
from vncards.snapshot import json_copy

WORDS = ("single", "pair", "triple")


class Table(Journal):
    ACTION_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "play": {"seat": INT, "cards": CARDS},
        "pass": {"seat": INT},
        "next": {},
        "say": {"seat": INT, "word": WORD(WORDS)},
    }
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "play": {"seat": INT, "combo": INDEX(WORDS), "cards": CARDS, "lead": BOOL},
        "end": {
            "winner": OPTIONAL(INT),
            "order": LIST(INT),
            "hands": LIST(CARDS),
            "settlement": OPTIONAL(LIST(INT)),
            "extra": JSON,
            "words": LIST(WORD(WORDS)),
        },
        "tick": {},
    }


def fresh() -> Table:
    t = Table()
    t._init_journal()
    return t


masks = st.integers(0, (1 << 52) - 1)
ints64 = st.integers(-(2**63) + 1, 2**63 - 1)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def records(draw: Any) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """(log, type, the values given, the JSON dict expected)."""
    which = draw(st.sampled_from(["play", "pass", "next", "say", "e-play", "end", "tick", "other", "o-act"]))
    seat = draw(st.integers(0, 3))
    if which == "play":
        m = draw(masks)
        return "action", "play", {"seat": seat, "cards": m}, {"seat": seat, "cards": _core.mask_to_text(m)}
    if which == "pass":
        return "action", "pass", {"seat": seat}, {"seat": seat}
    if which == "next":
        return "action", "next", {}, {}
    if which == "say":
        w = draw(st.sampled_from(WORDS))
        return "action", "say", {"seat": seat, "word": w}, {"seat": seat, "word": w}
    if which == "o-act":
        v = draw(json_values)
        return "action", "other", {"value": v}, {"value": v}
    if which == "e-play":
        k, m, lead = draw(st.integers(0, 2)), draw(masks), draw(st.booleans())
        given_ = {"seat": seat, "combo": k, "cards": m, "lead": lead}
        return "event", "play", given_, {**given_, "combo": WORDS[k], "cards": _core.mask_to_text(m)}
    if which == "end":
        winner = draw(st.none() | ints64)
        order = draw(st.lists(ints64, max_size=5))
        hands = draw(st.lists(masks, max_size=4))
        settlement = draw(st.none() | st.lists(ints64, max_size=4))
        extra = draw(json_values)
        words = draw(st.lists(st.sampled_from(WORDS), max_size=3))
        given_ = {
            "winner": winner,
            "order": order,
            "hands": hands,
            "settlement": settlement,
            "extra": extra,
            "words": words,
        }
        return "event", "end", given_, {**given_, "hands": [_core.mask_to_text(m) for m in hands]}
    if which == "tick":
        return "event", "tick", {}, {}
    v = draw(json_values)
    return "event", "other", {"value": v, "seat": seat}, {"value": v, "seat": seat}


@given(st.lists(records(), max_size=30))
def test_every_codec_reads_back_what_a_list_of_dicts_holds(recs: list[Any]) -> None:
    t = fresh()
    actions, events = [], []
    for log, kind, given_, want in recs:
        if log == "action":
            t._log({"type": kind, **given_})
            actions.append({"type": kind, **want})
        else:
            t._emit(kind, **copy.deepcopy(given_))
            events.append({"type": kind, **want})
    assert t._logged(events=False) == actions
    assert t._logged(events=True) == events
    assert t._event_count() == len(events)
    for start in range(len(recs) + 2):  # a reader from a position on builds only the rest
        assert t._logged(events=True, start=start) == events[start:]
        assert t._logged(events=False, start=start) == actions[start:]
    # The same JSON text, key order included.
    assert json.dumps(t._logged(events=True)) == json.dumps(events)
    assert json.dumps(t._logged(events=False)) == json.dumps(actions)


def test_positional_records_equal_named_ones() -> None:
    a, b = fresh(), fresh()
    a._log({"type": "play", "seat": 2, "cards": 0b101})
    a._emit("play", seat=2, combo=1, cards=0b101, lead=True)
    b._log_values("play", 2, 0b101)
    b._emit_values("play", 2, 1, 0b101, True)
    assert a._ints == b._ints
    assert b._logged(events=True) == [
        {"type": "play", "seat": 2, "combo": "pair", "cards": "3♠ 3♦", "lead": True}
    ]


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t._log({"type": "play", "seat": 1}),  # a field missing
        lambda t: t._log({"type": "play", "seat": 1, "cards": 3, "extra": 0}),  # one too many
        lambda t: t._log({"type": "play", "seat": 1, "card": 3}),  # misnamed
        lambda t: t._log({"type": "say", "seat": 1, "word": "quad"}),  # outside the vocabulary
        lambda t: t._log({"type": "play", "seat": 1, "cards": "3♠"}),  # not a mask
        lambda t: t._log({"type": "play", "seat": 1, "cards": 2**64}),  # beyond 64 bits
        lambda t: t._emit("play", seat=1, combo=0, cards=3),  # a field missing
        lambda t: t._emit("end", winner=-(2**63), order=[], hands=[], settlement=None, extra=0, words=[]),
        lambda t: t._emit("end", winner=1, order=[1], hands=[1], settlement=None, extra=0, words=["x"]),
        lambda t: t._emit("end", winner=1, order=[2**70], hands=[], settlement=None, extra=0, words=[]),
        lambda t: t._log_values("play", 1),
        lambda t: t._emit_values("play", 1, 0, 3),
    ],
)
def test_a_mistaken_record_raises_and_logs_nothing(call: Any) -> None:
    t = fresh()
    t._log({"type": "pass", "seat": 0})
    t._emit("end", winner=None, order=[0], hands=[1], settlement=[1, -1], extra={"a": [1]}, words=["pair"])
    before = (t._ints.tolist(), copy.deepcopy(t._objects), t._logged(events=True), t._logged(events=False))
    with pytest.raises((ValueError, KeyError, TypeError, OverflowError)):
        call(t)
    assert (t._ints.tolist(), t._objects, t._logged(events=True), t._logged(events=False)) == before


def test_cards_text_is_mask_to_text() -> None:
    rnd = random.Random(5)
    samples = [0, (1 << 52) - 1] + [s << (4 * r) for r in range(13) for s in range(16)]
    samples += [rnd.getrandbits(52) & rnd.getrandbits(52) & rnd.getrandbits(52) for _ in range(2000)]
    for m in samples + samples:  # the second time from the caches
        assert cards_text(m) == _core.mask_to_text(m)


class Fixed(Journal):
    """Records of fixed width through every kind of codec (read by generated renderers)."""

    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "mix": {
            "n": INT,
            "word": WORD(WORDS),
            "combo": INDEX(WORDS),
            "cards": CARDS,
            "flag": BOOL,
            "label": Codec(render=str),
            "extra": JSON,
        },
        "cards": {"cards": CARDS},
        "empty": {},
    }


@given(
    st.lists(st.tuples(ints64, st.sampled_from(WORDS), st.integers(0, 2), masks, st.booleans(), json_values))
)
def test_generated_renderers_read_what_was_logged(recs: list[Any]) -> None:
    t = Fixed()
    t._init_journal()
    want = []
    for n, word, kind, mask, flag, extra in recs:
        t._emit("mix", n=n, word=word, combo=kind, cards=mask, flag=flag, label=n, extra=copy.deepcopy(extra))
        t._emit("cards", cards=mask)
        t._emit("empty")
        text = _core.mask_to_text(mask)
        want += [
            {"type": "mix", "n": n, "word": word, "combo": WORDS[kind], "cards": text, "flag": flag}
            | {"label": str(n), "extra": extra},
            {"type": "cards", "cards": text},
            {"type": "empty"},
        ]
    got = t._logged(events=True)
    assert json.dumps(got) == json.dumps(want)
    assert t._event_count() == len(want) and t._logged(events=False) == []
    for e in got:  # fresh copies: editing one read leaves the log as it was
        if isinstance(e.get("extra"), list | dict):
            e["extra"].clear()
    assert json.dumps(t._logged(events=True)) == json.dumps(want)


@pytest.mark.parametrize("name", list(GAMES))
def test_event_count_is_the_number_of_events_every_seat_is_sent(name: str) -> None:
    for seed in range(4):
        g = _play_out(name, seed)
        n = g._event_count()
        assert n == len(g.events) == len(g.public_events())
        assert all(len(g.events_for(s)) == n for s in range(g.players))
        for start in (0, 1, n // 2, n - 1, n, n + 3):
            assert g._redacted(None, start) == g.public_events()[start:]
            assert all(g._redacted(s, start) == g.events_for(s)[start:] for s in range(g.players))


def _play_out(name: str, seed: int, hands: int = 2) -> Any:
    rnd = random.Random(seed)
    g: Any = new_game(name, seed=seed)
    for _ in range(3000):
        if g.is_over:
            if not hasattr(g, "next_hand") or g.hand_number >= hands:
                break
            g.apply({"type": "next_hand"})
            continue
        seat = g.pending_seats[0]
        if seed % 2:
            g.auto_play(seat)
        else:
            legal = g.legal_actions(seat)
            g.apply(legal[rnd.randrange(len(legal))])
    return g


def _record_numbers(g: Any) -> list[int]:
    """The record numbers in a game's log, in order."""
    ints, records, out, i = g._ints.tolist(), g._SCHEMA.records, [], 0
    while i < len(ints):
        out.append(ints[i])
        if ints[i] <= 1:
            i += 2
        else:
            i = records[ints[i]].take(ints, i + 1, g._objects or [])[1]
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_every_logged_type_is_in_the_schema(name: str) -> None:
    """No action or event of a game falls back to a kept dict, except Tứ Sắc's claims (kept as
    given by design); the log is exactly what the game logged."""
    for seed in range(6):
        g = _play_out(name, seed)
        numbers = _record_numbers(g)
        kept = sum(1 for n in numbers if n <= 1)
        claims = sum(1 for a in g.actions if a["type"] == "claim") + sum(
            1 for e in g.events if e["type"] == "claim"
        )
        assert kept == (claims if name == "tusac" else 0)
        assert len(numbers) == len(g.actions) + len(g.events)


def test_a_tienlen_move_takes_a_few_machine_words() -> None:
    """The ints behind a move (its action and its events) average under 100 bytes."""
    words = moves = 0
    for seed in range(40):
        rnd = random.Random(seed)
        g = tienlen.Game(seed=seed)
        start = len(g._ints)
        for _ in range(20):
            if g.is_over:
                break
            legal = g.legal_actions(g.pending_seats[0])
            g.apply(legal[rnd.randrange(len(legal))])
            moves += 1
        words += len(g._ints) - start
    assert words * 8 / moves < 100


def test_logs_are_fresh_copies() -> None:
    g = maubinh.Game(players=3, seed=4)
    for seat in g.pending_seats:
        g.auto_arrange(seat)
    text = g.to_json()
    for got in (g.events, g.actions, g.public_events(), g.events_for(0), g.to_dict()["events"]):
        for e in got:
            for key, value in list(e.items()):
                if isinstance(value, list):
                    value.append("x")
                    if value[:1] and isinstance(value[0], list):
                        value[0].append("x")
                e[key] = "changed"
    assert g.to_json() == text


def test_tables_share_their_default_rules() -> None:
    assert tienlen.Game().rules is tienlen.Game().rules
    assert new_game("tienlen-north").rules is new_game("tienlen-north").rules
    ranked = new_game("tienlen-north", rules={"ending": "ranked", "scoring": "ranked"}).rules
    assert ranked.ending == "ranked" and new_game("tienlen-north").rules.ending == "first_out"
    assert new_game("tienlen-north").rules == tienlen.Rules.north()


def _containers(value: Any) -> list[int]:
    """The ids of every list and dict in ``value`` (tuples are looked into)."""
    if isinstance(value, dict):
        return [id(value), *(i for v in value.values() for i in _containers(v))]
    inner = [i for v in value for i in _containers(v)] if isinstance(value, list | tuple) else []
    return [id(value), *inner] if isinstance(value, list) else inner


json_with_tuples = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(json_with_tuples)
def test_json_copy_is_a_deep_copy_with_tuples_as_lists(value: Any) -> None:
    got = json_copy(value)
    assert json.dumps(got) == json.dumps(value)  # equal, key order included (tuples dump as lists)
    assert not set(_containers(got)) & set(_containers(value))  # nothing shared
    assert not isinstance(got, tuple) and not any(isinstance(x, tuple) for x in _walk(got))


def _walk(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [v for x in value.values() for v in (x, *_walk(x))]
    if isinstance(value, list | tuple):
        return [v for x in value for v in (x, *_walk(x))]
    return []
