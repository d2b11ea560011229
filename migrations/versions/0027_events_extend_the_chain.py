"""The database keeps the hash chain linked and moves the ledger head (issue 25).

An event must follow the one before it: its `prev_hash` is the hash of the event at
`seq - 1` (the genesis hash for seq 1), and that event must exist, so `seq` stays gap-free
and every new event is the last. A row written by hand that does not link is refused, as
the service would never write it; one that links but lies about its own hash is still
caught by `verify`, which recomputes every hash.

The same trigger moves `ledger_head` to the last event inserted, in the statement that
inserts it: the head is the database's fact, not a separate statement the writer must
remember. SQLite does both per row (a BEFORE check, an AFTER move); PostgreSQL once a
statement, over the statement's new rows (a transition table), so a unit of work of
100,000 events moves the head once and not 100,000 times.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-08 01:00:00.000000
"""

from alembic import op


revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None

GENESIS = "0" * 64
REFUSAL = "an event must follow the last event of the chain"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "CREATE TRIGGER events_follow_the_chain BEFORE INSERT ON events"
            " WHEN NEW.prev_hash IS NOT (CASE WHEN NEW.seq = 1 THEN"
            f" '{GENESIS}' ELSE (SELECT hash FROM events WHERE seq = NEW.seq - 1) END)"
            f" BEGIN SELECT RAISE(ABORT, '{REFUSAL}'); END"
        )
        op.execute(
            "CREATE TRIGGER events_move_the_head AFTER INSERT ON events BEGIN"
            " UPDATE ledger_head SET seq = NEW.seq, hash = NEW.hash WHERE id = 1; END"
        )
        return
    op.execute(
        "CREATE FUNCTION events_follow_the_chain() RETURNS trigger LANGUAGE plpgsql AS $$"
        " DECLARE last_seq bigint; last_hash text; BEGIN"
        " IF EXISTS (SELECT 1 FROM new_events e WHERE e.prev_hash IS DISTINCT FROM"
        f" (CASE WHEN e.seq = 1 THEN '{GENESIS}'"
        " ELSE (SELECT p.hash FROM events p WHERE p.seq = e.seq - 1) END)) THEN"
        f" RAISE EXCEPTION '{REFUSAL}' USING ERRCODE = 'raise_exception'; END IF;"
        " SELECT seq, hash INTO last_seq, last_hash FROM new_events ORDER BY seq DESC LIMIT 1;"
        " IF FOUND THEN"
        " UPDATE ledger_head SET seq = last_seq, hash = last_hash WHERE id = 1; END IF;"
        " RETURN NULL; END $$"
    )
    op.execute(
        "CREATE TRIGGER events_follow_the_chain AFTER INSERT ON events"
        " REFERENCING NEW TABLE AS new_events"
        " FOR EACH STATEMENT EXECUTE FUNCTION events_follow_the_chain()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER events_move_the_head")
        op.execute("DROP TRIGGER events_follow_the_chain")
        return
    op.execute("DROP TRIGGER events_follow_the_chain ON events")
    op.execute("DROP FUNCTION events_follow_the_chain()")
