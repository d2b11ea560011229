"""Recapture assessments and the fund they go to (CMN-9, BR-13, DMG-10, DMC-12, TB-40,
AMB-10, AMB-26, AMB-46)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TypedDict

from market.adapters.repositories.models import transfer_of
from market.domain.errors import InvalidRequestError
from market.domain.events.returns import RecaptureAssessed
from market.domain.model import Certificate, Party, TransferStatus
from market.domain.programs import Program, TaxType
from market.domain.rules.certificate_status import certificate_status
from market.domain.rules.recapture import (
    check_assessed_on_the_business,
    check_fund_tax_type,
    check_hq_recapture,
    recapture_fund,
)
from market.services.certificates.certificate_views import certificate_record, party_record
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.clock import today
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.reads import transfer as load_transfer
from market.services.kernel.uow import AbstractUnitOfWork


@dataclass(frozen=True)
class NewRecapture:
    party_id: str
    amount_cents: int
    reason: str
    certificate_id: str | None = None
    tax_type: str | None = None
    program: str | None = None
    transfer_id: str | None = None
    basis: str = "other"  # hq_not_maintained | proceeds_misused | other
    occurred_on: date | None = None
    liquidation: bool = False


BASES = ("hq_not_maintained", "proceeds_misused", "other")


class RecaptureRecord(TypedDict):
    """A `recaptures` row."""

    id: str
    party_id: str
    certificate_id: str | None
    amount_cents: int
    fund: str
    reason: str
    assessed_seq: int


class AssessedRecapture(RecaptureRecord):
    """The answer to an assessment: the row and what the assessment decided."""

    recaptured_from_balance_cents: int
    program: str
    tax_type: str
    transfer_id: str | None
    basis: str
    hq_window_end: str | None


def _check_transfer(source: Source, new: NewRecapture, party: Party) -> str | None:
    """TB-40: a TECH recapture is assessed against the seller, per transfer; for a
    headquarters failure the transfer's own 5-year window must still be open. Answers the
    end of the named transfer's headquarters window, if it has one."""
    if new.basis not in BASES:
        raise InvalidRequestError(f"basis must be one of {', '.join(BASES)}.", {})
    row = load_transfer(source, new.transfer_id) if new.transfer_id else None
    transfer = None if row is None else transfer_of(row)
    if transfer is not None and transfer.buyer_party_id == party.id:
        # BR-13, AMB-10, TB-40: the same refusal as naming a buyer's certificate.
        check_assessed_on_the_business(party.id, transfer.seller_party_id, None)
    if transfer is not None and (
        transfer.status is not TransferStatus.APPROVED or transfer.seller_party_id != party.id
    ):
        raise InvalidRequestError(
            "A recapture names an approved transfer by the party assessed (the seller pays).",
            {"transfer_id": transfer.id},
        )
    hq_window_end: str | None = None if row is None else row["hq_window_end"]
    if new.basis == "hq_not_maintained":
        if transfer is None or not hq_window_end:
            raise InvalidRequestError(
                "A headquarters recapture names the approved TECH transfer whose window it "
                "falls in (transfer_id).",
                {},
            )
        check_hq_recapture(
            date.fromisoformat(hq_window_end), new.occurred_on or today(), new.liquidation
        )
    return hq_window_end


def _regime(party: Party, cert: Certificate | None, asked: str | None) -> TaxType:
    """The tax side the fund follows: as given, else a TECH seller's regime, else the
    party's (CBT when it files CBT, GIT when it files only GIT)."""
    if asked is not None:
        check_fund_tax_type(TaxType(asked), sorted(party.tax_types))
        return TaxType(asked)
    if cert is not None and cert.attributes.get("seller_tax_regime"):
        return TaxType(cert.attributes["seller_tax_regime"])
    types = party.tax_types
    if "CBT" in types or not types:
        return TaxType.CBT
    return TaxType.GIT if "GIT" in types else TaxType.IPT


def _program(cert: Certificate | None, asked: str | None) -> Program:
    """The certificate's program, else the one asked (BRRAG when none is)."""
    if cert is not None:
        return cert.program
    try:
        return Program(asked or Program.BRRAG.value)
    except ValueError:
        raise InvalidRequestError(f"Unknown program {asked!r}.", {}) from None


def _from_balance(cert: Certificate | None, amount_cents: int) -> tuple[int, str | None]:
    """What the recapture takes from the certificate's usable balance, and its status
    afterwards (`recaptured` when that empties it)."""
    if cert is None:
        return 0, None
    from_balance = min(cert.balance_cents, amount_cents)
    after = cert.balance_cents - from_balance
    if after == 0 and cert.queued_cents == 0 and from_balance > 0:
        return from_balance, "recaptured"
    return from_balance, certificate_status(cert.allowed_cents, after, cert.queued_cents)


def assess_recapture(uow: AbstractUnitOfWork, actor: Actor, new: NewRecapture) -> AssessedRecapture:
    """RECAPTURE_ASSESSED; with a certificate, up to the amount leaves its usable balance."""
    actor.require(AUTHORITY)
    party = party_record(uow, new.party_id)
    if new.amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {})
    hq_window_end = _check_transfer(uow, new, party)
    cert = None
    if new.certificate_id is not None:
        cert = certificate_record(uow, new.certificate_id)
        check_assessed_on_the_business(party.id, cert.original_holder_party_id, cert.is_original)
    else:
        issued_to = party.id if uow.certificates.has_original_of(party.id) else None
        check_assessed_on_the_business(party.id, issued_to, None)
    program = _program(cert, new.program)
    try:
        regime = _regime(party, cert, new.tax_type)
    except ValueError:
        raise InvalidRequestError("tax_type must be CBT, GIT or IPT.", {}) from None
    fund = recapture_fund(program, regime)
    from_balance, status = _from_balance(cert, new.amount_cents)
    recapture_id = new_id("rcp")
    assessed = RecaptureAssessed(
        recapture_id=recapture_id,
        party_id=party.id,
        certificate_id=new.certificate_id,
        program=program.value,
        tax_type=regime.value,
        amount_cents=new.amount_cents,
        recaptured_from_balance_cents=from_balance,
        fund=fund,
        reason=new.reason,
        certificate_status=status,
        transfer_id=new.transfer_id,
        basis=new.basis,
        occurred_on=new.occurred_on.isoformat() if new.occurred_on else None,
        hq_window_end=hq_window_end,
    )
    uow.append(f"recapture-{recapture_id}", assessed, actor.label, new_stream=True)
    return AssessedRecapture(
        **recapture_view(uow, recapture_id),
        recaptured_from_balance_cents=from_balance,
        program=program.value,
        tax_type=regime.value,
        transfer_id=new.transfer_id,
        basis=new.basis,
        hq_window_end=assessed.hq_window_end,
    )


def recapture_view(source: Source, recapture_id: str) -> RecaptureRecord:
    row = repositories(source).recaptures.get(recapture_id)
    if row is None:
        raise LookupError(f"recaptures {recapture_id} was not projected")
    return RecaptureRecord(
        id=row["id"],
        party_id=row["party_id"],
        certificate_id=row["certificate_id"],
        amount_cents=row["amount_cents"],
        fund=row["fund"],
        reason=row["reason"],
        assessed_seq=row["assessed_seq"],
    )
