"""Account administration (issue 28 item 9): deactivation (every page session, bearer
token and unused link of the user ends at once), the Authority's reset of a user's second
factor (recorded, with its reason), new recovery codes, and the page of one party's
users, roles and open invitations."""

from __future__ import annotations

import time

from sqlalchemy import Engine

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories import identity as repo
from market.adapters.repositories import identity_accounts as accounts_repo
from market.adapters.repositories.identity_models import UserAccount
from market.domain.errors import InvalidRequestError
from market.services.identity import account_log, mfa, web_sessions
from market.services.identity.invitations import require_owner_of
from market.services.identity.views import Deactivated, MfaReset, PartyUser
from market.services.kernel.actor import AUTHORITY, OWNER, Actor
from market.services.kernel.errors import ForbiddenError, NotFoundError, not_found
from market.services.notify.fanout import write_transaction


def _user(engine: Engine, user_id: str) -> UserAccount:
    user = repo.load_user(engine, user_id)
    if user is None:
        raise NotFoundError(f"User {user_id} does not exist.", {"user_id": user_id})
    return user


def may_deactivate(engine: Engine, actor: Actor, user_id: str) -> UserAccount:
    """The user, if `actor` may deactivate it: the Authority, or an owner of the user's
    party, never oneself."""
    user = _user(engine, user_id)
    if actor.role != AUTHORITY:
        require_owner_of(actor, user.party_id or "")
    if user_id == actor.user_id:
        raise ForbiddenError("You cannot deactivate your own account.", {})
    return user


def deactivate(engine: Engine, actor: Actor, user_id: str, reason: str) -> Deactivated:
    """The user can no longer sign in, and what they hold stops working now."""
    may_deactivate(engine, actor, user_id)
    if not reason.strip():
        raise InvalidRequestError("Say why the account is deactivated.", {"field": "reason"})
    now = utcnow_iso()
    with write_transaction(engine) as conn:
        live = accounts_repo.deactivate_user(conn, user_id, now)
    sessions = web_sessions.revoke_all(engine, user_id)
    account_log.record(engine, user_id, "deactivated", reason.strip(), by=actor)
    return Deactivated(id=user_id, active=False, tokens_revoked=live, sessions_ended=sessions)


def reset_mfa(engine: Engine, actor: Actor, user_id: str, reason: str) -> MfaReset:
    """The Authority removes a user's second factor (a lost phone, no codes left): the
    user sets it up again at the next sign-in; recorded with the reason."""
    actor.require(AUTHORITY)
    _user(engine, user_id)
    if not reason.strip():
        raise InvalidRequestError("Say why the second factor is reset.", {"field": "reason"})
    with write_transaction(engine) as conn:
        removed = accounts_repo.remove_second_factor(conn, user_id)
    web_sessions.revoke_all(engine, user_id)
    account_log.record(engine, user_id, "mfa_reset", reason.strip(), by=actor)
    return MfaReset(id=user_id, mfa_enrolled=False, credential_removed=removed)


def renew_recovery_codes(
    engine: Engine, user_id: str, code: str, now: float | None = None
) -> list[str]:
    """Ten new recovery codes in place of the old ones, for the signed-in user who proves
    the second factor once more (a current code)."""
    if not mfa.is_enrolled(engine, user_id):
        raise InvalidRequestError("Set up two-step sign-in first.", {"field": "code"})
    mfa.verify(engine, user_id, code, now or time.time())
    codes = [mfa.new_recovery_code() for _ in range(mfa.RECOVERY_CODES)]
    with write_transaction(engine) as conn:
        digests = [mfa.code_digest(c) for c in codes]
        accounts_repo.replace_recovery_codes(conn, user_id, digests)
    account_log.record(engine, user_id, "recovery_codes_renewed")
    return codes


def party_users(engine: Engine, actor: Actor, party_id: str) -> list[PartyUser]:
    """A party's users, their roles, whether active, MFA on, and an open invitation."""
    # Another party's users answer as an unknown party would (no existence oracle).
    actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
    rows = repo.party_user_rows(engine, party_id, utcnow_iso())
    return [
        PartyUser(
            id=r.id,
            email=r.email,
            role=r.party_role or OWNER,
            active=bool(r.active),
            mfa_enrolled=r.mfa_since is not None,
            invite_open=bool(r.invite_open),
            created_at=r.created_at,
        )
        for r in rows
    ]
