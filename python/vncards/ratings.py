"""Player ratings from the results of many hands: the Weng–Lin Bayesian rating model of the
`openskill <https://pypi.org/project/openskill/>`_ package (a TrueSkill-like model for any
number of players per game), installed with the ``ratings`` extra
(``pip install 'vncards[ratings]'``).

Each rated hand is one multiplayer match: the seats are ranked by the units they won (ties
share a place), and every rating moves by how surprising that order was. A rating is a mean
``mu`` and an uncertainty ``sigma``; ``ordinal`` (mu − 3·sigma) is the conservative figure to
rank by.

Results come from anything that holds finished hands: a :class:`~vncards.session.Session`, its
:class:`~vncards.hands.Hand`\\ s, a loaded :class:`~vncards.history.History`, a finished game
(its seats named ``seat 0``, ``seat 1``…), or plain mappings ``{player: units}`` of one hand
each (what a benchmark of bot levels produces):

>>> board = rate([{"hard": 12, "easy": -12}, {"hard": 3, "normal": 1, "easy": -4}] * 20)
>>> [r.player for r in board]
['hard', 'normal', 'easy']
>>> board[0].hands, board[0].units
(40, 300)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .session import Hand, Seat, Session
from .table import TableGame
from .tournament import places

__all__ = ["MODELS", "MAX_PLAYERS", "PlayerRating", "Ratings", "rate", "hand_results", "seat_id"]

#: The rating models, by name: openskill's Weng–Lin models.
MODELS = {
    "plackett_luce": "PlackettLuce",
    "bradley_terry_full": "BradleyTerryFull",
    "bradley_terry_part": "BradleyTerryPart",
    "thurstone_mosteller_full": "ThurstoneMostellerFull",
    "thurstone_mosteller_part": "ThurstoneMostellerPart",
}


#: Most players in one rated hand or one prediction (the models' work grows with its square).
MAX_PLAYERS = 100
#: The range of the models' parameters (``mu``, ``sigma``, ``beta``, ``tau``).
_PARAM_RANGE = (1e-3, 1e6)


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating: ``mu`` (the estimate of its skill), ``sigma`` (the uncertainty),
    the number of ``hands`` rated and the net ``units`` it won in them."""

    player: str
    mu: float
    sigma: float
    hands: int = 0
    units: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 * sigma``: a skill the player very likely has at least (rank by this)."""
        return self.mu - 3 * self.sigma


def seat_id(seat: int, occupant: Seat | None) -> str | None:
    """Who is rated for a seat: the player's id, ``bot NAME`` for a bot, nobody (None) for an
    open seat; outside a session (no occupant), ``seat N``."""
    if occupant is None:
        return f"seat {seat}"
    if occupant.player is not None:
        return occupant.player
    return None if occupant.bot is None else f"bot {occupant.bot}"


Identify = Callable[[int, Seat | None], str | None]


def hand_results(source: Any, identify: Identify = seat_id) -> Iterator[dict[str, int]]:
    """The finished hands of ``source`` as ``{player: units}`` mappings, in order (unfinished
    hands are skipped). ``source``: a mapping of one hand, a :class:`~vncards.hands.Hand`, a
    finished game, a session or history (their finished hands), or an iterable of any of
    these. ``identify(seat, occupant)`` names who is rated at a seat (None: not rated); one
    player at two seats of one hand is refused."""
    if isinstance(source, Mapping):
        yield _checked_result(source)
        return
    if isinstance(source, Session):
        for hand in [
            *source.hands,
            Hand(source.game, source.name, source.hand_number, tuple(source.hand_seats)),
        ]:
            yield from hand_results(hand, identify)
        return
    if isinstance(source, TableGame):
        source = Hand(source, source.GAME)
    if isinstance(source, Hand):
        result = source.settlement
        if result is None:
            return
        out: dict[str, int] = {}
        for seat, units in enumerate(result):
            who = identify(seat, None if source.seats is None else source.seats[seat])
            if who is None:
                continue
            if who in out:
                raise RulesError(f"{who!r} holds two seats of one hand: give each seat its own id to rate it")
            out[who] = units
        yield out
        return
    if isinstance(source, (str, bytes)) or not isinstance(source, Iterable):
        raise RulesError(f"cannot rate {type(source).__name__}: give hands, sessions, histories or mappings")
    for item in source:
        yield from hand_results(item, identify)


def _player_id(player: Any) -> str:
    if not isinstance(player, str):
        raise RulesError(f"player ids are str, not {type(player).__name__}")
    return player


def _param(name: str, value: Any) -> float:
    low, high = _PARAM_RANGE
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise RulesError(f"{name} must be a finite number in {low}..{high}, not {value!r}")
    return float(value)


def _checked_result(result: Any) -> dict[str, int]:
    if not isinstance(result, Mapping):
        raise RulesError(f"a hand's result is a mapping {{player: units}}, not {type(result).__name__}")
    if len(result) > MAX_PLAYERS:
        raise RulesError(f"a rated hand has at most {MAX_PLAYERS} players, not {len(result)}")
    out = {}
    for who, units in result.items():
        if not isinstance(who, str) or isinstance(units, bool) or not isinstance(units, int):
            raise RulesError(f"a hand's result maps player ids to units (ints), not {who!r}: {units!r}")
        out[who] = units
    return out


class Ratings:
    """Ratings of every player seen so far, updated hand by hand.

    ``model``: a name of :data:`MODELS` (default ``"plackett_luce"``). ``mu``, ``sigma``,
    ``beta``, ``tau``: the model's parameters, each a number in 0.001..1,000,000 (openskill's
    defaults: 25, 25/3, 25/6, 25/300; ``tau`` keeps ratings able to move after many hands).
    A hand rated or a prediction holds at most 100 players (:data:`MAX_PLAYERS`). A bad
    argument is a :class:`~vncards.errors.RulesError` that says what is wrong.

    >>> r = Ratings()
    >>> r.add({"An": 5, "Bình": -2, "Chi": -3})
    1
    >>> r["An"].mu > r["Bình"].mu > r["Chi"].mu
    True
    >>> round(sum(r.predict_win(["An", "Bình", "Chi"])), 6)
    1.0
    """

    def __init__(
        self,
        model: str = "plackett_luce",
        *,
        mu: float | None = None,
        sigma: float | None = None,
        beta: float | None = None,
        tau: float | None = None,
    ) -> None:
        if not isinstance(model, str) or model not in MODELS:
            raise RulesError(f"unknown rating model {model!r} (models: {', '.join(MODELS)})")
        try:
            import openskill.models as models
        except ImportError:
            raise ImportError(
                "vncards.ratings needs the openskill package: pip install 'vncards[ratings]'"
            ) from None
        params = {
            k: v for k, v in (("mu", mu), ("sigma", sigma), ("beta", beta), ("tau", tau)) if v is not None
        }
        for k, v in params.items():
            _param(k, v)
        self._name = model
        self._params = params
        self._model = getattr(models, MODELS[model])(**params)
        self._ratings: dict[str, Any] = {}
        self._hands: dict[str, int] = {}
        self._units: dict[str, int] = {}

    @property
    def model(self) -> str:
        """The model's name."""
        return self._name

    def _rating(self, player: str) -> Any:
        r = self._ratings.get(player)
        if r is None:
            r = self._ratings[player] = self._model.rating(name=player)
        return r

    def rate_hand(self, result: Mapping[str, int]) -> None:
        """One hand: ``{player: units}``; the players are ranked by units (ties share a
        place). A hand of fewer than two players rates nobody."""
        result = _checked_result(result)
        if len(result) < 2:
            return
        players = list(result)
        teams = [[self._rating(p)] for p in players]
        rated = self._model.rate(teams, ranks=places([result[p] for p in players]))
        if not all(math.isfinite(t[0].mu) and math.isfinite(t[0].sigma) for t in rated):
            raise RulesError("these parameters make the ratings overflow: the hand is not rated")
        for p, team in zip(players, rated, strict=True):
            self._ratings[p] = team[0]
            self._hands[p] = self._hands.get(p, 0) + 1
            self._units[p] = self._units.get(p, 0) + result[p]

    def add(self, source: Any, identify: Identify = seat_id) -> int:
        """Rate every finished hand of ``source`` (see :func:`hand_results`), in order; the
        number of hands rated."""
        count = 0
        for result in hand_results(source, identify):
            self.rate_hand(result)
            count += 1
        return count

    def __getitem__(self, player: str) -> PlayerRating:
        """The rating of ``player`` (the model's initial rating if it has not played)."""
        r = self._ratings.get(_player_id(player)) or self._model.rating(name=player)
        return PlayerRating(
            player, float(r.mu), float(r.sigma), self._hands.get(player, 0), self._units.get(player, 0)
        )

    def __contains__(self, player: object) -> bool:
        return player in self._ratings

    def __len__(self) -> int:
        return len(self._ratings)

    def leaderboard(self) -> list[PlayerRating]:
        """Every rated player, best first (by ``ordinal``, then ``mu``, then id)."""
        board = [self[p] for p in self._ratings]
        return sorted(board, key=lambda r: (-r.ordinal, -r.mu, r.player))

    def predict_win(self, players: Iterable[str]) -> list[float]:
        """The chance of each of ``players`` (2..100 distinct ids, :data:`MAX_PLAYERS`) to
        place first in a hand between them; a newcomer is added with the initial rating."""
        if isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Iterable):
            raise RulesError(f"predict_win takes a list of player ids, not {type(players).__name__}")
        ids = [_player_id(p) for p in itertools.islice(players, MAX_PLAYERS + 1)]
        if not 2 <= len(ids) <= MAX_PLAYERS:
            raise RulesError(f"predict_win needs 2..{MAX_PLAYERS} distinct player ids, not {len(ids)}")
        twice = next((p for p, n in Counter(ids).items() if n > 1), None)
        if twice is not None:
            raise RulesError(f"predict_win: {twice!r} is listed twice")
        teams = [[self._rating(p)] for p in ids]
        return [float(x) for x in self._model.predict_win(teams)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data: the model, its parameters and every player's rating."""
        return {
            "model": self._name,
            "params": dict(self._params),
            "players": {
                p: [r.mu, r.sigma, self._hands.get(p, 0), self._units.get(p, 0)]
                for p, r in self._ratings.items()
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ratings:
        """Ratings from :meth:`to_dict` data (``RulesError`` naming what is malformed)."""
        if not isinstance(data, Mapping) or set(data) != {"model", "params", "players"}:
            raise RulesError("ratings data is a mapping of 'model', 'params' and 'players'")
        params, players = data["params"], data["players"]
        if not isinstance(params, Mapping) or not isinstance(players, Mapping):
            raise RulesError("ratings data: params and players are mappings")
        unknown = sorted(map(repr, set(params) - {"mu", "sigma", "beta", "tau"}))
        if unknown:
            raise RulesError(f"ratings data: params: unknown {', '.join(unknown)}")
        ratings = cls(data["model"], **params)
        for p, entry in players.items():
            where = f"ratings data: players[{p!r}]"
            _player_id(p)
            if not isinstance(entry, (list, tuple)) or len(entry) != 4:
                raise RulesError(f"{where} is [mu, sigma, hands, units]")
            mu, sigma, hands, units = entry
            for name, value in (("mu", mu), ("sigma", sigma)):
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                    raise RulesError(f"{where} {name} must be a finite number, not {value!r}")
            if sigma <= 0:
                raise RulesError(f"{where} sigma must be positive, not {sigma!r}")
            for name, value in (("hands", hands), ("units", units)):
                if isinstance(value, bool) or not isinstance(value, int) or (name == "hands" and value < 0):
                    raise RulesError(
                        f"{where} {name} must be an int{' >= 0' * (name == 'hands')}, not {value!r}"
                    )
            ratings._ratings[p] = ratings._model.create_rating([float(mu), float(sigma)], name=p)
            ratings._hands[p] = hands
            ratings._units[p] = units
        return ratings


def rate(source: Any, *, model: str = "plackett_luce", identify: Identify = seat_id) -> list[PlayerRating]:
    """The leaderboard of the hands of ``source`` (see :func:`hand_results`): each player's
    rating after every hand in order, best first. The one call a benchmark needs: its bots'
    results per hand, ``[{"hard": 12, "easy": -12}, …]``, give each bot level a rating."""
    ratings = Ratings(model)
    ratings.add(source, identify)
    return ratings.leaderboard()
