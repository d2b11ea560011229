"""Words instead of ids and codes (issue 28, item 6): the closing record names the parties,
the program and the certificate; the audit trail tells each event in a sentence; prices
read in cents on the dollar; "By" names the user, or for a participant whom it acted for."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from market.adapters.tables import User
from tests.e2e.test_pages_support import browser, make_market

users_t = User.__table__  # type: ignore[attr-defined]


def _text(page: str) -> str:
    """What a reader sees: the page without its tags (attributes carry ids, rightly)."""
    return re.sub(r"<[^>]+>", " ", page)


def test_the_closing_record_names_the_parties_program_certificate_and_price(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()  # $1,000,000 of credit for $800,000
    page = browser(app, "participant", m.seller["id"]).get("/closing").get_data(as_text=True)
    row = page[page.index(f'<tr id="closing-{transfer["id"]}"') :]
    row = row[: row.index("</tr>")]
    assert "Camden Robotics to Newark Insurance Holdings" in row
    assert f"Business relocation (BRRAG), certificate {m.cert['number']}" in " ".join(
        _text(row).split()
    )
    assert "80¢ per $1" in row
    assert "trf_" not in _text(row)
    assert f'href="/deals/transfers/{transfer["id"]}"' in row


def _user_of(app: Any, party_id: str) -> str:
    with app.extensions["market.engine"].connect() as conn:
        return str(
            conn.execute(select(users_t.c.id).where(users_t.c.party_id == party_id)).scalar()
        )


def test_the_audit_trail_tells_each_event_in_a_sentence(app: Any) -> None:
    m = make_market(app)
    m.listing()
    seller_user = _user_of(app, m.seller["id"])
    page = browser(app, "auditor").get(f"/audit?user={seller_user}").get_data(as_text=True)
    assert "Camden Robotics listed $1,000,000.00 of credit from " + m.cert["number"] in page
    assert "for $900,000.00 (90¢ per $1)." in page
    assert "LISTING_CREATED" not in _text(page.split("<details")[0])  # only in the raw event


def test_prices_read_in_cents_on_the_dollar_beside_the_dollars(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()  # $900,000 asked for $1,000,000
    m.offer(listing["id"], price=85 * 1_000_000)  # $850,000
    buyer = browser(app, "participant", m.buyer["id"])
    market = _text(buyer.get("/market").get_data(as_text=True))
    assert "$900,000.00" in market and "90¢ per $1" in market and "90.00%" not in market
    seller = _text(
        browser(app, "participant", m.seller["id"]).get("/seller").get_data(as_text=True)
    )
    assert "85¢ per $1" in seller and "90¢ per $1" in seller and "85.00%" not in seller


def test_by_names_the_user_for_the_authority_and_whom_it_acted_for_to_a_participant(
    app: Any,
) -> None:
    m = make_market(app)
    m.listing()
    ledger = _text(browser(app, "authority").get("/ledger").get_data(as_text=True))
    assert "user:" not in ledger
    assert re.search(r"participant-[0-9a-f]{8}@example\.com for Camden Robotics", ledger)
    own = browser(app, "participant", m.seller["id"]).get(f"/certificates/{m.cert['id']}")
    history = _text(own.get_data(as_text=True).split("<h2>History</h2>")[1])
    assert "user:" not in history and "@example.com" not in history
    assert "Camden Robotics" in history


def test_the_ledger_and_certificate_pages_tell_time_in_new_york(app: Any) -> None:
    """The standard: times shown in New York time, with the zone, not UTC."""
    m = make_market(app)
    eda = browser(app, "authority")
    for path in ("/ledger", f"/certificates/{m.cert['id']}", "/authority/users"):
        page = _text(eda.get(path).get_data(as_text=True))
        assert "UTC" not in page, path
        assert re.search(r"\d{4}-\d\d-\d\d \d{1,2}:\d\d [ap]m E[SD]T", page), path
