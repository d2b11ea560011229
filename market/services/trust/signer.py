"""Checkpoints made through the signer's connection (SIGNER_DATABASE_URL).

On PostgreSQL the runtime role may only read merkle_nodes and checkpoints
(adapters/roles.py); the trust layer is written by the signer role alone. These wrap
`checkpoints.make_checkpoint` and `checkpoint_due` so that a connection that may not write
them answers a clear `signer_cannot_write` (503) instead of a database error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from market.adapters.db import permission_denied
from market.domain.errors import DomainError
from market.services.trust import checkpoints
from market.services.trust.checkpoint_views import PublicCheckpoint
from market.services.trust.checkpoints import TrustSettings


class SignerCannotWriteError(DomainError):
    code = "signer_cannot_write"


@contextmanager
def writing_trust() -> Iterator[None]:
    """Around any write to the trust tables: a refused privilege becomes the 503."""
    try:
        yield
    except DBAPIError as e:
        if not permission_denied(e):
            raise
        raise SignerCannotWriteError(
            "The database role this service signs with may not write the Merkle tree or "
            "checkpoints; set SIGNER_DATABASE_URL to the signer role's connection "
            "(flask --app market db create-signer-role).",
            {"setting": "SIGNER_DATABASE_URL"},
        ) from e


def make_checkpoint(
    signer: Engine, settings: TrustSettings, *, max_backlog: int | None = None
) -> tuple[PublicCheckpoint, bool]:
    with writing_trust():
        return checkpoints.make_checkpoint(signer, settings, max_backlog=max_backlog)


def checkpoint_due(signer: Engine, settings: TrustSettings) -> PublicCheckpoint | None:
    with writing_trust():
        return checkpoints.checkpoint_due(signer, settings)
