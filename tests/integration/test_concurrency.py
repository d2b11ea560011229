"""Racing writers on SQLite and PostgreSQL: approvals never oversell a certificate and
issuance never overruns a cap or a pool, because every unit of work holds the ledger lock
while it decides. Afterwards conservation holds and the ledger verifies."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, select

from market.adapters.tables import CapUsage, Certificate
from market.domain.errors import DomainError
from market.domain.rulesets import get_ruleset
from market.services import certificates, trading
from market.services.actor import SYSTEM
from market.services.ledger import verify
from market.services.parties import NewParty, register_party
from market.services.runner import run

RULES = get_ruleset("A1178")
M = 100_000_000
THREADS = 16
certs_t = Certificate.__table__  # type: ignore[attr-defined]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]


def _party(engine: Engine, name: str) -> str:
    new = NewParty(name=name, tax_id=f"tax-{name}", entity_type="c_corporation", tax_types=["CBT"])
    return str(run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"])


def _issue(engine: Engine, program: str, holder: str, face: int, fy: int = 2014) -> Any:
    new = certificates.NewCertificate(program, holder, face, fy)
    return run(engine, lambda uow: certificates.issue_certificate(uow, SYSTEM, new, RULES))


def _race(engine: Engine, jobs: list[Callable[[], Any]]) -> tuple[int, list[str]]:
    """Start every job at once; returns (successes, error codes)."""
    barrier = threading.Barrier(len(jobs))
    codes: list[str] = []
    ok: list[int] = []
    lock = threading.Lock()

    def worker(job: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            job()
        except DomainError as exc:
            with lock:
                codes.append(exc.code)
        else:
            with lock:
                ok.append(1)

    threads = [threading.Thread(target=worker, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return len(ok), codes


def _assert_conserved(engine: Engine) -> None:
    with engine.connect() as conn:
        rows = [dict(r) for r in conn.execute(select(certs_t)).mappings()]
    for c in rows:
        parts = (
            "balance_cents",
            "queued_cents",
            "transferred_cents",
            "applied_cents",
            "expired_cents",
            "recaptured_cents",
        )
        assert c["face_cents"] == sum(c[p] for p in parts), c
        assert all(c[p] >= 0 for p in parts), c
        sold = sum(
            ch["face_cents"]
            for ch in rows
            if ch["parent_id"] == c["id"] and ch["origin"] == "transfer"
        )
        assert sold == c["transferred_cents"], c
    report = verify(engine)
    assert report.ok, report.problems


def test_concurrent_approvals_of_60_percent_sell_the_certificate_once(engine: Engine) -> None:
    seller, buyer = _party(engine, "seller"), _party(engine, "buyer")
    cert = _issue(engine, "BRRAG", seller, 10 * M)
    pending = [
        run(
            engine,
            lambda uow: trading.create_transfer(
                uow, SYSTEM, cert["id"], buyer, 6 * M, 5 * M, None, RULES
            ),
        )["id"]
        for _ in range(THREADS)
    ]

    def approve(transfer_id: str) -> Callable[[], Any]:
        return lambda: run(
            engine, lambda uow: trading.approve_transfer(uow, SYSTEM, transfer_id, RULES)
        )

    successes, codes = _race(engine, [approve(t) for t in pending])
    assert successes == 1
    assert codes == ["insufficient_balance"] * (THREADS - 1)
    with engine.connect() as conn:
        seller_cert = conn.execute(select(certs_t).where(certs_t.c.id == cert["id"])).one()
        holders = conn.execute(
            select(certs_t.c.holder_party_id).where(certs_t.c.parent_id == cert["id"])
        ).all()
    assert (seller_cert.balance_cents, seller_cert.transferred_cents) == (4 * M, 6 * M)
    assert [h.holder_party_id for h in holders] == [buyer]
    _assert_conserved(engine)


def test_concurrent_issuance_never_overruns_the_brrag_cap(engine: Engine) -> None:
    holder = _party(engine, "holder")
    _issue(engine, "BRRAG", holder, 20 * M - 10 * 10**6)  # $19.9M of $20M used
    jobs = [lambda: _issue(engine, "BRRAG", holder, 5 * 10**6) for _ in range(THREADS)]
    successes, codes = _race(engine, jobs)
    assert successes == 2
    assert codes == ["cap_exceeded"] * (THREADS - 2)
    with engine.connect() as conn:
        row = conn.execute(select(caps_t).where(caps_t.c.id == "BRRAG:2014")).one()
    assert row.used_cents == row.cap_cents == 20 * M
    _assert_conserved(engine)


def test_concurrent_dm_issuance_fills_the_pool_and_queues_the_rest(engine: Engine) -> None:
    holder = _party(engine, "studio")
    jobs = [lambda: _issue(engine, "DM_CBT", holder, 75 * 10**6) for _ in range(THREADS)]
    successes, codes = _race(engine, jobs)
    assert (successes, codes) == (THREADS, [])
    with engine.connect() as conn:
        row = conn.execute(select(caps_t).where(caps_t.c.id == "DM_CBT:2014")).one()
        statuses = sorted(r.status for r in conn.execute(select(certs_t.c.status)))
    assert row.used_cents == 5 * M  # never more than the pool
    assert row.queued_cents == THREADS * 75 * 10**6 - 5 * M
    # $5M / $0.75M: six allowed in full, one split, the rest wait in line
    assert statuses.count("issued") == 6 and statuses.count("partially_queued") == 1
    assert statuses.count("queued") == THREADS - 7
    _assert_conserved(engine)
