"""Who is acting, and the checks every use case makes about them."""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.errors import DomainError
from market.services.kernel.errors import ForbiddenError

AUTHORITY, PARTICIPANT, AUDITOR = "authority", "participant", "auditor"
ROLES = (AUTHORITY, PARTICIPANT, AUDITOR)
# A participant's role within its party (issue 29): an owner does everything the party
# may; a preparer prepares but cannot approve, sign or accept; a viewer reads only.
OWNER, PREPARER, VIEWER = "owner", "preparer", "viewer"
PARTY_ROLES = (OWNER, PREPARER, VIEWER)


class PartyRoleError(ForbiddenError):
    code = "party_role_forbidden"


@dataclass(frozen=True)
class Actor:
    user_id: str
    role: str
    party_id: str | None = None
    party_role: str = OWNER

    @property
    def label(self) -> str:
        """What an event's `actor` records: the user and whom it acted for, as
        `user:<user id>@<party id>` (a participant) or `user:<user id>@<role>` (the
        Authority, an auditor). Events written before this said `user:<user id>` only;
        their hashes cover what they say, so they still verify (services/queries/audit.py reads
        both)."""
        return f"user:{self.user_id}@{self.party_id or self.role}"

    def require(self, *roles: str) -> None:
        if self.role not in roles:
            raise ForbiddenError(
                f"This needs the {' or '.join(roles)} role; you are signed in as {self.role}.",
                {"required": list(roles), "role": self.role},
            )

    def require_party(self, party_id: str, hidden: DomainError | None = None) -> None:
        """Authority may act for anyone; a participant only for its own party. `hidden`:
        what a participant is told about another party's record, the same error as for
        one that does not exist, so answers reveal nothing (no existence oracle)."""
        if self.role == AUTHORITY:
            return
        if hidden is not None and self.role == PARTICIPANT and self.party_id != party_id:
            raise hidden
        if self.role != PARTICIPANT or self.party_id != party_id:
            # No details: naming the party would tell a stranger who holds what.
            raise ForbiddenError("You may only act for your own party.", {})
        self.require_writer()

    def require_writer(self) -> None:
        """A viewer of a party reads only."""
        if self.role == PARTICIPANT and self.party_role == VIEWER:
            raise PartyRoleError(
                "Your account can view this party's records but not change them.",
                {"party_role": self.party_role},
            )

    def require_signer(self) -> None:
        """Approving, signing and accepting for a party take an owner: a preparer
        prepares, a viewer reads."""
        self.require_writer()
        if self.role == PARTICIPANT and self.party_role != OWNER:
            raise PartyRoleError(
                "A preparer prepares; an owner of the party approves, signs or accepts.",
                {"party_role": self.party_role, "required": OWNER},
            )

    def require_reader_of(self, party_id: str, hidden: DomainError | None = None) -> None:
        """Authority and auditor read everything; a participant only its own party (told
        `hidden`, the not-found error, about another's)."""
        if self.role in (AUTHORITY, AUDITOR):
            return
        if self.party_id != party_id:
            if hidden is not None:
                raise hidden
            raise ForbiddenError("You may only read your own party's records.", {})


SYSTEM = Actor(user_id="system", role=AUTHORITY)
