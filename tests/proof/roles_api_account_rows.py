"""The API role matrix's rows for registration and accounts (issue 29 item 1, issue 28
item 9): asking to join is for anyone; the desk and decisions are the Authority's; a
party's users are its own and the Authority's; deactivation and the second-factor reset
act on a fresh user each time, so no row signs another row's caller out."""

from __future__ import annotations

import uuid
from typing import Any

from market.domain.commands.identity import InviteUser
from market.services.identity import invitations
from market.services.kernel.actor import AUTHORITY, Actor
from tests.proof.roles_api_rows import LEDGER, Row, get, post
from tests.proof.roles_world import Matrix, statuses

DECIDE = {"authority": 404, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401}
MANAGE = {"authority": 200, "auditor": 403, "owner": 200, "other": 403, "anonymous": 401}


def _ask(m: Matrix) -> dict[str, Any]:
    return {
        "legal_name": "Matrix Applicant LLC",
        "tax_id": f"{uuid.uuid4().int % 10**9:09d}",
        "nj_tax_registration": "NJ-1",
        "entity_type": "llc",
        "tax_types": ["CBT"],
        "contact_email": f"ask-{uuid.uuid4().hex[:8]}@example.com",
        "officers": [{"name": "Ada", "title": "CEO"}],
    }


def _fresh_user(m: Matrix) -> str:
    hasher = m.client.application.extensions["market.token_hasher"]
    email = f"fresh-{uuid.uuid4().hex[:8]}@example.com"
    invited = InviteUser(m.owner["id"], email, "viewer")
    user, _ = invitations.invite(m.engine, hasher, Actor("matrix", AUTHORITY), invited)
    return str(user["id"])


def _on_fresh_user(action: str) -> Any:
    def request(m: Matrix, role: str) -> tuple[str, str, Any]:
        return "POST", f"/api/v1/users/{_fresh_user(m)}/{action}", {"reason": "matrix"}

    return request


ACCOUNT_ROWS = [
    Row(
        "registrations: ask",
        post(lambda m: "/api/v1/registrations", _ask),
        statuses(202, anonymous=202),
    ),
    Row(
        "registrations: verify an unknown link",
        post(lambda m: "/api/v1/registrations/verify", lambda m: {"token": "not-a-link-token"}),
        statuses(400, anonymous=400),
    ),
    Row("registrations: desk", get(lambda m: "/api/v1/registrations"), LEDGER),
    Row(
        "registration: get",
        get(lambda m: "/api/v1/registrations/reg_none"),
        {**LEDGER, "authority": 404, "auditor": 404},
    ),
    Row("registration: approve", post(lambda m: "/api/v1/registrations/reg_none/approve"), DECIDE),
    Row(
        "registration: reject",
        post(lambda m: "/api/v1/registrations/reg_none/reject", lambda m: {"reason": "x"}),
        DECIDE,
    ),
    Row(
        "party: users",
        get(lambda m: f"/api/v1/parties/{m.owner['id']}/users"),
        statuses(200, other=404),
    ),
    Row(
        "party: invite a user",
        post(
            lambda m: f"/api/v1/parties/{m.owner['id']}/users",
            lambda m: {"email": f"inv-{uuid.uuid4().hex[:8]}@example.com", "role": "viewer"},
        ),
        {**MANAGE, "authority": 201, "owner": 201},
    ),
    Row("user: deactivate", _on_fresh_user("deactivate"), MANAGE),
    Row("user: reset the second factor", _on_fresh_user("mfa-reset"), {**MANAGE, "owner": 403}),
]
