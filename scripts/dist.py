"""The release artifacts in ``dist/``, shared by the build and check scripts."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"


def newest(pattern: str, target: str) -> Path:
    """The newest file of ``dist/`` matching ``pattern``; exits naming the make ``target`` if none."""
    found = sorted(DIST.glob(pattern), key=lambda p: p.stat().st_mtime)
    if not found:
        raise SystemExit(f"no {pattern} in dist/: run `make {target}` first")
    return found[-1]
