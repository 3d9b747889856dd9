"""What the Tứ Sắc search's departures from the learned policy are worth on the true hands.

Plays hands of four ``hard`` seats (the learned policy) from the seeds ``SEED * 1000 + g``. At
every decision with a choice and no win on offer, each configuration of ``--configs`` (a bot as
``vncards bench-bots`` names it) is asked for its choice, which is not played. Where one departs
from the policy's choice, the policy's best three candidates are valued on the true hidden
hands (the position the ``cheating`` search reads: only the stock is unknown), each by
``--stock-deals`` deals of the stock on which every candidate is played out to the hand's end
by the policy at every seat (paired: the same deals for each). A configuration's gain at a
decision is the value of its choice minus the value of the policy's (zero where it keeps the
policy's choice); summed over a hand's decisions and divided by the seats, it is the
configuration's one-step gain over the policy per seat and hand (its later decisions played by
the policy). Configurations run on the same positions and are valued by the same deals, so
their differences are paired by hand. Development seeds only (77, 78).

    python benches/tusac_oracle.py --seed 77 --hands 80 --out runs/oracle_77.jsonl
    python benches/tusac_oracle.py --summary runs/oracle_77.jsonl

One JSON line a hand is appended to ``--out`` (so a run can stop and resume with ``--start``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import vncards.bots.tusac_search as ts
from vncards import _core
from vncards.bots import bot_factory
from vncards.bots.base import Turn
from vncards.bots.strength import parse_bot
from vncards.games import new_game

#: The fourth pass's candidate (issue 33): the race where the policy is unsure.
BASE = "rollouts=1600:policy_rollouts=true:policy_top=3:keep_first=1.5:policy_value=2:policy_margin=1.0"
CONFIGS = [
    f"C=search:{BASE}",
    "C_margin2=search:" + BASE.replace("policy_margin=1.0", "policy_margin=2.0"),
    f"C_chain8=search:{BASE}:chain=8",
    f"C_cheat=cheating:{BASE}",
]
#: The search whose call is read for the candidates and the true-hand position (3 rollouts:
#: the call is only read, then replayed one deal at a time).
CAPTURE = "cheating:rollouts=3:policy_rollouts=true:policy_top=3"
SEATS = 4


@contextmanager
def captured_calls() -> Iterator[list[dict[str, Any]]]:
    """The keyword arguments of each ``tusac_search`` call the search bots make meanwhile (the
    greedy ordering's calls left out)."""
    calls: list[dict[str, Any]] = []
    original = _core.tusac_search
    names = vars(ts)  # the bot module's own name for the binding, patched while capturing

    def wrapped(*args: Any, **kw: Any) -> Any:
        if not kw.get("greedy_only"):
            calls.append({"args": args, "kw": kw})
        return original(*args, **kw)

    names["tusac_search"] = wrapped
    try:
        yield calls
    finally:
        names["tusac_search"] = original


def factory(text: str, rules: Any) -> Callable[[int], Any]:
    """The bot ``text`` names (``vncards bench-bots`` syntax) for ``rules``, by seed."""
    name, options = parse_bot(text)
    made: Callable[[int], Any] = bot_factory(name, "tusac", rules, players=SEATS, **options)
    return made


def candidate(action: dict[str, Any]) -> tuple[Any, ...]:
    """``action`` as the search lists its candidates."""
    t = action["type"]
    if t == "discard":
        return ("discard", ts._kind(action["card"]), None, ())
    if t == "claim":
        return ("claim", None, action["meld"], tuple(ts._kind(c) for c in action["cards"]))
    return (t, None, None, ())


def true_values(
    game: Any, seat: int, capture: Any, calls: list[dict[str, Any]], deals: int
) -> tuple[list[tuple[Any, ...]], list[list[float]]]:
    """The policy's best three candidates at ``seat`` and each one's settlement on the true
    hands, on each of ``deals`` deals of the stock (the same deals for each)."""
    calls.clear()
    capture.act(Turn(game, seat))
    call = calls[-1]
    cands = [(c[0], c[1], c[2], tuple(c[3])) for c in call["kw"]["candidates"]]
    kw = {k: v for k, v in call["kw"].items() if k not in ("keep_first", "value_after")}
    kw |= {"rollouts": len(cands), "think_ms": None}
    scores: list[list[float]] = [[] for _ in cands]
    for s in range(deals):
        _best, means, _samples, _spent = _core.tusac_search(
            *call["args"], **{**kw, "seed": 1_000_003 * (s + 1)}
        )
        for i, m in enumerate(means):
            scores[i].append(round(float(m), 2))
    return cands, scores


def play(
    seed: int, hand: int, configs: dict[str, str], deals: int, calls: list[dict[str, Any]]
) -> dict[str, Any]:
    """One hand of four ``hard`` seats, with each configuration's choice and the true values
    where one departs from the policy."""
    began = time.time()
    game = new_game("tusac", players=SEATS, seed=seed * 1000 + hand)
    hard = [factory("hard", game.rules)(s) for s in range(SEATS)]
    bots = {k: [factory(v, game.rules)(100 + s) for s in range(SEATS)] for k, v in configs.items()}
    capture = [factory(CAPTURE, game.rules)(100 + s) for s in range(SEATS)]
    cpu = dict.fromkeys(configs, 0.0)
    rows = []
    decisions = 0
    for _ in range(100_000):
        if game.is_over:
            break
        seat = game.pending_seats[0]
        turn = Turn(game, seat)
        legal = list(turn.legal_actions)
        action = hard[seat].act(turn)
        if len(legal) > 1 and not any(a["type"] == "win" for a in legal):
            decisions += 1
            choice = {}
            for k, seats in bots.items():
                c0 = time.thread_time()
                choice[k] = candidate(seats[seat].act(Turn(game, seat)))
                cpu[k] += time.thread_time() - c0
            policy = candidate(action)
            if any(c != policy for c in choice.values()):
                cands, scores = true_values(game, seat, capture[seat], calls, deals)
                rows.append(
                    {
                        "seat": seat,
                        "policy": cands.index(policy),
                        "choice": {k: cands.index(c) for k, c in choice.items()},
                        "scores": scores,
                    }
                )
        game.apply(action)
    return {
        "hand": seed * 1000 + hand,
        "decisions": decisions,
        "rows": rows,
        "cpu": cpu,
        "wall": time.time() - began,
    }


def summary(paths: list[str]) -> None:
    """Each configuration's departures and true-hand gain per seat and hand, with a 95%
    bootstrap interval over hands, and its paired difference from the first."""
    hands = [json.loads(line) for p in paths for line in Path(p).read_text(encoding="utf-8").splitlines()]
    names = [k for k in hands[0]["cpu"] if all(k in h["cpu"] for h in hands)]
    decisions = sum(h["decisions"] for h in hands)
    gains: dict[str, list[float]] = {k: [] for k in names}
    departs = dict.fromkeys(names, 0)
    for h in hands:
        total = dict.fromkeys(names, 0.0)
        for r in h["rows"]:
            value = [statistics.fmean(s) for s in r["scores"]]
            for k in names:
                if r["choice"][k] != r["policy"]:
                    departs[k] += 1
                    total[k] += value[r["choice"][k]] - value[r["policy"]]
        for k in names:
            gains[k].append(total[k] / SEATS)
    rng = random.Random(0)

    def interval(xs: list[float]) -> str:
        boots = sorted(statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(2000))
        return f"{statistics.fmean(xs):+.2f} [{boots[50]:+.2f}, {boots[1949]:+.2f}]"

    print(f"{len(hands)} hands, {decisions} decisions with a choice")
    print(
        "| configuration | departures (% of decisions) | gain a seat and hand | minus the first's | CPU ms a decision |"
    )
    print("|---|---|---|---|---|")
    first = names[0]
    for k in names:
        diff = interval([a - b for a, b in zip(gains[k], gains[first], strict=True)]) if k != first else ""
        cpu = sum(h["cpu"][k] for h in hands) / decisions * 1000
        print(
            f"| {k} | {departs[k]} ({100 * departs[k] / decisions:.1f}) | {interval(gains[k])} | {diff} | {cpu:.0f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--start", type=int, default=0, help="first hand index (to resume)")
    ap.add_argument("--stock-deals", type=int, default=300)
    ap.add_argument("--configs", nargs="+", default=CONFIGS, help="NAME=BOT, the bench-bots syntax")
    ap.add_argument("--out", default="tusac_oracle.jsonl")
    ap.add_argument("--summary", nargs="+", metavar="JSONL")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
        return
    configs = dict(c.split("=", 1) for c in args.configs)
    with captured_calls() as calls, open(args.out, "a", encoding="utf-8") as out:
        for g in range(args.start, args.start + args.hands):
            out.write(json.dumps(play(args.seed, g, configs, args.stock_deals, calls)) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
