"""A small market for the proof suites, and the conservation check every suite runs."""

from __future__ import annotations

import threading
import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Engine, select, text
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate
from tests.helpers import brrag_award, create_party, headers_for

T = TypeVar("T")
M = 100_000_000  # one million dollars in cents
certs_t = Certificate.__table__  # type: ignore[attr-defined]

PARTS = (
    "balance_cents",
    "queued_cents",
    "transferred_cents",
    "applied_cents",
    "expired_cents",
    "recaptured_cents",
)


def conservation_problems(rows: list[dict[str, Any]]) -> list[str]:
    """Every cent of face in exactly one place, nothing negative, and every root's
    transferred cents equal to the face of the certificates derived from it by transfer."""
    problems: list[str] = []
    children: dict[str, int] = defaultdict(int)
    for r in rows:
        if r["parent_id"] is not None and r["origin"] == "transfer":
            children[r["parent_id"]] += int(r["face_cents"])
    for r in rows:
        parts = {p: int(r[p]) for p in PARTS}
        if int(r["face_cents"]) != sum(parts.values()):
            problems.append(f"{r['id']}: face {r['face_cents']} != {parts}")
        negative = [p for p, v in parts.items() if v < 0]
        if negative:
            problems.append(f"{r['id']}: negative {negative}")
        if r["is_original"] and int(r["transferred_cents"]) != children.get(r["id"], 0):
            problems.append(
                f"{r['id']}: transferred {r['transferred_cents']} but its transfer children "
                f"sum to {children.get(r['id'], 0)}"
            )
    return problems


def certificate_rows(conn: Connection) -> list[dict[str, Any]]:
    """One statement, so one snapshot on both databases."""
    return [dict(r) for r in conn.execute(select(certs_t)).mappings()]


def check_conservation(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = certificate_rows(conn)
        conn.rollback()
    problems = conservation_problems(rows)
    assert not problems, problems
    return rows


def event_count(engine: Engine) -> int:
    with engine.connect() as conn:
        n = int(conn.execute(text("SELECT count(*) FROM events")).scalar() or 0)
        conn.rollback()
    return n


class World:
    """An authority, an auditor, sellers and buyers with their bearer tokens."""

    def __init__(self, client: Any, sellers: int = 1, buyers: int = 2) -> None:
        self.client = client
        self.engine: Engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.auditor = headers_for(client, self.engine, "auditor")
        self.sellers = [
            create_party(client, self.auth, name=f"Seller {i}", tax_types=["CBT"])
            for i in range(sellers)
        ]
        self.buyers = [
            create_party(client, self.auth, name=f"Buyer {i}", tax_types=["CBT", "GIT"])
            for i in range(buyers)
        ]
        self.h: dict[str, dict[str, str]] = {
            p["id"]: headers_for(client, self.engine, "participant", p["id"])
            for p in self.sellers + self.buyers
        }

    def issue(self, holder_id: str, face: int, fiscal_year: int = 2014) -> dict[str, Any]:
        r = self.client.post(
            "/api/v1/certificates",
            json={
                "program": "BRRAG",
                "holder_party_id": holder_id,
                "face_cents": face,
                "fiscal_year": fiscal_year,
            }
            | brrag_award(face),
            headers=self.auth,
        )
        assert r.status_code == 201, r.json
        return r.json  # type: ignore[no-any-return]

    def confirm(self, client: Any, transfer: dict[str, Any]) -> Any:
        """The buyer's confirmation of a negotiated transfer (PRODUCT.md 8.2)."""
        return client.post(
            f"/api/v1/transfers/{transfer['id']}/confirm",
            json={},
            headers=self.h[transfer["buyer_party_id"]],
        )

    def negotiate_confirmed(
        self, client: Any, cert: dict[str, Any], buyer_id: str, amount: int, price: int
    ) -> Any:
        """A negotiated transfer its buyer then confirms: the seller's answer if it was
        refused (not 201), else the buyer's (200 and `pending_approval` when confirmed)."""
        r = self.negotiate(client, cert, buyer_id, amount, price)
        if r.status_code != 201:
            return r
        assert r.json["status"] == "awaiting_buyer", r.json
        return self.confirm(client, r.json)

    def negotiate(
        self, client: Any, cert: dict[str, Any], buyer_id: str, amount: int, price: int
    ) -> Any:
        """The seller's proposal: it awaits the buyer (`awaiting_buyer`)."""
        return client.post(
            "/api/v1/transfers",
            json={
                "certificate_id": cert["id"],
                "buyer_party_id": buyer_id,
                "amount_cents": amount,
                "consideration_cents": price,
            },
            headers=self.h[cert["holder_party_id"]],
        )


def key() -> str:
    return uuid.uuid4().hex


def race(jobs: list[Callable[[], T]]) -> list[T]:
    """Start every job at the same moment, each on its own thread; their results."""
    barrier = threading.Barrier(len(jobs))
    results: list[T] = []
    lock = threading.Lock()
    failures: list[BaseException] = []

    def worker(job: Callable[[], T]) -> None:
        barrier.wait()
        try:
            result = job()
        except BaseException as exc:  # surfaced to the test below
            with lock:
                failures.append(exc)
            return
        with lock:
            results.append(result)

    threads = [threading.Thread(target=worker, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    return results
