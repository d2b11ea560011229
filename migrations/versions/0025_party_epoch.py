"""The party epoch (issue 25, the statement diet): a one-row counter the database moves
forward whenever a `parties` row is inserted, changed or deleted, so a process may keep the
party rows it has read while the counter stays, and a write checks the counter with the
ledger head it locks anyway (no statement of its own).

Triggers move it, so a change written by hand moves it too (on PostgreSQL a TRUNCATE as
well). Other triggers refuse to move it back or delete it (a counter set back could make a
stale party look current).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07 17:30:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None

# (trigger name, event)
MOVES = [
    ("party_epoch_party_added", "INSERT"),
    ("party_epoch_party_changed", "UPDATE"),
    ("party_epoch_party_deleted", "DELETE"),
]
BUMP = "UPDATE party_epoch SET n = n + 1 WHERE id = 1"


def upgrade() -> None:
    op.create_table(
        'party_epoch',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('n', sa.BigInteger(), nullable=False),
        sa.CheckConstraint('id = 1', name=op.f('ck_party_epoch_single_row')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_party_epoch')),
    )
    op.execute("INSERT INTO party_epoch (id, n) VALUES (1, 0)")
    if op.get_bind().dialect.name == "sqlite":
        for name, event in MOVES:
            op.execute(f"CREATE TRIGGER {name} AFTER {event} ON parties BEGIN {BUMP}; END")
        op.execute(
            "CREATE TRIGGER party_epoch_forward BEFORE UPDATE ON party_epoch"
            " WHEN NEW.n <= OLD.n OR NEW.id <> OLD.id"
            " BEGIN SELECT RAISE(ABORT, 'party_epoch only moves forward'); END"
        )
        op.execute(
            "CREATE TRIGGER party_epoch_kept BEFORE DELETE ON party_epoch"
            " BEGIN SELECT RAISE(ABORT, 'party_epoch is never deleted'); END"
        )
        return
    op.execute(
        "CREATE FUNCTION party_epoch_move() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN {BUMP}; RETURN NULL; END $$"
    )
    for name, event in [*MOVES, ("party_epoch_parties_truncated", "TRUNCATE")]:
        op.execute(
            f"CREATE TRIGGER {name} AFTER {event} ON parties"
            " FOR EACH STATEMENT EXECUTE FUNCTION party_epoch_move()"
        )
    op.execute(
        "CREATE FUNCTION party_epoch_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " IF TG_OP IN ('DELETE', 'TRUNCATE') THEN RAISE EXCEPTION 'party_epoch is never deleted'; END IF;"
        " IF NEW.n <= OLD.n OR NEW.id <> OLD.id THEN"
        " RAISE EXCEPTION 'party_epoch only moves forward'; END IF;"
        " RETURN NEW; END $$"
    )
    op.execute(
        "CREATE TRIGGER party_epoch_guard BEFORE UPDATE OR DELETE ON party_epoch"
        " FOR EACH ROW EXECUTE FUNCTION party_epoch_guard()"
    )
    op.execute(
        "CREATE TRIGGER party_epoch_no_truncate BEFORE TRUNCATE ON party_epoch"
        " FOR EACH STATEMENT EXECUTE FUNCTION party_epoch_guard()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in [m[0] for m in MOVES] + ["party_epoch_forward", "party_epoch_kept"]:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.drop_table('party_epoch')
        return
    for name, _event in [*MOVES, ("party_epoch_parties_truncated", "TRUNCATE")]:
        op.execute(f"DROP TRIGGER IF EXISTS {name} ON parties")
    op.execute("DROP TABLE party_epoch")
    op.execute("DROP FUNCTION party_epoch_move()")
    op.execute("DROP FUNCTION party_epoch_guard()")
