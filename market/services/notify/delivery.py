"""What delivery needs to know, and what every channel shares: settings and backoff.

A row is due when `next_attempt_at` has passed. A sender *claims* a row by moving its
`next_attempt_at` a lease ahead, in a conditional UPDATE that only one sender can win, so
two workers never send the same row at once; a sender that dies leaves the claim to lapse
and the row is sent again (at least once: the same message id each time). The claims
are market/adapters/repositories/notify_deliveries.py's.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar
from urllib.parse import urlsplit

from market.services.kernel import clock

MAX_DELAY = timedelta(hours=24)
T = TypeVar("T")


def _setting(config: Mapping[str, Any], key: str, coerce: Callable[[Any], T]) -> T:
    """A setting read through its coercer (the environment and tests give strings)."""
    return coerce(config[key])


@dataclass(frozen=True)
class Settings:
    smtp_host: str | None = None
    smtp_port: int = 25
    mail_from: str = "market@localhost"
    backoff_base_s: float = 30.0
    allow_private_networks: bool = False
    timeout_s: float = 15.0  # DELIVERY_TIMEOUT_S (Standard Webhooks advises 15 to 30 s)
    max_attempts: int = 12  # DELIVERY_MAX_ATTEMPTS: a webhook message then is 'failed'
    own_hosts: frozenset[str] = frozenset()
    senders: int = 8
    # A claimed row's lease: longer than one attempt can take (the webhook timeout,
    # SMTP's 10 s), short enough that a killed worker's claims come back soon.
    lease_s: float = 30.0

    @classmethod
    def from_config(cls, config: Mapping[str, Any], also_own: Iterable[str] = ()) -> Settings:
        """From the app's settings; the service's own host:port (PUBLIC_BASE_URL, and the
        host a request came in on) is never a webhook target."""
        base = urlsplit(config["PUBLIC_BASE_URL"])
        port = base.port or (443 if base.scheme == "https" else 80)
        own = {f"{(base.hostname or '').lower()}:{port}", *(h.lower() for h in also_own)}
        return cls(
            smtp_host=config["SMTP_HOST"],
            smtp_port=_setting(config, "SMTP_PORT", int),
            mail_from=config["MAIL_FROM"],
            backoff_base_s=_setting(config, "DELIVERY_BACKOFF_BASE_S", float),
            allow_private_networks=_setting(config, "WEBHOOK_ALLOW_PRIVATE_NETWORKS", bool),
            timeout_s=_setting(config, "DELIVERY_TIMEOUT_S", float),
            max_attempts=_setting(config, "DELIVERY_MAX_ATTEMPTS", int),
            own_hosts=frozenset(own),
            lease_s=max(30.0, _setting(config, "DELIVERY_TIMEOUT_S", float) + 15.0),
        )


def iso(moment: Any) -> str:
    return str(moment.isoformat(timespec="microseconds").replace("+00:00", "Z"))


def now_iso() -> str:
    return iso(clock.now_utc())


def backoff(settings: Settings, attempts: int) -> timedelta:
    """Base, then doubling, per failed attempt (attempts >= 1), capped at a day."""
    delay = timedelta(seconds=settings.backoff_base_s * 2 ** max(attempts - 1, 0))
    return min(delay, MAX_DELAY)


def jittered_backoff(settings: Settings, attempts: int) -> timedelta:
    """Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): a delay
    drawn uniformly from zero to the capped exponential one, so receivers that failed
    together do not all come back together."""
    ceiling = backoff(settings, attempts).total_seconds()
    return timedelta(seconds=secrets.SystemRandom().uniform(0, ceiling))
