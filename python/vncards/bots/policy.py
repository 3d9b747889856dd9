"""The learned bot (``make_bot("policy", game)``): a small network, trained by self-play with
deep Monte-Carlo (``vncards train``, :mod:`vncards.learn`), scores each legal action from the
seat's view, and the bot plays the best-scored one. The network runs in the Rust core
(``_core.PolicyNet``): no ML library, and not numpy either, is needed at play time.

**What it reads.** Only its seat's view: the observation of the learning environments
(:mod:`vncards.integrations.encoding`, built from :mod:`vncards.bots.view_parts`) and
the cards each legal action puts down; in Tứ Sắc also what the action leaves the hand (its
fewest rác and the like, from the meld decomposition of the seat's own cards and the cards in
its sight: ``_core.policy_tusac_rows``). It never sees a hidden card, so it is honest by
construction (the tests re-deal the hidden cards and check its choice stays the same).

**Weights.** ``weights=`` takes a weights file (a path), its bytes, or a loaded
``_core.PolicyNet``; by default the weights shipped in the package for the table's rules. A
weights file says which game, encoding and rules it was trained on and how it was made
(``provenance``: the command, seed, steps, time); a file of another game or encoding, or a
damaged one, is refused (``RulesError`` / ``SnapshotError``), and so are rules or a table size
the weights were not trained for: when the bot is made (``players=``, which the simulator,
the benchmarks and the tables pass), or at its first decision when it was made without it. Where no weights ship for a game yet, the error says how to
train them.

**Determinism.** The bot plays the best-scored action (the first of equal scores): the same
view and legal actions give the same decision whatever the seed, which ``make_bot`` accepts as
it does for every bot.

>>> from vncards.bots.policy import shipped_weights
>>> sorted(shipped_weights()) == sorted(set(shipped_weights()))
True
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .. import _core, games
from ..errors import RulesError
from .options import real_number, whole_number
from .view_parts import shedding_parts, tusac_parts

__all__ = [
    "PolicyBot",
    "TienLenPolicyBot",
    "SamLocPolicyBot",
    "TuSacPolicyBot",
    "load_weights",
    "shipped_weights",
    "shipped_policy",
    "Guide",
    "MAX_PRIOR",
    "rules_record",
    "SUFFIX",
]

Action = dict[str, Any]

#: The file name ending of a weights file.
SUFFIX = ".vnpolicy"
#: The folder (beside the play networks) of the networks that searches' rollouts play.
ROLLOUTS = "rollouts"
#: Largest weight of the policy's prior in a search (as ``_core.search_shedding`` takes it).
MAX_PRIOR = 1000.0
#: The games of each bot class's family (the variants one game module plays).
_FAMILIES = {"tienlen": ("tienlen", "tienlen-north"), "samloc": ("samloc",), "tusac": ("tusac",)}


def rules_record(variant: str, rules: Any) -> str:
    """The JSON text a weights file keeps of the rules it was trained on."""
    return json.dumps({"game": variant, "options": rules.to_dict()}, sort_keys=True, ensure_ascii=False)


def shipped_weights(*, rollouts: bool = False) -> dict[str, Any]:
    """The weights files in the package, by game (variant name): those ``vncards train``
    made for the game's preset rules. ``rollouts=True``: the smaller, faster networks that
    the searches' rollouts play where one ships (``data/policy/rollouts/``; Tiến Lên Nam: the
    weights before issue 33's wider network, so that the ``expert`` decides within its time)."""
    root = resources.files("vncards") / "data" / "policy"
    if rollouts:
        root = root / ROLLOUTS
    out: dict[str, Any] = {}
    if not root.is_dir():
        return out
    for entry in root.iterdir():
        if entry.name.endswith(SUFFIX):
            out[entry.name[: -len(SUFFIX)]] = entry
    return out


@functools.lru_cache(maxsize=16)
def _read_shipped(variant: str, rollouts: bool = False) -> _core.PolicyNet:
    return _core.PolicyNet.from_bytes(shipped_weights(rollouts=rollouts)[variant].read_bytes())


def load_weights(weights: Any) -> _core.PolicyNet:
    """A ``_core.PolicyNet`` from a path, the file's bytes, or a loaded net (returned as is)."""
    if isinstance(weights, _core.PolicyNet):
        return weights
    if isinstance(weights, (bytes, bytearray, memoryview)):
        return _core.PolicyNet.from_bytes(bytes(weights))
    if isinstance(weights, (str, os.PathLike)):
        try:
            with open(weights, "rb") as f:
                data = f.read()
        except OSError as e:
            raise RulesError(f"cannot read policy weights {os.fspath(weights)!r}: {e.strerror}") from None
        return _core.PolicyNet.from_bytes(data)
    raise TypeError(f"weights must be a path, bytes or a PolicyNet, not {type(weights).__name__}")


def _differences(want: Mapping[str, Any], have: Mapping[str, Any]) -> str:
    keys = sorted(set(want) | set(have))
    return ", ".join(
        f"{k}={have.get(k)!r} (trained: {want.get(k)!r})" for k in keys if want.get(k) != have.get(k)
    )


def _how_to_train(variant: str) -> str:
    return (
        f"train them with `vncards train {variant} --steps 20000 --seed 1 --out {variant}{SUFFIX}` "
        f"(pip install 'vncards[train]') and pass weights='{variant}{SUFFIX}'"
    )


def _variant_of(family: str, rules: Any) -> str:
    """The game of ``family`` whose preset ``rules`` are (a ``RulesError`` for other rules)."""
    variants = _FAMILIES[family]
    if rules is None:
        return variants[0]
    for v in variants:
        if games.spec(v).rules().to_dict() == rules.to_dict():
            return v
    preset = games.spec(variants[0]).rules().to_dict()
    raise RulesError(
        f"the shipped policy weights play the preset rules of {', '.join(variants)}; these rules differ "
        f"({_differences(preset, rules.to_dict())}): {_how_to_train(variants[0] + ' --rules ...')}"
    )


def _checked(family: str, net: _core.PolicyNet, rules: Any) -> _core.PolicyNet:
    """``net`` if it plays a game of ``family`` with ``rules`` (when given), else a ``RulesError``."""
    variants = _FAMILIES[family]
    if net.game not in variants:
        raise RulesError(f"these policy weights play {net.game}, not {' or '.join(variants)}")
    trained = json.loads(net.rules)
    if rules is not None:
        have = rules.to_dict()
        if have != trained["options"]:
            raise RulesError(
                f"these policy weights were trained for the {trained['game']} rules they record; "
                f"this table differs: {_differences(trained['options'], have)}. "
                f"Train weights for these rules with `vncards train {trained['game']} --rules ...`"
            )
    return net


def shipped_policy(family: str, rules: Any, *, rollouts: bool = False) -> _core.PolicyNet | None:
    """The shipped ``_core.PolicyNet`` of ``family`` (``"tienlen"``, ``"samloc"``, ``"tusac"``)
    for ``rules`` (None: the family's first game's preset), or None where none ships: the rules
    are not a preset, or no weights were trained for it yet. ``rollouts=True``: the network
    the searches' rollouts play, where a smaller one ships for that (else the same).

    >>> shipped_policy("tienlen", None).game
    'tienlen'
    >>> fast, play = shipped_policy("tienlen", None, rollouts=True), shipped_policy("tienlen", None)
    >>> fast.encoding == play.encoding and len(fast.data()) < len(play.data())
    True
    """
    try:
        variant = _variant_of(family, rules)
    except RulesError:
        return None
    if rollouts and variant in shipped_weights(rollouts=True):
        return _read_shipped(variant, True)
    return _read_shipped(variant) if variant in shipped_weights() else None


@dataclass(frozen=True)
class Guide:
    """How a search bot uses the learned policy (the options ``prior``, ``policy_rollouts``,
    ``policy_top`` and ``weights`` of :class:`vncards.bots.search.TienLenSearchBot`): the
    network ``net`` (None: the search plays the greedy policy alone), the weight of its prior at
    the tree's root, whether it plays the rollouts, and how many of its best candidates the flat
    race keeps.

    Without ``weights`` the search takes the weights shipped for the table's rules and size,
    and where none ship (another game, rules that are not a preset, another table size) it
    searches as it would without the policy, so every level plays every table. Weights given
    by hand must fit the table (a ``RulesError`` otherwise).

    >>> Guide.of("tienlen", None, None, prior=0.0, rollouts=False, top=None).search_args(4)
    {}
    >>> sorted(Guide.of("tienlen", None, None, prior=2.0, rollouts=False, top=None).search_args(4))
    ['policy', 'policy_rollouts', 'policy_top', 'prior']
    """

    net: Any
    prior: float = 0.0
    rollouts: bool = False
    top: int | None = None
    #: The bot plays the policy's best-scored action, with no search.
    play: bool = False
    #: The weights were given (a table they do not fit is then an error, not a fallback).
    explicit: bool = False

    @classmethod
    def of(
        cls,
        family: str,
        rules: Any,
        weights: Any,
        *,
        prior: float,
        rollouts: bool,
        top: int | None,
        play: bool = False,
    ) -> Guide:
        """The guide of a search bot of ``family`` at a table of ``rules`` (see the class notes)."""
        prior = real_number("prior", prior, 0.0, MAX_PRIOR)
        if top is not None:
            top = whole_number("policy_top", top, 1, unit="candidates")
        wanted = prior > 0.0 or bool(rollouts) or top is not None or bool(play)
        net: _core.PolicyNet | None
        if weights is not None:
            net = _checked(family, load_weights(weights), rules)
        else:
            net = shipped_policy(family, rules, rollouts=bool(rollouts)) if wanted else None
        return cls(net, prior, bool(rollouts), top, bool(play), weights is not None)

    def fits(self, players: int) -> bool:
        """Is there a network for a table of ``players`` seats? Shipped weights of another
        table size do not fit (the bot goes without them); weights given by hand must fit (a
        ``RulesError``)."""
        if self.net is None:
            return False
        if self.net.players != players:
            if self.explicit:
                raise RulesError(
                    f"these policy weights were trained for {self.net.players} players, not {players}"
                )
            return False
        return True

    def search_args(self, players: int) -> dict[str, Any]:
        """The keyword arguments of ``_core.search_shedding`` at a table of ``players`` seats:
        none when the search plays without the policy."""
        if not (self.prior > 0.0 or self.rollouts or self.top is not None) or not self.fits(players):
            return {}
        return {
            "policy": self.net,
            "prior": self.prior,
            "policy_rollouts": self.rollouts,
            "policy_top": self.top,
        }


class PolicyBot:
    """The learned policy of one game family (see the module notes)."""

    name = "policy"
    FAMILY = "tienlen"
    #: The network that scores the actions (its ``players`` is the table size it plays).
    net: _core.PolicyNet

    def __init__(
        self, seed: Any = None, rules: Any = None, *, weights: Any = None, players: int | None = None
    ) -> None:
        if weights is None:
            variant = _variant_of(self.FAMILY, rules)
            if variant not in shipped_weights():
                raise RulesError(f"no policy weights ship for {variant} yet: {_how_to_train(variant)}")
            net = _read_shipped(variant)
        else:
            net = _checked(self.FAMILY, load_weights(weights), rules)
        self.net = net
        self.game = str(net.game)
        self.seed = seed
        if players is not None:
            self._check_players(players)

    @classmethod
    def offered(cls, game: str) -> bool:
        """Do weights ship for ``game``, so that a table may seat this bot with no file?"""
        return game in shipped_weights()

    def _check_players(self, players: int) -> None:
        if players != self.net.players:
            raise RulesError(
                f"these policy weights were trained for {self.net.players} players, not {players}"
            )

    def _players(self, view: Mapping[str, Any]) -> int:
        players = len(view["hand_counts"])
        self._check_players(players)
        return players

    def scores(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> list[float]:
        """The network's score of each of ``legal_actions`` (the units it expects to win)."""
        players = self._players(view)
        acts = [(str(a["type"]), a.get("cards", a.get("card"))) for a in legal_actions]
        if self.FAMILY == "tusac":
            out: list[float] = self.net.scores_tusac(*tusac_parts(view, players), acts)
        else:
            out = self.net.scores_shedding(*shedding_parts(view, players), acts)
        return out

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """The best-scored of ``legal_actions`` (the first of equal scores)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        s = self.scores(view, legal_actions)
        return legal_actions[max(range(len(s)), key=s.__getitem__)]


class TienLenPolicyBot(PolicyBot):
    """The learned Tiến Lên policy (Miền Nam or Bắc, by the rules)."""

    FAMILY = "tienlen"


class SamLocPolicyBot(PolicyBot):
    """The learned Sâm Lốc policy."""

    FAMILY = "samloc"


class TuSacPolicyBot(PolicyBot):
    """The learned Tứ Sắc policy."""

    FAMILY = "tusac"
