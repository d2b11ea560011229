"""A believable demo market, built through the same services as every other request, on
the business date (MARKET_TODAY if set, else today in New York): every date it writes is
computed from that date (`dates.DemoDates`), so the market is alive whenever it is seeded.

A dozen businesses with ownership and logins (`parties`); BRRAG, UTH and digital media
certificates under their caps, last fiscal year's oversubscribed TECH intake allocated and
this year's open (`credits`); listings, approved and rejected sales and a deal waiting on
every desk (`trades`); credits used on returns, a pass-through, a recapture and the UTH
annual reviews (`after_sale`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from sqlalchemy import Engine

from market.adapters.document_store import DocumentStore
from market.adapters.eventstore import event_count
from market.domain.rulesets import Ruleset
from market.services.demo import after_sale, casefile, credits, parties, trades
from market.services.demo.context import Seeding
from market.services.demo.dates import DemoDates
from market.services.demo.parties import AUDITOR_EMAIL, AUTHORITY_EMAIL, DEMO_PASSWORD, PARTIES
from market.services.kernel import clock

__all__ = [
    "AUDITOR_EMAIL",
    "AUTHORITY_EMAIL",
    "DEMO_PASSWORD",
    "Seeded",
    "is_seeded",
    "logins",
    "seed",
]


class UthReviews(TypedDict):
    approved: list[int]  # the installment periods approved
    cut: int  # the period cut by 20% (UTH-11(1))


class Seeded(TypedDict):
    """What `seed` answers: the parties' ids by key and the dates the market is built on."""

    parties: dict[str, str]
    business_date: str
    fiscal_year: int
    tech_allocated_year: int
    uth_reviews: UthReviews


def is_seeded(engine: Engine) -> bool:
    with engine.connect() as conn:
        return event_count(conn) > 0


def seed(
    engine: Engine,
    ruleset: Ruleset,
    say: Callable[[str], None] = lambda _: None,
    store: DocumentStore | None = None,
) -> Seeded:
    """The demo market on the business date; answers the parties' ids and the fiscal years
    it is built around."""
    dates = DemoDates(clock.today())
    say(f"seeding the demo on the business date {dates.today.isoformat()}")
    s = Seeding(engine, ruleset, dates, say, store=store)
    parties.register_all(s)
    issued = credits.issue_all(s)
    sales = trades.trade_all(s, issued)
    after_sale.use_credits(s, issued, sales)
    approved, cut = after_sale.review_uth(s, issued)
    casefile.showcase(s)
    return Seeded(
        parties=dict(s.ids),
        business_date=dates.today.isoformat(),
        fiscal_year=dates.fiscal_year,
        tech_allocated_year=dates.tech_allocated_year,
        uth_reviews=UthReviews(approved=approved, cut=cut),
    )


def logins() -> list[tuple[str, str, str]]:
    rows = [(AUTHORITY_EMAIL, "authority", "the EDA"), (AUDITOR_EMAIL, "auditor", "read-only")]
    rows += [(f"{p.key}@demo.nj", "participant", p.name) for p in PARTIES if p.login]
    return rows
