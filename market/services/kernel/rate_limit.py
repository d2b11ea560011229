"""A request rate per client address, for reads anyone may make (the Merkle proofs).

The login throttle (`throttle.py`) does another job: it counts *failures*, in the
database, so that every process shares them and a guessing address stays locked. A rate
of successful reads cannot be kept that way without a database write per read, which
would cost more than the read. So this is a token bucket per key in the memory of this
process: each key may spend `per_minute` requests at once and gets them back at
`per_minute / 60` a second. It counts per process: with W workers (gunicorn) an address
gets at most W times the rate in all. Over the limit: 429 with `Retry-After`, the seconds
until one request is allowed again.
"""

from __future__ import annotations

import math
import threading
import time

from market.domain.errors import DomainError

MAX_KEYS = 10_000  # addresses remembered at once: bounded memory under a spread-out flood


class RateLimitedError(DomainError):
    code = "rate_limited"

    def __init__(self, retry_after: int, per_minute: int) -> None:
        super().__init__(
            f"More than {per_minute} requests a minute from this address; "
            f"try again in {retry_after} seconds.",
            {"retry_after_seconds": retry_after, "limit_per_minute": per_minute},
        )
        self.retry_after = retry_after


class Buckets:
    """One token bucket per key; safe to share between the threads of a process."""

    def __init__(self, max_keys: int = MAX_KEYS) -> None:
        self._max_keys = max_keys
        self._lock = threading.Lock()
        self._state: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str, per_minute: int, now: float | None = None) -> None:
        """Spend one request of `key`'s allowance, or raise RateLimitedError (429).
        `per_minute` 0 (or less) means no limit."""
        if per_minute <= 0:
            return
        now = time.monotonic() if now is None else now
        rate = per_minute / 60.0  # tokens a second (a count of requests, not money)
        with self._lock:
            tokens, last = self._state.get(key, (float(per_minute), now))
            tokens = min(float(per_minute), tokens + max(0.0, now - last) * rate)
            if tokens < 1.0:
                self._state[key] = (tokens, now)
                raise RateLimitedError(max(1, math.ceil((1.0 - tokens) / rate)), per_minute)
            if key not in self._state and len(self._state) >= self._max_keys:
                self._forget_full(now, rate, per_minute)
            self._state[key] = (tokens - 1.0, now)

    def _forget_full(self, now: float, rate: float, per_minute: int) -> None:
        """Drop the buckets that have refilled (as good as new); if none has, all of them
        (a flood from more addresses than we keep: it then gets fresh buckets, no worse
        than a restart)."""
        full = [k for k, (t, at) in self._state.items() if t + (now - at) * rate >= per_minute]
        for k in full:
            del self._state[k]
        if len(self._state) >= self._max_keys:
            self._state.clear()
