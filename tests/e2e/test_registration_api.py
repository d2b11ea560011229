"""Registration and accounts over the API (issue 29 item 1, issue 28 item 9), on SQLite
and PostgreSQL: the happy path, and each refusal with nothing written."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import func, select, text

from market.adapters.tables import EmailMessage, User
from market.services.identity import invitations
from market.services.registration import applications
from market.services.registration.registrations import NewRegistration
from tests.helpers import events, headers_for

pytestmark = pytest.mark.storage
users_t = User.__table__  # type: ignore[attr-defined]
mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
PASSWORD = "a long enough passphrase"


def body(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "legal_name": "Pinelands Robotics LLC",
        "tax_id": f"{uuid.uuid4().int % 10**9:09d}",
        "nj_tax_registration": "NJ-123456",
        "entity_type": "llc",
        "tax_types": ["CBT"],
        "contact_email": f"cfo-{uuid.uuid4().hex[:8]}@example.com",
        "officers": [{"name": "Ada Pine", "title": "CEO"}],
        "affiliates": [{"name": "Pinelands Holdings", "relationship": "parent"}],
    }
    data.update(overrides)
    return data


def submit(app: Any, **overrides: Any) -> tuple[str, str, dict[str, Any]]:
    """Register through the service (to see the e-mailed token) as the API does."""
    engine, hasher = app.extensions["market.engine"], app.extensions["market.token_hasher"]
    data = body(**overrides)
    made, token = applications.submit(
        engine, hasher, NewRegistration(**data), "198.51.100.7", invitations_policy()
    )
    return made["id"], token, data


def invitations_policy() -> Any:
    from market.services.identity.throttle import Policy

    return Policy()


def test_a_business_registers_is_approved_and_its_owner_invites_a_preparer(
    app: Any, client: Any
) -> None:
    engine, hasher = app.extensions["market.engine"], app.extensions["market.token_hasher"]
    r = client.post("/api/v1/registrations", json=body())
    assert r.status_code == 202, r.json
    assert r.json["status"] == "email_unverified"
    reg_id, token, data = submit(app)
    # The link went to the outbox; only its keyed hash is stored.
    with engine.connect() as conn:
        sent = conn.execute(select(mail_t.c.text_body).where(mail_t.c.user_id == reg_id)).all()
    assert len(sent) == 1 and f"/join/verify/{token}" in sent[0].text_body
    v = client.post("/api/v1/registrations/verify", json={"token": token})
    assert v.status_code == 200 and v.json["status"] == "submitted", v.json
    seen = client.get(f"/api/v1/registrations/{reg_id}?token={token}")
    assert seen.status_code == 200 and seen.json["status"] == "submitted", seen.json
    assert "tax_id" not in seen.json  # the applicant's view: status and reason only

    eda = headers_for(client, engine, "authority")
    review = client.get(f"/api/v1/registrations/{reg_id}", headers=eda)
    assert review.status_code == 200 and review.json["officers"][0]["name"] == "Ada Pine"
    before = events(engine)
    ok = client.post(f"/api/v1/registrations/{reg_id}/approve", headers=eda)
    assert ok.status_code == 200, ok.json
    assert ok.json["status"] == "approved" and ok.json["party_id"]
    assert events(engine) >= before + 2  # PARTY_REGISTERED and REGISTRATION_APPROVED
    party_id = ok.json["party_id"]
    party = client.get(f"/api/v1/parties/{party_id}", headers=eda)
    assert party.json["tax_id"] == data["tax_id"]

    # The first user signs in only after choosing a password on the e-mailed link.
    no = client.post(
        "/api/v1/auth/token", json={"email": data["contact_email"], "password": PASSWORD}
    )
    assert no.status_code == 401
    with engine.connect() as conn:
        invite_mail = conn.execute(
            select(mail_t.c.text_body).where(
                mail_t.c.user_id == reg_id, mail_t.c.type.like("INVITE_%")
            )
        ).scalar_one()
    invite_token = invite_mail.split("/account/set-password/")[1].split()[0]
    invitations.accept_invite(engine, hasher, invite_token, PASSWORD, PASSWORD)
    signed = client.post(
        "/api/v1/auth/token", json={"email": data["contact_email"], "password": PASSWORD}
    )
    assert signed.status_code == 200, signed.json
    owner = {"Authorization": f"Bearer {signed.json['token']}"}

    inv = client.post(
        f"/api/v1/parties/{party_id}/users",
        json={"email": "preparer@example.com", "role": "preparer"},
        headers=owner,
    )
    assert inv.status_code == 201, inv.json
    listed = client.get(f"/api/v1/parties/{party_id}/users", headers=owner)
    roles = {u["email"]: u["role"] for u in listed.json["items"]}
    assert roles == {data["contact_email"]: "owner", "preparer@example.com": "preparer"}


def test_a_tax_id_already_registered_is_refused_and_nothing_written(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    taken = client.post(
        "/api/v1/parties",
        json={"name": "Old Co", "tax_id": "11-1111111", "entity_type": "llc", "tax_types": ["CBT"]},
        headers=eda,
    )
    assert taken.status_code == 201, taken.json
    before = events(engine)
    with engine.connect() as conn:
        users_before = conn.execute(select(func.count()).select_from(users_t)).scalar_one()
    r = client.post("/api/v1/registrations", json=body(tax_id="11-1111111"))
    assert r.status_code == 409, r.json
    assert r.json["error"]["code"] == "tax_id_registered"
    assert r.json["error"]["details"] == {"field": "tax_id"}
    assert events(engine) == before
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(users_t)).scalar_one() == users_before
    # A second request for a tax id still waiting is refused the same way.
    submit(app, tax_id="22-2222222")
    again = client.post("/api/v1/registrations", json=body(tax_id="22-2222222"))
    assert again.status_code == 409 and again.json["error"]["code"] == "tax_id_registered"


def test_a_used_or_expired_link_is_refused(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    _reg_id, token, _ = submit(app)
    assert client.post("/api/v1/registrations/verify", json={"token": token}).status_code == 200
    before = events(engine)
    reused = client.post("/api/v1/registrations/verify", json={"token": token})
    assert reused.status_code == 400 and reused.json["error"]["code"] == "link_invalid"
    assert events(engine) == before
    # Expired: a link whose time ran out.
    reg2, token2, _ = submit(app)
    with engine.begin() as conn:
        conn.execute(
            applications.links_t.update()
            .where(applications.links_t.c.registration_id == reg2)
            .values(expires_at="2000-01-01T00:00:00.000000Z")
        )
    expired = client.post("/api/v1/registrations/verify", json={"token": token2})
    assert expired.status_code == 400 and expired.json["error"]["code"] == "link_invalid"
    eda = headers_for(client, engine, "authority")
    seen = client.get(f"/api/v1/registrations/{reg2}", headers=eda)
    assert seen.json["status"] == "email_unverified"
    # An unverified registration cannot be approved.
    early = client.post(f"/api/v1/registrations/{reg2}/approve", headers=eda)
    assert early.status_code == 409 and early.json["error"]["code"] == "registration_not_pending"


def test_a_rejection_reason_is_what_the_business_sees(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    reg_id, token, _ = submit(app)
    client.post("/api/v1/registrations/verify", json={"token": token})
    eda = headers_for(client, engine, "authority")
    blank = client.post(f"/api/v1/registrations/{reg_id}/reject", json={"reason": " "}, headers=eda)
    assert blank.status_code == 422 and blank.json["error"]["details"] == {"field": "reason"}
    r = client.post(
        f"/api/v1/registrations/{reg_id}/reject",
        json={"reason": "The NJ tax registration does not match the name."},
        headers=eda,
    )
    assert r.status_code == 200 and r.json["status"] == "rejected", r.json
    seen = client.get(f"/api/v1/registrations/{reg_id}?token={token}")
    assert seen.json["reason"] == "The NJ tax registration does not match the name."


def test_approving_a_tax_id_registered_meanwhile_is_refused(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    reg_id, token, data = submit(app)
    client.post("/api/v1/registrations/verify", json={"token": token})
    eda = headers_for(client, engine, "authority")
    by_hand = {
        "name": "By Hand",
        "tax_id": data["tax_id"],
        "entity_type": "llc",
        "tax_types": ["CBT"],
    }
    assert client.post("/api/v1/parties", json=by_hand, headers=eda).status_code == 201
    before = events(engine)
    r = client.post(f"/api/v1/registrations/{reg_id}/approve", headers=eda)
    assert r.status_code == 409 and r.json["error"]["code"] == "tax_id_registered", r.json
    assert events(engine) == before
    with engine.connect() as conn:
        active = conn.execute(select(users_t.c.active).where(users_t.c.id == reg_id)).scalar()
    assert active is False  # the applicant's account stays closed


def test_asking_is_throttled_like_signing_in(app: Any, client: Any) -> None:
    app.config["LOGIN_MAX_FAILURES_PER_ADDRESS"] = 2
    engine = app.extensions["market.engine"]
    before = events(engine)
    for _ in range(2):
        assert client.post("/api/v1/registrations", json=body()).status_code == 202
    third = client.post("/api/v1/registrations", json=body())
    assert third.status_code == 429 and third.json["error"]["code"] == "too_many_attempts"
    assert "Retry-After" in third.headers
    assert events(engine) == before + 2


def test_the_database_refuses_a_second_open_registration_for_a_tax_id(app: Any) -> None:
    from sqlalchemy.exc import IntegrityError

    from market.adapters.tables import Registration

    engine = app.extensions["market.engine"]
    reg_id, _, _ = submit(app)
    registrations_t = Registration.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        row = dict(
            conn.execute(select(registrations_t).where(registrations_t.c.id == reg_id))
            .mappings()
            .one()
        )
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(registrations_t.insert().values({**row, "id": "reg_by_hand"}))


def test_an_approval_that_fails_midway_writes_nothing_and_can_be_taken_again(
    app: Any, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One unit of work: the party, the approval, the owner's account and its link."""
    engine = app.extensions["market.engine"]
    reg_id, token, _ = submit(app)
    client.post("/api/v1/registrations/verify", json={"token": token})
    eda = headers_for(client, engine, "authority")
    before = events(engine)

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("the mail queue is down")

    monkeypatch.setattr(invitations, "send_invite", broken)
    with pytest.raises(RuntimeError):
        applications.approve(engine, app.extensions["market.token_hasher"], _eda(), reg_id)
    assert events(engine) == before
    with engine.connect() as conn:
        user = conn.execute(select(users_t).where(users_t.c.id == reg_id)).mappings().one()
        parties = conn.execute(text("select count(*) from parties")).scalar()
    assert user["active"] is False and user["party_id"] is None and parties == 0
    monkeypatch.undo()
    ok = client.post(f"/api/v1/registrations/{reg_id}/approve", headers=eda)
    assert ok.status_code == 200 and ok.json["status"] == "approved", ok.json


def _eda() -> Any:
    from market.services.kernel.actor import AUTHORITY, Actor

    return Actor("eda", AUTHORITY)
