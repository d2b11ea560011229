"""Offers that expire and counter-offers (issue 28 item 3): an offer's `expires_on` (the
last business date it may be accepted; NULL: no expiry) and the seller's counter to it
(`counter_amount_cents`, `counter_price_cents`, `counter_expires_on`; NULL: none). An
offer's status may now also be 'countered'.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02 19:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('offers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('expires_on', sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column('counter_amount_cents', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('counter_price_cents', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('counter_expires_on', sa.String(length=10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('offers', schema=None) as batch_op:
        batch_op.drop_column('counter_expires_on')
        batch_op.drop_column('counter_price_cents')
        batch_op.drop_column('counter_amount_cents')
        batch_op.drop_column('expires_on')
