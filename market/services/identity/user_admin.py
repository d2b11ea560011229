"""The Authority's user administration: who can sign in, creating a user, and resetting a
user's password. A reset revokes every bearer token the user holds, so an old session
cannot outlive the password it was issued under.
Users are identity, not ledger events, as the `users` CLI command treats them."""

from __future__ import annotations

from sqlalchemy import Engine, func, select

from market.adapters.tables import ApiToken, Party, User
from market.domain.commands.identity import CreateUser
from market.services.identity import identity
from market.services.identity.views import ListedUser, NewUser, PasswordReplaced
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import NotFoundError

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]


def list_users(engine: Engine, actor: Actor) -> list[ListedUser]:
    actor.require(AUTHORITY)
    stmt = (
        select(
            users_t.c.id,
            users_t.c.email,
            users_t.c.role,
            users_t.c.party_id,
            users_t.c.active,
            users_t.c.created_at,
            parties_t.c.name.label("party_name"),
        )
        .select_from(users_t.outerjoin(parties_t, parties_t.c.id == users_t.c.party_id))
        .order_by(users_t.c.email)
    )
    with engine.connect() as conn:
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
            for r in conn.execute(stmt)
        ]


def create_user(engine: Engine, actor: Actor, new: CreateUser) -> NewUser:
    actor.require(AUTHORITY)
    return identity.create_user(engine, new.email, new.role, new.password, new.party_id)


def reset_password(engine: Engine, actor: Actor, user_id: str, password: str) -> PasswordReplaced:
    """Set a new password the Authority hands over, under the one password policy; every
    page session and token of the user stops working (identity.set_password)."""
    actor.require(AUTHORITY)
    with engine.connect() as conn:
        user = conn.execute(
            select(users_t.c.id, users_t.c.email).where(users_t.c.id == user_id)
        ).first()
        if user is None:
            raise NotFoundError(f"User {user_id} does not exist.", {"user_id": user_id})
        live = conn.execute(
            select(func.count())
            .select_from(tokens_t)
            .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
        ).scalar_one()
    identity.set_password(engine, user_id, password)
    return PasswordReplaced(id=user.id, email=user.email, tokens_revoked=int(live))
