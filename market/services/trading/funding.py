"""The closing record of a transfer (PRODUCT.md 8.3): the buyer records its payment
(reference, amount, date), the seller confirms receipt; with ruleset
`approval_requires_funding` an approval waits for the confirmed receipt of the whole
consideration; a transfer rejected after a payment was recorded records the refund owed.

Events on stream `funding-<transfer id>`: TRANSFER_PAYMENT_RECORDED,
TRANSFER_RECEIPT_CONFIRMED and TRANSFER_REFUND_OWED, each naming both parties."""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from market.adapters.repositories.models import transfer_of
from market.adapters.repositories.trading_models import FundingRow, TransferRow, funding_row
from market.domain.commands.trading import RecordPayment
from market.domain.errors import FundingNotConfirmedError, InvalidRequestError
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)
from market.domain.model import Transfer, TransferStatus
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents
from market.services.kernel import clock
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import (
    ConflictError,
    NoPaymentRecordedError,
    PaymentAlreadyRecordedError,
    ReceiptAlreadyConfirmedError,
    not_found,
)
from market.services.kernel.reads import Connection, Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading.trade_views import load_transfer, load_transfer_for

MAX_REFERENCE = 200


class Payment(TypedDict):
    reference: str
    amount_cents: int
    paid_on: str
    confirmed_on: str | None


class FundingView(TypedDict):
    transfer_id: str
    transfer_status: str
    consideration_cents: int
    payment: Payment | None
    status: str
    funded: bool
    outstanding_cents: int
    refund_owed_cents: int


def load_funding(source: Source, transfer_id: str) -> FundingRow | None:
    row = repositories(source).fundings.get(transfer_id)
    return None if row is None else funding_row(row)


def funding_view(source: Source, transfer: TransferRow) -> FundingView:
    """The closing record of a transfer as the pages and the API show it."""
    return _view(source, transfer_of(transfer))


def _view(source: Source, transfer: Transfer) -> FundingView:
    f = load_funding(source, transfer.id)
    paid = f["amount_cents"] if f else 0
    consideration = transfer.consideration_cents
    return {
        "transfer_id": transfer.id,
        "transfer_status": transfer.status.value,
        "consideration_cents": consideration,
        "payment": None
        if f is None
        else {
            "reference": f["reference"],
            "amount_cents": paid,
            "paid_on": f["paid_on"],
            "confirmed_on": f["confirmed_on"],
        },
        "status": "unpaid" if f is None else ("received" if f["confirmed_on"] else "paid"),
        "funded": bool(f and f["confirmed_on"] and paid >= consideration),
        "outstanding_cents": max(0, consideration - paid),
        "refund_owed_cents": f["refund_owed_cents"] if f else 0,
    }


def get_funding(conn: Connection, actor: Actor, transfer_id: str) -> FundingView:
    t = load_transfer(conn, transfer_id)
    if actor.role not in (AUTHORITY, AUDITOR) and actor.party_id not in (
        t["seller_party_id"],
        t["buyer_party_id"],
    ):
        # Another party's transfer answers as if it did not exist (no existence oracle).
        raise not_found("Transfer", "transfer_id", transfer_id)
    return funding_view(conn, t)


def _parties(t: Transfer) -> dict[str, str]:
    return {"buyer_party_id": t.buyer_party_id, "seller_party_id": t.seller_party_id}


def record_payment(uow: AbstractUnitOfWork, actor: Actor, command: RecordPayment) -> FundingView:
    transfer_id, amount_cents, paid_on = command.transfer_id, command.amount_cents, command.paid_on
    t = load_transfer_for(uow, actor, transfer_id)
    actor.require_party(t.buyer_party_id)
    ref = (command.reference or "").strip()
    if not ref or len(ref) > MAX_REFERENCE or amount_cents <= 0:
        raise InvalidRequestError(
            f"A payment needs a reference of 1 to {MAX_REFERENCE} characters and a positive "
            "amount.",
            {"amount_cents": amount_cents},
        )
    if paid_on > clock.today():
        raise InvalidRequestError(
            f"A payment cannot be dated after today ({clock.today().isoformat()}).",
            {"paid_on": paid_on.isoformat()},
        )
    if t.status is TransferStatus.REJECTED:
        raise ConflictError(f"Transfer {transfer_id} was rejected.", {"status": "rejected"})
    if load_funding(uow, transfer_id) is not None:
        raise PaymentAlreadyRecordedError(
            f"A payment for transfer {transfer_id} is already recorded.",
            {"transfer_id": transfer_id},
        )
    uow.append(
        f"funding-{transfer_id}",
        TransferPaymentRecorded(
            transfer_id=transfer_id,
            reference=ref,
            amount_cents=amount_cents,
            paid_on=paid_on.isoformat(),
            **_parties(t),
        ),
        actor.label,
        new_stream=True,
    )
    return _view(uow, t)


def confirm_receipt(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, received_on: date | None
) -> FundingView:
    t = load_transfer_for(uow, actor, transfer_id)
    actor.require_party(t.seller_party_id)
    actor.require_signer()  # attesting receipt takes an owner (issue 29)
    f = load_funding(uow, transfer_id)
    if f is None:
        raise NoPaymentRecordedError(
            "The buyer has not recorded a payment yet.", {"transfer_id": transfer_id}
        )
    if f["confirmed_on"]:
        raise ReceiptAlreadyConfirmedError(
            f"Receipt was already confirmed on {f['confirmed_on']}.", {"transfer_id": transfer_id}
        )
    on = received_on or clock.today()
    if on > clock.today() or on.isoformat() < f["paid_on"]:
        raise InvalidRequestError(
            "Receipt is dated between the payment and today.", {"received_on": on.isoformat()}
        )
    uow.append(
        f"funding-{transfer_id}",
        TransferReceiptConfirmed(
            transfer_id=transfer_id,
            confirmed_on=on.isoformat(),
            amount_cents=f["amount_cents"],
            **_parties(t),
        ),
        actor.label,
    )
    return _view(uow, t)


def check_funded(source: Source, transfer: Transfer, ruleset: Ruleset) -> None:
    """With `approval_requires_funding`, refuse approval (422 `funding_not_confirmed`)
    until the seller confirmed receipt of the whole consideration."""
    if not ruleset.approval_requires_funding:
        return
    view = _view(source, transfer)
    if not view["funded"]:
        raise FundingNotConfirmedError(
            f"Ruleset {ruleset.name} approves a transfer only once the seller confirms "
            f"receipt of the consideration of {format_cents(view['consideration_cents'])}; "
            f"the closing record is {view['status']}.",
            {"transfer_id": transfer.id, "funding_status": view["status"]},
        )


def note_refund_owed(uow: AbstractUnitOfWork, actor: Actor, transfer_id: str) -> None:
    """On rejection: a recorded payment is owed back to the buyer in full."""
    f = load_funding(uow, transfer_id)
    if f is None:
        return
    uow.append(
        f"funding-{transfer_id}",
        TransferRefundOwed(
            transfer_id=transfer_id,
            refund_owed_cents=f["amount_cents"],
            buyer_party_id=f["buyer_party_id"],
            seller_party_id=f["seller_party_id"],
        ),
        actor.label,
    )
