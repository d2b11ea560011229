"""Party roles and accounts over the API (issue 29 item 1, issue 28 item 9), on SQLite
and PostgreSQL: who may invite, a preparer cannot accept or consent, a viewer reads only,
an invite link works once, and a deactivated user is out at once."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import func, select

from market.adapters.tables import AccountEvent, User
from market.domain.commands.identity import InviteUser
from market.services.identity import invitations
from market.services.kernel.actor import AUTHORITY, Actor
from tests.e2e.test_trading_api import Market
from tests.helpers import events

pytestmark = pytest.mark.storage
M = 100_000_000
PASSWORD = "a long enough passphrase"
users_t = User.__table__  # type: ignore[attr-defined]
account_events_t = AccountEvent.__table__  # type: ignore[attr-defined]


def member(m: Market, party_id: str, role: str) -> tuple[dict[str, str], str]:
    """A user of the party with this role, invited and signed in: (headers, user id)."""
    hasher = m.client.application.extensions["market.token_hasher"]
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    invited = InviteUser(party_id, email, role)
    user, token = invitations.invite(m.engine, hasher, Actor("eda", AUTHORITY), invited)
    invitations.accept_invite(m.engine, hasher, token, PASSWORD, PASSWORD)
    r = m.client.post("/api/v1/auth/token", json={"email": email, "password": PASSWORD})
    assert r.status_code == 200, r.json
    return {"Authorization": f"Bearer {r.json['token']}"}, user["id"]


def _brrag(m: Market) -> dict[str, Any]:
    return m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)


def test_a_preparer_cannot_consent_and_a_viewer_cannot_propose(client: Any) -> None:
    m = Market(client)
    cert = _brrag(m)
    proposed = m.negotiate(cert["id"], M, 80 * M // 100)
    assert proposed.status_code == 201, proposed.json
    t = proposed.json
    preparer_h, _ = member(m, m.buyer["id"], "preparer")
    viewer_h, _ = member(m, m.seller["id"], "viewer")
    before = events(m.engine)
    refused = m.post(f"/api/v1/transfers/{t['id']}/confirm", preparer_h)
    assert refused.status_code == 403, refused.json
    assert refused.json["error"]["code"] == "party_role_forbidden"
    proposal = {
        "certificate_id": cert["id"],
        "buyer_party_id": m.buyer["id"],
        "amount_cents": M // 2,
        "consideration_cents": 40 * M // 100,
    }
    read_only = m.post("/api/v1/transfers", viewer_h, proposal)
    assert read_only.status_code == 403, read_only.json
    assert read_only.json["error"]["code"] == "party_role_forbidden"
    assert events(m.engine) == before
    # The viewer still reads its party's records; the owner consents.
    assert m.get(f"/api/v1/certificates/{cert['id']}", viewer_h).status_code == 200
    assert m.post(f"/api/v1/transfers/{t['id']}/confirm", m.buyer_h).status_code == 200


def test_only_an_owner_or_the_authority_invites(client: Any) -> None:
    m = Market(client)
    preparer_h, _ = member(m, m.seller["id"], "preparer")
    with m.engine.connect() as conn:
        users_before = conn.execute(select(func.count()).select_from(users_t)).scalar_one()
    body = {"email": "new@example.com", "role": "viewer"}
    for headers, code in (
        (preparer_h, 403),  # a preparer of the party
        (m.buyer_h, 403),  # an owner of another party
    ):
        r = m.post(f"/api/v1/parties/{m.seller['id']}/users", headers, body)
        assert r.status_code == code, r.json
        assert r.json["error"]["code"] == "forbidden"
    bad = m.post(f"/api/v1/parties/{m.seller['id']}/users", m.seller_h, {**body, "role": "boss"})
    assert bad.status_code == 400, bad.json
    assert "role" in bad.json["error"]["details"]["fields"]["json"]
    with m.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(users_t)).scalar_one() == users_before
    ok = m.post(f"/api/v1/parties/{m.seller['id']}/users", m.seller_h, body)
    assert ok.status_code == 201, ok.json
    taken = m.post(f"/api/v1/parties/{m.seller['id']}/users", m.auth, body)
    assert taken.status_code == 409 and taken.json["error"]["code"] == "email_taken"


def test_an_invite_link_works_once(client: Any) -> None:
    m = Market(client)
    hasher = client.application.extensions["market.token_hasher"]
    invited = InviteUser(m.seller["id"], "once@example.com", "viewer")
    _, token = invitations.invite(m.engine, hasher, Actor("eda", AUTHORITY), invited)
    invitations.accept_invite(m.engine, hasher, token, PASSWORD, PASSWORD)
    with pytest.raises(invitations.single_use_links.LinkInvalidError):
        invitations.accept_invite(
            m.engine, hasher, token, "another long passphrase", "another long passphrase"
        )
    r = client.post("/api/v1/auth/token", json={"email": "once@example.com", "password": PASSWORD})
    assert r.status_code == 200


def test_a_deactivated_user_is_signed_out_at_once_and_cannot_sign_in(client: Any) -> None:
    m = Market(client)
    viewer_h, viewer_id = member(m, m.seller["id"], "viewer")
    assert m.get(f"/api/v1/parties/{m.seller['id']}/users", viewer_h).status_code == 200
    self_off = m.post(f"/api/v1/users/{viewer_id}/deactivate", viewer_h, {"reason": "x"})
    assert self_off.status_code == 403
    done = m.post(f"/api/v1/users/{viewer_id}/deactivate", m.seller_h, {"reason": "Left us."})
    assert done.status_code == 200 and done.json["tokens_revoked"] == 1, done.json
    gone = m.get(f"/api/v1/parties/{m.seller['id']}/users", viewer_h)
    assert gone.status_code == 401
    with m.engine.connect() as conn:
        email = conn.execute(select(users_t.c.email).where(users_t.c.id == viewer_id)).scalar()
        kinds = [
            r.kind
            for r in conn.execute(
                select(account_events_t.c.kind)
                .where(account_events_t.c.user_id == viewer_id)
                .order_by(account_events_t.c.id)
            )
        ]
    again = client.post("/api/v1/auth/token", json={"email": email, "password": PASSWORD})
    assert again.status_code == 401 and again.json["error"]["code"] == "unauthorized"
    # A bearer token's issue is no audit event (a page sign-in is: test_pages_registration).
    assert kinds == ["invited", "password_set", "deactivated"]


def test_the_authority_resets_a_second_factor_with_a_record(client: Any) -> None:
    m = Market(client)
    _, user_id = member(m, m.seller["id"], "owner")
    no_reason = m.post(f"/api/v1/users/{user_id}/mfa-reset", m.auth, {"reason": " "})
    assert no_reason.status_code == 422 and no_reason.json["error"]["details"] == {
        "field": "reason"
    }
    not_eda = m.post(f"/api/v1/users/{user_id}/mfa-reset", m.seller_h, {"reason": "lost"})
    assert not_eda.status_code == 403
    ok = m.post(f"/api/v1/users/{user_id}/mfa-reset", m.auth, {"reason": "Lost phone."})
    assert ok.status_code == 200, ok.json
    with m.engine.connect() as conn:
        row = conn.execute(
            select(account_events_t).where(
                account_events_t.c.user_id == user_id, account_events_t.c.kind == "mfa_reset"
            )
        ).one()
    assert row.detail == "Lost phone." and row.by_user_id is not None
