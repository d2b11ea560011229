"""What every step of the demo seed shares: the engine, the ruleset, the calendar, the
parties' ids, and a unit of work per write, as any request would run it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy import Engine

from market.adapters.document_store import DocumentStore
from market.domain.rulesets import Ruleset
from market.services.demo.dates import DemoDates
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.runner import run
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.trading import trading

T = TypeVar("T")
EDA = Actor(user_id="demo-seed", role=AUTHORITY)
MILLION = 100_000_000  # cents
THOUSAND = 100_000  # cents


@dataclass
class Seeding:
    engine: Engine
    ruleset: Ruleset
    dates: DemoDates
    say: Callable[[str], None]
    ids: dict[str, str] = field(default_factory=dict)  # party key -> id
    store: DocumentStore | None = None  # exhibits' bytes (DOCUMENT_DIR)

    def do(self, fn: Callable[[UnitOfWork], T]) -> T:
        return run(self.engine, fn)

    def who(self, key: str) -> Actor:
        return Actor(user_id=f"demo-{key}", role=PARTICIPANT, party_id=self.ids[key])

    def buyer_certificate(self, transfer_id: str) -> str:
        """The certificate an approved transfer made for its buyer."""
        with ReadOnly(self.engine) as conn:
            return str(trading.load_transfer(conn, transfer_id)["buyer_certificate_id"])
