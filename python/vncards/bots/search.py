"""Search bots for the shedding games (Tiến Lên Nam and Bắc, Sâm Lốc), and the cheating bot
that measures how much hidden information is worth.

A decision lists the candidate plays (every play when there are few, else the greedy one,
every play that empties the hand and the cheapest others, plus pass) and races them in Rust
(:mod:`vncards._core` ``search_shedding``) over deals of the unseen cards weighted by what
each other seat has shown this hand (read from the seat's events: a seat that passed on a
single 7 seldom holds a cheap higher single); every deal is played out by the greedy policy
for every seat, candidates whose paired results are confidently worse are dropped, and the
best mean wins. The budget is ``rollouts`` per decision (a decision is then a pure function
of what the seat knows and the seed) and/or ``think_ms``.

With ``tree``, the same deals feed an information-set Monte Carlo tree search instead, which
looks past the next play: ``tree="own_seat"`` branches on the deciding seat's own later
decisions while the other seats play the greedy policy (the flat race's model of them),
``tree="every_seat"`` (or True) branches on every seat's.

With the learned policy (:mod:`vncards.bots.policy`, where weights ship for the table's
rules and size, or ``weights=``), ``policy_rollouts=True`` makes every seat of the rollouts
(and the other seats inside an own-seat tree) play the policy instead of greedy: a rollout
then costs about a hundred microseconds instead of a few, and tells much more (the policy
plays like a stronger opponent and a better self); ``prior`` weighs the policy's prior over
the root's candidates in the tree (a PUCT term), ``policy_top`` keeps the root's first
candidate and the policy's best others; ``policy_play=True`` plays the policy's best-scored
action with no search (the ``policy`` bot's choice, except that like every search it never
goes out on a 2 where that is penalised while it may pass). ``opponents`` is whom rollouts the
policy plays model the other seats as: ``"policy"`` (the default: every seat plays the policy),
``"greedy"`` (the others play greedy), or ``"seen"``: each other seat plays greedy until its
public record this hand proves it is not a greedy player (:func:`unlike_greedy`), and then the
policy. The inference tests every action of a seat it models as greedy (its leads, passes
and follows, up to :data:`MODELLED_OBSERVATIONS`) against the greedy policy's own choice from
the cards a deal gives it: a deal where they differ is kept with likelihood 0.05, where the
plain model's tests are looser. ``chain`` (default 0) draws each deal by that many Metropolis
card swaps between the hidden hands from the last one (each kept with the ratio of the
observations' likelihoods) instead of by rejection: under many observations rejection rarely
finds a deal that passes them all, a chain stays among those that do. Where no weights ship, these options
search as the plain search does (greedy rollouts), so every level plays every table.
``guided`` (a mapping of options) makes a bot decide with those options wherever the shipped
weights fit the table (its preset rules and size) and with its own elsewhere, ``guided_games``
(variant names) only in those games: the levels use them to search with the policy where they
can and as before everywhere else.

Sâm Lốc adds two decisions of its own. **Báo Sâm**: the Sâm plan (``sam_plan``) finds the
split of the hand into combinations that is least often beaten over sampled deals; the bot
declares when the expected units of declaring (a success pays 20 from each other seat, a
block costs as much) beat the rolled-out value of playing the hand normally. A declarer
leads the combination that keeps the best split's chance highest; facing a declarer, any
play that beats it blocks, so the bot blocks whenever it can. **Báo 1**: while a seat holds
one card, a lower single is allowed under the default ``bao_mot_mode = "penalize"`` but pays
for the whole table if that seat then goes out: the rollouts carry the violation and the
đền làng, so the search weighs the risk instead of a fixed rule.

The view a bot reads must carry the seat's events (``view["events"]``, as
:func:`vncards.bots.bot_view` builds it) for the inference; without them the deals are
uniform. :class:`CheatingBot` runs the same search on the true hands: an upper bound for
benchmarks only (:func:`vncards.bots.make_bot` builds it; no table may seat it).

>>> from vncards.games import new_game
>>> from vncards.simulate import play_game
>>> game = new_game("tienlen", seed=4)
>>> bots = [TienLenSearchBot(seed=s, rules=game.rules, rollouts=120) for s in range(4)]
>>> sum(play_game(game, bots).settlement)
0
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, cast

from .._core import (
    cards_to_mask,
    rollout_greedy_choice,
    sam_plan,
    search_shedding,
    shedding_classify,
    shedding_has_play,
    shedding_policy_scores,
    shedding_value,
)
from ..errors import RulesError
from ..samloc.game import SAM_UNITS
from ..table import Seed
from .base import Turn
from .budget import CheatingSearch, SearchBudget, forced
from .options import whole_number
from .policy import Guide
from .shedding import (
    _TWOS,
    Facts,
    SamLocGreedyBot,
    SheddingView,
    TienLenGreedyBot,
    _SeatFacts,
    _SheddingBot,
    pass_index,
    rollout_position,
)

__all__ = [
    "TienLenSearchBot",
    "SamLocSearchBot",
    "TienLenCheatingBot",
    "SamLocCheatingBot",
    "observations",
    "unlike_greedy",
    "MAX_OBSERVATIONS",
]

Action = dict[str, Any]
#: Observations (passes and follows of other seats) the inference reads, the latest first.
MAX_OBSERVATIONS = 24
#: Observations it reads when it models other seats as the greedy player (``opponents``):
#: their every action is then evidence, tested exactly.
MODELLED_OBSERVATIONS = 96
#: Observation: (seat, table mask or None for a lead, play mask or None for a pass, cards played
#: since, fewest cards another seat held then).
Observation = tuple[int, int | None, int | None, int, int]


class _SeatPlays:
    """Each seat's plays of a hand in event order, to ask which cards a seat played from an
    event on in logarithmic time (a suffix union per seat, built once all plays are in)."""

    def __init__(self) -> None:
        self._at: dict[int, list[int]] = {}
        self._masks: dict[int, list[int]] = {}
        self._since: dict[int, list[int]] = {}

    def add(self, seat: int, index: int, mask: int) -> None:
        """Record ``seat``'s play of ``mask`` at event ``index`` (indices increase)."""
        self._at.setdefault(seat, []).append(index)
        self._masks.setdefault(seat, []).append(mask)
        self._since.pop(seat, None)

    def since(self, seat: int, index: int) -> int:
        """The cards ``seat`` played at event ``index`` or later (a mask)."""
        at = self._at.get(seat)
        if not at:
            return 0
        union = self._since.get(seat)
        if union is None:
            union = [0] * (len(at) + 1)
            masks = self._masks[seat]
            for k in range(len(at) - 1, -1, -1):
                union[k] = union[k + 1] | masks[k]
            self._since[seat] = union
        return union[bisect_left(at, index)]


def observations(
    events: Sequence[dict[str, Any]], me: int, counts: Sequence[int], limit: int = MAX_OBSERVATIONS
) -> tuple[list[Observation], list[tuple[int, int]]]:
    """What the other seats have shown this hand, from the seat's events: each pass on a
    table and each play that followed one (latest first, at most :data:`MAX_OBSERVATIONS`,
    only seats still holding cards), and the báo 1 violations still on record that the seat
    knows of (its own; another seat's are hidden until the settlement) as
    ``(one-card seat, violator)``.

    >>> events = [{"type": "deal", "counts": [3, 3]}, {"type": "lead", "seat": 0},
    ...           {"type": "play", "seat": 0, "cards": "7♠"}, {"type": "pass", "seat": 1}]
    >>> obs, _ = observations(events, 0, [2, 3])
    >>> [(seat, play) for seat, _, play, _, _ in obs]
    [(1, None)]
    >>> mine = {"type": "bao_mot_single", "seat": 0, "one_card_seats": [1], "violation": True}
    >>> observations([*events, mine], 0, [1, 1])[1]
    [(1, 0)]
    >>> observations([*events, {**mine, "seat": 1, "one_card_seats": [0], "violation": None}], 0, [1, 1])[1]
    []
    """
    start = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=-1)
    held = list(events[start]["counts"]) if start >= 0 and "counts" in events[start] else list(counts)
    table: int | None = None
    sam = False
    found: list[tuple[int, int, int | None, int, int]] = []  # (seat, table, play, index, min_other)
    plays = _SeatPlays()
    violations: dict[int, int] = {}
    for i in range(start + 1, len(events)):
        e = events[i]
        kind = e["type"]
        if kind == "play":
            s = e["seat"]
            m = cards_to_mask(e["cards"])
            if table is not None and s != me and not sam:
                found.append((s, table, m, i, _min_other(held, s)))
            plays.add(s, i, m)
            held[s] -= m.bit_count()
            table = m
        elif kind == "pass":
            s = e["seat"]
            violations.pop(s, None)
            if table is not None and s != me and not sam:
                found.append((s, table, None, i, _min_other(held, s)))
        elif kind in ("lead", "new_round"):
            table = None
        elif kind == "declare_sam":
            sam = True
        elif (kind == "bao_mot_single" and e.get("violation")) or kind == "bao_mot_violation":
            # A single that broke báo 1 is known to its player alone (another seat's view
            # reads ``violation: None``) until the settlement announces it.
            for one in e["one_card_seats"]:
                violations[one] = e["seat"]
    out: list[Observation] = []
    for s, t, play, i, low in reversed(found):
        if counts[s] == 0:
            continue
        out.append((s, t, play, plays.since(s, i), low))
        if len(out) == limit:
            break
    return out, sorted(violations.items())


#: Kinds of lead that the greedy policy makes with its lowest card when they hold no 2 (bombs
#: aside) and no other seat holds a single card (then it leads anything but a lone single).
_PLAIN_LEADS = frozenset({"single", "pair", "triple", "straight"})
#: A seat holding at most this many cards (or facing a seat with at most two) plays whenever
#: the greedy policy holds a beat of the table: it passes only with none.
_SHORT = 5


def unlike_greedy(events: Sequence[dict[str, Any]], me: int, rules: Any) -> set[int]:
    """The other seats whose public actions this hand the greedy policy would not have taken,
    as the cards each played later prove (``rules``: the table's ``SheddingRules``):

    - a lead of a single, pair, triple or straight with no 2 while no other seat held a single
      card, and a later play of a card below the lead's lowest: greedy leads with its lowest
      card;
    - a pass by a seat holding at most five cards (or facing a seat with at most two), and a
      later play of cards that held a beat of that table: greedy, short, plays any beat it has.

    Every fact is public (the plays, the passes, the counts), so the set is the same under
    any deal of the hidden cards. A seat not in it may still be any player: the evidence
    comes as the hand goes on.

    >>> from vncards.tienlen import Rules
    >>> core = Rules().core
    >>> events = [{"type": "deal", "counts": [13, 13, 13, 13]}, {"type": "new_round", "leader": 1},
    ...           {"type": "play", "seat": 1, "combo": "single", "cards": "9♠"},
    ...           {"type": "play", "seat": 2, "combo": "single", "cards": "10♠"}]
    >>> unlike_greedy(events, 0, core)
    set()
    >>> events += [{"type": "pass", "seat": 3}, {"type": "pass", "seat": 0},
    ...            {"type": "play", "seat": 1, "combo": "single", "cards": "J♠"},
    ...            {"type": "new_round", "leader": 1},
    ...            {"type": "play", "seat": 1, "combo": "single", "cards": "4♦"}]
    >>> sorted(unlike_greedy(events, 0, core))
    [1]
    """
    return _greedy_evidence(events, me, rules)[0]


def _greedy_evidence(
    events: Sequence[dict[str, Any]], me: int, rules: Any
) -> tuple[set[int], list[Observation]]:
    """:func:`unlike_greedy`, and every other seat's leads but the hand's first play, as
    observations with no table: the search's inference reads them for the seats it models as
    greedy, testing each against the lead the greedy policy would have made from the cards the
    deal gives the seat (the first play is left out: it must hold the lowest card)."""
    start = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=-1)
    if start < 0 or "counts" not in events[start]:
        return set(), []
    held = list(events[start]["counts"])
    table: int | None = None
    leads: dict[int, int] = {}  # seat: the highest of its plain leads' lowest cards (a mask bit)
    led: list[tuple[int, int, int, int]] = []  # (seat, lead, event index, min_other)
    passes: list[tuple[int, int, int]] = []  # (seat, table, event index) of a short pass
    later = _SeatPlays()
    unlike: set[int] = set()
    first_play = next((i for i in range(start + 1, len(events)) if events[i]["type"] == "play"), -1)
    for i in range(start + 1, len(events)):
        e = events[i]
        kind = e["type"]
        if kind == "play":
            s, m = e["seat"], cards_to_mask(e["cards"])
            if s != me:
                low = m & -m
                if s in leads and m & (leads[s] - 1):
                    unlike.add(s)
                later.add(s, i, m)
                plain = e.get("combo") in _PLAIN_LEADS and not m & _TWOS
                if table is None and plain and _min_other(held, s) > 1:
                    leads[s] = max(leads.get(s, 0), low)
                if table is None and i > first_play:
                    led.append((s, m, i, _min_other(held, s)))
            held[s] -= m.bit_count()
            table = m
        elif kind == "pass":
            s = e["seat"]
            if s != me and table is not None and (held[s] <= _SHORT or _min_other(held, s) <= 2):
                passes.append((s, table, i))
        elif kind in ("lead", "new_round"):
            table = None
        elif kind == "declare_sam":
            break
    for s, t, i in passes:
        if s in unlike:
            continue
        cards = later.since(s, i + 1)
        combo = shedding_classify(t, rules)
        if cards and combo is not None and shedding_has_play(cards, combo, rules):
            unlike.add(s)
    return unlike, [(s, None, m, later.since(s, i), low) for s, m, i, low in led]


#: Most Metropolis steps per deal (the ``chain`` option; ``_core.search_shedding`` refuses more).
MAX_CHAIN = 1000

#: Whom the rollouts the policy plays model the other seats as (the ``opponents`` option).
Opponents = Literal["policy", "greedy", "seen"]
_OPPONENTS = ("policy", "greedy", "seen")


#: Whose decisions a tree search branches on (the ``tree`` option; False: the flat race).
Branching = Literal["every_seat", "own_seat"]


def _branching(tree: bool | str) -> Branching | None:
    """The ``tree`` option as the search binding takes it: False is the flat race, True or
    ``"every_seat"`` a tree branching on every seat's decisions, ``"own_seat"`` one branching on
    the deciding seat's only (the others play the rollout policy)."""
    if tree is False:
        return None
    if tree is True:
        return "every_seat"
    if tree == "every_seat":
        return "every_seat"
    if tree == "own_seat":
        return "own_seat"
    raise RulesError(f"tree: {tree!r} is not true, false, 'every_seat' or 'own_seat'")


def _min_other(held: Sequence[int], seat: int) -> int:
    return min((c for s, c in enumerate(held) if s != seat and c > 0), default=99)


class _SearchMixin(_SheddingBot):
    """The search of a shedding decision: see the module notes."""

    name = "search"
    #: Decisions list every play when there are at most this many; else the cheapest ones.
    MAX_CANDIDATES = 16
    #: Does the game have báo 1 violations a seat keeps on record (read from its events even
    #: without the inference)?
    BAO_MOT_RECORD: ClassVar[bool] = False
    #: The game family of the learned policy the search may use (``vncards.bots.policy``).
    FAMILY: ClassVar[str] = "tienlen"

    def __init__(
        self,
        seed: Seed = None,
        rules: Any = None,
        *,
        rollouts: int | None = 1500,
        think_ms: float | None = None,
        candidates: int | None = None,
        infer: bool = True,
        sam_samples: int = 128,
        value_rollouts: int = 200,
        tree: bool | str = False,
        prior: float = 0.0,
        policy_rollouts: bool = False,
        policy_top: int | None = None,
        policy_play: bool = False,
        opponents: str = "policy",
        chain: int = 0,
        weights: Any = None,
        guided: Mapping[str, Any] | None = None,
        guided_games: Sequence[str] | None = None,
    ) -> None:
        options = {
            k: v
            for k, v in locals().items()
            if k not in ("self", "seed", "rules", "guided", "guided_games", "__class__")
        }
        super().__init__(seed=seed, rules=rules)
        self.budget = SearchBudget(seed, rollouts, think_ms)
        #: The last race's actions, as indices into the legal list it was given, their mean
        #: scores and deals (for :meth:`scored_choice`).
        self._raced: tuple[list[int], list[float], list[int]] | None = None
        self.max_candidates = int(candidates or self.MAX_CANDIDATES)
        self.infer = bool(infer)
        self.sam_samples = int(sam_samples)
        self.value_rollouts = int(value_rollouts)
        self.tree = _branching(tree)
        if opponents not in _OPPONENTS:
            raise RulesError(f"opponents: {opponents!r} is not one of {', '.join(map(repr, _OPPONENTS))}")
        #: Whom rollouts the policy plays model the other seats as (see the module notes).
        self.opponents = cast(Opponents, opponents)
        #: Metropolis card swaps per deal of the inference (0: rejection sampling).
        self.chain = whole_number("chain", chain, 0, MAX_CHAIN, unit="steps")
        self.guide = Guide.of(
            self.FAMILY,
            rules,
            weights,
            prior=prior,
            rollouts=policy_rollouts,
            top=policy_top,
            play=policy_play,
        )
        #: The same bot with the ``guided`` options, which decides wherever the learned
        #: policy's weights fit the table (see the module notes).
        self.guided: _SearchMixin | None = None
        if guided:
            if "guided" in guided:
                raise RulesError("guided options may not hold guided options")
            self.guided = type(self)(seed, rules, **{**options, **guided})
            net = self.guided.guide.net
            if guided_games is not None and (net is None or net.game not in guided_games):
                self.guided = None  # the guided options are for other games of the family

    # -- what the seat knows ---------------------------------------------------------------

    def _known(self, turn: Turn | None) -> list[int] | None:
        """Every seat's hand for the cheating bot; honest bots see none."""
        return None

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        return self._decide(view, legal_actions, None)

    def scored_choice(
        self, view: dict[str, Any], legal_actions: Sequence[Action]
    ) -> tuple[Action, list[float | None], list[int]]:
        """:meth:`choose`, with what the search found for each of ``legal_actions``: its mean
        score (the deciding seat's units over the deals it was played on; None for an action
        the search did not race, and for every action of a decision taken without a race,
        e.g. a forced one, the Sâm decisions or the policy's play) and the deals it was played
        on (0 where None). The teacher data of ``vncards train --distill-targets values``."""
        bots = [self] if self.guided is None else [self, self.guided]
        for bot in bots:
            bot._raced = None
        pick = self._decide(view, legal_actions, None)
        values: list[float | None] = [None] * len(legal_actions)
        samples = [0] * len(legal_actions)
        for bot in bots:
            if bot._raced is not None:
                for i, mean, n in zip(*bot._raced, strict=True):
                    values[i] = float(mean)
                    samples[i] = int(n)
        return pick, values, samples

    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self._decide(None, legal, turn)

    def _decide(self, view: dict[str, Any] | None, legal: Sequence[Action], turn: Turn | None) -> Action:
        start = time.perf_counter()
        only = forced(legal)
        if only is not None:
            return only
        if self.guided is not None:
            players = len(view["hand_counts"]) if view is not None else turn.game.players if turn else 0
            if self.guided.guide.fits(players):
                return self.guided._decide(view, legal, turn)
        if view is None:
            assert turn is not None
            first = legal[0]["type"] if not hasattr(legal, "play_masks") else "play"
            if first in ("declare_sam", "decline_sam"):
                view = turn.view
        if view is not None and any(a["type"] == "declare_sam" for a in legal):
            return self._declare_sam(view, legal, turn)
        if turn is not None:
            facts: Facts = _SeatFacts(turn.game, turn.seat)
            events = turn.events if self.infer or self.BAO_MOT_RECORD else []
        else:
            assert view is not None
            facts = SheddingView.read(view)
            events = view.get("events", []) if self.infer or self.BAO_MOT_RECORD else []
        return self._search(facts, legal, events, turn, start)

    # -- plays -------------------------------------------------------------------------------

    def _candidates(self, v: Facts, masks: list[int], greedy: int | None) -> list[int]:
        """Indexes of the plays to race: all of them when few, else the greedy one, those
        that empty the hand, and the cheapest others (fewest 2s, lowest top card, longest)."""
        if len(masks) <= self.max_candidates:
            order = list(range(len(masks)))
        else:
            keep = {i for i, m in enumerate(masks) if m == v.hand}
            if greedy is not None:
                keep.add(greedy)
            for i in sorted(
                range(len(masks)),
                key=lambda i: (masks[i] & _TWOS != 0, masks[i].bit_length(), -masks[i].bit_count()),
            ):
                if len(keep) >= self.max_candidates:
                    break
                keep.add(i)
            order = sorted(keep)
        if greedy is not None:
            order.remove(greedy)
            order.insert(0, greedy)
        return order

    def _search(
        self,
        v: Facts,
        legal: Sequence[Action],
        events: Sequence[dict[str, Any]],
        turn: Turn | None,
        start: float,
    ) -> Action:
        masks, at = _SheddingBot._plays(self, v, legal)
        passes = pass_index(legal)
        if not masks:
            return legal[0 if passes is None else passes]
        if v.sam is not None and v.sam != v.me:
            # Facing a Sâm declarer, any play blocks it (and the blocker is paid): block.
            return legal[at[min(range(len(masks)), key=lambda i: masks[i].bit_length())]]
        if v.sam == v.me and v.table is None:
            return self._sam_lead(v, masks, at, legal, turn)
        setup = self.setup(v.players)
        if self.guide.play and self.guide.fits(v.players):
            return self._policy_choice(v, legal, setup)
        greedy = rollout_greedy_choice(setup, v.hand, masks, v.table, v.min_other(), passes is not None)
        idx = self._candidates(v, masks, greedy)
        cands: list[int | None] = [masks[i] for i in idx]
        picks = [at[i] for i in idx]  # the candidates' places in ``legal``
        if passes is not None:
            # Pass is the greedy choice when greedy declines to play: it goes first then.
            if greedy is None:
                cands.insert(0, None)
                picks.insert(0, passes)
            else:
                cands.append(None)
                picks.append(passes)
        if len(picks) == 1:
            return legal[picks[0]]
        limit = MODELLED_OBSERVATIONS if self._models_greedy(v) else MAX_OBSERVATIONS
        obs, violators = observations(events, v.me, v.counts, limit) if events else ([], [])
        if not self.infer:
            obs = []  # deals drawn uniformly; the seat's own báo 1 record still counts
        violators = self._violators(v, turn, violators)
        facts = (
            "play",
            v.hand,
            v.table,
            v.table_seat,
            tuple(v.counts),
            v.passed,
            v.out,
            v.played_any,
            v.must,
            v.sam,
            tuple(obs),
        )
        best, means, samples, _spent = search_shedding(
            setup,
            rollout_position(v),
            candidates=cands,
            violators=violators,
            known=self._known(turn),
            tree=self.tree,
            **self.guide.search_args(v.players),
            **self._opponent_model(v, events, obs),
            **self.budget.search_args(start, *facts),
        )
        self._raced = (picks, means, samples)
        return legal[picks[best]]

    def _models_greedy(self, v: Facts) -> bool:
        """Whether the rollouts model other seats as the greedy player (``opponents``)."""
        return self.opponents != "policy" and self.guide.rollouts and self.guide.fits(v.players)

    def _opponent_model(
        self, v: Facts, events: Sequence[dict[str, Any]], obs: list[Observation]
    ) -> dict[str, Any]:
        """The ``greedy_seats`` and ``observations`` of ``_core.search_shedding``: the other
        seats its rollouts play by the greedy policy where the policy plays the rest (none
        without policy rollouts), and with the passes and follows ``obs`` the leads of those
        seats (a greedy seat leads its lowest card)."""
        if not self._models_greedy(v):
            return {"observations": obs, "chain": self.chain}
        unlike, leads = _greedy_evidence(events, v.me, self._rules.core) if self.infer else (set(), [])
        if self.opponents == "greedy":
            unlike = set()
        greedy = [s for s in range(v.players) if s != v.me and s not in unlike]
        return {
            "greedy_seats": greedy,
            "observations": [*obs, *(o for o in leads if o[0] in greedy)],
            "chain": self.chain,
        }

    def _violators(self, v: Facts, turn: Turn | None, known: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The báo 1 violations the rollouts carry: those the seat knows of."""
        return known

    def _policy_choice(self, v: Facts, legal: Sequence[Action], setup: Any) -> Action:
        """The learned policy's best-scored play or pass (the first of equal scores, in the
        order of ``legal``): the ``policy`` bot's choice, scored in Rust from the seat's facts."""
        at = [i for i, a in enumerate(legal) if a["type"] in ("play", "pass")]
        cands = [cards_to_mask(legal[i]["cards"]) if legal[i]["type"] == "play" else None for i in at]
        scores = shedding_policy_scores(setup, rollout_position(v), candidates=cands, policy=self.guide.net)
        return legal[at[max(range(len(at)), key=scores.__getitem__)]]

    # -- Sâm ---------------------------------------------------------------------------------

    def _plan(self, v: Facts | SheddingView, turn: Turn | None, *salt: Any) -> tuple[float, dict[int, float]]:
        seed = self.budget.seed("sam", v.hand, tuple(v.counts), *salt)
        p, leads = sam_plan(
            self.setup(v.players),
            me=v.me,
            hand=v.hand,
            unseen=v.unseen,
            counts=v.counts,
            samples=self.sam_samples,
            seed=seed,
            out=v.out,
            known=self._known(turn),
        )
        return p, dict(leads)

    def _declare_sam(self, view: dict[str, Any], legal: Sequence[Action], turn: Turn | None) -> Action:
        v = SheddingView.read(view)
        p, _ = self._plan(v, turn, "declare")
        n = v.players
        declare = SAM_UNITS * (n - 1) * (2 * p - 1)
        decline = shedding_value(
            self.setup(n),
            me=v.me,
            hand=v.hand,
            unseen=v.unseen,
            counts=v.counts,
            turn=int(view.get("nominal_leader") or 0),
            rollouts=self.value_rollouts,
            seed=self.budget.seed("decline", v.hand, tuple(v.counts)),
            known=self._known(turn),
        )
        want = "declare_sam" if declare > decline else "decline_sam"
        return next(a for a in legal if a["type"] == want)

    def _sam_lead(
        self, v: Facts, masks: list[int], at: Sequence[int], legal: Sequence[Action], turn: Turn | None
    ) -> Action:
        """The declarer's lead: the play whose best split is least often beaten (2s first on
        ties, so the last play can be one without a 2)."""
        _, leads = self._plan(v, turn, "lead")
        best = max(range(len(masks)), key=lambda i: (leads.get(masks[i], 0.0), masks[i] & _TWOS != 0, -i))
        return legal[at[best]]


class TienLenSearchBot(_SearchMixin, TienLenGreedyBot):
    """Tiến Lên (Miền Nam or Bắc) by search: see the module notes."""

    FAMILY = "tienlen"


class SamLocSearchBot(_SearchMixin, SamLocGreedyBot):
    """Sâm Lốc by search, with the Sâm plan and báo 1 weighed in the rollouts."""

    BAO_MOT_RECORD = True
    FAMILY = "samloc"


class _Cheating(CheatingSearch):
    """Sees every hand (``turn.game``'s): the search's upper bound. Benchmarks only."""

    def _known(self, turn: Turn | None) -> list[int] | None:
        game = self._game(turn)
        return [game.hand_mask(s) for s in range(game.players)]

    def _violators(self, v: Facts, turn: Turn | None, known: list[tuple[int, int]]) -> list[tuple[int, int]]:
        # Every seat's violations, from the game's own log.
        assert turn is not None
        return observations(turn.game.events, v.me, v.counts)[1]


class TienLenCheatingBot(_Cheating, TienLenSearchBot):
    """Tiến Lên search on the true hands (benchmarks only)."""


class SamLocCheatingBot(_Cheating, SamLocSearchBot):
    """Sâm Lốc search on the true hands (benchmarks only)."""
