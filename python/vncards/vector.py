"""Batched environments for learners: many tables of one game stepped in one call, in Rust.

:class:`VectorEnv` holds ``num_envs`` tables and steps all of them in one call, without the
GIL, across chunks of tables in parallel. Each table runs the game's own rules (the same Rust
flows the :mod:`vncards.tienlen`, :mod:`vncards.samloc` and :mod:`vncards.tusac` games run),
with the observations, action indices and rewards of the PettingZoo environments
(:mod:`vncards.integrations.pettingzoo`), so an agent trained on one plays the other.

>>> import numpy as np
>>> from vncards.vector import VectorEnv
>>> env = VectorEnv("tienlen", 8, seed=1)
>>> obs, info = env.reset()
>>> obs.shape, obs.dtype, info["seat"].shape
((8, 384), dtype('float32'), (8,))
>>> ended = 0
>>> for _ in range(200):
...     obs, rewards, terminated, truncated, info = env.step(env.sample_actions())
...     assert (rewards.sum(axis=1) == 0).all()
...     ended += int(terminated.sum())
>>> ended > 0
True
>>> game = env.game(0)                 # table 0 as an ordinary Game
>>> game.pending_seats == [int(info["seat"][0])] or game.is_over
True

**Conventions** (gymnasium's vector environments, next-step autoreset:
``metadata["autoreset_mode"]``):

- ``reset(seed=None) -> (obs, info)`` deals every table a new hand. ``step(actions) -> (obs,
  rewards, terminated, truncated, info)``. A table whose hand ended at the previous step
  (``terminated`` or ``truncated``) deals its next hand at this step instead: its action is
  ignored, its reward is 0 and its row shows the new hand.
- ``obs``: float32 ``[num_envs, observation_size]``, the view of one seat per table, encoded as
  the PettingZoo environments encode it (:mod:`vncards.integrations.encoding`): the seat to act,
  or on the step that ends a hand the seat that just acted.
- ``info["seat"]``: that seat (int64 ``[num_envs]``).
- ``rewards``: float32 ``[num_envs, players]`` settlement units of every seat, non-zero only on
  the step that ends a hand; each row sums to zero.
- Actions: int ``[num_envs]``, indices into the seat's legal-action list, exactly the
  PettingZoo environments' (the plays in the move generator's order, then pass; Sâm Lốc's
  declarations: 0 declares Sâm, 1 declines; Tứ Sắc: the discards, then win at the opening, or
  the answers to an offer: win, the claims, pass; Mậu Binh: the solver's ranked arrangements,
  choosing one arranges and confirms it, the seats choosing in turn from seat 0). ``info["num_actions"]`` (int64) is the number
  of legal actions (0 on the step that ends a hand), and ``info["action_mask"]`` the legal
  actions as packed bits: uint8 ``[num_envs, ceil(action_bound / 8)]``, bit ``j % 8`` (the
  least significant first) of byte ``j // 8`` set when action ``j`` is legal. The legal
  indices are always ``0 .. num_actions - 1``;
  ``np.unpackbits(mask, axis=1, count=action_bound, bitorder="little")`` gives the int8 masks
  of the PettingZoo environments. Actions are an integer array (any NumPy integer dtype) or a
  list of ints; a float, bool, string, NaN or an index out of range raises
  :class:`~vncards.IllegalMoveError` naming the table and the value, before any table moves.
- ``sample_actions()``: a uniformly random legal action for every table (int64; 0 for a table
  about to deal), from each table's own seeded sampler in Rust.
- A hand over at the deal (an instant win: about 3% of 4-player Tiến Lên deals) asks nothing
  of anybody: the table deals its next hand at once, and the skipped hand's settlement is
  ``info["deal_rewards"]`` (float32 ``[num_envs, players]``, zeros otherwise) of that call.
- ``max_cycles`` steps in one hand truncate it (reward 0), as in the PettingZoo environments.

**Seeds**: table ``i`` plays the hands a PettingZoo environment plays after ``reset(seed=seed
+ i)`` and then ``reset()`` again and again: the same deals, so for the same actions the same
observations, masks and rewards (the tests check it). ``seed=None`` draws fresh OS entropy.
``reset(seed=s)`` starts every table's stream again from ``s + i``; ``reset()`` goes on with
the streams. The action samplers are seeded from the same seed.

**Arrays**: with ``copy=True`` (the default) every call returns new arrays; with
``copy=False`` it returns the environment's own arrays, which the next call overwrites (no
copy: the fastest loop; copy what you keep).

**Debugging**: ``env.game(i)`` rebuilds table ``i``'s current hand as an ordinary game (its
seed and the actions so far, replayed): views, ``to_json`` snapshots, bots, everything.

numpy is required (the ``numpy`` extra); with gymnasium installed, ``VectorEnv`` is a ``gymnasium.vector.VectorEnv``
with ``single_observation_space`` (``Box``), ``single_action_space`` (``Discrete``) and the
batched ``observation_space`` / ``action_space``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import _core, games
from ._args import count_arg
from .errors import IllegalMoveError, RulesError
from .integrations.spaces import ACTION_BOUND, action_index, apply_index, legal_list
from .table import TableGame

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ModuleNotFoundError("vncards.vector needs numpy: pip install 'vncards[numpy]'", name="numpy") from e

if TYPE_CHECKING:
    from gymnasium.vector import VectorEnv as _Base
else:
    try:
        from gymnasium.vector import VectorEnv as _Base
    except ImportError:  # pragma: no cover - exercised without gymnasium
        _Base = object

__all__ = ["GAMES", "MAX_ENVS", "VectorEnv"]

#: The games a VectorEnv runs (variant names of :data:`vncards.games.GAMES`).
GAMES = ("tienlen", "tienlen-north", "samloc", "tusac", "maubinh")

#: What ``step`` returns: observations, rewards, terminated, truncated, info.
StepResult = tuple[
    "npt.NDArray[np.float32]",
    "npt.NDArray[np.float32]",
    "npt.NDArray[np.bool_]",
    "npt.NDArray[np.bool_]",
    dict[str, Any],
]

#: Most tables one VectorEnv holds (the core's bound).
MAX_ENVS = 1 << 20

_MAX_SEED = 2**63 - 1  # the PettingZoo environments' bound on a hand's seed
_MAX_INDEX = 2**63 - 1  # the largest int64
_REFILL = 32  # seeds drawn for a table at a time
_LOW = 4  # a table holding fewer seeds draws more


def _autoreset_mode() -> Any:
    try:
        from gymnasium.vector import AutoresetMode

        return AutoresetMode.NEXT_STEP
    except ImportError:  # pragma: no cover - exercised without gymnasium
        return "next_step"


class VectorEnv(_Base):  # type: ignore[type-arg]
    """``num_envs`` tables of ``game`` (one of :data:`GAMES`) with ``players`` seats each,
    stepped together; see the module docstring. ``num_envs`` is 1..1,048,576
    (:data:`MAX_ENVS`), ``max_cycles`` 1..2**32-1 (:class:`~vncards.RulesError` otherwise)."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        players: int = 4,
        rules: Any = None,
        seed: int | None = None,
        max_cycles: int = 100_000,
        copy: bool = True,
    ) -> None:
        spec = games.spec(game)  # RulesError for an unknown name
        if game not in GAMES:
            raise RulesError(f"VectorEnv runs {', '.join(GAMES)}; not {game!r} yet")
        num_envs = count_arg("num_envs", num_envs, minimum=1, maximum=MAX_ENVS)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or not 1 <= max_cycles < 2**32:
            raise RulesError(f"max_cycles must be an int 1..2**32-1, not {max_cycles!r}")
        cls = spec.game_class()
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be an int, not {type(players).__name__}")
        if not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
            raise RulesError(f"{game} takes {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {players}")
        self.name = game
        self.players = players
        chosen: Any = spec.rules_from(rules)
        self.rules: Any = chosen
        self.max_cycles = max_cycles
        self.copy = copy
        if game == "maubinh":
            self._core = _core.VectorCore.maubinh(chosen.core, players, num_envs, max_cycles)
        else:
            make = _core.VectorCore.tusac if game == "tusac" else _core.VectorCore.shedding
            self._core = make(chosen.flow, players, num_envs, max_cycles)
        self.num_envs = num_envs
        self.observation_size: int = self._core.observation_size
        #: Legal actions never number more than this (the PettingZoo action space).
        self.action_bound: int = ACTION_BOUND[game]
        self.metadata = {"autoreset_mode": _autoreset_mode(), "name": f"vncards_{game.replace('-', '_')}"}
        self._seed = seed
        self._gens: list[np.random.Generator] | None = None
        self._spaces()

    def _spaces(self) -> None:
        try:
            from gymnasium import spaces
        except ImportError:  # pragma: no cover - exercised without gymnasium
            return
        n, d = self.num_envs, self.observation_size
        self.single_observation_space = spaces.Box(0.0, 1.0, (d,), np.float32)
        self.single_action_space = spaces.Discrete(self.action_bound)
        self.observation_space = spaces.Box(0.0, 1.0, (n, d), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, self.action_bound, dtype=np.int64))

    # -- seeds ---------------------------------------------------------------------------------

    def _reseed(self, seed: int | None) -> None:
        """Table ``i`` draws its hands' seeds as a PettingZoo environment reset with ``seed +
        i`` does; the samplers are seeded from ``seed`` too."""
        n = self.num_envs
        if seed is None:
            self._gens = [np.random.default_rng() for _ in range(n)]
            samplers = np.random.default_rng()
        else:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise RulesError(f"seed must be a non-negative int or None, not {seed!r}")
            self._gens = [np.random.default_rng(seed + i) for i in range(n)]
            samplers = np.random.default_rng([seed, n])
        self._core.reseed(samplers.integers(0, 2**64, size=n, dtype=np.uint64).tolist())
        for i in range(n):
            self._core.add_seeds(i, self._gens[i].integers(0, _MAX_SEED, size=_REFILL))

    def _refill(self) -> None:
        """Tops up the tables short of seeds; carries on the resets that waited for them."""
        low = self._core.seeds_low(_LOW)
        if not low:
            return
        assert self._gens is not None
        for i in low:
            self._core.add_seeds(i, self._gens[i].integers(0, _MAX_SEED, size=_REFILL))
        self._core.finish_resets()

    # -- the gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every table a new hand; ``seed`` starts the tables' streams again (table ``i``
        from ``seed + i``). ``options`` is accepted for the API and unused."""
        if seed is not None or self._gens is None:
            self._reseed(self._seed if seed is None else seed)
        self._core.reset()
        self._refill()
        obs, _, _, _, info = self._results()
        return obs, info

    def step(self, actions: Any) -> StepResult:
        """One step of every table with ``actions``: one legal index per table, as an integer
        array (any NumPy integer dtype) or a list or tuple of ints. Anything else (floats,
        bools, strings, NaN, an index out of range) is an :class:`~vncards.IllegalMoveError`
        (reason ``"invalid_action"``) naming the table and the value, before any table moves;
        a wrong shape is a :class:`~vncards.RulesError`."""
        if self._gens is None:
            raise RulesError("call reset() before step()")
        self._core.step(self._actions(actions))
        self._refill()
        return self._results()

    def _actions(self, actions: Any) -> npt.NDArray[np.int64]:
        """``actions`` as a contiguous int64 array of one index per table, each checked to be
        an integer in ``0..action_bound - 1`` (the core then checks it against the table's
        own legal actions)."""
        n = self.num_envs
        if isinstance(actions, np.ndarray):
            if actions.shape != (n,):
                raise RulesError(f"actions must have shape ({n},), not {actions.shape}")
            kind = actions.dtype.kind
            if kind == "i" or (
                kind == "u" and (actions.dtype.itemsize < 8 or int(actions.max()) <= _MAX_INDEX)
            ):
                return np.ascontiguousarray(actions, dtype=np.int64)
            if kind not in "uO":
                raise IllegalMoveError(
                    "invalid_action", f"actions must be an integer array, not {actions.dtype} (tables: {n})"
                )
            items = actions.tolist()
        elif isinstance(actions, (list, tuple)):
            if len(actions) != n:
                raise RulesError(f"actions must have shape ({n},), not ({len(actions)},)")
            items = list(actions)
        else:
            raise IllegalMoveError(
                "invalid_action",
                f"actions must be an integer array or a list of {n} ints, not {type(actions).__name__}",
            )
        bound = self.action_bound
        for i, x in enumerate(items):
            if type(x) is not int or not 0 <= x < bound:
                items[i] = action_index(x, bound, f"table {i}: action")
        return np.array(items, dtype=np.int64)

    def _results(self) -> StepResult:
        obs, rewards, deal, terminated, truncated, seat, nact, mask = self._core.arrays
        if self.copy:
            obs, rewards, deal, terminated, truncated, seat, nact, mask = (
                x.copy() for x in (obs, rewards, deal, terminated, truncated, seat, nact, mask)
            )
        info = {"seat": seat, "num_actions": nact, "action_mask": mask, "deal_rewards": deal}
        return obs, rewards, terminated, truncated, info

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every table (seeded, drawn in Rust)."""
        if self._gens is None:
            raise RulesError("call reset() before sample_actions()")
        out: npt.NDArray[np.int64] = self._core.sample()
        return out

    def game(self, i: int) -> TableGame:
        """Table ``i``'s current hand as an ordinary game: dealt from the hand's seed, with
        the hand's actions so far replayed (for debugging, views and snapshots)."""
        if self._gens is None:
            raise RulesError("call reset() before game()")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.num_envs:
            raise RulesError(f"no table {i!r} of {self.num_envs}")
        seed, log = self._core.hand(i)
        game = games.new_game(self.name, players=self.players, rules=self.rules, seed=seed)
        for index in log:
            seat = game.pending_seats[0]
            apply_index(self.name, game, legal_list(self.name, game, seat)[index])
        return game

    @property
    def memory_per_table(self) -> int:
        """Bytes per table: the tables' own state plus their rows of the output arrays."""
        arrays = sum(int(a.nbytes) for a in self._core.arrays)
        return (self._core.table_bytes + arrays) // self.num_envs

    def close(self, **kwargs: Any) -> None:
        """Nothing to release (no worker processes)."""

    def __repr__(self) -> str:
        return f"VectorEnv({self.name!r}, num_envs={self.num_envs}, players={self.players})"
