"""merkle_nodes (every complete subtree of the Merkle tree over the events) and
checkpoints (signed tree heads); both append-only, like events

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-01 09:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0005'
branch_labels = None
depends_on = None

TABLES = ('merkle_nodes', 'checkpoints')


def upgrade() -> None:
    op.create_table(
        'merkle_nodes',
        sa.Column('level', sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column('idx', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('hash', sa.LargeBinary(length=32), nullable=False),
        sa.CheckConstraint(
            'level >= 0 AND level < 64 AND idx >= 0', name=op.f('ck_merkle_nodes_slot')
        ),
        sa.PrimaryKeyConstraint('level', 'idx', name=op.f('pk_merkle_nodes')),
    )
    op.create_table(
        'checkpoints',
        sa.Column('tree_size', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('root_hash', sa.String(length=64), nullable=False),
        sa.Column('timestamp', sa.String(length=32), nullable=False),
        sa.Column('key_id', sa.String(length=16), nullable=False),
        sa.Column('signature', sa.String(length=100), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.CheckConstraint('tree_size > 0', name=op.f('ck_checkpoints_tree_size')),
        sa.PrimaryKeyConstraint('tree_size', name=op.f('pk_checkpoints')),
    )
    if op.get_bind().dialect.name == 'sqlite':
        for table in TABLES:
            for action in ('UPDATE', 'DELETE'):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
                )
        return
    op.execute(
        "CREATE FUNCTION trust_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN RAISE EXCEPTION '% are append-only', TG_TABLE_NAME "
        "USING ERRCODE = 'raise_exception'; END $$"
    )
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION trust_append_only()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION trust_append_only()"
        )


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table)
    if op.get_bind().dialect.name != 'sqlite':
        op.execute("DROP FUNCTION trust_append_only()")
