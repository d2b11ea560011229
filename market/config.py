"""Settings read from the environment; `create_app(config=...)` overrides any of them."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def default_database_url(instance_path: str) -> str:
    return f"sqlite:///{Path(instance_path) / 'market.db'}"


def instance_secret_key(instance_path: str) -> str:
    """A key kept in the instance folder, so every worker and restart signs sessions alike."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole, then linked into place: workers starting together all read the
        # same complete key, whichever of them wins the link.
        tmp = path.with_name(f".secret_key.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()


def from_environment(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or default_database_url(instance_path),
        "SECRET_KEY": os.environ.get("SECRET_KEY"),  # None: create_app keeps one in instance/
        "RULESET": os.environ.get("MARKET_RULESET", "A1178"),
        "TOKEN_TTL_HOURS": int(os.environ.get("TOKEN_TTL_HOURS", "720")),
        "SQL_ECHO": os.environ.get("SQL_ECHO") == "1",
        # The business date every rule reading "today" uses (PRODUCT.md 8.4); unset: New York's.
        "MARKET_TODAY": os.environ.get("MARKET_TODAY") or None,
        # Deals (issue 18): e-mail, webhooks and the worker (README, "Deals people can follow").
        "SMTP_HOST": os.environ.get("SMTP_HOST") or None,  # None: e-mail is off
        "SMTP_PORT": int(os.environ.get("SMTP_PORT", "25")),
        "MAIL_FROM": os.environ.get("MAIL_FROM", "market@localhost"),
        "PUBLIC_BASE_URL": os.environ.get("PUBLIC_BASE_URL", "http://127.0.0.1:5000"),
        "DELIVERY_BACKOFF_BASE_S": float(os.environ.get("DELIVERY_BACKOFF_BASE_S", "30")),
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": os.environ.get(
            "WEBHOOK_ALLOW_PRIVATE_NETWORKS", ""
        ).lower()
        in ("1", "true", "yes"),
        "WEBHOOK_TIMEOUT_S": float(os.environ.get("WEBHOOK_TIMEOUT_S", "5")),
    }
