"""Certificates and their caps, on the stream `certificate-<id>`.

Every certificate is created by one CERT_ISSUED, whichever way it comes: issued by the
Authority (`issued`), given by the TECH allocation (`allocation`), a buyer's by an
approved transfer (`transfer`), an owner's by a pass-through (`pass_through`); all four
are built by `certificate_issued`.

Version 2 of CERT_ISSUED records the certificate's creditable activities (PT-1) as a
field of their own, for all four origins; version 1 kept them in `attributes` (and the
TECH allocation not at all)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import EventError, IsoDate, JsonObject, omitted

ACTIVITY_KEY = "creditable_activity_ids"
Origin = Literal["issued", "allocation", "transfer", "pass_through"]
DERIVED = ("transfer", "pass_through")


@event
class CertificateIssued(DomainEvent):
    """`tax_periods` are plain periods, or for UTH the installments (tranches).
    `creditable_activity_ids` null: not recorded (a version-1 derived certificate), the
    root's apply."""

    TYPE = "CERT_ISSUED"
    VERSION = 2
    certificate_id: str
    number: str
    program: str
    holder_party_id: str
    original_holder_party_id: str
    parent_id: str | None
    root_id: str
    origin: Origin
    is_original: bool
    face_cents: int
    allowed_cents: int
    queued_cents: int
    status: str
    fiscal_year: int
    tax_types: Sequence[str]
    tax_periods: Sequence[Any]
    credit_year: int | None
    carryover_last_year: int | None
    waiver_statement: str
    creditable_activity_ids: Sequence[str] | None
    attributes: JsonObject
    ruleset: str

    @staticmethod
    def upcast_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
        """The activities move out of `attributes` (null where version 1 had none)."""
        attributes = dict(payload["attributes"])
        ids = attributes.pop(ACTIVITY_KEY, None)
        return payload | {"attributes": attributes, ACTIVITY_KEY: ids}

    def projected_attributes(self) -> dict[str, Any]:
        """The certificate row's `attributes`: as version 1 wrote them."""
        ids = self.creditable_activity_ids
        return dict(self.attributes) | ({} if ids is None else {ACTIVITY_KEY: list(ids)})


@dataclass(frozen=True)
class Parent:
    """What a derived certificate takes from the one it comes from."""

    certificate_id: str
    root_id: str
    original_holder_party_id: str

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Parent:
        return cls(str(row["id"]), str(row["root_id"]), str(row["original_holder_party_id"]))


def certificate_issued(
    *,
    certificate_id: str,
    number: str,
    program: str,
    holder_party_id: str,
    origin: Origin,
    face_cents: int,
    fiscal_year: int,
    tax_types: Sequence[str],
    tax_periods: Sequence[Any],
    credit_year: int | None,
    carryover_last_year: int | None,
    waiver_statement: str,
    creditable_activity_ids: Sequence[str],
    attributes: Mapping[str, Any],
    ruleset: str,
    parent: Parent | None = None,
    allowed_cents: int | None = None,
    queued_cents: int = 0,
    status: str = "issued",
) -> CertificateIssued:
    """The one way a CERT_ISSUED is built. An original (no `parent`) is its own root and
    its holder the original holder; a derived one carries its parent's. Usable at once
    (`allowed_cents` = face) unless a pool queues part of it."""
    if (origin in DERIVED) != (parent is not None):
        raise EventError(f"a certificate of origin {origin!r} needs a parent exactly if derived")
    if ACTIVITY_KEY in attributes:
        raise EventError(f"{ACTIVITY_KEY} is a field of CERT_ISSUED, not an attribute")
    return CertificateIssued(
        certificate_id=certificate_id,
        number=number,
        program=program,
        holder_party_id=holder_party_id,
        original_holder_party_id=(
            holder_party_id if parent is None else parent.original_holder_party_id
        ),
        parent_id=None if parent is None else parent.certificate_id,
        root_id=certificate_id if parent is None else parent.root_id,
        origin=origin,
        is_original=parent is None,
        face_cents=face_cents,
        allowed_cents=face_cents if allowed_cents is None else allowed_cents,
        queued_cents=queued_cents,
        status=status,
        fiscal_year=fiscal_year,
        tax_types=list(tax_types),
        tax_periods=list(tax_periods),
        credit_year=credit_year,
        carryover_last_year=carryover_last_year,
        waiver_statement=waiver_statement,
        creditable_activity_ids=list(creditable_activity_ids),
        attributes=dict(attributes),
        ruleset=ruleset,
    )


@event
class CapCharged(DomainEvent):
    """`charges` are {cap_id, bucket, fiscal_year, cap_cents, used_cents, queued_cents}:
    what this certificate adds to each cap row."""

    TYPE = "CAP_CHARGED"
    certificate_id: str
    charges: Sequence[JsonObject]


@event
class QueueDeferred(DomainEvent):
    """DMQ-3: part or all of a digital media certificate waits for a later fiscal year."""

    TYPE = "QUEUE_DEFERRED"
    certificate_id: str
    pool: str
    fiscal_year: int  # the bucket it was deferred from
    cap_id: str
    cap_cents: int
    deferred_cents: int
    received_at: str
    position: int


@event
class QueueAllowed(DomainEvent):
    """DMQ-3: cents of a digital media certificate become usable, charged to
    `fiscal_year`; `status` is the certificate's afterwards. Only when `from_queue`
    (allowed by a roll): `queued_cap_id` (where the deferral was counted),
    `remaining_cents` (left queued) and `effective_date`."""

    TYPE = "QUEUE_ALLOWED"
    certificate_id: str
    pool: str
    fiscal_year: int
    cap_id: str
    cap_cents: int
    allowed_cents: int
    status: str
    from_queue: bool
    queued_cap_id: str | None = omitted(None)
    remaining_cents: int | None = omitted(None)
    effective_date: IsoDate | None = omitted(None)
