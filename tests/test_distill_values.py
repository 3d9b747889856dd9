"""Distilling a search's values (``vncards train --distill-targets values`` or ``soft``): the
values the teacher data records are those the search computed for the position (a spy on the
Rust search's answers), a guided search (the Nam ``expert``) records its guided race, the
recording does not change the teacher's play, the whole run through the CLI as a person types it
(and a stopped run resumed to the same weights), and the errors for options no run can use."""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
import pytest

from support.tree import source_tree
from vncards import _core, games
from vncards.bots import search as search_module
from vncards.errors import RulesError
from vncards.learn.config import DISTILL_TARGETS, TrainConfig, check
from vncards.learn.distill import merge, teacher_data

HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("optax") is not None
NEEDS_TRAIN = pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")


def test_recorded_values_are_the_means_the_search_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Differential: every decision's recorded values and deals are, action for action, the
    means and deals the Rust search returned for its candidates (the spy maps each candidate's
    cards, or None for a pass, to its answer)."""
    answers: list[dict[int | None, tuple[float, int]]] = []
    real = _core.search_shedding

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        _best, means, samples, _spent = out
        answers.append(dict(zip(kwargs["candidates"], zip(means, samples, strict=True), strict=True)))
        return out

    monkeypatch.setattr(search_module, "search_shedding", spy)
    data = teacher_data("tienlen", 4, {}, "search:rollouts=60", hands=2, seed=3, targets="values")
    assert len(answers) == len(data["choice"]) > 10
    rows, values, samples = data["rows"].astype(np.float32), data["values"], data["samples"]
    for i, answer in enumerate(answers):
        lo, hi = int(data["offsets"][i]), int(data["offsets"][i + 1])
        raced = 0
        for r in range(lo, hi):
            cards = rows[r, :52]
            passes = bool(rows[r, 52])
            mask = None if passes else int(sum(1 << int(k) for k in np.flatnonzero(cards)))
            if mask in answer:
                mean, deals = answer[mask]
                assert values[r] == np.float32(mean) and samples[r] == deals
                raced += 1
            else:
                assert np.isnan(values[r]) and samples[r] == 0
        assert raced == len(answer)
        # With few legal actions every one is raced.
        if hi - lo <= search_module.TienLenSearchBot.MAX_CANDIDATES:
            assert raced == hi - lo


def test_card_columns_are_the_mask_bits() -> None:
    """The test above reads a row's first 52 columns as the card mask's bits."""
    from vncards.integrations.encoding import action_cards

    game = games.new_game("tienlen", 4, seed=1)
    plays = [a for a in game.legal_actions(game.pending_seats[0]) if a["type"] == "play"]
    assert plays
    for play, row in zip(plays, action_cards("tienlen", plays), strict=True):
        assert int(sum(1 << int(k) for k in np.flatnonzero(row[:52]))) == _core.cards_to_mask(play["cards"])


def test_a_guided_search_records_its_guided_race_and_plays_as_it_chooses() -> None:
    """The Nam ``expert`` decides with its guided options where the policy's weights fit: the
    values recorded are that race's; and recording them changes no decision."""
    rules = games.spec("tienlen").rules({})
    options: dict[str, Any] = {
        "rollouts": 30,
        "tree": "own_seat",
        "guided": {"rollouts": 24, "policy_rollouts": True},
    }
    recorder = search_module.TienLenSearchBot(5, rules, **options)
    twin = search_module.TienLenSearchBot(5, rules, **options)
    assert recorder.guided is not None
    game = games.new_game("tienlen", 4, rules, seed=8)
    seen = 0
    while not game.is_over and seen < 6:
        seat = game.pending_seats[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1:
            view = game.view(seat)
            pick, values, deals = recorder.scored_choice(view, legal)
            assert pick == twin.choose(view, legal)
            assert recorder.guided._raced is not None and recorder._raced is None
            _, means, samples = recorder.guided._raced
            got = sorted((v, n) for v, n in zip(values, deals, strict=True) if v is not None)
            assert got == sorted((float(m), int(n)) for m, n in zip(means, samples, strict=True))
            seen += 1
            game.apply(pick)
        else:
            game.apply(legal[0])
    assert seen == 6


class _Copies(Sequence[dict[str, Any]]):
    """A legal list that hands out a fresh copy of an action at every read (as a list built on
    demand would): the same actions, none of them the same object twice."""

    def __init__(self, actions: Sequence[dict[str, Any]]) -> None:
        self._actions = list(actions)

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        return copy.deepcopy(self._actions[i])

    def __len__(self) -> int:
        return len(self._actions)


def test_scored_choice_maps_the_race_by_place_in_the_legal_list() -> None:
    """The values land on the actions raced, read by their place in the legal list, not by
    object identity: a legal list whose reads are fresh copies gives the same pick, values and
    deals as the list itself."""
    rules = games.spec("tienlen").rules({})
    plain = search_module.TienLenSearchBot(9, rules, rollouts=40)
    copied = search_module.TienLenSearchBot(9, rules, rollouts=40)
    game = games.new_game("tienlen", 4, rules, seed=12)
    seen = 0
    while not game.is_over and seen < 8:
        seat = game.pending_seats[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1:
            view = game.view(seat)
            pick, values, deals = plain.scored_choice(view, legal)
            assert copied.scored_choice(view, _Copies(legal)) == (pick, values, deals)
            assert sum(v is not None for v in values) >= 2 and sum(deals) > 0
            seen += 1
            game.apply(pick)
        else:
            game.apply(legal[0])
    assert seen == 8


def test_values_data_made_in_parts_is_the_data_made_at_once() -> None:
    whole = teacher_data("tienlen", 4, {}, "search:rollouts=30", hands=2, seed=4, targets="values")
    parts = merge(
        [
            teacher_data(
                "tienlen", 4, {}, "search:rollouts=30", hands=k + 1, seed=4, start=k, targets="values"
            )
            for k in (0, 1)
        ]
    )
    assert whole.keys() == parts.keys() >= {"values", "samples"}
    for key, value in whole.items():
        np.testing.assert_array_equal(value, parts[key], err_msg=key)
    with pytest.raises(ValueError, match="with values and without"):
        merge([whole, teacher_data("tienlen", 4, {}, "greedy", hands=1, seed=4)])


def test_values_need_a_searching_teacher_and_known_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RulesError, match="needs a search bot"):
        teacher_data("tienlen", 4, {}, "greedy", hands=1, seed=1, targets="values")

    # Refused before any work: no hand is dealt, and a call that would play none is refused too.
    def no_hands(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a hand was dealt before the teacher was checked")

    monkeypatch.setattr(games, "new_game", no_hands)
    with pytest.raises(RulesError, match="needs a search bot"):
        teacher_data("tienlen", 4, {}, "greedy", hands=3, seed=1, targets="values")
    with pytest.raises(RulesError, match="needs a search bot"):
        teacher_data("tienlen", 4, {}, "greedy", hands=3, seed=1, start=3, targets="values")
    monkeypatch.undo()
    with pytest.raises(RulesError, match="distill targets are choice, values"):
        teacher_data("tienlen", 4, {}, "greedy", hands=1, seed=1, targets="soft")
    base: dict[str, Any] = {"distill": "hard", "distill_hands": 2, "distill_steps": 2}
    check(TrainConfig("tienlen", 0, distill_targets="soft", **base))
    with pytest.raises(RulesError, match="distill_targets must be one of choice, values, soft"):
        check(TrainConfig("tienlen", 0, distill_targets="argmax", **base))
    with pytest.raises(RulesError, match="distill_temperature must be positive"):
        check(TrainConfig("tienlen", 0, distill_targets="soft", distill_temperature=0.0, **base))
    with pytest.raises(RulesError, match="needs a teacher"):
        check(TrainConfig("tienlen", 4, distill_targets="values"))
    assert TrainConfig.from_dict(TrainConfig("tienlen", 0, distill_targets="soft", **base).to_dict()) == (
        TrainConfig("tienlen", 0, distill_targets="soft", **base)
    )


@source_tree
def test_the_cli_lists_the_distill_targets_the_config_knows() -> None:
    # The CLI writes the targets out (importing them would import numpy with it): the same.
    cli = (Path(__file__).parents[1] / "python/vncards/cli/train.py").read_text()
    assert "choices=(" + ", ".join(f'"{t}"' for t in DISTILL_TARGETS) + ")," in cli


# -- vncards train, as a person types it ------------------------------------------------------


def _train(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vncards", "train", *args], capture_output=True, text=True, timeout=300
    )


TINY = shlex.split(
    "--tiny --seed 2 --hands 4 --updates 2 --batch 32 --eval-deals 2 --eval-every 10 --lr 0.003"
)


@NEEDS_TRAIN
@pytest.mark.parametrize("targets", ["values", "soft"])
def test_vncards_train_distills_search_values_as_a_person_types_it(targets: str, tmp_path: Path) -> None:
    teacher = shlex.split(
        f"--distill search:rollouts=30 --distill-targets {targets} --distill-temperature 2 "
        "--distill-hands 2 --distill-steps 20 --distill-batch 8"
    )
    whole = tmp_path / "whole.vnpolicy"
    done = _train("tienlen", "--steps", "0", "--out", str(whole), *TINY, *teacher)
    assert done.returncode == 0, done.stderr
    prov = json.loads(_core.PolicyNet.from_bytes(whole.read_bytes()).provenance)
    assert prov["config"]["distill_targets"] == targets and prov["teacher_hands"] == 2
    assert prov["method"].startswith("distillation of search:rollouts=30's search values")
    assert f"--distill-targets {targets}" in prov["command"]
    assert prov["return_scale"] >= 1.0  # the teacher's values fixed it: the file scores in units
    losses = json.loads(bytes(np.load(tmp_path / "whole.ckpt.npz")["meta"]).decode())["losses"]
    assert len(losses) == 20 and np.mean(losses[-5:]) < np.mean(losses[:5])  # it learns the values
    teacher_file = np.load(tmp_path / "whole.teacher.npz")
    assert np.isfinite(teacher_file["values"]).mean() > 0.5


@NEEDS_TRAIN
def test_a_stopped_values_run_resumes_to_the_same_weights(tmp_path: Path) -> None:
    """A run stopped after its first checkpoint and resumed gives the uninterrupted run's weights."""
    teacher = shlex.split(
        "--distill search:rollouts=30 --distill-targets values --distill-hands 2 --distill-steps 20 --distill-batch 8"
    )
    args = ["--steps", "4", *TINY, *teacher]
    whole, stopped = tmp_path / "whole.vnpolicy", tmp_path / "stopped.vnpolicy"
    assert _train("tienlen", "--out", str(whole), *args).returncode == 0
    # Stopped: a run of fewer self-play steps is the same run up to its end (steps may change).
    assert _train("tienlen", "--out", str(stopped), *args[2:], "--steps", "2").returncode == 0
    done = _train("tienlen", "--out", str(stopped), "--resume", str(tmp_path / "stopped.ckpt.npz"), *args)
    assert done.returncode == 0, done.stderr
    assert (
        _core.PolicyNet.from_bytes(stopped.read_bytes()).data()
        == _core.PolicyNet.from_bytes(whole.read_bytes()).data()
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        # The CLI reads the options' values before it asks for the train extra.
        (["--distill", "greedy", "--distill-targets", "values"], "the teacher 'greedy' does not search"),
        (["--distill-targets", "values"], "needs a teacher (--distill)"),
        (
            ["--distill", "hard", "--distill-targets", "soft", "--distill-temperature", "-1"],
            "distill_temperature must be positive",
        ),
        (["--distill", "hard", "--distill-targets", "best"], "invalid choice: 'best'"),
    ],
)
def test_vncards_train_refuses_distill_targets_it_cannot_use(
    flags: list[str], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "x.vnpolicy"
    hands = ["--distill-hands", "1", "--distill-steps", "1"] if "--distill" in flags else []
    done = _train("tienlen", "--steps", "1", "--out", str(out), "--tiny", *hands, *flags)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not out.exists()


# JAX, optax and numpy made unimportable, as where only vncards is installed.
WITHOUT_TRAIN = (
    "import runpy, sys; sys.modules['jax'] = sys.modules['optax'] = sys.modules['numpy'] = None; "
    "sys.argv = ['vncards', *sys.argv[1:]]; runpy.run_module('vncards', run_name='__main__')"
)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--distill", "greedy", "--distill-targets", "values"], "the teacher 'greedy' does not search"),
        (["--lr", "-1"], "lr must be positive"),
        (["--opponents", "greedy:0.5,random:0.2"], "opponents may be greedy, policy; not 'random'"),
        ([], "vncards train needs the train extra (numpy is missing)"),
    ],
)
def test_vncards_train_refuses_a_bad_option_with_its_reason_without_the_train_extra(
    flags: list[str], message: str, tmp_path: Path
) -> None:
    """Without JAX (nor numpy) a bad option is refused for what is wrong with it; only a run whose options
    are good is told to install the train extra."""
    out = tmp_path / "x.vnpolicy"
    hands = ["--distill-hands", "1", "--distill-steps", "1"] if "--distill" in flags else []
    args = ["train", "tienlen", "--steps", "1", "--out", str(out), "--tiny", *hands, *flags]
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_TRAIN, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not out.exists()


@NEEDS_TRAIN
def test_the_teacher_set_saved_as_it_grows_is_the_set_made_at_once(tmp_path: Path) -> None:
    """``vncards train``'s teacher set, made 50 hands at a time and merged only when saved,
    is the set made at once, whether it is saved after every part or once; a run of fewer
    hands saved before is resumed, not made anew."""
    from vncards.learn.train import _teacher

    hands = 120  # three parts: 50, 50, 20
    cfg = TrainConfig("tienlen", 0, distill="greedy", distill_hands=hands, distill_steps=1, seed=6)
    whole = teacher_data("tienlen", 4, {}, "greedy", hands=hands, seed=6)
    reported: list[int] = []
    every_part = _teacher(cfg, tmp_path / "a.npz", 0.0, reported.append)
    once = _teacher(cfg, tmp_path / "b.npz", float("inf"), lambda done: None)
    assert reported == [50, 100, 120]
    first = _teacher(dataclasses.replace(cfg, distill_hands=50), tmp_path / "c.npz", 0.0, lambda done: None)
    resumed: list[int] = []
    grown = _teacher(cfg, tmp_path / "c.npz", 0.0, resumed.append)
    assert resumed == [100, 120] and int(first["hands"]) == 50
    for made in (every_part, once, grown):
        assert made.keys() == whole.keys()
        for key, value in whole.items():
            np.testing.assert_array_equal(value, made[key], err_msg=key)
