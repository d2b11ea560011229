"""ADM-3 at the UTH steps this service takes, where the ADM rules are in force on the
business date (the fees' rows and their gate are `fees`):

- issuing the UTH certificate (the award approved, its certificate made): the 0.5% fee
  at approval (`uth_approval`) and the 0.5% before the certificate is received
  (`uth_certificate`), each of the face and at most $300,000, to the holder against the
  certificate; the award's sales wait until both are paid (`gates`);
- each annual review of one of its tax periods: $2,500 (`uth_annual_review`), once per
  period, against `<certificate>:<period>`;
- proposing a transfer: the $2,500 transfer certificate application fee (`gates`).

The $5,000 application fee has no step here: a UTH application is decided before its
certificate is issued in this service, so its fee is paid to the Authority on paper.
Issuance and review go through this module (the API and the pages call it), as the
certificates context sits below the case files'."""

from __future__ import annotations

from typing import Any

from market.domain.commands.casefiles import InvoiceFee
from market.domain.commands.certificates import RecordUthReview
from market.domain.programs import Program
from market.domain.rules import adm_fees
from market.domain.rulesets import Ruleset
from market.services.casefiles import fees
from market.services.certificates import certificates, uth_reviews
from market.services.kernel.actor import Actor
from market.services.kernel.clock import today
from market.services.kernel.uow import AbstractUnitOfWork


def issue_certificate(
    uow: AbstractUnitOfWork, actor: Actor, new: certificates.NewCertificate, ruleset: Ruleset
) -> dict[str, Any]:
    cert = certificates.issue_certificate(uow, actor, new, ruleset)
    if cert["program"] == Program.UTH.value and ruleset.adm_in_force(today()):
        face: int = cert["face_cents"]  # the certificate's row: integer cents
        holder = str(cert["holder_party_id"])
        for kind in (adm_fees.UTH_APPROVAL, adm_fees.UTH_CERTIFICATE):
            bill = adm_fees.uth_percentage_fee(kind, face, ruleset)
            fees.invoice(uow, actor, InvoiceFee(holder, str(cert["id"]), bill), ruleset)
    return cert


def record_review(
    uow: AbstractUnitOfWork, actor: Actor, command: RecordUthReview, ruleset: Ruleset
) -> dict[str, Any]:
    reviewed = uth_reviews.record_review(uow, actor, command, ruleset)
    certificate_id, tax_period = command.certificate_id, command.tax_period
    if ruleset.adm_in_force(today()):
        bill = adm_fees.uth_flat_fee(adm_fees.UTH_ANNUAL_REVIEW, ruleset)
        holder = str(reviewed["original_holder_party_id"])
        fees.invoice(
            uow, actor, InvoiceFee(holder, f"{certificate_id}:{tax_period}", bill), ruleset
        )
    return reviewed
