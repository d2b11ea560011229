"""owners' agreements (UTH-14, AMB-17)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 09:00:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('owners_agreements',
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('agreement_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('shares', sa.JSON(), nullable=False),
    sa.Column('filed_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
    sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['party_id'], ['parties.id'], name=op.f('fk_owners_agreements_party_id_parties')),
    sa.PrimaryKeyConstraint('party_id', name=op.f('pk_owners_agreements'))
    )


def downgrade() -> None:
    op.drop_table('owners_agreements')
