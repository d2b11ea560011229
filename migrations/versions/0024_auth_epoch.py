"""The auth epoch (issue 25, the statement diet): a one-row counter the database moves
forward whenever a bearer token's principal could have changed, so a process may keep the
principals it has read while the counter stays, and a write checks the counter with the
ledger head it locks anyway (no statement of its own).

Triggers move it, so a change written by hand moves it too: an api_tokens row updated or
deleted; a users row whose role, party or active flag changes, or that is deleted; any
party_memberships change. Other triggers refuse to move it back or delete it (a counter
set back could make a stale principal look current).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07 05:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None

# (trigger name, event, table)
MOVES = [
    ("auth_epoch_token_changed", "UPDATE", "api_tokens"),
    ("auth_epoch_token_deleted", "DELETE", "api_tokens"),
    ("auth_epoch_user_changed", "UPDATE OF role, party_id, active", "users"),
    ("auth_epoch_user_deleted", "DELETE", "users"),
    ("auth_epoch_member_added", "INSERT", "party_memberships"),
    ("auth_epoch_member_changed", "UPDATE", "party_memberships"),
    ("auth_epoch_member_deleted", "DELETE", "party_memberships"),
]
BUMP = "UPDATE auth_epoch SET n = n + 1 WHERE id = 1"


def upgrade() -> None:
    op.create_table(
        'auth_epoch',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('n', sa.BigInteger(), nullable=False),
        sa.CheckConstraint('id = 1', name=op.f('ck_auth_epoch_single_row')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_auth_epoch')),
    )
    op.execute("INSERT INTO auth_epoch (id, n) VALUES (1, 0)")
    if op.get_bind().dialect.name == "sqlite":
        for name, event, table in MOVES:
            op.execute(f"CREATE TRIGGER {name} AFTER {event} ON {table} BEGIN {BUMP}; END")
        op.execute(
            "CREATE TRIGGER auth_epoch_forward BEFORE UPDATE ON auth_epoch"
            " WHEN NEW.n <= OLD.n OR NEW.id <> OLD.id"
            " BEGIN SELECT RAISE(ABORT, 'auth_epoch only moves forward'); END"
        )
        op.execute(
            "CREATE TRIGGER auth_epoch_kept BEFORE DELETE ON auth_epoch"
            " BEGIN SELECT RAISE(ABORT, 'auth_epoch is never deleted'); END"
        )
        return
    op.execute(
        "CREATE FUNCTION auth_epoch_move() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN {BUMP}; RETURN NULL; END $$"
    )
    for name, event, table in MOVES:
        op.execute(
            f"CREATE TRIGGER {name} AFTER {event} ON {table}"
            " FOR EACH STATEMENT EXECUTE FUNCTION auth_epoch_move()"
        )
    op.execute(
        "CREATE FUNCTION auth_epoch_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " IF TG_OP IN ('DELETE', 'TRUNCATE') THEN RAISE EXCEPTION 'auth_epoch is never deleted'; END IF;"
        " IF NEW.n <= OLD.n OR NEW.id <> OLD.id THEN"
        " RAISE EXCEPTION 'auth_epoch only moves forward'; END IF;"
        " RETURN NEW; END $$"
    )
    op.execute(
        "CREATE TRIGGER auth_epoch_guard BEFORE UPDATE OR DELETE ON auth_epoch"
        " FOR EACH ROW EXECUTE FUNCTION auth_epoch_guard()"
    )
    op.execute(
        "CREATE TRIGGER auth_epoch_no_truncate BEFORE TRUNCATE ON auth_epoch"
        " FOR EACH STATEMENT EXECUTE FUNCTION auth_epoch_guard()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in [m[0] for m in MOVES] + ["auth_epoch_forward", "auth_epoch_kept"]:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        for name, _event, table in MOVES:
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        op.execute("DROP TABLE auth_epoch")
        op.execute("DROP FUNCTION auth_epoch_move()")
        op.execute("DROP FUNCTION auth_epoch_guard()")
        return
    op.drop_table('auth_epoch')
