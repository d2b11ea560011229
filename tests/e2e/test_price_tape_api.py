"""The public price tape (PRODUCT.md 8.3): exact quartiles in bps, k-anonymous buckets,
and no way to recover a suppressed bucket or a single deal by subtraction."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from market.services.kernel import clock
from tests.helpers import BRRAG_AWARD, confirm_as_buyer, create_party, headers_for

M = 100_000_000
ITEM_KEYS = {"program", "vintage", "quarter", "count", "median_bps", "p25_bps", "p75_bps"}


@pytest.fixture
def business_day() -> Iterator[Any]:
    def set_day(day: str) -> None:
        clock.configure(date.fromisoformat(day))

    yield set_day
    clock.configure(None)


class Tape:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.buyer = create_party(client, self.auth, name="Buyer Co", tax_types=["CBT"])
        self.buyer_h = headers_for(client, self.engine, "participant", self.buyer["id"])
        self.sellers = [
            create_party(client, self.auth, name=f"Seller {i}", tax_types=["CBT"]) for i in range(2)
        ]
        self.seller_h = [
            headers_for(client, self.engine, "participant", s["id"]) for s in self.sellers
        ]

    def issue(self, seller: int, program: str = "BRRAG", fiscal_year: int = 2014) -> str:
        r = self.client.post(
            "/api/v1/certificates",
            json={
                "program": program,
                "holder_party_id": self.sellers[seller]["id"],
                "face_cents": 5 * M,
                "fiscal_year": fiscal_year,
            }
            | (BRRAG_AWARD if program == "BRRAG" else {}),
            headers=self.auth,
        )
        assert r.status_code == 201, r.json
        return r.json["id"]  # type: ignore[no-any-return]

    def sell(self, seller: int, cert_id: str, price_cents: int, on: str) -> None:
        r = self.client.post(
            "/api/v1/transfers",
            json={
                "certificate_id": cert_id,
                "buyer_party_id": self.buyer["id"],
                "amount_cents": M,
                "consideration_cents": price_cents,
            },
            headers=self.seller_h[seller],
        )
        assert r.status_code == 201, r.json
        confirm_as_buyer(self.client, r.json, self.buyer_h)  # the buyer consents (8.2)
        a = self.client.post(
            f"/api/v1/transfers/{r.json['id']}/approve",
            json={"exchange_date": on},
            headers=self.auth,
        )
        assert a.status_code == 200, a.json

    def tape(self, query: str = "") -> dict[str, Any]:
        r = self.client.get(f"/api/v1/public/price-tape{query}")  # no token: public
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]


def test_a_bucket_shows_exact_quartiles_once_three_sales_by_two_sellers_close(
    client: Any, business_day: Any
) -> None:
    business_day("2014-05-20")
    t = Tape(client)
    a, b = t.issue(0), t.issue(1)
    t.sell(0, a, 75 * 10**6, "2014-02-10")
    t.sell(0, a, 80 * 10**6, "2014-03-01")
    t.sell(1, b, 90 * 10**6, "2014-03-31")
    tape = t.tape()
    assert tape["items"] == [
        {
            "program": "BRRAG",
            "vintage": 2014,
            "quarter": "2014Q1",
            "count": 3,
            "median_bps": 8000,
            "p25_bps": 7750,
            "p75_bps": 8500,
        }
    ]
    assert tape["as_of"] == "2014-05-20" and (tape["min_transfers"], tape["min_sellers"]) == (3, 2)
    text = str(tape)
    assert all(s["id"] not in text for s in t.sellers) and t.buyer["id"] not in text


def test_too_few_sales_or_a_single_seller_suppress_the_bucket(
    client: Any, business_day: Any
) -> None:
    business_day("2014-05-20")
    t = Tape(client)
    dm = t.issue(0, "DM_CBT")
    for price, on in ((75, "2014-01-10"), (80, "2014-01-11"), (85, "2014-01-12")):
        t.sell(0, dm, price * 10**6, on)  # three sales, one seller: its own prices
    a, b = t.issue(0, fiscal_year=2015), t.issue(1, fiscal_year=2015)
    t.sell(0, a, 80 * 10**6, "2014-02-01")
    t.sell(1, b, 85 * 10**6, "2014-02-02")  # two sellers, two sales
    assert t.tape()["items"] == []


def test_nothing_spans_buckets_so_a_suppressed_one_cannot_be_subtracted(
    client: Any, business_day: Any
) -> None:
    business_day("2014-07-15")
    t = Tape(client)
    a, b = t.issue(0), t.issue(1)
    for seller, cert, price, on in (
        (0, a, 76, "2014-01-05"),
        (1, b, 78, "2014-01-06"),
        (0, a, 82, "2014-01-07"),
        (1, b, 88, "2014-04-02"),  # Q2: alone, suppressed
    ):
        t.sell(seller, cert, price * 10**6, on)
    whole = t.tape()
    assert set(whole) == {"items", "next", "as_of", "min_transfers", "min_sellers"}  # no totals
    assert all(set(item) == ITEM_KEYS for item in whole["items"])  # no sums, no means
    assert [(i["quarter"], i["count"]) for i in whole["items"]] == [("2014Q1", 3)]
    # Filters pick whole buckets: every filtered answer is a subset of the unfiltered one,
    # never a differently cut aggregate.
    for query in ("?program=BRRAG", "?fiscal_year=2014", "?program=BRRAG&fiscal_year=2014"):
        assert t.tape(query)["items"] == whole["items"]
    assert t.tape("?program=UTH")["items"] == [] and t.tape("?fiscal_year=2015")["items"] == []


def test_an_open_quarter_is_never_published_so_growth_cannot_be_differenced(
    client: Any, business_day: Any
) -> None:
    business_day("2014-05-20")
    t = Tape(client)
    a, b = t.issue(0), t.issue(1)
    t.sell(0, a, 80 * 10**6, "2014-04-02")
    t.sell(1, b, 84 * 10**6, "2014-04-03")
    t.sell(0, a, 90 * 10**6, "2014-04-04")
    assert t.tape()["items"] == []  # three sales by two sellers, but Q2 is still open
    t.sell(1, b, 99 * 10**6, "2014-05-19")  # the fourth: nobody saw the bucket at three
    business_day("2014-07-01")
    [bucket] = t.tape()["items"]
    assert (bucket["quarter"], bucket["count"], bucket["median_bps"]) == ("2014Q2", 4, 8700)
    t.sell(0, a, 95 * 10**6, "2014-07-01")  # a new quarter leaves the closed one as it was
    assert t.tape()["items"] == [bucket]


def test_bad_filters_are_refused(client: Any) -> None:
    r = client.get("/api/v1/public/price-tape?program=GOLD")
    assert r.status_code == 400 and r.json["error"]["code"] == "validation_failed"
    assert client.get("/api/v1/public/price-tape?fiscal_year=abc").status_code == 400


def test_the_price_tape_page_is_public_and_shows_the_buckets(
    client: Any, business_day: Any
) -> None:
    business_day("2014-05-20")
    t = Tape(client)
    a, b = t.issue(0), t.issue(1)
    for seller, cert, price, on in (
        (0, a, 75, "2014-02-10"),
        (0, a, 80, "2014-03-01"),
        (1, b, 90, "2014-03-31"),
    ):
        t.sell(seller, cert, price * 10**6, on)
    page = client.get("/price-tape")  # not signed in
    assert page.status_code == 200
    row = page.data.decode().split('id="price-tape"', 1)[1].split(">BRRAG</td>", 1)[1]
    row = row.split("</tr>", 1)[0]
    assert "2014Q1" in row and "77.50%" in row and "80.00%" in row and "85.00%" in row
    assert "Seller 0" not in page.data.decode()
    svg = page.data.decode().split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "Business relocation (BRRAG), FY 2014 credits" in svg and "<script" not in svg
    assert client.get("/price-tape?program=UTH").data.count(b">BRRAG</td>") == 0
    bad = client.get("/price-tape?fiscal_year=soon")
    assert bad.status_code == 400 and b"must be a fiscal year" in bad.data
