"""cosignatures: the witnesses' cosignatures of the checkpoints (C2SP tlog-cosignature),
append-only like checkpoints (the same trigger function as migration 0007 on PostgreSQL)

Revision ID: 0015
Revises: 0013
Create Date: 2026-12-01 20:30:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

TABLE = 'cosignatures'


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column('tree_size', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('witness', sa.String(length=200), nullable=False),
        sa.Column('key_id', sa.String(length=8), nullable=False),
        sa.Column('timestamp', sa.BigInteger(), nullable=False),
        sa.Column('signature', sa.String(length=100), nullable=False),
        sa.Column('recorded_at', sa.String(length=32), nullable=False),
        sa.CheckConstraint('timestamp > 0', name=op.f('ck_cosignatures_timestamp')),
        sa.ForeignKeyConstraint(
            ['tree_size'],
            ['checkpoints.tree_size'],
            name=op.f('fk_cosignatures_tree_size_checkpoints'),
        ),
        sa.PrimaryKeyConstraint('tree_size', 'witness', 'key_id', name=op.f('pk_cosignatures')),
    )
    if op.get_bind().dialect.name == 'sqlite':
        for action in ('UPDATE', 'DELETE'):
            op.execute(
                f"CREATE TRIGGER {TABLE}_no_{action.lower()} BEFORE {action} ON {TABLE} "
                f"BEGIN SELECT RAISE(ABORT, '{TABLE} are append-only'); END"
            )
        return
    # trust_append_only() is migration 0007's.
    op.execute(
        f"CREATE TRIGGER {TABLE}_no_update_delete BEFORE UPDATE OR DELETE ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION trust_append_only()"
    )
    op.execute(
        f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION trust_append_only()"
    )


def downgrade() -> None:
    op.drop_table(TABLE)
