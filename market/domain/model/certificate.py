"""A transfer certificate as the rules read it (PRODUCT.md 8.1): who holds it, what is
usable, its periods (UTH: installments), and the lineage a derived certificate copies."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

from market.domain.errors import InsufficientBalanceError
from market.domain.programs import Program
from market.domain.values import format_cents

SELLABLE_ORIGINS = ("issued", "allocation")


class Tranche(TypedDict, total=False):
    """A UTH installment as a certificate holds it (UTH-7, UTH-13): the tax period and the
    fiscal year it is charged to, its cents, and what sales, annual reviews (UTH-11,
    UTH-26, UTH-27), returns, pass-throughs and expiry (UTH-10) recorded on it."""

    period: Required[int]
    fiscal_year: int
    cents: Required[int]
    unsold_cents: int
    carryforward_last_period: int
    review: str
    finding: str
    cut_cents: int
    conditional: bool
    at_risk: bool
    frozen: bool
    restored: bool
    at_risk_finding: str
    at_risk_cents: int
    finding_cut_cents: int
    applied_cents: int
    passed_cents: int
    expired_cents: int


@dataclass(frozen=True)
class DerivedCertificate:
    """A certificate derived from another, as its parent's lineage lists it."""

    id: str
    number: str
    holder_party_id: str
    face_cents: int
    origin: str
    issued_seq: int


@dataclass(frozen=True)
class Certificate:
    id: str
    number: str
    program: Program
    holder_party_id: str
    original_holder_party_id: str
    root_id: str
    origin: str
    fiscal_year: int
    allowed_cents: int
    balance_cents: int
    queued_cents: int
    children_count: int
    tax_types: tuple[str, ...]
    tax_periods: tuple[Any, ...]
    credit_year: int | None
    carryover_last_year: int | None
    waiver_statement: str
    attributes: Mapping[str, Any] = field(default_factory=dict)
    # The lineage and the ledger's bookkeeping, as the projection row records them.
    parent_id: str | None = None
    is_original: bool = False
    face_cents: int = 0
    issued_seq: int = 0
    ruleset: str = ""

    @staticmethod
    def stream_of(certificate_id: str) -> str:
        return f"certificate-{certificate_id}"

    @property
    def stream(self) -> str:
        return self.stream_of(self.id)

    @property
    def held_by_original_holder(self) -> bool:
        """CMN-6: the holder is the business the credit was awarded to (not a buyer or an
        owner it was passed through to)."""
        return (
            self.holder_party_id == self.original_holder_party_id
            and self.origin in SELLABLE_ORIGINS
        )

    def uth_tranches(self) -> list[Tranche] | None:
        """A UTH certificate's installments (copies), or None for other programs, whose
        `tax_periods` are plain period numbers."""
        periods = list(self.tax_periods)
        if self.program is not Program.UTH or not periods or not isinstance(periods[0], dict):
            return None
        return [copy.copy(t) for t in periods]

    def derived_number(self, tag: str) -> str:
        """`<number>-<tag><n>`: the next certificate derived from this one (unique while
        the ledger head is held)."""
        return f"{self.number}-{tag}{self.children_count + 1}"

    def check_balance(self, amount_cents: int) -> None:
        if amount_cents <= self.balance_cents:
            return
        queued = self.queued_cents
        waiting = f" ({format_cents(queued)} more is queued and not usable yet)" if queued else ""
        raise InsufficientBalanceError(
            f"Certificate {self.number} has {format_cents(self.balance_cents)} "
            f"usable{waiting}; {format_cents(amount_cents)} was asked for.",
            {
                "certificate_id": self.id,
                "balance_cents": self.balance_cents,
                "queued_cents": queued,
                "amount_cents": amount_cents,
            },
        )
