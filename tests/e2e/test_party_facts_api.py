"""A party's NAICS code and employees by year (PRODUCT.md 9.2) on the API: given at
registration, changed by PATCH, shown on every party answer, refused when no sector."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_pages_foundation import _csrf, sign_in
from tests.helpers import create_party, events, headers_for, party_body

pytestmark = pytest.mark.storage


def test_a_party_is_registered_with_its_facts_and_patched(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    party = create_party(client, eda, naics_code="541715", employees={"2024": 40, "2025": 44})
    assert party["naics_code"] == "541715" and party["employees"] == {"2024": 40, "2025": 44}
    r = client.patch(f"/api/v1/parties/{party['id']}", json={"naics_code": "3254"}, headers=eda)
    assert r.status_code == 200, r.json
    assert r.json["naics_code"] == "3254" and r.json["employees"] == {"2024": 40, "2025": 44}
    shown = client.get(f"/api/v1/parties/{party['id']}", headers=eda).json
    assert shown["naics_code"] == "3254" and shown["employees"]["2025"] == 44
    listed = client.get("/api/v1/parties", headers=eda).json["items"]
    assert listed[0]["naics_code"] == "3254"
    plain = create_party(client, eda)
    assert plain["naics_code"] is None and plain["employees"] == {}


def test_the_tech_eligibility_facts_are_patched_and_a_bad_one_writes_nothing(
    app: Any, client: Any
) -> None:
    """TB-1, AMB-50: a party registered without them (as one that joined) gets them later;
    what is left out keeps its value."""
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    party = create_party(client, eda, naics_code="541715")
    assert party["us_employees"] is None and party["formed_on"] is None
    url = f"/api/v1/parties/{party['id']}"
    tech = {"us_employees": 40, "nj_full_time_employees": 12, "formed_on": "2006-03-01"}
    r = client.patch(url, json=tech, headers=eda)
    assert r.status_code == 200, r.json
    assert {k: r.json[k] for k in tech} == tech and r.json["naics_code"] == "541715"
    r = client.patch(url, json={"nj_full_time_employees": 15}, headers=eda)
    assert (r.json["us_employees"], r.json["nj_full_time_employees"]) == (40, 15)
    before = events(engine)
    bad = client.patch(url, json={"us_employees": -1, "formed_on": "2006-02-30"}, headers=eda)
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    assert {"us_employees", "formed_on"} <= set(bad.json["error"]["details"]["fields"]["json"])
    assert events(engine) == before


@pytest.mark.parametrize(
    "facts",
    [
        {"naics_code": "99"},  # no such sector
        {"naics_code": "5"},  # one digit
        {"naics_code": "5417150"},  # seven digits
        {"naics_code": "54a"},
        {"employees": {"2025": -1}},
        {"employees": {"25": 10}},
    ],
)
def test_facts_that_are_no_sector_or_count_are_refused_and_nothing_written(
    app: Any, client: Any, facts: dict[str, Any]
) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    before = events(engine)
    r = client.post("/api/v1/parties", json=party_body(**facts), headers=eda)
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "validation_failed"
    assert set(facts) <= set(r.json["error"]["details"]["fields"]["json"])
    assert events(engine) == before


def test_only_the_authority_records_facts(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    party = create_party(client, eda)
    own = headers_for(client, engine, "participant", party["id"])
    r = client.patch(f"/api/v1/parties/{party['id']}", json={"naics_code": "5417"}, headers=own)
    assert r.status_code == 403


def test_the_parties_page_records_and_shows_the_facts(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    party = create_party(client, headers_for(client, engine, "authority"), name="Facts Co")
    sign_in(client, app, "authority")
    token = _csrf(client.get("/authority/parties").data)
    bad = client.post(
        "/authority/parties/facts",
        data={"party": party["tax_id"], "naics_code": "99", "csrf_token": token},
    )
    assert bad.status_code == 400 and b"NAICS 2022 sector" in bad.data
    before = events(engine)
    ok = client.post(
        "/authority/parties/facts",
        data={
            "party": party["tax_id"],
            "naics_code": "541715",
            "employees": "2024:40; 2025:44",
            "csrf_token": token,
        },
    )
    assert ok.status_code == 302, ok.data
    assert events(engine) == before + 1
    page = client.get("/authority/parties").data.decode()
    assert "541715" in page and "2024: 40; 2025: 44" in page
