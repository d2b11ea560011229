"""Readiness (GET /readyz): a list of named checks, each one function that answers None
when all is well or a sentence saying what is wrong. A new check (the witnesses' quorum,
say) is one function and one line in CHECKS."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text

from market.adapters import migrate
from market.adapters.signing import KeyFileError, load_signer
from market.services.ops.ops_figures import outbox_lag
from market.services.trust import checkpoints, cosigned
from market.services.trust.checkpoints import TrustSettings


@dataclass(frozen=True)
class Probe:
    engine: Engine
    trust: TrustSettings
    max_worker_lag_s: float
    document_dir: Path | None = None  # DOCUMENT_DIR; None: no documents folder configured


def database(probe: Probe) -> str | None:
    with probe.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    return None


def migrations(probe: Probe) -> str | None:
    current, head = migrate.current(probe.engine), migrate.head_revision()
    if current is None:
        return f"the database is not migrated (the code expects revision {head})"
    if current != head:
        return f"the database is at revision {current}, the code expects {head}"
    return None


def signing_key(probe: Probe) -> str | None:
    try:
        load_signer(probe.trust.key_file, probe.trust.origin, create=probe.trust.create_key)
    except KeyFileError as e:
        return str(e)
    return None


def worker_lag(probe: Probe) -> str | None:
    with probe.engine.connect() as conn:
        events, age = outbox_lag(conn)
    if age > probe.max_worker_lag_s:
        return (
            f"{events} events wait for the worker, the oldest for {age:.0f} s "
            f"(READY_MAX_WORKER_LAG_S={probe.max_worker_lag_s:g})"
        )
    return None


def witness_quorum(probe: Probe) -> str | None:
    """The latest checkpoint has its quorum of cosignatures (WITNESSES, WITNESS_QUORUM)."""
    latest = checkpoints.latest(probe.engine, probe.trust)
    if cosigned.witness_quorum_met(probe.engine, probe.trust.witnesses, latest):
        return None
    return "the latest checkpoint is below its witness quorum (WITNESS_QUORUM)"


def documents_dir_writable(probe: Probe) -> str | None:
    """DOCUMENT_DIR is a folder this process can create a file in (then removes it)."""
    folder = probe.document_dir
    if folder is None:
        return None
    if not folder.is_dir():
        return f"DOCUMENT_DIR {folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"DOCUMENT_DIR {folder} is not writable by this process"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".readyz-"):
            pass
    except OSError as e:
        return f"DOCUMENT_DIR {folder} cannot take a file ({e.strerror or type(e).__name__})"
    return None


Check = Callable[[Probe], "str | None"]
CHECKS: list[tuple[str, Check]] = [
    ("database", database),
    ("migrations", migrations),
    ("signing_key", signing_key),
    ("worker_lag", worker_lag),
    ("witness_quorum", witness_quorum),
    ("documents_dir_writable", documents_dir_writable),
]


def run_checks(probe: Probe, checks: list[tuple[str, Check]] = CHECKS) -> dict[str, str]:
    """Each check's outcome by name: "ok" or what is wrong. A check that raises fails
    with the exception's class only (this answer is public; its message may name hosts),
    and the later checks still run."""
    outcome: dict[str, str] = {}
    for name, check in checks:
        try:
            problem = check(probe)
        except Exception as exc:
            problem = f"failed: {type(exc).__name__}"
        outcome[name] = problem or "ok"
    return outcome
