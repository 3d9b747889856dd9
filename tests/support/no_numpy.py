"""The core without numpy: every game plays to the end and the batch functions that take lists
work, while those that return arrays raise ``ModuleNotFoundError`` naming the ``numpy`` extra.

Run as a program (no pytest needed): ``make check-wheel`` runs it in a fresh environment where
only the wheel and its runtime dependencies are installed, so numpy is truly absent;
tests/test_packaging.py runs it with ``--block-numpy``, which makes ``import numpy`` fail.
"""

import importlib
import importlib.util
import sys
from collections.abc import Callable

if "--block-numpy" in sys.argv:
    sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` now fails
elif importlib.util.find_spec("numpy") is not None:
    raise SystemExit("numpy is installed: run with --block-numpy")

from vncards import games, maubinh, tienlen
from vncards._core import encode_card_rows
from vncards.bots import make_bot
from vncards.simulate import simulate

# Every game plays to the end, with bots, snapshots and settlement.
for name in ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]:
    game = games.new_game(name, players=4, seed=3)
    bots = [make_bot("greedy", name, seed=s) for s in range(4)]
    while not game.is_over:
        seat = game.pending_seats[0]
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    game = games.from_json(game.to_json())
    assert game.settlement is not None and sum(game.settlement) == 0, name
result = simulate("samloc", 6, ["montecarlo", "greedy", "random"], seed=1, jobs=1)
assert sum(s.units for s in result.bots.values()) == 0
# The learned policy plays with its shipped weights: no numpy, no ML library.
result = simulate("tienlen", 4, ["policy", "greedy", "policy", "greedy"], seed=1, jobs=1)
assert sum(s.units for s in result.bots.values()) == 0 and "jax" not in sys.modules
# The search whose rollouts the policy plays (the expert level's kind), and its fallback
# where no weights ship (Sâm Lốc): no numpy either.
for name in ["tienlen", "samloc"]:
    game = games.new_game(name, players=4, seed=5)
    bots = [make_bot("search", name, seed=s, rollouts=12, policy_rollouts=True, prior=1.0) for s in range(4)]
    while not game.is_over:
        seat = game.pending_seats[0]
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    assert game.settlement is not None and sum(game.settlement) == 0, name

# Batch functions that take lists work; the ones that return arrays raise a typed error.
hand = "A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠"
assert len(maubinh.best_arrangements([hand, hand])) == 2
assert len(tienlen.legal_plays("3♠ 4♠ 5♠ 9♥")) > 0
needs_numpy: dict[str, Callable[[], object]] = {
    "maubinh.hand_ranks": lambda: maubinh.hand_ranks(["A♠ K♠ Q♠ J♠ 10♠"]),
    "maubinh.position_tables": lambda: maubinh.position_tables(),
    "tienlen.legal_play_masks": lambda: tienlen.legal_play_masks("3♠ 4♠ 5♠ 9♥"),
    "encode_card_rows": lambda: encode_card_rows(["3♠"]),
}
for what, call in needs_numpy.items():
    try:
        call()
    except ModuleNotFoundError as e:
        assert e.name == "numpy" and what in str(e) and "vncards[numpy]" in str(e), (what, e)
    else:
        raise AssertionError(f"{what} returned without numpy")
try:
    importlib.import_module("vncards.maubinh.tables")
except ModuleNotFoundError as e:
    assert e.name == "numpy" and "vncards[numpy]" in str(e), e
else:
    raise AssertionError("vncards.maubinh.tables imported without numpy")
print("ok")
