"""The Urban Transit Hub annual review as ledger events (UTH-7, UTH-11, UTH-13, UTH-26,
UTH-27, AMB-13, AMB-14, AMB-18, AMB-61).

`record_review` appends one UTH_REVIEW_RECORDED on the original award's stream. Every
effect is decided here and carried in the payload; the projection only writes it.

Readings (C.34:1B-209(c)(1) and (d); RULES UTH-11, UTH-13, UTH-26, AMB-14):

- The review is of one tax period of an original UTH award (origin `issued`). The finding
  is `approved`, one of the UTH-11 reductions/forfeitures of `domain.rules.uth`, or
  `restored`.
- A reduction or forfeiture cuts the original holder's still-unsold part of the tranche:
  `new_positions_below_200` to `reduced_installment` (the ruleset's uth_reduction_pct,
  rounded down), a forfeiture to zero. The cut is measured on the unsold amount before
  any earlier cut of the same period, so reviewing a period twice never cuts twice.
- `facility_sold` (UTH-11(4)) forfeits the reviewed period and every later tranche of the
  award, and is permanent for the seller-owner: such a period can be neither approved nor
  restored afterwards. The other findings reach the reviewed period only; later periods
  get their own annual review (UTH-7).
- The cut leaves the certificate's allowed and balance cents (never below zero; an
  original's credit is never applied on a return, CMN-4(d), so nothing applied is
  touched) and, as the certificate has no other place for credit that no longer exists,
  is counted in its `expired_cents` (face = balance + transferred + expired + ...); the
  tranche records `review`, `finding` and its cumulative `cut_cents`.
- UTH-13 / AMB-13: the FY cap is charged with installments after reductions, so the cut
  is released from the UTH bucket of the tranche's fiscal year and from UTH_CUMULATIVE.
- UTH-26 / AMB-14: parts of the tranche already transferred (every certificate with the
  award as root_id whose tax_periods hold the period) are flagged `at_risk`. With the
  default `uth_transferred_tranche_effect = "freeze"` the buyer's unapplied cents of that
  tranche are also `frozen` (returns.py will not apply them; error `tranche_at_risk`);
  with `buyer_protected` they are flagged but usable. The event records, per buyer, the
  cents at risk, what the finding would cut from the buyer's tranche, and the seller
  that any assessment would be charged to; no recapture is created.
- `restored` ("until restoration is approved", UTH-11(1)-(3)) lifts the reduction or
  forfeiture for that period from the date of the determination: the buyers' at_risk
  tranches of the period are un-frozen (the EDA determination), but a cut already made
  is not given back. C.34:1B-209(d) says the installment is reduced or forfeited "until"
  restoration is approved, which reads as prospective; nothing in it reinstates an
  installment already reduced or forfeited for a period, and the cap room released for
  it may already have gone to other awards.
- `approved` on a period that was reduced or forfeited is refused: lifting it is a
  `restored` finding.
- UTH-27 / AMB-18: a buyer's tranche bought before its period was reviewed is
  `conditional` and cannot be applied; any review of the period lifts that (the tranche
  records the review, and the event lists the period under `conditional_lifted`), and a
  reduction or forfeiture then puts it at risk as above.
"""

from __future__ import annotations

from typing import Any, TypedDict

from market.adapters.repositories import Repositories
from market.domain.commands.certificates import RecordUthReview
from market.domain.errors import InvalidRequestError
from market.domain.events.uth import UthReviewRecorded
from market.domain.model import Certificate, Tranche
from market.domain.programs import Program
from market.domain.rules import uth_review
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_views import certificate_record, certificate_view
from market.services.certificates.uth_review_effects import (
    BuyerEffect,
    BuyerReview,
    buyer_effects,
    descendants,
    release,
)
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import (
    ForfeiturePermanentError,
    NotAnOriginalUthAwardError,
    NothingToRestoreError,
    ReviewConflictError,
)
from market.services.kernel.uow import AbstractUnitOfWork


class ReviewRequestError(InvalidRequestError):
    """A review that names something the certificate does not have (400)."""

    code = "invalid_review"


def _original_uth(repos: Repositories, certificate_id: str) -> Certificate:
    cert = certificate_record(repos, certificate_id)
    if cert.program is not Program.UTH or cert.origin != "issued":
        raise NotAnOriginalUthAwardError(
            "Annual reviews are recorded on the original Urban Transit Hub award (a UTH "
            f"certificate with origin 'issued'); {cert.number} is a {cert.program.value} "
            f"certificate with origin '{cert.origin}'.",
            {
                "certificate_id": cert.id,
                "program": cert.program.value,
                "origin": cert.origin,
                "root_id": cert.root_id,
            },
        )
    return cert


def _check_transition(tranche: Tranche, finding: str, period: int) -> None:
    before = tranche.get("finding")
    if before in uth_review.PERMANENT_FORFEITURES:
        raise ForfeiturePermanentError(
            f"Tax period {period} was forfeited for a facility sale (UTH-11(4)); that is "
            "permanent for the seller-owner and cannot be approved or restored.",
            {"tax_period": period, "finding": finding, "recorded_finding": before},
        )
    reviewed_down = tranche.get("review") in ("reduced", "forfeited")
    if finding == "restored" and not reviewed_down:
        raise NothingToRestoreError(
            f"Tax period {period} is not reduced or forfeited; there is nothing to restore.",
            {"tax_period": period, "review": tranche.get("review")},
        )
    if finding == "approved" and reviewed_down:
        raise ReviewConflictError(
            f"Tax period {period} was {tranche['review']} ({before}); record 'restored' to "
            "lift it.",
            {"tax_period": period, "review": tranche["review"], "recorded_finding": before},
        )


def _tranches_by_period(
    cert: Certificate, tranches: list[Tranche], tax_period: int
) -> dict[int, Tranche]:
    """The award's installments by tax period; refused when `tax_period` is none of them."""
    by_period = {t["period"]: t for t in tranches}
    if tax_period not in by_period:
        raise ReviewRequestError(
            f"Tax period {tax_period} is not one of the installments of {cert.number}.",
            {"tax_period": tax_period, "tax_periods": sorted(by_period)},
        )
    return by_period


def _cut_tranches(
    by_period: dict[int, Tranche], review: BuyerReview, balance: int
) -> tuple[dict[int, int], list[dict[str, int]]]:
    """The reviewed award's own cuts, made in place on its tranches: the cents cut per
    fiscal year (never more than the balance in all) and per period."""
    per_fy: dict[int, int] = {}
    cuts: list[dict[str, int]] = []
    for period in review.periods:
        t = by_period[period]
        if review.finding != "restored" and t.get("finding") in uth_review.PERMANENT_FORFEITURES:
            continue  # a later period already forfeited for good stays so
        unsold, before = t["unsold_cents"], t.get("cut_cents", 0)
        cut = min(uth_review.review_cut(unsold, before, review.finding, review.ruleset), balance)
        balance -= cut
        t["review"], t["finding"] = review.outcome, review.finding
        t["unsold_cents"], t["cut_cents"] = unsold - cut, before + cut
        if cut:
            per_fy[t["fiscal_year"]] = per_fy.get(t["fiscal_year"], 0) + cut
            cuts.append({"period": period, "cut_cents": cut})
    return per_fy, cuts


class Assessment(TypedDict):
    """UTH-26: what an assessment would charge the seller (none is created here)."""

    party_id: str
    at_risk_cents: int
    finding_cut_cents: int
    recapture_created: bool


def _assessment(cert: Certificate, assessed: list[BuyerEffect]) -> Assessment | None:
    """UTH-26: any assessment is charged to the seller; none is created here."""
    if not assessed:
        return None
    return Assessment(
        party_id=cert.original_holder_party_id,
        at_risk_cents=sum(b["at_risk_cents"] for b in assessed),
        finding_cut_cents=sum(b["finding_cut_cents"] for b in assessed),
        recapture_created=False,
    )


def record_review(
    uow: AbstractUnitOfWork, actor: Actor, command: RecordUthReview, ruleset: Ruleset
) -> dict[str, Any]:
    """UTH_REVIEW_RECORDED on the award's stream; answers with the reviewed certificate."""
    tax_period, finding = command.tax_period, command.finding
    actor.require(AUTHORITY)
    cert = _original_uth(uow, command.certificate_id)
    try:
        outcome = uth_review.review_outcome(finding)
    except InvalidRequestError as exc:
        raise ReviewRequestError(exc.message, exc.details) from None
    tranches = cert.uth_tranches() or []
    by_period = _tranches_by_period(cert, tranches, tax_period)
    _check_transition(by_period[tax_period], finding, tax_period)
    review = BuyerReview(
        periods=uth_review.reviewed_periods(finding, tax_period, sorted(by_period)),
        finding=finding,
        outcome=outcome,
        freeze=uth_review.freezes_transferred_tranches(ruleset),
        award_holder_party_id=cert.original_holder_party_id,
        ruleset=ruleset,
    )
    per_fy, cuts = _cut_tranches(by_period, review, cert.balance_cents)
    total_cut = sum(per_fy.values())
    releases = [release("UTH", fy, cents, uow) for fy, cents in sorted(per_fy.items())]
    if total_cut:
        releases.append(release("UTH_CUMULATIVE", 0, total_cut, uow))
    buyers = buyer_effects(descendants(uow, cert.id), review)
    recorded = UthReviewRecorded(
        certificate_id=cert.id,
        tax_period=tax_period,
        finding=finding,
        review=outcome,
        periods=review.periods,
        ruleset=ruleset.name,
        transferred_tranche_effect=ruleset.uth_transferred_tranche_effect,
        cut_cents=total_cut,
        cuts=cuts,
        certificate_status=certificate_status(
            cert.allowed_cents - total_cut, cert.balance_cents - total_cut, cert.queued_cents
        ),
        tax_periods=tranches,
        cap_releases=[r for r in releases if r["cents"] > 0],
        descendants=buyers,
        assessment=_assessment(cert, buyers if review.cuts else []),
    )
    uow.append(cert.stream, recorded, actor.label)
    return certificate_view(uow, cert.id) | {"review": recorded.to_payload()}
