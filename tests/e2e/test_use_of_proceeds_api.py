"""BR-14 / TB-25 over the API: the seller attests what the proceeds of a BRRAG or TECH
sale fund; the approval records the attestation in words, and the `required` reading
refuses an approval without one. Runs on SQLite and PostgreSQL (conftest)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.tables import EventRow
from market.domain.rules.proceeds import UseOfProceedsMissingError
from market.domain.rulesets import A1178
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.trading.transfer_decisions import approve_transfer
from tests.e2e.test_trading_api import Market
from tests.helpers import events, replay_equals_live_and_verifies

M = 100_000_000  # one million dollars in cents
REQUIRED = replace(A1178, name="A1178-attested", pfa_use_attestation="required")
events_t = EventRow.__table__  # type: ignore[attr-defined]


def check(transfer: dict[str, Any], rule: str) -> dict[str, Any] | None:
    return next((c for c in transfer["checks"] if c["rule"] == rule), None)


def proposed_payload(m: Market, transfer_id: str) -> dict[str, Any]:
    with m.engine.connect() as conn:
        return dict(
            conn.execute(
                select(events_t.c.payload).where(
                    events_t.c.type == "TRANSFER_PROPOSED",
                    events_t.c.stream == f"transfer-{transfer_id}",
                )
            ).scalar_one()
        )


def test_an_attested_brrag_sale_records_the_uses_and_the_approval_says_them(
    client: Any,
) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    r = m.post(
        "/api/v1/transfers",
        m.seller_h,
        {
            "certificate_id": cert["id"],
            "buyer_party_id": m.buyer["id"],
            "amount_cents": M,
            "consideration_cents": 90 * M // 100,
            "use_of_proceeds": ["salaries", "working_capital", "salaries"],
        },
    )
    assert r.status_code == 201, r.json
    assert r.json["use_of_proceeds"] == ["working_capital", "salaries"]  # BR-14's order
    assert proposed_payload(m, r.json["id"])["use_of_proceeds"] == ["working_capital", "salaries"]
    m.confirm(r.json)
    approved = m.post(f"/api/v1/transfers/{r.json['id']}/approve", m.auth)
    assert approved.status_code == 200, approved.json
    said = check(approved.json, "use_of_proceeds")
    assert said == {
        "rule": "use_of_proceeds",
        "passed": True,
        "message": "The seller attests the proceeds fund New Jersey operating expenses: "
        "working capital, salaries (BR-14).",
    }
    replay_equals_live_and_verifies(m.engine)


def test_without_an_attestation_the_default_approves_and_says_none_is_on_file(
    client: Any,
) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    listing = m.list_(cert["id"], M, 90 * M // 100)
    offer = m.offer(listing["id"], M, 90 * M // 100).json
    # An accept with no body at all still works; the attestation is optional.
    accepted = client.post(f"/api/v1/offers/{offer['id']}/accept", headers=m.seller_h)
    assert accepted.status_code == 201, accepted.json
    transfer = accepted.json["transfer"]
    assert transfer["use_of_proceeds"] is None
    assert "use_of_proceeds" not in proposed_payload(m, transfer["id"])
    approved = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth).json
    said = check(approved, "use_of_proceeds")
    assert said is not None and said["passed"] is True
    assert said["message"].startswith("No use-of-proceeds attestation is on file")


def test_an_offer_accepted_with_an_attestation_carries_it(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    offer = m.offer(m.list_(cert["id"], M, 90 * M // 100)["id"], M, 90 * M // 100).json
    accepted = m.post(
        f"/api/v1/offers/{offer['id']}/accept",
        m.seller_h,
        {"use_of_proceeds": ["tenant_fit_out"]},
    )
    assert accepted.status_code == 201, accepted.json
    assert accepted.json["transfer"]["use_of_proceeds"] == ["tenant_fit_out"]


def test_an_unknown_use_is_refused_and_writes_nothing(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    offer = m.offer(m.list_(cert["id"], M, 90 * M // 100)["id"], M, 90 * M // 100).json
    before = events(m.engine)
    body = {
        "certificate_id": cert["id"],
        "buyer_party_id": m.buyer["id"],
        "amount_cents": M,
        "consideration_cents": M,
        "use_of_proceeds": ["yachts"],
    }
    for path, sent in (
        ("/api/v1/transfers", body),
        (f"/api/v1/offers/{offer['id']}/accept", {"use_of_proceeds": ["yachts"]}),
    ):
        r = m.post(path, m.seller_h, sent)
        assert r.status_code == 400, r.json
        assert r.json["error"]["code"] == "validation_failed"
        assert "use_of_proceeds" in str(r.json["error"]["details"])
    assert events(m.engine) == before


def test_the_required_reading_refuses_approval_without_an_attestation(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    bare = m.confirm(m.negotiate(cert["id"], M // 2, M // 2).json)
    before = events(m.engine)
    with pytest.raises(UseOfProceedsMissingError) as refused:
        run(m.engine, lambda uow: approve_transfer(uow, SYSTEM, bare["id"], REQUIRED))
    failed = [c["rule"] for c in refused.value.details["checks"] if not c["passed"]]  # type: ignore[union-attr]
    assert failed == ["use_of_proceeds"]
    assert events(m.engine) == before
    attested = m.post(
        "/api/v1/transfers",
        m.seller_h,
        {
            "certificate_id": cert["id"],
            "buyer_party_id": m.buyer["id"],
            "amount_cents": M // 2,
            "consideration_cents": M // 2,
            "use_of_proceeds": ["fixed_assets"],
        },
    ).json
    m.confirm(attested)
    done = run(m.engine, lambda uow: approve_transfer(uow, SYSTEM, attested["id"], REQUIRED))
    assert done["status"] == "approved"


def test_uth_and_digital_media_sales_have_no_use_of_proceeds_check(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="UTH", face_cents=24 * M, fiscal_year=2014, tax_periods=[2013])
    t = m.confirm(m.negotiate(cert["id"], M, M).json)
    approved = m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth).json
    assert approved["status"] == "approved"
    assert check(approved, "use_of_proceeds") is None
