"""Reads that stay flat: desks and lists reach every row page by page and add up every
row, whatever their number (issue 12, item 6)."""

from __future__ import annotations

import re
from typing import Any

from market.domain.commands.trading import CreateTransfer
from market.domain.rulesets import get_ruleset
from market.services.kernel import lookups
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import desk_queries, report_totals
from market.services.trading import trading
from tests.e2e.test_pages_support import Market, browser, make_market
from tests.helpers import create_party

EDA = Actor(user_id="test-eda", role=AUTHORITY)
RULES = get_ruleset("A1178")


def sell_many(
    m: Market, n: int, buyers: list[str], approve: bool = True, cert_id: str | None = None
) -> list[dict[str, Any]]:
    """`n` sales of $10 for $9 from the seller's certificate, in one unit of work."""
    seller = Actor(user_id="test-seller", role=PARTICIPANT, party_id=m.seller["id"])
    engine = m.app.extensions["market.engine"]
    done = []
    with UnitOfWork(engine) as uow:
        for k in range(n):
            t = trading.create_transfer(
                uow,
                seller,
                CreateTransfer(cert_id or m.cert["id"], buyers[k % len(buyers)], 1000, 900, None),
                RULES,
            )
            # A negotiated sale waits for its buyer's consent (PRODUCT.md 8.2); a
            # pending sale here is one the Authority has yet to decide.
            buyer = Actor(user_id="test-buyer", role=PARTICIPANT, party_id=t["buyer_party_id"])
            t = trading.confirm_transfer(uow, buyer, t["id"], RULES)
            if approve:
                t = trading.approve_transfer(uow, EDA, t["id"], RULES)
            done.append(t)
        uow.commit()
    return done


def test_the_paid_total_counts_every_one_of_501_sales(app: Any) -> None:
    m = make_market(app)
    sell_many(m, 501, [m.buyer["id"]])
    sell_many(m, 3, [m.buyer["id"]], approve=False)  # pending: not paid
    with ReadOnly(app.extensions["market.engine"]) as conn:
        assert desk_queries.paid_summary(conn, m.seller["id"]) == (501 * 900, 501)
    html = browser(app, "participant", m.seller["id"]).get("/seller").get_data(as_text=True)
    assert "$4,509.00" in html and "received for 501 approved transfers" in html


def _pages(client: Any, path: str, cursor: str) -> list[str]:
    """Every page's HTML, following the 'more' link until there is none."""
    pages, url = [], path
    while url:
        html = client.get(url).get_data(as_text=True)
        pages.append(html)
        found = re.search(rf'href="([^"]*\?{cursor}=\d+)"', html)
        url = found.group(1).replace("&amp;", "&") if found else ""
    return pages


def _numbered_pages(client: Any, path: str) -> list[str]:
    """Every numbered page's HTML, following the pager's rel="next" link to the last."""
    pages, url = [], path
    while url:
        html = client.get(url).get_data(as_text=True)
        pages.append(html)
        found = re.search(r'href="([^"]*\?page=\d+[^"]*)" rel="next"', html)
        url = found.group(1).replace("&amp;", "&") if found else ""
        assert len(pages) < 50, "the pager does not end"
    return pages


def test_all_501_holdings_are_reachable_page_by_page(app: Any) -> None:
    m = make_market(app)
    bought = sell_many(m, 501, [m.buyer["id"]])
    with ReadOnly(app.extensions["market.engine"]) as conn:
        numbers = lookups.numbers_of(conn, [t["buyer_certificate_id"] for t in bought])
    pages = _pages(browser(app, "participant", m.buyer["id"]), "/buyer", "held_after")
    assert len(pages) == 11  # 50 a page
    shown = [n for html in pages for n in re.findall(r">(BRRAG-2014-\d+-T\d+)</a>", html)]
    assert sorted(shown) == sorted(numbers.values())


def test_the_seller_reaches_every_sale_page_by_page(app: Any) -> None:
    m = make_market(app)
    buyers = [m.buyer["id"], create_party(m.api, m.eda, name="Trenton Mutual")["id"]]
    sell_many(m, 120, buyers)
    pages = _pages(browser(app, "participant", m.seller["id"]), "/seller", "paid_after")
    assert len(pages) == 3
    rows = sum(html.count('<td data-label="Exchanged" class="nowrap">') for html in pages)
    assert rows == 120


def test_the_authority_queue_pages_every_pending_transfer(app: Any) -> None:
    m = make_market(app)
    pending = sell_many(m, 60, [m.buyer["id"]], approve=False)
    pages = _numbered_pages(browser(app, "authority"), "/authority")
    assert len(pages) == 3  # 20 a page
    assert "Page 1 of 3" in pages[0] and "Page 3 of 3" in pages[2]
    card = r'<section class="card transfer" id="transfer-(trf_\w+)"'
    shown = [i for html in pages for i in re.findall(card, html)]
    assert len(shown) == len(set(shown)) == 60  # every one exactly once
    assert sorted(shown) == sorted(t["id"] for t in pending)
    assert "60 transfers waiting" in pages[0]


def test_transfers_and_listings_pages_cover_every_row_once(app: Any) -> None:
    m = make_market(app)
    sold = sell_many(m, 7, [m.buyer["id"]], approve=False)
    listings = [m.listing(amount=100_000, ask=90_000) for _ in range(5)]
    seen: list[str] = []
    for path, want in (("/api/v1/transfers", sold), ("/api/v1/listings", listings)):
        for headers in (m.eda, m.seller_h):
            seen, after = [], None
            while True:
                query = f"?limit=3&after={after}" if after else "?limit=3"
                body = m.api.get(path + query, headers=headers).json
                seen += [x["id"] for x in body["items"]]
                after = body["next"]
                if after is None:
                    break
            assert seen == [x["id"] for x in want], (path, headers)
    buyer_view = m.api.get("/api/v1/transfers?limit=100", headers=m.buyer_h).json
    assert [t["id"] for t in buyer_view["items"]] == [t["id"] for t in sold]
    assert all("price_per_dollar" in t for t in buyer_view["items"])


def test_the_report_totals_follow_every_approval_and_another_ledger(app: Any) -> None:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    sell_many(m, 3, [m.buyer["id"]])
    page = browser(app, "authority")
    assert "$27.00</span> paid for $30.00" in page.get("/reports/transfers").get_data(as_text=True)
    sell_many(m, 2, [m.buyer["id"]])
    sell_many(m, 4, [m.buyer["id"]], approve=False)
    assert "$45.00</span> paid for $50.00" in page.get("/reports/transfers").get_data(as_text=True)
    # Sums kept for a ledger whose event at that seq has another hash are dropped.
    report_totals._kept[str(engine.url)] = (2, "not-this-ledger", {("BRRAG", "1999-01"): (9, 9, 9)})
    with ReadOnly(engine) as conn:
        assert report_totals.approved_totals(conn) == (5000, 4500)
        months = report_totals.monthly_sums(conn)
    assert [m["transfers"] for m in months] == [5]
