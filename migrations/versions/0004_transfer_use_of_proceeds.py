"""transfers.use_of_proceeds: the seller's attestation (BR-14, TB-25)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 15:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('transfers') as batch:
        batch.add_column(sa.Column('use_of_proceeds', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('transfers') as batch:
        batch.drop_column('use_of_proceeds')
