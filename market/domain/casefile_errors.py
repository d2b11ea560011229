"""The refusals of the Authority's process (RULES.md section 7, ADM-1..12): each a stable
code the API returns, like market/domain/errors.py."""

from __future__ import annotations

from market.domain.errors import DomainError


class ExhibitMissingError(DomainError):
    """ADM-5, ADM-7: a step needs exhibits not filed; `details["kinds"]` names them."""

    code = "exhibit_missing"


class FeesUnpaidError(DomainError):
    """ADM-4: a fee the step requires is not paid in full."""

    code = "fees_unpaid"


class TaxClearanceMissingError(DomainError):
    """ADM-12: no tax clearance certificate is on record for the party and program."""

    code = "tax_clearance_missing"


class TaxClearanceExpiredError(DomainError):
    """ADM-11: the latest tax clearance certificate is void (90 days after its issue)."""

    code = "tax_clearance_expired"


class StepOutOfOrderError(DomainError):
    """ADM-7, ADM-8: a step of the case taken before the one it follows."""

    code = "step_out_of_order"


class ApplicationLockedError(DomainError):
    """ADM-6: at 12:00 am July 1 (New York) that year's applications lock."""

    code = "application_locked"


class OverpaymentError(DomainError):
    """ADM-4: a payment over what the fee still owes."""

    code = "overpayment"


class DocumentRefusedError(DomainError):
    """ADM-10: the bytes are not an allowed exhibit; a subclass names why."""


class DocumentEmptyError(DocumentRefusedError):
    code = "document_empty"


class UnsupportedMediaTypeError(DocumentRefusedError):
    code = "unsupported_media_type"


class DocumentTooLargeError(DocumentRefusedError):
    code = "document_too_large"


class BoardApprovalExceededError(DomainError):
    """ADM-9: the sale is more than the seller's Board approvals in effect leave."""

    code = "board_approval_exceeded"
