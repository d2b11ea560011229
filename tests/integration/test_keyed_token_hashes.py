"""Issue 23, attack 3: whoever may INSERT into the identity tables (the runtime role, or
anyone who can write the SQLite file) wrote the SHA-256 of a token of their choosing and
was signed in with it, no password, no second factor. The digests are now HMACs under a
key outside the database: a row written by hand grants nothing."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select

from market.adapters.migrate import downgrade, upgrade
from market.adapters.tables import ApiToken, PasswordReset, WebSession
from market.services.identity import identity, password_reset, web_sessions

pytestmark = pytest.mark.storage

tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
sessions_t = WebSession.__table__  # type: ignore[attr-defined]
resets_t = PasswordReset.__table__  # type: ignore[attr-defined]
CHOSEN = "attacker-chosen-token-0123456789abcdef"
LATER = "2999-01-01T00:00:00.000000Z"
NOW = "2026-12-01T00:00:00.000000Z"


def _sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _authority(engine: Engine) -> str:
    email = f"eda-{uuid.uuid4().hex[:8]}@example.com"
    return str(identity.create_user(engine, email, "authority", "correct horse battery")["id"])


def test_a_hand_written_token_row_grants_nothing(app: Any) -> None:
    engine = app.extensions["market.engine"]
    user_id = _authority(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(tokens_t).values(
                id=uuid.uuid4().hex,
                user_id=user_id,
                token_hash=_sha256(CHOSEN),
                created_at=NOW,
                expires_at=LATER,
            )
        )
    client = app.test_client()
    r = client.get("/api/v1/ledger/verify", headers={"Authorization": f"Bearer {CHOSEN}"})
    assert r.status_code == 401, r.json
    assert r.json["error"]["code"] == "unauthorized"
    # A token the service issued works, and what it stored is no SHA-256 of it.
    actor = identity.actor_for_user_id(engine, user_id)
    assert actor is not None
    real = identity.issue_token(engine, actor, 1, app.extensions["market.token_hasher"])
    ok = client.get("/api/v1/ledger/verify", headers={"Authorization": f"Bearer {real}"})
    assert ok.status_code == 200, ok.json
    with engine.connect() as conn:
        stored = set(conn.execute(select(tokens_t.c.token_hash)).scalars())
    assert _sha256(real) not in stored and len(stored) == 2


def _with_session(app: Any, user_id: str, secret: str) -> int:
    client = app.test_client()
    with client.session_transaction() as session:
        session["sid"] = secret
        session["_user_id"] = user_id
        session["_fresh"] = True
    return int(client.get("/account").status_code)


def test_a_hand_written_session_row_opens_no_session(app: Any) -> None:
    engine = app.extensions["market.engine"]
    user_id = _authority(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(sessions_t).values(
                id=_sha256(CHOSEN), user_id=user_id, created_at=NOW, last_seen_at=NOW
            )
        )
    assert _with_session(app, user_id, CHOSEN) == 302  # to the sign-in page
    real = web_sessions.start(engine, app.extensions["market.token_hasher"], user_id)
    assert _with_session(app, user_id, real) == 200


def test_a_hand_written_reset_row_resets_nothing(app: Any) -> None:
    engine = app.extensions["market.engine"]
    user_id = _authority(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(resets_t).values(
                token_hash=_sha256(CHOSEN), user_id=user_id, created_at=NOW, expires_at=LATER
            )
        )
    client = app.test_client()
    refused = client.get(f"/password/reset/{CHOSEN}")
    assert refused.status_code == 400
    assert "not valid any more" in refused.get_data(as_text=True)
    email = identity.user_email(engine, user_id) or ""
    real = password_reset.request_reset(engine, app.extensions["market.token_hasher"], email)
    assert client.get(f"/password/reset/{real}").status_code == 200


def test_migration_0016_ends_the_digests_stored_before(engine: Engine) -> None:
    downgrade(engine, "0013")
    user_id = _authority(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(tokens_t).values(
                id="t1", user_id=user_id, token_hash="a" * 64, created_at=NOW, expires_at=LATER
            )
        )
        conn.execute(
            insert(sessions_t).values(
                id="b" * 64, user_id=user_id, created_at=NOW, last_seen_at=NOW
            )
        )
        conn.execute(
            insert(resets_t).values(
                token_hash="c" * 64, user_id=user_id, created_at=NOW, expires_at=LATER
            )
        )
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(select(tokens_t.c.revoked_at)).scalar_one() is not None
        assert conn.execute(select(sessions_t.c.revoked_at)).scalar_one() is not None
        assert conn.execute(select(resets_t.c.used_at)).scalar_one() is not None
