"""Fuzzing every ``_core`` function and every public function with adversarial arguments.

Sizes from nothing to the whole deck (52 cards, 112 Tứ Sắc cards), masks with bits above 51,
integers at and beyond every machine width, text with junk and lone surrogates, wrong types.

The contract: a public function raises only :class:`VncardsError` (bad values) or ``TypeError``
(wrong types); a ``_core`` function may also raise ``OverflowError`` / ``UnicodeError`` from
PyO3's argument conversion (an int outside its parameter's machine type, a string that is not
Unicode). Nothing else, never a ``BaseException`` such as PyO3's ``PanicException``, never an
abort, and every call returns in bounded time: work counts (deals, rollouts, iterations) are
drawn small or out of range, never in range and huge.

The fast profile (CI) runs a few dozen examples per function; ``VNCARDS_PROFILE=slow``
(``make fuzz``) runs thousands.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import Card, VncardsError, _core, cards, maubinh, samloc, tienlen, tusac

CORE_OK: tuple[type[BaseException], ...] = (VncardsError, TypeError, OverflowError, UnicodeError)
PUBLIC_OK: tuple[type[BaseException], ...] = (VncardsError, TypeError)
T = TypeVar("T")


class D(Protocol):
    """How the tables below draw: ``data.draw`` of ``st.data()`` (``st.DrawFn`` is the
    composite strategies' own ``draw``, another type)."""

    def __call__(self, strategy: st.SearchStrategy[T], label: object = None) -> T: ...


EDGE_INTS = [0, 1, 2, 3, 4, 5, 12, 13, 21, 22, 23, 27, 28, 51, 52, 60, 64, 255, 256, 2**31 - 1, 2**31]
EDGE_INTS += [2**32 - 1, 2**32, (1 << 52) - 1, 1 << 52, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**64]
EDGE_INTS += [2**84 - 1, 2**127, 2**128, 2**200, -1, -(2**63), -(2**64)]

CARD_TEXTS = [str(Card(i)) for i in range(52)] + [Card(i).ascii for i in range(52)]
JUNK_TEXTS = ["", " ", "1♥", "ZZ", "10", "♥", "\udcff", "3\ud800", "3♠3♠", "\x00", "🂡", "3♠ " * 40]
TUSAC_TEXTS = [str(tusac.TuSacCard(k)) for k in range(28)]

ints = st.one_of(st.sampled_from(EDGE_INTS), st.integers(-(2**70), 2**70), st.integers(0, 60))
small_ints = st.one_of(st.integers(-3, 8), st.sampled_from([2**31, 2**64, -(2**63)]))
# A work count (deals, rollouts, iterations): small, or out of range; never a long run.
works = st.sampled_from([-1, 0, 1, 2, 3, 10**12, 2**32 - 1, 2**63, 2**64 - 1, 2**64])


@st.composite
def masks(draw: st.DrawFn) -> int:
    """Card masks of every size 0..52, and integers that are not masks."""
    if draw(st.booleans()):
        return draw(ints)
    size = draw(st.sampled_from([0, 1, 2, 3, 5, 10, 11, 13, 14, 20, 26, 40, 52]))
    return sum(1 << i for i in draw(st.permutations(range(52)))[:size])


def _maubinh_rules(draw: D) -> Any:
    """Mậu Binh rules as the core takes them (``maubinh.Rules.core``), built from options each
    possibly junk (the default rules where the core refuses them)."""
    try:
        return _core.MauBinhRules(
            wheel=draw(names),
            scoop=draw(st.booleans()),
            scoop_all=draw(st.booleans()),
            back_straight_flush_units=draw(small_ints),
            scoring=draw(names),
        )
    except CORE_OK:
        return maubinh.Rules().core


@st.composite
def maubinh_rules(draw: st.DrawFn) -> Any:
    """The rules argument of a Mậu Binh function: rules the core built (from junk options,
    see :func:`_maubinh_rules`), or, one time in four, something that is no rules object."""
    if draw(st.integers(0, 3)) == 0:
        return draw(st.one_of(st.none(), names, small_ints))
    return _maubinh_rules(draw)


#: The expected tables (one population) in both forms, to damage: the exact u64 counts and the
#: compact ``MBT4``; and the 4-2 joint cells (``MBJ1``).
TABLE_FILES = [_core.maubinh_tables_file("expected", "units")]
TABLE_FILES.append(_core.maubinh_tables_recode(TABLE_FILES[0], compact=True))
TABLE_FILES.append(_core.maubinh_joint_file())


@st.composite
def table_files(draw: st.DrawFn) -> bytes:
    """Mậu Binh table files with a few bytes changed, cut short, or random bytes."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=64))
    blob = bytearray(draw(st.sampled_from(TABLE_FILES)))
    for _ in range(draw(st.integers(0, 3))):
        blob[draw(st.integers(0, len(blob) - 1))] = draw(st.integers(0, 255))
    return bytes(blob[: draw(st.sampled_from([len(blob), 4, 9, 12, len(blob) - 1]))])


@st.composite
def card_args(draw: st.DrawFn) -> Any:
    """Anything a card argument might be sent: masks, text, lists of cards or junk."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(masks())
    picked = draw(st.lists(st.sampled_from(CARD_TEXTS), max_size=60))
    if kind == 1:
        return " ".join(picked)
    if kind == 2:
        return [Card(t) for t in picked]
    if kind == 3:
        return " ".join(picked + draw(st.lists(st.sampled_from(JUNK_TEXTS), min_size=1, max_size=3)))
    if kind == 4:
        return draw(st.sampled_from([*JUNK_TEXTS, None, b"3s", 3.5, [None], [3], {"3♠": 1}, object()]))
    return picked + draw(st.lists(st.sampled_from([*JUNK_TEXTS, None, 7]), max_size=2))


@st.composite
def tusac_args(draw: st.DrawFn) -> Any:
    """Tứ Sắc card arguments: up to the whole 112-card deck, with junk."""
    kind = draw(st.integers(0, 3))
    picked = draw(
        st.lists(st.sampled_from(TUSAC_TEXTS), max_size=draw(st.sampled_from([5, 21, 23, 112, 120])))
    )
    if kind == 0:
        return " ".join(picked)
    if kind == 1:
        return [tusac.TuSacCard(t) for t in picked]
    if kind == 2:
        return picked + draw(st.lists(st.sampled_from([*JUNK_TEXTS, "KR", None, 99]), min_size=1, max_size=2))
    return draw(st.sampled_from([*JUNK_TEXTS, None, 5, object()]))


@st.composite
def packed(draw: st.DrawFn) -> int:
    """Packed Tứ Sắc hands (3 bits per kind), full decks and integers that are not hands."""
    if draw(st.booleans()):
        return draw(ints)
    counts = draw(st.lists(st.integers(0, 7), min_size=28, max_size=28))
    return sum(c << (3 * k) for k, c in enumerate(counts))


names = st.sampled_from(
    [
        "second",
        "lowest",
        "expected",
        "strongest",
        "equilibrium",
        "units",
        "4-2",
        "all",
        "bombs",
        "four_pair_sequences",
        "pair",
        "claimed_quad",
        "claimed_triple",
        "",
        "x",
        "ALL",
        "hand",
        "with_toi",
        "off",
        "seed",
        "min_rac",
        "\udcff",
    ]
)
rules = st.sampled_from(
    [
        tienlen.Rules.south().core,
        tienlen.Rules.north().core,
        samloc.Rules().core,
        _core.samloc_rules(low_straights=True),
    ]
)
combos = st.builds(
    _core.shedding_combo_from_parts,
    st.sampled_from([1, 0b11, 1 << 51, 0x111, 0xFF, 0xF000]),
    st.integers(0, 5),
    st.integers(0, 63),
)
maybe_table = st.one_of(st.none(), card_args())


def _combo_or_none(draw: D) -> Any:
    try:
        return draw(st.one_of(st.none(), combos))
    except VncardsError:
        return None


def _setup(draw: D) -> Any:
    try:
        return _core.RolloutSetup(
            draw(rules),
            draw(small_ints),
            after_pass=draw(st.sampled_from([None, "bombs", "four_pair_sequences", "x"])),
            bao_mot=draw(st.booleans()),
            places=draw(st.lists(small_ints, max_size=6)),
            sam=draw(st.sampled_from([0, 3, 2**31 - 1])),
        )
    except CORE_OK:
        return _core.RolloutSetup(tienlen.Rules().core, 4)


def _rollout_kwargs(draw: D) -> dict[str, Any]:
    return dict(
        me=draw(small_ints),
        hand=draw(masks()),
        unseen=draw(masks()),
        counts=draw(st.lists(st.integers(0, 60), max_size=6)),
        seed=draw(st.integers(0, 2**64 - 1)),
    )


def _position(draw: D) -> Any:
    """A `RolloutPosition` of drawn fields (its constructor checks the masks)."""
    args = _rollout_kwargs(draw)
    del args["seed"]
    return _core.RolloutPosition(
        **args,
        played_any=draw(st.integers(0, 255)),
        table=draw(st.one_of(st.none(), masks())),
        table_seat=draw(small_ints),
        passed=draw(st.integers(0, 255)),
        out=draw(st.integers(0, 255)),
        must=draw(masks()),
        sam=draw(st.one_of(st.none(), small_ints)),
        played=draw(st.lists(masks(), max_size=5)),
    )


def _evaluate(draw: D) -> Any:
    return _core.rollout_evaluate(
        _setup(draw),
        _position(draw),
        candidates=draw(st.lists(st.one_of(st.none(), masks()), max_size=4)),
        rollouts=draw(works),
        seed=draw(st.integers(0, 2**64 - 1)),
    )


def _shedding_rules(draw: D) -> Any:
    def flag() -> bool:
        return draw(st.booleans())

    def number() -> int:
        return draw(small_ints)

    return _core.SheddingRules(
        suit_order=flag(),
        same_colour_pairs=flag(),
        same_suit_straights=flag(),
        single_follows_suit=flag(),
        triple_follows_suits=flag(),
        pair_sequences=flag(),
        min_straight=number(),
        max_straight=number(),
        low_straights=flag(),
        quad_beats_pair_of_twos=flag(),
        hand_size=number(),
        min_players=number(),
        max_players=number(),
    )


def _rng(draw: D) -> Any:
    rng = _core.Rng(draw(st.one_of(st.none(), ints, st.binary(max_size=40))))
    method = draw(st.sampled_from(["below", "permutation", "choice", "restore"]))
    if method == "below":
        return rng.below(draw(ints))
    if method == "permutation":
        return rng.permutation(draw(st.one_of(st.integers(0, 200), ints)))
    if method == "choice":
        return rng.choice(draw(st.one_of(st.lists(st.integers(), max_size=3), st.text(max_size=3))))
    return _core.Rng.restore(draw(st.binary(max_size=40)), draw(ints))


def _play_list(draw: D) -> Any:
    plays = _core.shedding_legal_plays(draw(card_args()), None, draw(rules))
    index = draw(
        st.one_of(ints, st.builds(slice, small_ints, small_ints, st.sampled_from([None, 1, -1, 2**70])))
    )
    with contextlib.suppress(IndexError):  # the sequence protocol's error for a bad index
        plays[index]
    other = draw(st.sampled_from([[], (), None, plays, list(plays), 3]))
    return (
        len(plays),
        plays.masks,
        repr(plays),
        plays == other,
        other in plays,
        pickle.loads(pickle.dumps(plays)),
    )


def _combo_methods(draw: D) -> Any:
    c = draw(combos)
    return (c.kind, c.cards, c.mask, c.top, c.top_card, c.is_bomb, c.is_twos, len(c), str(c), repr(c))


def _flow_rules(draw: D) -> Any:
    words = st.sampled_from(
        ["first_out", "ranked", "count", "random", "none", "any_bomb", "allowed", "x", ""]
    )
    try:
        if draw(st.booleans()):
            return _core.tienlen_flow_rules(
                draw(rules),
                ending=draw(words),
                scoring=draw(words),
                first_lead=draw(words),
                bomb_after_pass=draw(words),
                ket_3_bich=draw(st.booleans()),
                finish_on_two=draw(words),
                thoi_to=draw(words),
                same_colour_instant_win=draw(st.booleans()),
                first_hand_extras=draw(st.booleans()),
                penalties=draw(st.tuples(*[st.sampled_from([0, 1, 15, 2**31, 2**32 - 1])] * 5)),
            )
        return _core.samloc_flow_rules(
            draw(rules),
            sam_block_pays=draw(st.sampled_from(["blocker", "each", "x"])),
            bao_mot_scope=draw(st.sampled_from(["all", "previous_seat", "x"])),
            bao_mot_mode=draw(st.sampled_from(["penalize", "enforce", "x"])),
            bao_mot_den=draw(st.sampled_from(["cards", "payments", "x"])),
            finish_on_two=draw(words),
            sam_may_finish_on_two=draw(st.booleans()),
        )
    except CORE_OK:
        return samloc.Rules().flow


def _flow(draw: D) -> Any:
    """A flow under random rules, driven by random calls: junk seats, cards and states."""
    try:
        f = _core.SheddingFlow(_flow_rules(draw), draw(small_ints))
    except CORE_OK:
        f = _core.SheddingFlow(tienlen.Rules().flow, 4)
    f.start(_core.Rng(draw(st.integers(0, 2**64 - 1))))
    for _ in range(draw(st.integers(1, 8))):
        method = draw(
            st.sampled_from(["play", "pass", "declare", "decline", "next", "state", "hands", "plays"])
        )
        seat = draw(small_ints)
        with contextlib.suppress(*CORE_OK):
            if method == "play":
                f.play(seat, draw(masks()))
            elif method == "pass":
                f.pass_turn(seat)
            elif method == "declare":
                f.declare_sam(seat, _core.Rng(1))
            elif method == "decline":
                f.decline_sam(seat, draw(st.sampled_from([_core.Rng(2), None, 3, "x"])))
            elif method == "next":
                f.next_hand(_core.Rng(3))
            elif method == "hands":
                f.hands = draw(st.lists(masks(), max_size=6))
            elif method == "plays":
                f.legal_plays(seat)
                f.check_play(seat, draw(card_args()))
            else:
                lists = st.lists(masks(), max_size=6)
                seats = st.lists(small_ints, max_size=6)
                f.set_state(
                    hand_number=draw(ints),
                    first_rule=draw(st.booleans()),
                    hands=draw(lists),
                    played=draw(lists),
                    dealt=draw(masks()),
                    turn=draw(st.one_of(st.none(), small_ints)),
                    table=draw(st.one_of(st.none(), masks())),
                    table_seat=draw(small_ints),
                    passed=draw(small_ints),
                    round_seats=draw(small_ints),
                    must=draw(masks()),
                    out=draw(small_ints),
                    order=draw(seats),
                    cong=draw(seats),
                    chain=draw(st.one_of(st.none(), st.tuples(ints, small_ints, small_ints))),
                    over=draw(st.booleans()),
                    winner=draw(st.one_of(st.none(), small_ints)),
                    next_first=draw(st.booleans()),
                    hand_totals=draw(st.lists(ints, max_size=6)),
                )
                f.set_sam(draw(small_ints), draw(st.booleans()), draw(small_ints), None, [(0, 1)])
    return (f.hands, f.turn, f.table, f.chain, f.violations, repr(f), copy.deepcopy(f).over)


def _vector(draw: D) -> Any:
    """A vector core stepped with junk actions, seeds and indices."""
    try:
        game = draw(st.sampled_from(["shedding", "tusac", "maubinh"]))
        if game == "tusac":
            v = _core.VectorCore.tusac(
                _tusac_rules(draw), draw(small_ints), draw(st.integers(0, 6)), draw(ints)
            )
        elif game == "maubinh":
            v = _core.VectorCore.maubinh(
                _maubinh_rules(draw),
                draw(small_ints),
                2,
                3,
            )
        else:
            v = _core.VectorCore.shedding(
                _flow_rules(draw), draw(small_ints), draw(st.integers(0, 6)), draw(ints)
            )
    except CORE_OK:
        v = _core.VectorCore.shedding(tienlen.Rules().flow, 4, 3, 100)
    n = v.num_envs
    v.reseed([draw(st.integers(0, 2**64 - 1)) for _ in range(n)])
    for i in range(n):
        v.add_seeds(i, np.asarray(draw(st.lists(st.integers(0, 2**63 - 1), max_size=3)), np.int64))
    v.reset()
    for _ in range(draw(st.integers(1, 4))):
        with contextlib.suppress(*CORE_OK):
            method = draw(st.sampled_from(["step", "seeds", "hand", "sample", "reseed"]))
            if method == "step":
                v.step(np.asarray(draw(st.lists(st.integers(-3, 300), max_size=8)), np.int64))
            elif method == "seeds":
                v.add_seeds(draw(small_ints), np.asarray(draw(st.lists(ints, max_size=3)), np.int64))
                v.finish_resets()
            elif method == "hand":
                v.hand(draw(small_ints))
            elif method == "reseed":
                v.reseed(draw(st.lists(st.integers(0, 2**64 - 1), max_size=8)))
            else:
                v.step(v.sample())
    return (v.seeds_low(draw(small_ints)), v.table_bytes, [a.shape for a in v.arrays])


# A think_ms budget: none, short, or out of range (never a long wait).
think = st.sampled_from([None, 0.0, 0.5, 2.0, -1.0, float("nan"), float("inf"), 1e9])


def _search_shedding(draw: D) -> Any:
    return _core.search_shedding(
        _setup(draw),
        _position(draw),
        candidates=draw(st.lists(st.one_of(st.none(), masks()), max_size=4)),
        seed=draw(st.integers(0, 2**64 - 1)),
        rollouts=draw(st.one_of(st.none(), works)),
        think_ms=draw(think),
        violators=draw(st.lists(st.tuples(small_ints, small_ints), max_size=2)),
        observations=draw(
            st.lists(
                st.tuples(
                    small_ints, st.one_of(st.none(), masks()), st.one_of(st.none(), masks()), masks(), ints
                ),
                max_size=3,
            )
        ),
        known=draw(st.one_of(st.none(), st.lists(masks(), max_size=5))),
        tree=draw(st.sampled_from([None, "own_seat", "every_seat", "sideways"])),
        policy=draw(
            st.one_of(
                st.none(), st.builds(_small_net, st.sampled_from(["tienlen", "samloc", "tusac"]), small_ints)
            )
        ),
        policy_rollouts=draw(st.booleans()),
        prior=draw(st.sampled_from([0.0, 1.0, -1.0, float("nan"), 1e9])),
        policy_top=draw(st.one_of(st.none(), small_ints)),
        greedy_seats=draw(st.lists(small_ints, max_size=3)),
        chain=draw(st.sampled_from([0, 8, 1001, 2**32 - 1])),
    )


def _small_net(game: str, players: int) -> Any:
    """A tiny untrained network of ``game`` (another table size where the encoding refuses it)."""
    from vncards.learn.model import Architecture, init_layers, to_net

    players = players if 2 <= players <= 4 else 4
    _, _, _, d, a = _core.policy_encoding(game, players)
    arch = Architecture(tower=(4,), join=3, head=(2,))
    return to_net(game, players, arch, init_layers(arch, d, a, 0), "{}", {})


def _policy_scores(draw: D) -> Any:
    return _core.shedding_policy_scores(
        _setup(draw),
        _position(draw),
        candidates=draw(st.lists(st.one_of(st.none(), masks()), max_size=4)),
        policy=_small_net(draw(st.sampled_from(["tienlen", "samloc", "tusac"])), draw(small_ints)),
    )


def _tusac_setup(draw: D) -> Any:
    try:
        return _core.TuSacRolloutSetup(
            draw(small_ints),
            odd_total=draw(names),
            set_lenh=draw(small_ints),
            bung_rule=draw(names),
            discard_rule=draw(st.sampled_from(["penalize", "enforce", "x"])),
            draw_at_stock=draw(st.sampled_from([0, 7, 71])),
            payment=draw(st.sampled_from(["per_lenh", "flat", ""])),
        )
    except CORE_OK:
        return _core.TuSacRolloutSetup(4)


def _tusac_search(draw: D) -> Any:
    choice = st.tuples(
        st.sampled_from(["discard", "claim", "win", "pass", "x"]),
        st.one_of(st.none(), small_ints),
        st.one_of(st.none(), names),
        st.lists(small_ints, max_size=3),
    )
    n = draw(st.integers(1, 5))
    return _core.tusac_search(
        _tusac_setup(draw),
        me=draw(small_ints),
        hand=draw(packed()),
        counts=draw(st.lists(st.integers(0, 30), min_size=n, max_size=n)),
        exposed_lenh=draw(st.lists(small_ints, min_size=n, max_size=n)),
        exposed_quad=draw(st.lists(st.booleans(), min_size=n, max_size=n)),
        public=draw(packed()),
        stock=draw(st.sampled_from([0, 7, 31, 2**31])),
        offer=draw(st.one_of(st.none(), st.tuples(small_ints, st.booleans(), small_ints))),
        opening=draw(st.booleans()),
        candidates=draw(st.lists(choice, max_size=4)),
        seed=draw(st.integers(0, 2**64 - 1)),
        rollouts=draw(st.one_of(st.none(), works)),
        think_ms=draw(think),
        single=draw(st.one_of(st.none(), st.lists(ints, max_size=5))),
        known=draw(st.one_of(st.none(), st.lists(packed(), max_size=5))),
        greedy_only=draw(st.booleans()),
    )


def _tusac_rules(draw: D) -> Any:
    try:
        return _core.tusac_flow_rules(
            triple_optional=draw(st.booleans()),
            forbidden_triple=draw(st.sampled_from(["other_claims", "no_claim", "x"])),
            discard_rule=draw(st.sampled_from(["penalize", "enforce", "x"])),
            bung_rule=draw(names),
            odd_total=draw(st.sampled_from(["hand", "with_toi", "off", "x"])),
            set_lenh=draw(small_ints),
            tuong_as_ty=draw(st.booleans()),
            draw_at_stock=draw(st.sampled_from([0, 7, 70, 71, 255])),
            payment=draw(st.sampled_from(["per_lenh", "flat", ""])),
            claim_window=draw(st.sampled_from(["every_seat", "eligible_seats", "all"])),
        )
    except CORE_OK:
        return tusac.Rules().flow


def _tusac_step(draw: D, f: Any, seat: int) -> None:
    method = draw(st.sampled_from(["act", "legal", "legal", "state", "hands", "options"]))
    if method == "act":
        kind = draw(st.sampled_from(["discard", "claim", "win", "pass", "x"]))
        action = (kind, draw(st.one_of(ints, st.none(), names)), draw(st.lists(ints, max_size=5)))
        f.act(seat, action[: draw(st.integers(1, 3))])
    elif method == "legal":
        pending = f.pending()
        if pending:
            answers = f.answers(pending[0])
            if answers:
                f.act(pending[0], draw(st.sampled_from(answers)))
            elif f.phase == "discard":
                f.act(pending[0], ("discard", draw(st.sampled_from(f.discardable(pending[0]) or [0]))))
    elif method == "hands":
        f.hands = draw(st.lists(packed(), max_size=5))
    elif method == "options":
        f.compute_options(draw(st.lists(small_ints, max_size=5)))
        f.winning_totals(seat)
        f.payments(seat, draw(ints), draw(st.one_of(st.none(), small_ints)))
    else:
        melds = st.lists(st.lists(st.tuples(names, st.lists(ints, max_size=4)), max_size=2), max_size=5)
        answers = st.lists(st.one_of(st.none(), st.sampled_from([("win",), ("pass",), ("x",)])), max_size=5)
        f.set_state(
            dealer=draw(small_ints),
            phase=draw(st.sampled_from(["discard", "claim", "over", "x"])),
            hands=draw(st.lists(packed(), max_size=5)),
            exposed=draw(melds),
            stock=draw(st.lists(st.integers(0, 30), max_size=60)),
            dead=draw(st.lists(st.integers(0, 30), max_size=5)),
            offer=draw(st.one_of(st.none(), st.tuples(ints, names, small_ints, st.booleans()))),
            to_discard=draw(st.one_of(st.none(), small_ints)),
            opening=draw(st.booleans()),
            responses=draw(answers),
            result=draw(
                st.one_of(st.none(), st.tuples(st.none(), ints, st.booleans(), st.none(), small_ints))
            ),
            totals=draw(st.lists(ints, max_size=5)),
        )


def _tusac_flow(draw: D) -> Any:
    """A Tứ Sắc flow under random rules driven by junk actions and states."""
    try:
        f = _core.TuSacFlow(_tusac_rules(draw), draw(small_ints), draw(small_ints))
    except CORE_OK:
        f = _core.TuSacFlow(tusac.Rules().flow, 4, 0)
    f.start(_core.Rng(draw(st.integers(0, 2**64 - 1))))
    for _ in range(draw(st.integers(1, 10))):
        with contextlib.suppress(*CORE_OK):
            _tusac_step(draw, f, draw(small_ints))
    return (f.phase, f.pending(), f.offer, f.responses, f.result, f.totals, repr(copy.deepcopy(f)))


def _encode_view(draw: D) -> Any:
    groups = draw(st.lists(st.one_of(card_args(), tusac_args(), st.none(), ints), max_size=8))
    counts = draw(st.lists(ints, max_size=8))
    flags = [draw(ints) for _ in range(4)]
    which = draw(st.integers(0, 2))
    if which == 0:
        passed, out, to_act, owner = flags
        return _core.encode_shedding_view(
            groups, counts, passed, out, to_act, owner, draw(st.one_of(st.none(), st.booleans()))
        )
    if which == 1:
        return _core.encode_maubinh_view(
            groups, draw(small_ints), flags[0], flags[1], flags[2], draw(st.booleans())
        )
    return _core.encode_tusac_view(groups, counts, flags[0], flags[1], draw(ints), draw(st.booleans()))


def _policy(draw: D) -> Any:
    """Policy nets from junk parts and junk files, scoring junk views and playing junk seeds."""
    from vncards.learn.model import Architecture, init_layers, to_net

    game = draw(st.sampled_from(["tienlen", "samloc", "tusac", "maubinh", ""]))
    players = draw(small_ints)
    with contextlib.suppress(*CORE_OK):
        _core.policy_encoding(game, players)
    with contextlib.suppress(*CORE_OK):
        shapes = draw(st.lists(st.tuples(small_ints, small_ints), max_size=6))
        _core.PolicyNet(game, players, shapes, draw(small_ints), draw(st.binary(max_size=64)), "{}", "{}")
    g = draw(st.sampled_from(["tienlen", "samloc", "tusac"]))
    _, _, _, d, a = _core.policy_encoding(g, 4)
    arch = Architecture(tower=(4,), join=3, head=(2,))
    net = to_net(g, 4, arch, init_layers(arch, d, a, 0), "{}", {})
    data = bytearray(net.to_bytes())
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data) - 1))
        data[at] = draw(st.integers(0, 255))
    cut = draw(st.integers(0, len(data)))
    with contextlib.suppress(*CORE_OK):
        _core.PolicyNet.from_bytes(bytes(data[:cut]))
    groups = draw(st.lists(st.one_of(card_args(), tusac_args(), st.none(), ints), max_size=8))
    counts = draw(st.lists(ints, max_size=8))
    flags = [draw(ints) for _ in range(4)]
    actions = draw(
        st.lists(
            st.tuples(
                st.sampled_from(
                    ["play", "pass", "declare_sam", "decline_sam", "discard", "claim", "win", "x"]
                ),
                st.one_of(card_args(), tusac_args(), st.none(), ints),
            ),
            max_size=4,
        )
    )
    method = draw(st.sampled_from(["shedding", "tusac", "rows", "batch", "selfplay"]))
    if method == "rows":
        parts = (groups, counts, flags[0], flags[1], draw(ints), draw(st.booleans()))
        return _core.policy_tusac_rows(parts, actions)
    if method == "shedding":
        return net.scores_shedding(groups, counts, *flags, draw(st.one_of(st.none(), st.booleans())), actions)
    if method == "tusac":
        return net.scores_tusac(groups, counts, flags[0], flags[1], draw(ints), draw(st.booleans()), actions)
    if method == "batch":
        rows = draw(st.integers(0, 3))
        return net.scores_batch(
            np.zeros((rows, draw(st.sampled_from([d, d + 1]))), np.float32),
            np.zeros((draw(st.integers(0, 4)), draw(st.sampled_from([a, 0]))), np.float32),
            np.asarray(draw(st.lists(st.integers(-2, 5), max_size=5)), np.int64),
        )
    rules = draw(st.sampled_from([tienlen.Rules().flow, _tusac_rules(draw), None]))
    seeds = draw(st.lists(st.integers(0, 2**64 - 1), max_size=2))
    greedy = draw(st.one_of(st.none(), st.lists(st.integers(-1, 300), max_size=3)))
    frozen = draw(st.sampled_from([None, net]))
    frozen_seats = draw(st.one_of(st.none(), st.lists(st.integers(-1, 300), max_size=3)))
    return net.selfplay(
        rules,
        seeds,
        draw(st.floats(allow_nan=True)),
        draw(st.integers(0, 300)),
        greedy_seats=greedy,
        frozen=frozen,
        frozen_seats=frozen_seats,
    )


CORE: dict[str, Callable[[D], Any]] = {
    "TuSacFlowRules": lambda d: repr(_tusac_rules(d)),
    "MauBinhRules": lambda d: repr(_maubinh_rules(d)),
    "tusac_flow_rules": _tusac_rules,
    "TuSacFlow": _tusac_flow,
    "encode_shedding_view": _encode_view,
    "encode_tusac_view": _encode_view,
    "encode_maubinh_view": _encode_view,
    "SheddingFlowRules": lambda d: repr(_flow_rules(d)),
    "tienlen_flow_rules": _flow_rules,
    "samloc_flow_rules": _flow_rules,
    "SheddingFlow": _flow,
    "VectorCore": _vector,
    "PolicyNet": _policy,
    "policy_encoding": _policy,
    "policy_tusac_rows": _policy,
    "shedding_penalty_items": lambda d: _core.shedding_penalty_items(
        d(masks()), d(st.tuples(*[st.sampled_from([0, 3, 15, 2**32 - 1, 2**32])] * 5)), d(small_ints)
    ),
    "shedding_cut_value": lambda d: _core.shedding_cut_value(
        d(masks()), d(names), d(st.tuples(*[st.sampled_from([0, 3, 2**32 - 1])] * 5))
    ),
    "shedding_twos_value": lambda d: _core.shedding_twos_value(
        d(masks()), d(st.tuples(*[st.sampled_from([0, 3, 2**32 - 1])] * 5))
    ),
    "Card": lambda d: Card(d(st.one_of(ints, st.sampled_from(CARD_TEXTS + JUNK_TEXTS)))).rank,
    "TuSacCard": lambda d: (
        tusac.TuSacCard(d(st.one_of(ints, st.sampled_from(TUSAC_TEXTS + JUNK_TEXTS)))).name
    ),
    "Rng": _rng,
    "SheddingRules": _shedding_rules,
    "SheddingCombo": _combo_methods,
    "RolloutSetup": _setup,
    "RolloutPosition": _position,
    "PlayList": _play_list,
    "cards_to_mask": lambda d: _core.cards_to_mask(d(card_args())),
    "encode_card_rows": lambda d: _core.encode_card_rows(
        d(
            st.lists(
                st.one_of(card_args(), tusac_args(), ints, st.lists(st.lists(card_args())), st.none()),
                max_size=4,
            )
        ),
        d(st.sampled_from(["52", "tusac", "french", "28", "uno", ""])),
    ),
    "mask_to_cards": lambda d: _core.mask_to_cards(d(masks())),
    "mask_to_text": lambda d: _core.mask_to_text(d(masks()), d(st.booleans())),
    "parse_card": lambda d: _core.parse_card(d(st.sampled_from(CARD_TEXTS + JUNK_TEXTS))),
    "parse_cards": lambda d: _core.parse_cards(d(card_args())),
    "maubinh_best_arrangement": lambda d: _core.maubinh_best_arrangement(
        d(card_args()), d(maubinh_rules()), d(names)
    ),
    "maubinh_best_arrangements": lambda d: _core.maubinh_best_arrangements(
        d(st.lists(card_args(), max_size=3)),
        d(maubinh_rules()),
        d(names),
    ),
    "maubinh_compare_hands": lambda d: _core.maubinh_compare_hands(
        d(card_args()), d(card_args()), d(maubinh_rules())
    ),
    "maubinh_expected_value": lambda d: _core.maubinh_expected_value(
        d(masks()),
        d(masks()),
        d(masks()),
        d(maubinh_rules()),
        d(names),
    ),
    "maubinh_exploitability": lambda d: _core.maubinh_exploitability(
        d(st.one_of(names, st.just(lambda mask: (mask, 0, 0)), st.just(lambda mask: "junk"), ints)),
        d(small_ints),
        d(st.integers(-1, 2)),
        d(st.sampled_from([-1, 0, 1, 5, 2**64])),
        d(st.sampled_from([0, 1, 5])),
        d(ints),
        d(st.one_of(masks(), st.just((1 << 52) - 1), st.just((1 << 52) - (1 << 24)))),
        d(maubinh_rules()),
        d(st.one_of(st.none(), st.binary(max_size=64))),
    ),
    "maubinh_hand_category": lambda d: _core.maubinh_hand_category(d(card_args()), d(maubinh_rules())),
    "maubinh_hand_rank": lambda d: _core.maubinh_hand_rank(d(card_args()), d(maubinh_rules())),
    "maubinh_hand_ranks": lambda d: _core.maubinh_hand_ranks(
        d(st.lists(card_args(), max_size=3)), d(maubinh_rules())
    ),
    "maubinh_head_to_head": lambda d: _core.maubinh_head_to_head(
        d(works),
        d(ints),
        d(small_ints),
        d(names),
        d(names),
        d(maubinh_rules()),
    ),
    "maubinh_instant_win": lambda d: _core.maubinh_instant_win(d(card_args()), d(maubinh_rules())),
    "maubinh_is_fouled": lambda d: _core.maubinh_is_fouled(
        d(masks()), d(masks()), d(masks()), d(maubinh_rules())
    ),
    "maubinh_position_histograms": lambda d: _core.maubinh_position_histograms(
        d(works),
        d(ints),
        d(names),
        d(st.one_of(st.none(), st.binary(max_size=64))),
        start=d(ints),
        scoring=d(names),
    ),
    "maubinh_tables_header": lambda d: _core.maubinh_tables_header(d(names), d(names)),
    "maubinh_joint_cells": lambda d: _core.maubinh_joint_cells(
        d(works),
        d(ints),
        start=d(ints),
        cells=d(st.one_of(st.none(), table_files())),
        play=d(st.one_of(names, st.sampled_from(["tables", "corrected"]))),
    ),
    "maubinh_joint_file": lambda d: _core.maubinh_joint_file(),
    "maubinh_tables_file": lambda d: _core.maubinh_tables_file(d(names), d(names)),
    "maubinh_tables_recode": lambda d: _core.maubinh_tables_recode(
        d(table_files()), compact=d(st.booleans())
    ),
    "maubinh_position_tables": lambda d: _core.maubinh_position_tables(
        d(maubinh_rules()), d(names), d(masks())
    ),
    "maubinh_removal_entries": lambda d: _core.maubinh_removal_entries(
        d(maubinh_rules()), d(names), d(masks()), d(st.tuples(ints, ints, ints))
    ),
    "maubinh_ranked_candidates": lambda d: _core.maubinh_ranked_candidates(
        d(card_args()), d(maubinh_rules()), d(ints)
    ),
    "maubinh_ranked_arrangements": lambda d: _core.maubinh_ranked_arrangements(
        d(card_args()),
        d(maubinh_rules()),
        d(names),
        d(ints),
    ),
    "maubinh_settle": lambda d: _core.maubinh_settle(
        d(st.lists(st.one_of(st.none(), st.tuples(masks(), masks(), masks())), max_size=6)),
        d(maubinh_rules()),
    ),
    "rollout_evaluate": _evaluate,
    "search_shedding": _search_shedding,
    "shedding_policy_scores": _policy_scores,
    "shedding_value": lambda d: _core.shedding_value(
        _setup(d),
        **_rollout_kwargs(d),
        turn=d(small_ints),
        rollouts=d(works),
        known=d(st.one_of(st.none(), st.lists(masks(), max_size=5))),
    ),
    "sam_plan": lambda d: _core.sam_plan(
        _setup(d), **_rollout_kwargs(d), samples=d(works), out=d(st.integers(0, 255))
    ),
    "TuSacRolloutSetup": _tusac_setup,
    "tusac_search": _tusac_search,
    "maubinh_search": lambda d: _core.maubinh_search(
        d(masks()),
        d(small_ints),
        d(st.lists(st.tuples(masks(), masks(), masks()), max_size=3)),
        d(maubinh_rules()),
        seed=d(st.integers(0, 2**64 - 1)),
        rollouts=d(st.one_of(st.none(), works)),
        think_ms=d(think),
        known=d(st.one_of(st.none(), st.lists(masks(), max_size=4))),
    ),
    "rollout_greedy_choice": lambda d: _core.rollout_greedy_choice(
        _setup(d),
        d(masks()),
        d(st.lists(masks(), max_size=5)),
        d(st.one_of(st.none(), masks())),
        d(ints),
        d(st.booleans()),
    ),
    "rollout_sam_success": lambda d: _core.rollout_sam_success(
        _setup(d), **_rollout_kwargs(d), samples=d(works)
    ),
    "samloc_breaks_bao_mot": lambda d: _core.samloc_breaks_bao_mot(d(masks()), d(combos)),
    "samloc_has_play": lambda d: _core.samloc_has_play(
        d(masks()), _combo_or_none(d), d(rules), d(st.booleans())
    ),
    "samloc_instant_win": lambda d: _core.samloc_instant_win(d(card_args()), d(rules)),
    "samloc_instant_winner": lambda d: _core.samloc_instant_winner(
        d(st.lists(masks(), max_size=8)), d(small_ints), d(rules)
    ),
    "samloc_legal_plays": lambda d: _core.samloc_legal_plays(
        d(card_args()), d(maybe_table), d(rules), d(st.booleans()), d(masks())
    ),
    "samloc_legal_plays_loop": lambda d: _core.samloc_legal_plays_loop(
        d(card_args()), d(maybe_table), d(rules), d(works), d(st.booleans())
    ),
    "samloc_rules": lambda d: _core.samloc_rules(
        low_straights=d(st.booleans()), quad_beats_pair_of_twos=d(st.booleans())
    ),
    "shedding_beats": lambda d: _core.shedding_beats(d(card_args()), d(card_args()), d(rules)),
    "shedding_check_play": lambda d: _core.shedding_check_play(
        d(masks()), d(card_args()), _combo_or_none(d), d(rules), d(masks())
    ),
    "shedding_classify": lambda d: _core.shedding_classify(d(card_args()), d(rules)),
    "shedding_combo_from_parts": lambda d: (
        _core.shedding_combo_from_parts(d(masks()), d(ints), d(ints)).top_card
    ),
    "shedding_count_leads_batch": lambda d: _core.shedding_count_leads_batch(
        d(st.lists(masks(), max_size=4)), d(rules)
    ),
    "shedding_has_play": lambda d: _core.shedding_has_play(d(masks()), _combo_or_none(d), d(rules), d(names)),
    "shedding_is_cut": lambda d: _core.shedding_is_cut(d(combos), d(combos), d(rules)),
    "shedding_legal_plays": lambda d: _core.shedding_legal_plays(
        d(card_args()), d(maybe_table), d(rules), d(masks()), d(names)
    ),
    "shedding_legal_play_masks": lambda d: _core.shedding_legal_play_masks(
        d(card_args()), d(maybe_table), d(rules), d(masks()), d(names)
    ),
    "shedding_legal_plays_loop": lambda d: _core.shedding_legal_plays_loop(
        d(card_args()), d(maybe_table), d(rules), d(works)
    ),
    "tienlen_instant_win": lambda d: _core.tienlen_instant_win(
        d(card_args()), d(rules), d(st.booleans()), d(st.booleans())
    ),
    "tusac_check_claim": lambda d: _core.tusac_check_claim(
        d(packed()), d(ints), d(names), d(st.lists(ints, max_size=6)), d(st.booleans()), d(names)
    ),
    "tusac_classify": lambda d: _core.tusac_classify(d(tusac_args())),
    "tusac_complete_lenh": lambda d: _core.tusac_complete_lenh(
        d(tusac_args()), d(st.one_of(st.none(), st.sampled_from(TUSAC_TEXTS + JUNK_TEXTS))), d(small_ints)
    ),
    "tusac_legal_claims": lambda d: _core.tusac_legal_claims(
        d(packed()), d(ints), d(st.booleans()), d(st.booleans()), d(names)
    ),
    "tusac_min_rac": lambda d: _core.tusac_min_rac(d(tusac_args())),
    "tusac_min_rac_packed": lambda d: _core.tusac_min_rac_packed(d(packed())),
    "tusac_pack": lambda d: _core.tusac_pack(d(tusac_args())),
    "tusac_parse_cards": lambda d: _core.tusac_parse_cards(d(tusac_args())),
    "tusac_rac_kinds": lambda d: _core.tusac_rac_kinds(d(packed())),
    "tusac_splits": lambda d: _core.tusac_splits(d(tusac_args()), d(ints)),
    "tusac_unpack": lambda d: _core.tusac_unpack(d(packed())),
    "tusac_win_total": lambda d: _core.tusac_win_total(
        d(tusac_args()),
        d(ints),
        d(st.one_of(st.none(), st.sampled_from(TUSAC_TEXTS + JUNK_TEXTS))),
        d(names),
        d(small_ints),
    ),
    "tusac_win_total_packed": lambda d: _core.tusac_win_total_packed(
        d(packed()), d(ints), d(st.one_of(st.none(), ints)), d(names), d(small_ints)
    ),
}

NOT_FUZZED = {
    "debug_panic",
    "MAUBINH_CATEGORIES",
    "MAUBINH_INSTANT_WINS",
    "SAMLOC_SAM_UNITS",
    "SAMLOC_CONG_UNITS",
    "SAMLOC_TWO_UNITS",
}


def test_every_core_name_is_fuzzed() -> None:
    names = {n for n in dir(_core) if not n.startswith("__")}
    assert names - NOT_FUZZED == set(CORE)


def _run(call: Callable[[D], Any], data: st.DataObject, allowed: tuple[type[BaseException], ...]) -> None:
    with contextlib.suppress(*allowed):
        call(data.draw)


@pytest.mark.parametrize("name", sorted(CORE))
@given(data=st.data())
def test_core_function_fails_only_with_typed_errors(name: str, data: st.DataObject) -> None:
    _run(CORE[name], data, CORE_OK)


def _tienlen_rules(d: D) -> Any:
    return d(st.sampled_from([None, tienlen.Rules.south(), tienlen.Rules.north()]))


PUBLIC: dict[str, Callable[[D], Any]] = {
    "Card": lambda d: Card(d(st.one_of(ints, st.sampled_from(CARD_TEXTS + JUNK_TEXTS)))),
    "cards.to_mask": lambda d: cards.to_mask(d(card_args())),
    "cards.from_mask": lambda d: cards.from_mask(d(ints)),
    "cards.cards_text": lambda d: cards.cards_text(d(ints)),
    "tienlen.classify": lambda d: tienlen.classify(d(card_args()), _tienlen_rules(d)),
    "tienlen.beats": lambda d: tienlen.beats(d(card_args()), d(card_args()), _tienlen_rules(d)),
    "tienlen.legal_plays": lambda d: tienlen.legal_plays(
        d(card_args()), d(maybe_table), _tienlen_rules(d), must_include=d(st.one_of(st.none(), card_args()))
    ),
    "tienlen.instant_win": lambda d: tienlen.instant_win(
        d(card_args()), _tienlen_rules(d), first_hand=d(st.booleans())
    ),
    "samloc.classify": lambda d: samloc.classify(d(card_args())),
    "samloc.beats": lambda d: samloc.beats(d(card_args()), d(card_args())),
    "samloc.legal_plays": lambda d: samloc.legal_plays(
        d(card_args()),
        d(maybe_table),
        must_include=d(st.one_of(st.none(), card_args())),
        bao_mot=d(st.booleans()),
    ),
    "samloc.instant_win": lambda d: samloc.instant_win(d(card_args())),
    "samloc.instant_winner": lambda d: samloc.instant_winner(
        d(st.lists(card_args(), max_size=6)), d(small_ints)
    ),
    "maubinh.hand_rank": lambda d: maubinh.hand_rank(d(card_args())),
    "maubinh.hand_category": lambda d: maubinh.hand_category(d(card_args())),
    "maubinh.compare_hands": lambda d: maubinh.compare_hands(d(card_args()), d(card_args())),
    "maubinh.instant_win": lambda d: maubinh.instant_win(d(card_args())),
    "maubinh.is_fouled": lambda d: maubinh.is_fouled(d(st.lists(card_args(), max_size=4))),
    "maubinh.expected_value": lambda d: maubinh.expected_value(d(st.lists(card_args(), max_size=4))),
    "maubinh.best_arrangement": lambda d: maubinh.best_arrangement(d(card_args()), objective=d(names)),  # type: ignore[arg-type]  # junk objective names on purpose
    "maubinh.ranked_arrangements": lambda d: maubinh.ranked_arrangements(d(card_args()), count=d(ints)),
    "maubinh.arrangement_report": lambda d: maubinh.arrangement_report(d(card_args()), alternatives=d(ints)),
    "maubinh.settle": lambda d: maubinh.settle(d(st.lists(st.one_of(st.none(), card_args()), max_size=5))),
    "maubinh.head_to_head": lambda d: maubinh.head_to_head(d(works), seed=d(ints), players=d(small_ints)),
    "tusac.parse_cards": lambda d: tusac.parse_cards(d(tusac_args())),
    "tusac.melds": lambda d: tusac.melds(d(tusac_args()), limit=d(ints)),
    "tusac.min_rac": lambda d: tusac.min_rac(d(tusac_args())),
    "tusac.win_score": lambda d: tusac.win_score(
        d(tusac_args()),
        d(st.lists(tusac_args(), max_size=3)),
        d(st.one_of(st.none(), st.sampled_from(TUSAC_TEXTS))),
    ),
    "tusac.can_win": lambda d: tusac.can_win(
        d(tusac_args()), offer=d(st.one_of(st.none(), st.sampled_from(TUSAC_TEXTS)))
    ),
    "tusac.legal_claims": lambda d: tusac.legal_claims(
        d(tusac_args()), d(st.sampled_from(TUSAC_TEXTS + JUNK_TEXTS))
    ),
}


@pytest.mark.parametrize("name", sorted(PUBLIC))
@given(data=st.data())
def test_public_function_fails_only_with_typed_errors(name: str, data: st.DataObject) -> None:
    _run(PUBLIC[name], data, PUBLIC_OK)
