"""The policy network's layout and its weights as numpy arrays (no ML library): what training
builds, what ``_core.PolicyNet`` evaluates, and a numpy forward pass to check it against.

A network is a list of ``(W, b)`` layers (``W``: ``[out, in]``), in file order: the state
tower (``len(arch.tower)`` layers), ``J_s``, ``J_a``, then the head (see ``src/policy/net.rs``):

    s = relu(... relu(W_1 obs + b_1) ...)            # once per decision
    z = relu(J_s s + b_s + J_a a + b_a)               # per legal action row a
    score = head(z)                                   # ReLU between head layers, one output

>>> import numpy as np
>>> arch = Architecture(tower=(16,), join=8, head=(4,))
>>> layers = init_layers(arch, observation=20, action=5, seed=0)
>>> [w.shape for w, _ in layers]
[(16, 20), (8, 16), (8, 5), (4, 8), (1, 4)]
>>> forward(arch, layers, np.zeros((3, 20), np.float32), np.zeros((3, 5), np.float32)).shape
(3,)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core

__all__ = ["Architecture", "init_layers", "forward", "to_net", "from_net"]

Layers = list[tuple["npt.NDArray[np.float32]", "npt.NDArray[np.float32]"]]


@dataclasses.dataclass(frozen=True)
class Architecture:
    """Layer widths: the state tower's, the join's (``J_s`` / ``J_a`` rows), the head's hidden
    layers (the head ends in one output)."""

    tower: tuple[int, ...] = (256, 128)
    join: int = 128
    head: tuple[int, ...] = (32,)

    def shapes(self, observation: int, action: int) -> list[tuple[int, int]]:
        """``(rows, cols)`` of every layer, in file order."""
        out: list[tuple[int, int]] = []
        width = observation
        for w in self.tower:
            out.append((w, width))
            width = w
        out += [(self.join, width), (self.join, action)]
        width = self.join
        for w in (*self.head, 1):
            out.append((w, width))
            width = w
        return out


def init_layers(arch: Architecture, observation: int, action: int, seed: int) -> Layers:
    """Random starting weights (He-normal, zero biases; the last layer scaled down)."""
    rng = np.random.default_rng([seed, 0x7017])
    shapes = arch.shapes(observation, action)
    layers: Layers = []
    for k, (rows, cols) in enumerate(shapes):
        scale = np.sqrt(2.0 / cols) * (0.1 if k == len(shapes) - 1 else 1.0)
        layers.append(
            ((rng.standard_normal((rows, cols)) * scale).astype(np.float32), np.zeros(rows, np.float32))
        )
    return layers


def forward(
    arch: Architecture,
    layers: Sequence[tuple[Any, Any]],
    obs: npt.NDArray[np.float32],
    act: npt.NDArray[np.float32],
) -> npt.NDArray[np.float32]:
    """Scores of ``act`` rows (``[n, action]``) in the positions ``obs`` (``[n, observation]``)."""
    t = len(arch.tower)
    x = obs
    for w, b in layers[:t]:
        x = np.maximum(x @ w.T + b, 0.0)
    (js, bs), (ja, ba) = layers[t], layers[t + 1]
    z = np.maximum(x @ js.T + bs + act @ ja.T + ba, 0.0)
    head = layers[t + 2 :]
    for k, (w, b) in enumerate(head):
        z = z @ w.T + b
        if k < len(head) - 1:
            z = np.maximum(z, 0.0)
    out: npt.NDArray[np.float32] = z[:, 0].astype(np.float32)
    return out


def to_net(
    game: str,
    players: int,
    arch: Architecture,
    layers: Sequence[tuple[Any, Any]],
    rules: str,
    provenance: dict[str, Any],
) -> Any:
    """A ``_core.PolicyNet`` of ``layers`` (checked by the core against the game's encoding)."""
    data = b"".join(np.asarray(w, "<f4").tobytes() + np.asarray(b, "<f4").tobytes() for w, b in layers)
    shapes = [(int(np.shape(w)[0]), int(np.shape(w)[1])) for w, _ in layers]
    return _core.PolicyNet(
        game, players, shapes, len(arch.tower), data, rules, json.dumps(provenance, sort_keys=True)
    )


def from_net(net: Any) -> Layers:
    """The ``(W, b)`` layers of a ``_core.PolicyNet``, as numpy arrays."""
    flat = np.frombuffer(net.data(), "<f4")
    layers: Layers = []
    at = 0
    for rows, cols in net.shapes:
        w = flat[at : at + rows * cols].reshape(rows, cols).astype(np.float32)
        at += rows * cols
        b = flat[at : at + rows].astype(np.float32)
        at += rows
        layers.append((w, b))
    return layers
