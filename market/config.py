"""Settings read from the environment; `create_app(config=...)` overrides any of them."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from market.adapters.files import write_once

ROOT = Path(__file__).resolve().parent.parent
# PUBLIC_BASE_URL when none is configured: links built for a browser then use its host.
DEFAULT_PUBLIC_BASE_URL = "http://127.0.0.1:5000"


def default_database_url(instance_path: str) -> str:
    return f"sqlite:///{Path(instance_path) / 'market.db'}"


def instance_secret_key(instance_path: str) -> str:
    """A key kept in the instance folder, so every worker and restart signs sessions alike."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        # Written once: workers starting together all read the same complete key.
        write_once(path, secrets.token_hex(32).encode())
    return path.read_text().strip()


def token_hash_key(configured: str | None, instance_path: str) -> bytes:
    """The key bearer tokens, page sessions and reset links are stored under (hex, 32
    bytes or more). A file of its own rather than one derived from SECRET_KEY: it never
    sits in the environment beside DATABASE_URL, rotating the cookie key does not end
    every API token, and like the signing key it is in no database and no backup of one.
    A configured TOKEN_HASH_KEY_FILE must exist; only the default one is made, once."""
    path = Path(configured) if configured else Path(instance_path) / "token_hash_key"
    if not configured and not path.exists():
        write_once(path, secrets.token_hex(32).encode())  # 0600, workers agree on one
    try:
        return bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError) as e:
        raise RuntimeError(f"TOKEN_HASH_KEY_FILE {path} cannot be used: {e}") from e


def from_environment(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or default_database_url(instance_path),
        # The schema owner: db upgrade/downgrade, create-runtime-role, create-signer-role,
        # backup, restore.
        "MIGRATION_DATABASE_URL": os.environ.get("MIGRATION_DATABASE_URL") or None,
        # The role that may write merkle_nodes and checkpoints; unset: DATABASE_URL's.
        "SIGNER_DATABASE_URL": os.environ.get("SIGNER_DATABASE_URL") or None,
        # The key tokens, sessions and reset links are stored under; unset: instance/.
        "TOKEN_HASH_KEY_FILE": os.environ.get("TOKEN_HASH_KEY_FILE") or None,
        "SECRET_KEY": os.environ.get("SECRET_KEY"),  # None: create_app keeps one in instance/
        "RULESET": os.environ.get("MARKET_RULESET", "A1178"),
        # Exhibits (PRODUCT.md 9.1): their bytes' folder (unset: instance/documents), size limit.
        "DOCUMENT_DIR": os.environ.get("DOCUMENT_DIR") or None,
        "DOCUMENT_MAX_BYTES": int(os.environ.get("DOCUMENT_MAX_BYTES", str(20 * 1024 * 1024))),
        "TOKEN_TTL_HOURS": int(os.environ.get("TOKEN_TTL_HOURS", "720")),
        "SQL_ECHO": os.environ.get("SQL_ECHO") == "1",
        # The business date every rule reading "today" uses (PRODUCT.md 8.4); unset: New York's.
        "MARKET_TODAY": os.environ.get("MARKET_TODAY") or None,
        # PRODUCT.md 8.1; unset: instance/signing_key (made once) and instance/checkpoints.
        "SIGNING_KEY_FILE": os.environ.get("SIGNING_KEY_FILE") or None,
        "CHECKPOINT_DIR": os.environ.get("CHECKPOINT_DIR") or None,
        "CHECKPOINT_ORIGIN": os.environ.get("CHECKPOINT_ORIGIN") or None,
        # C2SP verifier keys whose checkpoints count, one a line (PRODUCT.md 9.3); unset:
        # the key in SIGNING_KEY_FILE. A checkpoint of our origin under another key fails.
        "TRUSTED_LOG_KEYS": os.environ.get("TRUSTED_LOG_KEYS") or "",
        # PRODUCT.md 9.3: one `NAME URL VKEY` a line; the quorum defaults to all of them.
        "WITNESSES": os.environ.get("WITNESSES") or "",
        "WITNESS_QUORUM": os.environ.get("WITNESS_QUORUM") or None,
        "WITNESS_TIMEOUT_S": float(os.environ.get("WITNESS_TIMEOUT_S", "5")),
        **security_settings(),
        # Deals (issue 18): e-mail, webhooks and the worker (README, "Deals people can follow").
        "SMTP_HOST": os.environ.get("SMTP_HOST") or None,  # None: e-mail is off
        "SMTP_PORT": int(os.environ.get("SMTP_PORT", "25")),
        "MAIL_FROM": os.environ.get("MAIL_FROM", "market@localhost"),
        "PUBLIC_BASE_URL": os.environ.get("PUBLIC_BASE_URL", DEFAULT_PUBLIC_BASE_URL),
        "DELIVERY_BACKOFF_BASE_S": float(os.environ.get("DELIVERY_BACKOFF_BASE_S", "30")),
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": os.environ.get(
            "WEBHOOK_ALLOW_PRIVATE_NETWORKS", ""
        ).lower()
        in ("1", "true", "yes"),
        # Issue 27: one attempt's timeout (WEBHOOK_TIMEOUT_S, its old name, still read) and
        # the attempts after which a webhook message is given up ('failed').
        "DELIVERY_TIMEOUT_S": float(
            os.environ.get("DELIVERY_TIMEOUT_S") or os.environ.get("WEBHOOK_TIMEOUT_S") or "15"
        ),
        "DELIVERY_MAX_ATTEMPTS": int(os.environ.get("DELIVERY_MAX_ATTEMPTS", "12")),
        **ops_settings(),
        **write_settings(),
    }


def ops_settings() -> dict[str, Any]:
    """Running it as a service (PRODUCT.md 9.4, docs/OPERATIONS.md)."""
    env = os.environ.get
    return {
        "LOG_FORMAT": env("LOG_FORMAT", "text"),  # "json": one object a line
        "READY_MAX_WORKER_LAG_S": float(env("READY_MAX_WORKER_LAG_S", "60")),
        # Addresses or networks, comma-separated, that may scrape /metrics.
        "METRICS_ALLOW_FROM": env("METRICS_ALLOW_FROM", "127.0.0.1"),
        # Where uploaded documents are kept (readiness checks it is writable); unset: none.
        "DOCUMENT_DIR": env("DOCUMENT_DIR") or None,
        # Single sign-on (OpenID Connect); unset OIDC_ISSUER: off.
        "OIDC_ISSUER": env("OIDC_ISSUER") or None,
        "OIDC_CLIENT_ID": env("OIDC_CLIENT_ID") or None,
        "OIDC_CLIENT_SECRET": env("OIDC_CLIENT_SECRET") or None,
        "OIDC_SATISFIES_MFA": _flag("OIDC_SATISFIES_MFA"),
    }


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def security_settings() -> dict[str, Any]:
    """Issue 15's settings (PRODUCT.md 8.4 names the first four); README lists them all."""
    env = os.environ.get
    return {
        "SESSION_COOKIE_SECURE": _flag("SESSION_COOKIE_SECURE"),
        "MAX_CONTENT_LENGTH": int(env("MAX_CONTENT_LENGTH", str(1024 * 1024))),
        "LOGIN_MAX_FAILURES": int(env("LOGIN_MAX_FAILURES", "10")),
        "MFA_REQUIRED_ROLES": env("MFA_REQUIRED_ROLES", "authority,auditor"),
        "LOGIN_MAX_FAILURES_PER_ADDRESS": int(env("LOGIN_MAX_FAILURES_PER_ADDRESS", "100")),
        "LOGIN_LOCKOUT_SECONDS": int(env("LOGIN_LOCKOUT_SECONDS", "60")),
        "LOGIN_LOCKOUT_MAX_SECONDS": int(env("LOGIN_LOCKOUT_MAX_SECONDS", "3600")),
        "SESSION_IDLE_MINUTES": int(env("SESSION_IDLE_MINUTES", "30")),
        "SESSION_MAX_HOURS": int(env("SESSION_MAX_HOURS", "12")),
        "PASSWORD_HASH_CONCURRENCY": int(env("PASSWORD_HASH_CONCURRENCY", "1")),
        "PASSWORD_HASH_WAIT_SECONDS": float(env("PASSWORD_HASH_WAIT_SECONDS", "0.02")),
        "TRUSTED_PROXIES": int(env("TRUSTED_PROXIES", "0")),
        # Proof reads (anyone) per client address and minute, counted per process; 0: no limit.
        "PROOF_RATE_PER_MINUTE": int(env("PROOF_RATE_PER_MINUTE", "600")),
    }


def write_settings() -> dict[str, Any]:
    """Group commit (services/kernel/group_commit.py): the most units of work one commit
    carries, and how long a batch may wait to fill (0: never; batches form under load)."""
    return {
        "WRITE_BATCH_MAX": int(os.environ.get("WRITE_BATCH_MAX", "32")),
        "WRITE_BATCH_WAIT_MS": float(os.environ.get("WRITE_BATCH_WAIT_MS", "0")),
    }
