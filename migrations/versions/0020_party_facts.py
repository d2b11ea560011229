"""Party facts and import runs (PRODUCT.md 9.1, 9.2): a party's NAICS code and employees
by year (`party_facts`), and one row per imported file keyed by its SHA-256
(`records_imports`), so the same file is never imported twice.

Revision ID: 0020
Revises: 0017
Create Date: 2026-12-02 09:50:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0020'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'party_facts',
        sa.Column('party_id', sa.String(length=40), nullable=False),
        sa.Column('naics_code', sa.String(length=6), nullable=True),
        sa.Column('employees', sa.JSON(), nullable=False),
        sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
        sa.CheckConstraint(
            'naics_code is null or length(naics_code) between 2 and 6',
            name=op.f('ck_party_facts_naics_length'),
        ),
        sa.ForeignKeyConstraint(
            ['party_id'], ['parties.id'], name=op.f('fk_party_facts_party_id_parties')
        ),
        sa.PrimaryKeyConstraint('party_id', name=op.f('pk_party_facts')),
    )
    op.create_table(
        'records_imports',
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('import_id', sa.String(length=40), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('file_name', sa.String(length=300), nullable=False),
        sa.Column('rows', sa.Integer(), nullable=False),
        sa.Column('imported', sa.Integer(), nullable=False),
        sa.Column('first_seq', sa.BigInteger(), nullable=True),
        sa.Column('last_seq', sa.BigInteger(), nullable=True),
        sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
        sa.CheckConstraint(
            'imported >= 0 and imported <= rows', name=op.f('ck_records_imports_imported_le_rows')
        ),
        sa.PrimaryKeyConstraint('sha256', name=op.f('pk_records_imports')),
        sa.UniqueConstraint('import_id', name=op.f('uq_records_imports_import_id')),
    )


def downgrade() -> None:
    op.drop_table('records_imports')
    op.drop_table('party_facts')
