"""A credit nobody can use any more is not sold (PRODUCT.md 8.4, BR-11), over the API on
SQLite and PostgreSQL: a BRRAG credit of tax period 2013 is usable in 2013 and 2014; a
buyer's period labelled 2014 may run to the end of 2015, so from January 1, 2016 it is
refused at listing, offer, confirmation and approval with `carryforward_expired` (held by
tests/unit/services/trading/test_sale_window.py)."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market

M = 100_000_000


def test_listings_and_certificates_say_how_long_the_credit_is_usable(
    client: Any, market_today: Any
) -> None:
    m = Market(client)
    brrag = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014, credit_year=2013)
    uth = m.issue(program="UTH", face_cents=24 * M, fiscal_year=2014, tax_periods=[2013])
    cert = m.cert(brrag["id"])
    assert (cert["carryover_last_year"], cert["usable_through"]) == (2014, 2014)
    assert cert["usable_until"] == "2015-12-31"
    assert m.cert(uth["id"])["usable_through"] == 2042  # the tenth installment, 2022 + 20
    market_today("2015-12-31")
    listing = m.list_(brrag["id"], M, 90 * M // 100)
    assert (listing["usable_through"], listing["usable_until"]) == (2014, "2015-12-31")
    items = m.get("/api/v1/parties/" + m.seller["id"] + "/certificates").json["items"]
    assert {c["id"]: c["usable_through"] for c in items} == {brrag["id"]: 2014, uth["id"]: 2042}


def test_an_exchange_dated_while_the_credit_was_usable_is_approved_after(
    client: Any, market_today: Any
) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=4 * M, fiscal_year=2014, credit_year=2013)
    market_today("2015-12-31")  # the last day a buyer's period 2014 may still run
    listing = m.list_(cert["id"], M, 90 * M // 100)
    offered = m.offer(listing["id"], M, 90 * M // 100).json
    pending = m.post(f"/api/v1/offers/{offered['id']}/accept", m.seller_h).json["transfer"]
    market_today("2016-01-01")
    # The exchange the Authority records happened while a buyer could still use it.
    r = m.post(
        f"/api/v1/transfers/{pending['id']}/approve", m.auth, {"exchange_date": "2015-12-30"}
    )
    assert r.status_code == 200, r.json
    window = next(c for c in r.json["checks"] if c["rule"] == "carryforward_window")
    assert window["passed"] and "until 2015-12-31" in window["message"]
