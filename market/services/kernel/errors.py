"""Errors raised by the service layer that are not statutory rules (those live in the domain):
one class per code, no HTTP status (market/validation/error_codes.py maps a code to its status)."""

from __future__ import annotations

from market.domain.errors import ConflictError as ConflictError  # raised here, defined there
from market.domain.errors import DomainError
from market.domain.errors import RuleRefusedError as RuleRefusedError


class NotFoundError(DomainError):
    code = "not_found"


def not_found(kind: str, key: str, value: str) -> NotFoundError:
    """The answer for a record that does not exist, and for another party's record to a
    participant (PRODUCT.md: no existence oracle): the loaders word it the same way."""
    return NotFoundError(f"{kind} {value} does not exist.", {key: value})


class ForbiddenError(DomainError):
    code = "forbidden"


class UnauthorizedError(DomainError):
    code = "unauthorized"


class IdempotencyConflictError(ConflictError):
    code = "idempotency_key_reused"


class BadRequestError(DomainError):
    """Input the caller may not send; a subclass names why."""


class ValidationFailedError(BadRequestError):
    code = "validation_failed"


class ReceiptReasonWithoutReceivedOnError(BadRequestError):
    code = "receipt_reason_without_received_on"


class ReceivedOnNotAllowedError(BadRequestError):
    code = "received_on_not_allowed"


# The state does not allow the request now (ConflictError's family).


class AlreadyRenewedError(ConflictError):
    code = "already_renewed"


class DuplicateCertificateError(ConflictError):
    code = "duplicate_certificate"


class EmailTakenError(ConflictError):
    code = "email_taken"


class MfaAlreadyEnrolledError(ConflictError):
    code = "mfa_already_enrolled"


class MfaNotStartedError(ConflictError):
    code = "mfa_not_started"


class PaymentAlreadyRecordedError(ConflictError):
    code = "payment_already_recorded"


class NoPaymentRecordedError(ConflictError):
    code = "no_payment_recorded"


class ReceiptAlreadyConfirmedError(ConflictError):
    code = "receipt_already_confirmed"


class NotAnOriginalUthAwardError(ConflictError):
    code = "not_an_original_uth_award"


class ForfeiturePermanentError(ConflictError):
    code = "forfeiture_permanent"


class NothingToRestoreError(ConflictError):
    code = "nothing_to_restore"


class ReviewConflictError(ConflictError):
    code = "review_conflict"


class LedgerEmptyError(ConflictError):
    code = "ledger_empty"


class MerkleTreeBehindError(ConflictError):
    code = "merkle_tree_behind"


class LedgerContradictsTreeError(ConflictError):
    code = "ledger_contradicts_tree"


class LedgerContradictsCheckpointError(ConflictError):
    code = "ledger_contradicts_checkpoint"


class CheckpointRowForgedError(ConflictError):
    code = "checkpoint_row_forged"
