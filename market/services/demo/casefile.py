"""The demo's case files (RULES.md section 7), where the ADM rules are in force on its
business date: each seller's tax clearance, the TECH sales' selling agreements and the
fees paid before the approvals; one TECH application taken through every step, one left
at intake with part of its package; and a BRRAG Board action inside the Governor's 10
working days."""

from __future__ import annotations

from datetime import date, timedelta
from functools import partial
from typing import Any

from market.adapters.document_store import DocumentStore
from market.adapters.repositories.casefiles import application_on_file, transfer_on_file
from market.adapters.repositories.models import transfer_of
from market.domain.commands.casefiles import (
    RecordBoardAction,
    RecordClearance,
    RecordFeePayment,
    RecordTaxCertificate,
)
from market.domain.errors import DomainError
from market.domain.rules import adm_checklist
from market.services.casefiles import (
    board_actions,
    checklists,
    clearances,
    documents,
    fees,
    gates,
    tech_steps,
    working_days,
)
from market.services.demo.context import EDA, MILLION, Seeding
from market.services.kernel import clock, reads
from market.services.kernel.reads import repositories
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.tech import tech
from market.services.trading import trading

DAYS_BACK = 85  # the demo's sales go back 80 days: one certificate covers them all


def _pdf(title: str) -> bytes:
    return f"%PDF-1.4\n% {title}\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".encode()


def _store(s: Seeding) -> DocumentStore:
    return s.store or DocumentStore("instance/documents")


def _cleared(s: Seeding, party_id: str, program: str, on: date | None = None) -> None:
    """A clearance issued `on` (else DAYS_BACK before the demo's day) unless a later one is
    recorded: each covers the steps of its 90 days (ADM-11)."""
    issued = on or s.dates.today - timedelta(days=DAYS_BACK)

    def run(uow: UnitOfWork) -> None:
        found = clearances.latest(uow, party_id, program)
        if found is None or str(found["issued_on"]) < issued.isoformat():
            number = f"DEMO-TCC-{program}-{party_id[-6:]}-{issued.isoformat()}"
            clearances.record_clearance(
                uow, EDA, s.ruleset, RecordClearance(party_id, number, issued, program)
            )

    s.do(run)


def _file(s: Seeding, subject_type: str, subject_id: str, kind: str) -> None:
    new = documents.NewDocument(
        kind, subject_type, subject_id, f"{kind}.pdf", _pdf(f"{kind} {subject_id}")
    )
    s.do(lambda uow: documents.file_document(uow, EDA, _store(s), new))


def _pay_all(s: Seeding, subject_id: str, on: date | None = None) -> None:
    with ReadOnly(s.engine) as conn:
        owed = fees.unpaid(conn, [subject_id])
    for fee in owed:
        payment = RecordFeePayment(
            str(fee["id"]),
            fee["due_cents"],
            "check",
            f"DEMO-{str(fee['id'])[-6:]}",
            on or s.dates.today,
        )
        s.do(partial(_pay, payment=payment))


def _pay(uow: UnitOfWork, payment: RecordFeePayment) -> None:
    fees.record_payment(uow, EDA, payment)


def _board_approved(s: Seeding, transfer_id: str, on: date) -> None:
    """ADM-9: the Board's approval of this sale, in effect by closing (one per sale)."""
    with ReadOnly(s.engine) as conn:
        row = trading.load_transfer(conn, transfer_id)
        try:
            gates.check_board_approval(conn, transfer_of(row), s.ruleset, on)
            return
        except DomainError:
            pass
    sale = transfer_of(row)
    _board_approval(s, sale.seller_party_id, sale.amount_cents, on - timedelta(days=30))


def _board_approval(s: Seeding, party_id: str, amount: int, received: date) -> None:
    """The Board's approval, met 2 days before the Governor received the minutes."""
    s.do(
        lambda uow: board_actions.record_board_action(
            uow,
            EDA,
            s.ruleset,
            RecordBoardAction(
                party_id,
                "approve",
                amount,
                received - timedelta(days=40),
                received - timedelta(days=2),
                received,
                ["A statement dated the day of closing"],
            ),
        )
    )


def prepare_closing(s: Seeding, transfer_id: str, on: Any) -> None:
    """What a sale's final approval needs (ADM-8, ADM-12), where the rules are in force."""
    if not s.ruleset.adm_in_force(on):
        return
    with ReadOnly(s.engine) as conn:
        t = trading.load_transfer(conn, transfer_id)
        items = checklists.transfer_items(conn, transfer_on_file(t), s.ruleset)
    _cleared(s, str(t["seller_party_id"]), str(t["program"]))
    if t["program"] == "BRRAG":
        _board_approved(s, transfer_id, on)
    for kind in adm_checklist.missing(items, (adm_checklist.FINAL,)):
        _file(s, "transfer", transfer_id, kind)
    _pay_all(s, transfer_id)
    with ReadOnly(s.engine) as conn:
        cert = reads.certificate(conn, str(t["certificate_id"]))
        app = repositories(conn).tech_applications.of_certificate(
            str(cert.get("root_id") or cert["id"])
        )
    if app is not None:
        _pay_all(s, str(app["id"]))  # ADM-1, ADM-2: the application's fees before closing


def filed_in_time(s: Seeding, new: tech.NewTechApplication, on: date) -> None:
    """A past fiscal year's application received `on`, before its June 30 lock, and where
    the ADM rules are in force taken that day through ADM-5..ADM-8: its package, fee and
    clearance, submitted (so the year's allocation takes it, ADM-6), approved with
    conditions, forwarded and valued by Taxation (so its certificate's sales may close,
    ADM-8). The business date is `on` meanwhile."""
    before = clock.today() if clock.is_fixed() else None
    clock.configure(on)
    try:
        app = s.do(partial(tech.submit_application, actor=EDA, ruleset=s.ruleset, new=new))
        if s.ruleset.adm_in_force(on):
            _through_valuation(s, str(app["id"]), str(app["party_id"]), on)
    finally:
        clock.configure(before)


def _through_valuation(s: Seeding, app_id: str, party_id: str, on: date) -> None:
    for kind in _missing(s, app_id, adm_checklist.SUBMISSION):
        _file(s, "tech_application", app_id, kind)
    _pay_all(s, app_id, on)
    _cleared(s, party_id, "TECH", on)
    s.do(lambda uow: tech_steps.submit(uow, EDA, app_id))
    conditions = ["A statement dated the day of closing"]
    s.do(lambda uow: tech_steps.preliminary_approval(uow, EDA, app_id, conditions))
    for kind in _missing(s, app_id, adm_checklist.PRELIMINARY):
        _file(s, "tech_application", app_id, kind)
    s.do(lambda uow: tech_steps.forward(uow, EDA, app_id))
    with ReadOnly(s.engine) as conn:
        benefit = int(tech.load_application(conn, app_id)["benefit_cents"])
    number = f"DEMO-TAX-{app_id[-6:]}"
    s.do(
        lambda uow: tech_steps.tax_certificate(
            uow, EDA, RecordTaxCertificate(app_id, benefit, number, on)
        )
    )


def _missing(s: Seeding, app_id: str, stage: str) -> list[str]:
    with ReadOnly(s.engine) as conn:
        app = tech.load_application(conn, app_id)
        return adm_checklist.missing(
            checklists.tech_items(conn, application_on_file(app), s.ruleset), (stage,)
        )


def showcase(s: Seeding) -> None:
    """One TECH application through every step; one at intake; a BRRAG Board action."""
    if not s.ruleset.adm_in_force(s.dates.today):
        return
    with ReadOnly(s.engine) as conn:
        intake = tech.list_applications(conn, EDA, s.dates.fiscal_year, None)
    if len(intake) >= 2:
        done, waiting = intake[0], intake[1]
        app_id, party_id = str(done["id"]), str(done["party_id"])
        for kind in _missing(s, app_id, adm_checklist.SUBMISSION):
            _file(s, "tech_application", app_id, kind)
        _pay_all(s, app_id)
        _cleared(s, party_id, "TECH")
        s.do(lambda uow: tech_steps.submit(uow, EDA, app_id))
        conditions = ["A statement dated the day of closing", "Proof of NJ headquarters"]
        s.do(lambda uow: tech_steps.preliminary_approval(uow, EDA, app_id, conditions))
        for kind in _missing(s, app_id, adm_checklist.PRELIMINARY):
            _file(s, "tech_application", app_id, kind)
        s.do(lambda uow: tech_steps.forward(uow, EDA, app_id))
        benefit, number = done["benefit_cents"], f"DEMO-TAX-{app_id[-6:]}"
        s.do(
            lambda uow: tech_steps.tax_certificate(
                uow, EDA, RecordTaxCertificate(app_id, benefit, number, s.dates.today)
            )
        )
        _file(s, "tech_application", str(waiting["id"]), "business_plan")
        s.say("TECH case files: one valued by Taxation, one at intake with its business plan")
    received = s.dates.today
    while not working_days.is_working_day(received - timedelta(days=1)):
        received -= timedelta(days=1)
    received -= timedelta(days=1)
    party_id = s.ids.get("utility") or next(iter(s.ids.values()))
    _board_approval(s, party_id, 2 * MILLION, received)
    s.say(f"a BRRAG Board action awaits the Governor (minutes received {received.isoformat()})")
