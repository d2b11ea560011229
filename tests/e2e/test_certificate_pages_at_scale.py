"""A certificate with a long lineage: its children and history come page by page, and
the pages together are exactly the whole (issue 12, item 6)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from market.adapters.tables import EventRow, Listing, Transfer
from market.domain.commands.trading import CreateTransfer
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.trading import trading
from tests.e2e.test_pages_support import browser, make_market
from tests.e2e.test_reads_at_scale import EDA, RULES

events_t = EventRow.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]


def _long_lineage(m: Any, n: int) -> None:
    """`n` sales interleaved with a listing's offers; every third left pending, every
    fifth rejected, some decided long after they were proposed."""
    seller = Actor(user_id="test-seller", role=PARTICIPANT, party_id=m.seller["id"])
    buyer = Actor(user_id="test-buyer", role=PARTICIPANT, party_id=m.buyer["id"])
    engine = m.app.extensions["market.engine"]
    late: list[str] = []
    with UnitOfWork(engine) as uow:
        for k in range(n):
            t = trading.create_transfer(
                uow, seller, CreateTransfer(m.cert["id"], m.buyer["id"], 1000, 900, None), RULES
            )
            # The buyer consents first (PRODUCT.md 8.2): pending here is the Authority's.
            t = trading.confirm_transfer(uow, buyer, t["id"], RULES)
            if k % 5 == 0:
                trading.reject_transfer(uow, EDA, t["id"], "Not signed (TB-24).")
            elif k % 7 == 0:
                late.append(t["id"])
            elif k % 3:
                trading.approve_transfer(uow, EDA, t["id"], RULES)
        uow.commit()
    m.listing(amount=100_000, ask=90_000)
    with UnitOfWork(engine) as uow:
        for transfer_id in late:
            trading.approve_transfer(uow, EDA, transfer_id, RULES)
        uow.commit()


def _whole_history(engine: Any, cert_id: str) -> list[int]:
    with ReadOnly(engine) as conn:
        transfers = conn.execute(
            select(transfers_t.c.id).where(
                (transfers_t.c.certificate_id == cert_id)
                | (transfers_t.c.buyer_certificate_id == cert_id)
            )
        ).all()
        listings = conn.execute(
            select(listings_t.c.id).where(listings_t.c.certificate_id == cert_id)
        ).all()
        streams = [f"certificate-{cert_id}"] + [f"transfer-{r.id}" for r in transfers]
        streams += [f"listing-{r.id}" for r in listings]
        rows = conn.execute(
            select(events_t.c.seq).where(events_t.c.stream.in_(streams)).order_by(events_t.c.seq)
        )
        return [r.seq for r in rows]


def test_children_and_history_page_through_the_whole_lineage(app: Any) -> None:
    m = make_market(app)
    _long_lineage(m, 130)
    path = f"/api/v1/certificates/{m.cert['id']}"
    children: list[str] = []
    after = None
    while True:
        body = m.api.get(path + (f"?children_after={after}" if after else ""), headers=m.eda).json
        assert len(body["lineage"]["children"]) <= 50
        children += [c["id"] for c in body["lineage"]["children"]]
        after = body["lineage"]["children_next"]
        if after is None:
            break
    with ReadOnly(app.extensions["market.engine"]) as conn:
        approved = conn.execute(
            select(transfers_t.c.buyer_certificate_id)
            .where(transfers_t.c.certificate_id == m.cert["id"], transfers_t.c.status == "approved")
            .order_by(transfers_t.c.decided_seq)
        ).all()
    assert children == [r[0] for r in approved] and len(children) > 50

    history: list[int] = []
    after = None
    while True:
        body = m.api.get(path + (f"?history_after={after}" if after else ""), headers=m.eda).json
        assert len(body["history"]) <= 50
        history += [e["seq"] for e in body["history"]]
        after = body["history_next"]
        if after is None:
            break
    whole = _whole_history(app.extensions["market.engine"], m.cert["id"])
    assert history == whole and len(whole) > 150


def test_a_buyer_certificate_shows_the_transfer_that_created_it(app: Any) -> None:
    m = make_market(app)
    _long_lineage(m, 4)
    with ReadOnly(app.extensions["market.engine"]) as conn:
        child = conn.execute(
            select(transfers_t.c.buyer_certificate_id, transfers_t.c.id).where(
                transfers_t.c.buyer_certificate_id.is_not(None)
            )
        ).first()
    assert child is not None
    body = m.api.get(f"/api/v1/certificates/{child[0]}", headers=m.eda).json
    types = [e["type"] for e in body["history"]]
    # The buyer's consent now sits between the proposal and the approval (PRODUCT.md 8.2).
    assert types[:3] == ["TRANSFER_PROPOSED", "TRANSFER_CONFIRMED", "TRANSFER_APPROVED"]
    assert "CERT_ISSUED" in types
    assert body["history"] and body["history_next"] is None
    page = browser(app, "authority").get(f"/certificates/{m.cert['id']}").get_data(as_text=True)
    assert "more history" not in page and "TRANSFER_APPROVED" in page
