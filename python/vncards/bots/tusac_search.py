"""The Tứ Sắc search bot, and the cheating bot of Tứ Sắc (benchmarks only).

A decision (the discard, or the answer to an offer: which claim, or pass) races its candidates
in Rust (:mod:`vncards._core` ``tusac_search``): each deal gives the cards the seat has not
seen to the other hidden hands and to the stock (nọc), every candidate is played out to the end
of the hand by the greedy policy of every seat, candidates confidently worse than the leader
are dropped, and the best mean wins. A win is always taken. Deals respect what the table has
shown: the triple and khui are mandatory, so a seat that let a card go (it went dead, or
another seat made a lesser claim of it) held at most one copy then, and holds at most one now.

With the learned policy (:mod:`vncards.bots.policy`, where its weights ship for the table's
rules and size, or ``weights=``), ``policy_rollouts=True`` has the policy play the rollouts
instead of greedy: every seat of a deal discards and answers as the policy scores its own view
of that deal (the deals are those above, so the choice still reads nothing hidden);
``policy_top=k`` races only the policy's ``k`` best-scored candidates, its choice first, and
``keep_first=z`` keeps that first candidate unless another beats it by more than ``z``
standard errors of their paired difference over the same deals (a small budget then leaves a
strong policy only on evidence); ``policy_margin=m`` (with ``policy_rollouts`` or
``policy_top``, which bring the policy in) races only the candidates the policy scores within
``m`` units of its best (so the search runs only where the policy is unsure, and plays
the policy's choice where one candidate leads by more); ``policy_value=d`` stops each rollout the
policy plays at the seat's ``d``-th own later decision and scores it by the policy's best score
there (from the seat's view of the rollout's table: cheaper rollouts, their scores less spread,
as right as the network's values); ``policy_play=True`` plays the policy's
best-scored action with no search (the ``policy`` bot's choice). Where no weights fit the table
it searches as without these options. ``guided`` (a mapping of options) makes the bot decide
with those options wherever the shipped weights fit the table and with its own elsewhere, so a
level defined with them plays every table (the bots guide says which Tứ Sắc levels do).

>>> from vncards.games import new_game
>>> from vncards.simulate import play_game
>>> game = new_game("tusac", players=3, seed=2)
>>> bots = [TuSacSearchBot(seed=s, rules=game.rules, rollouts=60) for s in range(3)]
>>> sum(play_game(game, bots).settlement)
0
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .._core import TuSacCard, TuSacRolloutSetup, tusac_pack, tusac_search
from ..errors import RulesError
from ..table import Seed
from .base import Turn
from .budget import CheatingSearch, SearchBudget, forced
from .options import real_number, whole_number
from .policy import Guide, TuSacPolicyBot
from .search import MAX_CHAIN

__all__ = ["TuSacSearchBot", "TuSacCheatingBot", "let_go", "observed"]

Action = dict[str, Any]
_LESSER = {"pair", "general", "general_set", "chariot_set", "three_soldiers", "four_soldiers"}


def _kind(code: str) -> int:
    return TuSacCard(code).index


#: An offer on the table: (kind, turned up from the stock, the seat it came from), the order
#: ``tusac_search``'s tables take it in.
Offer = tuple[int, bool, int]


def _offers(events: Sequence[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Offer | None]]:
    """Each event with the offer standing when it came (None from a deal, a claim or a dead
    card until the next discard or turn-up): the offer tracking ``let_go`` and ``observed``
    share."""
    offer: Offer | None = None
    for e in events:
        yield e, offer
        kind = e["type"]
        if kind in ("deal", "dead", "claim"):
            offer = None
        elif kind in ("discard", "turn_up"):
            offer = (_kind(e["card"]), kind == "turn_up", e["seat"])


def _could_answer(offer: Offer, players: int, me: int, claimer: int | None = None) -> list[int]:
    """The seats besides ``me`` (and ``claimer``) that were asked about ``offer``: every seat
    for a card turned up from the stock, all but the discarder for a discard."""
    _, from_stock, origin = offer
    return [s for s in range(players) if s != me and s != claimer and (from_stock or s != origin)]


def let_go(events: Sequence[dict[str, Any]], players: int, me: int) -> list[int]:
    """Per seat, a mask of the kinds it let go of this hand (bit k: it was offered a k and
    made no triple or khui of it, so it holds at most one): every seat asked about an offer
    that went dead, or that another seat claimed into a lesser meld than a triple.

    >>> events = [{"type": "discard", "seat": 0, "card": "PW", "opening": True},
    ...           {"type": "dead", "card": "PW"}]
    >>> [bin(m) for m in let_go(events, 3, 0)]
    ['0b0', '0b1000000000000000000000000000', '0b1000000000000000000000000000']
    """
    masks = [0] * players
    for e, offer in _offers(events):
        kind = e["type"]
        if kind == "deal":
            masks = [0] * players
        elif offer is not None and (kind == "dead" or (kind == "claim" and e.get("meld") in _LESSER)):
            claimer = e.get("seat") if kind == "claim" else None
            for s in _could_answer(offer, players, me, claimer):
                masks[s] |= 1 << offer[0]
    return masks


def _pack(counts: Sequence[int]) -> int:
    """Per-kind counts packed as ``tusac_pack`` packs a hand (three bits a kind)."""
    return sum(c << (3 * k) for k, c in enumerate(counts))


def observed(events: Sequence[dict[str, Any]], players: int, me: int) -> list[tuple[Any, ...]]:
    """The other seats' public decisions this hand, for the search's inference
    (``tusac_search(..., observed=)``): each discard, each claim (its meld and the cards it
    took from the hand), and each pass on an offer that went dead (every seat that could
    answer it let it go), with the table as the seat saw it then (dead and exposed cards,
    hidden counts, stock, offer) and the cards its hidden hand has lost since, the
    decision's own included. Everything comes from the public events: hidden hands only
    shrink in Tứ Sắc, so what a seat held then is what it holds now and those cards.

    >>> events = [{"type": "deal", "dealer": 0, "counts": [21, 20, 20], "stock": 31},
    ...           {"type": "discard", "seat": 0, "card": "PW", "opening": True},
    ...           {"type": "dead", "card": "PW"}]
    >>> [(o[0], o[1][0]) for o in observed(events, 3, 1)]
    [(0, 'discard'), (2, 'pass')]
    """
    counts = [0] * players
    stock = 0
    dead = [0] * 28
    exposed = [[0] * 28 for _ in range(players)]
    opening = False
    # (seat, choice, table then, index of the seat's first removal since)
    seen: list[tuple[int, tuple[Any, ...], tuple[Any, ...], int]] = []
    removed: list[list[int]] = [[] for _ in range(players)]  # each seat's lost kinds, in order

    def table(offer: Offer | None) -> tuple[Any, ...]:
        return (_pack(dead), [_pack(e) for e in exposed], list(counts), stock, offer, opening)

    for e, offer in _offers(events):
        kind = e["type"]
        if kind == "deal":
            counts, stock = list(e["counts"]), int(e["stock"])
            dead = [0] * 28
            exposed = [[0] * 28 for _ in range(players)]
            opening, seen = True, []
            removed = [[] for _ in range(players)]
        elif kind == "quan":
            s, k = e["seat"], _kind(e["card"])
            exposed[s][k] += 4
            counts[s] -= 4
            removed[s] += [k] * 4
        elif kind == "discard":
            s, k = e["seat"], _kind(e["card"])
            opening = bool(e.get("opening", False))
            if s != me:
                seen.append((s, ("discard", k, None, []), table(None), len(removed[s])))
            counts[s] -= 1
            removed[s].append(k)
            opening = False
        elif kind == "turn_up":
            stock = int(e["stock"])
        elif kind == "dead" and offer is not None:
            for s in _could_answer(offer, players, me):
                seen.append((s, ("pass", None, None, []), table(offer), len(removed[s])))
            dead[offer[0]] += 1
        elif kind == "claim" and offer is not None:
            s, k = e["seat"], offer[0]
            used = [_kind(c) for c in e["cards"]]
            used.remove(k)
            if s != me:
                seen.append((s, ("claim", None, e["meld"], used), table(offer), len(removed[s])))
            for u in [*used, k]:
                exposed[s][u] += 1
            counts[s] -= len(used)
            removed[s] += used
    out = []
    for s, choice, (dead_then, exposed_then, counts_then, stock_then, offer_then, opening_then), i in seen:
        later = [0] * 28
        for k in removed[s][i:]:
            later[k] += 1
        out.append(
            (
                s,
                choice,
                dead_then,
                exposed_then,
                counts_then,
                stock_then,
                offer_then,
                opening_then,
                _pack(later),
            )
        )
    return out


class TuSacSearchBot:
    """Tứ Sắc by search: see the module notes. ``rollouts`` and/or ``think_ms`` per decision."""

    name = "search"

    def __init__(
        self,
        seed: Seed = None,
        rules: Any = None,
        *,
        rollouts: int | None = 400,
        think_ms: float | None = None,
        infer: bool = True,
        policy_rollouts: bool = False,
        policy_top: int | None = None,
        keep_first: float | None = None,
        policy_margin: float | None = None,
        policy_value: int | None = None,
        policy_play: bool = False,
        chain: int | None = None,
        weights: Any = None,
        guided: Mapping[str, Any] | None = None,
    ) -> None:
        if rules is None:
            raise RulesError("TuSacSearchBot needs the table's rules")
        self._rules = rules
        self.budget = SearchBudget(seed, rollouts, think_ms)
        self.infer = bool(infer)
        self._setups: dict[int, TuSacRolloutSetup] = {}
        self.guide = Guide.of(
            "tusac", rules, weights, prior=0.0, rollouts=policy_rollouts, top=policy_top, play=policy_play
        )
        #: The first candidate is kept unless beaten by this many standard errors (None: the
        #: best mean wins).
        self.keep_first = (
            None
            if keep_first is None
            else real_number("keep_first", keep_first, 0, 100, unit="standard errors")
        )
        #: Only the candidates the policy scores within this many units of its best are raced
        #: (None: all of ``policy_top``).
        self.policy_margin = (
            None if policy_margin is None else real_number("policy_margin", policy_margin, 0, unit="units")
        )
        #: Rollouts the policy plays stop at the seat's ``policy_value``-th own decision, scored
        #: by the policy's value (None: played out to the hand's end).
        self.policy_value = (
            None if policy_value is None else whole_number("policy_value", policy_value, 1, unit="decisions")
        )
        #: Card swaps a deal of the inference's chain (None: no inference from the other
        #: seats' decisions, only from the claims they had to make).
        self.chain = None if chain is None else whole_number("chain", chain, 0, MAX_CHAIN, unit="steps")
        self._policy = None if self.guide.net is None else TuSacPolicyBot(seed, rules, weights=self.guide.net)
        #: The same bot with the ``guided`` options, which decides wherever the learned
        #: policy's weights fit the table (see the module notes).
        self.guided: TuSacSearchBot | None = None
        if guided:
            if "guided" in guided:
                raise RulesError("guided options may not hold guided options")
            options = {"rollouts": rollouts, "think_ms": think_ms, "infer": infer}
            options |= {
                "policy_rollouts": policy_rollouts,
                "policy_top": policy_top,
                "keep_first": keep_first,
                "policy_margin": policy_margin,
                "policy_value": policy_value,
            }
            options |= {"policy_play": policy_play, "chain": chain, "weights": weights}
            self.guided = type(self)(seed, rules, **{**options, **guided})

    def _setup(self, players: int) -> TuSacRolloutSetup:
        if players not in self._setups:
            r = self._rules
            self._setups[players] = TuSacRolloutSetup(
                players,
                odd_total=r.odd_total,
                set_lenh=r.set_lenh,
                triple_optional=r.triple_optional,
                bung_rule=r.bung_rule,
                discard_rule=r.discard_rule,
                tuong_as_ty=r.tuong_as_ty,
                draw_at_stock=r.draw_at_stock,
                payment=r.payment,
                claim_window=r.claim_window,
            )
        return self._setups[players]

    def _known(self, turn: Turn | None) -> list[int] | None:
        return None

    def act(self, turn: Turn) -> Action:
        """:meth:`choose` for ``turn`` (a forced move without building the view)."""
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        view = turn.view
        events = turn.events if self.infer and not view.get("events") else view.get("events", [])
        return self._decide(view, legal, events, turn)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """The best of ``legal_actions`` by search (``view["events"]`` feeds the inference)."""
        return self._decide(view, legal_actions, view.get("events", []) if self.infer else [], None)

    def _decide(
        self,
        view: dict[str, Any],
        legal: Sequence[Action],
        events: Sequence[dict[str, Any]],
        turn: Turn | None,
    ) -> Action:
        start = time.perf_counter()
        only = forced(legal)
        if only is not None:
            return only
        players = int(view["players"])
        if self.guided is not None and self.guided.guide.fits(players):
            return self.guided._decide(view, legal, events, turn)
        if self._policy is not None and self.guide.play and self.guide.fits(players):
            return self._policy.choose(view, legal)
        win = next((a for a in legal if a["type"] == "win"), None)
        if win is not None:
            return win
        cands: list[tuple[str, int | None, str | None, list[int]]] = []
        for a in legal:
            t = a["type"]
            if t == "discard":
                cands.append(("discard", _kind(a["card"]), None, []))
            elif t == "claim":
                cands.append(("claim", None, a["meld"], [_kind(c) for c in a["cards"]]))
            else:
                cands.append((t, None, None, []))
        me = view["seat"]
        n = view["players"]
        hand = tusac_pack(" ".join(view["hand"]))
        shown = [[c for m in melds for c in m["cards"]] for melds in view["exposed"]]  # per seat
        exposed = [c for cards in shown for c in cards]
        offer = view.get("offer")
        public_cards = exposed + list(view["dead"]) + ([offer["card"]] if offer else [])
        public = tusac_pack(" ".join(public_cards)) if public_cards else 0
        args: dict[str, Any] = {
            "me": me,
            "hand": hand,
            "counts": list(view["hand_counts"]),
            "exposed_lenh": list(view["exposed_lenh"]),
            "exposed_quad": [
                any(m["meld"] in ("quad", "claimed_quad") for m in melds) for melds in view["exposed"]
            ],
            "public": public,
            "stock": int(view["stock"]),
            "offer": None
            if offer is None
            else (_kind(offer["card"]), offer["source"] == "stock", int(offer["seat"])),
            "opening": any(c[0] == "discard" and c[1] is not None and c[1] < 4 for c in cands),
            "single": let_go(events, n, me) if events and not self._rules.triple_optional else None,
            "exposed": [tusac_pack(" ".join(cards)) if cards else 0 for cards in shown],
        }
        setup = self._setup(n)
        greedy, *_ = tusac_search(setup, candidates=cands, seed=0, rollouts=1, greedy_only=True, **args)
        order = [greedy, *(i for i in range(len(cands)) if i != greedy)]
        narrowed = self.guide.top is not None or self.policy_margin is not None
        if self._policy is not None and narrowed and self.guide.fits(n):
            # The policy's best-scored candidates, its choice first (the first of equal scores).
            scores = self._policy.scores(view, legal)
            order = sorted(range(len(cands)), key=lambda i: -scores[i])[: self.guide.top]
            if self.policy_margin is not None:
                order = [i for i in order if scores[order[0]] - scores[i] <= self.policy_margin]
            if len(order) == 1:
                return legal[order[0]]
        facts = (
            "tusac",
            hand,
            public,
            tuple(args["counts"]),
            args["stock"],
            args["offer"],
            tuple(args["single"] or ()),
        )
        best, _means, _samples, _spent = tusac_search(
            setup,
            candidates=[cands[i] for i in order],
            known=self._known(turn),
            keep_first=self.keep_first,
            **self._inference_args(events, n, me),
            **args,
            **self._policy_args(n),
            **self.budget.search_args(start, *facts),
        )
        return legal[order[best]]

    def _inference_args(self, events: Sequence[dict[str, Any]], players: int, me: int) -> dict[str, Any]:
        """The inference arguments of ``_core.tusac_search``: the other seats' decisions and
        the chain's swaps a deal, with ``chain`` (none without it)."""
        if not self.chain or not events:
            return {}
        return {"observed": observed(events, players, me), "chain": self.chain}

    def _policy_args(self, players: int) -> dict[str, Any]:
        """The policy arguments of ``_core.tusac_search``: none unless the policy plays the
        rollouts and its weights fit the table."""
        if not (self.guide.rollouts and self.guide.fits(players)):
            return {}
        args: dict[str, Any] = {"policy": self.guide.net, "policy_rollouts": True}
        if self.policy_value is not None:
            args["value_after"] = self.policy_value
        return args


class TuSacCheatingBot(CheatingSearch, TuSacSearchBot):
    """The Tứ Sắc search on the true hidden hands (the stock stays unknown): benchmarks only."""

    def _known(self, turn: Turn | None) -> list[int] | None:
        return list(self._game(turn)._hands)
