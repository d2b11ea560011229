"""What a UTH annual review does beyond the reviewed award's own tranches (uth_reviews
explains the readings): the cap room it gives back (UTH-13) and what it does to each
transferred part of the reviewed tranches (UTH-26, UTH-27)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from market.adapters.repositories import Repositories
from market.adapters.repositories.models import certificate_of
from market.domain.model import Certificate, Tranche
from market.domain.rules import uth, uth_held_tranches
from market.domain.rules.buckets import cap_id
from market.domain.rulesets import Ruleset

CUTTING = ("reduced", "forfeited")


class CapRelease(TypedDict):
    """Cap room a review gives back (UTH-13): never more than the row uses."""

    cap_id: str
    bucket: str
    fiscal_year: int
    cents: int


class BuyerEffect(TypedDict):
    """UTH-26 / UTH-27: a transferred part of the reviewed tranches, afterwards."""

    certificate_id: str
    holder_party_id: str
    seller_party_id: str
    frozen: bool
    at_risk_cents: int
    finding_cut_cents: int
    conditional_lifted: list[int]
    tax_periods: list[Tranche]


@dataclass(frozen=True)
class BuyerReview:
    """The review as each buyer's certificate meets it."""

    periods: list[int]
    finding: str
    outcome: str
    freeze: bool
    award_holder_party_id: str  # the seller when a certificate names none
    ruleset: Ruleset

    @property
    def cuts(self) -> bool:
        return self.outcome in CUTTING


def release(bucket: str, fiscal_year: int, cents: int, repos: Repositories) -> CapRelease:
    """Give back cap room, never more than the row uses."""
    key = cap_id(bucket, fiscal_year)
    return CapRelease(
        cap_id=key,
        bucket=bucket,
        fiscal_year=fiscal_year,
        cents=min(cents, repos.caps.used_cents(key)),
    )


def descendants(repos: Repositories, root_id: str) -> list[Certificate]:
    """The certificates derived from an award (bought or passed through), oldest first."""
    held = [certificate_of(r) for r in repos.certificates.where(root_id=root_id)]
    return sorted((c for c in held if c.id != root_id), key=lambda c: c.issued_seq)


def buyer_effects(held: Iterable[Certificate], review: BuyerReview) -> list[BuyerEffect]:
    """UTH-26: what the review does to each transferred part of the reviewed tranches."""
    effects = [_buyer_effect(cert, review) for cert in held]
    return [e for e in effects if e is not None]


def _buyer_effect(cert: Certificate, review: BuyerReview) -> BuyerEffect | None:
    tranches = cert.uth_tranches() or []
    touched = False
    at_risk = finding_cut = 0
    lifted: list[int] = []
    for t in tranches:
        period, cents = t["period"], t["cents"]
        if period not in review.periods or cents <= 0:
            continue
        if t.get("conditional"):
            # UTH-27 / AMB-18: the review the buyer waited for; what it finds decides
            # below whether the tranche is also at risk.
            t["conditional"], t["review"] = False, review.outcome
            lifted.append(period)
            touched = True
        if review.cuts:
            unapplied = uth_held_tranches.tranche_unapplied(t)
            cut = cents - uth.reduced_installment(cents, review.finding, review.ruleset)
            t["at_risk"], t["frozen"] = True, review.freeze
            t["at_risk_finding"], t["at_risk_cents"] = review.finding, unapplied
            t["finding_cut_cents"] = cut
            at_risk += unapplied
            finding_cut += cut
            touched = True
        elif review.outcome == "restored" and t.get("at_risk"):
            t["at_risk"], t["frozen"], t["restored"] = False, False, True
            touched = True
    if not touched:
        return None
    return BuyerEffect(
        certificate_id=cert.id,
        holder_party_id=cert.holder_party_id,
        seller_party_id=cert.attributes.get("seller_party_id", review.award_holder_party_id),
        frozen=review.freeze and review.cuts,
        at_risk_cents=at_risk,
        finding_cut_cents=finding_cut,
        conditional_lifted=lifted,
        tax_periods=tranches,
    )
