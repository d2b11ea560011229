"""The statements every write runs, as plain SQL for `Connection.exec_driver_sql`: the
head locked and read with the epochs, an event inserted (the database moves the head with
it, migration 0027; market/adapters/eventstore.py runs them)."""

from __future__ import annotations

EVENT_COLUMNS = (  # every column of an event row, in the order they are stored
    "seq",
    "stream",
    "version",
    "type",
    "payload",
    "actor",
    "recorded_at",
    "prev_hash",
    "hash",
)

ARRAY_TYPES = {"seq": "bigint", "version": "integer"}  # the rest are text


class _Sql:
    """The statements every write runs, as plain SQL for `Connection.exec_driver_sql`
    (SQLAlchemy's public API, without building and compiling a Core statement for each
    run): the payload goes in as the canonical JSON already encoded for its hash."""

    def __init__(self, sqlite: bool) -> None:
        def p(name: str) -> str:
            return f":{name}" if sqlite else f"%({name})s"

        # The epochs ride along (no statement of their own): a write checks a kept
        # principal (market/api/principals.py) and kept party rows (adapters/kept_rows.py)
        # against them under the head lock. On PostgreSQL their rows are locked FOR SHARE
        # by the same statement: a value read by a subquery would be the one of the
        # statement's snapshot, taken before the wait for the head, while a locked row is
        # read again as committed when the lock is granted (and cannot move until commit).
        self.lock_head = (
            "SELECT seq, hash, (SELECT n FROM auth_epoch WHERE id = 1) AS auth_epoch,"
            " (SELECT n FROM party_epoch WHERE id = 1) AS party_epoch"
            " FROM ledger_head WHERE id = 1"
            if sqlite
            else "SELECT h.seq, h.hash, a.n AS auth_epoch, p.n AS party_epoch"
            " FROM ledger_head h, auth_epoch a, party_epoch p"
            " WHERE h.id = 1 AND a.id = 1 AND p.id = 1"
            " FOR UPDATE OF h FOR SHARE OF a, p"
        )
        # When the lock statement finds no row: the head alone (epochs None), if there is a
        # head; PostgreSQL's inner join finds none without an epoch's row.
        self.lock_head_alone = (
            "SELECT seq, hash, NULL AS auth_epoch, NULL AS party_epoch"
            " FROM ledger_head WHERE id = 1" + ("" if sqlite else " FOR UPDATE")
        )
        self.insert_event = (
            f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) "
            f"VALUES ({', '.join(p(c) for c in EVENT_COLUMNS)})"
        )
        # PostgreSQL: many events in one statement, a column an array (the payload the
        # canonical JSON text, stored as it is). SQLite inserts them with `insert_event`.
        self.insert_events: str | None = None
        if not sqlite:
            arrays = ", ".join(f"%({c})s::{ARRAY_TYPES.get(c, 'text')}[]" for c in EVENT_COLUMNS)
            picked = ", ".join("payload::json" if c == "payload" else c for c in EVENT_COLUMNS)
            self.insert_events = (
                f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) SELECT {picked}"
                f" FROM unnest({arrays}) AS r({', '.join(EVENT_COLUMNS)})"
            )


WRITE_SQL = {True: _Sql(sqlite=True), False: _Sql(sqlite=False)}  # by "is SQLite"
