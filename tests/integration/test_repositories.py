"""The SQL repositories and the in-memory ones answer the same for the same events, on
SQLite and PostgreSQL: a small market is traded through the services on the database,
its events are folded again into a FakeUnitOfWork, and every repository read a rule uses
is asked of both."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from market.adapters.repositories import Repositories
from market.domain.commands.parties import RecordOwnership
from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.rulesets import A1178
from market.services.certificates import halts
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.certificates.returns import NewCreditApplication, apply_to_return
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import accept_offer, create_transfer
from tests.unit.fakes import fake_from_ledger

RULES = A1178
BOSS = Actor("u_authority", AUTHORITY)
MILLION = 100_000_000


def _as(party_id: str) -> Actor:
    return Actor(f"u_{party_id}", PARTICIPANT, party_id)


def _trade(engine: Engine) -> dict[str, Any]:
    """Parties with a stake, digital media certificates over the pool (one queued in
    part), listings, an offer accepted and approved, another accepted and pending, a
    negotiated transfer waiting for the buyer, a notice halting a certificate, the
    bought credit used on a return."""
    ids: dict[str, Any] = {}
    with UnitOfWork(engine) as uow:
        for n, name in enumerate(("seller", "buyer", "owner")):
            new = NewParty(name, f"TX-{n}", "c_corporation", ["CBT", "GIT"])
            ids[name] = register_party(uow, BOSS, new)["id"]
        record_ownership(uow, BOSS, RecordOwnership(ids["seller"], ids["owner"], 2500, 2500))
        certs = [
            issue_certificate(
                uow, BOSS, NewCertificate("DM_CBT", ids["seller"], f, 2014, credit_year=2013), RULES
            )
            for f in (3 * MILLION, 3 * MILLION)
        ]
        ids["certs"] = [c["id"] for c in certs]
        uow.commit()
    seller, buyer = _as(ids["seller"]), _as(ids["buyer"])
    cert = ids["certs"][0]
    with UnitOfWork(engine) as uow:
        ids["sold"] = create_listing(
            uow, seller, CreateListing(cert, MILLION, MILLION * 3 // 4), RULES
        )["id"]
        ids["open"] = create_listing(
            uow, seller, CreateListing(cert, MILLION // 2, MILLION * 3 // 8), RULES
        )["id"]
        offer = make_offer(
            uow, buyer, MakeOffer(ids["sold"], MILLION // 2, MILLION * 3 // 8), RULES
        )
        transfer = accept_offer(uow, seller, offer["id"], RULES)["transfer"]
        approve_transfer(uow, BOSS, transfer["id"], RULES)
        second = make_offer(
            uow, buyer, MakeOffer(ids["sold"], MILLION // 4, MILLION * 3 // 16), RULES
        )
        accept_offer(uow, seller, second["id"], RULES)  # pending the Authority
        waiting = create_transfer(
            uow,
            seller,
            CreateTransfer(cert, ids["buyer"], MILLION // 4, MILLION * 3 // 16, None),
            RULES,
        )
        ids["waiting"] = waiting["id"]
        halts.issue_notice(uow, BOSS, ids["certs"][1], "recapture", "Review")
        uow.commit()
    with UnitOfWork(engine) as uow:
        bought = uow.transfers.get(transfer["id"])
        assert bought is not None
        cert_id = bought["buyer_certificate_id"]
        use = NewCreditApplication(cert_id, "CBT", 2014, MILLION, MILLION // 10)
        apply_to_return(uow, buyer, RULES, use)
        uow.commit()
    return ids


def _with_notices(repos: Repositories, certificate_id: str) -> tuple[Any, Any]:
    row, active = repos.certificates.with_active_notices(certificate_id)
    return (row == repos.certificates.get(certificate_id) and row and row["id"]), active


def _answers(repos: Repositories, ids: dict[str, Any]) -> dict[str, Any]:
    cert = ids["certs"][0]
    children = repos.certificates.children(cert, None, 10)
    return {
        # First: on the database, a transfer not held yet is read with its certificate in
        # one statement.
        "with_certificate": [
            repos.transfers.with_certificate(t) for t in (ids["waiting"], "trf_none")
        ],
        "sold": [repos.listings.sold_cents(i) for i in (ids["sold"], ids["open"])],
        "open": [r.id for r in repos.listings.open_of_certificate(cert)],
        "of_certificates": [r["id"] for r in repos.listings.of_certificates(ids["certs"], "open")],
        "undecided": repos.transfers.undecided_by_listing(cert),
        "promised": repos.transfers.promised(cert),
        "with_notices": [
            _with_notices(repos, c) for c in (cert, ids["certs"][1], children[0].id, "crt_none")
        ],
        "originals": repos.certificates.originals_count("DM_CBT", 2014),
        "children": children,
        "children_after": repos.certificates.children(cert, children[0].issued_seq, 10),
        "ancestry": [repos.certificates.ancestry(c) for c in (cert, children[0].id)],
        "latest_fy": [repos.caps.latest_charged_fiscal_year(b) for b in ("DM_CBT", "BRRAG")],
        "used": repos.caps.used_cents("DM_CBT:2014"),
        "queue": [r.id for r in repos.queue.waiting("DM_CBT")],
        "last_position": [repos.queue.last_position(p) for p in ("DM_CBT", "DM_GIT_FILM_POOL")],
        "stakes": repos.parties.stakes(),
        "owners": repos.parties.owners_of(ids["seller"]),
        "by_tax_id": repos.parties.by_tax_id("TX-1"),
        "pair": [
            repos.parties.load_pair(ids["seller"], ids["buyer"]),
            repos.parties.load_pair(ids["buyer"], "p_unknown"),
        ],
        "notices": [r["id"] for r in repos.notices.active_on_root(ids["certs"][1])],
        "waiting": repos.transfers.get(ids["waiting"]),
        "issued_to": [repos.certificates.has_original_of(ids[p]) for p in ("seller", "buyer")],
        "held": [r["id"] for r in repos.certificates.held_with_balance()],
        "applied": repos.credit_applications.applied_cents(ids["buyer"], "CBT", 2014),
        "uses": repos.credit_applications.positive_uses_by(frozenset({ids["buyer"]})),
    }


def children_id(answers: dict[str, Any]) -> str:
    return str(answers["children"][0].id)


def test_sql_and_memory_repositories_agree_on_the_same_events(engine: Engine) -> None:
    ids = _trade(engine)
    fake = fake_from_ledger(engine)
    with UnitOfWork(engine) as uow:
        live = _answers(uow, ids)
    memory = _answers(fake, ids)
    assert live == memory
    # The scenario reached every branch it means to compare.
    assert live["sold"] == [MILLION // 2, 0]
    assert live["undecided"] == {ids["sold"]: MILLION // 4, None: MILLION // 4}
    assert live["queue"] and live["notices"]
    assert live["promised"].open_listings == {ids["sold"]: MILLION, ids["open"]: MILLION // 2}
    assert live["promised"].sold == {ids["sold"]: MILLION // 2}
    assert live["promised"].undecided == live["undecided"]
    unhalted, halted, child, unknown = live["with_notices"]
    assert unhalted == (ids["certs"][0], []) and child == (children_id(live), [])
    assert halted[0] == ids["certs"][1] and [n[1] for n in halted[1]] == [ids["certs"][1]]
    assert unknown == (None, [])
    (transfer, its_certificate, notices), nothing = live["with_certificate"]
    assert transfer["id"] == ids["waiting"] and notices == []
    assert its_certificate["id"] == transfer["certificate_id"] == ids["certs"][0]
    assert nothing == (None, None, [])
    assert live["children"] and not live["children_after"]
    assert live["issued_to"] == [True, False] and len(live["held"]) == 1
    assert live["applied"] == MILLION // 10 and len(live["uses"]) == 1
    seller, buyer = live["pair"][0]
    assert (seller.id, buyer.id) == (ids["seller"], ids["buyer"]) and live["pair"][1][1] is None
