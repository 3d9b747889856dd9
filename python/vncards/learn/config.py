"""The settings of a ``vncards train`` run (no ML library needed to read or check them: the
training itself is :mod:`vncards.learn.train`).

>>> cfg = TrainConfig("tienlen", 100, epsilon=0.05, epsilon_start=0.45, decay_steps=40)
>>> [round(cfg.epsilon_at(s), 2) for s in (0, 20, 40, 80)]
[0.45, 0.25, 0.05, 0.05]
>>> TrainConfig.from_dict(cfg.to_dict()) == cfg
True
>>> parse_opponents("greedy:0.5")
(('greedy', 0.5),)
>>> parse_opponents("greedy:0.3,policy:weights=old.vnpolicy:0.2")
(('greedy', 0.3), ('policy:weights=old.vnpolicy', 0.2))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import RulesError

if TYPE_CHECKING:
    from .model import Architecture  # numpy's: imported where a run asks for it

__all__ = [
    "TrainConfig",
    "GAMES",
    "OPPONENTS",
    "DISTILL_TARGETS",
    "check",
    "parse_opponents",
    "frozen_weights",
]

#: The games ``vncards train`` trains.
GAMES = ("tienlen", "tienlen-north", "samloc", "tusac")
#: The bots that may play seats of the self-play hands besides the learner (``--opponents``),
#: and the games whose Rust self-play has them. ``policy`` is a frozen network: the shipped
#: weights, or ``policy:weights=FILE`` (an earlier run's, for a league).
OPPONENTS = {"greedy": ("tienlen", "tienlen-north", "tusac"), "policy": GAMES}


#: What distillation learns of each decision of the teacher (``--distill-targets``):
#: ``choice``, its pick (cross-entropy of the legal actions' scores, read as logits);
#: ``values``, the mean score its search found for each action it raced (squared error of the
#: network's score, in units, weighted by the deals behind each mean: n / (n + 16));
#: ``soft``, a distribution over the legal actions, the softmax of those means divided by
#: ``distill_temperature`` (cross-entropy of the scores times the same temperature's inverse,
#: so the scores stay in units up to a constant per decision). The last two need a teacher
#: that searches; a decision it took without a race (none in Tiến Lên Nam) is learned as its pick.
DISTILL_TARGETS = ("choice", "values", "soft")


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """One training run's settings (everything that changes its figures)."""

    game: str
    steps: int
    seed: int = 0
    players: int = 4
    options: tuple[tuple[str, Any], ...] = ()
    hands: int = 64
    updates: int = 4
    batch: int = 512
    lr: float = 3e-4
    epsilon: float = 0.05
    epsilon_start: float | None = None
    lr_end: float | None = None
    decay_steps: int = 0
    return_scale: float = 0.0
    distill: str | None = None
    distill_hands: int = 0
    distill_steps: int = 0
    distill_batch: int = 256
    #: What distillation learns of each teacher decision (:data:`DISTILL_TARGETS`).
    distill_targets: str = "choice"
    #: The temperature, in units, of ``distill_targets="soft"``'s distribution over the
    #: teacher's values (a softmax of value / temperature).
    distill_temperature: float = 1.0
    #: ``(bot, share)`` pairs: each seat of each self-play hand is played by ``bot`` with
    #: probability ``share`` (drawn per seat; the rest of the seats play and learn).
    opponents: tuple[tuple[str, float], ...] = ()
    #: A weights file (``.vnpolicy``) to start from instead of random weights: its layers, of
    #: this game, table and sizes (the optimizer starts afresh).
    init: str | None = None
    tower: tuple[int, ...] = (256, 128)
    join: int = 128
    head: tuple[int, ...] = (32,)
    eval_every: int = 2000
    eval_deals: int = 100
    eval_seed: int = 900_000

    @property
    def arch(self) -> Architecture:
        """The network's layer widths."""
        from .model import Architecture

        return Architecture(self.tower, self.join, self.head)

    def epsilon_at(self, step: int) -> float:
        """The exploration rate at ``step``: ``epsilon_start`` going linearly to ``epsilon``
        over ``decay_steps`` (``epsilon`` throughout without them)."""
        if self.epsilon_start is None or self.decay_steps == 0:
            return self.epsilon
        frac = min(1.0, step / self.decay_steps)
        return self.epsilon_start + (self.epsilon - self.epsilon_start) * frac

    @property
    def rounds(self) -> int:
        """Rounds of self-play and updates: ``steps`` rounded up to whole rounds."""
        return -(-self.steps // self.updates)

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values (kept in checkpoints and weights files)."""
        d = dataclasses.asdict(self)
        d["options"] = dict(self.options)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        """The settings ``to_dict`` made."""
        d = dict(d)
        d.setdefault("return_scale", 1.0)  # checkpoints from before the scale learned raw units
        d["options"] = tuple(sorted(d.get("options", {}).items()))
        d["opponents"] = tuple((str(b), float(p)) for b, p in d.get("opponents", ()))
        for k in ("tower", "head"):
            d[k] = tuple(d[k])
        return cls(**d)


def parse_opponents(text: str) -> tuple[tuple[str, float], ...]:
    """``--opponents`` written ``greedy:0.5`` (``BOT:SHARE`` pairs, comma-separated, the share
    after the last colon, as in ``policy:weights=FILE:0.2``; ``self:S`` may name the learner's
    own share, which is the rest): the ``(bot, share)`` pairs of
    :attr:`TrainConfig.opponents`, checked by :func:`check`."""
    pairs: list[tuple[str, float]] = []
    for part in text.split(","):
        bot, sep, share = part.strip().rpartition(":")
        try:
            value = float(share)
        except ValueError:
            value = float("nan")
        if not sep or value != value:
            raise RulesError(f"write opponents as BOT:SHARE pairs, e.g. greedy:0.5; not {part!r}")
        pairs.append((bot, value))
    learner = [p for b, p in pairs if b == "self"]
    others = tuple((b, p) for b, p in pairs if b != "self")
    total = sum(p for _, p in pairs)
    if learner and abs(total - 1.0) > 1e-9:
        raise RulesError(f"the shares of {text!r} must add up to 1 when self's is given, not {total:g}")
    return others


def check(cfg: TrainConfig) -> None:
    """Refuses settings no run can use (a ``RulesError`` naming the setting)."""
    if cfg.game not in GAMES:
        raise RulesError(f"vncards train trains {', '.join(GAMES)}; not {cfg.game!r}")
    if (cfg.distill is None) != (cfg.distill_steps == 0) or (cfg.distill_steps == 0) != (
        cfg.distill_hands == 0
    ):
        raise RulesError("distilling takes a teacher bot, its hands and the steps, all three (or none)")
    for name in ("steps", "hands", "updates", "batch", "eval_every", "eval_deals", "distill_batch"):
        v = getattr(cfg, name)
        least = 0 if name == "steps" and cfg.distill_steps else 1  # a run may only distill
        if isinstance(v, bool) or not isinstance(v, int) or v < least:
            raise RulesError(f"{name} must be a positive int, not {v!r}")
    for name in ("distill_hands", "distill_steps"):
        v = getattr(cfg, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise RulesError(f"{name} must be a non-negative int, not {v!r}")
    if cfg.distill_targets not in DISTILL_TARGETS:
        raise RulesError(
            f"distill_targets must be one of {', '.join(DISTILL_TARGETS)}, not {cfg.distill_targets!r}"
        )
    if not cfg.distill_temperature > 0.0:
        raise RulesError(f"distill_temperature must be positive, not {cfg.distill_temperature}")
    if cfg.distill_targets != "choice" and cfg.distill is None:
        raise RulesError(f"distill_targets {cfg.distill_targets!r} needs a teacher (--distill)")
    if cfg.seed < 0:
        raise RulesError(f"seed must be a non-negative int, not {cfg.seed}")
    for name in ("epsilon", "epsilon_start"):
        v = getattr(cfg, name)
        if v is not None and not 0.0 <= v <= 1.0:
            raise RulesError(f"{name} must be in [0, 1], not {v}")
    if cfg.decay_steps < 0:
        raise RulesError(f"decay_steps must be a non-negative int, not {cfg.decay_steps}")
    for name in ("lr", "lr_end"):
        v = getattr(cfg, name)
        if v is not None and not v > 0.0:
            raise RulesError(f"{name} must be positive, not {v}")
    bots = [b for b, _ in cfg.opponents]
    if len({b.partition(":")[0] for b in bots}) < len(bots):
        raise RulesError(f"opponents names each bot once (one frozen network): {cfg.opponents}")
    for bot, share in cfg.opponents:
        frozen_weights(bot)
        bot = bot.partition(":")[0]
        if bot not in OPPONENTS:
            raise RulesError(f"opponents may be {', '.join(OPPONENTS)}; not {bot!r}")
        if cfg.game not in OPPONENTS[bot]:
            raise RulesError(
                f"{bot} opponents play in the self-play of {', '.join(OPPONENTS[bot])} only, not {cfg.game}"
            )
        if not 0.0 < share < 1.0:
            raise RulesError(f"an opponent's share must be in (0, 1), not {share}")
    if len(set(bots)) < len(bots) or sum(p for _, p in cfg.opponents) >= 1.0:
        raise RulesError(f"opponents names each bot once, with shares below 1 in all: {cfg.opponents}")
    if not cfg.return_scale >= 0.0:
        raise RulesError(
            f"return_scale must be positive (or 0: from the first round), not {cfg.return_scale}"
        )
    if cfg.distill_targets != "choice":
        check_searching_teacher(
            cfg.game, cfg.players, dict(cfg.options), str(cfg.distill), cfg.distill_targets
        )


def check_searching_teacher(
    game: str, players: int, options: Mapping[str, Any], teacher: str, targets: str
) -> None:
    """Refuses a ``teacher`` (a bot as ``bench-bots`` names it) that cannot give its search's
    values for distillation ``targets`` other than ``"choice"`` (a bot that does not search);
    ``vncards train`` asks before any of a run's work, ``teacher_data`` before any hand."""
    from .. import games
    from ..bots import make_bot
    from ..bots.strength import parse_bot

    name, bot_options = parse_bot(teacher)
    rules = games.spec(game).rules(dict(options))
    bot = make_bot(name, game, seed=0, rules=rules, players=players, **bot_options)
    if not hasattr(bot, "scored_choice"):
        raise RulesError(
            f"--distill-targets {targets} needs a search bot as the teacher: the teacher "
            f"{teacher!r} does not search (give search or a level that searches)"
        )


def frozen_weights(bot: str) -> str | None:
    """The weights file of an opponent that is a frozen network: ``policy:weights=FILE``'s
    FILE, ``""`` for ``policy`` (the game's shipped weights), None for another bot."""
    name, _, rest = bot.partition(":")
    if name != "policy":
        return None
    key, eq, path = rest.partition("=")
    if rest and (key != "weights" or not eq or not path):
        raise RulesError(f"a frozen network opponent is policy or policy:weights=FILE, not {bot!r}")
    return path
