"""Settings read from the environment; `create_app(config=...)` overrides any of them."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def default_database_url(instance_path: str) -> str:
    return f"sqlite:///{Path(instance_path) / 'market.db'}"


def from_environment(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or default_database_url(instance_path),
        # A random key is safe for a single process; sessions do not survive a restart.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
        "RULESET": os.environ.get("MARKET_RULESET", "A1178"),
        "TOKEN_TTL_HOURS": int(os.environ.get("TOKEN_TTL_HOURS", "720")),
        "SQL_ECHO": os.environ.get("SQL_ECHO") == "1",
    }
