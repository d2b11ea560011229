"""Typed domain errors; each class carries the stable ``code`` the API returns (PRODUCT.md
section 4), one class per code. No HTTP here: market/validation/error_codes.py maps each code to
its status."""

from __future__ import annotations


class DomainError(Exception):
    code: str = "domain_error"

    def __init__(self, message: str, details: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, object] = dict(details or {})


class ConflictError(DomainError):
    """The state does not allow the request; a subclass names the rule."""

    code = "conflict"


class AwaitingBuyerError(ConflictError):
    """PRODUCT.md 8.2: the Authority decides on a transfer once the buyer has confirmed."""

    code = "awaiting_buyer"


class RuleRefusedError(DomainError):
    """A business rule refused the request; each subclass is one code."""


class BelowMinimumConsiderationError(DomainError):
    code = "below_minimum_consideration"


class AffiliatedPartiesError(DomainError):
    code = "affiliated_parties"


class InsufficientBalanceError(DomainError):
    code = "insufficient_balance"


class CapExceededError(DomainError):
    code = "cap_exceeded"


class LifetimeCapExceededError(DomainError):
    code = "lifetime_cap_exceeded"


class IneligibleSellerError(DomainError):
    code = "ineligible_seller"


class ApplicationDeadlinePassedError(DomainError):
    code = "application_deadline_passed"


class TaxTypeNotAllowedError(DomainError):
    code = "tax_type_not_allowed"


class ResaleNotAllowedError(DomainError):
    code = "resale_not_allowed"


class TrancheNotReviewedError(DomainError):
    """UTH-27 / AMB-18: an unreviewed UTH installment sold where only reviewed ones may be,
    or applied before its annual review."""

    code = "tranche_not_reviewed"


class TrancheAtRiskError(RuleRefusedError):
    """UTH-26, AMB-14: the installment is frozen while its annual review is at risk."""

    code = "tranche_at_risk"


class TrancheNotYetUsableError(RuleRefusedError):
    """AMB-15: usable from the buyer's tax year in which the credited period ends."""

    code = "tranche_not_yet_usable"


class InvalidRequestError(DomainError):
    code = "invalid_request"


class RecaptureNotAllowedError(DomainError):
    code = "recapture_not_allowed"


class WaivedBySellerError(DomainError):
    """CMN-4(d): the original holder waived (or surrendered) its own claim."""

    code = "waived_by_seller"


class OfferExpiredError(DomainError):
    """An offer (or the seller's counter to it) past its `expires_on` cannot be accepted."""

    code = "offer_expired"


class ActivityAlreadyUsedError(RuleRefusedError):
    """PT-1: the creditable activity already backs another State tax credit."""

    code = "activity_already_used"


class FundingNotConfirmedError(RuleRefusedError):
    """The ruleset approves a transfer only once the seller confirms the payment."""

    code = "funding_not_confirmed"


class IntakeStillOpenError(RuleRefusedError):
    """TB-14: the fiscal year's TECH allocation runs only after its intake closes."""

    code = "intake_still_open"


class NotAPassThroughEntityError(RuleRefusedError):
    """PT-5, PT-6: the entity's type does not pass credits through to its owners."""

    code = "not_a_pass_through_entity"
