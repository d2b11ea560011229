"""Request traces: which request (X-Request-Id) committed an event, so the worker's log
lines for what that event owes carry the id (docs/OPERATIONS.md). Beside the events,
never in their hashed payload.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 20:40:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'request_traces',
        sa.Column('seq', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('request_id', sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint('seq', 'request_id', name=op.f('pk_request_traces')),
    )


def downgrade() -> None:
    op.drop_table('request_traces')
