"""A seat of a served table, as the server keeps it beside the match's seat: the hash of its
player's token (never the token), its time-out bot, the bot that takes it when its player leaves,
and how a presented token is checked (a constant-time comparison of hashes).

>>> h = hash_token("s3cret")
>>> len(h), token_matches("s3cret", h), token_matches("guess", h), token_matches(5, h)
(64, True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import bot_names
from .wire import Fields, Refused

__all__ = ["SeatState", "timeout_bot_for", "hash_token", "token_hash", "token_matches", "HEX64"]

#: A SHA-256 in hex, as stored for a token.
HEX64 = re.compile(r"[0-9a-f]{64}")


def timeout_bot_for(game: str) -> str:
    """The bot that plays a seat whose time ran out: the solver in Mậu Binh, else greedy."""
    return "solver" if "solver" in bot_names(game) else "greedy"


def hash_token(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_hash(token: Any) -> str | None:
    """The hash of a token a client presented (``None``: not a token)."""
    if not isinstance(token, str) or not 0 < len(token) <= 100:
        return None
    return hash_token(token)


def token_matches(token: Any, stored: str | None) -> bool:
    """Is ``token`` the one whose hash is ``stored`` (compared in constant time)?"""
    h = token_hash(token)
    return h is not None and stored is not None and hmac.compare_digest(stored, h)


@dataclass
class SeatState:
    """What the server keeps of a seat beside the match's :class:`~vncards.session.Seat`:
    the hash of its player's token, the bot that plays it when its time runs out, the bot
    that takes it when its player leaves, and the creator's replacement waiting for the hand
    to end (``""``: the seat opens)."""

    token_hash: str | None = None
    timeout_bot: str = "greedy"
    fallback_bot: str | None = None
    replacement: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The seat as stored (the token's hash, never the token)."""
        return {
            "token": self.token_hash,
            "timeout_bot": self.timeout_bot,
            "fallback_bot": self.fallback_bot,
            "replacement": self.replacement,
        }

    @classmethod
    def from_dict(cls, d: Any, where: str, bots: Sequence[str]) -> SeatState:
        """A seat from :meth:`to_dict` data, checked (``Refused`` naming the field)."""
        f = Fields(d, where, exact=("token", "timeout_bot", "fallback_bot", "replacement"))
        token = f.optional_text("token", 64)
        if token is not None and not HEX64.fullmatch(token):
            raise Refused(f"{where}.token: a SHA-256 in hex")
        names = {}
        for key in ("timeout_bot", "fallback_bot", "replacement"):
            name = f.optional_text(key, 32)
            if name is not None and name not in bots and not (key == "replacement" and name == ""):
                raise Refused(f"{where}.{key}: no bot {name!r} for this game")
            names[key] = name
        if names["timeout_bot"] is None:
            raise Refused(f"{where}.timeout_bot: a bot name")
        return cls(token, names["timeout_bot"], names["fallback_bot"], names["replacement"])
