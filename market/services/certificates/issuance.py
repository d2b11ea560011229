"""What issuing a certificate records: the CERT_ISSUED it appends (a cap or a pool may
still change it before it is appended) and the cap charges that follow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from market.domain.events.certificates import CertificateIssued, certificate_issued
from market.domain.rules.buckets import bucket_cap_cents, cap_id
from market.domain.rulesets import Ruleset


class CapCharge(TypedDict):
    """What a certificate adds to one cap row (CAP_CHARGED)."""

    cap_id: str
    bucket: str
    fiscal_year: int
    cap_cents: int
    used_cents: int
    queued_cents: int


def charge(bucket: str, fiscal_year: int, used_cents: int, ruleset: Ruleset) -> CapCharge:
    return CapCharge(
        cap_id=cap_id(bucket, fiscal_year),
        bucket=bucket,
        fiscal_year=fiscal_year,
        cap_cents=bucket_cap_cents(bucket, ruleset),
        used_cents=used_cents,
        queued_cents=0,
    )


@dataclass(frozen=True)
class Issuance:
    """An original certificate about to be issued (origin `issued`), as
    `certificate_issued` takes it."""

    certificate_id: str
    number: str
    program: str
    holder_party_id: str
    face_cents: int
    fiscal_year: int
    tax_types: list[str]
    tax_periods: list[Any]  # period numbers; a UTH certificate's are its installments
    credit_year: int | None
    carryover_last_year: int | None
    waiver_statement: str
    creditable_activity_ids: list[str]
    attributes: Mapping[str, Any]
    ruleset: str
    allowed_cents: int | None = None  # None: the face, usable at once
    queued_cents: int = 0
    status: str = "issued"

    @property
    def stream(self) -> str:
        return f"certificate-{self.certificate_id}"

    def event(self) -> CertificateIssued:
        return certificate_issued(
            certificate_id=self.certificate_id,
            number=self.number,
            program=self.program,
            holder_party_id=self.holder_party_id,
            origin="issued",
            face_cents=self.face_cents,
            fiscal_year=self.fiscal_year,
            tax_types=self.tax_types,
            tax_periods=self.tax_periods,
            credit_year=self.credit_year,
            carryover_last_year=self.carryover_last_year,
            waiver_statement=self.waiver_statement,
            creditable_activity_ids=self.creditable_activity_ids,
            attributes=self.attributes,
            ruleset=self.ruleset,
            allowed_cents=self.allowed_cents,
            queued_cents=self.queued_cents,
            status=self.status,
        )
