"""The token buckets of `bluffdice.ratelimit` (the hall's per-connection budget)."""

from __future__ import annotations

import pytest

from bluffdice.ratelimit import RateLimiter, TokenBucket


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3.0, now=0.0)
    assert [bucket.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.allow(0.25)  # half a token back: still not one
    assert bucket.allow(0.5)  # one token after half a second at 2 a second
    assert not bucket.allow(0.5)


def test_a_bucket_never_holds_more_than_its_burst() -> None:
    bucket = TokenBucket(rate=10.0, burst=2.0, now=0.0)
    assert [bucket.allow(100.0) for _ in range(3)] == [True, True, False]


def test_a_refused_message_takes_no_token() -> None:
    bucket = TokenBucket(rate=1.0, burst=1.0, now=0.0)
    assert bucket.allow(0.0)
    assert not bucket.allow(0.5)
    assert bucket.allow(1.0)  # the refusal at 0.5 did not set it back


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="burst >= 1"):
        TokenBucket(rate=1.0, burst=0.5)
    with pytest.raises(ValueError, match="at least one key"):
        RateLimiter(1.0, 1.0, size=0)


def test_a_limiter_keeps_one_bucket_per_key() -> None:
    limiter: RateLimiter[str] = RateLimiter(rate=1.0, burst=1.0, size=10)
    assert limiter.allow("a", 0.0)
    assert not limiter.allow("a", 0.0)
    assert limiter.allow("b", 0.0)  # b has a bucket of its own
    assert len(limiter) == 2


def test_a_limiter_forgets_the_least_recently_heard_from_key() -> None:
    limiter: RateLimiter[str] = RateLimiter(rate=0.0, burst=1.0, size=2)
    assert limiter.allow("a", 0.0)
    assert limiter.allow("b", 0.0)
    assert not limiter.allow("a", 1.0)  # a heard from again: b is now the oldest
    assert limiter.allow("c", 1.0)  # b forgotten to make room
    assert len(limiter) == 2
    assert not limiter.allow("a", 2.0)  # a kept its empty bucket
    assert limiter.allow("b", 2.0)  # b starts afresh
