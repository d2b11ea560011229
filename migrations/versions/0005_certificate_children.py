"""certificates.children_count and an index on parent_id: a derived certificate's number
comes from its parent's row, which the approval holds locked, instead of counting the
parent's children (a scan of every certificate: parent_id had no index)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 17:30:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('certificates') as batch:
        batch.add_column(
            sa.Column('children_count', sa.Integer(), nullable=False, server_default='0')
        )
        batch.create_index(batch.f('ix_certificates_parent_id'), ['parent_id'], unique=False)
    # What replaying the ledger gives: one per certificate derived from it.
    op.execute(
        "UPDATE certificates SET children_count = "
        "(SELECT count(*) FROM certificates AS c WHERE c.parent_id = certificates.id)"
    )


def downgrade() -> None:
    # Not batch mode: on SQLite that rebuilds the table, which other tables' foreign keys
    # refuse; SQLite (3.35+) drops a plain column in place.
    op.drop_index(op.f('ix_certificates_parent_id'), table_name='certificates')
    op.drop_column('certificates', 'children_count')
