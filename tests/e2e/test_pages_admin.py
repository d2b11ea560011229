"""What only the API could do before: register parties, record ownership and owners'
agreements, see the ownership web; create users and reset a password, all as the Authority
in its pages, with the API's own validation."""

from __future__ import annotations

from typing import Any

import pytest

from market.services.identity import identity
from tests.e2e.test_pages_support import browser, make_market, post_form
from tests.helpers import events

PARTIES, USERS = "/authority/parties", "/authority/users"


@pytest.mark.parametrize("path", [PARTIES, USERS])
def test_only_the_authority_administers(app: Any, path: str) -> None:
    m = make_market(app)
    assert browser(app, "authority").get(path).status_code == 200
    assert browser(app, "auditor").get(path).status_code == 403
    assert browser(app, "participant", m.seller["id"]).get(path).status_code == 403


def test_the_authority_registers_a_party_in_its_page(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    data = {
        "name": "Princeton Photonics",
        "tax_id": "22-7777777",
        "entity_type": "llc",
        "tax_types": ["CBT", "GIT"],
    }
    assert post_form(eda, PARTIES, PARTIES, data).status_code == 302
    found = [
        p
        for p in m.api.get("/api/v1/parties?limit=500", headers=m.eda).json["items"]
        if p["tax_id"] == "22-7777777"
    ]
    assert found and found[0]["entity_type"] == "llc" and found[0]["tax_types"] == ["CBT", "GIT"]


def test_a_party_form_refuses_what_the_api_refuses_and_writes_nothing(app: Any) -> None:
    make_market(app)
    eda, engine = browser(app, "authority"), app.extensions["market.engine"]
    before = events(engine)
    r = post_form(eda, PARTIES, PARTIES, {"name": "", "tax_id": "22-1", "entity_type": "trust"})
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and events(engine) == before
    assert 'id="register-name-error"' in page and 'id="register-entity_type-error"' in page
    assert 'aria-invalid="true"' in page


def test_ownership_is_recorded_and_drawn_as_a_nested_list(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    parent = m.post(
        "/api/v1/parties",
        m.eda,
        {
            "name": "Delaware Parent",
            "tax_id": "51-0000001",
            "entity_type": "c_corporation",
            "tax_types": ["CBT"],
        },
    )
    for owned, owner, pct in (
        ("Camden Robotics", "Delaware Parent", "60"),
        ("Delaware Parent", "Newark Insurance Holdings", "12.5"),
    ):
        data = {"owned": owned, "owner": owner, "voting": pct, "value": pct}
        r = post_form(eda, PARTIES, PARTIES + "/ownership", data)
        assert r.status_code == 302, r.get_data(as_text=True)
    page = eda.get(PARTIES).get_data(as_text=True)
    tree = page.split('class="tree"', 1)[1].split("</section>", 1)[0]
    # Camden's owner, and that owner's owner nested beneath it
    camden = tree[tree.index("<strong>Camden Robotics</strong>") :]
    assert camden.index("Delaware Parent") < camden.index("Newark Insurance Holdings")
    assert "60.00% of the votes" in tree and "12.50% of the votes" in tree
    got = m.api.get(f"/api/v1/parties/{m.seller['id']}", headers=m.eda).json
    assert got["owners"][0]["owner_party_id"] == parent["id"]
    assert got["owners"][0]["voting_bps"] == 6000


def test_a_stake_over_100_percent_is_refused_at_the_field(app: Any) -> None:
    make_market(app)
    r = post_form(
        browser(app, "authority"),
        PARTIES,
        PARTIES + "/ownership",
        {
            "owned": "Camden Robotics",
            "owner": "Newark Insurance Holdings",
            "voting": "101",
            "value": "10.555",
        },
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert 'id="ownership-voting-error"' in page and 'id="ownership-value-error">' in page


def test_an_owners_agreement_is_recorded(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    firm = m.post(
        "/api/v1/parties",
        m.eda,
        {
            "name": "Hudson Partners",
            "tax_id": "22-4000000",
            "entity_type": "partnership",
            "tax_types": ["GIT"],
        },
    )
    for owner, pct in (("Camden Robotics", "70"), ("Newark Insurance Holdings", "30")):
        r = post_form(
            eda,
            PARTIES,
            PARTIES + "/ownership",
            {"owned": "Hudson Partners", "owner": owner, "voting": pct, "value": pct},
        )
        assert r.status_code == 302
    data = {
        "partnership": "Hudson Partners",
        "filed_on": "2014-02-01",
        "share_owner_0": "Camden Robotics",
        "share_pct_0": "75",
        "share_owner_1": "Newark Insurance Holdings",
        "share_pct_1": "25",
    }
    r = post_form(eda, PARTIES, PARTIES + "/agreement", data)
    assert r.status_code == 302, r.get_data(as_text=True)
    got = m.api.get(f"/api/v1/parties/{firm['id']}", headers=m.eda).json["owners_agreement"]
    assert sorted(s["share_bps"] for s in got["shares"]) == [2500, 7500]
    assert "agreement filed 2014-02-01" in eda.get(PARTIES).get_data(as_text=True)


def test_the_authority_creates_a_participant_who_can_sign_in(app: Any) -> None:
    m = make_market(app)
    eda, engine = browser(app, "authority"), app.extensions["market.engine"]
    data = {
        "email": "treasurer@camden.example",
        "role": "participant",
        "party": f"Camden Robotics · {m.seller['tax_id']}",
        "password": "a-long-secret",
        "password_again": "a-long-secret",
    }
    assert post_form(eda, USERS, USERS, data).status_code == 302
    signed_in = identity.check_password(engine, "treasurer@camden.example", "a-long-secret")
    assert signed_in.role == "participant" and signed_in.party_id == m.seller["id"]


def test_a_participant_without_a_party_or_a_short_password_is_refused(app: Any) -> None:
    make_market(app)
    data = {
        "email": "x@example.com",
        "role": "participant",
        "party": "",
        "password": "short",
        "password_again": "short",
    }
    r = post_form(browser(app, "authority"), USERS, USERS, data)
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert 'id="create-party-error"' in page and 'id="create-password-error"' in page
    assert (
        "short"
        not in page.split("<main", 1)[1]
        .split('id="create-password-error"')[0]
        .split('name="password"', 1)[1][:80]
    )  # the typed password is not sent back


def test_the_authority_resets_a_password_and_revokes_tokens(app: Any) -> None:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    identity.create_user(engine, "forgot@example.com", "auditor", "old-password")
    login = m.api.post(
        "/api/v1/auth/token", json={"email": "forgot@example.com", "password": "old-password"}
    )
    token = login.json["token"]
    eda = browser(app, "authority")
    page = eda.get(USERS).get_data(as_text=True)
    user_id = page.split("forgot@example.com (auditor)", 1)[0].rsplit('value="', 1)[1].split('"')[0]
    r = post_form(
        eda,
        USERS,
        USERS + "/password",
        {
            "user_id": user_id,
            "new_password": "new-password-1",
            "new_password_again": "new-password-1",
        },
    )
    assert r.status_code == 302
    assert "1 API token(s) revoked" in eda.get(USERS).get_data(as_text=True)
    assert identity.check_password(engine, "forgot@example.com", "new-password-1").role == "auditor"
    again = m.api.get("/api/v1/parties", headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 401


def test_a_reset_with_passwords_that_differ_is_refused(app: Any) -> None:
    make_market(app)
    r = post_form(
        browser(app, "authority"),
        USERS,
        USERS + "/password",
        {"user_id": "", "new_password": "abcdefgh1", "new_password_again": "abcdefgh2"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and "The two passwords differ." in page
