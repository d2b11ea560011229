"""The statute's second pass (issue 14): transfers.confirmed_seq (the buyer's
confirmation of a negotiated transfer, PRODUCT.md 8.2) and tech_applications.received_at
and receipt_reason (the TECH receipt instant and an Authority-recorded paper filing's
reason, TB-6 / CMN-1) and parties.director_exception (PT-7, AMB-53)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 09:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('transfers') as batch:
        batch.add_column(sa.Column('confirmed_seq', sa.BigInteger(), nullable=True))
    with op.batch_alter_table('parties') as batch:
        batch.add_column(sa.Column('director_exception', sa.String(length=500), nullable=True))
    with op.batch_alter_table('tech_applications') as batch:
        batch.add_column(sa.Column('received_at', sa.String(length=40), nullable=True))
        batch.add_column(sa.Column('receipt_reason', sa.String(length=500), nullable=True))
    # What replaying the ledger gives (nothing, on a ledger written before these events).
    field = (
        "payload->>'{}'" if op.get_bind().dialect.name == 'postgresql' else "json_extract(payload, '$.{}')"
    )
    op.execute(
        "UPDATE parties SET director_exception = (SELECT " + field.format('reason')
        + " FROM events WHERE type = 'DIRECTOR_EXCEPTION_RECORDED' AND stream = 'party-' || "
        "parties.id ORDER BY seq DESC LIMIT 1)"
    )
    op.execute(
        "UPDATE transfers SET confirmed_seq = (SELECT max(seq) FROM events WHERE "
        "type = 'TRANSFER_CONFIRMED' AND stream = 'transfer-' || transfers.id)"
    )
    op.execute(
        "UPDATE tech_applications SET received_at = (SELECT " + field.format('received_at')
        + " FROM events WHERE type = 'TECH_APPLICATION_RECEIVED' AND stream = 'tech-' || "
        "tech_applications.id)"
    )
    op.execute(
        "UPDATE tech_applications SET receipt_reason = (SELECT "
        + field.format('receipt_reason') + " FROM events WHERE type = 'TECH_RECEIPT_RECORDED' "
        "AND stream = 'tech-' || tech_applications.id)"
    )


def downgrade() -> None:
    with op.batch_alter_table('tech_applications') as batch:
        batch.drop_column('receipt_reason')
        batch.drop_column('received_at')
    # Not batch mode: on SQLite that rebuilds the table, which other tables' foreign keys
    # refuse; SQLite (3.35+) drops a plain column in place.
    op.drop_column('parties', 'director_exception')
    with op.batch_alter_table('transfers') as batch:
        batch.drop_column('confirmed_seq')
