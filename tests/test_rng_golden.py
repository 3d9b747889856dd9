"""The seeded stream and the seeded deals of every game, pinned: a table recorded before the
ChaCha20 block function moved to the ``rand_chacha`` crate, so any change of generator, of
``below`` or of the shuffle that alters a deal fails here (the replay contract)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from vncards import Rng
from vncards.games import new_game

GOLDEN = Path(__file__).parent / "data" / "rng_golden.json"
SEEDS: list[int | bytes] = [0, 1, 42, 2026, 2**64 + 3, 2**255 + 17, b"vncards", b"\xff" * 32]
# Positions across the 16-word block and the 32-bit block-counter boundaries.
POSITIONS = [0, 15, 16, 17, 1000, 16 * 2**32 - 5, 16 * 2**33 + 7]
RAW = 2**32 - 1  # below(2**32 - 1) returns the raw word (only 0xFFFFFFFF is redrawn)


def _digest(values: Any) -> str:
    return hashlib.sha256(json.dumps(values).encode()).hexdigest()[:32]


def _key(seed: int | bytes) -> str:
    return seed.hex() if isinstance(seed, bytes) else str(seed)


def observed() -> dict[str, Any]:
    """What the current build draws, in the shape of the pinned table."""
    out: dict[str, Any] = {"permutation": {}, "words": {}, "restored": {}, "below": {}, "deals": {}}
    for seed in SEEDS:
        k = _key(seed)
        out["permutation"][k] = Rng(seed).permutation(52)
        r = Rng(seed)
        out["words"][k] = [r.below(RAW) for _ in range(40)]
        r = Rng(seed)
        out["below"][k] = _digest([r.below(n) for n in range(1, 2000)] + [r.position])
        out["restored"][k] = [Rng.restore(Rng(seed).key, p).below(RAW) for p in POSITIONS]
    for p in POSITIONS:
        r = Rng.restore(bytes(range(32)), p)
        out["restored"][f"counter-{p}"] = [r.below(RAW) for _ in range(24)] + [r.position]
    for game in ("tienlen", "samloc", "maubinh", "tusac"):
        hands = []
        for seed in range(12):
            g = new_game(game, seed=seed)
            hands.append([" ".join(g.view(s)["hand"]) for s in range(g.players)])
        out["deals"][game] = {"first": hands[0], "digest": _digest(hands)}
    return out


def test_seeded_streams_and_deals_are_unchanged() -> None:
    pinned = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = observed()
    for part in pinned:
        assert now[part] == pinned[part], part
