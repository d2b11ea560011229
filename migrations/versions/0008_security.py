"""security: failed sign-ins (login_failures), server-side page sessions (web_sessions),
TOTP second factors and their recovery codes (mfa_credentials, mfa_recovery_codes)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 08:40:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

_str = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table('login_failures',
    sa.Column('key', _str(length=300), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_failed_at', sa.BigInteger(), nullable=False),
    sa.Column('locked_until', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('failures >= 0', name=op.f('ck_login_failures_non_negative')),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_login_failures'))
    )
    op.create_table('web_sessions',
    sa.Column('id', _str(length=64), nullable=False),
    sa.Column('user_id', _str(length=40), nullable=False),
    sa.Column('created_at', _str(length=32), nullable=False),
    sa.Column('last_seen_at', _str(length=32), nullable=False),
    sa.Column('revoked_at', _str(length=32), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_web_sessions_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions'))
    )
    with op.batch_alter_table('web_sessions') as batch:
        batch.create_index(batch.f('ix_web_sessions_user_id'), ['user_id'], unique=False)
    op.create_table('mfa_credentials',
    sa.Column('user_id', _str(length=40), nullable=False),
    sa.Column('secret', _str(length=64), nullable=False),
    sa.Column('created_at', _str(length=32), nullable=False),
    sa.Column('confirmed_at', _str(length=32), nullable=True),
    sa.Column('last_step', sa.BigInteger(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_mfa_credentials_user_id_users')),
    sa.PrimaryKeyConstraint('user_id', name=op.f('pk_mfa_credentials'))
    )
    op.create_table('mfa_recovery_codes',
    sa.Column('id', _str(length=40), nullable=False),
    sa.Column('user_id', _str(length=40), nullable=False),
    sa.Column('code_hash', _str(length=64), nullable=False),
    sa.Column('used_at', _str(length=32), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_mfa_recovery_codes_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mfa_recovery_codes')),
    sa.UniqueConstraint('code_hash', name=op.f('uq_mfa_recovery_codes_code_hash'))
    )
    with op.batch_alter_table('mfa_recovery_codes') as batch:
        batch.create_index(batch.f('ix_mfa_recovery_codes_user_id'), ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_mfa_recovery_codes_user_id'), table_name='mfa_recovery_codes')
    op.drop_table('mfa_recovery_codes')
    op.drop_table('mfa_credentials')
    op.drop_index(op.f('ix_web_sessions_user_id'), table_name='web_sessions')
    op.drop_table('web_sessions')
    op.drop_table('login_failures')
