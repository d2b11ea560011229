"""The reads that must not grow with the ledger use the indexes of migrations 0012 and
0013, on SQLite and PostgreSQL: the statements a read runs are captured and each is explained
(PostgreSQL with sequential scans discouraged, so an index is taken whenever one serves;
without the index the plan is a scan and the test fails).

Every index a write request updates (those of `WRITE_PATH`'s tables, issue 25's index
diet) is named by a read here: an index no read of the service uses costs every write
and serves nothing, and would fail `test_every_index_a_write_updates_serves_a_read`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, event, inspect

from market.adapters.eventstore import EventStore, stream_events
from market.adapters.projections.store import DbStore
from market.adapters.reads import tech as tech_reads
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificate_reads
from market.services.kernel import numbering
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.paging import Page
from market.services.kernel.uow import ReadOnly
from market.services.queries import deals, desk_queries, report_totals
from market.services.trading import commitments, trade_lists


def _plans(engine: Engine, read: Callable[[Any], object]) -> str:
    """Every plan of every statement `read` runs, as one text."""
    captured: list[tuple[str, Any]] = []

    def keep(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            captured.append((statement, params))

    with ReadOnly(engine) as conn:
        event.listen(engine, "before_cursor_execute", keep)
        try:
            read(conn)
        finally:
            event.remove(engine, "before_cursor_execute", keep)
        raw = conn.connection.dbapi_connection
        assert raw is not None
        cursor = raw.cursor()
        sqlite = engine.dialect.name == "sqlite"
        if not sqlite:
            cursor.execute("SET enable_seqscan = off")
        lines = []
        for statement, params in captured:
            cursor.execute(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ") + statement, params)
            lines += [" ".join(str(c) for c in row) for row in cursor.fetchall()]
        if not sqlite:
            cursor.execute("RESET enable_seqscan")
        return "\n".join(lines)


STREAM_VERSION = {"sqlite": "sqlite_autoindex_events_3", "postgresql": "stream_version"}
READS: dict[str, tuple[Callable[[Any], object], str | dict[str, str]]] = {
    "a new certificate's number counts its program and year only": (
        lambda conn: numbering.next_number(conn, "BRRAG", 2014),
        "ix_certificates_numbering",
    ),
    "the paid total sums the seller's approved sales": (
        lambda conn: desk_queries.paid_summary(conn, "pty_x"),
        "ix_transfers_seller_status_seq",
    ),
    "a certificate's history finds the transfer that created it": (
        lambda conn: certificate_reads.history_page(conn, "crt_x"),
        "ix_transfers_buyer_certificate_id",
    ),
    "a certificate's children page walks its parent index": (
        lambda conn: certificate_reads.children_page(conn, "crt_x"),
        "ix_certificates_parent_seq",
    ),
    "the approval queue walks the pending transfers in order": (
        lambda conn: trade_lists.transfers_page(conn, "pending_approval", Page(None, 25)),
        "ix_transfers_status_seq",
    ),
    "a new transfer's balance check finds the certificate's open listings": (
        lambda conn: commitments.commitments_of(conn, "crt_x"),
        "ix_listings_certificate_status",
    ),
    "a seller's deals page walks its negotiated transfers newest first": (
        lambda conn: deals.my_deals(conn, Actor("u", PARTICIPANT, "pty_x"), "seller", None, 50),
        "ix_transfers_seller_direct_seq",
    ),
    "a participant's transfers, any status, walk its buyer index in order (0023 keeps it)": (
        lambda conn: trade_lists.transfers_page(conn, None, Page(None, 25), party="pty_x"),
        "ix_transfers_buyer_seq",
    ),
    "holdings page walks the holder's certificates in order": (
        lambda conn: desk_queries.holdings_page(conn, "pty_x", get_ruleset()),
        "ix_certificates_holder_seq",
    ),
    # The balance check's undecided transfers use it too on SQLite (PostgreSQL plans that
    # part onto ix_transfers_certificate_seq, the same leading column).
    "a certificate's history finds the transfers decided from it in order": (
        lambda conn: certificate_reads.history_page(conn, "crt_x"),
        "ix_transfers_certificate_decided",
    ),
    "a new transfer's balance check finds its open listings' offers": (
        lambda conn: commitments.commitments_of(conn, "crt_x"),
        "ix_offers_listing_id",
    ),
    "a certificate's history finds the transfers proposed from it in order": (
        lambda conn: certificate_reads.history_page(conn, "crt_x"),
        "ix_transfers_certificate_seq",
    ),
    # The unique constraint (stream, version) leads with the stream (0026 dropped the
    # single-column index); SQLite names a constraint's index after its table.
    "a certificate's history reads its own events by stream": (
        lambda conn: stream_events(conn, "certificate-crt_x"),
        STREAM_VERSION,
    ),
    "an append finds a stream's last version at the end of its unique index": (
        lambda conn: EventStore(conn).stream_version("certificate-crt_x"),
        STREAM_VERSION,
    ),
    "the Authority's transfer list, any status, walks every transfer in order": (
        lambda conn: trade_lists.transfers_page(conn, None, Page(None, 25)),
        "ix_transfers_created_seq",
    ),
    "a participant's transfers in one status walk its buyer index in order": (
        lambda conn: trade_lists.transfers_page(conn, "approved", Page(None, 25), party="pty_x"),
        "ix_transfers_buyer_status_seq",
    ),
    "the monthly report sums the transfers decided since its last count": (
        report_totals.monthly_sums,
        "ix_transfers_status_decided",
    ),
    "the covenant monitor reads the approved TECH sales only": (
        tech_reads.approved_tech_sales,
        "ix_transfers_program_status",
    ),
    "a lineage's certificates (a UTH review's effects, a notice's reach) by their root": (
        lambda conn: DbStore(conn).rows("certificates", root_id="crt_x"),
        "ix_certificates_root_id",
    ),
    "the market's open listings walk the status index in order": (
        lambda conn: trade_lists.listings_page(conn, None, Page(None, 25), get_ruleset()),
        "ix_listings_status_seq",
    ),
    "a seller's open listings walk its own index in order": (
        lambda conn: trade_lists.listings_page(
            conn, None, Page(None, 25), get_ruleset(), seller_party_id="pty_x"
        ),
        "ix_listings_seller_status_seq",
    ),
    "the seller's desk lists the offers made to it newest first": (
        lambda conn: desk_queries.offers_page(conn, "pty_x", "seller"),
        "ix_offers_seller_seq",
    ),
    "the buyer's desk lists its own offers newest first": (
        lambda conn: desk_queries.offers_page(conn, "pty_x", "buyer"),
        "ix_offers_buyer_seq",
    ),
}
# The tables a write request (a listing, an offer, a transfer and its approval) updates.
WRITE_PATH = ("events", "certificates", "listings", "offers", "transfers")


@pytest.mark.parametrize("name", sorted(READS))
def test_each_flat_read_uses_its_index(engine: Engine, name: str) -> None:
    read, index = READS[name]
    expected = index if isinstance(index, str) else index[engine.dialect.name]
    assert expected in _plans(engine, read)


def test_every_index_a_write_updates_serves_a_read(engine: Engine) -> None:
    """Each secondary index of the write path's tables is named by a read above (whose
    test proves the read uses it). Unique constraints' indexes are the constraints'."""
    named = {index for _read, index in READS.values() if isinstance(index, str)}
    found = inspect(engine)
    indexes = {
        ix["name"]
        for table in WRITE_PATH
        for ix in found.get_indexes(table)
        if ix["name"] and not ix.get("unique")
    }
    assert indexes, "no index found: the inspection is broken"
    assert indexes - named == set()
