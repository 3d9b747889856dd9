"""Mậu Binh hands, arrangements, the solver and settlement (rules: :doc:`/rules/maubinh`).

Each player splits 13 cards into a 5-card **back** (chi 1, chi đầu), a 5-card **middle** (chi
2, chi giữa) and a 3-card **front** (chi 3, chi cuối), with back ≥ middle ≥ front; otherwise
the arrangement is fouled (binh lủng). Ranks only decide (``2 < 3 < … < K < A``); suits only make flushes.

Why one module of ~700 lines: every function here is a thin typed front of one Rust call on
the same three values (a hand of cards, an :class:`Arrangement`, the :class:`Rules`), and they
share one way of reading and checking them; the game flow (``game.py``), the exploitability
measure (``exploit.py``) and the equilibrium tables (``tables.py``) already live apart.

>>> best = best_arrangement("A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠")
>>> best.back
(Card('10♠'), Card('J♠'), Card('Q♠'), Card('K♠'), Card('A♠'))
>>> hand_category(best.back)
'straight_flush'
>>> is_fouled(best)
False
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from .. import _core
from .._args import count_arg
from ..cards import Card, CardsLike
from ..errors import IllegalMoveError, InvalidCardError, RulesError
from ..rules import RulesBase, option, rules_mismatch

if TYPE_CHECKING:  # numpy is optional (the `numpy` extra): only the batch functions need it
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CATEGORIES",
    "INSTANT_WINS",
    "OBJECTIVES",
    "Arrangement",
    "Objective",
    "Rules",
    "Settlement",
    "arrangement_report",
    "best_arrangement",
    "best_arrangements",
    "cards_text",
    "compare_hands",
    "expected_value",
    "hand_category",
    "hand_rank",
    "hand_ranks",
    "head_to_head",
    "instant_win",
    "is_fouled",
    "position_tables",
    "ranked_arrangements",
    "settle",
    "settle_itemised",
    "sort_cards",
]

Objective = Literal["expected", "strongest", "equilibrium"]
#: The objectives :func:`best_arrangement` takes.
OBJECTIVES: tuple[str, ...] = ("expected", "strongest", "equilibrium")

#: Instant wins (mậu binh trắng), strongest first, with the units each opponent pays:
#: dragon_flush (rồng cuốn) 24, dragon (sảnh rồng) 12, five_pairs_triple (năm đôi một sám) 6,
#: six_pairs (lục phé bôn) 3, three_flushes (ba thùng) 3, three_straights (ba sảnh) 3.
INSTANT_WINS: dict[str, int] = dict(_core.MAUBINH_INSTANT_WINS)

#: Hand categories, weakest first (a 3-card front is only high_card, pair or three_of_a_kind).
CATEGORIES: tuple[str, ...] = tuple(_core.MAUBINH_CATEGORIES)


@dataclass(frozen=True)
class Rules(RulesBase):
    """Mậu Binh options (rules: :doc:`/rules/maubinh`). Each names its default and where it
    comes from: the seed document (the original Vietnamese rules the engine follows) or a house
    rule.

    - ``wheel``: ``"second"`` (default, common convention: A-2-3-4-5 is the second-highest
      straight) or ``"lowest"``;
    - ``scoop`` (default off, seed: "Kết quả là tổng của những chi thắng - thua", the plain
      sum of the hands won and lost; on is the house rule sập hầm): winning all three hands
      against an opponent doubles what they pay;
    - ``scoop_all`` (default off; house rule sập làng): scooping every opponent (3–4 players)
      doubles again;
    - ``back_straight_flush_units`` (default 1, seed: a straight flush in the back is not in the
      seed's bonus list, so it wins 1 like any back; 5 is a common house value, accepted
      1..24): units a straight flush in the back wins;
    - ``time_limit`` (default 45, seed: "khoảng 45s"): seconds to arrange, 1 to 3600 (the
      engine reports it; the server enforces it);
    - ``scoring`` (default ``"units"``, seed: the units per hand won with the bonus table
      above, instant wins, 6 for a foul): how each pair settles; ``"4-2"`` is Chinese poker's
      4-2 scoring (1 point per hand won and 1 more for winning more hands than the opponent;
      no bonuses, instant wins or scoops; a foul loses all three hands, 4 points), so the
      solver and :func:`exploitability` can be set beside published Chinese-poker figures.

    >>> Rules().scoop, Rules().back_straight_flush_units
    (False, 1)
    >>> Rules().replace(wheel="lowest").wheel
    'lowest'
    """

    wheel: Literal["second", "lowest"] = option(
        "second", "A-2-3-4-5 is the second-highest straight, or the lowest"
    )
    scoop: bool = option(False, "sập hầm: winning all three hands doubles what that opponent pays")
    scoop_all: bool = option(False, "sập làng: scooping every opponent doubles again")
    back_straight_flush_units: int = option(
        1,
        "units a straight flush in the back wins (1 like any back; 5 is a common house value)",
        bounds=(1, 24),
    )
    time_limit: int = option(
        45, "seconds each seat has to arrange (the server enforces it)", bounds=(1, 3600)
    )
    scoring: Literal["units", "4-2"] = option(
        "units",
        "how pairs settle: the seed's units per hand with bonuses, or Chinese-poker 4-2 "
        "(1 per hand won, 1 for the majority, no bonuses or instant wins)",
        source="house",
    )

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        # Stored before the option existed: a straight flush in the back won 5.
        if "scoop" in data and "back_straight_flush_units" not in data:
            data["back_straight_flush_units"] = 5
        # Stored before 4-2 scoring existed: the seed's units.
        data.setdefault("scoring", "units")
        return data

    def __post_init__(self) -> None:
        super().__post_init__()
        core = _core.MauBinhRules(
            wheel=self.wheel,
            scoop=self.scoop,
            scoop_all=self.scoop_all,
            back_straight_flush_units=self.back_straight_flush_units,
            scoring=self.scoring,
        )
        object.__setattr__(self, "_core", core)

    @property
    def core(self) -> _core.MauBinhRules:
        """The options as the Rust core reads them, built once with the rules object."""
        return self._core  # type: ignore[attr-defined, no-any-return]

    def _check(self) -> None:
        if self.scoring == "4-2" and (self.scoop or self.scoop_all or self.back_straight_flush_units != 1):
            raise RulesError(
                "Rules.scoring '4-2' has no bonuses or scoops: leave scoop, scoop_all and "
                "back_straight_flush_units at their defaults"
            )


_DEFAULT = Rules()


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _typed_cards(f: Callable[_P, _T]) -> Callable[_P, _T]:
    """Card arguments of a wrong type (a number, None, a list of lists) raise
    :class:`~vncards.InvalidCardError` saying what was wrong, a ``VncardsError`` like every other
    bad input of the Mậu Binh functions, instead of the core's bare ``TypeError``."""

    @functools.wraps(f)
    def typed(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return f(*args, **kwargs)
        except TypeError as e:
            raise InvalidCardError(f"{f.__name__}: {e}") from None

    return typed


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _DEFAULT
    if not isinstance(rules, Rules):
        raise rules_mismatch("maubinh", Rules, rules)
    return rules


_POSITIONS = {"back": 0, "middle": 1, "front": 2}


#: The mask of every A and every 2 and of the ranks of a wheel (A-2-3-4-5) in Tiến Lên order.
_ACES = 0xF << 44
_WHEEL_RANKS = (0xF, 0xF << 4, 0xF << 8, _ACES, 0xF << 48)  # 3, 4, 5, A, 2


def sort_cards(cards: CardsLike) -> tuple[Card, ...]:
    """``cards`` low to high in Mậu Binh order, the one order every Mậu Binh display uses
    (views, events, the command line, :class:`Arrangement`): ranks 2 lowest to A highest,
    then suit (♠ ♣ ♦ ♥); five cards that make the wheel straight (A-2-3-4-5, where the ace
    counts low) are shown as the rules rank them, the ace first.

    >>> [str(c) for c in sort_cards("2♦ 3♣ A♠ K♥ 10♦")]
    ['2♦', '3♣', '10♦', 'K♥', 'A♠']
    >>> " ".join(map(str, sort_cards("3♦ 4♦ 5♠ A♠ 2♦")))
    'A♠ 2♦ 3♦ 4♦ 5♠'
    """
    return _cards(_core.cards_to_mask(cards))


def cards_text(cards: CardsLike | int) -> str:
    """:func:`sort_cards` as text (``cards`` may also be a card mask): ``"2♦ 3♣ A♠"``."""
    mask = cards if isinstance(cards, int) else _core.cards_to_mask(cards)
    return " ".join(map(str, _cards(mask)))


def _cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in Mậu Binh order (:func:`sort_cards`): Tiến Lên order with the 2s
    (indices 48..51) moved to the front, and a wheel's aces before its 2."""
    cards = _core.mask_to_cards(mask)
    twos = (mask >> 48).bit_count()
    if not twos:
        return tuple(cards)
    ordered = cards[-twos:] + cards[:-twos]
    if len(cards) == 5 and all(mask & r for r in _WHEEL_RANKS) and (mask & _ACES).bit_count() == 1:
        ordered = [ordered[-1], *ordered[:-1]]  # A-2-3-4-5: the ace counts low
    return tuple(ordered)


def _checked_hand_masks(parts: Sequence[Any], to_mask: Callable[[Any, str], int]) -> tuple[int, int, int]:
    """The card masks of ``(back, middle, front)``, each read by ``to_mask(part, name)`` and
    checked for its size (5, 5, 3) before the next is read, then for a card in two hands
    (``IllegalMoveError("invalid_arrangement")``). The one check behind :class:`Arrangement`
    and a table's ``arrange`` action."""
    masks = []
    for part, name, size in zip(parts, ("back", "middle", "front"), (5, 5, 3), strict=True):
        mask = to_mask(part, name)
        if mask.bit_count() != size:
            raise IllegalMoveError(
                "invalid_arrangement", f"the {name} needs {size} cards, not {mask.bit_count()}"
            )
        masks.append(mask)
    back, middle, front = masks
    if back & middle or back & front or middle & front:
        raise IllegalMoveError("invalid_arrangement", "a card is in two hands")
    return back, middle, front


def _hand_mask(part: Any, name: str) -> int:
    """The card mask of one hand of an arrangement (``name``: back, middle or front)."""
    try:
        return int(_core.cards_to_mask(part))
    except TypeError as e:
        raise InvalidCardError(f"the {name}: {e}") from None


@dataclass(frozen=True, init=False)
class Arrangement:
    """Three hands: ``back`` (5 cards), ``middle`` (5 cards), ``front`` (3 cards).

    Any card-like input is accepted; the fields become tuples of :class:`~vncards.Card` sorted
    low to high in Mậu Binh order. A wrong size or a card in two hands raises
    ``IllegalMoveError("invalid_arrangement")``. ``instant`` and ``value`` are filled in by the
    solver (the instant win to declare, the model's expected units) and do not take part in
    equality.

    >>> a = Arrangement("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠")
    >>> a.front
    (Card('7♠'), Card('9♣'), Card('J♦'))
    >>> str(a)
    '2♠ K♣ K♦ A♠ A♥ | 3♦ 4♣ 5♠ Q♠ Q♥ | 7♠ 9♣ J♦'
    """

    #: The back hand (chi 1, chi đầu): 5 cards, the strongest.
    back: tuple[Card, ...]
    #: The middle hand (chi 2, chi giữa): 5 cards.
    middle: tuple[Card, ...]
    #: The front hand (chi 3, chi cuối): 3 cards, the weakest.
    front: tuple[Card, ...]
    #: The instant win (mậu binh trắng) the 13 cards hold, to declare instead of comparing
    #: hands (a key of :data:`INSTANT_WINS`, e.g. ``"six_pairs"``); set by the solver, None
    #: when the hand has none or the arrangement was not made by the solver.
    instant: str | None = field(default=None, compare=False)
    #: The model's expected units of this arrangement against one opponent who arranges well
    #: (:func:`expected_value`), whichever ``objective`` chose it; set by the solver, None for
    #: an arrangement made by hand.
    value: float | None = field(default=None, compare=False)

    def __init__(
        self,
        back: CardsLike,
        middle: CardsLike,
        front: CardsLike,
        instant: str | None = None,
        value: float | None = None,
    ) -> None:
        # Card-like input in, sorted card tuples stored: the fields' types are what is read.
        masks = _checked_hand_masks((back, middle, front), _hand_mask)
        for name, mask in zip(("back", "middle", "front"), masks, strict=True):
            object.__setattr__(self, name, _cards(mask))
        object.__setattr__(self, "instant", instant)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "_masks", masks)

    @classmethod
    def parse(cls, text: str) -> Arrangement:
        """An arrangement from the text the command line takes and ``str()`` gives:
        ``"back | middle | front"`` (5, 5 and 3 cards).

        >>> Arrangement.parse("A♠ A♥ K♦ K♣ 2♠ | Q♠ Q♥ 3♦ 4♣ 5♠ | J♦ 9♣ 7♠").front
        (Card('7♠'), Card('9♣'), Card('J♦'))
        """
        if not isinstance(text, str):
            raise IllegalMoveError(
                "invalid_arrangement", f"an arrangement's text is a str, not {type(text).__name__}"
            )
        parts = text.split("|")
        if len(parts) != 3:
            raise IllegalMoveError(
                "invalid_arrangement", "write the three hands as back | middle | front (5, 5 and 3 cards)"
            )
        hands: list[tuple[Card, ...]] = []
        offset = 0
        for part in parts:
            try:
                hands.append(tuple(_core.parse_cards(part)))
            except InvalidCardError as e:
                # Report the position in the whole text, not in one hand.
                position = None if e.position is None else offset + e.position
                raise InvalidCardError(
                    str(e).rsplit(" at position", 1)[0] + f" at position {position}",
                    token=e.token,
                    position=position,
                ) from None
            offset += len(part) + 1
        return cls(hands[0], hands[1], hands[2])

    @classmethod
    def _from_masks(
        cls, back: int, middle: int, front: int, instant: str | None = None, value: float | None = None
    ) -> Arrangement:
        """An arrangement from masks the core has already checked (no re-validation); the card
        tuples are built on first read (the solver's callers often want only the masks)."""
        self = object.__new__(cls)
        object.__setattr__(self, "instant", instant)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "_masks", (back, middle, front))
        return self

    def __getattr__(self, name: str) -> tuple[Card, ...]:
        # Only reached for a hand not built yet (see _from_masks).
        position = _POSITIONS.get(name)
        masks = self.__dict__.get("_masks")
        if position is None or masks is None:
            raise AttributeError(name)
        cards = _cards(masks[position])
        object.__setattr__(self, name, cards)
        return cards

    @property
    def masks(self) -> tuple[int, int, int]:
        """The three hands as card bitmasks (bit i = ``Card.index`` i)."""
        masks: tuple[int, int, int] = self.__dict__["_masks"]
        return masks

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 13 cards, low to high in Tiến Lên order."""
        b, m, f = self.masks
        return tuple(_core.mask_to_cards(b | m | f))

    def to_text(self) -> list[str]:
        """The three hands as card text (JSON-friendly)."""
        return [" ".join(str(c) for c in h) for h in (self.back, self.middle, self.front)]

    def __str__(self) -> str:
        return " | ".join(self.to_text())


def _arrangement(value: Any) -> Arrangement:
    """An :class:`Arrangement` from one, a ``{"back", "middle", "front"}`` mapping,
    ``(back, middle, front)`` or ``"back | middle | front"`` text."""
    if isinstance(value, Arrangement):
        return value
    if isinstance(value, str):
        return Arrangement.parse(value)
    if isinstance(value, Mapping):
        missing = [k for k in ("back", "middle", "front") if k not in value]
        if missing:
            raise IllegalMoveError("invalid_arrangement", f"missing hand {missing[0]!r}")
        return Arrangement(value["back"], value["middle"], value["front"])
    if isinstance(value, (tuple, list)) and len(value) == 3:
        return Arrangement(*value)
    raise IllegalMoveError(
        "invalid_arrangement",
        "an arrangement is an Arrangement, (back, middle, front) or 'back | middle | front'",
    )


@_typed_cards
def hand_rank(cards: CardsLike, rules: Rules | None = None) -> int:
    """Strength of a 5-card hand or a 3-card front (higher is stronger; equal is a tie).

    5-card ranks are 0..7461, 3-card ranks 0..454; only hands of the same size compare.

    >>> hand_rank("A♠ K♠ Q♠ J♠ 10♠")
    7461
    >>> hand_rank("A♠ 2♥ 3♦ 4♣ 5♠") > hand_rank("K♠ Q♥ J♦ 10♣ 9♠")
    True
    >>> hand_rank("A♠ 2♥ 3♦ 4♣ 5♠", Rules(wheel="lowest")) > hand_rank("6♠ 2♥ 3♦ 4♣ 5♠", Rules(wheel="lowest"))
    False
    """
    return int(_core.maubinh_hand_rank(cards, _rules(rules).core))


@_typed_cards
def hand_category(cards: CardsLike, rules: Rules | None = None) -> str:
    """The category of a 5- or 3-card hand, one of :data:`CATEGORIES`.

    >>> hand_category("9♠ 9♥ 9♦ 4♣ 4♠")
    'full_house'
    >>> hand_category("J♠ Q♥ K♦")
    'high_card'
    """
    return str(_core.maubinh_hand_category(cards, _rules(rules).core))


@_typed_cards
def hand_ranks(
    hands: npt.NDArray[np.uint8] | Iterable[CardsLike], rules: Rules | None = None
) -> npt.NDArray[np.int32]:
    """:func:`hand_rank` of many hands at once, in parallel with the GIL released.

    ``hands`` is a numpy ``(N, 5)`` (or ``(N, 3)``) uint8 array of ``Card.index`` values, or an
    iterable of hands.

    >>> import numpy as np
    >>> hand_ranks(np.array([[44, 40, 36, 32, 28], [0, 1, 2, 3, 4]], dtype=np.uint8)).tolist()
    [7461, 7309]
    """
    ranks: npt.NDArray[np.int32] = _core.maubinh_hand_ranks(hands, _rules(rules).core)
    return ranks


@_typed_cards
def compare_hands(a: CardsLike, b: CardsLike, rules: Rules | None = None) -> int:
    """1 if ``a`` beats ``b``, -1 if it loses, 0 for a tie (two 5-card or two 3-card hands).

    Suits never break ties:

    >>> compare_hands("K♠ K♣ 9♦ 5♥ 2♠", "K♦ K♥ 9♠ 5♣ 2♥")
    0
    """
    return int(_core.maubinh_compare_hands(a, b, _rules(rules).core))


@_typed_cards
def is_fouled(arrangement: Arrangement | Sequence[CardsLike], rules: Rules | None = None) -> bool:
    """Whether an arrangement is fouled (binh lủng): back weaker than middle, or front stronger
    than middle. The front is compared with the middle by category, then only as many ranks as
    the front has.

    >>> is_fouled(("2♠ 2♥ 5♦ 7♣ 8♠", "A♥ K♦ Q♣ J♠ 9♠", "A♠ K♣ Q♦"))
    False
    >>> is_fouled(("2♠ 2♥ 5♦ 7♣ 8♠", "A♥ K♦ J♣ 10♠ 9♠", "A♠ K♣ Q♦"))
    True
    """
    return bool(_core.maubinh_is_fouled(*_arrangement(arrangement).masks, _rules(rules).core))


@_typed_cards
def instant_win(cards: CardsLike, rules: Rules | None = None) -> str | None:
    """The strongest instant win (mậu binh trắng) of 13 cards, or None; see :data:`INSTANT_WINS`.

    >>> instant_win("2♠ 2♥ 3♠ 3♥ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 8♦")
    'six_pairs'
    """
    r = _rules(rules)
    kind = _core.maubinh_instant_win(cards, r.core)
    return None if kind is None else str(kind)


def _solution(t: tuple[int, int, int, float, str | None]) -> Arrangement:
    return Arrangement._from_masks(t[0], t[1], t[2], t[4], t[3])


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise RulesError(f"objective must be 'expected', 'strongest' or 'equilibrium', not {objective!r}")


@_typed_cards
def best_arrangement(
    cards: CardsLike, rules: Rules | None = None, objective: Objective = "expected"
) -> Arrangement:
    """The best valid arrangement of 13 cards, exact over all 72,072 splits.

    - ``"expected"``: most expected units against opponents who arrange well, from per-position
      win/tie tables shipped with the package (ties: stronger back, then middle);
    - ``"strongest"``: strongest back, then middle, then front;
    - ``"equilibrium"``: the same search against tables moved toward their best response until
      an adaptive opponent could exploit them no further (see :func:`exploitability`).

    Under ``Rules(scoring="4-2")`` the expected and equilibrium objectives read tables made
    for that scoring, and the equilibrium also prices how an opponent's three hands are played
    together (4-2's majority point depends on all three): among its tables' best four splits
    it plays the one with the most value once the majority is corrected by the opponents'
    counted joint outcomes (the solver guide's "joint term"), and ``.value`` is that value.

    ``.value`` is the model's expected units against one opponent. If the hand is an instant win,
    ``.instant`` names it (for ba thùng / ba sảnh the arrangement shows the three flushes or
    straights).

    >>> a = best_arrangement("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    >>> a.instant
    'dragon_flush'
    """
    _check_objective(objective)
    r = _rules(rules)
    return _solution(_core.maubinh_best_arrangement(cards, r.core, objective))


@_typed_cards
def best_arrangements(
    hands: npt.NDArray[np.uint8] | Iterable[CardsLike],
    rules: Rules | None = None,
    objective: Objective = "expected",
) -> list[Arrangement]:
    """:func:`best_arrangement` for many hands, solved in parallel with the GIL released.

    ``hands`` is an iterable of 13-card hands or a numpy ``(N, 13)`` uint8 array of
    ``Card.index`` values. ``objective`` is the same for every hand, as in
    :func:`best_arrangement`: ``"expected"`` (the most expected units) or ``"strongest"`` (the
    strongest back, then middle, then front). Each :class:`Arrangement` comes back in the
    order of ``hands``, with its ``value`` (the model's expected units against one opponent,
    whichever objective chose it) and its ``instant`` win, if any.

    >>> hands = ["AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d", "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"]
    >>> [a.instant for a in best_arrangements(hands, objective="strongest")]
    [None, 'dragon_flush']
    >>> expected, strongest = (best_arrangements(hands, objective=o)[0] for o in ("expected", "strongest"))
    >>> expected.value >= strongest.value
    True
    """
    _check_objective(objective)
    r = _rules(rules)
    raw = _core.maubinh_best_arrangements(hands, r.core, objective)
    return [_solution(t) for t in raw]


@_typed_cards
def expected_value(
    arrangement: Arrangement | Sequence[CardsLike],
    rules: Rules | None = None,
    objective: Objective = "expected",
) -> float:
    """The model's expected units of an arrangement against one opponent, with the tables of
    ``objective`` (see :func:`best_arrangement`; ``"strongest"`` reads the expected ones); a
    fouled arrangement is worth about -6 in play, which the model does not price: check
    :func:`is_fouled` first."""
    _check_objective(objective)
    r = _rules(rules)
    back, middle, front = _arrangement(arrangement).masks
    return float(_core.maubinh_expected_value(back, middle, front, r.core, objective))


def position_tables(
    rules: Rules | None = None, objective: Objective = "expected"
) -> dict[str, npt.NDArray[np.float64]]:
    """The shipped model tables of ``objective`` for the rules' scoring: for ``"back"``,
    ``"middle"``, ``"front"`` an array indexed by :func:`hand_rank` with columns win, tie,
    lose, loss (expected units paid when losing), bonus (units won with that hand), value
    (``win * bonus - loss``). Tables kept per class of the player's own hand (card removal: the
    equilibrium ones of either scoring) give those of a hand holding no ace or king, fewer
    than ten distinct ranks and no five of a suit.

    >>> position_tables(Rules(scoring="4-2"), "equilibrium")["front"].shape
    (455, 6)
    """
    _check_objective(objective)
    r = _rules(rules)
    # Mask 0: one population's tables, or a split population's class of no ace and no king.
    tables: dict[str, npt.NDArray[np.float64]] = _core.maubinh_position_tables(r.core, objective, 0)
    return tables


@dataclass(frozen=True)
class Settlement:
    """Per-seat totals (sum to zero), the itemised ledger, and how each seat ended."""

    totals: list[int]
    ledger: list[dict[str, Any]]
    instants: list[str | None]
    fouled: list[bool]


def _seat(value: Any, rules: Rules) -> tuple[int, int, int] | None:
    """A settle() seat: None (forfeited), an arrangement, or 13 cards arranged by the solver."""
    if value is None:
        return None
    if isinstance(value, (Arrangement, dict)):
        return _arrangement(value).masks
    if isinstance(value, (tuple, list)) and len(value) == 3:
        try:
            return _arrangement(value).masks
        except (IllegalMoveError, ValueError):
            pass  # three cards, not three hands: fall through to the card reading
    return best_arrangement(value, rules).masks


@_typed_cards
def settle_itemised(arrangements_or_cards_by_seat: Sequence[Any], rules: Rules | None = None) -> Settlement:
    """Settles 2–4 seats: each an :class:`Arrangement` (or ``(back, middle, front)``), 13 cards
    (arranged by :func:`best_arrangement`), or None (left mid-hand: fouled).

    Every pair settles on its own: instant wins first, then fouls (6 units), then hand by hand
    with bonuses (the plain sum, seed 004), doubled for a scoop under the ``scoop`` house rule.
    Ledger reasons: ``"back"``, ``"middle:full_house"``, ``"scoop"``, ``"scoop_all"``,
    ``"foul"``, ``"instant:dragon"``…

    Readings of the rules (:doc:`/rules/maubinh`) taken here: an instant win is declared automatically from the
    seat's 13 cards (even under a fouled arrangement; a forfeited seat has none) and is paid in
    full by a fouled opponent; a foul pays a flat 6 (no scoop doubling); with ``scoop_all``, a
    seat scoops "every opponent" when it scooped each compared opponent and every other
    opponent fouled, with at least one compared opponent and 3–4 players; then each scooped
    opponent pays its (scoop-doubled) total once more.

    >>> s = settle_itemised([("A♠ A♥ A♦ A♣ 2♠", "K♠ K♥ K♦ 3♣ 3♠", "Q♠ Q♥ Q♦"),
    ...                      ("3♥ 5♦ 7♣ 9♠ J♥", "2♥ 4♦ 6♣ 8♠ 10♥", "4♠ 5♣ 7♥")])
    >>> s.totals
    [9, -9]
    >>> [e["reason"] for e in s.ledger]
    ['back:four_of_a_kind', 'middle:full_house', 'front:three_of_a_kind']
    >>> settle([("A♠ A♥ A♦ A♣ 2♠", "K♠ K♥ K♦ 3♣ 3♠", "Q♠ Q♥ Q♦"),
    ...         ("3♥ 5♦ 7♣ 9♠ J♥", "2♥ 4♦ 6♣ 8♠ 10♥", "4♠ 5♣ 7♥")], Rules(scoop=True))
    [18, -18]
    """
    r = _rules(rules)
    seats = [_seat(v, r) for v in arrangements_or_cards_by_seat]
    totals, payments, instants, fouled = _core.maubinh_settle(seats, r.core)
    ledger = [{"from": f, "to": t, "units": u, "reason": why} for f, t, u, why in payments]
    return Settlement(list(totals), ledger, list(instants), list(fouled))


def settle(arrangements_or_cards_by_seat: Sequence[Any], rules: Rules | None = None) -> list[int]:
    """Per-seat units (sum to zero); see :func:`settle_itemised`.

    >>> settle([None, ("A♠ A♥ A♦ A♣ 2♠", "K♠ K♥ K♦ 3♣ 3♠", "Q♠ Q♥ Q♦")])
    [-6, 6]
    """
    return settle_itemised(arrangements_or_cards_by_seat, rules).totals


#: Ways to split 13 cards into back, middle and front: no hand has more ranked arrangements.
MAX_ARRANGEMENTS = 72_072
#: Most deals one :func:`head_to_head` call plays.
MAX_DEALS = 1_000_000_000


def head_to_head(
    deals: int,
    seed: int = 0,
    players: int = 4,
    a: Objective = "expected",
    b: Objective = "strongest",
    rules: Rules | None = None,
) -> float:
    """Average units per seat per deal won by objective ``a`` against ``b``: every seeded deal is
    played twice with the two objectives' seats swapped (parallel, GIL released)."""
    _check_objective(a)
    _check_objective(b)
    deals = count_arg("deals", deals, minimum=1, maximum=MAX_DEALS)
    players = count_arg("players", players, minimum=2, maximum=4)
    seed = count_arg("seed", seed, minimum=0, maximum=2**64 - 1)
    r = _rules(rules)
    units, seat_deals = _core.maubinh_head_to_head(deals, seed, players, a, b, r.core)
    return float(units) / float(seat_deals)


@_typed_cards
def ranked_arrangements(
    cards: CardsLike, rules: Rules | None = None, objective: Objective = "expected", count: int = 4
) -> list[Arrangement]:
    """The ``count`` best valid arrangements with distinct hand strengths, best first (the
    solver's answer, then its runner-ups), each with ``.value`` set. Instant wins are ignored.
    The equilibrium chooses among its tables' best few by a value corrected for the cards the
    hand holds (and under 4-2 for an opponent's hands played together): those few come first
    by that value, the rest in the tables' order, and every ``.value`` is the corrected one
    (what :func:`expected_value` gives).

    >>> ranked = ranked_arrangements("A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠", count=2)
    >>> ranked[0] == best_arrangement("A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠")
    True
    """
    _check_objective(objective)
    # More than a hand's 72,072 splits can only give the same list: clamp, allocate nothing more.
    count = count_arg("count", count, minimum=1, maximum=MAX_ARRANGEMENTS, clamp=True)
    r = _rules(rules)
    raw = _core.maubinh_ranked_arrangements(cards, r.core, objective, count)
    return [Arrangement._from_masks(b, m, f, None, v) for b, m, f, v in raw]


@_typed_cards
def arrangement_report(
    cards: CardsLike, rules: Rules | None = None, objective: Objective = "expected", alternatives: int = 3
) -> str:
    """Text for ``vncards arrange``: the best arrangement with its expected units per
    opponent and runner-up alternatives; for a hand with an instant win (mậu binh trắng), the
    win to declare and what it is paid, since the arrangement then does not matter.

    >>> print(arrangement_report("A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠", alternatives=0))
    ... # doctest: +ELLIPSIS
    Mậu Binh, objective "expected"
    best   back    10♠ J♠ Q♠ K♠ A♠     straight flush / thùng phá sảnh
           middle  ...
    >>> print(arrangement_report("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠"))
    Mậu Binh, objective "expected"
    instant win: dragon flush / rồng cuốn: declare it and win 24 units from each opponent
    (no hand is compared, so the arrangement does not matter)
    """
    alternatives = count_arg(
        "alternatives", alternatives, minimum=0, maximum=MAX_ARRANGEMENTS - 1, clamp=True
    )
    from ..words import term

    r = _rules(rules)
    best = best_arrangement(cards, r, objective)
    lines = [f'Mậu Binh, objective "{objective}"']
    if best.instant is not None:
        lines.append(
            f"instant win: {term(best.instant)}: declare it and win "
            f"{INSTANT_WINS[best.instant]} units from each opponent"
        )
        lines.append("(no hand is compared, so the arrangement does not matter)")
        return "\n".join(lines)
    others = [a for a in ranked_arrangements(cards, r, objective, alternatives + 1) if a != best]
    for label, arr in [("best", best), *((f"alt {i + 1}", a) for i, a in enumerate(others[:alternatives]))]:
        for pos, hand in zip(("back", "middle", "front"), (arr.back, arr.middle, arr.front), strict=False):
            text = " ".join(str(c) for c in hand)
            lines.append(
                f"{label if pos == 'back' else '':<6} {pos:<7} {text:<19} {term(hand_category(hand, r))}"
            )
        lines.append(f"{'':<6} expected {arr.value:+.3f} units per opponent")
    return "\n".join(lines)
