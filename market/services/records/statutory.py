"""The statutory reports (PRODUCT.md 9.2) as the API and the pages answer them: the
ledger's events read in seq order in one read transaction, folded
(`domain/rules/statutory_ledger.py`) and reported (`statutory_reports.py`). The same
pass computes the Merkle root of those events (RFC 9162, the tree every checkpoint
signs), so each report names the checkpoint it was computed at, `{tree_size,
root_hash}`, and says whether a signed checkpoint of that size is stored: anyone holding
the events (a proof bundle, an export) recomputes the figures and checks the root."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store
from market.adapters.eventstore import events_t
from market.domain import merkle
from market.domain.events import upcast
from market.domain.events.certificates import CertificateIssued, QueueAllowed, QueueDeferred
from market.domain.events.parties import PartyRegistered
from market.domain.events.records import PartyFactsRecorded
from market.domain.events.returns import CreditApplied
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived
from market.domain.events.trading import TransferApproved, TransferProposed
from market.domain.rules import statutory_reports
from market.domain.rules.statutory_ledger import StatutoryLedger
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor

# The event types the reports read; every other event counts towards the root only.
READ_TYPES = frozenset(
    {
        PartyRegistered.TYPE,
        PartyFactsRecorded.TYPE,
        CertificateIssued.TYPE,
        QueueDeferred.TYPE,
        QueueAllowed.TYPE,
        TransferProposed.TYPE,
        TransferApproved.TYPE,
        TechApplicationReceived.TYPE,
        FyAllocationRun.TYPE,
        CreditApplied.TYPE,
    }
)
BATCH = 2_000
REPORTS = ("tech-program", "digital-media", "distribution")


def _events(conn: Connection) -> Iterator[tuple[int, str, str, Any]]:
    after = 0
    while True:
        rows = conn.execute(
            select(events_t.c.seq, events_t.c.hash, events_t.c.type, events_t.c.payload)
            .where(events_t.c.seq > after)
            .order_by(events_t.c.seq)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        for r in rows:
            yield int(r.seq), str(r.hash), str(r.type), r.payload
        after = int(rows[-1].seq)


class FoldedCheckpoint(TypedDict):
    """The size and root of the events a report folded, and whether a checkpoint of this
    log signed exactly that tree."""

    tree_size: int
    root_hash: str
    signed: bool


def fold_ledger(conn: Connection) -> tuple[StatutoryLedger, FoldedCheckpoint]:
    """The reports' state and the checkpoint (size and root) of the events folded."""
    state = StatutoryLedger()
    frontier = merkle.Frontier()
    for seq, hash_hex, type_, payload in _events(conn):
        frontier.append(merkle.leaf_hash(bytes.fromhex(hash_hex)))
        if type_ in READ_TYPES:
            state.apply(seq, upcast(type_, payload))
    size = frontier.size
    root = frontier.root().hex()
    signed = any(
        c["tree_size"] == size and c["root_hash"] == root
        for c in checkpoint_store.newest_first(conn, 20)
    )
    return state, {"tree_size": size, "root_hash": root, "signed": signed}


def compute(
    report: str, state: StatutoryLedger, fiscal_year: int, ruleset: Ruleset
) -> dict[str, Any]:
    makers: dict[str, Callable[[], dict[str, Any]]] = {
        "tech-program": lambda: statutory_reports.tech_program(state, fiscal_year, ruleset),
        "digital-media": lambda: statutory_reports.digital_media(state, fiscal_year),
        "distribution": lambda: statutory_reports.distribution(state, fiscal_year),
    }
    return makers[report]()


def statutory_report(
    conn: Connection, actor: Actor, report: str, fiscal_year: int, ruleset: Ruleset
) -> dict[str, Any]:
    """One report for one fiscal year (authority and auditor only)."""
    actor.require(AUTHORITY, AUDITOR)
    state, checkpoint = fold_ledger(conn)
    body = compute(report, state, fiscal_year, ruleset)
    note = (
        f"No {report.replace('-', ' ')} activity is recorded for fiscal year {fiscal_year}."
        if body["empty"]
        else None
    )
    return {
        "report": report,
        "checkpoint": checkpoint,
        "note": note,
        "ruleset": ruleset.name,
    } | body
