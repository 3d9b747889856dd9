"""Mậu Binh solver: both objectives against a plain enumeration of all 72,072 splits written
here in numpy (independent of the Rust search and its pruning), and solver properties."""

from __future__ import annotations

import copy
import itertools
import pickle
from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from vncards import Card, IllegalMoveError, InvalidCardError, RulesError, _core
from vncards.cards import from_mask, to_mask
from vncards.maubinh import (
    Arrangement,
    Rules,
    best_arrangement,
    best_arrangements,
    expected_value,
    hand_ranks,
    head_to_head,
    instant_win,
    is_fouled,
    position_tables,
    ranked_arrangements,
)

MB_RANK = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])}


def _splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Local card positions (0..12) of every (back, middle, front) split: 72,072 rows."""
    backs, middles, fronts = [], [], []
    for b in itertools.combinations(range(13), 5):
        rest = [i for i in range(13) if i not in b]
        for m in itertools.combinations(rest, 5):
            backs.append(b)
            middles.append(m)
            fronts.append([i for i in rest if i not in m])
    return np.array(backs), np.array(middles), np.array(fronts)


BACK, MIDDLE, FRONT = _splits()
assert len(BACK) == 72_072
# Each split's middle and front as an index into the distinct 5- and 3-subsets.
FIVES, MIDDLE_ID = np.unique(MIDDLE, axis=0, return_inverse=True)
THREES, FRONT_ID = np.unique(FRONT, axis=0, return_inverse=True)
MIDDLE_ID, FRONT_ID = MIDDLE_ID.reshape(-1), FRONT_ID.reshape(-1)


def front_key(cards: list[Card], five: bool) -> tuple[int, ...]:
    """How a front compares with a middle (rules: docs/rules/maubinh.md), written independently: category
    high card < pair < two pair < trips < anything better, then only the ranks a front has."""
    ranks = sorted((MB_RANK[c.rank] for c in cards), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    pattern = [n for _, n in groups]
    lead = [r for r, _ in groups]
    if five:
        flush = len({c.suit for c in cards}) == 1
        run = sorted(set(ranks))
        straight = len(run) == 5 and (run[4] - run[0] == 4 or run == [0, 1, 2, 3, 12])
        if flush or straight or pattern[0] == 4 or pattern == [3, 2]:
            return (4,)
        if pattern[:2] == [2, 2]:
            return (2,)
    if pattern[0] == 3:
        return (3, lead[0])
    if pattern[0] == 2:
        return (1, lead[0], lead[1])
    return (0, *ranks[:3])


def split_ranks(cards: list[Card], rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The back, middle and front rank of every split."""
    idx = np.array([c.index for c in cards], dtype=np.uint8)
    rb, rm, rf = (hand_ranks(idx[part], rules).astype(np.int64) for part in (BACK, MIDDLE, FRONT))
    return rb, rm, rf


def valid_splits(cards: list[Card], rb: np.ndarray, rm: np.ndarray) -> np.ndarray:
    """Which splits are not fouled: the back at least the middle, and the front fits under the
    middle by the independent key above (computed per distinct subset, as integers that order
    like the key tuples)."""

    def code(key: tuple[int, ...]) -> int:
        padded = (*key, 0, 0, 0)[:4]
        return ((padded[0] * 16 + padded[1]) * 16 + padded[2]) * 16 + padded[3]

    key_m = np.array([code(front_key([cards[i] for i in row], True)) for row in FIVES.tolist()])
    key_f = np.array([code(front_key([cards[i] for i in row], False)) for row in THREES.tolist()])
    valid: np.ndarray = (rb >= rm) & (key_f[FRONT_ID] <= key_m[MIDDLE_ID])
    return valid


def brute_force(cards: list[Card], rules: Rules, objective: str) -> tuple[float, tuple[int, int, int]]:
    """The best (value, (back, middle, front) ranks) over every valid split."""
    rb, rm, rf = split_ranks(cards, rules)
    valid = valid_splits(cards, rb, rm)
    if objective == "strongest":
        key = (rb * 10_000 + rm) * 1_000 + rf
        i = int(np.argmax(np.where(valid, key, -1)))
        return 0.0, (int(rb[i]), int(rm[i]), int(rf[i]))
    t = position_tables(rules)
    win, _tie, lose, loss, bonus, value = range(6)
    b, m, f = t["back"][rb], t["middle"][rm], t["front"][rf]
    v = b[:, value] + m[:, value] + f[:, value]
    if rules.scoop:
        v = v + b[:, win] * m[:, win] * f[:, win] * (b[:, bonus] + m[:, bonus] + f[:, bonus])
        v = v - (
            b[:, loss] * m[:, lose] * f[:, lose]
            + b[:, lose] * m[:, loss] * f[:, lose]
            + b[:, lose] * m[:, lose] * f[:, loss]
        )
    v = np.where(valid, v, -np.inf)
    i = int(np.argmax(v))
    return float(v[i]), (int(rb[i]), int(rm[i]), int(rf[i]))


def random_hands(n: int, seed: int) -> list[list[Card]]:
    rng = np.random.default_rng(seed)
    return [[Card(int(i)) for i in rng.permutation(52)[:13]] for _ in range(n)]


def ranks_of(a: Arrangement, rules: Rules) -> tuple[int, int, int]:
    r = hand_ranks([a.back, a.middle, a.front], rules).tolist()
    return (r[0], r[1], r[2])


def check_against_brute_force(hands: list[list[Card]], rules: Rules) -> None:
    for cards in hands:
        if instant_win(cards, rules) is not None:
            continue
        for objective in ("strongest", "expected"):
            best = best_arrangement(cards, rules, objective)
            assert not is_fouled(best, rules)
            value, ranks = brute_force(cards, rules, objective)
            if objective == "strongest":
                assert ranks_of(best, rules) == ranks
            else:
                assert best.value == pytest.approx(value, abs=1e-9)
                assert expected_value(best, rules) == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("rules", [Rules(), Rules(wheel="lowest", scoop=False)])
def test_solver_is_exact_against_brute_force(rules: Rules) -> None:
    check_against_brute_force(random_hands(120, 1), rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(wheel="lowest"), Rules(scoop=False)])
def test_solver_is_exact_against_brute_force_many(rules: Rules) -> None:
    check_against_brute_force(random_hands(500, 2), rules)


def test_batch_equals_single_and_accepts_numpy() -> None:
    hands = random_hands(40, 3)
    singles = [best_arrangement(h) for h in hands]
    assert best_arrangements(hands) == singles
    array = np.array([[c.index for c in h] for h in hands], dtype=np.uint8)
    batch = best_arrangements(array)
    assert batch == singles
    assert [a.value for a in batch] == [a.value for a in singles]
    with pytest.raises(InvalidCardError):
        best_arrangements(array[:, :12])


def test_instant_wins_are_reported() -> None:
    a = best_arrangement("2♠ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    assert a.instant == "dragon"
    three_flushes = best_arrangement("2♠ 3♠ 5♠ 7♠ 9♠ 2♥ 3♥ 5♥ 7♥ 9♥ 2♦ 3♦ 5♦")
    assert three_flushes.instant == "three_flushes"
    assert len({c.suit for c in three_flushes.front}) == 1
    three_straights = best_arrangement("A♠ 2♥ 3♦ 4♠ 5♠ 2♣ 3♣ 4♣ 5♣ 6♥ 7♦ 8♣ 9♥")
    assert three_straights.instant == "three_straights"
    assert not is_fouled(three_straights)


def test_solver_rejects_wrong_hands() -> None:
    with pytest.raises(IllegalMoveError):
        best_arrangement("A♠ K♠ Q♠")
    with pytest.raises(RulesError):
        best_arrangement("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠", objective="best")  # type: ignore[arg-type]


hands13 = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True)


@given(hands13, st.sampled_from(["expected", "strongest"]), st.sampled_from(["second", "lowest"]))
def test_arrangement_uses_exactly_the_13_cards_and_is_never_fouled(
    idx: list[int], objective: str, wheel: str
) -> None:
    """A valid arrangement always exists (the strongest back, the best five of the rest), so
    the solver never fouls."""
    rules = Rules(wheel=wheel)  # type: ignore[arg-type]
    cards = [Card(i) for i in idx]
    a = best_arrangement(cards, rules, objective)  # type: ignore[arg-type]
    assert sorted(a.cards) == sorted(cards)
    assert (len(a.back), len(a.middle), len(a.front)) == (5, 5, 3)
    assert not is_fouled(a, rules)


@given(hands13)
def test_expected_never_below_strongest_in_the_model(idx: list[int]) -> None:
    cards = [Card(i) for i in idx]
    e, s = best_arrangement(cards), best_arrangement(cards, objective="strongest")
    assert e.value is not None and s.value is not None
    if e.instant is None:
        assert e.value >= s.value - 1e-12


def test_expected_beats_strongest_head_to_head() -> None:
    """Small run in the default suite; the large one is in the slow suite and the bench."""
    units = head_to_head(2_000, seed=11)
    assert units > 0.05


@pytest.mark.slow
def test_expected_beats_strongest_head_to_head_100k() -> None:
    units = head_to_head(100_000, seed=12)
    print(f"expected vs strongest: {units:+.4f} units per seat per deal (100,000 deals)")
    assert units > 0.1


def test_solver_answers_build_their_cards_lazily_and_equal_eager_ones() -> None:
    hand = "2♠ 5♥ 7♦ 8♣ 9♠ 10♦ J♣ Q♥ K♠ A♦ 3♣ 3♥ 6♠"
    lazy = best_arrangement(hand)
    assert "back" not in vars(lazy)  # nothing built yet
    back, middle, front = (mb_text(m) for m in lazy.masks)
    eager = Arrangement(back, middle, front)
    assert lazy == eager and hash(lazy) == hash(eager) and str(lazy) == str(eager)
    assert repr(lazy) == repr(eager).replace("value=None", f"value={lazy.value!r}")
    for other in (pickle.loads(pickle.dumps(best_arrangement(hand))), copy.deepcopy(best_arrangement(hand))):
        assert other == eager and other.masks == eager.masks and other.value == lazy.value
    with pytest.raises(AttributeError):
        lazy.rear  # noqa: B018


def mb_text(mask: int) -> str:
    return " ".join(str(c) for c in from_mask(mask))


def _copula() -> np.ndarray:
    """The shipped 4-2 joint cells as cumulative shares on the 17³ lattice, read here from the
    file's documented layout (independent of the Rust reader)."""
    blob = _core.maubinh_joint_file()
    length = int.from_bytes(blob[4:8], "little")
    grid = blob[8 + length]
    counts = np.frombuffer(blob[9 + length :], dtype="<u4").reshape(grid, grid, grid).astype(np.float64)
    cdf = np.zeros((grid + 1,) * 3)
    cdf[1:, 1:, 1:] = (counts / counts.sum()).cumsum(0).cumsum(1).cumsum(2)
    return cdf


def _cdf(c: np.ndarray, x: float, y: float, z: float) -> float:
    g = c.shape[0] - 1
    out = 0.0
    cells = [(min(int(u * g), g - 1), u * g - min(int(u * g), g - 1)) for u in (x, y, z)]
    for corner in itertools.product((0, 1), repeat=3):
        weight = 1.0
        for (_, f), d in zip(cells, corner, strict=True):
            weight *= f if d else 1 - f
        out += weight * c[tuple(i + d for (i, _), d in zip(cells, corner, strict=True))]
    return out


def _two_of_three(x: float, y: float, z: float) -> float:
    """P(at least two of three independent events)."""
    return x * y + x * z + y * z - 2 * x * y * z


#: Strengths the 4-2 equilibrium chooses among (``src/maubinh/joint.rs``).
CANDIDATES_42 = 6


def joint_brute_force(cards: list[Card], rules: Rules) -> tuple[int, int, int]:
    """The 4-2 equilibrium's choice, written here: every split's value under the hand's class
    tables with the positions independent, the best split of each strength, the best six of
    those within 0.1 of the first (``CANDIDATES_42``), then the most by the value of the entries corrected for the
    cards held (``_core.maubinh_removal_entries``) plus the copula's correction of the
    majority from them."""
    ranks = split_ranks(cards, rules)
    mask = sum(1 << c.index for c in cards)
    t = _core.maubinh_position_tables(rules.replace(scoring="4-2").core, "equilibrium", mask)
    b, m, f = t["back"][ranks[0]], t["middle"][ranks[1]], t["front"][ranks[2]]
    win, tie, lose, value = 0, 1, 2, 5

    def more(p: int) -> np.ndarray:
        x, y, z = b[:, p], m[:, p], f[:, p]
        tx, ty, tz = b[:, tie], m[:, tie], f[:, tie]
        return np.asarray(x * y + x * z + y * z - 2 * x * y * z + x * ty * tz + tx * y * tz + tx * ty * z)

    v = b[:, value] + m[:, value] + f[:, value] + more(win) - more(lose)
    v = np.where(valid_splits(cards, ranks[0], ranks[1]), v, -np.inf)
    order = np.argsort(-v, kind="stable")
    seen: dict[tuple[int, int, int], float] = {}
    for i in order:
        if not np.isfinite(v[i]) or len(seen) == CANDIDATES_42:
            break
        if v[i] >= v[order[0]] - 0.1:
            seen.setdefault((int(ranks[0][i]), int(ranks[1][i]), int(ranks[2][i])), float(v[i]))
    c = _copula()

    def corrected(strengths: tuple[int, int, int], _table_value: float) -> float:
        rows = _core.maubinh_removal_entries(
            rules.replace(scoring="4-2").core, "equilibrium", mask, strengths
        )
        e = np.array(rows)
        x, y, z = e[:, win]
        tx, ty, tz = e[:, tie]
        lx, ly, lz = e[:, lose]
        more_w = _two_of_three(x, y, z) + x * ty * tz + tx * y * tz + tx * ty * z
        more_l = _two_of_three(lx, ly, lz) + lx * ty * tz + tx * ly * tz + tx * ty * lz
        total = float(e[:, value].sum()) + more_w - more_l
        w = [float(r[win]) for r in rows]
        a = [1 - float(r[lose]) for r in rows]
        pairs_w = _cdf(c, w[0], w[1], 1) + _cdf(c, w[0], 1, w[2]) + _cdf(c, 1, w[1], w[2])
        wins = pairs_w - 2 * _cdf(c, *w) - _two_of_three(*w)
        cbm, cbf, cmf = _cdf(c, a[0], a[1], 1), _cdf(c, a[0], 1, a[2]), _cdf(c, 1, a[1], a[2])
        both = (1 - a[0] - a[1] + cbm) + (1 - a[0] - a[2] + cbf) + (1 - a[1] - a[2] + cmf)
        every = 1 - sum(a) + cbm + cbf + cmf - _cdf(c, *a)
        losses = both - 2 * every - _two_of_three(*(1 - x for x in a))
        return float(total + wins - losses)

    return max(seen, key=lambda s: corrected(s, seen[s]))


def test_the_4_2_equilibrium_is_the_joint_choice_written_here() -> None:
    """Under 4-2 the equilibrium picks, among the tables' best six strengths (within 0.1 of
    the first), the most by the value of its entries corrected for card removal plus the
    copula's correction: against the numpy enumeration above (ties between distinct
    strengths' values have not occurred on these hands)."""
    rules = Rules(scoring="4-2")
    moved = 0
    for cards in random_hands(40, 8):
        if instant_win(cards, rules) is not None:
            continue
        best = best_arrangement(cards, rules, "equilibrium")
        want = joint_brute_force(cards, rules)
        assert ranks_of(best, rules) == want
        moved += ranks_of(best_arrangement(cards, Rules(scoring="4-2"), "expected"), rules) != want
    assert moved  # the hands are not all ones every objective plays alike


@given(st.permutations(range(52)))
def test_the_4_2_equilibrium_reports_its_corrected_value(deck: list[int]) -> None:
    """Its value is the corrected one expected_value gives, the ranking starts with it, and
    every arrangement of a ranking carries its corrected value."""
    rules = Rules(scoring="4-2")
    cards = [Card(i) for i in deck[:13]]
    assume(instant_win(cards, rules) is None)  # then the arrangement is only shown
    best = best_arrangement(cards, rules, "equilibrium")
    ranked = ranked_arrangements(cards, rules, "equilibrium", count=12)
    assert ranked[0] == best and ranked[0].value == best.value
    assert expected_value(best, rules, "equilibrium") == best.value
    # Every listed arrangement carries the value expected_value gives it (the refined one).
    assert all(expected_value(a, rules, "equilibrium") == a.value for a in ranked)


@given(st.permutations(range(52)), st.permutations(range(4)), st.sampled_from(["units", "4-2"]))
def test_the_equilibrium_sees_the_cards_held_alike_whatever_the_suits_are_called(
    deck: list[int], suits: list[int], scoring: str
) -> None:
    """Card removal reads the cards a hand holds, but renaming the suits changes nothing: the
    same value for the best arrangement and the same corrected entries."""
    rules = Rules(scoring=scoring)  # type: ignore[arg-type]
    cards = [Card(i) for i in deck[:13]]
    renamed = [Card(c.index // 4 * 4 + suits[c.index % 4]) for c in cards]
    assume(instant_win(cards, rules) is None)
    best, moved = (
        best_arrangement(cards, rules, "equilibrium"),
        best_arrangement(renamed, rules, "equilibrium"),
    )
    assert best.value == moved.value
    back_class, middle_class, front_class = (int(r) for r in ranks_of(best, rules))
    classes = (back_class, middle_class, front_class)
    mask, moved_mask = (sum(1 << c.index for c in h) for h in (cards, renamed))
    options = (rules.core, "equilibrium")
    assert _core.maubinh_removal_entries(*options, mask, classes) == _core.maubinh_removal_entries(
        *options, moved_mask, classes
    )


def test_removal_entries_correct_the_class_tables_for_the_cards_held() -> None:
    """The equilibrium's entries move with the cards held (two hands of one class of the
    tables get different entries for the same classes); the expected objective's are its
    tables'; a class beyond a position's or a hand of other than 13 cards is refused."""
    rules = Rules(scoring="4-2")
    options = (rules.core,)
    # Same aces, kings, distinct ranks and longest suit; different ranks and suits otherwise.
    a = to_mask("A♠ K♥ Q♦ J♣ 9♠ 8♥ 7♦ 6♣ 5♠ 4♥ 3♦ 2♣ 2♠")
    b = to_mask("A♥ K♠ Q♣ J♦ 10♥ 8♠ 7♣ 6♦ 5♥ 4♠ 3♣ 3♦ 2♥")
    classes = (3000, 2000, 200)
    tables = [_core.maubinh_position_tables(*options, "equilibrium", h) for h in (a, b)]
    for name, c in zip(("back", "middle", "front"), classes, strict=True):
        assert list(tables[0][name][c]) == list(tables[1][name][c])  # one class of the tables
    table = _core.maubinh_position_tables(*options, "expected", a)
    expected = _core.maubinh_removal_entries(*options, "expected", a, classes)
    for p, name in enumerate(("back", "middle", "front")):
        assert expected[p] == pytest.approx(list(table[name][classes[p]]))
    assert _core.maubinh_removal_entries(
        *options, "equilibrium", a, classes
    ) != _core.maubinh_removal_entries(*options, "equilibrium", b, classes)
    for entry in _core.maubinh_removal_entries(*options, "equilibrium", a, classes):
        assert (
            0 <= entry[0] <= 1 and 0 <= entry[1] <= 1 and entry[0] + entry[1] + entry[2] == pytest.approx(1)
        )
    with pytest.raises(RulesError, match="class 455"):
        _core.maubinh_removal_entries(*options, "equilibrium", a, (0, 0, 455))
    with pytest.raises(IllegalMoveError):
        _core.maubinh_removal_entries(*options, "equilibrium", a & (a - 1), classes)
