"""Small factories shared by the integration and end-to-end tests."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

from sqlalchemy import Engine, event, select

from market.adapters.tables import PROJECTION_TABLES, metadata
from market.domain.events import upcast
from market.services.identity import identity
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import UnitOfWork
from market.services.trust import ledger
from market.services.trust.ledger import count_events


def brrag_award(face_cents: int, **overrides: Any) -> dict[str, Any]:
    """The BRRAG award facts issuance needs (BR-1, BR-2, BR-6), for a face it supports:
    enough retained jobs at $1,500 a year for one year, operating in NJ since 2000, and
    the determination that the business cannot use the credits before they expire."""
    award: dict[str, Any] = {
        "retained_jobs": -(-face_cents // 150_000),
        "nj_operations_since": "2000-01-01",
        "cannot_use_before_expiry": True,
    }
    return award | overrides


# Enough for any face up to the BRRAG fiscal-year cap of $20,000,000.
BRRAG_AWARD = brrag_award(20 * 100_000_000)


def brrag_award_kwargs(face_cents: int) -> dict[str, Any]:
    """The same, as NewCertificate keyword arguments for the services."""
    award = brrag_award(face_cents)
    return award | {"nj_operations_since": date.fromisoformat(award["nj_operations_since"])}


def headers_for(
    client: Any, engine: Engine, role: str, party_id: str | None = None
) -> dict[str, str]:
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    identity.create_user(engine, email, role, "correct horse battery", party_id)
    r = client.post(
        "/api/v1/auth/token", json={"email": email, "password": "correct horse battery"}
    )
    assert r.status_code == 200, r.json
    return {"Authorization": f"Bearer {r.json['token']}"}


def party_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Garden State Biotech",
        "tax_id": f"22-{uuid.uuid4().hex[:7]}",
        "entity_type": "c_corporation",
        "tax_types": ["CBT"],
    }
    body.update(overrides)
    return body


def create_party(client: Any, headers: dict[str, str], **overrides: Any) -> dict[str, Any]:
    r = client.post("/api/v1/parties", json=party_body(**overrides), headers=headers)
    assert r.status_code == 201, r.json
    return r.json  # type: ignore[no-any-return]


@contextmanager
def sent_statements(engine: Engine) -> Iterator[list[str]]:
    """The SQL of every statement the engine sends inside the block, in order (BEGIN,
    SAVEPOINT and RELEASE included; an executemany once)."""
    seen: list[str] = []

    def keep(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", keep)


def selects_naming(engine: Engine, needle: str, run: Callable[[], Any]) -> tuple[Any, int]:
    """What `run()` answers, and how many SELECT statements containing `needle` (a table's
    name, say) the engine sent meanwhile."""
    with sent_statements(engine) as sent:
        answer = run()
    selects = [s for s in sent if s.lstrip().upper().startswith("SELECT") and needle in s]
    return answer, len(selects)


def events(engine: Engine) -> int:
    return count_events(engine)


def tech_certificate(engine: Any, holder_id: str, face: int) -> str:
    """TECH certificates come from the fiscal-year allocation; here we append one directly."""
    cert_id = new_id("crt")
    with UnitOfWork(engine) as uow:
        uow.append(
            f"certificate-{cert_id}",
            upcast(  # written as version 1 was: the upcaster gives the current event
                "CERT_ISSUED",
                {
                    "certificate_id": cert_id,
                    "number": f"TECH-2014-{cert_id[-6:]}",
                    "program": "TECH",
                    "holder_party_id": holder_id,
                    "original_holder_party_id": holder_id,
                    "parent_id": None,
                    "root_id": cert_id,
                    "origin": "allocation",
                    "is_original": True,
                    "face_cents": face,
                    "allowed_cents": face,
                    "queued_cents": 0,
                    "status": "issued",
                    "fiscal_year": 2014,
                    "tax_types": ["CBT", "GIT"],
                    "tax_periods": [],
                    "credit_year": 2012,
                    "carryover_last_year": 2019,
                    "waiver_statement": "",
                    "attributes": {"received_on": "2014-03-01"},
                    "ruleset": "A1178",
                },
            ),
            "test",
        )
        uow.commit()
    return cert_id


def confirm_as_buyer(
    client: Any, transfer: dict[str, Any], buyer_h: dict[str, str] | None = None
) -> dict[str, Any]:
    """The buyer confirms a negotiated transfer (`awaiting_buyer` -> `pending_approval`),
    through the API with its own token (a new one unless `buyer_h` is given)."""
    assert transfer["status"] == "awaiting_buyer", transfer
    if buyer_h is None:
        engine = client.application.extensions["market.engine"]
        buyer_h = headers_for(client, engine, "participant", transfer["buyer_party_id"])
    r = client.post(f"/api/v1/transfers/{transfer['id']}/confirm", json={}, headers=buyer_h)
    assert r.status_code == 200, r.json
    assert r.json["status"] == "pending_approval", r.json
    return r.json  # type: ignore[no-any-return]


def propose_and_confirm(
    client: Any,
    seller_h: dict[str, str],
    certificate_id: str,
    buyer_id: str,
    amount: int,
    consideration: int,
) -> dict[str, Any]:
    """A negotiated transfer through the API, confirmed by the buyer (PRODUCT.md 8.2): it
    waits for the Authority's approval."""
    r = client.post(
        "/api/v1/transfers",
        json={
            "certificate_id": certificate_id,
            "buyer_party_id": buyer_id,
            "amount_cents": amount,
            "consideration_cents": consideration,
        },
        headers=seller_h,
    )
    assert r.status_code == 201, r.json
    return confirm_as_buyer(client, r.json)


def sell_and_approve(
    client: Any,
    seller_h: dict[str, str],
    authority_h: dict[str, str],
    certificate_id: str,
    buyer_id: str,
    amount: int,
    consideration: int,
) -> str:
    """A negotiated transfer, confirmed by the buyer and approved by the Authority;
    returns the buyer's new certificate id."""
    t = propose_and_confirm(client, seller_h, certificate_id, buyer_id, amount, consideration)
    approved = client.post(f"/api/v1/transfers/{t['id']}/approve", json={}, headers=authority_h)
    assert approved.status_code == 200, approved.json
    return approved.json["buyer_certificate_id"]  # type: ignore[no-any-return]


def projection_rows(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Every projection table's rows, in primary-key order."""
    with engine.connect() as conn:
        return {
            name: [
                dict(r)
                for r in conn.execute(
                    select(metadata.tables[name]).order_by(
                        *metadata.tables[name].primary_key.columns
                    )
                ).mappings()
            ]
            for name in PROJECTION_TABLES
        }


def replay_equals_live_and_verifies(engine: Engine) -> None:
    """Rebuilding every projection from the ledger gives the live tables back, and the
    ledger verifies."""
    live = projection_rows(engine)
    ledger.replay(engine)
    assert projection_rows(engine) == live
    assert ledger.verify(engine).ok


class UthAward:
    """The Authority, a seller holding a $24,000,000 UTH award (fiscal year 2014, periods
    from 2013, RULES M-1) and a buyer, driven over the API."""

    def __init__(self, client: Any, buyer_tax_types: tuple[str, ...] = ("CBT",)) -> None:
        self.client = client
        self.engine: Engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.seller = create_party(client, self.auth, name="Hub Owner Co", tax_types=["CBT"])
        self.buyer = create_party(
            client, self.auth, name="Buyer Co", tax_types=list(buyer_tax_types)
        )
        self.seller_h = headers_for(client, self.engine, "participant", self.seller["id"])
        self.buyer_h = headers_for(client, self.engine, "participant", self.buyer["id"])
        # A holder whose tax year begins July 1: period 2013 commences in FY 2014 (UTH-13).
        self.award = self.issue(
            "UTH", 24 * 100_000_000, tax_periods=[2013], tax_period_start_month=7
        )
        self.id: str = self.award["id"]

    def issue(self, program: str, face: int, **body: Any) -> dict[str, Any]:
        """Another certificate for the seller, fiscal year 2014 unless `body` says."""
        r = self.client.post(
            "/api/v1/certificates",
            json={
                "program": program,
                "holder_party_id": self.seller["id"],
                "face_cents": face,
                "fiscal_year": 2014,
            }
            | (brrag_award(face) if program == "BRRAG" else {})
            | body,
            headers=self.auth,
        )
        assert r.status_code == 201, r.json
        return r.json  # type: ignore[no-any-return]

    def cert(self, cert_id: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/v1/certificates/{cert_id or self.id}", headers=self.auth)
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]

    def sell(self, amount: int) -> str:
        """A negotiated transfer of the earliest unsold cents at 75 cents, approved; the
        buyer's certificate id."""
        return sell_and_approve(
            self.client,
            self.seller_h,
            self.auth,
            self.id,
            self.buyer["id"],
            amount,
            amount * 3 // 4,
        )


_CSRF = re.compile(r'(name="csrf_token" value=")[^"]+(")')


def answer_text(response: Any, record_id: str) -> str:
    """A response's text with `record_id` written `<id>` and the page's CSRF token masked:
    the token is signed with the second it was made, so two answers a second apart differ
    there and nowhere else (a comparison of two answers must not depend on the clock)."""
    text: str = response.get_data(as_text=True).replace(record_id, "<id>")
    return _CSRF.sub(r"\1<csrf>\2", text)
