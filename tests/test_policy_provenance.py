"""The shipped weights say how they were made: each file's provenance names the method that its
own recorded command and settings ran (the line ``vncards train`` writes for them), so that a
reader of the file, or of the learning guide that quotes it, is not told self-play where a
teacher was distilled first."""

from __future__ import annotations

import importlib.util
import json

import pytest

from vncards.bots.policy import load_weights, shipped_weights
from vncards.learn.config import TrainConfig

HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("optax") is not None
SHIPPED = [
    (rollouts, variant)
    for rollouts in (False, True)
    for variant in sorted(shipped_weights(rollouts=rollouts))
]


@pytest.mark.parametrize(("rollouts", "variant"), SHIPPED)
def test_shipped_provenance_is_complete(rollouts: bool, variant: str) -> None:
    prov = json.loads(load_weights(str(shipped_weights(rollouts=rollouts)[variant])).provenance)
    cfg = TrainConfig.from_dict(prov["config"])
    assert prov["command"].startswith(f"vncards train {variant} ")
    assert f"--seed {cfg.seed}" in prov["command"] and prov["seed"] == cfg.seed
    # A run may be stopped before its --steps (the learning guide says where one was).
    assert 0 < prov["steps"] <= cfg.distill_steps + cfg.rounds * cfg.updates
    assert prov["cpu_seconds"] > 0 and prov["seconds"] > 0
    assert cfg.game == variant
    # A teacher named in the command was distilled: its hands are counted.
    assert (prov.get("teacher_hands", 0) > 0) == bool(cfg.distill_steps)


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
@pytest.mark.parametrize(("rollouts", "variant"), SHIPPED)
def test_shipped_method_is_what_its_settings_ran(rollouts: bool, variant: str) -> None:
    from vncards.learn import train

    prov = json.loads(load_weights(str(shipped_weights(rollouts=rollouts)[variant])).provenance)
    cfg = TrainConfig.from_dict(prov["config"])
    ran = train._method(cfg, prov["rounds"], prov.get("init"))
    assert prov["method"] == ran


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
@pytest.mark.parametrize(
    ("targets", "words"),
    [
        ("choice", "distillation of expert (cross-entropy of each decision's legal actions"),
        ("values", "distillation of expert's search values (squared error"),
        (
            "soft",
            "distillation of expert's search values as soft targets (cross-entropy of each decision's legal actions, the scores divided by 3 units",
        ),
    ],
)
def test_the_method_names_what_distillation_learned(targets: str, words: str) -> None:
    """A weights file distilled from a search's values says so (``--distill-targets``); one
    from the pick (the default, as every shipped file was made) says what it said before."""
    from vncards.learn import train

    cfg = TrainConfig(
        "tienlen",
        0,
        distill="expert",
        distill_hands=1,
        distill_steps=1,
        distill_targets=targets,
        distill_temperature=3.0,
    )
    method = train._method(cfg, 0, None)
    assert method.startswith(words)
