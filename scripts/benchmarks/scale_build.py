"""Grow a realistic market ledger through the services, in bulk (many use cases per unit
of work), to a given number of events; the ledger it leaves verifies.

The shape grows with the ledger, as a real market's would: parties, certificates, their
transfers (about a third left pending), listings with offers, credits applied to returns.
Three users are the heavy ones the pages are measured as: the hot seller (one original
certificate sold in pieces to many buyers: a long lineage and a long history), and the
hot buyer (who holds more certificates every round).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Engine

from market.adapters.eventstore import event_count
from market.domain.commands.parties import RecordOwnership
from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.rulesets import Ruleset
from market.services.certificates import certificates, returns
from market.services.identity import identity
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.trading import trading

EDA = Actor(user_id="bench-eda", role=AUTHORITY)
PASSWORD = "bench-password"
HOT_FACE = 1_900_000_000  # $19M: BRRAG's $20M FY cap leaves room for nothing else that FY
FACE = 5_000_000  # $50,000 per ordinary certificate
FIRST_FY, LAST_FY = 2013, 2300  # 1M events use about 120 fiscal years of BRRAG cap
PER_FY = 390  # $19.5M of $50k certificates under BRRAG's $20M FY cap


@dataclass
class Market:
    engine: Engine
    ruleset: Ruleset
    rng: random.Random = field(default_factory=lambda: random.Random(1178))
    sellers: list[str] = field(default_factory=list)
    buyers: list[str] = field(default_factory=list)
    hot_seller: str = ""
    hot_buyer: str = ""
    hot_cert: str = ""
    rounds: int = 0
    issued_in_fy: int = 0
    fiscal_year: int = FIRST_FY + 1
    held: list[tuple[str, str]] = field(default_factory=list)  # (buyer, certificate)

    def party(self, uow: UnitOfWork, kind: str) -> str:
        n = len(self.sellers) + len(self.buyers)
        new = NewParty(
            name=f"{kind.title()} {n} Inc",
            tax_id=f"90-{n:07d}",
            entity_type="c_corporation",
            tax_types=["CBT"],
        )
        party_id = str(register_party(uow, EDA, new)["id"])
        (self.sellers if kind == "seller" else self.buyers).append(party_id)
        return party_id

    def issue(self, uow: UnitOfWork, holder: str, face: int) -> str:
        if self.issued_in_fy >= PER_FY:
            self.fiscal_year, self.issued_in_fy = self.fiscal_year + 1, 0
        if self.fiscal_year > LAST_FY:
            raise SystemExit("ran out of fiscal years for BRRAG's cap; raise LAST_FY")
        self.issued_in_fy += 1
        new = certificates.NewCertificate(
            program="BRRAG",
            holder_party_id=holder,
            face_cents=face,
            fiscal_year=self.fiscal_year,
            credit_year=2014,
            retained_jobs=face // 150_000 + 1,  # BR-6: $1,500 a retained job for one year
            award_years=1,
            nj_operations_since=date(2000, 1, 2),  # BR-1: over 10 years in New Jersey
            cannot_use_before_expiry=True,  # BR-2
        )
        return str(certificates.issue_certificate(uow, EDA, new, self.ruleset)["id"])


def who(party_id: str) -> Actor:
    return Actor(user_id=f"bench-{party_id}", role=PARTICIPANT, party_id=party_id)


def start(engine: Engine, ruleset: Ruleset) -> Market:
    m = Market(engine=engine, ruleset=ruleset)
    with UnitOfWork(engine) as uow:
        for _ in range(8):
            m.party(uow, "seller")
            m.party(uow, "buyer")
        m.hot_seller, m.hot_buyer = m.sellers[0], m.buyers[0]
        for owned, owner in zip(m.buyers[1:], m.buyers[2:], strict=False):
            record_ownership(
                uow, EDA, RecordOwnership(owned, owner, 300, 300)
            )  # 3%: not affiliated
        uow.commit()
    with UnitOfWork(engine) as uow:
        m.fiscal_year = FIRST_FY
        m.hot_cert = m.issue(uow, m.hot_seller, HOT_FACE)
        m.fiscal_year, m.issued_in_fy = FIRST_FY + 1, 0
        uow.commit()
    identity.create_user(engine, "eda@bench", AUTHORITY, PASSWORD)
    identity.create_user(engine, "auditor@bench", "auditor", PASSWORD)
    identity.create_user(engine, "seller@bench", PARTICIPANT, PASSWORD, m.hot_seller)
    identity.create_user(engine, "buyer@bench", PARTICIPANT, PASSWORD, m.hot_buyer)
    return m


def _sell(
    m: Market, uow: UnitOfWork, cert: str, seller: str, buyer: str, amount: int, approve: bool
) -> dict[str, Any]:
    price = amount * m.rng.choice((80, 85, 88, 90, 93)) // 100
    t = trading.create_transfer(
        uow, who(seller), CreateTransfer(cert, buyer, amount, price, None), m.ruleset
    )
    # A negotiated transfer waits for its buyer's consent before the Authority (PRODUCT.md 8.2).
    t = trading.confirm_transfer(uow, who(buyer), t["id"], m.ruleset)
    if approve:
        t = trading.approve_transfer(uow, EDA, t["id"], m.ruleset)
        m.held.append((buyer, str(t["buyer_certificate_id"])))
    return t


def one_round(m: Market, uow: UnitOfWork) -> None:
    """About 30 events: a new certificate sold three ways (one left pending), a listing with
    an offer accepted, a hot-certificate sale to the hot buyer, a credit used on a return."""
    rng = m.rng
    m.rounds += 1
    if m.rounds % 4 == 0:
        m.party(uow, "seller")
        m.party(uow, "buyer")
    seller = rng.choice(m.sellers[1:])
    cert = m.issue(uow, seller, FACE)
    for k in range(3):
        buyer = rng.choice(m.buyers[1:])
        _sell(m, uow, cert, seller, buyer, 500_000 + 10_000 * k, approve=k != 2)
    listing = trading.create_listing(
        uow, who(seller), CreateListing(cert, 1_000_000, 920_000), m.ruleset
    )
    buyer = rng.choice(m.buyers[1:])
    offer = trading.make_offer(
        uow, who(buyer), MakeOffer(listing["id"], 400_000, 360_000), m.ruleset
    )
    accepted = trading.accept_offer(uow, who(seller), offer["id"], m.ruleset)
    if m.rounds % 2:
        transfer = accepted.get("transfer", accepted)
        trading.approve_transfer(uow, EDA, transfer["id"], m.ruleset)
    _sell(m, uow, m.hot_cert, m.hot_seller, m.hot_buyer, 10_000, approve=m.rounds % 5 != 0)
    if m.held and m.rounds % 2 == 0:
        holder, held_cert = m.held.pop(rng.randrange(len(m.held)))
        returns.apply_to_return(
            uow,
            who(holder),
            m.ruleset,
            returns.NewCreditApplication(
                certificate_id=held_cert,
                tax_type="CBT",
                tax_year=2014,
                liability_cents=10_000_000,
                amount_cents=100_000,
            ),
        )


def grow(m: Market, events: int, per_commit: int = 40) -> int:
    """Add rounds until the ledger holds at least `events` events; returns the count."""
    with m.engine.connect() as conn:
        have = event_count(conn)
    while have < events:
        with UnitOfWork(m.engine) as uow:
            for _ in range(per_commit):
                one_round(m, uow)
            uow.commit()
        with m.engine.connect() as conn:
            have = event_count(conn)
        print(f"  built {have:,}/{events:,} events", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return have


def hot_certificate(engine: Engine) -> str:
    """The hot seller's long-lineage certificate in a ledger `start` began."""
    from sqlalchemy import select

    from market.adapters.tables import Certificate

    certs = Certificate.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        found = conn.execute(
            select(certs.c.id).where(certs.c.face_cents == HOT_FACE).order_by(certs.c.issued_seq)
        ).first()
    if found is None:
        raise SystemExit("no hot certificate: not a ledger scale_build.start began")
    return str(found.id)
