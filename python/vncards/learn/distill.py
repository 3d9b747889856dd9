"""Teacher data for distilling a search bot into the policy network (``vncards train
--distill BOT``): hands played by four copies of the teacher, and at each decision with a
choice the seat's observation, every legal action's row and the teacher's pick. No ML library
is needed here: the arrays are numpy, the training is :mod:`vncards.learn.train`.

The rows are those the Rust core scores (``_core.PolicyNet``): the learning environments'
observation of the seat's view and, per legal action, the cards it puts down and its flags
(pass, declare Sâm, decline; in Tứ Sắc discard, claim, win, pass, then the meld cells, which
the core writes: ``_core.policy_tusac_rows``), so a network trained on them plays the same in
the ``policy`` bot.

With ``targets="values"`` (``--distill-targets values``) each decision also keeps what the
teacher's search found for every action it raced: ``values``, its mean score in units (NaN for
an action it did not race), and ``samples``, the deals it was played on: far more to learn from
than the pick alone, since the network itself scores each action in units.

Every hand is dealt from its own seed and its teachers seeded from it, so the data of ``n``
hands is the same whether they are made at once or in parts (``start``).

>>> data = teacher_data("tienlen", 4, {}, "greedy", hands=2, seed=1)
>>> data["obs"].shape[1], data["rows"].shape[1], len(data["offsets"]) == len(data["choice"]) + 1
(384, 55, True)
>>> bool((data["choice"] < np.diff(data["offsets"])).all())
True
>>> scored = teacher_data("tienlen", 4, {}, "search:rollouts=40", hands=1, seed=1, targets="values")
>>> len(scored["values"]) == len(scored["rows"]) == len(scored["samples"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from .. import _core, games
from ..bots.strength import parse_bot
from ..bots.view_parts import tusac_parts
from ..integrations.encoding import action_cards, observation
from .config import check_searching_teacher

__all__ = ["teacher_data", "action_rows", "deal_seeds", "merge", "TARGETS"]

#: What the teacher data keeps of each decision (``--distill-targets``): the teacher's pick
#: alone, or also its search's mean score of every action it raced.
TARGETS = ("choice", "values")

Arrays = dict[str, npt.NDArray[Any]]
_SHEDDING_FLAGS = ("pass", "declare_sam", "decline_sam")


class _Scoring(Protocol):
    """A teacher that gives its search's values (the search bots' ``scored_choice``)."""

    def scored_choice(
        self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]
    ) -> tuple[dict[str, Any], list[float | None], list[int]]: ...


def action_rows(
    game: str, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]
) -> npt.NDArray[np.float32]:
    """The feature row of each of ``legal`` (one per action), as the Rust core writes them."""
    if game == "tusac":
        players = len(view["hand_counts"])
        acts = [(str(a["type"]), a.get("cards", a.get("card"))) for a in legal]
        return np.asarray(_core.policy_tusac_rows(tusac_parts(view, players), acts), np.float32)
    rows = action_cards(game, legal).astype(np.float32)
    flags = np.array([[a["type"] == t for t in _SHEDDING_FLAGS] for a in legal], np.float32)
    return np.hstack([rows, flags])


def deal_seeds(seed: int, hands: int) -> list[int]:
    """The deal seeds of the teacher's hands (63-bit: no small-integer seed a benchmark uses)."""
    rng = np.random.default_rng([seed, 0xD157])
    return [int(s) for s in rng.integers(0, 2**63 - 1, size=hands, dtype=np.int64)]


def teacher_data(
    game: str,
    players: int,
    options: Mapping[str, Any],
    teacher: str,
    *,
    hands: int,
    seed: int,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
    targets: str = "choice",
) -> Arrays:
    """Hands ``start`` to ``hands - 1`` of the run seeded ``seed``, each played by four
    ``teacher`` bots (a bot as ``bench-bots`` names it, e.g. ``"search:rollouts=600"``):
    ``obs`` (float16, a row per decision with a choice), ``rows`` (float16, a row per legal
    action of those decisions), ``offsets`` (decision ``i``'s rows are
    ``offsets[i]:offsets[i + 1]``), ``choice`` (the teacher's pick among them) and ``hands``
    (how many hands the arrays hold). ``progress(hand)`` is called after each hand.
    ``targets="values"`` adds ``values`` and ``samples`` (a row per legal action: the
    teacher's search's mean score, NaN where it did not race the action, and its deals); the
    teacher must then be a search bot (``search`` or a level that searches)."""
    from ..bots import make_bot
    from ..errors import RulesError

    if targets not in TARGETS:
        raise RulesError(f"distill targets are {', '.join(TARGETS)}; not {targets!r}")
    if targets == "values":  # refused before any hand is played
        check_searching_teacher(game, players, options, teacher, targets)
    name, bot_options = parse_bot(teacher)
    rules = games.spec(game).rules(dict(options))
    seeds = deal_seeds(seed, hands)
    obs: list[npt.NDArray[np.float32]] = []
    rows: list[npt.NDArray[np.float32]] = []
    counts: list[int] = []
    choice: list[int] = []
    values: list[npt.NDArray[np.float32]] = []
    samples: list[npt.NDArray[np.int32]] = []
    for h in range(start, hands):
        g = games.new_game(game, players, rules, seed=seeds[h])
        bots = [
            make_bot(name, game, seed=seeds[h] ^ (s + 1), rules=rules, players=players, **bot_options)
            for s in range(players)
        ]
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            view = g.view(seat)
            if targets == "values":
                pick, scores, deals = cast(_Scoring, bots[seat]).scored_choice(view, legal)
                values.append(np.array([np.nan if x is None else x for x in scores], np.float32))
                samples.append(np.asarray(deals, np.int32))
            else:
                pick = bots[seat].choose(view, legal)
            obs.append(observation(view, players))
            rows.append(action_rows(game, view, legal))
            counts.append(len(legal))
            choice.append(legal.index(pick))
            g.apply(pick)
        if progress is not None:
            progress(h + 1)
    width = int(rows[0].shape[1]) if rows else 0
    data: Arrays = {
        "obs": np.asarray(obs, np.float16).reshape(len(obs), -1),
        "rows": (np.concatenate(rows) if rows else np.zeros((0, width))).astype(np.float16),
        "offsets": np.concatenate([[0], np.cumsum(counts, dtype=np.int64)]).astype(np.int64),
        "choice": np.asarray(choice, np.int32),
        "hands": np.asarray(hands - start, np.int64),
    }
    if targets == "values":
        data["values"] = np.concatenate(values) if values else np.zeros(0, np.float32)
        data["samples"] = np.concatenate(samples) if samples else np.zeros(0, np.int32)
    return data


def merge(parts: Sequence[Arrays]) -> Arrays:
    """The data of consecutive parts as one (the offsets renumbered)."""
    parts = [p for p in parts if len(p["choice"])]
    if not parts:
        raise ValueError("no teacher decisions to merge")
    offsets = [parts[0]["offsets"]]
    at = int(parts[0]["offsets"][-1])
    for p in parts[1:]:
        offsets.append(p["offsets"][1:] + at)
        at += int(p["offsets"][-1])
    merged = {
        "obs": np.concatenate([p["obs"] for p in parts]),
        "rows": np.concatenate([p["rows"] for p in parts]),
        "offsets": np.concatenate(offsets),
        "choice": np.concatenate([p["choice"] for p in parts]),
        "hands": np.asarray(sum(int(p["hands"]) for p in parts), np.int64),
    }
    if any("values" in p for p in parts):
        if not all("values" in p for p in parts):
            raise ValueError("cannot merge teacher data with values and without")
        merged["values"] = np.concatenate([p["values"] for p in parts])
        merged["samples"] = np.concatenate([p["samples"] for p in parts])
    return merged
