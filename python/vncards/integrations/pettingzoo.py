"""PettingZoo environments (AEC API) for the five games: ``tienlen_v0``,
``tienlen_north_v0``, ``samloc_v0``, ``maubinh_v0``, ``tusac_v0`` (extra ``pettingzoo``).

Each variant object has ``env(**kwargs)`` (wrapped like PettingZoo's classic games) and
``raw_env(**kwargs)``. Agents are ``player_0`` … ``player_{P-1}`` (seat numbers).

- **Observation**: a dict with the float32 vector of
  :func:`vncards.integrations.encoding.observation` (built only from the agent's own
  ``view(seat)``) under ``observation_key`` (default ``"observation"``; RLlib's action-masking
  modules expect ``"observations"``), and ``action_mask`` (int8, ``ACTION_BOUND[game]``
  long: 1 for each index of the current legal-action list, zeros for an agent not to act).
- **Actions**: ``Discrete(ACTION_BOUND[game])``; an action indexes the agent's current
  legal-action list (:mod:`vncards.integrations.spaces`): an ``int`` or NumPy integer; a
  bool, float, string, ``None`` or an index outside the list raises
  :class:`~vncards.IllegalMoveError` (``"invalid_action"``, a ``ValueError``) and changes
  nothing. The keywords (``players``, ``max_cycles``, ``observation_key``, ``render_mode``,
  ``rules``) are checked when the env is made (:class:`~vncards.RulesError`).
  ``env.legal_actions(agent)`` gives that list of action dicts and
  ``env.action_features(agent)`` their card features (uint8, one row per action) so agents
  can score actions.
- **Rewards**: the settlement units of the hand, given to every agent on the step that ends
  it; 0 before.
- **A hand over at the deal** (an instant win, e.g. four 2s in Tiến Lên): ``reset`` returns
  an environment whose agents are all already terminated, with the settlement as their
  rewards and ``infos[agent]["instant_win"] = True``; each agent then takes the usual dead
  step (``step(None)``). Observations are built from each seat's view as always.
- **max_cycles**: after that many steps every agent is truncated (reward 0).
- **Given hands**: ``reset(seed, options={"hands": [...]})`` deals those hands (one entry per
  seat, ``None`` for a seat dealt at random; validated by
  :func:`vncards.integrations.deals.deal_from_hands`, which raises a
  :class:`~vncards.VncardsError` for bad hands); the seed decides the rest.

>>> from vncards.integrations.pettingzoo import tienlen_v0
>>> env = tienlen_v0.env()
>>> env.reset(seed=3)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     env.step(action)
>>> sum(env.unwrapped.game.settlement)
0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import games
from ..errors import RulesError, SnapshotError
from ..table import TableGame
from . import encoding
from .deals import deal_from_hands
from .spaces import ACTION_BOUND, action_index, apply_index, check_players, legal_list

try:
    from gymnasium import spaces as gym_spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "vncards.integrations.pettingzoo needs PettingZoo: pip install 'vncards[pettingzoo]'"
    ) from e

__all__ = [
    "VncardsEnv",
    "Variant",
    "tienlen_v0",
    "tienlen_north_v0",
    "samloc_v0",
    "maubinh_v0",
    "tusac_v0",
    "VARIANTS",
]

_MAX_SEED = 2**63 - 1


class VncardsEnv(AECEnv):  # type: ignore[misc]
    """One hand of ``game`` (a variant name of :data:`vncards.games.GAMES`) as an AEC env."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "vncards", "is_parallelizable": False}  # noqa: RUF012 (PettingZoo's spelling)

    def __init__(
        self,
        game: str = "tienlen",
        players: int = 4,
        rules: Any = None,
        observation_key: str = "observation",
        max_cycles: int = 100_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        games.spec(game)  # RulesError for an unknown name
        players = check_players(game, players)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
            raise RulesError(f"max_cycles must be an int of at least 1, not {max_cycles!r}")
        if not isinstance(observation_key, str) or not observation_key or observation_key == "action_mask":
            raise RulesError(
                f"observation_key must be a name other than 'action_mask', not {observation_key!r}"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise RulesError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.name = game
        self.players = players
        self.rules = rules
        self.observation_key = observation_key
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = list(self.possible_agents)
        size = encoding.observation_size(game, players)
        bound = ACTION_BOUND[game]
        obs_space = gym_spaces.Dict(
            {
                observation_key: gym_spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": gym_spaces.Box(0, 1, (bound,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, Any] = {a: gym_spaces.Discrete(bound) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game: TableGame = games.new_game(game, players=players, rules=rules, seed=0)
        self._legal: list[dict[str, Any]] = []
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- seats and legal actions ---------------------------------------------------------------

    @staticmethod
    def seat_of(agent: str) -> int:
        """The seat of ``player_N``."""
        return int(agent.rsplit("_", 1)[1])

    def legal_actions(self, agent: str) -> list[dict[str, Any]]:
        """The action dicts the indices of ``agent``'s action mask stand for."""
        if agent == self.agent_selection and not self._done(agent):
            return list(self._legal)
        return []

    def action_features(self, agent: str) -> npt.NDArray[np.uint8]:
        """Card features of :meth:`legal_actions` (see :mod:`~vncards.integrations.encoding`)."""
        return encoding.action_cards(self.name, self.legal_actions(agent))

    def _done(self, agent: str) -> bool:
        return bool(self.terminations.get(agent) or self.truncations.get(agent))

    # -- the AEC API ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, _MAX_SEED))
        hands = (options or {}).get("hands")
        if hands is None:
            self.game = games.new_game(self.name, players=self.players, rules=self.rules, seed=game_seed)
        else:
            if len(hands) != self.players:
                raise SnapshotError(f"hands: {len(hands)} given for {self.players} players")
            self.game = deal_from_hands(self.name, hands, rules=self.rules, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        if self.game.is_over:  # an instant win at the deal: a terminal first step
            self._settle()
            for a in self.agents:
                self.infos[a]["instant_win"] = True
            self._cumulative_rewards = dict(self.rewards)
            self.agent_selection = self.agents[0]
            self._legal = []
            return
        self._select()

    def _select(self) -> None:
        seat = self.game.pending_seats[0]
        self.agent_selection = self.possible_agents[seat]
        self._legal = legal_list(self.name, self.game, seat)

    def _settle(self) -> None:
        settlement = self.game.settlement or [0] * self.players
        for a in self.agents:
            self.rewards[a] = float(settlement[self.seat_of(a)])
            self.terminations[a] = True

    def observe(self, agent: str) -> dict[str, Any]:
        view = self.game.view(self.seat_of(agent))
        mask = np.zeros(ACTION_BOUND[self.name], np.int8)
        if agent == self.agent_selection and not self._done(agent):
            mask[: len(self._legal)] = 1
        return {self.observation_key: encoding.observation(view, self.players), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._done(agent):
            self._was_dead_step(action)
            return
        index = action_index(action, len(self._legal), f"the action of {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        apply_index(self.name, self.game, self._legal[index])
        self._steps += 1
        if self.game.is_over or self._steps >= self.max_cycles:
            if self.game.is_over:
                self._settle()
            else:
                self.truncations = {a: True for a in self.agents}
            self._legal = []
            self.agent_selection = self.agents[0]
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.game.public_view())
        return None

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Variant:
    """A PettingZoo-style environment module: ``env()`` and ``raw_env()``."""

    game: str

    def raw_env(self, **kwargs: Any) -> VncardsEnv:
        """The unwrapped :class:`VncardsEnv`."""
        return VncardsEnv(self.game, **kwargs)

    def env(self, **kwargs: Any) -> Any:
        """The env wrapped like PettingZoo's classic games (bounds check, order enforcing)."""
        env: Any = self.raw_env(**kwargs)
        env = wrappers.AssertOutOfBoundsWrapper(env)
        return wrappers.OrderEnforcingWrapper(env)


tienlen_v0 = Variant("tienlen")
tienlen_north_v0 = Variant("tienlen-north")
samloc_v0 = Variant("samloc")
maubinh_v0 = Variant("maubinh")
tusac_v0 = Variant("tusac")

#: Every variant by its PettingZoo name.
VARIANTS: dict[str, Variant] = {
    "tienlen_v0": tienlen_v0,
    "tienlen_north_v0": tienlen_north_v0,
    "samloc_v0": samloc_v0,
    "maubinh_v0": maubinh_v0,
    "tusac_v0": tusac_v0,
}
