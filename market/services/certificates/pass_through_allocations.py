"""GIT pass-through: a pass-through entity allocating a certificate's credit to its owners
(PT-1..PT-7, AMB-52/54).
"""

from __future__ import annotations

from typing import TypedDict

from market.adapters.repositories.models import certificate_of
from market.domain.errors import (
    InsufficientBalanceError,
    InvalidRequestError,
    NotAPassThroughEntityError,
)
from market.domain.events.certificates import ACTIVITY_KEY, Parent, certificate_issued
from market.domain.events.returns import PassThroughAllocated
from market.domain.model import Tranche
from market.domain.rules import pass_through, uth_held_tranches
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import check_not_waived
from market.services.certificates.certificate_views import (
    activity_ids_of,
    certificate_record,
    load_certificate,
    party_record,
)
from market.services.certificates.returns import certificate_stream
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import owners_agreement

PASS_THROUGH_ENTITIES = ("partnership", "s_corporation", "llc")


class OwnerShare(TypedDict):
    """An owner's part of the allocation and the certificate issued to it."""

    party_id: str
    amount_cents: int
    certificate_id: str


class AgreementShare(TypedDict):
    owner_party_id: str
    share_bps: int


class AgreementBasis(TypedDict):
    """UTH-14 / AMB-17: the owners' agreement an allocation went by."""

    agreement_id: str
    filed_on: str
    reference: str | None
    shares: list[AgreementShare]


class PassThrough(TypedDict):
    """The answer to a pass-through allocation."""

    certificate_id: str
    amount_cents: int
    basis: str
    owners_agreement: AgreementBasis | None
    director_review: bool
    allocations: list[OwnerShare]


def pass_through_allocate(
    uow: AbstractUnitOfWork,
    actor: Actor,
    certificate_id: str,
    amount_cents: int | None,
    ruleset: Ruleset,
) -> PassThrough:
    """PT-5/PT-6: an entity's acquired credit goes to its owners by income share; with no
    positive income shares, by the owners' value stakes (AMB-54), flagged for review.

    UTH-14 / AMB-17: a UTH credit held by a partnership that filed an owners' agreement with
    the Director goes by the agreement's shares instead (under the ruleset's
    `uth_partnership_basis`)."""
    rules = ruleset
    actor.require(AUTHORITY, PARTICIPANT)
    row = load_certificate(uow, certificate_id)
    cert = certificate_of(row)
    actor.require_party(
        cert.holder_party_id, not_found("Certificate", "certificate_id", certificate_id)
    )
    # Head first: nothing else changes the row before commit, and the copy follows what
    # this unit of work does to it (each owner's certificate adds to children_count).
    uow.certificates.remember(row)
    entity = party_record(uow, cert.holder_party_id)
    if entity.entity_type not in PASS_THROUGH_ENTITIES:
        raise NotAPassThroughEntityError(
            f"A {entity.entity_type} does not pass credits through to owners (PT-5, PT-6).",
            {"entity_type": entity.entity_type, "allowed": list(PASS_THROUGH_ENTITIES)},
        )
    check_not_waived(cert)
    balance = cert.balance_cents
    amount = balance if amount_cents is None else amount_cents
    if amount <= 0 or amount > balance:
        raise InsufficientBalanceError(
            f"{amount} cents cannot be passed through; {balance} cents are usable.",
            {"amount_cents": amount, "balance_cents": balance},
        )
    edges = sorted(uow.parties.owners_of(entity.id), key=lambda e: str(e["owner_party_id"]))
    if not edges:
        raise InvalidRequestError(
            "The entity has no recorded owners to allocate to.", {"party_id": entity.id}
        )
    income: dict[str, int] = {e["owner_party_id"]: e["income_share_bps"] or 0 for e in edges}
    value: dict[str, int] = {e["owner_party_id"]: e["value_bps"] for e in edges}
    agreement = owners_agreement(uow, entity.id)
    basis = pass_through.allocation_basis(
        cert.program, entity.entity_type, agreement is not None, rules
    )
    agreed: dict[str, int] = {}
    agreement_basis: AgreementBasis | None = None
    if basis == "owners_agreement" and agreement is not None:
        agreement_shares = [
            AgreementShare(owner_party_id=s["owner_party_id"], share_bps=s["share_bps"])
            for s in agreement["shares"]
        ]
        agreed = {s["owner_party_id"]: s["share_bps"] for s in agreement_shares}
        split = pass_through.allocate_by_agreement(amount, agreed)
        fallback = False
        agreement_basis = AgreementBasis(
            agreement_id=agreement["agreement_id"],
            filed_on=agreement["filed_on"],
            reference=agreement["reference"],
            shares=agreement_shares,
        )
    else:
        split = pass_through.allocate_by_income_share(amount, income, value)
        fallback = sum(income.values()) <= 0
        basis = "profit_sharing_fallback" if fallback else "income_share"
    allocations = [
        OwnerShare(party_id=owner_id, amount_cents=cents, certificate_id=new_id("crt"))
        for owner_id, cents in sorted(split.items())
        if cents > 0
    ]
    tranches = cert.uth_tranches()
    tax_periods: list[Tranche] | None = None
    owner_tranches: dict[str, list[Tranche]] = {}
    if tranches is not None:
        # UTH-24: each owner's certificate holds its share of the tranches it came from.
        tax_periods, owner_tranches = uth_held_tranches.pass_through_tranches(
            tranches, {a["party_id"]: a["amount_cents"] for a in allocations}
        )
    allocated = PassThroughAllocated(
        certificate_id=cert.id,
        party_id=entity.id,
        amount_cents=amount,
        basis=basis,
        owners_agreement=agreement_basis,
        uth_partnership_basis=rules.uth_partnership_basis,
        ruleset=rules.name,
        director_review=fallback,
        allocations=allocations,
        certificate_status=certificate_status(
            cert.allowed_cents, balance - amount, cert.queued_cents
        ),
        tax_periods=tax_periods,
    )
    uow.append(cert.stream, allocated, actor.label)
    # PT-1: the owners' certificates carry the entity's creditable activities.
    inherited = activity_ids_of(uow, cert)
    parent_attributes = {k: v for k, v in cert.attributes.items() if k != ACTIVITY_KEY}
    for a in allocations:
        shares = {"income_share_bps": income[a["party_id"]], "value_bps": value[a["party_id"]]}
        if agreed:
            shares["agreement_share_bps"] = agreed[a["party_id"]]
        owner_cert = certificate_issued(
            certificate_id=a["certificate_id"],
            number=certificate_record(uow, cert.id).derived_number("P"),
            program=cert.program.value,
            holder_party_id=a["party_id"],
            origin="pass_through",
            parent=Parent(cert.id, cert.root_id, cert.original_holder_party_id),
            face_cents=a["amount_cents"],
            fiscal_year=cert.fiscal_year,
            tax_types=list(cert.tax_types),
            tax_periods=owner_tranches.get(a["party_id"], list(cert.tax_periods)),
            credit_year=cert.credit_year,
            carryover_last_year=cert.carryover_last_year,
            waiver_statement=cert.waiver_statement,
            creditable_activity_ids=inherited,
            attributes=parent_attributes
            | {
                "pass_through_from": cert.id,
                "pass_through_entity_id": entity.id,
                "pass_through_basis": basis,
                "director_review": fallback,
            }
            | shares,
            ruleset=cert.ruleset,
        )
        stream = certificate_stream(a["certificate_id"])
        uow.append(stream, owner_cert, actor.label, new_stream=True)
    return PassThrough(
        certificate_id=cert.id,
        amount_cents=amount,
        basis=basis,
        owners_agreement=agreement_basis,
        director_review=fallback,
        allocations=allocations,
    )
