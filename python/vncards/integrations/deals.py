"""A game started from given hands, validated: what OpenSpiel's ``hands`` parameter builds on
(no framework import here).

:func:`deal_from_hands` deals the hands you give, every seat's in full or ``None`` for a seat
dealt at random from the cards left, and lets the game's own deal run on them: instant wins at
the deal, the first lead (the 3♠), Sâm Lốc's nominal leader, Tứ Sắc's dealt quằn and its stock
all follow exactly as after a shuffled deal. ``seed`` decides whatever the hands leave open
(the seats given as ``None``, Tứ Sắc's stock order, a drawn leader).

The dealt position is then rebuilt with :meth:`~vncards.table.TableGame.from_position`, which
checks it like any set-up position (cards conserved, hand sizes); its snapshots record that
position as their origin and replay from it. Bad hands raise a
:class:`~vncards.VncardsError`, never anything else: :class:`~vncards.InvalidCardError` for
text that is not a card (or a card twice in one hand), :class:`~vncards.SnapshotError` for a
wrong number of hands or cards, a card dealt twice, or more copies than the deck holds.

Hands are card text (``"3♠ 4♥"``, ``"3s 4h"``; Tứ Sắc codes ``"KR PW"``) or lists of it. Tứ Sắc's
dealer (seat 0 unless ``dealer=`` says otherwise) holds 21 cards, every other seat 20.

>>> game = deal_from_hands("maubinh", [
...     "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠", None, None, None])
>>> " ".join(map(str, game.hand(0)))
'2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠'
>>> deal_from_hands("tienlen", ["3♠ 3♠", None])
Traceback (most recent call last):
...
vncards.errors.InvalidCardError: hands[0]: duplicate card: "3♠" at position 3
>>> deal_from_hands("samloc", ["3♠ 4♠", None])
Traceback (most recent call last):
...
vncards.errors.SnapshotError: hands[0]: samloc deals 10 cards a seat, not 2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _core, games
from ..errors import InvalidCardError, SnapshotError
from ..inputs import as_list, check_text, parse_cards
from ..table import Seed, TableGame

__all__ = ["deal_from_hands", "hand_sizes"]

_TUSAC_KINDS = 28
_TUSAC_COPIES = 4


def hand_sizes(name: str, players: int, rules: Any = None, dealer: int = 0) -> list[int]:
    """The number of cards each seat is dealt in game ``name`` (a variant name).

    >>> hand_sizes("tusac", 4, dealer=1), hand_sizes("samloc", 3)
    ([20, 21, 20, 20], [10, 10, 10])
    """
    if name == "tusac":
        return [21 if s == dealer else 20 for s in range(players)]
    if name == "maubinh":
        return [13] * players
    size: int = games.spec(name).rules_from(rules).core.hand_size  # type: ignore[attr-defined]
    return [size] * players


def _parse_hand(name: str, value: Any, what: str) -> list[int]:
    """The deck indices of one given hand (52-card index, or Tứ Sắc kind)."""
    try:
        if name != "tusac":
            mask = parse_cards(value, what)
            return [i for i in range(52) if mask >> i & 1]
        if not isinstance(value, str):
            items = as_list(value, what)
            value = " ".join(
                str(c) if isinstance(c, (str, _core.TuSacCard)) else _not_card(c, what) for c in items
            )
        return [int(c.index) for c in _core.tusac_parse_cards(check_text(value, what))]
    except InvalidCardError as e:  # say which hand
        message = str(e) if str(e).startswith(what) else f"{what}: {e}"
        raise InvalidCardError(message, token=e.token, position=e.position) from None
    except TypeError as e:  # an object that is neither text nor a list
        raise InvalidCardError(str(e) if str(e).startswith(what) else f"{what}: {e}") from None


def _not_card(value: Any, what: str) -> str:
    raise InvalidCardError(f"{what}: a card is text or a TuSacCard, not {type(value).__name__}")


class _DealtRng:
    """The game's RNG, except that the deal's shuffle (its first ``permutation``) puts the
    given cards where the game deals each seat's hand. The cards left are shuffled by the
    seeded RNG: seats given as ``None`` take theirs first, the rest (Tứ Sắc's stock, the
    cards nobody is dealt) follows in that order. Every later draw is the seeded RNG's."""

    def __init__(self, rng: Any, blocks: list[list[int] | None], sizes: list[int], free: list[int]) -> None:
        self._rng = rng
        self._plan: tuple[list[list[int] | None], list[int], list[int]] | None = (blocks, sizes, free)

    def permutation(self, n: int) -> list[int]:
        if self._plan is None:
            return list(self._rng.permutation(n))
        (blocks, sizes, free), self._plan = self._plan, None
        if n != sum(map(len, (b for b in blocks if b is not None))) + len(free):
            raise AssertionError("the deal shuffled a deck of another size")
        rest = [free[i] for i in self._rng.permutation(len(free))]
        out: list[int] = []
        for block, size in zip(blocks, sizes, strict=True):
            if block is None:
                block, rest = rest[:size], rest[size:]
            out.extend(block)
        return out + rest

    def below(self, n: int) -> int:
        return int(self._rng.below(n))

    def choice(self, seq: Sequence[Any]) -> Any:
        return self._rng.choice(seq)

    @property
    def key(self) -> bytes:
        return bytes(self._rng.key)

    @property
    def position(self) -> int:
        return int(self._rng.position)


_DEALING: dict[type[TableGame], type[TableGame]] = {}


def _dealing_class(cls: type[TableGame]) -> type[TableGame]:
    """``cls`` whose table gets a :class:`_DealtRng` (used once per deal, then discarded:
    the game that is returned is of ``cls`` itself, rebuilt from the dealt position)."""
    if cls not in _DEALING:

        def __init__(self: Any, rng: _DealtRng, *args: Any, **kwargs: Any) -> None:
            self.__dict__["_dealt_rng"] = rng
            cls.__init__(self, *args, **kwargs)

        def _init_table(self: Any, players: Any, rules: Any, rng: Any) -> None:
            cls._init_table(self, players, rules, self.__dict__.pop("_dealt_rng"))

        _DEALING[cls] = type(
            f"_Dealing{cls.__name__}", (cls,), {"__init__": __init__, "_init_table": _init_table}
        )
    return _DEALING[cls]


def deal_from_hands(
    name: str,
    hands: Sequence[Any],
    *,
    rules: Any = None,
    seed: Seed = 0,
    dealer: int = 0,
) -> TableGame:
    """A new game of variant ``name`` whose seats are dealt ``hands`` (one entry per seat:
    card text, a list of card texts, or ``None`` to deal that seat at random from the cards
    left). ``rules`` as for :func:`vncards.games.new_game`; ``seed`` decides the rest of the
    deal; ``dealer`` is Tứ Sắc's dealer (other games take only 0). See the module docstring
    for the errors."""
    spec = games.spec(name)
    cls = spec.game_class()
    rules = spec.rules_from(rules)
    try:
        given = as_list(hands, "hands", SnapshotError)
    except TypeError as e:
        raise SnapshotError(str(e)) from None
    players = len(given)
    if not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
        raise SnapshotError(f"hands: {name} takes {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} hands, not {players}")
    if name != "tusac" and dealer != 0:
        raise SnapshotError(f"dealer: only tusac names a dealer, not {name}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise SnapshotError(f"dealer: a seat 0..{players - 1}, not {dealer!r}")
    sizes = hand_sizes(name, players, rules, dealer)
    parsed: list[list[int] | None] = []
    for s, value in enumerate(given):
        if value is None:
            parsed.append(None)
            continue
        cards = _parse_hand(name, value, f"hands[{s}]")
        if len(cards) != sizes[s]:
            raise SnapshotError(
                f"hands[{s}]: {name} deals {sizes[s]} cards {_to_whom(name, s, dealer)}, not {len(cards)}"
            )
        parsed.append(cards)
    rng = _DealtRng(_core.Rng(seed), *_blocks(name, parsed, sizes, dealer))
    setup = {"dealer": dealer} if name == "tusac" else {}
    dealing: Any = _dealing_class(cls)
    dealt = dealing(rng, players, rules, **setup)
    position = dealt.to_dict()
    # The dealt position, checked by the game like any set-up position.
    return cls.from_position(position)


def _to_whom(name: str, seat: int, dealer: int) -> str:
    if name == "tusac":
        return "to the dealer" if seat == dealer else "to a seat that is not the dealer"
    return "a seat"


def _blocks(
    name: str, parsed: list[list[int] | None], sizes: list[int], dealer: int
) -> tuple[list[list[int] | None], list[int], list[int]]:
    """The deck positions of each given seat's cards and the hand sizes, in the order the
    game's deal reads its shuffle (seat 0 first; Tứ Sắc: the dealer first, then in turn), and
    the deck positions of every card not given."""
    players = len(parsed)
    order = [(dealer + i) % players for i in range(players)] if name == "tusac" else list(range(players))
    if name == "tusac":
        # Copy c of kind k is deck position 4k + c.
        used = [0] * _TUSAC_KINDS
        positions: list[list[int] | None] = []
        for s, cards in enumerate(parsed):
            if cards is None:
                positions.append(None)
                continue
            seat_positions = []
            for k in sorted(cards):
                if used[k] == _TUSAC_COPIES:
                    raise SnapshotError(
                        f"hands[{s}]: the deck holds only {_TUSAC_COPIES} {_core.TuSacCard(k)}"
                    )
                seat_positions.append(_TUSAC_COPIES * k + used[k])
                used[k] += 1
            positions.append(seat_positions)
        free = [_TUSAC_COPIES * k + c for k in range(_TUSAC_KINDS) for c in range(used[k], _TUSAC_COPIES)]
    else:
        owner: dict[int, int] = {}
        for s, cards in enumerate(parsed):
            for i in cards or ():
                if i in owner:
                    card = _core.Card(i)
                    raise SnapshotError(f"hands[{s}]: {card} is also in hands[{owner[i]}]")
                owner[i] = s
        positions = list(parsed)
        free = [i for i in range(52) if i not in owner]
    return [positions[s] for s in order], [sizes[s] for s in order], free
