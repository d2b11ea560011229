"""Typed domain errors; each carries the stable ``code`` the API returns (PRODUCT.md section 4)."""

from __future__ import annotations


class DomainError(Exception):
    code: str = "domain_error"
    status: int = 422

    def __init__(self, message: str, details: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, object] = dict(details or {})


class ConflictError(DomainError):
    """The state does not allow the request (409); `code` may name the rule per instance."""

    code = "conflict"
    status = 409

    def __init__(
        self, message: str, details: dict[str, object] | None = None, *, code: str | None = None
    ) -> None:
        super().__init__(message, details)
        if code is not None:
            self.code = code


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
