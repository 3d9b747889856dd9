"""``vncards train``: the learned policy trained by self-play with deep Monte-Carlo (DouZero's
method), on a CPU with JAX and optax (the ``train`` extra).

**Method.** Each round, every seat of ``hands`` tables plays the current network in the Rust
core (``_core.PolicyNet.selfplay``: the best-scored legal action, a uniformly random one with
probability ``epsilon``); each decision with a choice gives a sample (the seat's observation,
the row of the action taken, the units the seat won when the hand ended). The network then
takes ``updates`` Adam steps on minibatches drawn from the round's samples, regressing each
action's score on its Monte-Carlo return (squared error). A round is the unit of work:
``steps`` (Adam updates) round up to whole rounds.

**Scale and schedules.** The returns are learned divided by ``return_scale`` (by default the
standard deviation of the first round's returns, at least 1), and the weights file's last layer
is multiplied back, so it scores in units: one learning rate then serves Tứ Sắc, whose hands
pay a few units, and Sâm Lốc, whose pay sixty. ``epsilon_start`` and ``lr_end`` make the
exploration rate and the learning rate go linearly to ``epsilon`` and ``lr_end`` over
``decay_steps`` steps: a Tứ Sắc network that starts from random weights almost never declares
a win (a hand of such play ends in a draw 99.7% of the time, and all its returns are zero),
so it must explore a lot at first; and a smaller step at the end averages the noise of
Monte-Carlo returns (a Tiến Lên hand's units have a spread of about 9) instead of following it.

**Why deep Monte-Carlo.** The environments give each legal action's card row, so scoring
(view, action) pairs handles every action list with one small network whose per-action cost is
a few hundred multiply-adds (the state tower runs once per decision); Monte-Carlo returns need
no value bootstrapping, whose bias hurts in these long-horizon, sparse-reward games (DouZero,
Zha et al. 2021); and self-play costs nothing but the environment's speed, where distilling the
search bots would pay ~17 ms of search per labelled decision.

**Reproducible.** Every random draw comes from ``seed``: the starting weights, the deals of each
round (``numpy.random.default_rng([seed, round])``, 63-bit deal seeds), the exploration (per
deal, in Rust) and the minibatches. A checkpoint is written after whole rounds (every
``checkpoint_every`` seconds and at the end): the weights, the optimizer's state, the minibatch
stream's state and the learning curve, so ``--resume`` continues the same run, with the same
figures as an uninterrupted run.

**Learning curve.** Every ``eval_every`` steps the network plays ``eval_deals`` duplicate deals
against ``greedy`` (:func:`vncards.bots.strength.bench_bots`, two of each alternated, seed
``eval_seed``: deals training never draws, whose seeds are small integers), and the lead in
units per game with its 95% interval goes into the curve (``OUT.curve.json`` and a PNG plot,
``OUT.curve.png``, with matplotlib).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__, games
from ..bots.policy import SUFFIX, rules_record
from ..errors import RulesError
from .config import GAMES, TrainConfig, check
from .model import Layers, init_layers, to_net

try:
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ModuleNotFoundError(
        "vncards train needs JAX and optax: pip install 'vncards[train]'", name=e.name
    ) from e

__all__ = [
    "TrainConfig",
    "GAMES",
    "train",
    "METHOD",
    "DISTILL_METHOD",
    "DISTILL_VALUES_METHOD",
    "DISTILL_SOFT_METHOD",
    "OPPONENTS_METHOD",
    "INIT_METHOD",
]

METHOD = "deep Monte-Carlo self-play (DouZero): every seat plays the net, epsilon-greedy; squared error to the hand's units"
#: What a run that first distils a teacher records before :data:`METHOD` (or alone, with no self-play).
DISTILL_METHOD = (
    "distillation of {teacher} (cross-entropy of each decision's legal actions, the scores read as logits, "
    "to the teacher's pick: scores are then preferences, not units)"
)
#: What a run that distils the teacher's values (``distill_targets="values"``) records instead.
DISTILL_VALUES_METHOD = (
    "distillation of {teacher}'s search values (squared error of each raced action's score, in units, "
    "to the search's mean for it, weighted by its deals n as n / (n + 16))"
)
#: What a run that distils a softmax of the teacher's values (``distill_targets="soft"``) records.
DISTILL_SOFT_METHOD = (
    "distillation of {teacher}'s search values as soft targets (cross-entropy of each decision's legal "
    "actions, the scores divided by {temperature:g} units read as logits, to the softmax of the search's "
    "means divided by the same; actions not raced have no share)"
)
#: What a run with ``opponents`` adds to :data:`METHOD`.
OPPONENTS_METHOD = "but each seat of a hand is played instead, with these probabilities, by {mix}: its decisions are not learned"
#: What a run with ``init`` records before the rest of its method.
INIT_METHOD = "starting from the weights {file} (SHA-256 {sha256}, {steps} steps of their own)"
CHECKPOINT_VERSION = 1


def _state(t: int, params: Any, obs: Any) -> Any:
    """The state tower's part of the join layer for each observation (before its ReLU)."""
    x = obs
    for w, b in params[:t]:
        x = jax.nn.relu(x @ w.T + b)
    js, bs = params[t]
    return x @ js.T + bs


def _score(t: int, params: Any, state: Any, act: Any) -> Any:
    """The score of each action row ``act`` joined to its decision's ``state`` (from
    :func:`_state`): the join layer's ReLU, then the head."""
    ja, ba = params[t + 1]
    z = jax.nn.relu(state + act @ ja.T + ba)
    head = params[t + 2 :]
    for k, (w, b) in enumerate(head):
        z = z @ w.T + b
        if k < len(head) - 1:
            z = jax.nn.relu(z)
    return z[:, 0]


def _q(t: int, params: Any, obs: Any, act: Any) -> Any:
    """The score of each (observation, action row) pair."""
    return _score(t, params, _state(t, params, obs), act)


def _optimizer(cfg: TrainConfig) -> Any:
    lr: Any = cfg.lr
    if cfg.lr_end is not None and cfg.decay_steps:
        lr = optax.linear_schedule(cfg.lr, cfg.lr_end, cfg.decay_steps)
    return optax.chain(optax.clip_by_global_norm(10.0), optax.adam(lr))


def _distill_optimizer(cfg: TrainConfig) -> Any:
    return optax.chain(optax.clip_by_global_norm(10.0), optax.adam(cfg.lr))


def _distill_fn(cfg: TrainConfig) -> Callable[..., Any]:
    """One Adam step of cross-entropy between the scores of each decision's legal actions
    (as logits) and the teacher's pick. ``seg[r]``: the decision of row ``r``; ``mask``: the
    real rows (a batch's rows are padded to a few sizes, so that few shapes are compiled)."""
    t = len(cfg.tower)
    opt = _distill_optimizer(cfg)
    batch = cfg.distill_batch

    def loss(params: Any, obs: Any, act: Any, seg: Any, mask: Any, chosen: Any) -> Any:
        q = jnp.where(mask, _rows_scores(t, params, obs, act, seg), -1e9)
        top = jax.ops.segment_max(q, seg, num_segments=batch)
        total = jax.ops.segment_sum(jnp.exp(q - top[seg]) * mask, seg, num_segments=batch)
        return jnp.mean(jnp.log(total) + top - q[chosen])

    @jax.jit
    def update(params: Any, state: Any, obs: Any, act: Any, seg: Any, mask: Any, chosen: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(params, obs, act, seg, mask, chosen)
        changes, state = opt.update(grads, state, params)
        return optax.apply_updates(params, changes), state, value

    return update


def _rows_scores(t: int, params: Any, obs: Any, act: Any, seg: Any) -> Any:
    """The network's score of each row ``act`` of the decisions ``obs`` (row ``r`` of
    decision ``seg[r]``): the state tower once per decision."""
    return _score(t, params, _state(t, params, obs)[seg], act)


#: Deals at which a search mean's weight in ``distill_targets="values"`` is one half.
VALUE_WEIGHT_DEALS = 16.0


def _values_fn(cfg: TrainConfig, scale: float) -> Callable[..., Any]:
    """One Adam step of distillation on the teacher's values (``distill_targets`` ``values``
    or ``soft``, see :data:`vncards.learn.config.DISTILL_TARGETS`); the network's scores are
    in units divided by ``scale``. ``target`` and ``weight`` per row: for ``values`` the mean
    (divided by ``scale``) and its weight (0 where none); for ``soft`` the row's share of its
    decision (``weight`` unused)."""
    t = len(cfg.tower)
    opt = _distill_optimizer(cfg)
    batch = cfg.distill_batch
    soft = cfg.distill_targets == "soft"
    factor = scale / cfg.distill_temperature

    def loss(params: Any, obs: Any, act: Any, seg: Any, mask: Any, target: Any, weight: Any) -> Any:
        q = _rows_scores(t, params, obs, act, seg)
        if not soft:
            return jnp.sum(weight * (q - target) ** 2) / jnp.maximum(jnp.sum(weight), 1e-6)
        logit = jnp.where(mask, q * factor, -1e9)
        top = jax.ops.segment_max(logit, seg, num_segments=batch)
        total = jax.ops.segment_sum(jnp.exp(logit - top[seg]) * mask, seg, num_segments=batch)
        log_z = jnp.log(jnp.maximum(total, 1e-30)) + top
        return jnp.sum(target * (log_z[seg] - logit) * mask) / batch

    @jax.jit
    def update(
        params: Any, state: Any, obs: Any, act: Any, seg: Any, mask: Any, target: Any, weight: Any
    ) -> Any:
        value, grads = jax.value_and_grad(loss)(params, obs, act, seg, mask, target, weight)
        changes, state = opt.update(grads, state, params)
        return optax.apply_updates(params, changes), state, value

    return update


def _values_batch(data: dict[str, Any], picks: Any, cfg: TrainConfig, scale: float) -> tuple[Any, ...]:
    """The arrays of one step of :func:`_values_fn`: decisions ``picks`` with their rows,
    padded, and each row's target and weight."""
    obs, act, seg, mask, chosen = _distill_batch(data, picks)
    offsets = data["offsets"]
    lo, counts = offsets[picks], offsets[picks + 1] - offsets[picks]
    total = int(counts.sum())
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    idx = np.repeat(lo - starts, counts) + np.arange(total)
    values = data["values"][idx].astype(np.float64)
    known = np.isfinite(values)
    target = np.zeros(len(seg), np.float32)
    weight = np.zeros(len(seg), np.float32)
    if cfg.distill_targets == "values":
        deals = data["samples"][idx].astype(np.float64)
        target[:total] = np.where(known, values, 0.0) / scale
        weight[:total] = np.where(known, deals / (deals + VALUE_WEIGHT_DEALS), 0.0)
        return obs, act, seg, mask, target, weight
    # soft: a softmax of value / temperature over each decision's raced rows; a decision
    # with none raced is learned as its pick.
    s = seg[:total]
    logit = np.where(known, values / cfg.distill_temperature, -np.inf)
    top = np.full(len(picks), -np.inf)
    np.maximum.at(top, s, logit)
    e = np.where(known, np.exp(logit - np.where(np.isfinite(top), top, 0.0)[s]), 0.0)
    norm = np.zeros(len(picks))
    np.add.at(norm, s, e)
    share = np.where(norm[s] > 0, e / np.where(norm[s] > 0, norm[s], 1.0), 0.0)
    target[:total] = share
    none = norm == 0
    target[chosen[none]] = 1.0
    return obs, act, seg, mask, target, weight


def _distill_batch(data: dict[str, Any], picks: Any) -> tuple[Any, ...]:
    """The arrays of one distillation step: decisions ``picks`` with their rows, padded."""
    offsets = data["offsets"]
    lo, hi = offsets[picks], offsets[picks + 1]
    counts = hi - lo
    total = int(counts.sum())
    size = -(-total // 1024) * 1024
    seg = np.zeros(size, np.int32)
    seg[:total] = np.repeat(np.arange(len(picks), dtype=np.int32), counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    idx = np.repeat(lo - starts, counts) + np.arange(total)
    act = np.zeros((size, data["rows"].shape[1]), np.float32)
    act[:total] = data["rows"][idx]
    mask = np.zeros(size, bool)
    mask[:total] = True
    chosen = (starts + data["choice"][picks]).astype(np.int32)
    return data["obs"][picks].astype(np.float32), act, seg, mask, chosen


def _teacher(
    cfg: TrainConfig, path: Path, checkpoint_every: float, report: Callable[[int], None]
) -> dict[str, Any]:
    """The teacher's decisions: read from ``path`` if made before, else made 50 hands at a
    time (merged and saved as they grow, every ``checkpoint_every`` seconds, so that a stopped
    run resumes them)."""
    from .distill import merge, teacher_data

    # The first n hands of a run are the same whatever its number of hands: a run made with
    # more or fewer hands reuses them (the data of more hands than wanted is made anew).
    targets = "choice" if cfg.distill_targets == "choice" else "values"
    fields = ["obs", "rows", "offsets", "choice", "hands"] + (
        ["values", "samples"] if targets == "values" else []
    )
    what: list[Any] = [cfg.game, cfg.players, dict(cfg.options), cfg.distill, cfg.seed]
    key = json.dumps(what if targets == "choice" else [*what, targets], sort_keys=True)
    parts: list[dict[str, Any]] = []
    if path.exists():
        z = np.load(path)
        if bytes(z["key"]).decode() == key and int(z["hands"]) <= cfg.distill_hands:
            parts.append({k: z[k] for k in fields})
    done = int(parts[0]["hands"]) if parts else 0
    last = time.monotonic()
    while done < cfg.distill_hands:
        upto = min(cfg.distill_hands, done + 50)
        part = teacher_data(
            cfg.game,
            cfg.players,
            dict(cfg.options),
            str(cfg.distill),
            hands=upto,
            seed=cfg.seed,
            start=done,
            targets=targets,
        )
        parts.append(part)
        done = upto
        report(done)
        if time.monotonic() - last >= checkpoint_every or done == cfg.distill_hands:
            import io

            # Merged only when saved: merging at every 50 hands copied the whole set each
            # time (quadratic in the hands; 500 MB at 16,000 hands of a searching teacher).
            parts = [merge(parts)]

            buf = io.BytesIO()
            np.savez(buf, key=np.frombuffer(key.encode(), np.uint8), **parts[0])
            _atomic_write(path, buf.getvalue())
            last = time.monotonic()
    return parts[0]


def _update_fn(cfg: TrainConfig) -> Callable[..., Any]:
    t = len(cfg.tower)
    opt = _optimizer(cfg)

    def loss(params: Any, obs: Any, act: Any, ret: Any) -> Any:
        return jnp.mean((_q(t, params, obs, act) - ret) ** 2)

    @jax.jit
    def update(params: Any, state: Any, obs: Any, act: Any, ret: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(params, obs, act, ret)
        changes, state = opt.update(grads, state, params)
        return optax.apply_updates(params, changes), state, value

    return update


def _numpy_layers(params: Any, scale: float = 1.0) -> Layers:
    """The layers as numpy arrays, the last one times ``scale``: the network learns the
    returns divided by the scale, and the weights file scores in units."""
    layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in params]
    w, b = layers[-1]
    layers[-1] = ((w * scale).astype(np.float32), (b * scale).astype(np.float32))
    return layers


@dataclasses.dataclass
class _State:
    round: int
    step: int
    params: Any
    opt_state: Any
    rng: np.random.Generator
    curve: list[dict[str, Any]]
    hands: int = 0
    samples: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    losses: list[float] = dataclasses.field(default_factory=list)
    #: What the returns are divided by (None until the first round fixes it).
    scale: float | None = None
    #: Distillation steps taken (the first ``distill_steps`` steps of a run that distills).
    distilled: int = 0
    teacher_hands: int = 0
    teacher_decisions: int = 0
    #: What the run started from: the ``init`` weights file's SHA-256 and its provenance's
    #: steps (None from random weights).
    init: dict[str, Any] | None = None
    #: The frozen network opponent's weights file: its name and SHA-256 (None without one).
    opponent_weights: dict[str, str] | None = None

    def layers(self) -> Layers:
        """The weights as a ``.vnpolicy`` holds them (scoring in units)."""
        return _numpy_layers(self.params, self.scale or 1.0)


def _paths(out: Path) -> dict[str, Path]:
    stem = out.with_suffix("") if out.suffix == SUFFIX else out
    return {
        "checkpoint": Path(f"{stem}.ckpt.npz"),
        "teacher": Path(f"{stem}.teacher.npz"),
        "curve": Path(f"{stem}.curve.json"),
        "plot": Path(f"{stem}.curve.png"),
    }


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)  # mkstemp makes it private; the outputs are for sharing
    os.replace(tmp, path)


def _save_checkpoint(path: Path, cfg: TrainConfig, st: _State) -> None:
    arrays: dict[str, Any] = {}
    for k, (w, b) in enumerate(_numpy_layers(st.params)):
        arrays[f"w{k}"], arrays[f"b{k}"] = w, b
    for k, leaf in enumerate(jax.tree_util.tree_leaves(st.opt_state)):
        arrays[f"opt{k}"] = np.asarray(leaf)
    meta = {
        "version": CHECKPOINT_VERSION,
        "config": cfg.to_dict(),
        "round": st.round,
        "step": st.step,
        "rng": st.rng.bit_generator.state,
        "curve": st.curve,
        "hands": st.hands,
        "samples": st.samples,
        "seconds": st.seconds,
        "cpu_seconds": st.cpu_seconds,
        "losses": st.losses,
        "scale": st.scale,
        "distilled": st.distilled,
        "teacher_hands": st.teacher_hands,
        "teacher_decisions": st.teacher_decisions,
        "init": st.init,
        "opponent_weights": st.opponent_weights,
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    import io

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    _atomic_write(path, buf.getvalue())


def _load_checkpoint(path: Path, cfg: TrainConfig) -> _State:
    try:
        z = np.load(path)
        meta = json.loads(bytes(z["meta"]).decode())
    except (OSError, ValueError, KeyError) as e:
        raise RulesError(f"cannot read the checkpoint {str(path)!r}: {e}") from None
    if meta.get("version") != CHECKPOINT_VERSION:
        raise RulesError(f"checkpoint {str(path)!r} is of another version")
    saved = TrainConfig.from_dict(meta["config"])
    if dataclasses.replace(saved, steps=cfg.steps) != cfg:
        diff = {
            k: (v, getattr(cfg, k))
            for k, v in saved.to_dict().items()
            if k != "steps" and saved.to_dict()[k] != cfg.to_dict()[k]
        }
        raise RulesError(f"checkpoint {str(path)!r} is of another run (settings differ: {diff})")
    distilling = meta.get("distilled", 0) < cfg.distill_steps
    template = (_distill_optimizer(cfg) if distilling else _optimizer(cfg)).init(_jax_layers(_init(cfg)))
    n = len(cfg.arch.shapes(1, 1))
    params = [(jnp.asarray(z[f"w{k}"]), jnp.asarray(z[f"b{k}"])) for k in range(n)]
    leaves, tree = jax.tree_util.tree_flatten(template)
    opt_state = jax.tree_util.tree_unflatten(tree, [jnp.asarray(z[f"opt{k}"]) for k in range(len(leaves))])
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    return _State(
        round=meta["round"],
        step=meta["step"],
        params=params,
        opt_state=opt_state,
        rng=rng,
        curve=meta["curve"],
        hands=meta["hands"],
        samples=meta["samples"],
        seconds=meta["seconds"],
        cpu_seconds=meta["cpu_seconds"],
        losses=meta.get("losses", []),
        scale=meta.get("scale", cfg.return_scale or None),
        distilled=meta.get("distilled", 0),
        teacher_hands=meta.get("teacher_hands", 0),
        teacher_decisions=meta.get("teacher_decisions", 0),
        init=meta.get("init"),
        opponent_weights=meta.get("opponent_weights"),
    )


def _method(cfg: TrainConfig, rounds: int, init: dict[str, Any] | None) -> str:
    """How the weights were made: self-play, distillation, or distillation then self-play
    (``rounds`` of self-play were run; ``init``: the weights file the run started from)."""
    selfplay = METHOD
    if cfg.opponents:
        mix = ", ".join(f"{bot} {share:g}" for bot, share in cfg.opponents)
        selfplay += f"; {OPPONENTS_METHOD.format(mix=mix)}"
    if cfg.distill_steps:
        template = {
            "choice": DISTILL_METHOD,
            "values": DISTILL_VALUES_METHOD,
            "soft": DISTILL_SOFT_METHOD,
        }[cfg.distill_targets]
        distilled = template.format(teacher=cfg.distill, temperature=cfg.distill_temperature)
        selfplay = f"{distilled}; then {selfplay}" if rounds else distilled
    if init is not None:
        selfplay = f"{INIT_METHOD.format(**init)}; {selfplay}"
    return selfplay


def _provenance(cfg: TrainConfig, st: _State, command: str) -> dict[str, Any]:
    return {
        "command": command,
        "method": _method(cfg, st.round, st.init),
        "seed": cfg.seed,
        "steps": st.step,
        "rounds": st.round,
        "hands": st.hands,
        "samples": st.samples,
        "seconds": round(st.seconds, 1),
        "cpu_seconds": round(st.cpu_seconds, 1),
        "return_scale": st.scale,
        "teacher_hands": st.teacher_hands,
        "teacher_decisions": st.teacher_decisions,
        "init": st.init,
        "opponent_weights": st.opponent_weights,
        "finished": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "config": cfg.to_dict(),
        "vncards": __version__,
        "jax": jax.__version__,
        "optax": optax.__version__,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "last_eval": st.curve[-1] if st.curve else None,
    }


def _evaluate(cfg: TrainConfig, net: Any) -> dict[str, Any]:
    from ..bots.strength import bench_bots

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"eval{SUFFIX}"
        path.write_bytes(net.to_bytes())
        bot = f"policy:weights={path}"
        report = bench_bots(
            cfg.game,
            [bot, "greedy"],
            deals=cfg.eval_deals,
            seed=cfg.eval_seed,
            players=cfg.players,
            options=dict(cfg.options),
            jobs=1,
        )
        p = report.pairing(bot, "greedy")
        sign = 1.0 if p.a == bot else -1.0
        lo, hi = sorted((sign * p.diff_ci.low, sign * p.diff_ci.high))
        first = p.bots[bot]
        return {
            "lead": round(sign * p.diff, 4),
            "low": round(lo, 4),
            "high": round(hi, 4),
            "first_rate": round(first.first_rate, 4),
            "deals": p.deals,
            "games": p.games,
        }


def _plot(path: Path, cfg: TrainConfig, curve: list[dict[str, Any]]) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is in the train extra
        return False
    steps = [c["step"] for c in curve]
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.fill_between(
        steps, [c["low"] for c in curve], [c["high"] for c in curve], alpha=0.25, label="95% interval"
    )
    ax.plot(steps, [c["lead"] for c in curve], marker="o", label="policy − greedy")
    if cfg.distill_steps and cfg.steps:
        ax.axvline(cfg.distill_steps, color="grey", ls="--", lw=0.8, label="distillation → self-play")
    ax.set_xlabel("training steps (Adam updates)")
    ax.set_ylabel("units per game vs greedy")
    ax.set_title(f"{cfg.game}: policy vs greedy, {cfg.eval_deals} duplicate deals (seed {cfg.eval_seed})")
    ax.legend(loc="lower right")
    fig.tight_layout()
    buf = path.with_suffix(".tmp.png")
    fig.savefig(buf)
    plt.close(fig)
    os.replace(buf, path)
    return True


def _write_outputs(out: Path, cfg: TrainConfig, st: _State, command: str, rules: str) -> None:
    paths = _paths(out)
    prov = _provenance(cfg, st, command)
    net = to_net(cfg.game, cfg.players, cfg.arch, st.layers(), rules, prov)
    _atomic_write(out, net.to_bytes())
    figures = {
        "game": cfg.game,
        "opponent": "greedy",
        "eval_deals": cfg.eval_deals,
        "eval_seed": cfg.eval_seed,
        "field": "alternate",
        "curve": st.curve,
        "provenance": prov,
    }
    _atomic_write(paths["curve"], (json.dumps(figures, indent=1, ensure_ascii=False) + "\n").encode())
    if st.curve:
        _plot(paths["plot"], cfg, st.curve)


def train(
    cfg: TrainConfig,
    out: str | os.PathLike[str],
    *,
    resume: str | os.PathLike[str] | None = None,
    command: str | None = None,
    checkpoint_every: float = 300.0,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Trains ``cfg`` (see the module notes), writing the weights file ``out`` and, beside it,
    the checkpoint (``.ckpt.npz``) and the learning curve (``.curve.json``, ``.curve.png``).
    ``resume``: a checkpoint of the same run to continue. ``progress(step, steps, info)`` is
    called after each round. Returns the figures written to the curve JSON."""
    check(cfg)
    out = Path(out)
    spec = games.spec(cfg.game)
    rules = spec.rules(dict(cfg.options))
    record = rules_record(spec.name, rules)
    flow = rules.flow
    command = command or "vncards.learn.train.train(" + repr(cfg) + ")"
    opt = _optimizer(cfg)
    if resume is not None:
        st = _load_checkpoint(Path(resume), cfg)
    else:
        layers, scale, init = _start(cfg, spec.name, record)
        params = _jax_layers(layers)
        first = _distill_optimizer(cfg) if cfg.distill_steps else opt
        st = _State(0, 0, params, first.init(params), np.random.default_rng([cfg.seed, 0xB47C]), [])
        st.scale, st.init = scale, init
    frozen, frozen_file = _frozen(cfg, record)
    if st.opponent_weights is None:
        st.opponent_weights = frozen_file
    elif frozen_file != st.opponent_weights:
        raise RulesError(f"the opponents' weights are not those the run started with: {st.opponent_weights}")
    paths = _paths(out)
    last_save = time.monotonic()
    started, cpu0 = time.monotonic(), time.process_time()
    base_seconds, base_cpu = st.seconds, st.cpu_seconds

    def tick() -> None:
        st.seconds = base_seconds + time.monotonic() - started
        st.cpu_seconds = base_cpu + time.process_time() - cpu0

    def evaluate() -> None:
        net = to_net(cfg.game, cfg.players, cfg.arch, st.layers(), record, {})
        point = {"step": st.step, "hands": st.hands, "seconds": round(st.seconds, 1), **_evaluate(cfg, net)}
        if cfg.distill_steps:
            point["phase"] = "distill" if st.step <= cfg.distill_steps else "self-play"
        st.curve.append(point)

    def save(now: bool) -> None:
        nonlocal last_save
        if now or time.monotonic() - last_save >= checkpoint_every:
            _save_checkpoint(paths["checkpoint"], cfg, st)
            _write_outputs(out, cfg, st, command, record)
            last_save = time.monotonic()

    def report(total: int) -> None:
        if progress is not None:
            info = {"loss": st.losses[-1] if st.losses else None, "curve": st.curve[-1]}
            progress(st.step, total, info)

    total = cfg.distill_steps + cfg.rounds * cfg.updates
    if st.step == 0 and not st.curve:
        evaluate()
    if st.distilled < cfg.distill_steps:

        def teaching(hands: int) -> None:
            if progress is not None:
                progress(st.step, total, {"teacher_hands": hands, "curve": st.curve[-1]})

        data = _teacher(cfg, paths["teacher"], checkpoint_every, teaching)
        st.teacher_hands, st.teacher_decisions = int(data["hands"]), len(data["choice"])
        if cfg.distill_targets != "choice" and st.scale is None:
            st.scale = cfg.return_scale or _scale_of(data["values"][np.isfinite(data["values"])])
        scale = float(st.scale or 1.0)
        by_values = cfg.distill_targets != "choice"
        distill = _values_fn(cfg, scale) if by_values else _distill_fn(cfg)
        while st.distilled < cfg.distill_steps:
            picks = st.rng.integers(0, len(data["choice"]), size=cfg.distill_batch)
            arrays = _values_batch(data, picks, cfg, scale) if by_values else _distill_batch(data, picks)
            st.params, st.opt_state, value = distill(st.params, st.opt_state, *arrays)
            st.losses.append(round(float(value), 5))
            st.distilled += 1
            st.step += 1
            tick()
            last = st.distilled == cfg.distill_steps
            if st.step % cfg.eval_every == 0 or last:
                evaluate()
            if last:  # self-play learns on with its own optimizer
                st.opt_state = opt.init(st.params)
            save(last)
            report(total)
    update = _update_fn(cfg)
    while st.round < cfg.rounds:
        net = to_net(cfg.game, cfg.players, cfg.arch, st.layers(), record, {})
        seeds = np.random.default_rng([cfg.seed, st.round]).integers(
            0, 2**63 - 1, size=cfg.hands, dtype=np.int64
        )
        epsilon = cfg.epsilon_at(st.round * cfg.updates)
        seats = _opponent_seats(cfg, st.round)
        obs, act, ret, hands, _truncated, _decisions = net.selfplay(
            flow,
            seeds.tolist(),
            epsilon,
            greedy_seats=seats.get("greedy"),
            frozen=frozen,
            frozen_seats=seats.get("policy"),
        )
        st.hands += hands
        st.samples += len(ret)
        n = len(ret)
        if n and st.scale is None:
            st.scale = cfg.return_scale or _scale_of(ret)
        if n:
            ret = ret / np.float32(st.scale)
            picks = st.rng.integers(0, n, size=(cfg.updates, cfg.batch))
            loss = 0.0
            for k in range(cfg.updates):
                i = picks[k]
                st.params, st.opt_state, value = update(st.params, st.opt_state, obs[i], act[i], ret[i])
                loss += float(value)
            st.losses.append(round(loss / cfg.updates, 5))
        st.step += cfg.updates
        st.round += 1
        tick()
        if st.step % cfg.eval_every < cfg.updates or st.round == cfg.rounds:
            evaluate()
        save(st.round == cfg.rounds)
        report(total)
    _save_checkpoint(paths["checkpoint"], cfg, st)
    _write_outputs(out, cfg, st, command, record)
    figures: dict[str, Any] = json.loads(paths["curve"].read_text())
    return figures


def _opponent_seats(cfg: TrainConfig, round: int) -> dict[str, list[int]]:
    """The seats each opponent plays in each hand of ``round``, by kind (``greedy``, ``policy``:
    a bit mask per hand): one uniform draw per seat, from the run's seed and the round alone
    (so that a resumed run draws the same), falls in the opponents' shares in their order (the
    learner plays a seat whose draw is past them all)."""
    if not cfg.opponents:
        return {}
    draws = np.random.default_rng([cfg.seed, round, 0x0990]).random((cfg.hands, cfg.players))
    out: dict[str, list[int]] = {}
    low = 0.0
    for bot, share in cfg.opponents:
        taken = (draws >= low) & (draws < low + share)
        bits = taken.astype(np.int64) << np.arange(cfg.players)
        out[bot.partition(":")[0]] = [int(m) for m in bits.sum(axis=1)]
        low += share
    return out


def _frozen(cfg: TrainConfig, record: str) -> tuple[Any, dict[str, str] | None]:
    """The frozen network of the opponents (a ``_core.PolicyNet``: the weights file of
    ``policy:weights=FILE``, the game's shipped weights for ``policy``, checked to play this
    game's table and rules) and its file's name and SHA-256; None, None without one."""
    import vncards._core as core

    from ..bots.policy import shipped_weights
    from .config import frozen_weights

    paths = [p for p in (frozen_weights(bot) for bot, _ in cfg.opponents) if p is not None]
    if not paths:
        return None, None
    path = paths[0]
    source: Any = Path(path) if path else shipped_weights().get(cfg.game)
    if source is None:
        raise RulesError(f"no weights ship for {cfg.game}: give the opponent as policy:weights=FILE")
    try:
        data = source.read_bytes()
        net = core.PolicyNet.from_bytes(data)
    except (OSError, ValueError) as e:
        raise RulesError(f"cannot read the opponents' weights {path!r}: {e}") from None
    if net.game != cfg.game or net.players != cfg.players or json.loads(net.rules) != json.loads(record):
        raise RulesError(
            f"the opponents' weights {path or 'shipped'!r} play {net.game} at {net.players} seats "
            "or other rules, not this run's table"
        )
    import hashlib

    return net, {"file": source.name, "sha256": hashlib.sha256(data).hexdigest()}


def _scale_of(returns: Any) -> float:
    """The first round's spread of returns (their standard deviation, to 4 digits, at least 1):
    learning returns of about unit size lets one learning rate serve every game, whose units
    range from Tứ Sắc's few to Sâm Lốc's sixties."""
    return max(1.0, float(f"{float(np.std(returns)):.4g}"))


def _init(cfg: TrainConfig) -> Layers:
    import vncards._core as core

    _, _, _, d, a = core.policy_encoding(cfg.game, cfg.players)
    return init_layers(cfg.arch, d, a, cfg.seed)


def _start(cfg: TrainConfig, game: str, record: str) -> tuple[Layers, float | None, dict[str, Any] | None]:
    """A new run's starting weights, the scale its returns are learned in (None: from the first
    round) and what it started from: random weights, or those of the ``init`` file (of this
    game, table, rules and sizes; its last layer divided by the scale, its provenance's
    ``return_scale`` unless the run sets one, so the network scores as the file did)."""
    if cfg.init is None:
        return _init(cfg), None, None
    import hashlib

    import vncards._core as core

    from .model import from_net

    path = Path(cfg.init)
    try:
        data = path.read_bytes()
        net = core.PolicyNet.from_bytes(data)
    except (OSError, ValueError) as e:
        raise RulesError(f"cannot start from the weights {str(path)!r}: {e}") from None
    _, _, _, d, a = core.policy_encoding(cfg.game, cfg.players)
    want = cfg.arch.shapes(d, a)
    if (
        net.game != game
        or net.players != cfg.players
        or list(net.shapes) != want
        or net.tower != len(cfg.tower)
    ):
        raise RulesError(
            f"the weights {str(path)!r} are a network of {net.game}, {net.players} players, layers "
            f"{list(net.shapes)}; this run trains {game}, {cfg.players} players, layers {want}"
        )
    if json.loads(net.rules) != json.loads(record):
        raise RulesError(f"the weights {str(path)!r} were trained on other rules than this run's")
    prov = json.loads(net.provenance or "{}")
    scale = float(cfg.return_scale or prov.get("return_scale") or 1.0)
    layers = from_net(net)
    w, b = layers[-1]
    layers[-1] = ((w / scale).astype(np.float32), (b / scale).astype(np.float32))
    init = {"file": path.name, "sha256": hashlib.sha256(data).hexdigest(), "steps": prov.get("steps")}
    return layers, scale, init


def _jax_layers(layers: Layers) -> Any:
    return [(jnp.asarray(w), jnp.asarray(b)) for w, b in layers]


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run `vncards train`")
