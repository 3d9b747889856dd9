"""No public call can abort, panic, hang or exhaust the process (issue: hardening).

Each call that once took a process down is pinned here twice: in this process (it must raise a
typed :class:`VncardsError` with a reason, or return a correct bounded result) and in a
subprocess under a memory limit (``resource.setrlimit``) that must exit cleanly with code 0.
The sources are checked too: every binding entry runs inside the panic guard.
"""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.tree import source_tree
from vncards import (
    Card,
    IllegalMoveError,
    InternalError,
    InvalidCardError,
    RulesError,
    VncardsError,
    _core,
    maubinh,
    parse_card,
    samloc,
    tienlen,
    tusac,
)

ROOT = Path(__file__).resolve().parent.parent
HAND = "A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠"
FULL = (1 << 52) - 1
RULES = tienlen.Rules().core
ALL_TUSAC = [tusac.TuSacCard(k) for k in range(28) for _ in range(4)]


def rollout(**overrides: Any) -> list[float]:
    """`rollout_evaluate` on a small legal position, with `overrides`."""
    setup = _core.RolloutSetup(RULES, 4)
    hand = _core.cards_to_mask("3♠ 4♠ 5♠")
    args: dict[str, Any] = dict(
        me=0,
        hand=hand,
        unseen=FULL & ~hand,
        counts=[3, 3, 3, 3],
        candidates=[None, hand & -hand],
        rollouts=4,
        seed=1,
    )
    args.update(overrides)
    call = {k: args.pop(k) for k in ("candidates", "rollouts", "seed")}
    return _core.rollout_evaluate(setup, _core.RolloutPosition(**args), **call)


# Each line of the issue: (name, call, expected error type or None for a bounded result).
ISSUE_CALLS: list[tuple[str, Callable[[], Any], type[VncardsError] | None]] = [
    ("ranked_arrangements_1e9", lambda: maubinh.ranked_arrangements(HAND, count=10**9), None),
    ("ranked_arrangements_2_62", lambda: maubinh.ranked_arrangements(HAND, count=2**62), None),
    ("arrangement_report_2_62", lambda: maubinh.arrangement_report(HAND, alternatives=2**62), None),
    ("shedding_has_play_full_deck", lambda: _core.shedding_has_play(FULL, None, RULES), InvalidCardError),
    ("shedding_count_leads_batch", lambda: _core.shedding_count_leads_batch([FULL], RULES), InvalidCardError),
    ("tusac_melds_112", lambda: tusac.melds(ALL_TUSAC, limit=10**6), InvalidCardError),
    ("samloc_legal_plays_full_deck", lambda: samloc.legal_plays(FULL), InvalidCardError),
    ("combo_from_parts_top_60", lambda: _core.shedding_combo_from_parts(1, 0, 60).top_card, RulesError),
    (
        "shedding_check_play_bad_must",
        lambda: _core.shedding_check_play(1 << 49, 1 << 49, None, RULES, 2**64 - 1),
        InvalidCardError,
    ),
    ("rollout_sam_7", lambda: rollout(sam=7), RulesError),
    (
        "rollout_spin",
        lambda: rollout(table=_core.cards_to_mask("2♥"), table_seat=1, out=0b11),
        RulesError,
    ),
    ("head_to_head_0", lambda: maubinh.head_to_head(0), RulesError),
    ("card_lone_surrogate", lambda: Card("\udcff"), InvalidCardError),
    (
        "tusac_fifth_copy",
        lambda: _core.tusac_win_total_packed(
            _core.tusac_pack("KR KR KR KR"), 0, tusac.TuSacCard("KR").index, "off", 1
        ),
        InvalidCardError,
    ),
    ("tusac_i32_wrap", lambda: _core.tusac_win_total("PW PW PW", 2**31 - 1, "PW", "off", 1), RulesError),
]


@pytest.mark.parametrize(("name", "call", "error"), ISSUE_CALLS, ids=[c[0] for c in ISSUE_CALLS])
def test_issue_call_is_typed_or_bounded(
    name: str, call: Callable[[], Any], error: type[VncardsError] | None
) -> None:
    if error is None:
        result = call()
        if isinstance(result, list):
            assert 1 <= len(result) <= maubinh.MAX_ARRANGEMENTS
        else:
            assert isinstance(result, str) and result.startswith("Mậu Binh")
        return
    with pytest.raises(error) as e:
        call()
    assert str(e.value), "an error carries a reason"


def test_ranked_arrangements_returns_every_distinct_class_when_asked_for_more() -> None:
    everything = maubinh.ranked_arrangements(HAND, count=10**9)
    assert everything == maubinh.ranked_arrangements(HAND, count=maubinh.MAX_ARRANGEMENTS)
    assert everything[:4] == maubinh.ranked_arrangements(HAND, count=4)
    assert len(set(everything)) == len(everything)


def test_rollout_with_only_the_root_in_the_hand_terminates() -> None:
    # The root alone in the hand (the others are out): the hand is played to its end.
    means = rollout(me=2, counts=[0, 0, 3, 0], table=_core.cards_to_mask("2♥"), table_seat=1, out=0b1011)
    assert len(means) == 2
    # The issue's table (2♥ by seat 1, seats 0 and 1 out) seen from a seat still playing.
    means = rollout(me=2, counts=[0, 0, 3, 3], table=_core.cards_to_mask("2♥"), table_seat=1, out=0b11)
    assert len(means) == 2


def test_combo_pickles_are_checked() -> None:
    combo = tienlen.classify("7♠ 7♦")
    assert combo is not None
    assert pickle.loads(pickle.dumps(combo)) == combo
    # A crafted pickle names the rebuild function with parts that are not a combination.
    for parts in [(1, 0, 60), (0b11, 0, 0), (1, 9, 0), (1 << 52, 0, 0), (0b1111, 1, 3)]:
        payload = pickle.dumps(_Forged(parts))
        with pytest.raises(VncardsError):
            pickle.loads(payload)


class _Forged:
    """Pickles as a call of the combo-rebuilding function with arbitrary parts."""

    def __init__(self, parts: tuple[int, int, int]) -> None:
        self.parts = parts

    def __reduce__(self) -> tuple[Any, tuple[int, int, int]]:
        return (_core.shedding_combo_from_parts, self.parts)


def test_every_legal_combo_round_trips_through_its_parts() -> None:
    for rules in (tienlen.Rules.south().core, tienlen.Rules.north().core, samloc.Rules().core):
        for hand in ["3♠ 3♣ 4♦ 4♥ 5♠ 5♣ 6♦ 7♥ 8♠ 9♠ 2♥ 2♠ A♦", "A♠ 2♣ 3♦ 4♥ 5♠ 5♣ 6♦ 6♥ 7♠ 7♣"]:
            try:
                plays = _core.shedding_legal_plays(hand, None, rules)
            except InvalidCardError:
                continue  # larger than Sâm's hand
            for c in plays:
                assert _core.shedding_combo_from_parts(c.mask, _kind_code(c.kind), c.top) == c
                assert pickle.loads(pickle.dumps(c)) == c


def _kind_code(name: str) -> int:
    return ["single", "pair", "triple", "straight", "pair_sequence", "four_of_a_kind"].index(name)


@pytest.mark.parametrize("bad", ["\udcff", "3\ud800", "\udcff♠"])
def test_card_text_that_is_not_unicode(bad: str) -> None:
    with pytest.raises(InvalidCardError):
        Card(bad)
    with pytest.raises(InvalidCardError):
        parse_card(bad)
    with pytest.raises(InvalidCardError):
        tienlen.legal_plays([bad])
    with pytest.raises(InvalidCardError):
        tusac.TuSacCard(bad)


def test_counts_and_limits_are_clamped_or_refused() -> None:
    with pytest.raises(RulesError):
        maubinh.ranked_arrangements(HAND, count=0)
    with pytest.raises(RulesError):
        maubinh.arrangement_report(HAND, alternatives=-1)
    with pytest.raises(RulesError):
        maubinh.head_to_head(10**10)
    with pytest.raises(RulesError):
        maubinh.head_to_head(1, seed=-1)
    with pytest.raises(RulesError):
        tusac.melds("RR RR CR HR", limit=-1)
    assert tusac.melds("RR RR CR HR", limit=10**30) == tusac.melds("RR RR CR HR")
    with pytest.raises(RulesError):
        _core.shedding_legal_plays_loop("3♠", None, RULES, 10**12)
    with pytest.raises(RulesError):
        _core.maubinh_position_histograms(0, 1, "expected")
    with pytest.raises(RulesError):
        _core.RolloutSetup(RULES, 4, card=2**31 - 1)
    with pytest.raises(RulesError):
        rollout(rollouts=2**32 - 1)
    with pytest.raises(RulesError):
        _core.Rng(1).permutation(2**40)
    with pytest.raises(VncardsError):
        _core.Rng.restore(bytes(32), 2**64 - 1)


def test_hand_sizes_are_bounded_where_they_enter() -> None:
    fourteen = (1 << 14) - 1
    with pytest.raises(InvalidCardError):
        tienlen.legal_plays(fourteen)
    with pytest.raises(InvalidCardError):
        samloc.legal_plays((1 << 11) - 1)
    with pytest.raises(InvalidCardError):
        tienlen.instant_win(FULL)
    with pytest.raises(InvalidCardError):
        _core.samloc_instant_winner([FULL, 0], 0, samloc.Rules().core)
    with pytest.raises(RulesError):
        _core.samloc_instant_winner([0] * 9, 0, samloc.Rules().core)
    with pytest.raises(InvalidCardError):
        tusac.min_rac(ALL_TUSAC[:23])
    assert tusac.min_rac(ALL_TUSAC[:22]) >= 0
    with pytest.raises(IllegalMoveError):
        _core.tusac_check_claim(0, 0, "pair", [0] * 9, True, "seed")
    with pytest.raises(RulesError):
        _core.SheddingRules(
            suit_order=True,
            same_colour_pairs=False,
            same_suit_straights=False,
            single_follows_suit=False,
            triple_follows_suits=False,
            pair_sequences=True,
            min_straight=3,
            max_straight=12,
            low_straights=False,
            quad_beats_pair_of_twos=True,
            hand_size=26,
            min_players=2,
            max_players=2,
        )


def test_tusac_offer_is_never_a_fifth_copy() -> None:
    four = _core.tusac_pack("KR KR KR KR")
    kr = tusac.TuSacCard("KR").index
    with pytest.raises(InvalidCardError):
        _core.tusac_legal_claims(four, kr, True, False, "seed")
    with pytest.raises(InvalidCardError):
        _core.tusac_check_claim(four, kr, "claimed_quad", [kr] * 4, True, "seed")
    with pytest.raises(InvalidCardError):
        _core.tusac_complete_lenh("KR KR KR KR", "KR")
    with pytest.raises(InvalidCardError):
        tusac.win_score("KR KR KR KR", offer="KR")


@pytest.mark.parametrize("in_threads", [False, True])
def test_a_panic_becomes_internal_error(in_threads: bool) -> None:
    with pytest.raises(InternalError, match="internal error: boom") as e:
        _core.debug_panic("boom", in_threads)
    assert isinstance(e.value, VncardsError) and isinstance(e.value, Exception)
    # The process and the extension keep working.
    assert str(Card("3♠")) == "3♠"


def _entries(source: str) -> list[tuple[str, str]]:
    """(name, body) of every #[pyfunction] and every fn of a #[pymethods] block."""
    out = []
    for m in re.finditer(r"^\s*#\[(?:pyo3::)?pyfunction\]", source, re.M):
        out.append(_fn_at(source, source.index("fn ", m.end())))
    for m in re.finditer(r"^\s*#\[(?:pyo3::)?pymethods\]\s*impl[^{]*\{", source, re.M):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        block = source[m.end() : i]
        for f in re.finditer(r"^    (?:pub )?fn ", block, re.M):
            out.append(_fn_at(source, m.end() + f.start() + 4))
    return out


def _fn_at(source: str, start: int) -> tuple[str, str]:
    name = re.match(r"fn (\w+)", source[start:])
    assert name is not None
    body = source.index("{", source.index(")", start))
    return name.group(1), source[body : body + 200]


@source_tree
def test_every_binding_entry_runs_inside_the_panic_guard() -> None:
    files = sorted((ROOT / "src" / "python").glob("*.rs"))
    entries = [(f.name, *e) for f in files for e in _entries(f.read_text(encoding="utf-8"))]
    assert len(entries) > 80
    unguarded = [
        f"{file}: {name}" for file, name, body in entries if not re.match(r"\{\s*guard(_ok)?\(", body)
    ]
    assert unguarded == []


# ---- the same calls in subprocesses under a memory limit ---------------------------------------

CHILD = textwrap.dedent(
    """
    import resource, sys
    limit = {limit}
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.path.insert(0, {tests!r})
    import test_hardening as t
    call = dict((n, c) for n, c, _ in t.ISSUE_CALLS)[{name!r}]
    try:
        call()
        print("ok")
    except t.VncardsError as e:
        print("error", type(e).__name__)
    """
)

# Enough for the interpreter, numpy and the extension; far below what the unbounded calls took.
MEMORY_LIMIT = 1536 * 1024 * 1024


@pytest.mark.parametrize(
    ("name", "error"), [(c[0], c[2]) for c in ISSUE_CALLS], ids=[c[0] for c in ISSUE_CALLS]
)
def test_issue_call_in_a_memory_limited_subprocess(name: str, error: type[VncardsError] | None) -> None:
    code = CHILD.format(limit=MEMORY_LIMIT, tests=str(ROOT / "tests"), name=name)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    expected = "ok" if error is None else f"error {error.__name__}"
    assert proc.stdout.strip().splitlines()[-1] == expected
