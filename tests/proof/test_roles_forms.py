"""The form role matrix: every form post refuses the roles it is not for (anonymous to
/login, a wrong role 403) and writes nothing, nor does another participant's post about
the owner's listing, offer or transfer."""

from __future__ import annotations

import re
from typing import Any

from tests.proof.roles_world import ROLES, Matrix, fast_argon2, sign_in
from tests.proof.world import event_count

__all__ = ["fast_argon2"]  # the fast-hashing guard, autouse here too

# Form posts: who may post each one. Allowed roles are the desks' own tests; here every
# other role is refused (anonymous to /login, a wrong role 403) and writes nothing, and
# another participant posting about the owner's listing or offer writes nothing either.
FORMS: dict[str, tuple[str, ...]] = {
    "/authority/allocations/{fy}/commit": ("authority",),
    "/authority/transfers/{transfer}/approve": ("authority",),
    "/authority/transfers/{transfer}/reject": ("authority",),
    "/authority/certificates": ("authority",),
    "/authority/certificates/{certificate}/reviews": ("authority",),
    "/authority/recaptures": ("authority",),
    "/authority/parties": ("authority",),
    "/authority/parties/facts": ("authority",),
    "/authority/parties/ownership": ("authority",),
    "/authority/parties/agreement": ("authority",),
    "/authority/users": ("authority",),
    "/authority/users/password": ("authority",),
    "/buyer/returns": ("owner", "other"),
    "/buyer/pass-through": ("owner", "other"),
    "/buyer/transfers/{transfer}/{decision}": ("owner", "other"),
    "/market/offers": ("owner", "other"),
    "/seller/listings": ("owner", "other"),
    "/seller/listings/{listing}/withdraw": ("owner", "other"),
    "/seller/offers/{offer}/accept": ("owner", "other"),
    "/seller/offers/{offer}/decline": ("owner", "other"),
    "/seller/offers/{offer}/counter": ("owner", "other"),
    "/seller/transfers/new": ("owner", "other"),
    "/buyer/offers/{offer}/counter/{decision}": ("owner", "other"),
    "/seller/tech": ("owner", "other"),
    "/account/password": ("authority", "auditor", "owner", "other"),
    "/account/mfa": ("authority", "auditor", "owner", "other"),
    "/account/mfa/confirm": ("authority", "auditor", "owner", "other"),
    "/account/webhooks/{webhook}/{action}": ("authority", "owner", "other"),
    # Anyone signed in marks their own notices read (another's answers 404: deals tests).
    "/notifications/{notification}/read": ("authority", "auditor", "owner", "other"),
    # Anyone, signed in or not, may ask for a reset link and use one.
    "/password/forgot": ROLES,
    "/password/reset/{reset}": ROLES,
    "/authority/certificates/{certificate}/notices": ("authority",),
    "/authority/certificates/{certificate}/notices/{notice}/lift": ("authority",),
    "/closing/{transfer}/payment": ("owner", "other"),
    "/closing/{transfer}/receipt": ("owner", "other"),
    # Issue 28: the deal room's messages, between the deal's two parties only.
    "/deals/transfers/{transfer}/messages": ("owner", "other"),
    # Registration and accounts (issue 29 item 1, issue 28 item 9).
    "/join": ROLES,
    "/join/verify/{token}": ROLES,
    "/account/set-password/{token}": ROLES,
    "/account/recovery-codes": ("authority", "auditor", "owner", "other"),
    "/authority/registrations/{registration}/approve": ("authority",),
    "/authority/registrations/{registration}/reject": ("authority",),
    "/authority/users/{user}/mfa-reset": ("authority",),
    "/parties/{party}/users/invite": ("authority", "owner", "other"),
    "/users/{user}/deactivate": ("authority", "owner", "other"),
    # The case file (RULES.md section 7): the step's own role is the service's to check.
    "/documents/upload": ("authority", "owner", "other"),
    "/casefiles/tech/{application}/{step}": ("authority", "owner", "other"),
    "/fees/{fee}/payment": ("authority",),
    "/tax-clearances": ("authority",),
    # What was API only (issue 28 item 10).
    "/authority/tech/paper-filing": ("authority",),
    "/authority/parties/director-exception": ("authority",),
    "/authority/exchange-date": ("authority",),
}
OWNERS_ONLY = {
    "/account/webhooks/{webhook}/{action}",  # Owner's subscription: Other is told 404
    "/parties/{party}/users/invite",  # the owner's party: not X's
    "/users/{user}/deactivate",  # the owner's user: not X's
    "/seller/listings/{listing}/withdraw",
    "/seller/offers/{offer}/accept",
    "/seller/offers/{offer}/decline",
    "/buyer/transfers/{transfer}/{decision}",  # the buyer's consent: B's, not X's
    "/closing/{transfer}/payment",
    "/closing/{transfer}/receipt",
    "/deals/transfers/{transfer}/messages",
}


def test_every_form_refuses_the_roles_it_is_not_for(app: Any, client: Any) -> None:
    m = Matrix(client)
    parties = {"owner": m.owner["id"], "other": m.other["id"]}
    form_rules = {
        r.rule
        for r in app.url_map.iter_rules()
        if "POST" in r.methods and not r.rule.startswith(("/api/", "/login", "/logout"))
    }
    named = {
        f.replace("{fy}", "<int:fy>")
        .replace("{transfer}", "<transfer_id>")
        .replace("{listing}", "<listing_id>")
        .replace("{offer}", "<offer_id>")
        .replace("{certificate}", "<certificate_id>")
        .replace("{decision}", "<decision>")
        .replace("{notification}", "<notification_id>")
        .replace("{reset}", "<token>")
        .replace("{notice}", "<notice_id>")
        .replace("{token}", "<token>")
        .replace("{registration}", "<registration_id>")
        .replace("{user}", "<user_id>")
        .replace("{party}", "<party_id>")
        .replace("{application}", "<application_id>")
        .replace("{step}", "<step>")
        .replace("{fee}", "<fee_id>")
        .replace("{webhook}", "<webhook_id>")
        .replace("{action}", "<action>")
        for f in FORMS
    }
    assert form_rules == named, form_rules ^ named
    mismatches = []
    owner_user = m.owner_user()
    for role in ROLES:
        browser = sign_in(app, client, m.engine, role, parties.get(role))
        form = browser.get("/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token is not None
        for template, allowed in FORMS.items():
            refused = role not in allowed
            stranger = role == "other" and template in OWNERS_ONLY
            if not (refused or stranger):
                continue
            path = (
                template.replace("{fy}", "2013")
                .replace("{transfer}", m.transfer["id"])
                .replace("{listing}", m.listing["id"])
                .replace("{offer}", m.offer["id"])
                .replace("{certificate}", m.cert["id"])
                .replace("{decision}", "confirm")
                .replace("{notification}", "ntf_none")
                .replace("{reset}", "not-a-reset-token")
                .replace("{notice}", "ntc_matrix")
                .replace("{token}", "not-a-link-token")
                .replace("{registration}", "reg_none")
                .replace("{user}", owner_user)
                .replace("{party}", m.owner["id"])
                .replace("{application}", m.application["id"])
                .replace("{step}", "submit")
                .replace("{fee}", "fee_none")
                .replace("{webhook}", m.owner_webhook())
                .replace("{action}", "pause")
            )
            before = event_count(m.engine)
            r = browser.post(path, data={"csrf_token": token[1], "reason": "matrix"})
            if event_count(m.engine) != before:
                mismatches.append(f"{path} as {role}: wrote events")
            if refused:
                expect = 302 if role == "anonymous" else 403
                if r.status_code != expect:
                    mismatches.append(f"{path} as {role}: {r.status_code}, expected {expect}")
                if role == "anonymous" and "/login" not in r.headers.get("Location", ""):
                    mismatches.append(f"{path} as anonymous: not sent to /login")
            elif r.status_code < 300 and "error" not in r.get_data(as_text=True).lower():
                mismatches.append(f"{path} as {role}: {r.status_code} without a refusal")
    assert not mismatches, "\n".join(mismatches)
