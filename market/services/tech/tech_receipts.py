"""The receipt of a TECH application (TB-6, CMN-1; PRODUCT.md 8.2).

The service stamps `received_at` when an application arrives (the business date at the
real New York time of day, `clock.now_business`). Only the Authority may send
`received_on` (a date, or a date-time in New York time) for a paper filing, together
with `receipt_reason`; it is recorded as its own event, TECH_RECEIPT_RECORDED, after the
application's TECH_APPLICATION_RECEIVED. From a participant `received_on` is refused 400.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TypedDict

from market.domain.errors import InvalidRequestError
from market.domain.events.tech import TechReceiptRecorded
from market.domain.model.tech_application import TechApplication
from market.domain.rules import tech_receipt
from market.services.kernel import clock
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import (
    ReceiptReasonWithoutReceivedOnError,
    ReceivedOnNotAllowedError,
    ValidationFailedError,
)
from market.services.kernel.uow import AbstractUnitOfWork


class ReceiptFields(TypedDict):
    """What TECH_APPLICATION_RECEIVED carries about its receipt."""

    received_on: str
    received_at: str
    receipt: str


@dataclass(frozen=True)
class Receipt:
    at: datetime  # New York time
    reason: str | None  # set when the Authority recorded a paper filing's receipt

    @property
    def day(self) -> date:
        return tech_receipt.receipt_day(self.at)

    def payload(self) -> ReceiptFields:
        """The fields TECH_APPLICATION_RECEIVED carries about its receipt."""
        return {
            "received_on": self.day.isoformat(),
            "received_at": self.at.isoformat(),
            "receipt": "recorded" if self.reason is not None else "stamped",
        }


def _as_instant(value: date | datetime | str) -> datetime:
    text = value if isinstance(value, str) else value.isoformat()
    try:
        return tech_receipt.parse_receipt(text)
    except InvalidRequestError as exc:
        raise ValidationFailedError(exc.message, exc.details) from None


def receipt_of(
    actor: Actor, received_on: date | datetime | str | None, reason: str | None
) -> Receipt:
    """The application's receipt: stamped now, or the Authority's record of a paper one."""
    if received_on is None:
        if reason is not None:
            raise ReceiptReasonWithoutReceivedOnError(
                "receipt_reason goes with a received_on the Authority records for a paper "
                "filing; without one the service stamps the receipt (TB-6).",
                {},
            )
        return Receipt(clock.now_business(), None)
    if actor.role != AUTHORITY:
        raise ReceivedOnNotAllowedError(
            "The service stamps the moment an application is received; only the Authority "
            "may record a paper filing's receipt (TB-6). Send the application without "
            "received_on.",
            {"received_on": str(received_on)},
        )
    at = _as_instant(received_on)
    kept = tech_receipt.check_recorded_receipt(at, clock.now_business(), reason)
    return Receipt(at, kept)


def record_receipt(
    uow: AbstractUnitOfWork, actor: Actor, application_id: str, receipt: Receipt
) -> None:
    """TECH_RECEIPT_RECORDED, for a receipt the Authority recorded (nothing otherwise)."""
    if receipt.reason is None:
        return
    uow.append(
        TechApplication.stream_of(application_id),
        TechReceiptRecorded(
            application_id=application_id,
            received_on=receipt.day.isoformat(),
            received_at=receipt.at.isoformat(),
            receipt_reason=receipt.reason,
            recorded_at=clock.now_utc().isoformat(),
        ),
        actor.label,
    )
