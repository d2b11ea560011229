"""The buyer calculator (PRODUCT.md 8.3): a TECH benefit's worth to one buyer, year by year,
and the pre-trade check on a certificate, on both databases."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from market.services.kernel import clock
from tests.helpers import brrag_award, create_party, events, headers_for, tech_certificate

URL = "/api/v1/calculator/tech"


@pytest.fixture
def business_day() -> Iterator[Any]:
    def set_day(day: str) -> None:
        clock.configure(date.fromisoformat(day))

    yield set_day
    clock.configure(None)


class Buyer:
    def __init__(self, client: Any, tax_types: tuple[str, ...] = ("CBT",)) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.seller = create_party(client, self.auth, name="Biotech Seller")
        self.buyer = create_party(client, self.auth, name="Insurer", tax_types=list(tax_types))
        self.h = headers_for(client, self.engine, "participant", self.buyer["id"])

    def value(self, **body: Any) -> Any:
        return self.client.post(URL, json=body, headers=self.h)

    def listed(self, cert_id: str) -> str:
        """The seller lists it: on the market, any buyer may price it by its id."""
        seller_h = headers_for(self.client, self.engine, "participant", self.seller["id"])
        body = {"certificate_id": cert_id, "amount_cents": 10_000_000, "ask_cents": 8_500_000}
        r = self.client.post("/api/v1/listings", json=body, headers=seller_h)
        assert r.status_code == 201, r.json
        return cert_id


def test_the_r_and_d_ceiling_spreads_the_benefit_over_two_years(client: Any) -> None:
    b = Buyer(client)
    before = events(b.engine)
    r = b.value(
        amount_cents=100_000_000,
        price_cents=85_000_000,
        liability_cents=120_000_000,
        statutory_minimum_cents=50_000,
        first_tax_year=2013,
        usable_through=2019,
    )
    assert r.status_code == 200, r.json
    v = r.json
    assert [(y["tax_year"], y["applied_cents"], y["limited_by"]) for y in v["years"]] == [
        (2013, 60_000_000, "rnd_liability_ceiling"),  # 50% of the liability
        (2014, 40_000_000, "balance"),
    ]
    assert (v["usable_cents"], v["expires_unused_cents"]) == (100_000_000, 0)
    assert v["price_per_dollar_bps"] == v["price_per_dollar_of_benefit_bps"] == 8500
    assert v["net_benefit_cents"] == 15_000_000 and v["checks"] is None
    assert events(b.engine) == before  # computes only


def test_a_small_liability_from_the_allocation_factor_lets_part_expire(client: Any) -> None:
    b = Buyer(client)
    v = b.value(
        amount_cents=100_000_000,
        price_cents=85_000_000,
        entire_net_income_cents=1_000_000_000,
        allocation_factor="0.62",
        first_tax_year=2013,
        usable_through=2014,
    ).json
    # $10M entire net income x 0.62 x 9% = $558,000 of CBT; half of it per year for R&D.
    assert v["liability_cents"] == 55_800_000 and v["liability_from"] == "allocation_factor"
    assert [y["applied_cents"] for y in v["years"]] == [27_900_000, 27_900_000]
    assert (v["usable_cents"], v["expires_unused_cents"]) == (55_800_000, 44_200_000)
    assert v["price_per_dollar_of_benefit_bps"] == 15233  # 850,000 / 558,000, half up
    nol = b.value(
        amount_cents=100_000_000,
        price_cents=85_000_000,
        entire_net_income_cents=1_000_000_000,
        allocation_factor="0.62",
        rnd_cents=0,
        first_tax_year=2013,
        usable_through=2014,
    ).json
    # NOL-derived amounts carry no 50% ceiling (AMB-45): the whole liability each year.
    assert [y["nol_applied_cents"] for y in nol["years"]] == [55_800_000, 44_200_000]
    assert nol["usable_cents"] == 100_000_000


def test_on_a_certificate_the_buyer_sees_the_pre_trade_check(
    client: Any, business_day: Any
) -> None:
    business_day("2014-09-01")
    b = Buyer(client)
    cert_id = b.listed(tech_certificate(b.engine, b.seller["id"], 50_000_000))
    v = b.value(
        certificate_id=cert_id,
        amount_cents=10_000_000,
        price_cents=8_500_000,
        liability_cents=10**9,
    ).json
    assert v["usable_through"] == 2019 and v["first_tax_year"] == 2014
    checks = {c["rule"]: c for c in v["checks"]}
    assert checks["buyer_tax_types"]["passed"] and checks["affiliation"]["passed"]
    assert (
        checks["usable_through"]["passed"] and "6 tax years" in checks["usable_through"]["message"]
    )
    assert checks["trading_halt"]["passed"]
    owners = client.post(
        f"/api/v1/parties/{b.seller['id']}/owners",
        json={"owner_party_id": b.buyer["id"], "voting_bps": 1000, "value_bps": 1000},
        headers=b.auth,
    )
    assert owners.status_code == 201, owners.json
    business_day("2020-01-02")
    later = b.value(
        certificate_id=cert_id,
        amount_cents=10_000_000,
        price_cents=8_500_000,
        liability_cents=10**9,
    ).json
    failed = {c["rule"] for c in later["checks"] if not c["passed"]}
    assert failed == {"affiliation", "usable_through"}
    assert later["years"] == [] and later["usable_cents"] == 0  # expired: worth nothing
    assert later["price_per_dollar_of_benefit_bps"] is None


def test_a_buyer_without_cbt_or_git_is_told_before_it_offers(client: Any) -> None:
    b = Buyer(client, tax_types=("IPT",))
    cert_id = b.listed(tech_certificate(b.engine, b.seller["id"], 50_000_000))
    v = b.value(
        certificate_id=cert_id,
        amount_cents=10_000_000,
        price_cents=8_500_000,
        liability_cents=10**9,
    ).json
    check = next(c for c in v["checks"] if c["rule"] == "buyer_tax_types")
    assert check["passed"] is False and check["code"] == "tax_type_not_allowed"


def test_bad_requests_are_refused(client: Any) -> None:
    b = Buyer(client)
    no_liability = b.value(amount_cents=100, price_cents=80)
    assert (
        no_liability.status_code == 422 and no_liability.json["error"]["code"] == "invalid_request"
    )
    assert b.value(amount_cents=0, price_cents=80, liability_cents=1).status_code == 400
    backwards = b.value(
        amount_cents=100,
        price_cents=80,
        liability_cents=1,
        first_tax_year=2015,
        usable_through=2014,
    )
    assert backwards.status_code == 200 and backwards.json["expires_unused_cents"] == 100
    too_long = b.value(
        amount_cents=100,
        price_cents=80,
        liability_cents=1,
        first_tax_year=2000,
        usable_through=2100,
    )
    assert too_long.status_code == 422
    issued = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            "holder_party_id": b.seller["id"],
            "face_cents": 100,
            "fiscal_year": 2014,
        }
        | brrag_award(100),
        headers=b.auth,
    )
    assert issued.status_code == 201, issued.json
    brrag = issued.json
    body = {"certificate_id": brrag["id"], "amount_cents": 100, "price_cents": 80}
    not_tech = client.post(URL, json=body | {"liability_cents": 1}, headers=b.auth)
    assert not_tech.status_code == 422 and "not TECH" in not_tech.json["error"]["message"]
    # To the buyer, the seller's unlisted certificate does not exist (issue 27).
    hidden = b.value(**body, liability_cents=1)
    assert hidden.status_code == 404 and hidden.json["error"]["code"] == "not_found"
    stranger = create_party(client, b.auth, name="Someone else")
    cert_id = b.listed(tech_certificate(b.engine, b.seller["id"], 50_000_000))
    theirs = b.value(
        certificate_id=cert_id,
        buyer_party_id=stranger["id"],
        amount_cents=100,
        price_cents=80,
        liability_cents=1,
    )
    assert theirs.status_code == 403
    assert client.post(URL, json={"amount_cents": 1, "price_cents": 1}).status_code == 401
