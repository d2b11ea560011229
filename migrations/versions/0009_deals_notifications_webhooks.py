"""deals: the inbox, the e-mail outbox, webhooks and their deliveries, consumer cursors
over the events (the events table is the outbox), filing references, tick runs and
leases, password resets (issue 18; issue 15's reset link)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 08:39:26.290909
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('consumer_cursors',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_consumer_cursors'))
    )
    op.create_table('filing_references',
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('entity_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.PrimaryKeyConstraint('reference', name=op.f('pk_filing_references')),
    sa.UniqueConstraint('kind', 'entity_id', name='filing_entity')
    )
    op.create_table('tick_runs',
    sa.Column('step', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('as_of', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('done_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('step', 'as_of', name=op.f('pk_tick_runs'))
    )
    op.create_table('worker_leases',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('holder', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('expires_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_worker_leases'))
    )
    op.create_table('email_outbox',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('type', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('to_addr', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('text_body', sqlmodel.sql.sqltypes.AutoString(length=8000), nullable=False),
    sa.Column('html_body', sqlmodel.sql.sqltypes.AutoString(length=16000), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('sent_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
    sa.CheckConstraint("status in ('pending','sent')", name=op.f('ck_email_outbox_status')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_email_outbox_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_email_outbox')),
    sa.UniqueConstraint('user_id', 'seq', 'type', name='email_user_event')
    )
    with op.batch_alter_table('email_outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_email_outbox_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_email_outbox_user_id'), ['user_id'], unique=False)

    op.create_table('notifications',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('type', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('body', sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
    sa.Column('link', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('read_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_notifications_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notifications')),
    sa.UniqueConstraint('user_id', 'seq', 'type', name='notification_user_event')
    )
    with op.batch_alter_table('notifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notifications_user_id'), ['user_id'], unique=False)

    op.create_table('password_resets',
    sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('expires_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('used_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_password_resets_user_id_users')),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_password_resets'))
    )
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_password_resets_user_id'), ['user_id'], unique=False)

    op.create_table('webhooks',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.Column('event_types', sa.JSON(), nullable=False),
    sa.Column('secret', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('created_seq', sa.BigInteger(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_webhooks_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhooks'))
    )
    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_webhooks_user_id'), ['user_id'], unique=False)

    op.create_table('webhook_deliveries',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('webhook_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('type', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('delivered_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
    sa.CheckConstraint("status in ('pending','delivered')", name=op.f('ck_webhook_deliveries_status')),
    sa.ForeignKeyConstraint(['webhook_id'], ['webhooks.id'], name=op.f('fk_webhook_deliveries_webhook_id_webhooks')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_deliveries')),
    sa.UniqueConstraint('webhook_id', 'seq', name='delivery_webhook_event')
    )
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_webhook_deliveries_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_webhook_deliveries_webhook_id'), ['webhook_id'], unique=False)

    op.create_table('webhook_attempts',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('delivery_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('webhook_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seq', sa.BigInteger(), nullable=False),
    sa.Column('attempted_at', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('error', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('duration_ms', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['delivery_id'], ['webhook_deliveries.id'], name=op.f('fk_webhook_attempts_delivery_id_webhook_deliveries')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_attempts'))
    )
    with op.batch_alter_table('webhook_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_webhook_attempts_delivery_id'), ['delivery_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_webhook_attempts_webhook_id'), ['webhook_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('webhook_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhook_attempts_webhook_id'))
        batch_op.drop_index(batch_op.f('ix_webhook_attempts_delivery_id'))

    op.drop_table('webhook_attempts')
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhook_deliveries_webhook_id'))
        batch_op.drop_index(batch_op.f('ix_webhook_deliveries_status'))

    op.drop_table('webhook_deliveries')
    with op.batch_alter_table('webhooks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_webhooks_user_id'))

    op.drop_table('webhooks')
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_password_resets_user_id'))

    op.drop_table('password_resets')
    with op.batch_alter_table('notifications', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notifications_user_id'))

    op.drop_table('notifications')
    with op.batch_alter_table('email_outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_email_outbox_user_id'))
        batch_op.drop_index(batch_op.f('ix_email_outbox_status'))

    op.drop_table('email_outbox')
    op.drop_table('worker_leases')
    op.drop_table('tick_runs')
    op.drop_table('filing_references')
    op.drop_table('consumer_cursors')
