"""Every error code the API answers with: its HTTP status and what it means.

The one list of codes: the errors of the domain and the services carry a code and no HTTP
status (one class per code); the API's handler and the pages answer each at the status
listed here (`status_of`). The handler takes the HTTP-level codes from it too, and the
OpenAPI document enumerates it (the `Error` schema's `code`, each error response's
description and the document's introduction). A test walks the error classes and fails
unless their codes and this list's are the same set, but for the HTTP-level codes only
the handler answers (tests/e2e/test_api_document.py names them).

A new code: a class with its `code`, and one line below (code, status, meaning). A code
is answered at one status. A class whose code is missing here is a programming error the
test catches; should one reach a request all the same, it is answered at
`UNLISTED_STATUS` (422, a refusal, as every error was before the list) with its own code,
and logged."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from market.domain.errors import DomainError

log = logging.getLogger(__name__)
UNLISTED_STATUS = 422


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    meaning: str


_LIST = [
    # 400: the request cannot be read or is not of the operation's form.
    ("malformed_request", 400, "The request could not be read (a NUL character, a bad form)."),
    ("malformed_json", 400, "The body is not JSON, or has a lone UTF-16 surrogate."),
    ("validation_failed", 400, "A field is missing, unknown or out of range; `details.fields`."),
    ("number_too_large", 400, "A number in the body has too many digits or is out of range."),
    ("too_deeply_nested", 400, "The body is nested deeper than the service reads."),
    ("bidi_control_characters", 400, "Text carries bidirectional control characters."),
    ("invalid_proof_request", 400, "A proof was asked for sizes or a seq the tree cannot prove."),
    ("invalid_review", 400, "A UTH review's figures are not of the review's form."),
    ("receipt_reason_without_received_on", 400, "A late-receipt reason without `received_on`."),
    ("received_on_not_allowed", 400, "`received_on` given where the receipt is today's."),
    ("reset_link_invalid", 400, "The password-reset link is unknown, used or expired."),
    ("section_40_figures_required", 400, "A section 40 sale needs its figures."),
    ("unsafe_webhook_url", 400, "The webhook URL points at a private or reserved address."),
    ("unknown_event_type", 400, "A webhook filter names an event type that does not exist."),
    ("weak_password", 400, "The password is too short or too common."),
    ("link_invalid", 400, "The invitation or sign-in link is unknown, used or expired."),
    # 401: who is asking is not known.
    ("unauthorized", 401, "No bearer token, an unknown or revoked one, or a wrong password."),
    ("mfa_required", 401, "A step-up (new recovery codes) needs the one-time code too."),
    (
        "mfa_invalid",
        401,
        "The one-time code is wrong or spent (step-ups; sign-in says `unauthorized`).",
    ),
    # 403, 404.
    ("forbidden", 403, "The caller's role may not do this."),
    ("party_role_forbidden", 403, "The caller's role within its party may not do this."),
    ("not_found", 404, "No such record (or one the caller may not see), or no such route."),
    ("method_not_allowed", 405, "The route does not take this method."),
    # 409: the state does not allow the request now.
    ("conflict", 409, "The record's state does not allow this (`details.status`)."),
    ("idempotency_key_reused", 409, "The Idempotency-Key was used with another request."),
    ("agreement_out_of_order", 409, "An owners' agreement filed before its predecessor."),
    ("awaiting_buyer", 409, "The transfer waits for the buyer's confirmation."),
    ("payment_already_recorded", 409, "The transfer's payment is already recorded."),
    ("no_payment_recorded", 409, "No payment is recorded for the transfer yet."),
    ("receipt_already_confirmed", 409, "The payment's receipt is already confirmed."),
    ("mfa_already_enrolled", 409, "Two-step sign-in is already set up."),
    ("mfa_not_started", 409, "Two-step sign-in set-up was not started."),
    ("not_an_original_uth_award", 409, "Only an original UTH award is reviewed."),
    ("forfeiture_permanent", 409, "The UTH installment's forfeiture cannot be restored."),
    ("nothing_to_restore", 409, "The UTH installment has nothing forfeited to restore."),
    ("review_conflict", 409, "The UTH year's review is already recorded otherwise."),
    ("already_renewed", 409, "The tax clearance certificate was already renewed."),
    ("duplicate_certificate", 409, "That tax clearance certificate number is recorded already."),
    ("email_taken", 409, "That e-mail address already has an account."),
    ("registration_not_pending", 409, "The registration is no longer waiting for review."),
    ("tax_id_registered", 409, "A party or an open registration has that tax id already."),
    ("step_out_of_order", 409, "The case file's step comes after one not yet done."),
    ("ledger_empty", 409, "The ledger has no events to sign yet."),
    ("merkle_tree_behind", 409, "The Merkle tree has not caught up with the ledger yet."),
    ("ledger_contradicts_tree", 409, "The ledger's events do not hash to the stored tree."),
    ("ledger_contradicts_checkpoint", 409, "The ledger contradicts a signed checkpoint."),
    ("checkpoint_row_forged", 409, "A stored checkpoint's signature does not verify."),
    ("ledger_invariant_broken", 409, "Writing this would break a ledger invariant."),
    # 413, 415.
    ("request_too_large", 413, "The body is larger than MAX_CONTENT_LENGTH."),
    ("document_too_large", 413, "The exhibit is larger than DOCUMENT_MAX_BYTES."),
    ("unsupported_media_type", 415, "The body's media type is not one the route reads."),
    # 422: a rule of the statute or the program refuses the request.
    ("invalid_request", 422, "The request is well formed but not acceptable (the message)."),
    ("domain_error", 422, "A rule refused the request (the message says which)."),
    ("below_minimum_consideration", 422, "The consideration is under the program's minimum."),
    ("affiliated_parties", 422, "Seller and buyer are affiliated."),
    ("insufficient_balance", 422, "The certificate's available balance is too small."),
    ("cap_exceeded", 422, "The program's annual cap would be exceeded."),
    ("lifetime_cap_exceeded", 422, "The program's lifetime cap would be exceeded."),
    ("ineligible_seller", 422, "The seller may not sell this credit."),
    ("application_deadline_passed", 422, "The application window has closed."),
    ("intake_still_open", 422, "The fiscal year's intake is still open."),
    ("tax_type_not_allowed", 422, "The buyer cannot use the credit against that tax."),
    ("resale_not_allowed", 422, "A bought credit may not be resold."),
    ("tranche_not_reviewed", 422, "The UTH installment has not passed its annual review."),
    ("tranche_at_risk", 422, "The UTH installment is frozen while its review is at risk."),
    ("tranche_not_yet_usable", 422, "The UTH installment is not usable in that tax year yet."),
    ("recapture_not_allowed", 422, "The credit may not be recaptured."),
    ("waived_by_seller", 422, "The original holder waived its own claim."),
    ("carryforward_expired", 422, "The credit's carryforward period has ended."),
    ("award_exceeded", 422, "More than the BRRAG award would be issued."),
    ("determination_missing", 422, "The BRRAG award's determination is missing."),
    ("individual_purchase_not_allowed", 422, "An individual may not buy this credit."),
    ("trading_halted", 422, "Trading in the certificate or program is halted."),
    ("not_a_partnership", 422, "Only a partnership passes a credit through."),
    ("not_a_pass_through_entity", 422, "The party is not a pass-through entity."),
    ("pass_through_required", 422, "A partnership's credit must be passed through."),
    ("not_a_recorded_owner", 422, "The party is not a recorded owner of the partnership."),
    ("use_of_proceeds_missing", 422, "The seller's certified use of proceeds is missing."),
    ("activity_already_used", 422, "The activity already backs another application."),
    ("funding_not_confirmed", 422, "The transfer's payment receipt is not confirmed."),
    ("exhibit_missing", 422, "An exhibit the checklist requires is not filed."),
    ("fees_unpaid", 422, "A fee the Authority invoiced is not paid in full."),
    ("tax_clearance_missing", 422, "No tax clearance certificate is recorded for the party."),
    ("tax_clearance_expired", 422, "The party's tax clearance certificate has expired."),
    ("application_locked", 422, "The fiscal year's TECH applications locked at 12:00 am July 1."),
    ("document_empty", 422, "The exhibit's file is empty."),
    ("board_approval_exceeded", 422, "The BRRAG sale is more than the Board's approvals leave."),
    ("overpayment", 422, "The payment is more than the fee's balance."),
    ("offer_expired", 422, "The offer or the seller's counter to it is past `expires_on`."),
    # 429: too many requests.
    ("too_many_requests", 429, "Too many requests; retry after the Retry-After seconds."),
    ("too_many_attempts", 429, "Too many failed sign-ins; retry after Retry-After seconds."),
    ("rate_limited", 429, "Over the per-address rate (proofs); retry after Retry-After."),
    # 500, 503.
    ("internal_error", 500, "Something went wrong on the service's side."),
    ("http_error", 500, "An HTTP error with no code of its own."),
    ("service_unavailable", 503, "The service cannot answer just now; retry shortly."),
    ("database_unavailable", 503, "The database is unreachable; retry after Retry-After."),
    ("busy", 503, "Password hashing is at capacity; retry shortly."),
    ("signer_cannot_write", 503, "The signer's database connection cannot write."),
    ("signing_key_unavailable", 503, "The checkpoint signing key cannot be read."),
    ("signing_key_not_trusted", 503, "The signing key is not among TRUSTED_LOG_KEYS."),
    ("witness_config_invalid", 503, "The WITNESSES setting cannot be read."),
    # 507: the database's disk is full (the write was rolled back whole; reads go on).
    ("storage_full", 507, "The database's disk is full; nothing was written. Retry later."),
]

CODES: dict[str, ErrorCode] = {c: ErrorCode(c, s, m) for c, s, m in _LIST}
assert len(CODES) == len(_LIST), "a code is listed twice"

# The code an HTTP-level error (werkzeug's) answers with, by status.
HTTP_CODES: dict[int, str] = {
    400: "malformed_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "too_many_requests",
    503: "service_unavailable",
    507: "storage_full",
}


def code(name: str) -> str:
    """`name`, checked against the list (a typo fails at import, not in an answer)."""
    if name not in CODES:
        raise KeyError(f"error code {name!r} is not in market.validation.error_codes")
    return name


def http_code(status: int) -> str:
    return HTTP_CODES.get(status, code("http_error"))


def at_status(status: int) -> list[ErrorCode]:
    return [c for c in CODES.values() if c.status == status]


def status_of(error: DomainError) -> int:
    """The HTTP status a domain or service error is answered at (the module docstring)."""
    listed = CODES.get(error.code)
    if listed is None:
        log.error("error code %r is not in market.validation.error_codes", error.code)
        return UNLISTED_STATUS
    return listed.status
