"""Tứ Sắc (four colours) cards, melds and winning hands.

112 cards: 7 pieces (Tướng ``K``, Sĩ ``A``, Tượng ``E``, Xe ``R``, Pháo ``C``, Mã ``H``,
Chốt ``P``) × 4 colours (vàng ``Y``, đỏ ``R``, xanh ``G``, trắng ``W``) × 4 identical copies.
A hand is a multiset. Card arguments accept text (``"KR PW"``, ``"Tướng đỏ, Chốt trắng"``,
``"tuong do"`` is refused as ambiguous: write ``Tướng`` or ``Tượng``), a :class:`TuSacCard`,
or an iterable of either.

>>> [str(c) for c in parse_cards("KR Chốt trắng xe vang")]
['KR', 'PW', 'RY']
>>> parse_card("KR").name
'Tướng đỏ'
>>> min_rac("RR RR CR HR")       # Xe Xe Pháo Mã: Xe–Pháo–Mã + one Xe left over
1
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from .. import _core
from .._args import count_arg
from .._core import TuSacCard
from ..errors import InvalidCardError, RulesError
from ..rules import RulesBase, option, rules_mismatch

__all__ = [
    "MELD_LENH",
    "TOI",
    "Meld",
    "Rules",
    "TuSacCard",
    "TuSacCardsLike",
    "can_win",
    "legal_claims",
    "melds",
    "min_rac",
    "parse_card",
    "parse_cards",
    "win_score",
]

#: Card arguments: text, one card, or an iterable of cards and card texts.
TuSacCardsLike = str | TuSacCard | Iterable[str | TuSacCard]

#: lệnh of each meld kind (seed 003, with ``set_lenh = 1``: see :class:`Rules`); ``single`` is
#: a rác card.
MELD_LENH: dict[str, int] = {
    "pair": 0,  # đôi
    "general": 1,  # a lone Tướng
    "general_set": 1,  # Tướng–Sĩ–Tượng
    "chariot_set": 1,  # Xe–Pháo–Mã
    "three_soldiers": 1,  # 3 Chốt of different colours
    "four_soldiers": 4,  # bốn chốt khác màu
    "claimed_triple": 1,  # 3 con khui
    "triple": 3,  # khạp
    "claimed_quad": 6,  # 4 con khui
    "quad": 8,  # quằn
    "single": 0,  # rác
}

#: lệnh of the tới (winning) bonus.
TOI = 3


#: The three-card sets whose lệnh is ``Rules.set_lenh``.
SET_KINDS = ("general_set", "chariot_set", "three_soldiers")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Tứ Sắc options (rules: :doc:`/rules/tusac`). Each names its default and where it comes
    from: the seed document (the original Vietnamese rules the engine follows) or a house rule.

    - ``triple_optional`` (default off, common practice): making a triple from a held pair is
      not mandatory.
    - ``forbidden_triple`` (not in the seeds): when the mandatory triple is itself forbidden
      (bài bụng, or it would break a completed Tướng–Sĩ–Tượng), ``"other_claims"`` (default:
      the forbidden triple is no claim, so it binds nothing, and the seat keeps its other
      legal claims of the card, e.g. the entitled seat's pair) or ``"no_claim"`` (the held
      pair still bars every other claim of that card, so the seat can only pass on it).
    - ``discard_rule``: ``"penalize"`` (default, seed: "người chơi sẽ cần bỏ lá bài rác … để
      người chơi khác về nhất thì sẽ cần chịu phạt thay cả làng") — discarding a meld card is
      allowed, but if another seat wins on that discard the discarder pays for the whole table
      (đền làng); ``"enforce"`` (house rule) — only rác may be discarded while the hand has any.
    - ``bung_rule`` (bài bụng): ``"seed"`` (default, seed: "Nếu người chơi đang có trong tay bộ
      Xe-Pháo-Mã-Mã mà người chơi đánh con mã thì người chơi sẽ không còn được ăn"): a hand
      holding Xe, Pháo and Mã of one colour with exactly one of them twice (Xe-Xe-Pháo-Mã,
      Xe-Pháo-Pháo-Mã, Xe-Pháo-Mã-Mã) may not claim a discarded copy of the doubled piece, and
      may claim a copy of either single piece only to make a pair with it; ``"min_rac"`` (house
      rule, the engine's rule before the seed reading): a claim must not increase the
      claimer's fewest rác, and a complete Xe–Pháo–Mã is never broken; ``"off"``. A claim that
      wins is never limited.
    - ``odd_total`` (seed: "số lệnh trên tay cần là số lẻ"): ``"hand"`` (default) — the melds'
      lệnh, tới not counted, must be odd; with ``set_lenh = 1`` every meld's lệnh has its card
      count's parity, so every real 21-card win is odd and the rule is a checksum against a
      miscounted hand; ``"with_toi"`` — the total including tới must be odd (with
      ``set_lenh = 1`` no 21-card hand can then win); ``"off"``. The win is legal only if some
      complete split meets it; the score is the best such total plus tới.
    - ``set_lenh`` (default 1, common practice): lệnh of Tướng–Sĩ–Tượng, Xe–Pháo–Mã and 3 Chốt;
      0 is the seed's lệnh table read literally (it lists none for them), under which the
      odd-lệnh rule decides about half of all wins.
    - ``tuong_as_ty`` (default on, seed: the dealer opens with "một lá bài bất kể trên tay", any
      card): the dealer may open with a Tướng as the tỳ; off (house rule): a Tướng is never
      discarded, not even as the tỳ. Elsewhere a Tướng is never discarded.
    - ``draw_at_stock`` (default 7, seed: "bộ nọc còn lại 7 lá thì ván đấu được tính là hòa"):
      the hand is drawn when a card must be turned up and the stock (nọc) holds this many
      cards or fewer.
    - ``payment``: ``"per_lenh"`` (default) — each loser pays the winner's total; ``"flat"``
      (house rule) — each loser pays 1, doubled when the winner holds a quad.
    - ``claim_window`` (not in the seeds): ``"every_seat"`` (default) asks every seat but the
      discarder to answer each offer, so neither the window nor the views reveal who could
      claim (a server must not leak hidden cards); ``"eligible_seats"`` asks only the seats
      with a legal claim, which is faster with bots but shows who holds a possible meld.

    >>> Rules().replace(payment="flat").payment
    'flat'
    >>> r = Rules()
    >>> r.bung_rule, r.odd_total, r.set_lenh, r.tuong_as_ty
    ('seed', 'hand', 1, True)
    >>> Rules(set_lenh=0).lenh("chariot_set"), Rules().lenh("chariot_set")
    (0, 1)
    """

    triple_optional: bool = option(False, "making a triple from a held pair is not mandatory", source="house")
    forbidden_triple: Literal["other_claims", "no_claim"] = option(
        "other_claims",
        "a mandatory triple the rules forbid: the seat keeps its other claims of the card, or has none",
        source="house",
    )
    discard_rule: Literal["penalize", "enforce"] = option(
        "penalize", "discarding a meld card: allowed but pays đền làng if won on, or refused while rác remain"
    )
    bung_rule: Literal["seed", "min_rac", "off"] = option(
        "seed", "bài bụng: the seed's doubled-piece rule, the fewest-rác rule, or none"
    )
    odd_total: Literal["hand", "with_toi", "off"] = option(
        "hand", "a win needs an odd lệnh total: of the melds (tới not counted), with tới, or no parity rule"
    )
    set_lenh: int = option(
        1,
        "lệnh of Tướng–Sĩ–Tượng, Xe–Pháo–Mã and 3 Chốt (1, common practice; 0: the seed's table)",
        source="house",
        bounds=(0, 1),
    )
    tuong_as_ty: bool = option(True, "the dealer may open with a Tướng as the tỳ")
    draw_at_stock: int = option(
        7, "the hand is drawn (hòa) when the stock (nọc) is down to this many cards", bounds=(0, 70)
    )
    payment: Literal["per_lenh", "flat"] = option(
        "per_lenh", "each loser pays the winner's lệnh total, or 1 (doubled with a quad)"
    )
    claim_window: Literal["every_seat", "eligible_seats"] = option(
        "every_seat",
        "which seats answer each offer: all (reveals nothing) or only those able to claim",
        source="house",
    )

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        if "forbidden_triple" not in data and "triple_optional" in data:
            # Stored before the option existed: the behaviour was "other_claims".
            data["forbidden_triple"] = "other_claims"
        # Stored before the seed reading: ``odd_total_required`` (True: the melds' lệnh must be
        # odd), the min-rác bài bụng rule, three-card sets at 1 lệnh, no Tướng as the tỳ.
        if "odd_total_required" not in data:
            return data
        newer = sorted({"odd_total", "bung_rule", "set_lenh", "tuong_as_ty"} & set(data))
        if newer:
            raise RulesError(f"stored Rules mix the old option odd_total_required with {', '.join(newer)}")
        required = data.pop("odd_total_required")
        if not isinstance(required, bool):
            raise RulesError(f"Rules.odd_total_required must be True or False, not {required!r}")
        data.update(
            odd_total="hand" if required else "off", set_lenh=1, bung_rule="min_rac", tuong_as_ty=False
        )
        return data

    def __post_init__(self) -> None:
        super().__post_init__()
        flow = _core.tusac_flow_rules(
            triple_optional=self.triple_optional,
            forbidden_triple=self.forbidden_triple,
            discard_rule=self.discard_rule,
            bung_rule=self.bung_rule,
            odd_total=self.odd_total,
            set_lenh=self.set_lenh,
            tuong_as_ty=self.tuong_as_ty,
            draw_at_stock=self.draw_at_stock,
            payment=self.payment,
            claim_window=self.claim_window,
        )
        object.__setattr__(self, "_flow", flow)

    @property
    def flow(self) -> _core.TuSacFlowRules:
        """The options as the Rust flow reads them."""
        return self._flow  # type: ignore[attr-defined, no-any-return]

    def lenh(self, kind: str) -> int:
        """The lệnh of a meld kind (a key of :data:`MELD_LENH`) under these rules."""
        return self.set_lenh if kind in SET_KINDS else MELD_LENH[kind]


@dataclass(frozen=True)
class Meld:
    """A meld: its ``kind`` (a key of :data:`MELD_LENH`) and its cards.

    >>> m = Meld("general_set", tuple(parse_cards("KR AR ER")))
    >>> m.lenh, str(m)
    (1, 'general_set[KR AR ER]')
    """

    kind: str
    cards: tuple[TuSacCard, ...]

    @property
    def lenh(self) -> int:
        """Its lệnh (points)."""
        return MELD_LENH[self.kind]

    def __str__(self) -> str:
        return f"{self.kind}[{' '.join(str(c) for c in self.cards)}]"


def _nfc(cards: TuSacCardsLike) -> TuSacCardsLike:
    return unicodedata.normalize("NFC", cards) if isinstance(cards, str) else cards


def parse_cards(cards: TuSacCardsLike) -> list[TuSacCard]:
    """Cards in input order from letter codes (``KR``, ``pw``, ``KRPW``) or Vietnamese names.

    >>> parse_cards("Tướng đỏ, Sĩ vàng")
    [TuSacCard('KR'), TuSacCard('AY')]
    >>> parse_cards("KR ZZ")
    Traceback (most recent call last):
    ...
    vncards.errors.InvalidCardError: not a Tứ Sắc card: "ZZ" at position 3
    """
    return _core.tusac_parse_cards(_nfc(cards))


def parse_card(card: str | TuSacCard | int) -> TuSacCard:
    """Exactly one card (text, a :class:`TuSacCard`, or a kind index 0..27).

    >>> parse_card("Chot trang")
    TuSacCard('PW')
    """
    return TuSacCard(unicodedata.normalize("NFC", card) if isinstance(card, str) else card)


def _check_rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _DEFAULT
    if not isinstance(rules, Rules):
        raise rules_mismatch("tusac", Rules, rules)
    return rules


_DEFAULT = Rules()


#: Most splits :func:`melds` lists, whatever ``limit`` asks for.
MAX_SPLITS = 10_000


def melds(cards: TuSacCardsLike, rules: Rules | None = None, *, limit: int = 1000) -> list[list[Meld]]:
    """Every split of the cards into melds with the fewest rác, best lệnh first.

    Design: a split lists concealed melds (khạp, quằn at their concealed values) and each
    leftover card as a ``"single"`` (rác); only splits reaching :func:`min_rac` are listed,
    so for a complete hand these are exactly its complete splits. At most ``limit`` splits
    (clamped to ``MAX_SPLITS``, 10,000); a hand has at most 22 cards.
    ``rules`` is accepted for symmetry; no option changes what a meld is.

    >>> [[str(m) for m in s] for s in melds("RR RR CR HR")]
    [['single[RR]', 'chariot_set[RR CR HR]']]
    >>> [sum(m.lenh for m in s) for s in melds("PY PY PR PR PG PG")]
    [2, 0]
    """
    _check_rules(rules)
    limit = count_arg("limit", limit, minimum=0, maximum=MAX_SPLITS, clamp=True)
    return [[Meld(kind, tuple(cs)) for kind, cs in split] for split in _core.tusac_splits(_nfc(cards), limit)]


def min_rac(cards: TuSacCardsLike) -> int:
    """The fewest rác (cards in no meld) over every split of the cards.

    >>> min_rac("KY"), min_rac("AY"), min_rac("PY PR PG PW")
    (0, 1, 0)
    """
    return _core.tusac_min_rac(_nfc(cards))


def _exposed_lenh(exposed: Iterable[Meld | TuSacCardsLike], rules: Rules) -> tuple[int, list[TuSacCard]]:
    total = 0
    cards: list[TuSacCard] = []
    for i, group in enumerate(exposed):
        if isinstance(group, Meld):
            kind, cs = group.kind, list(group.cards)
            if kind not in MELD_LENH or kind == "single":
                raise InvalidCardError(f"exposed meld {i} has no kind {kind!r}", token=kind, position=i)
        else:
            cs = parse_cards(group)
            kind = _core.tusac_classify(cs) or "single"
            if kind == "triple":
                kind = "claimed_triple"
            elif kind == "quad":
                kind = "claimed_quad"
        if kind == "single" or _core.tusac_classify(cs) not in _SAME_SHAPE[kind]:
            text = " ".join(str(c) for c in cs)
            raise InvalidCardError(f"exposed group {i} is not a meld", token=text, position=i)
        total += rules.lenh(kind)
        cards.extend(cs)
    return total, cards


# Concealed shape (tusac_classify) each exposed kind must have.
_SAME_SHAPE: dict[str, tuple[str, ...]] = {
    "claimed_triple": ("triple",),
    "claimed_quad": ("quad",),
    **{k: (k,) for k in MELD_LENH if k not in ("claimed_triple", "claimed_quad")},
}


def win_score(
    hidden: TuSacCardsLike,
    exposed: Iterable[Meld | TuSacCardsLike] = (),
    offer: str | TuSacCard | None = None,
    rules: Rules | None = None,
) -> int | None:
    """The winning total (tới) of a hand, or ``None`` when it does not win.

    ``hidden`` are the concealed cards, ``exposed`` the melds on the table (:class:`Meld`, or
    card groups: three or four identical cards count as 3 con khui / 4 con khui), ``offer``
    the card claimed to win (its meld is exposed: onto a pair it is a 3 con khui, 1 lệnh,
    not a khạp). The total is the best over complete splits of the lệnh of every meld plus
    tới (3), over the splits the odd-lệnh rule allows (``odd_total``: see :class:`Rules`).

    >>> win_score("KR AR", offer="ER")            # Tướng–Sĩ–Tượng 1 + tới 3
    4
    >>> win_score("KR AR", exposed=["PY PR PG"], offer="ER")   # 1 + 1 = 2: even
    >>> win_score("KR AR", exposed=["PY PR PG"], offer="ER", rules=Rules(odd_total="off"))
    5
    >>> win_score("KR AR", exposed=["PY PR PG"], offer="ER", rules=Rules(odd_total="with_toi"))
    5
    >>> win_score("HG HG HG PY PR PG", offer="HG")   # 4 con khui 6 + 3 Chốt 1 + tới 3
    10
    """
    r = _check_rules(rules)
    lenh, exposed_cards = _exposed_lenh(exposed, r)
    hand = parse_cards(hidden)
    off = None if offer is None else parse_card(offer)
    _core.tusac_pack(hand + exposed_cards + ([off] if off is not None else []))
    return _core.tusac_win_total(hand, lenh, off, r.odd_total, r.set_lenh)


def can_win(
    hidden: TuSacCardsLike,
    exposed: Iterable[Meld | TuSacCardsLike] = (),
    offer: str | TuSacCard | None = None,
    rules: Rules | None = None,
) -> bool:
    """Whether the hidden cards, the exposed melds and the offer split with no rác, with some
    split meeting the odd-lệnh rule (``odd_total``: by default the melds' lệnh, tới not
    counted, must be odd).

    >>> can_win("KY KY KY PY PR PG", offer="PW")   # khạp 3 + 4 Chốt 4 = 7: odd
    True
    >>> can_win("KY KY KY PY PR", offer="PW")      # khạp 3 + 3 Chốt 1 = 4: even
    False
    """
    if not exposed and (offer is None or isinstance(offer, TuSacCard)) and rules is None:
        # Fast path for the common call: no exposed melds, default rules.
        return _core.tusac_win_total(hidden, 0, offer, "hand", 1) is not None
    return win_score(hidden, exposed, offer, rules) is not None


def legal_claims(
    hidden: TuSacCardsLike,
    offer: str | TuSacCard,
    *,
    entitled: bool = True,
    rules: Rules | None = None,
) -> list[Meld]:
    """The melds a seat holding ``hidden`` may form by claiming ``offer`` (wins aside).

    The entitled seat may make any meld; another seat only a triple from a pair or a quad
    from a khạp (khui). A khạp is never split and khui is mandatory; a complete
    Tướng–Sĩ–Tượng is never broken; bài bụng follows ``bung_rule``; the triple is mandatory
    unless ``triple_optional``.

    Seed 003's bài bụng: holding Xe-Pháo-Mã-Mã, a discarded Mã may not be eaten; a Xe or a
    Pháo may, to make a pair:

    >>> legal_claims("RR CR HR HR PY HY", "HR")
    []
    >>> [str(m) for m in legal_claims("RR CR HR HR PY HY", "RR")]
    ['pair[RR RR]']
    >>> [str(m) for m in legal_claims("RR RR CR HR PY", "RR", rules=Rules(bung_rule="min_rac"))]
    ['pair[RR RR]', 'chariot_set[RR CR HR]']
    """
    r = _check_rules(rules)
    off = parse_card(offer)
    packed = _core.tusac_pack(parse_cards(hidden))
    out = []
    for kind, used in offer_claims(packed, off.index, entitled, r):
        out.append(Meld(kind, tuple(sorted([TuSacCard(i) for i in used] + [off]))))
    return out


def offer_claims(packed: int, offer: int, entitled: bool, rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    """The legal (non-win) claims of the card kind ``offer`` for the packed hidden hand, as
    ``(meld, kinds used)``, from the core, which also applies ``forbidden_triple="no_claim"``
    (a held pair whose triple is forbidden bars every other claim of that card), as the game
    flow does."""
    no_claim = rules.forbidden_triple == "no_claim"
    return [
        (m, tuple(u))
        for m, u in _core.tusac_legal_claims(
            packed, offer, entitled, rules.triple_optional, rules.bung_rule, no_claim
        )
    ]
