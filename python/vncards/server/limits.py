"""Rate limits: a token bucket, buckets kept per client or per seat, and what "one client" is.

A client is its network address as the ASGI server reports it: the peer's, unless the peer is
a proxy named by ``vncards serve --forwarded-allow-ips`` (then the address it forwards); an
IPv6 client is its /64 network, which one subscriber usually holds whole.

>>> bucket = TokenBucket(rate=1.0, burst=2.0)
>>> bucket.take(), bucket.take(), bucket.take()
(True, True, False)
>>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
True
>>> client_key("203.0.113.7")
'203.0.113.7'
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict

__all__ = ["TokenBucket", "Buckets", "client_key"]


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if there is one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def _refill(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return now

    def take(self) -> bool:
        """Spend a token: ``False`` (and nothing spent) if there is none."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until a token is there (0 if one is)."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    @property
    def full(self) -> bool:
        """Has the bucket refilled to its burst (so forgetting it changes nothing)?"""
        self._refill()
        return self.tokens >= self.burst


class Buckets:
    """One :class:`TokenBucket` per key (client, seat), at most ``limit`` keys kept: the least
    recently used buckets that have refilled are forgotten first, so the table of clients
    stays bounded however many addresses a flood comes from."""

    def __init__(self, rate: float, burst: float, limit: int = 100_000) -> None:
        self.rate, self.burst, self.limit = rate, burst, limit
        self._buckets: OrderedDict[object, TokenBucket] = OrderedDict()

    def get(self, key: object) -> TokenBucket:
        """The bucket of ``key`` (a fresh, full one for a new key)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.limit:
                self._forget()
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def take(self, key: object) -> bool:
        """Spend one of ``key``'s tokens (``False``: rate-limited)."""
        return self.get(key).take()

    def _forget(self) -> None:
        full = [k for k, b in self._buckets.items() if b.full]
        for k in full or list(self._buckets)[: max(1, self.limit // 10)]:
            del self._buckets[k]

    def __len__(self) -> int:
        return len(self._buckets)


def client_key(host: str | None) -> str:
    """The key one client's limits are counted under: its address (IPv6: its /64)."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)
