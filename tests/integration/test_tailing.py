"""On PostgreSQL, concurrent writers never let a reader tailing seq skip an event."""

from __future__ import annotations

import threading

from market.adapters.db import make_engine
from market.adapters.eventstore import page_events
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party

WRITERS, PER_WRITER, READERS = 10, 15, 2


def test_tailing_readers_see_every_seq_once_and_in_order(pg_database_url: str) -> None:
    # PostgreSQL only: SQLite has one writer at a time and no concurrent snapshots to race.
    from tests.conftest import reset_postgres

    reset_postgres(pg_database_url)
    engine = make_engine(pg_database_url)
    total = WRITERS * PER_WRITER
    errors: list[BaseException] = []
    seen: list[list[int]] = [[] for _ in range(READERS)]

    def write(w: int) -> None:
        try:
            for i in range(PER_WRITER):
                new = NewParty(
                    name=f"W{w}-{i}", tax_id=f"{w}-{i}", entity_type="llc", tax_types=["GIT"]
                )
                run(engine, lambda uow, new=new: register_party(uow, SYSTEM, new))
        except BaseException as e:
            errors.append(e)

    def tail(r: int) -> None:
        last = 0
        while len(seen[r]) < total and not errors:
            with engine.connect() as conn:
                batch = page_events(conn, last, 7)
            for e in batch:
                seen[r].append(e.seq)
                last = e.seq

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    threads += [threading.Thread(target=tail, args=(r,)) for r in range(READERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    engine.dispose()
    assert not errors
    for s in seen:
        assert s == list(range(1, total + 1))
