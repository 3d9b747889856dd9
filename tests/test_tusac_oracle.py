"""``benches/tusac_oracle.py``: the true-hand values of the Tứ Sắc search's departures from the
policy (the learning guide's diagnosis of issue 33). Small runs: the candidates it values are
the search's own, in the policy's order; a candidate that wins at once is worth its
settlement on every deal; the values are the same for the same seeds; the summary reads the
file it writes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from support.tree import source_tree
from vncards.bots import make_bot
from vncards.bots.base import Turn
from vncards.games import new_game

ROOT = Path(__file__).resolve().parent.parent
SMALL = "rollouts=24:policy_rollouts=true:policy_top=3:keep_first=1.5:policy_value=2:policy_margin=1.0"


def _oracle() -> Any:
    spec_ = importlib.util.spec_from_file_location("tusac_oracle", ROOT / "benches" / "tusac_oracle.py")
    assert spec_ and spec_.loader
    mod = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(mod)
    return mod


def _position(seed: int, steps: int) -> tuple[Any, int]:
    """A position of four ``hard`` seats after ``steps`` actions with a choice to make."""
    game = new_game("tusac", players=4, seed=seed)
    hard: list[Any] = [make_bot("hard", "tusac", s, game.rules) for s in range(4)]
    for _ in range(steps):
        seat = game.pending_seats[0]
        game.apply(hard[seat].act(Turn(game, seat)))
    while True:
        seat = game.pending_seats[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1 and not any(a["type"] == "win" for a in legal):
            return game, seat
        game.apply(hard[seat].act(Turn(game, seat)))


@source_tree
def test_the_values_are_of_the_searchs_candidates_in_the_policys_order() -> None:
    mod = _oracle()
    game, seat = _position(3, 25)
    legal = game.legal_actions(seat)
    policy = make_bot("policy", "tusac", rules=game.rules)
    scores = policy.scores(Turn(game, seat).view, legal)
    best3 = sorted(range(len(legal)), key=lambda i: -scores[i])[:3]
    capture = mod.factory(mod.CAPTURE, game.rules)(1)
    with mod.captured_calls() as calls:
        cands, values = mod.true_values(game, seat, capture, calls, 5)
        again = mod.true_values(game, seat, capture, calls, 5)
    assert cands == [mod.candidate(legal[i]) for i in best3]
    assert len(values) == len(cands) and all(len(v) == 5 for v in values)
    assert again == (cands, values)
    # Settlements in whole units (played out to the hand's end, not cut at the policy's value).
    assert all(float(x).is_integer() for v in values for x in v)


@source_tree
def test_a_hand_writes_one_line_and_the_summary_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = _oracle()
    configs = {"C": f"search:{SMALL}", "cheat": f"cheating:{SMALL}"}
    with mod.captured_calls() as calls:
        hand = mod.play(5, 0, configs, 3, calls)
    assert hand["decisions"] > 0 and set(hand["cpu"]) == {"C", "cheat"}
    assert hand["rows"]  # this hand has a departure (the cheating race's)
    for r in hand["rows"]:
        assert r["policy"] == 0  # the policy's choice heads the candidates
        assert any(c != 0 for c in r["choice"].values())  # valued only where one departs
        assert all(len(s) == 3 for s in r["scores"])
    out = tmp_path / "o.jsonl"
    out.write_text(json.dumps(hand) + "\n", encoding="utf-8")
    mod.summary([str(out)])
    text = capsys.readouterr().out
    assert "1 hands" in text and "| C |" in text and "| cheat |" in text
