"""The registration and account pages (issue 29 item 1, issue 28 item 9), on SQLite and
PostgreSQL: ask to join with each problem beside its field, confirm the address from the
link, the Authority's review beside a similar party then approval after review, the
first user's set-password page, and the owner's users page with its invite form."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.tables import EmailMessage
from tests.e2e.test_pages_support import browser, confirm_form, post_form
from tests.helpers import events

pytestmark = pytest.mark.storage
mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
PASSWORD = "a long enough passphrase"


def _form(**overrides: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "legal_name": "Pinelands Robotics LLC",
        "tax_id": f"{uuid.uuid4().int % 10**9:09d}",
        "nj_tax_registration": "NJ-123456",
        "entity_type": "llc",
        "tax_types": ["CBT"],
        "contact_email": f"cfo-{uuid.uuid4().hex[:8]}@example.com",
        "officer-0-name": "Ada Pine",
        "officer-0-title": "CEO",
    }
    data.update(overrides)
    return data


def _link(engine: Any, to: str, marker: str) -> str:
    with engine.connect() as conn:
        bodies = conn.execute(select(mail_t.c.text_body).where(mail_t.c.to_addr == to)).all()
    found = [b.text_body for b in bodies if marker in b.text_body]
    assert found, bodies
    return str(found[-1].split(marker)[1].split()[0])


def test_a_business_joins_from_the_pages(app: Any) -> None:
    engine = app.extensions["market.engine"]
    eda = browser(app, "authority")
    made = post_form(
        eda,
        "/authority/parties",
        "/authority/parties",
        {
            "name": "Pinelands Robotic",
            "tax_id": "55-5555555",
            "entity_type": "llc",
            "tax_types": "CBT",
        },
    )
    assert made.status_code in (200, 302), made.get_data(as_text=True)[:500]

    public = app.test_client()
    bad = post_form(public, "/join", "/join", _form(tax_id="12", officer_0_name=""))
    page = bad.get_data(as_text=True)
    assert bad.status_code == 400
    assert 'id="join-tax_id-error"' in page and "9 digits" in page
    data = _form()
    sent = post_form(public, "/join", "/join", data)
    assert sent.status_code == 202 and data["contact_email"] in sent.get_data(as_text=True)
    token = _link(engine, data["contact_email"], "/join/verify/")
    landing = public.get(f"/join/verify/{token}")
    assert landing.status_code == 200 and "waiting for you to confirm" in landing.get_data(True)
    before = events(engine)
    confirmed = post_form(public, f"/join/verify/{token}", f"/join/verify/{token}", {})
    assert confirmed.status_code == 302 and events(engine) == before + 1
    assert "with the Authority" in public.get(f"/join/verify/{token}").get_data(as_text=True)

    desk = eda.get("/authority/registrations").get_data(as_text=True)
    reg_id = re.search(r'/authority/registrations/(reg_[0-9a-f]+)"', desk)
    assert reg_id, desk[:2000]
    review = eda.get(f"/authority/registrations/{reg_id.group(1)}").get_data(as_text=True)
    assert "Pinelands Robotic" in review and "similar name" in review
    # Rejecting needs a reason beside its field.
    blank = post_form(
        eda,
        f"/authority/registrations/{reg_id.group(1)}",
        f"/authority/registrations/{reg_id.group(1)}/reject",
        {"reason": ""},
    )
    assert blank.status_code == 400 and 'id="reject-reason-error"' in blank.get_data(True)
    before = events(engine)
    done = confirm_form(
        eda,
        f"/authority/registrations/{reg_id.group(1)}",
        f"/authority/registrations/{reg_id.group(1)}/approve",
        {},
    )
    assert done.status_code == 302 and events(engine) >= before + 2

    set_token = _link(engine, data["contact_email"], "/account/set-password/")
    short = post_form(
        public,
        f"/account/set-password/{set_token}",
        f"/account/set-password/{set_token}",
        {"password": "short", "password_again": "short"},
    )
    assert short.status_code == 400 and "12 characters" in short.get_data(as_text=True)
    ok = post_form(
        public,
        f"/account/set-password/{set_token}",
        f"/account/set-password/{set_token}",
        {"password": PASSWORD, "password_again": PASSWORD},
    )
    assert ok.status_code == 302
    again = public.get(f"/account/set-password/{set_token}")
    assert again.status_code == 404  # the link worked once

    owner = app.test_client()
    login = post_form(
        owner, "/login", "/login", {"email": data["contact_email"], "password": PASSWORD}
    )
    assert login.status_code == 302
    audit = eda.get("/audit?user=" + reg_id.group(1)).get_data(as_text=True)
    assert "ACCOUNT_EVENT_RECORDED" in audit, audit[:3000]  # the sign-in
    users = owner.get("/party/users").get_data(as_text=True)
    assert data["contact_email"] in users and "Invite a user" in users
    wrong = post_form(owner, "/party/users", _invite_action(users), {"email": "", "role": "boss"})
    page = wrong.get_data(as_text=True)
    assert wrong.status_code == 400
    assert 'id="invite-email-error"' in page and 'id="invite-role-error"' in page
    invited = post_form(
        owner,
        "/party/users",
        _invite_action(users),
        {"email": "prep@example.com", "role": "preparer"},
    )
    assert invited.status_code == 302
    assert "prep@example.com" in owner.get("/party/users").get_data(as_text=True)


def _invite_action(page: str) -> str:
    found = re.search(r'action="(/parties/[^"]+/users/invite)"', page)
    assert found, page[:2000]
    return found.group(1)


def test_every_role_is_offered_two_step_sign_in(app: Any) -> None:
    page = browser(app, "auditor").get("/account").get_data(as_text=True)
    assert "Set up two-step sign-in" in page
    users = browser(app, "authority").get("/authority/users").get_data(as_text=True)
    assert "At least 12 characters" in users and "At least 8" not in users


def _member_browser(app: Any, party_id: str, role: str) -> Any:
    from market.domain.commands.identity import InviteUser
    from market.services.identity import invitations
    from market.services.kernel.actor import AUTHORITY, Actor

    engine, hasher = app.extensions["market.engine"], app.extensions["market.token_hasher"]
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    invited = InviteUser(party_id, email, role)
    _, token = invitations.invite(engine, hasher, Actor("eda", AUTHORITY), invited)
    invitations.accept_invite(engine, hasher, token, PASSWORD, PASSWORD)
    client = app.test_client()
    r = post_form(client, "/login", "/login", {"email": email, "password": PASSWORD})
    assert r.status_code == 302
    return client


def test_a_preparer_cannot_accept_an_offer_on_the_page(app: Any) -> None:
    from tests.e2e.test_pages_support import make_market

    m = make_market(app)
    offer = m.offer(m.listing()["id"])
    preparer = _member_browser(app, m.seller["id"], "preparer")
    before = events(m.app.extensions["market.engine"])
    r = post_form(preparer, "/seller", f"/seller/offers/{offer['id']}/accept", {})
    assert r.status_code == 403, r.get_data(as_text=True)[:500]
    assert "an owner of the party approves, signs or accepts" in r.get_data(as_text=True)
    assert events(m.app.extensions["market.engine"]) == before
    viewer = _member_browser(app, m.seller["id"], "viewer")
    users = viewer.get("/party/users").get_data(as_text=True)
    assert "Invite a user" not in users  # a viewer sees the users, cannot invite
