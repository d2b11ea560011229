"""The transfers report pages its table like the market and the queue: 25 rows a page,
searched by party or certificate, filtered by program and status, sorted in SQL."""

from __future__ import annotations

import re
from typing import Any

from market.domain.commands.trading import CreateTransfer
from market.domain.rulesets import get_ruleset
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.uow import UnitOfWork
from market.services.trading import trading
from tests.e2e.test_pages_support import browser, make_market

RULES = get_ruleset("A1178")
EDA = Actor(user_id="test-eda", role=AUTHORITY)


def _sell(m: Any, n: int) -> None:
    """`n` sales of $10, $11, $12... at 90 cents, every third left pending approval."""
    seller = Actor(user_id="test-seller", role=PARTICIPANT, party_id=m.seller["id"])
    buyer = Actor(user_id="test-buyer", role=PARTICIPANT, party_id=m.buyer["id"])
    with UnitOfWork(m.app.extensions["market.engine"]) as uow:
        for k in range(n):
            amount = 1000 + 100 * k
            t = trading.create_transfer(
                uow,
                seller,
                CreateTransfer(m.cert["id"], m.buyer["id"], amount, amount * 9 // 10, None),
                RULES,
            )
            t = trading.confirm_transfer(uow, buyer, t["id"], RULES)
            if k % 3:
                trading.approve_transfer(uow, EDA, t["id"], RULES)
        uow.commit()


def _credits(html: str) -> list[str]:
    return re.findall(r'<td data-label="Credit" class="num">([^<]+)</td>', html)


def test_page_two_shows_the_next_rows_and_sort_changes_the_order(app: Any) -> None:
    m = make_market(app)
    _sell(m, 30)
    auditor = browser(app, "auditor")
    first = auditor.get("/reports/transfers").get_data(as_text=True)
    second = auditor.get("/reports/transfers?page=2").get_data(as_text=True)
    assert "30 transfers." in first and "Page 1 of 2" in first
    assert _credits(first) == [f"${10 + k:,}.00" for k in range(25)]
    assert _credits(second) == [f"${10 + k:,}.00" for k in range(25, 30)]
    assert 'href="/reports/transfers?page=2' in first and 'rel="prev"' in second
    newest = auditor.get("/reports/transfers?sort=newest").get_data(as_text=True)
    assert _credits(newest)[:3] == ["$39.00", "$38.00", "$37.00"]
    # The pager keeps the sort and the filters.
    assert 'href="/reports/transfers?page=2&amp;sort=newest"' in newest
    later = auditor.get("/reports/transfers?sort=newest&page=2").get_data(as_text=True)
    assert _credits(later) == [f"${10 + k:,}.00" for k in range(4, -1, -1)]
    # Largest amount first.
    assert _credits(auditor.get("/reports/transfers?sort=largest").get_data(as_text=True))[0] == (
        "$39.00"
    )


def test_the_report_searches_and_filters(app: Any) -> None:
    m = make_market(app)
    _sell(m, 6)
    eda = browser(app, "authority")
    pending = eda.get("/reports/transfers?status=pending_approval").get_data(as_text=True)
    assert "2 transfers match." in pending
    assert _credits(pending) == ["$10.00", "$13.00"]
    by_buyer = eda.get("/reports/transfers?q=newark+insurance").get_data(as_text=True)
    assert len(_credits(by_buyer)) == 6
    nobody = eda.get("/reports/transfers?q=nobody+at+all").get_data(as_text=True)
    assert _credits(nobody) == [] and "No transfers match." in nobody
    other = eda.get("/reports/transfers?program=UTH").get_data(as_text=True)
    assert _credits(other) == []
    # An unknown status or program is ignored rather than guessed at.
    assert len(_credits(eda.get("/reports/transfers?status=lost").get_data(as_text=True))) == 6
