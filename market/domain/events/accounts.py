"""What happens to an account (issue 28 item 9), on the stream `account-<user id>`: the
audit trail's sign-in, second-factor and password events, invitations, role changes and
deactivation. Identity itself (hashes, secrets) stays out of the ledger; these say who
did what to which account, and when."""

from __future__ import annotations

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import EventError

# What `AccountEventRecorded.kind` may say.
ACCOUNT_EVENT_KINDS = (
    "signed_in",
    "mfa_enrolled",
    "mfa_reset",
    "recovery_codes_renewed",
    "password_set",
    "password_changed",
    "password_reset",
    "invited",
    "deactivated",
)


@event
class AccountEventRecorded(DomainEvent):
    """`by_user_id`: who did it when not the user itself (the Authority resetting MFA,
    an owner inviting); `detail` words for the audit trail (a role, a reason)."""

    TYPE = "ACCOUNT_EVENT_RECORDED"
    user_id: str
    kind: str
    detail: str | None
    by_user_id: str | None
    at: str

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.kind not in ACCOUNT_EVENT_KINDS:
            raise EventError(f"unknown account event kind {self.kind!r}")
