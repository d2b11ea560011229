"""The ledger as the statutory reports read it (PRODUCT.md 9.2): folded from the typed
events alone, so anyone holding the events up to a checkpoint (a proof bundle, an
export) recomputes every figure. Pure: a list of (seq, event) in, the state out.

What is kept: parties with their NAICS code and employees; certificates (program, holder,
face, allowed and queued cents, fiscal year, taxes, origin, lineage, the jobs of a BRRAG
award); transfers proposed and approved (price, seller, buyer, proceeds' uses, exchange
date); TECH applications and allocation runs; the digital media pools and queue; the
credit applied on returns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from market.domain.events.certificates import (
    CertificateIssued,
    QueueAllowed,
    QueueDeferred,
)
from market.domain.events.parties import PartyRegistered
from market.domain.events.records import PartyFactsRecorded
from market.domain.events.returns import CreditApplied
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived
from market.domain.events.trading import TransferApproved, TransferProposed


@dataclass
class PartyFacts:
    name: str
    entity_type: str
    in_innovation_zone: bool
    naics_code: str | None = None
    employees: dict[str, int] = field(default_factory=dict)
    nj_full_time_employees: int | None = None


@dataclass
class CertificateFacts:
    id: str
    number: str
    program: str
    holder_party_id: str
    original_holder_party_id: str
    root_id: str
    origin: str
    is_original: bool
    face_cents: int
    allowed_cents: int
    queued_cents: int
    fiscal_year: int
    tax_types: tuple[str, ...]
    jobs: int | None  # a BRRAG award's retained jobs


@dataclass
class TransferFacts:
    id: str
    certificate_id: str
    program: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    use_of_proceeds: tuple[str, ...]
    exchange_date: str | None = None  # set once approved


@dataclass
class ApplicationFacts:
    id: str
    party_id: str
    fiscal_year: int
    eligible: bool
    reasons: tuple[str, ...]
    requested_cents: int
    in_innovation_zone: bool
    lifetime_approved_cents: int


@dataclass
class StatutoryLedger:
    seq: int = 0
    parties: dict[str, PartyFacts] = field(default_factory=dict)
    certificates: dict[str, CertificateFacts] = field(default_factory=dict)
    transfers: dict[str, TransferFacts] = field(default_factory=dict)
    applications: dict[str, ApplicationFacts] = field(default_factory=dict)
    allocations: dict[int, list[Mapping[str, Any]]] = field(default_factory=dict)
    deferred: list[QueueDeferred] = field(default_factory=list)
    pool_allowed: list[QueueAllowed] = field(default_factory=list)  # every admission
    applied: list[CreditApplied] = field(default_factory=list)

    def apply(self, seq: int, e: object) -> None:
        self.seq = max(self.seq, seq)
        if isinstance(e, PartyRegistered):
            self.parties[e.party_id] = PartyFacts(
                e.name, e.entity_type, e.in_innovation_zone,
                nj_full_time_employees=e.nj_full_time_employees,
            )  # fmt: skip
        elif isinstance(e, PartyFactsRecorded):
            p = self.parties[e.party_id]
            p.naics_code, p.employees = e.naics_code, dict(e.employees)
        elif isinstance(e, CertificateIssued):
            self._issued(e)
        elif isinstance(e, QueueDeferred):
            self.deferred.append(e)
        elif isinstance(e, QueueAllowed):
            self._allowed(e)
        elif isinstance(e, TransferProposed):
            self.transfers[e.transfer_id] = TransferFacts(
                e.transfer_id, e.certificate_id, e.program, e.seller_party_id,
                e.buyer_party_id, e.amount_cents, e.consideration_cents,
                tuple(e.use_of_proceeds or ()),
            )  # fmt: skip
        elif isinstance(e, TransferApproved):
            self.transfers[e.transfer_id].exchange_date = e.exchange_date
        elif isinstance(e, TechApplicationReceived):
            self.applications[e.application_id] = ApplicationFacts(
                e.application_id, e.party_id, e.fiscal_year, e.eligible, tuple(e.reasons),
                e.requested_cents, e.in_innovation_zone, e.lifetime_approved_cents,
            )  # fmt: skip
        elif isinstance(e, FyAllocationRun):
            self.allocations[e.fiscal_year] = list(e.allocations)
        elif isinstance(e, CreditApplied):
            self.applied.append(e)

    def _issued(self, e: CertificateIssued) -> None:
        award = e.attributes.get("brrag_award") if isinstance(e.attributes, Mapping) else None
        jobs = award.get("retained_jobs") if isinstance(award, Mapping) else None
        self.certificates[e.certificate_id] = CertificateFacts(
            e.certificate_id, e.number, e.program, e.holder_party_id,
            e.original_holder_party_id, e.root_id, e.origin, e.is_original, e.face_cents,
            e.allowed_cents, e.queued_cents, e.fiscal_year, tuple(e.tax_types),
            int(jobs) if isinstance(jobs, int) else None,
        )  # fmt: skip

    def _allowed(self, e: QueueAllowed) -> None:
        self.pool_allowed.append(e)
        cert = self.certificates.get(e.certificate_id)
        if cert is not None:  # the projection's arithmetic (adapters/projections)
            cert.allowed_cents += e.allowed_cents
            cert.queued_cents -= e.allowed_cents


def fold(events: Iterable[tuple[int, object]]) -> StatutoryLedger:
    state = StatutoryLedger()
    for seq, e in events:
        state.apply(seq, e)
    return state
