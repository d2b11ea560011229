"""Small reads the pages need that no use case exposes: Core selects only, no rules.

`preview_checks` runs trading's own checks (the very functions approval runs) without
appending anything, so the Authority sees every rule in words before deciding.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.tables import CreditApplication, Offer, Party, TechApplication
from market.domain.programs import TaxType
from market.domain.rulesets import Ruleset
from market.services.actor import AUTHORITY, Actor
from market.services.certificates import load_certificate
from market.services.parties import affiliation_between, load_party
from market.services.returns import carryover_window
from market.services.trading import load_transfer, rule_checks

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
    t = load_transfer(conn, transfer_id)
    cert = load_certificate(conn, t["certificate_id"])
    seller = load_party(conn, t["seller_party_id"])
    buyer = load_party(conn, t["buyer_party_id"])
    checks, _failures = rule_checks(
        conn,
        cert,
        seller,
        buyer,
        int(t["amount_cents"]),
        int(t["consideration_cents"]),
        ruleset,
        on,
        use_of_proceeds=t.get("use_of_proceeds") or [],
    )
    affiliation = affiliation_between(conn, actor, seller["id"], buyer["id"], ruleset)
    return {"checks": checks, "affiliation": affiliation}


def party_names(conn: Connection) -> dict[str, str]:
    return {r.id: r.name for r in conn.execute(select(parties_t.c.id, parties_t.c.name))}


def offers_for(conn: Connection, party_id: str, side: str) -> list[dict[str, Any]]:
    """Offers where the party is the seller (`side="seller"`) or the buyer, newest first."""
    column = offers_t.c.seller_party_id if side == "seller" else offers_t.c.buyer_party_id
    stmt = select(offers_t).where(column == party_id).order_by(offers_t.c.created_seq.desc())
    return [dict(r) for r in conn.execute(stmt).mappings()]


def credit_applications_of(conn: Connection, party_id: str) -> list[dict[str, Any]]:
    stmt = (
        select(credit_apps_t)
        .where(credit_apps_t.c.party_id == party_id)
        .order_by(credit_apps_t.c.tax_year.desc(), credit_apps_t.c.id)
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]


def carryover_last_year(cert: dict[str, Any], ruleset: Ruleset) -> int | None:
    """The window returns.expire_carryforwards uses for the certificate."""
    return carryover_window(cert, TaxType(sorted(cert["tax_types"])[0]), ruleset)


def latest_tech_fiscal_year(conn: Connection) -> int | None:
    found = conn.execute(select(func.max(tech_apps_t.c.fiscal_year))).scalar()
    return int(found) if found is not None else None
