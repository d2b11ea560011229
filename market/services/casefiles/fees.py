"""Fees owed to the Authority (ADM-1..ADM-4): invoiced when their step happens, paid as the
Authority records payments, credited as ADM-2 says; a step that needs a fee paid is
refused (`fees_unpaid`) until it is."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.casefile_errors import FeesUnpaidError, OverpaymentError
from market.domain.commands.casefiles import InvoiceFee, RecordFeePayment
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import FeeInvoiced, FeePaymentRecorded
from market.domain.model.case_file import Fee, FeeView
from market.domain.rules import adm_fees
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.clock import now_utc, today
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork

METHODS = ("check", "ach", "wire", "card", "other")


def view(fee: Fee) -> FeeView:
    amount, credited, paid = fee["amount_cents"], fee["credited_cents"], fee["paid_cents"]
    return {
        **fee,
        "due_cents": adm_fees.due_cents(amount, credited, paid),
        "status": adm_fees.status(amount, credited, paid),
    }


def _load(source: Source, fee_id: str) -> FeeView:
    fee = repositories(source).fees.load(fee_id)
    if fee is None:
        raise not_found("Fee", "fee_id", fee_id)
    return view(fee)


def invoice(
    uow: AbstractUnitOfWork, actor: Actor, command: InvoiceFee, ruleset: Ruleset
) -> FeeView:
    """Invoice the step once: a fee of this kind already made for the subject stands."""
    party_id, subject_id, bill = command.party_id, command.subject_id, command.bill
    for row in uow.fees.of_subject(subject_id):
        if row["kind"] == bill.kind:
            return view(row)
    fee_id = new_id("fee")
    uow.append(
        f"fee-{fee_id}",
        FeeInvoiced(
            fee_id=fee_id,
            party_id=party_id,
            kind=bill.kind,
            program=bill.program,
            subject_id=subject_id,
            amount_cents=bill.amount_cents,
            credited_cents=bill.credited_cents,
            reason=bill.reason,
            invoiced_on=today().isoformat(),
            ruleset=ruleset.name,
        ),
        actor.label,
        new_stream=True,
    )
    return _load(uow, fee_id)


def record_payment(uow: AbstractUnitOfWork, actor: Actor, command: RecordFeePayment) -> FeeView:
    fee_id, amount_cents, method, reference, received_on = (
        command.fee_id,
        command.amount_cents,
        command.method,
        command.reference,
        command.received_on,
    )
    actor.require(AUTHORITY)
    fee = _load(uow, fee_id)
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    if method not in METHODS:
        raise InvalidRequestError(
            f"method must be one of {', '.join(METHODS)}.", {"method": method}
        )
    if not reference.strip():
        raise InvalidRequestError("reference is required.", {"reference": reference})
    if received_on > today():
        raise InvalidRequestError(
            "A payment cannot be received in the future.", {"received_on": received_on.isoformat()}
        )
    if amount_cents > fee["due_cents"]:
        raise OverpaymentError(
            f"The fee owes {fee['due_cents']} cents; a payment of {amount_cents} is more.",
            {"due_cents": fee["due_cents"], "amount_cents": amount_cents, "fee_id": fee_id},
        )
    uow.append(
        f"fee-{fee_id}",
        FeePaymentRecorded(
            fee_id=fee_id,
            payment_id=new_id("fpay"),
            party_id=fee["party_id"],
            amount_cents=amount_cents,
            method=method,
            reference=reference.strip()[:200],
            received_on=received_on.isoformat(),
            recorded_at=now_utc().isoformat(timespec="seconds"),
        ),
        actor.label,
    )
    return _load(uow, fee_id)


def list_fees(source: Source, actor: Actor, party_id: str | None) -> list[FeeView]:
    """What a party owes and why; a participant sees only its own."""
    if actor.role not in (AUTHORITY, AUDITOR):
        party_id = actor.party_id or ""
    repos = repositories(source)
    rows = repos.fees.every() if party_id is None else repos.fees.of_party(party_id)
    return [view(r) for r in rows]


def unpaid(
    source: Source, subject_ids: Sequence[str], kinds: Sequence[str] | None = None
) -> list[FeeView]:
    found = []
    for subject_id in subject_ids:
        for row in repositories(source).fees.of_subject(subject_id):
            fee = view(row)
            if (kinds is None or fee["kind"] in kinds) and fee["due_cents"] > 0:
                found.append(fee)
    return found


def require_paid(
    source: Source, subject_ids: Sequence[str], step: str, kinds: Sequence[str] | None = None
) -> None:
    """ADM-4: refuse the step while a fee it needs still owes money."""
    owed = unpaid(source, subject_ids, kinds)
    if owed:
        raise FeesUnpaidError(
            f"{step} needs these fees paid first: "
            + ", ".join(f"{f['kind']} ({f['due_cents']} cents due)" for f in owed)
            + ".",
            {"fee_ids": [f["id"] for f in owed], "due_cents": sum(f["due_cents"] for f in owed)},
        )


def paid_cents(source: Source, subject_id: str, kind: str) -> int:
    for row in repositories(source).fees.of_subject(subject_id):
        if row["kind"] == kind:
            return row["paid_cents"]
    return 0
