"""case files: exhibits, fees and payments, tax clearances, TECH ADM steps
(RULES.md section 7; projections folded from the events, rebuilt at any time)

Revision ID: 0018
Revises: 0019
Create Date: 2026-12-02 09:38:34.580157
"""

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0018'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('documents',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('subject_type', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('subject_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('bytes', sa.BigInteger(), nullable=False),
    sa.Column('media_type', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('filename', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('filed_by', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('filed_at', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('filed_seq', sa.BigInteger(), nullable=False),
    sa.CheckConstraint("subject_type in ('party','registration','tech_application','transfer','certificate')", name=op.f('ck_documents_subject_type')),
    sa.CheckConstraint('bytes > 0 and version > 0', name=op.f('ck_documents_sizes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_documents')),
    sa.UniqueConstraint('subject_type', 'subject_id', 'kind', 'version', name='uq_documents_version')
    )
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_documents_party_id'), ['party_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_documents_sha256'), ['sha256'], unique=False)
        batch_op.create_index(batch_op.f('ix_documents_subject_id'), ['subject_id'], unique=False)

    op.create_table('fees',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('program', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('subject_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('credited_cents', sa.BigInteger(), nullable=False),
    sa.Column('paid_cents', sa.BigInteger(), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('invoiced_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('invoiced_seq', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('amount_cents >= 0 and credited_cents >= 0 and paid_cents >= 0 and credited_cents + paid_cents <= amount_cents', name=op.f('ck_fees_amounts')),
    sa.ForeignKeyConstraint(['party_id'], ['parties.id'], name=op.f('fk_fees_party_id_parties')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fees')),
    sa.UniqueConstraint('kind', 'subject_id', name='uq_fees_once')
    )
    with op.batch_alter_table('fees', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fees_party_id'), ['party_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_fees_subject_id'), ['subject_id'], unique=False)

    op.create_table('tax_clearances',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('program', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('certificate_number', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('issued_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('renews', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('valid_until', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('renewals_left', sa.Integer(), nullable=False),
    sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('renewals_left >= 0', name=op.f('ck_tax_clearances_renewals')),
    sa.CheckConstraint('valid_until >= issued_on', name=op.f('ck_tax_clearances_validity')),
    sa.ForeignKeyConstraint(['party_id'], ['parties.id'], name=op.f('fk_tax_clearances_party_id_parties')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tax_clearances')),
    sa.UniqueConstraint('party_id', 'program', 'certificate_number', name='uq_tax_clearances_number'),
    sa.UniqueConstraint('renews', name=op.f('uq_tax_clearances_renews'))
    )
    with op.batch_alter_table('tax_clearances', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tax_clearances_party_id'), ['party_id'], unique=False)

    op.create_table('fee_payments',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('fee_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('method', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('received_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('amount_cents > 0', name=op.f('ck_fee_payments_positive')),
    sa.ForeignKeyConstraint(['fee_id'], ['fees.id'], name=op.f('fk_fee_payments_fee_id_fees')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_fee_payments'))
    )
    with op.batch_alter_table('fee_payments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_fee_payments_fee_id'), ['fee_id'], unique=False)

    op.create_table('tech_case_files',
    sa.Column('application_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('submitted_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('preliminary_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('conditions', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('forwarded_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('tax_certificate_number', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('valued_benefit_cents', sa.BigInteger(), nullable=True),
    sa.Column('tax_certificate_issued_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.ForeignKeyConstraint(['application_id'], ['tech_applications.id'], name=op.f('fk_tech_case_files_application_id_tech_applications')),
    sa.PrimaryKeyConstraint('application_id', name=op.f('pk_tech_case_files'))
    )
    with op.batch_alter_table('tech_case_files', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tech_case_files_party_id'), ['party_id'], unique=False)



    op.create_table('board_actions',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('party_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('decision', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('board_met_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('governor_received_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('period_ends_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('effective_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('submitted_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('conditions', sa.JSON(), nullable=False),
    sa.Column('governor_decision', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('governor_decided_on', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('recorded_seq', sa.BigInteger(), nullable=False),
    sa.CheckConstraint("decision in ('approve','deny')", name=op.f('ck_board_actions_decision')),
    sa.CheckConstraint("governor_decision is null or governor_decision in ('approve','veto')", name=op.f('ck_board_actions_governor_decision')),
    sa.CheckConstraint('amount_cents >= 0', name=op.f('ck_board_actions_amount')),
    sa.ForeignKeyConstraint(['party_id'], ['parties.id'], name=op.f('fk_board_actions_party_id_parties')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_board_actions'))
    )
    with op.batch_alter_table('board_actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_board_actions_party_id'), ['party_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('board_actions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_board_actions_party_id'))

    op.drop_table('board_actions')
    with op.batch_alter_table('tech_case_files', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tech_case_files_party_id'))

    op.drop_table('tech_case_files')
    with op.batch_alter_table('fee_payments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fee_payments_fee_id'))

    op.drop_table('fee_payments')
    with op.batch_alter_table('tax_clearances', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tax_clearances_party_id'))

    op.drop_table('tax_clearances')
    with op.batch_alter_table('fees', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_fees_subject_id'))
        batch_op.drop_index(batch_op.f('ix_fees_party_id'))

    op.drop_table('fees')
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_documents_subject_id'))
        batch_op.drop_index(batch_op.f('ix_documents_sha256'))
        batch_op.drop_index(batch_op.f('ix_documents_party_id'))

    op.drop_table('documents')
