"""The Authority's desks (issue 28 item 10): the menu grouped by task, "Things to do" with
what waits, since when (New York date) and on whom, and the dates on the approval queue."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event, select

from market.adapters.tables import EventRow
from market.services.kernel.uow import ReadOnly
from market.web import todo_pages
from tests.e2e.test_pages_desks import TECH_FACTS
from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import UthAward, create_party, events

events_t = EventRow.__table__  # type: ignore[attr-defined]


def _ny_date_of(app: Any, stream: str, type_: str) -> str:
    with app.extensions["market.engine"].connect() as conn:
        at = conn.execute(
            select(events_t.c.recorded_at).where(
                events_t.c.stream == stream, events_t.c.type == type_
            )
        ).scalar_one()
    when = datetime.fromisoformat(at)
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    return when.astimezone(ZoneInfo("America/New_York")).date().isoformat()


def _negotiated(m: Any, amount: int = M // 2) -> dict[str, Any]:
    body = {
        "certificate_id": m.cert["id"],
        "buyer_party_id": m.buyer["id"],
        "amount_cents": amount,
        "consideration_cents": amount * 85 // 100,
    }
    return m.post("/api/v1/transfers", m.seller_h, body)


def _section(html: str, key: str) -> str:
    start = html.index(f'id="{key}"')
    return html[start : html.index("</section>", start)]


@pytest.mark.storage
def test_things_to_do_names_what_waits_since_when_and_on_whom(app: Any) -> None:
    m = make_market(app)
    pending = m.pending_transfer()
    waiting = _negotiated(m)
    eda = browser(app, "authority")
    r = eda.get("/authority/todo")
    assert r.status_code == 200
    sales = _section(r.get_data(as_text=True), "transfers")
    # The transfer waiting for the buyer: in words, since its proposal, on the buyer.
    assert (
        "BRRAG: Camden Robotics sells $500,000.00 to Newark Insurance Holdings for "
        "$425,000.00 (85¢ per $1)" in sales
    )
    assert "Newark Insurance Holdings (the buyer&#39;s confirmation)" in sales
    assert f'href="/deals/transfers/{waiting["id"]}"' in sales
    # The accepted offer's transfer waits on the Authority, linked to its queue entry.
    assert "The Authority (approval)" in sales or "the Authority (approval)" in sales
    assert f'href="/authority#transfer-{pending["id"]}"' in sales
    for t, kind in ((waiting, "TRANSFER_PROPOSED"), (pending, "TRANSFER_PROPOSED")):
        assert _ny_date_of(app, f"transfer-{t['id']}", kind) in sales
    assert "(2)" in sales
    # Ids are never shown as words: only inside the links.
    text = re.sub(r"<[^>]+>", " ", sales)
    assert waiting["id"] not in text and m.buyer["id"] not in text


def test_things_to_do_reads_one_query_per_kind_however_many_rows(app: Any) -> None:
    m = make_market(app)
    for _ in range(3):
        _negotiated(m, M // 10)
    engine = app.extensions["market.engine"]

    def statements() -> list[str]:
        seen: list[str] = []
        with ReadOnly(engine) as conn:
            event.listen(conn, "before_cursor_execute", lambda *a: seen.append(a[2]))
            with app.test_request_context():
                todo_pages.sections(conn, datetime.now(UTC).date())
        return seen

    few = statements()
    for _ in range(4):
        _negotiated(m, M // 10)
    assert len(statements()) == len(few)
    assert len([s for s in few if "FROM transfers" in s]) <= 2  # waiting; closing


def test_the_authority_lands_on_things_to_do(app: Any) -> None:
    eda = browser(app, "authority")
    r = eda.get("/")
    assert r.status_code == 302 and r.headers["Location"].endswith("/authority/todo")
    participant = browser(app, "participant", make_market(app).seller["id"])
    assert participant.get("/authority/todo").status_code == 403


def test_the_eda_menu_is_grouped_by_task_and_fits_a_phone(app: Any) -> None:
    eda = browser(app, "authority")
    html = eda.get("/authority/todo").get_data(as_text=True)
    nav = html[html.index('<nav aria-label="Main">') : html.index("</nav>")]
    summaries = re.findall(r"<summary[^>]*>([^<]+)</summary>", nav)
    assert summaries == ["Certificates", "Sales", "Parties", "TECH allocations", "Reports"]
    top = re.findall(r'^\s*<li><a href="([^"]+)"', nav, re.M)
    assert top == ["/authority/todo", "/account"]  # everything else is in a group
    assert 'aria-current="page">Things to do' in nav
    sales = nav[nav.index(">Sales<") :]
    sales = sales[: sales.index("</details>")]
    assert ">Approvals<" in sales and ">Closing<" in sales
    # A participant keeps its desks at the top and sees no Authority item.
    part = browser(app, "participant", make_market(app).seller["id"])
    pnav = part.get("/seller").get_data(as_text=True)
    pnav = pnav[pnav.index('<nav aria-label="Main">') : pnav.index("</nav>")]
    for label in ("Selling", "Holdings", "My offers and purchases", "My sales", "Market"):
        assert f">{label}</a>" in pnav
    assert "Approvals" not in pnav and "Things to do" not in pnav


@pytest.mark.storage
def test_the_approval_queue_shows_since_when_each_transfer_has_waited(app: Any) -> None:
    m = make_market(app)
    pending = m.pending_transfer()
    html = browser(app, "authority").get("/authority").get_data(as_text=True)
    card = html[html.index(f'id="transfer-{pending["id"]}"') :]
    card = card[: card.index("</section>")]
    since = _ny_date_of(app, f"transfer-{pending['id']}", "TRANSFER_PROPOSED")
    assert f"Waiting since {since}" in card


# ---- the buyer declines with a reason the seller reads -----------------------------------


@pytest.mark.storage
def test_the_buyer_declines_with_a_reason_the_seller_reads(app: Any) -> None:
    m = make_market(app)
    t = _negotiated(m)
    buyer = browser(app, "participant", m.buyer["id"])
    page = buyer.get("/buyer").get_data(as_text=True)
    assert f'id="decline-{t["id"]}" name="reason"' in page
    before = events(app.extensions["market.engine"])
    action = f"/buyer/transfers/{t['id']}/decline"
    review = post_form(buyer, "/buyer", action, {"reason": "Price too high for us"})
    body = review.get_data(as_text=True)
    assert review.status_code == 200 and "Review before you confirm" in body
    assert "Camden Robotics" in body and "Price too high for us" in body
    assert events(app.extensions["market.engine"]) == before  # the review writes nothing
    r = confirm_form(buyer, "/buyer", action, {"reason": "Price too high for us"})
    assert r.status_code == 302
    assert m.api.get(f"/api/v1/transfers/{t['id']}", headers=m.seller_h).json["reasons"] == [
        "Price too high for us"
    ]
    seller = browser(app, "participant", m.seller["id"])
    desk = seller.get("/seller").get_data(as_text=True)
    row = desk[desk.index(f'id="proposed-{t["id"]}"') :]
    row = row[: row.index("</tr>")]
    assert "Newark Insurance Holdings" in row
    assert "Declined by the buyer: &ldquo;Price too high for us&rdquo;" in row
    deals = seller.get("/deals/selling").get_data(as_text=True)
    assert "Price too high for us" in deals


def test_a_decline_reason_too_long_is_refused_beside_its_field(app: Any) -> None:
    m = make_market(app)
    t = _negotiated(m)
    buyer = browser(app, "participant", m.buyer["id"])
    before = events(app.extensions["market.engine"])
    action = f"/buyer/transfers/{t['id']}/decline"
    r = post_form(buyer, "/buyer", action, {"reason": "x" * 501})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert f'id="decline-{t["id"]}-error"' in html
    assert events(app.extensions["market.engine"]) == before


def test_a_fee_reads_as_words() -> None:
    assert todo_pages.fee_words("tech_application", "TECH") == "The TECH application fee"
    assert todo_pages.fee_words("uth_transfer", "UTH") == "The UTH transfer fee"
    assert todo_pages.fee_words("board_review", "BRRAG") == "The BRRAG board review fee"


def test_a_uth_review_due_is_listed_until_it_is_recorded(app: Any, client: Any) -> None:
    hub = UthAward(client)  # periods from 2013; the business date is 2014-09-01
    eda = browser(app, "authority")
    due = _section(eda.get("/authority/todo").get_data(as_text=True), "uth-reviews")
    number = hub.award["number"]
    assert (
        f"UTH award {number} of Hub Owner Co: the annual review of tax period 2013 "
        "($2,400,000.00)" in due
    )
    assert "tax period 2014" not in due  # not ended yet
    assert f'href="/certificates/{hub.id}#uth-review"' in due
    r = client.post(
        f"/api/v1/certificates/{hub.id}/reviews",
        json={"tax_period": 2013, "finding": "approved"},
        headers=hub.auth,
    )
    assert r.status_code == 201, r.json
    due = _section(eda.get("/authority/todo").get_data(as_text=True), "uth-reviews")
    assert "Nothing waits." in due


def test_a_tech_application_waits_on_its_next_step(app: Any) -> None:
    m = make_market(app)
    startup = create_party(m.api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    m.post(
        "/api/v1/tech/applications",
        m.eda,
        {
            "party_id": startup["id"],
            "received_on": "2014-08-15",
            "receipt_reason": "Paper filing received by mail",
            "nol_cents": 0,
            "allocation_factor": "1",
            "seller_tax_regime": "CBT",
            "rnd_credit_cents": 100_000_00,
        },
    )
    html = browser(app, "authority").get("/authority/todo").get_data(as_text=True)
    tech = _section(html, "tech")
    assert "TECH FY 2015: Hoboken Quantum asks for $100,000.00" in tech
    assert "2014-08-15" in tech
    assert "the Authority (" in tech
