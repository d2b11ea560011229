"""The proofs' per-address token bucket (market/services/kernel/rate_limit.py)."""

from __future__ import annotations

import pytest

from market.services.kernel.rate_limit import Buckets, RateLimitedError
from market.validation.error_codes import status_of


def test_a_full_bucket_spends_the_minute_at_once_then_refills_at_the_rate() -> None:
    b = Buckets()
    for _ in range(60):
        b.take("10.0.0.1", 60, now=100.0)
    with pytest.raises(RateLimitedError) as refused:
        b.take("10.0.0.1", 60, now=100.0)
    assert status_of(refused.value) == 429 and refused.value.retry_after == 1
    assert refused.value.details == {"retry_after_seconds": 1, "limit_per_minute": 60}
    b.take("10.0.0.2", 60, now=100.0)  # another address has its own bucket
    b.take("10.0.0.1", 60, now=101.0)  # one second: one request back
    with pytest.raises(RateLimitedError):
        b.take("10.0.0.1", 60, now=101.0)


def test_retry_after_is_the_wait_for_one_request_rounded_up() -> None:
    b = Buckets()
    for _ in range(6):
        b.take("a", 6, now=0.0)  # six a minute: one every 10 s
    with pytest.raises(RateLimitedError) as refused:
        b.take("a", 6, now=3.0)
    assert refused.value.retry_after == 7
    b.take("a", 6, now=10.0)


def test_zero_means_no_limit_and_a_clock_going_back_gives_nothing() -> None:
    b = Buckets()
    for _ in range(1000):
        b.take("a", 0, now=0.0)
    b.take("b", 1, now=50.0)
    with pytest.raises(RateLimitedError):
        b.take("b", 1, now=10.0)


def test_memory_is_bounded_refilled_buckets_go_first() -> None:
    b = Buckets(max_keys=2)
    b.take("a", 60, now=0.0)
    for _ in range(60):
        b.take("b", 60, now=0.5)
    b.take("c", 60, now=1.5)  # "a" has refilled by then: forgotten; "b" kept
    b.take("b", 60, now=1.5)  # the one request "b" got back in that second
    with pytest.raises(RateLimitedError):
        b.take("b", 60, now=1.5)
    b.take("d", 60, now=1.6)  # none refilled: all forgotten, a fresh start (as a restart)
    for _ in range(60):
        b.take("b", 60, now=1.6)
