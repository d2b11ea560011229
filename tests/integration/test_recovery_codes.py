"""New recovery codes (issue 28 item 9), on SQLite and PostgreSQL: a current code makes
ten new ones, the old ones stop working, and the renewal is an account event."""

from __future__ import annotations

import time
import uuid

import pyotp
import pytest
from sqlalchemy import Engine, select

from market.adapters.tables import AccountEvent
from market.services.identity import accounts, identity, mfa
from market.services.kernel.errors import UnauthorizedError

pytestmark = pytest.mark.storage
account_events_t = AccountEvent.__table__  # type: ignore[attr-defined]


def test_new_recovery_codes_replace_the_old(engine: Engine) -> None:
    from market.adapters.migrate import upgrade

    upgrade(engine)
    email = f"mfa-{uuid.uuid4().hex[:8]}@example.com"
    user_id = str(identity.create_user(engine, email, "auditor", "correct horse battery")["id"])
    secret = mfa.begin(engine, user_id)
    now = time.time()
    old = mfa.confirm(engine, user_id, pyotp.TOTP(secret).at(now), now)
    with pytest.raises(UnauthorizedError):  # a wrong code makes nothing
        accounts.renew_recovery_codes(engine, user_id, "000000x", now + 60)
    later = now + 60
    new = accounts.renew_recovery_codes(engine, user_id, pyotp.TOTP(secret).at(later), later)
    assert len(new) == 10 and not set(new) & set(old)
    with pytest.raises(UnauthorizedError):
        mfa.verify(engine, user_id, old[0], later + 60)
    mfa.verify(engine, user_id, new[0], later + 60)  # a new one signs in once
    with engine.connect() as conn:
        kinds = [
            r.kind
            for r in conn.execute(
                select(account_events_t.c.kind)
                .where(account_events_t.c.user_id == user_id)
                .order_by(account_events_t.c.id)
            )
        ]
    assert kinds == ["mfa_enrolled", "recovery_codes_renewed"]
