"""OpenSpiel Python games for the five variants (extra ``openspiel``): ``python_vncards_tienlen``,
``python_vncards_tienlen_north``, ``python_vncards_samloc``, ``python_vncards_maubinh``,
``python_vncards_tusac``, registered with ``pyspiel`` when this module is imported.

- **Chance**: the first node is an explicit chance node, *the deal*: ``DEAL_OUTCOMES``
  equally likely outcomes, outcome ``k`` deals the game with seed ``k`` (which also fixes
  the order of Tứ Sắc's stock). After it every node is a player node.
- **Given hands**: the ``"hands"`` parameter starts every game from the hands you give, one
  per seat separated by ``|`` (card text such as ``3♠ 4♥`` or ``3s 4h``; Tứ Sắc codes
  ``KR PW``; seat 0 is Tứ Sắc's dealer and holds 21), a blank seat dealt at random. The
  hands are validated when the game is loaded
  (:func:`vncards.integrations.deals.deal_from_hands`: a
  :class:`~vncards.VncardsError` names the hand and the fault). The deal stays a chance node:
  outcome ``k`` deals the given hands with seed ``k`` deciding only what they leave open (the
  blank seats, Tứ Sắc's stock order, Sâm Lốc's drawn leader), and the game's own deal rules
  follow (instant wins, the first lead). :func:`hands_parameter` writes the parameter from
  lists of cards.
- **Actions**: an action is an index into the player's legal-action list
  (:mod:`vncards.integrations.spaces`), ``num_distinct_actions = ACTION_BOUND[game]``; the
  ``"players"`` parameter sets the seat count (default 4; checked when the game is loaded, a
  :class:`~vncards.RulesError` outside the game's range). A chance outcome outside
  ``0..DEAL_OUTCOMES-1`` or a player action that is not an index of the legal list raises
  :class:`~vncards.IllegalMoveError` (``"invalid_action"``) and changes nothing.
- **Tensors**: ``information_state_tensor`` and ``observation_tensor`` are the vector of
  :func:`vncards.integrations.encoding.observation` (the player's view; it holds every played
  card, but it is not a perfect-recall history).
- **Returns**: the settlement units at the end (terminal rewards).
- ``clone()`` copies the vncards game (``Game.clone``).

>>> import pyspiel
>>> from vncards.integrations import openspiel  # registers the games
>>> game = pyspiel.load_game("python_vncards_tienlen")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
>>> state.apply_action(7)
>>> state.current_player() in range(4) and len(state.information_state_tensor()) == game.information_state_tensor_size()
True

From given hands (two seats of Sâm Lốc, ten cards each):

>>> hands = hands_parameter(["3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♥", "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ K♣"])
>>> game = pyspiel.load_game("python_vncards_samloc", {"players": 2, "hands": hands})
>>> state = game.new_initial_state()
>>> state.apply_action(0)
>>> " ".join(map(str, state.table.hand(0)))
'3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♥'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import games
from ..errors import SnapshotError
from ..table import TableGame
from . import encoding
from .deals import deal_from_hands
from .spaces import ACTION_BOUND, action_index, apply_index, check_players, legal_list

try:
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "vncards.integrations.openspiel needs OpenSpiel: pip install 'vncards[openspiel]'"
    ) from e

__all__ = ["DEAL_OUTCOMES", "GAME_NAMES", "VncardsGame", "VncardsState", "game_class", "hands_parameter"]

#: How many deals the chance node chooses among (each a seed of ``games.new_game``).
DEAL_OUTCOMES = 1 << 12

#: OpenSpiel short name of each variant.
GAME_NAMES = {name: "python_vncards_" + name.replace("-", "_") for name in ACTION_BOUND}

_MAX_UNITS = 10_000.0
_MAX_LENGTH = {"tusac": 4000, "maubinh": 6}
_DEFAULT_LENGTH = 2000


def _game_type(name: str) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAMES[name],
        long_name=f"vncards {games.spec(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=games.spec(name).game_class().MAX_PLAYERS,
        min_num_players=games.spec(name).game_class().MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 4, "hands": ""},
    )


class VncardsGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a vncards variant as an OpenSpiel game."""

    variant = "tienlen"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = check_players(self.variant, params.get("players", 4))
        hands_text = params.get("hands", "")
        if not isinstance(hands_text, str):
            raise SnapshotError(f"hands: the parameter is text, not {type(hands_text).__name__}")
        self.hands_text = hands_text
        #: The given hands (None: every seat dealt at random), checked by one deal now.
        self.hands = _split_hands(self.hands_text)
        if self.hands is not None:
            if len(self.hands) != self.players:
                raise SnapshotError(f"hands: {len(self.hands)} given for {self.players} players")
            deal_from_hands(self.variant, self.hands, seed=0)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_BOUND[self.variant],
            max_chance_outcomes=DEAL_OUTCOMES,
            num_players=self.players,
            min_utility=-_MAX_UNITS,
            max_utility=_MAX_UNITS,
            utility_sum=0.0,
            max_game_length=_MAX_LENGTH.get(self.variant, _DEFAULT_LENGTH),
        )
        super().__init__(_game_type(self.variant), info, {"players": self.players, "hands": self.hands_text})

    def new_initial_state(self) -> VncardsState:
        """The state before the deal (a chance node)."""
        return VncardsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of both tensors: :func:`~vncards.integrations.encoding.observation`."""
        return _Observer(self.variant, self.players)


class _Box:
    """Holds the vncards game; OpenSpiel's ``clone()`` deep-copies a state's ``__dict__``,
    and a copy of the box is a :meth:`~vncards.table.TableGame.clone` of the game."""

    def __init__(self, table: TableGame | None) -> None:
        self.table = table

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(None if self.table is None else self.table.clone())


class VncardsState(pyspiel.State):  # type: ignore[misc]
    """A state: before the deal (chance), then a vncards game."""

    def __init__(self, game: VncardsGame) -> None:
        super().__init__(game)
        self.variant = game.variant
        self.players = game.players
        self.hands = game.hands
        self._box = _Box(None)
        self._legal: list[dict[str, Any]] = []

    @property
    def table(self) -> TableGame | None:
        """The vncards game (None before the deal)."""
        return self._box.table

    def _select(self) -> None:
        assert self.table is not None
        pending = self.table.pending_seats
        self._legal = legal_list(self.variant, self.table, pending[0]) if pending else []

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.pending_seats[0]

    def _legal_actions(self, player: int) -> list[int]:
        if self.table is None or player != self.current_player():
            return []
        return list(range(len(self._legal)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: ``DEAL_OUTCOMES`` seeds, equally likely."""
        p = 1.0 / DEAL_OUTCOMES
        return [(k, p) for k in range(DEAL_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table is None:
            outcome = action_index(action, DEAL_OUTCOMES, "chance outcome")
            if self.hands is None:
                table = games.new_game(self.variant, players=self.players, seed=outcome)
            else:
                table = deal_from_hands(self.variant, self.hands, seed=outcome)
            self._box.table = table
        else:
            apply_index(
                self.variant, table, self._legal[action_index(action, len(self._legal), "player action")]
            )
        if not table.is_over:
            self._select()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{action}"
        if self.table is not None and player == self.current_player() and action < len(self._legal):
            return json.dumps(self._legal[action], ensure_ascii=False)
        return f"Action:{action}"

    def is_terminal(self) -> bool:
        """True once the hand is settled."""
        return self.table is not None and self.table.is_over

    def returns(self) -> list[float]:
        """Settlement units (zeros before the end)."""
        if self.table is None or not self.table.is_over:
            return [0.0] * self.players
        return [float(u) for u in self.table.settlement or [0] * self.players]

    def __str__(self) -> str:
        if self.table is None:
            return "deal"
        return json.dumps(self.table.public_view(), ensure_ascii=False)


class _Observer:
    """PyObserver: the encoding's observation vector and the view as text."""

    def __init__(self, variant: str, players: int) -> None:
        self.variant = variant
        self.players = players
        self.tensor = np.zeros(encoding.observation_size(variant, players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: VncardsState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = encoding.observation(state.table.view(player), self.players)

    def string_from(self, state: VncardsState, player: int) -> str:
        if state.table is None:
            return "deal"
        view = state.table.view(player)
        view.pop("legal_actions", None)
        return json.dumps(view, ensure_ascii=False, sort_keys=True)


def hands_parameter(hands: Sequence[str | Sequence[str] | None]) -> str:
    """The ``"hands"`` game parameter for ``hands`` (per seat: card text, a list of card
    texts, or None for a seat dealt at random).

    >>> hands_parameter(["3♠ 4♠", ["5♥", "6♥"], None])
    '3♠ 4♠|5♥ 6♥|'
    """
    return "|".join("" if h is None else h if isinstance(h, str) else " ".join(map(str, h)) for h in hands)


def _split_hands(text: str) -> list[str | None] | None:
    if not text.strip():
        return None
    return [h.strip() or None for h in text.split("|")]


def game_class(name: str) -> type[VncardsGame]:
    """The registered :class:`VncardsGame` subclass of variant ``name``."""
    return _CLASSES[name]


_CLASSES: dict[str, type[VncardsGame]] = {}
for _name in ACTION_BOUND:
    _cls = type(f"VncardsGame_{_name.replace('-', '_')}", (VncardsGame,), {"variant": _name})
    _CLASSES[_name] = _cls
    if GAME_NAMES[_name] not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_name), _cls)
