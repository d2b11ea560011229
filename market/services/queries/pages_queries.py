"""Small reads the pages need that no use case exposes: Core selects only, no rules.

`preview_checks` runs trading's own checks (the very functions approval runs) without
appending anything, so the Authority sees every rule in words before deciding.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.repositories.models import certificate_of, transfer_of
from market.adapters.tables import (
    Certificate,
    CreditApplication,
    Offer,
    Party,
    TechApplication,
    Transfer,
)
from market.domain.programs import TaxType
from market.domain.rules.transfer_checks import at_exchange, run
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import carryover_window
from market.services.certificates.certificate_views import load_certificate
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.parties.parties import affiliation_view, load_party, ownership_graph
from market.services.trading.rule_checks import facts_of
from market.services.trading.trading import load_transfer

certs_t = Certificate.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
credit_apps_t = CreditApplication.__table__  # type: ignore[attr-defined]
tech_apps_t = TechApplication.__table__  # type: ignore[attr-defined]


def preview_checks(
    conn: Connection, actor: Actor, transfer_id: str, ruleset: Ruleset, on: date
) -> dict[str, Any]:
    """Every check approval would make on `on`, passed or failed, plus the ownership
    paths between the two parties; writes nothing."""
    actor.require(AUTHORITY)
    transfer = transfer_of(load_transfer(conn, transfer_id))
    cert = load_certificate(conn, transfer.certificate_id)
    parties = (transfer.seller_party_id, transfer.buyer_party_id)
    rows = (load_party(conn, parties[0]), load_party(conn, parties[1]))
    graph = ownership_graph(conn)  # read once: the checks' (TB-20) and the page's paths
    checks = run(at_exchange(transfer, on), facts_of(conn, cert, rows, graph, ruleset), ruleset)
    return {"checks": list(checks.rows), "affiliation": affiliation_view(graph, *parties, ruleset)}


def with_previews(
    conn: Connection, pending: list[dict[str, Any]], ruleset: Ruleset, on: date
) -> list[dict[str, Any]]:
    """Each transfer with its certificate and the approval's rule checks: the page's
    certificates and parties in one query each and the ownership graph built once for the
    page (not once per row), whatever the number pending."""
    if not pending:
        return pending
    cert_ids = sorted({t["certificate_id"] for t in pending})
    certs = {
        r["id"]: dict(r)
        for r in conn.execute(select(certs_t).where(certs_t.c.id.in_(cert_ids))).mappings()
    }
    party_ids = sorted({p for t in pending for p in (t["seller_party_id"], t["buyer_party_id"])})
    found = {
        r["id"]: dict(r)
        for r in conn.execute(select(parties_t).where(parties_t.c.id.in_(party_ids))).mappings()
    }
    graph = ownership_graph(conn)
    for t in pending:
        cert = certs[t["certificate_id"]]
        transfer = transfer_of(t)
        parties = (transfer.seller_party_id, transfer.buyer_party_id)
        facts = facts_of(conn, cert, (found[parties[0]], found[parties[1]]), graph, ruleset)
        checks = run(at_exchange(transfer, on), facts, ruleset)
        t["preview"] = {
            "checks": list(checks.rows),
            "affiliation": affiliation_view(graph, *parties, ruleset),
        }
        t["certificate"] = cert
        t["ready"] = not checks.failures
    return pending


def pending_count(conn: Connection) -> int:
    """Transfers awaiting the Authority (an index count: no row is read)."""
    t = Transfer.__table__  # type: ignore[attr-defined]
    found = conn.execute(
        select(func.count()).select_from(t).where(t.c.status == "pending_approval")
    ).scalar()
    return int(found or 0)


def carryover_last_year(cert: dict[str, Any], ruleset: Ruleset) -> int | None:
    """The window returns.expire_carryforwards uses for the certificate."""
    return carryover_window(certificate_of(cert), TaxType(sorted(cert["tax_types"])[0]), ruleset)


def latest_tech_fiscal_year(conn: Connection) -> int | None:
    found = conn.execute(select(func.max(tech_apps_t.c.fiscal_year))).scalar()
    return int(found) if found is not None else None
