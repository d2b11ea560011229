"""The Authority's user administration: who can sign in, creating a user, and resetting a
user's password. A reset revokes every bearer token the user holds, so an old session
cannot outlive the password it was issued under.
Users are identity, not ledger events, as the `users` CLI command treats them."""

from __future__ import annotations

from sqlalchemy import Engine

from market.adapters.repositories import identity as repo
from market.domain.commands.identity import CreateUser
from market.services.identity import identity
from market.services.identity.views import ListedUser, NewUser, PasswordReplaced
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import NotFoundError


def list_users(engine: Engine, actor: Actor) -> list[ListedUser]:
    actor.require(AUTHORITY)
    return [
        ListedUser(
            id=r.id,
            email=r.email,
            role=r.role,
            party_id=r.party_id,
            active=bool(r.active),
            created_at=r.created_at,
            party_name=r.party_name,
        )
        for r in repo.users_with_party_names(engine)
    ]


def create_user(engine: Engine, actor: Actor, new: CreateUser) -> NewUser:
    actor.require(AUTHORITY)
    return identity.create_user(engine, new.email, new.role, new.password, new.party_id)


def reset_password(engine: Engine, actor: Actor, user_id: str, password: str) -> PasswordReplaced:
    """Set a new password the Authority hands over, under the one password policy; every
    page session and token of the user stops working (identity.set_password)."""
    actor.require(AUTHORITY)
    user = repo.load_user(engine, user_id)
    if user is None:
        raise NotFoundError(f"User {user_id} does not exist.", {"user_id": user_id})
    live = repo.live_token_count(engine, user_id)
    identity.set_password(engine, user_id, password)
    return PasswordReplaced(id=user.id, email=user.email, tokens_revoked=live)
