"""Bearer tokens, page sessions and password-reset links are now stored as HMAC-SHA256
under a key kept outside the database (TOKEN_HASH_KEY_FILE; services/identity/token_digest.py),
no longer as a SHA-256 anyone can compute. The digests stored before cannot be converted
(the secrets behind them were never kept), so they are ended here rather than left
looking live: every API token and page session is revoked and every unused reset link
spent. Users sign in again; an e-mailed reset link must be asked for again.

Revision ID: 0016
Revises: 0013
Create Date: 2026-12-01 20:40:00.000000
"""

from datetime import UTC, datetime

from alembic import op
import sqlalchemy as sa


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    for table, column in (
        ("api_tokens", "revoked_at"),
        ("web_sessions", "revoked_at"),
        ("password_resets", "used_at"),
    ):
        op.execute(
            sa.text(f"UPDATE {table} SET {column} = :now WHERE {column} IS NULL").bindparams(
                now=now
            )
        )


def downgrade() -> None:
    # Nothing to undo: the old digests were ended, not converted, and stay ended.
    pass
