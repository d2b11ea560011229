"""PT-2 / PT-7 over the API, on SQLite and PostgreSQL: an owner's GIT use of a passed-
through credit is limited by its §40 ratio, from the figures the application carries (or
cap40_cents); without them it is a clear 400 naming them, never silently skipped."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_returns_api import credit, held_certificate, partnership
from tests.helpers import create_party, events, headers_for


def test_an_owners_git_use_needs_the_section_40_figures(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Studio", tax_types=["GIT"])
    entity, owners = partnership(client, auth, {"A": 5000, "B": 3000, "C": 2000})
    cert = held_certificate(engine, entity["id"], seller["id"], 200_000_00)
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json={}, headers=auth)
    c_cert = next(a for a in r.json["allocations"] if a["party_id"] == owners["C"])
    before = events(engine)
    r = credit(client, auth, c_cert["certificate_id"], liability_cents=85_000_00, amount_cents=1)
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "section_40_figures_required"
    assert "PT-2" in r.json["error"]["message"]
    assert r.json["error"]["details"]["figures"] == [
        "entity_income_cents",
        "category_amounts_cents",
        "other_categories_net_cents",
    ]
    assert events(engine) == before
    # RULES 5.4, partner C: P +$200,000; wages $900,000: ratio 2/11 of $85,000.
    r = credit(
        client,
        auth,
        c_cert["certificate_id"],
        liability_cents=85_000_00,
        amount_cents=40_000_00,
        section_40={
            "entity_income_cents": 200_000_00,
            "category_amounts_cents": [200_000_00],
            "other_categories_net_cents": [900_000_00],
        },
    )
    assert r.status_code == 201, r.json
    assert (r.json["applied_cents"], r.json["limited_by"]) == (15_454_54, "section_40_ratio")
    assert r.json["carried_forward_cents"] == 24_545_46


def test_an_individual_buying_under_the_exception_has_ratio_one(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Studio", tax_types=["GIT"])
    ann = create_party(client, auth, name="Ann", entity_type="individual", tax_types=["GIT"])
    r = client.post(
        f"/api/v1/parties/{ann['id']}/director-exception", json={"reason": "r"}, headers=auth
    )
    assert r.status_code == 201
    cert = held_certificate(engine, ann["id"], seller["id"], 100_000_00)
    r = credit(client, auth, cert, liability_cents=30_000_00, amount_cents=100_000_00)
    assert r.status_code == 201, r.json
    assert r.json["limits"]["cap40_cents"] == 30_000_00  # ratio 1 (PT-7, AMB-53)
    assert r.json["applied_cents"] == 15_000_00  # the 50% ceiling binds (DMG-5)


S40_C = {  # RULES 5.4, partner C: P +$200,000; wages $900,000: ratio 2/11
    "entity_income_cents": 200_000_00,
    "category_amounts_cents": [200_000_00],
    "other_categories_net_cents": [900_000_00],
}


def test_every_git_user_needs_the_figures_not_only_pass_through_owners(client: Any) -> None:
    """Issue 26: an individual applied a UTH credit on GIT, and a sole proprietorship a
    DM_GIT one, with no §40 figures, and got the full amount with no Cap40."""
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Studio", tax_types=["GIT"])
    ann = create_party(client, auth, name="Ann", entity_type="individual", tax_types=["GIT"])
    shop = create_party(
        client, auth, name="Shop", entity_type="sole_proprietorship", tax_types=["GIT"]
    )
    uth = held_certificate(
        engine, ann["id"], seller["id"], 100_000_00, program="UTH", carryover_last_year=2033
    )
    dm = held_certificate(engine, shop["id"], seller["id"], 100_000_00)
    before = events(engine)
    for cert, program in ((uth, "UTH"), (dm, "DM_GIT")):
        r = credit(client, auth, cert, liability_cents=85_000_00, amount_cents=40_000_00)
        assert r.status_code == 400, r.json
        assert r.json["error"]["code"] == "section_40_figures_required"
        assert f"Using a {program} credit against GIT" in r.json["error"]["message"]
    assert events(engine) == before
    # With the figures the ratio binds: 2/11 of $85,000 (the 50% ceiling, DM_GIT only, is
    # $42,500).
    for cert in (uth, dm):
        r = credit(
            client,
            auth,
            cert,
            liability_cents=85_000_00,
            amount_cents=40_000_00,
            section_40=S40_C,
        )
        assert r.status_code == 201, r.json
        assert (r.json["applied_cents"], r.json["limited_by"]) == (15_454_54, "section_40_ratio")
        assert r.json["limits"]["cap40_cents"] == 15_454_54
