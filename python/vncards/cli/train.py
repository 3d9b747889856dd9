"""``vncards train``: the learned policy trained by self-play (the logic is
:mod:`vncards.learn.train`; this parses the arguments and shows a progress bar). Needs the
``train`` extra (JAX, optax, matplotlib)."""

from __future__ import annotations

import argparse
import shlex
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..errors import VncardsError
from ..games import parse_rule_options
from .base import Commands, add_rules_argument

__all__ = ["register", "run"]

#: The games ``vncards train`` trains (those with a learned ``policy`` bot).
TRAINED = ("tienlen", "tienlen-north", "samloc", "tusac")


def register(commands: Commands) -> None:
    """Adds ``vncards train`` and its arguments."""
    t = commands.add(
        "train",
        run,
        help="train the learned policy bot by self-play (needs the train extra)",
        description="Train the policy bot's network by self-play with deep Monte-Carlo on "
        "this machine's CPU (JAX): every seat plays the network, which learns each legal "
        "action's expected units from the hands' results. Writes the weights file OUT (load it "
        "with make_bot('policy', GAME, weights=OUT)), a checkpoint OUT.ckpt.npz to --resume "
        "from, and the learning curve against greedy on duplicate deals as OUT.curve.json and "
        "OUT.curve.png. pip install 'vncards[train]' first.",
        epilog="example: vncards train tienlen --steps 20000 --seed 1 --out tienlen.vnpolicy",
    )
    t.add_argument("game", choices=list(TRAINED), help="the game")
    t.add_argument(
        "--steps",
        type=int,
        required=True,
        help="Adam updates of self-play (rounded up to whole rounds; 0 with --distill: "
        "distillation only); required, no default",
    )
    t.add_argument("--seed", type=int, default=0, help="seed of everything random (default %(default)s)")
    t.add_argument("--out", required=True, help="the weights file to write (.vnpolicy); required, no default")
    t.add_argument(
        "--resume",
        default=None,
        help="a checkpoint (OUT.ckpt.npz) of the same run to continue (default: none, a new run)",
    )
    t.add_argument("--players", type=int, default=4, help="seats (default %(default)s)")
    add_rules_argument(t)
    t.add_argument("--hands", type=int, default=64, help="self-play hands per round (default %(default)s)")
    t.add_argument("--updates", type=int, default=4, help="Adam updates per round (default %(default)s)")
    t.add_argument("--batch", type=int, default=512, help="minibatch size (default %(default)s)")
    t.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate (default %(default)s)")
    t.add_argument("--epsilon", type=float, default=0.05, help="exploration rate (default %(default)s)")
    t.add_argument(
        "--epsilon-start",
        type=float,
        default=None,
        help="exploration rate at step 0, going linearly to --epsilon over --decay-steps "
        "(default: --epsilon throughout)",
    )
    t.add_argument(
        "--lr-end",
        type=float,
        default=None,
        help="learning rate after --decay-steps, reached linearly (default: --lr throughout)",
    )
    t.add_argument(
        "--decay-steps",
        type=int,
        default=0,
        help="steps over which --epsilon-start and --lr-end are reached (default %(default)s: none)",
    )
    t.add_argument(
        "--return-scale",
        type=float,
        default=0.0,
        help="what the hands' units are divided by before the network learns them "
        "(default %(default)s: the spread of the first round's units)",
    )
    t.add_argument(
        "--distill",
        default=None,
        metavar="BOT",
        help="first learn to play as BOT does (a bot as bench-bots names it, e.g. "
        "search:rollouts=600), from --distill-hands hands it plays at all seats, for "
        "--distill-steps steps; then --steps of self-play (default: none, self-play only)",
    )
    t.add_argument("--distill-hands", type=int, default=0, help="the teacher's hands (default %(default)s)")
    t.add_argument("--distill-steps", type=int, default=0, help="distillation steps (default %(default)s)")
    t.add_argument(
        "--distill-batch", type=int, default=256, help="decisions per distillation step (default %(default)s)"
    )
    t.add_argument(
        "--distill-targets",
        # vncards.learn.config.DISTILL_TARGETS, written out: the parser imports nothing of
        # vncards.learn (tests/test_distill_values.py checks they are the same).
        choices=("choice", "values", "soft"),
        default="choice",
        help="what to learn of each teacher decision: choice, its pick; values, the mean score "
        "its search found for every action it raced (squared error in units); soft, a softmax "
        "of those means over --distill-temperature (cross-entropy); values and soft need a "
        "teacher that searches (default %(default)s)",
    )
    t.add_argument(
        "--distill-temperature",
        type=float,
        default=1.0,
        help="units the search's means are divided by for --distill-targets soft (default %(default)s)",
    )
    t.add_argument(
        "--opponents",
        type=_opponents,
        default=(),
        metavar="BOT:SHARE",
        help="seats of the self-play hands played by BOT instead of the network, each seat with "
        "probability SHARE, pairs comma-separated: greedy (Tiến Lên and Tứ Sắc) or a frozen network, "
        "policy (the shipped weights) or policy:weights=FILE (an earlier run's: a league), e.g. "
        "greedy:0.4,policy:weights=old.vnpolicy:0.2; their decisions are not learned (default: "
        "none, every seat plays the network)",
    )
    t.add_argument(
        "--init",
        default=None,
        metavar="WEIGHTS",
        help="start from the weights file WEIGHTS (.vnpolicy, e.g. a shipped one: same game, "
        "players, rules and sizes) instead of random weights; the optimizer starts afresh "
        "(default: none, random weights)",
    )
    t.add_argument(
        "--eval-every", type=int, default=2000, help="steps between curve points (default %(default)s)"
    )
    t.add_argument(
        "--eval-deals", type=int, default=100, help="duplicate deals per curve point (default %(default)s)"
    )
    t.add_argument(
        "--eval-seed", type=int, default=900_000, help="seed of the curve's deals (default %(default)s)"
    )
    t.add_argument(
        "--checkpoint-every",
        type=float,
        default=300.0,
        help="seconds between checkpoints (default %(default)s)",
    )
    t.add_argument(
        "--tower",
        type=_widths,
        default=None,
        metavar="W,W",
        help="the state tower's layer widths, comma-separated (default 256,128)",
    )
    t.add_argument("--join", type=_width, default=None, help="the join's width (default 128)")
    t.add_argument(
        "--head",
        type=_widths,
        default=None,
        metavar="W,W",
        help="the head's hidden layer widths, comma-separated (default 32)",
    )
    t.add_argument(
        "--tiny",
        action="store_true",
        help="a tiny network (tower 32, join 16, head 8): for tests and trials; not with --tower, --join, --head",
    )


def _opponents(text: str) -> tuple[tuple[str, float], ...]:
    """``--opponents`` (``BOT:SHARE`` pairs, comma-separated)."""
    from ..learn.config import parse_opponents

    try:
        return parse_opponents(text)
    except VncardsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _width(text: str) -> int:
    """One layer width (a positive int)."""
    widths = _widths(text)
    if len(widths) != 1:
        raise argparse.ArgumentTypeError(f"one width, a positive int; not {text!r}")
    return widths[0]


def _widths(text: str) -> tuple[int, ...]:
    """Layer widths written ``512,256`` (each a positive int)."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"write widths as positive ints with commas, e.g. 512,256; not {text!r}"
        ) from None
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"widths must be positive ints, not {text!r}")
    return widths


def run(args: argparse.Namespace, console: Console) -> int:
    """Trains and prints where the files went and the last curve point."""
    sizes = {"tower": args.tower, "join": args.join, "head": args.head}
    if args.tiny:
        if any(v is not None for v in sizes.values()):
            raise VncardsError("--tiny is a size of its own: give it or --tower/--join/--head, not both")
        sizes = {"tower": (32,), "join": 16, "head": (8,)}
    sizes = {k: v for k, v in sizes.items() if v is not None}
    from ..learn.config import TrainConfig, check

    cfg = TrainConfig(
        game=args.game,
        steps=args.steps,
        seed=args.seed,
        players=args.players,
        options=tuple(sorted(parse_rule_options(args.rules).items())),
        hands=args.hands,
        updates=args.updates,
        batch=args.batch,
        lr=args.lr,
        epsilon=args.epsilon,
        epsilon_start=args.epsilon_start,
        lr_end=args.lr_end,
        decay_steps=args.decay_steps,
        return_scale=args.return_scale,
        distill=args.distill,
        distill_hands=args.distill_hands,
        distill_steps=args.distill_steps,
        distill_batch=args.distill_batch,
        distill_targets=args.distill_targets,
        distill_temperature=args.distill_temperature,
        opponents=args.opponents,
        init=args.init,
        eval_every=args.eval_every,
        eval_deals=args.eval_deals,
        eval_seed=args.eval_seed,
        **sizes,
    )
    # The options first (their refusals need no ML library), then the train extra.
    check(cfg)
    try:
        from ..learn.train import train
    except ModuleNotFoundError as e:
        raise VncardsError(
            f"vncards train needs the train extra ({e.name} is missing): pip install 'vncards[train]'"
        ) from None
    command = (
        "vncards " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == ["train"] else f"vncards train {args.game}"
    )
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task(args.game, total=cfg.distill_steps + cfg.rounds * cfg.updates, note="")

        def progress(step: int, total: int, info: dict[str, object]) -> None:
            point = info["curve"]
            if "teacher_hands" in info:
                note = f"teacher's hands {info['teacher_hands']:,}/{cfg.distill_hands:,}"
            elif isinstance(point, dict):
                note = f"loss {info['loss']}  vs greedy {point['lead']:+.2f}"
            else:
                note = ""
            bar.update(task, completed=step, note=note)

        figures = train(
            cfg,
            args.out,
            resume=args.resume,
            command=command,
            checkpoint_every=args.checkpoint_every,
            progress=progress,
        )
    last = figures["curve"][-1]
    console.print(
        f"{args.game}: {figures['provenance']['steps']:,} steps, {figures['provenance']['hands']:,} hands "
        f"in {figures['provenance']['seconds']:.0f} s; vs greedy {last['lead']:+.2f} units a game "
        f"[{last['low']:+.2f}, {last['high']:+.2f}] over {last['deals']} deals. Wrote {args.out}"
    )
    return 0
