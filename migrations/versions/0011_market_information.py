"""certificate_notices (trading halts) and transfer_fundings (the closing record), PRODUCT.md 8.3

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 08:40:00.000000
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('certificate_notices',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('certificate_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('root_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('halted_certificate_ids', sa.JSON(), nullable=False),
    sa.Column('suspended_listing_ids', sa.JSON(), nullable=False),
    sa.Column('resumed_listing_ids', sa.JSON(), nullable=False),
    sa.Column('lift_reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('issued_seq', sa.BigInteger(), nullable=False),
    sa.Column('lifted_seq', sa.BigInteger(), nullable=True),
    sa.CheckConstraint("(status = 'active' and lifted_seq is null) or (status = 'lifted' and lifted_seq is not null)", name=op.f('ck_certificate_notices_lifted_has_seq')),
    sa.CheckConstraint("kind in ('recapture','invalidity')", name=op.f('ck_certificate_notices_kind')),
    sa.CheckConstraint("status in ('active','lifted')", name=op.f('ck_certificate_notices_status')),
    sa.ForeignKeyConstraint(['certificate_id'], ['certificates.id'], name=op.f('fk_certificate_notices_certificate_id_certificates')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_certificate_notices'))
    )
    with op.batch_alter_table('certificate_notices', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_certificate_notices_certificate_id'), ['certificate_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_certificate_notices_root_id'), ['root_id'], unique=False)

    op.create_table('transfer_fundings',
    sa.Column('transfer_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('buyer_party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('seller_party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('paid_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
    sa.Column('confirmed_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('confirmed_seq', sa.BigInteger(), nullable=True),
    sa.Column('refund_owed_cents', sa.BigInteger(), server_default='0', nullable=False),
    sa.CheckConstraint('(confirmed_on is null) = (confirmed_seq is null)', name=op.f('ck_transfer_fundings_confirmed_has_seq')),
    sa.CheckConstraint('amount_cents > 0', name=op.f('ck_transfer_fundings_positive')),
    sa.CheckConstraint('refund_owed_cents >= 0 and refund_owed_cents <= amount_cents', name=op.f('ck_transfer_fundings_refund')),
    sa.ForeignKeyConstraint(['buyer_party_id'], ['parties.id'], name=op.f('fk_transfer_fundings_buyer_party_id_parties')),
    sa.ForeignKeyConstraint(['seller_party_id'], ['parties.id'], name=op.f('fk_transfer_fundings_seller_party_id_parties')),
    sa.ForeignKeyConstraint(['transfer_id'], ['transfers.id'], name=op.f('fk_transfer_fundings_transfer_id_transfers')),
    sa.PrimaryKeyConstraint('transfer_id', name=op.f('pk_transfer_fundings'))
    )


def downgrade() -> None:
    op.drop_table('transfer_fundings')
    with op.batch_alter_table('certificate_notices', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_certificate_notices_root_id'))
        batch_op.drop_index(batch_op.f('ix_certificate_notices_certificate_id'))

    op.drop_table('certificate_notices')
