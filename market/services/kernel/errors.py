"""Errors raised by the service layer that are not statutory rules (those live in the domain)."""

from __future__ import annotations

from market.domain.errors import ConflictError as ConflictError  # raised here, defined there
from market.domain.errors import DomainError


class NotFoundError(DomainError):
    code = "not_found"
    status = 404


def not_found(kind: str, key: str, value: str) -> NotFoundError:
    """The answer for a record that does not exist, and for another party's record to a
    participant (PRODUCT.md: no existence oracle): the loaders word it the same way."""
    return NotFoundError(f"{kind} {value} does not exist.", {key: value})


class ForbiddenError(DomainError):
    code = "forbidden"
    status = 403


class UnauthorizedError(DomainError):
    code = "unauthorized"
    status = 401


class IdempotencyConflictError(ConflictError):
    code = "idempotency_key_reused"


class RuleRefusedError(DomainError):
    """A business rule refused the request with a code the domain has no class for
    (e.g. `carryforward_expired`, `waived_by_seller`); the code is per instance."""

    def __init__(self, code: str, message: str, details: dict[str, object] | None = None) -> None:
        super().__init__(message, details)
        self.code = code


class BadRequestError(DomainError):
    """Input the caller may not send (400), with a code naming why."""

    status = 400

    def __init__(self, code: str, message: str, details: dict[str, object] | None = None) -> None:
        super().__init__(message, details)
        self.code = code
