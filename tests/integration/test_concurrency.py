"""Racing writers on SQLite and PostgreSQL: approvals never oversell a certificate and
issuance never overruns a cap or a pool. Every unit of work holds the ledger head while
it decides. Afterwards conservation holds and the ledger verifies."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import Engine, select, text

from market.adapters.tables import CapUsage, Certificate
from market.domain.commands.parties import RecordOwnership
from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificates, recaptures
from market.services.kernel.actor import PARTICIPANT, SYSTEM, Actor
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.trading import trading
from market.services.trust.ledger import verify
from tests.helpers import brrag_award_kwargs, tech_certificate

RULES = get_ruleset("A1178")
M = 100_000_000
THREADS = 16
certs_t = Certificate.__table__  # type: ignore[attr-defined]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]


def _party(engine: Engine, name: str) -> str:
    new = NewParty(name=name, tax_id=f"tax-{name}", entity_type="c_corporation", tax_types=["CBT"])
    return str(run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"])


def _issue(engine: Engine, program: str, holder: str, face: int, fy: int = 2014) -> Any:
    award = brrag_award_kwargs(face) if program == "BRRAG" else {}
    new = certificates.NewCertificate(program, holder, face, fy, **award)
    return run(engine, lambda uow: certificates.issue_certificate(uow, SYSTEM, new, RULES))


def _negotiated(uow: Any, cert_id: str, buyer: str, amount: int, price: int) -> Any:
    """A negotiated transfer its buyer has confirmed (PRODUCT.md 8.2), in one unit of work."""
    t = trading.create_transfer(
        uow, SYSTEM, CreateTransfer(cert_id, buyer, amount, price, None), RULES
    )
    consent = Actor(user_id=f"buyer-{buyer}", role=PARTICIPANT, party_id=buyer)
    return trading.confirm_transfer(uow, consent, t["id"], RULES)


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


def test_concurrent_approvals_of_what_one_balance_covers_sell_it_once(engine: Engine) -> None:
    seller, buyer = _party(engine, "seller"), _party(engine, "buyer")
    cert = _issue(engine, "BRRAG", seller, 16 * M)
    # Pending transfers never promise more than the balance (commitments); a recapture of
    # most of it then leaves room for one of them, which every approval races for.
    pending = [
        run(
            engine,
            lambda uow: _negotiated(uow, cert["id"], buyer, M, 3 * M // 4),
        )["id"]
        for _ in range(THREADS)
    ]
    taken = recaptures.NewRecapture(seller, 16 * M - 3 * M // 2, "jobs lost", cert["id"])
    run(engine, lambda uow: recaptures.assess_recapture(uow, SYSTEM, taken))

    def approve(transfer_id: str) -> Callable[[], Any]:
        return lambda: run(
            engine,
            lambda uow: trading.approve_transfer(uow, SYSTEM, transfer_id, RULES),
        )

    successes, codes = _race(engine, [approve(t) for t in pending])
    assert successes == 1
    assert codes == ["insufficient_balance"] * (THREADS - 1)
    with engine.connect() as conn:
        seller_cert = conn.execute(select(certs_t).where(certs_t.c.id == cert["id"])).one()
        holders = conn.execute(
            select(certs_t.c.holder_party_id).where(certs_t.c.parent_id == cert["id"])
        ).all()
    assert (seller_cert.balance_cents, seller_cert.transferred_cents) == (M // 2, M)
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


def test_approvals_racing_rejections_decide_each_transfer_once(engine: Engine) -> None:
    """Approvals and rejections on the same transfers: each transfer
    is decided once, the loser gets a conflict, and nothing waits for a deadlock detector."""
    seller, buyer = _party(engine, "seller"), _party(engine, "buyer")
    cert = _issue(engine, "BRRAG", seller, 10 * M)
    pending = [
        run(
            engine,
            lambda uow: _negotiated(uow, cert["id"], buyer, M, M),
        )["id"]
        for _ in range(THREADS // 2)
    ]
    jobs: list[Callable[[], Any]] = []
    for transfer_id in pending:
        jobs.append(
            lambda t=transfer_id: run(
                engine, lambda uow: trading.approve_transfer(uow, SYSTEM, t, RULES)
            )
        )
        jobs.append(
            lambda t=transfer_id: run(
                engine, lambda uow: trading.reject_transfer(uow, SYSTEM, t, "raced")
            )
        )
    successes, codes = _race(engine, jobs)
    assert successes == len(pending)
    assert codes == ["conflict"] * len(pending)
    with engine.connect() as conn:
        decisions = conn.execute(
            text(
                "select count(*) from events where type in "
                "('TRANSFER_APPROVED', 'TRANSFER_REJECTED')"
            )
        ).scalar()
        approved = conn.execute(
            text("select count(*) from transfers where status = 'approved'")
        ).scalar()
        seller_cert = conn.execute(select(certs_t).where(certs_t.c.id == cert["id"])).one()
    assert decisions == len(pending)
    assert seller_cert.transferred_cents == (approved or 0) * M
    _assert_conserved(engine)


def test_a_tech_approval_never_follows_the_ownership_edge_that_affiliates_its_parties(
    engine: Engine,
) -> None:
    """An approval and the recording of an owner exclude each other (both hold the ledger
    head while they decide): an edge recorded at the same time lands either after the
    approval or before it (and then the approval is refused). The ledger never shows an
    approval decided on a graph older than an event that precedes it."""
    facts = NewParty(
        name="tech seller",
        tax_id="tax-tech-seller",
        entity_type="c_corporation",
        tax_types=["CBT"],
        us_employees=40,
        nj_full_time_employees=12,
        formed_on="2005-01-01",
    )
    seller = run(engine, lambda uow: register_party(uow, SYSTEM, facts))["id"]
    cert = tech_certificate(engine, seller, 100 * M)
    rounds = 6
    buyers = [_party(engine, f"tech buyer {i}") for i in range(rounds)]
    exchange = date(2014, 9, 1)
    for buyer in buyers:
        transfer_id = run(
            engine,
            lambda uow, b=buyer: _negotiated(uow, cert, b, M, M),
        )["id"]
        _race(
            engine,
            [
                lambda t=transfer_id: run(
                    engine,
                    lambda uow: trading.approve_transfer(uow, SYSTEM, t, RULES, exchange),
                ),
                lambda b=buyer: run(
                    engine,
                    lambda uow: record_ownership(uow, SYSTEM, RecordOwnership(seller, b, 600, 0)),
                ),
            ],
        )
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "select seq, type, payload from events where type in "
                "('OWNERSHIP_RECORDED', 'TRANSFER_PROPOSED', 'TRANSFER_APPROVED') order by seq"
            )
        ).all()
    edge_seq: dict[str, int] = {}
    buyer_of: dict[str, str] = {}
    for seq, type_, payload in rows:
        p = payload if isinstance(payload, dict) else __import__("json").loads(payload)
        if type_ == "OWNERSHIP_RECORDED":
            edge_seq[p["owner_party_id"]] = seq
        elif type_ == "TRANSFER_PROPOSED":
            buyer_of[p["transfer_id"]] = p["buyer_party_id"]
        else:
            buyer = buyer_of[p["transfer_id"]]
            assert buyer not in edge_seq, f"approved at seq {seq} after the edge that affiliates"
    assert set(edge_seq) == set(buyers)
    _assert_conserved(engine)
