"""Token buckets: how many messages a sender may send, on average and in one burst.

One bucket (`TokenBucket`) serves one sender whose identity the caller already holds (a
browser connection); `RateLimiter` keeps a bucket per key (a UDP address) for at most
`size` keys, forgetting the least recently heard from first, so a flood of new senders
cannot grow it without bound.

A bucket holds up to `burst` tokens and gains `rate` tokens a second; each message
takes one, and a message that finds less than one token is refused. The caller passes
the time (`now`, in seconds of any monotonic clock), so one clock reading can serve a
whole batch and tests need no sleeping.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class TokenBucket:
    """`rate` messages a second on average, `burst` at once; it starts full."""

    __slots__ = ("burst", "rate", "_last", "_tokens")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        if rate < 0 or burst < 1:
            raise ValueError(f"a token bucket needs rate >= 0 and burst >= 1, not {rate}, {burst}")
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = time.monotonic() if now is None else now

    def allow(self, now: float | None = None) -> bool:
        """Take a token for one message at `now` (default: `time.monotonic()`); False
        (and nothing taken) when the bucket is empty."""
        if now is None:
            now = time.monotonic()
        tokens = self._tokens + (now - self._last) * self.rate
        self._tokens = tokens if tokens < self.burst else self.burst
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    @property
    def tokens(self) -> float:
        """Tokens left as of the last message (not counting what has refilled since)."""
        return self._tokens


class RateLimiter(Generic[Key]):
    """A token bucket per key, for at most `size` keys (least recently used forgotten)."""

    def __init__(self, rate: float, burst: float, size: int) -> None:
        if size < 1:
            raise ValueError(f"a rate limiter keeps at least one key, not {size}")
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[Key, TokenBucket] = OrderedDict()

    def allow(self, key: Key, now: float | None = None) -> bool:
        """Whether `key` may send one more message at `now` (it takes a token if so)."""
        if now is None:
            now = time.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.size:
                self._buckets.popitem(last=False)
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, now)
        else:
            self._buckets.move_to_end(key)
        return bucket.allow(now)

    def __len__(self) -> int:
        return len(self._buckets)
