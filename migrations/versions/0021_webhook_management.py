"""Webhooks people manage (issue 27): a subscription can be paused by its owner or
disabled by a 410 Gone answer (`webhooks.paused`: NULL while it sends, 'owner' or 'gone'),
and deleted (`webhooks.deleted_at`; the row and its delivery log are kept, it is no longer
listed nor sent to); a delivery that used up DELIVERY_MAX_ATTEMPTS is 'failed'.

Revision ID: 0021
Revises: 0018
Create Date: 2026-12-02 09:50:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0021'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused', sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column('deleted_at', sa.String(length=32), nullable=True))
        batch_op.create_check_constraint('paused', "paused in ('owner','gone')")
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_webhook_deliveries_status'), type_='check')
        batch_op.create_check_constraint('status', "status in ('pending','delivered','failed')")


def downgrade() -> None:
    op.execute("UPDATE webhook_deliveries SET status = 'pending' WHERE status = 'failed'")
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_webhook_deliveries_status'), type_='check')
        batch_op.create_check_constraint('status', "status in ('pending','delivered')")
    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_webhooks_paused'), type_='check')
        batch_op.drop_column('deleted_at')
        batch_op.drop_column('paused')
