"""The page role matrix: every page against anonymous, authority, auditor, the owning
participant and another participant: the expected status each time, redirects only to this
site (to /login for anonymous alone), and no other party's data on a participant's page."""

from __future__ import annotations

from typing import Any

from tests.proof.roles_world import ROLES, Matrix, fast_argon2, sign_in, statuses

__all__ = ["fast_argon2"]  # the fast-hashing guard, autouse here too

AUTHORITY_ONLY = {"anonymous": 302, "authority": 200, "auditor": 403, "owner": 403, "other": 403}
PARTICIPANTS = {"anonymous": 302, "authority": 403, "auditor": 403, "owner": 200, "other": 200}
SIGNED_IN = statuses(200, anonymous=302)
AUDIT = {"anonymous": 302, "authority": 200, "auditor": 200, "owner": 403, "other": 403}
PAGES: dict[str, dict[str, int]] = {
    "/": dict.fromkeys(ROLES, 302),  # to /login, or to the role's home page
    "/login": dict.fromkeys(ROLES, 200),
    "/login/code": dict.fromkeys(ROLES, 302),  # no password step pending: to /login or home
    "/login/oidc": dict.fromkeys(ROLES, 404),  # single sign-on is off without OIDC_ISSUER
    "/login/oidc/callback": dict.fromkeys(ROLES, 404),
    "/account": SIGNED_IN,
    "/account/webhooks": {**PARTICIPANTS, "authority": 200},
    "/account/webhooks/{webhook}": {**PARTICIPANTS, "authority": 200, "other": 404},
    "/ledger": AUDIT,
    "/reports/caps": SIGNED_IN,
    "/reports/transfers": AUDIT,
    "/reports/transfers.csv": AUDIT,
    "/reports/statutory/": AUDIT,
    "/reports/statutory/{report}": AUDIT,
    "/reports/statutory/{report}.csv": AUDIT,
    "/reports/statutory/{report}.json": AUDIT,
    "/certificates/{cert}": {**AUDIT, "owner": 200, "other": 404},  # as if it did not exist
    "/certificates/{cert}/print": {**AUDIT, "owner": 200, "other": 404},
    # A stranger's answer is the unknown certificate's 404 (it was 403: an oracle).
    "/certificates/{cert}/proof.json": {**AUDIT, "owner": 200, "other": 404},
    "/certificates/{cert}/proof": {**AUDIT, "owner": 200, "other": 404},
    "/market": SIGNED_IN,
    "/buyer": PARTICIPANTS,
    "/seller": PARTICIPANTS,
    "/seller/transfers/new": PARTICIPANTS,
    "/seller/offers/{offer}/counter": {**PARTICIPANTS, "other": 404},  # its seller's only
    "/authority": AUTHORITY_ONLY,
    "/authority/todo": AUTHORITY_ONLY,
    "/authority/tech/paper-filing": AUTHORITY_ONLY,
    "/authority/parties/director-exception": AUTHORITY_ONLY,
    "/authority/exchange-date": AUTHORITY_ONLY,
    "/authority/allocations": {**AUTHORITY_ONLY, "authority": 302},  # to the latest FY
    "/authority/allocations/{fy}": AUTHORITY_ONLY,
    "/notifications": SIGNED_IN,
    "/audit": AUDIT,
    "/deals/buying": PARTICIPANTS,
    "/deals/selling": PARTICIPANTS,
    "/deals/transfers/{transfer}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/offers/{offer}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/tech/{application}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/credit-applications/{credit}": statuses(404, anonymous=302),
    "/status": dict.fromkeys(ROLES, 200),
    "/status/{reference}": dict.fromkeys(ROLES, 200),
    # Issue 28 item 7: anyone checks a certificate; asked for none, the page is the form,
    # the JSON the same 404 as for a wrong code.
    "/verify": dict.fromkeys(ROLES, 200),
    "/verify/proof.json": dict.fromkeys(ROLES, 404),
    "/password/forgot": dict.fromkeys(ROLES, 200),
    "/password/reset/{reset}": dict.fromkeys(ROLES, 400),  # no such link
    # market information and risk (PRODUCT.md 8.3)
    "/price-tape": dict.fromkeys(ROLES, 200),
    "/tech/cap-meter": SIGNED_IN,
    "/calculator/tech": SIGNED_IN,
    "/closing": SIGNED_IN,
    "/monitor/covenants": AUDIT,
    "/authority/parties": AUTHORITY_ONLY,
    "/authority/users": AUTHORITY_ONLY,
    "/pickers/parties": AUDIT,  # the type-ahead's matches: the desks' and the ledger's
    "/pickers/certificates": AUTHORITY_ONLY,
    # Registration and accounts (issue 29 item 1, issue 28 item 9).
    "/join": dict.fromkeys(ROLES, 200),
    "/join/verify/{link}": dict.fromkeys(ROLES, 404),  # no such link
    "/account/set-password/{link}": dict.fromkeys(ROLES, 404),
    "/authority/registrations": AUDIT,
    "/authority/registrations/{registration}": {**AUDIT, "authority": 404, "auditor": 404},
    "/authority/parties/{party}/users": AUDIT,
    "/party/users": PARTICIPANTS,
    # the case file (RULES.md section 7); an exhibit's visibility: test_casefile_pages.py
    "/casefiles/tech/{application}": {**AUDIT, "owner": 200, "other": 404},
    "/fees": SIGNED_IN,
    "/documents/{document}/download": statuses(404, anonymous=302),
}
# Page templates' placeholders and the URL rule variables they stand for.
PLACEHOLDERS = {
    "{cert}": "<certificate_id>",
    "{fy}": "<int:fy>",
    "{transfer}": "<transfer_id>",
    "{offer}": "<offer_id>",
    "{application}": "<application_id>",
    "{credit}": "<application_id>",
    "{reference}": "<reference>",
    "{reset}": "<token>",
    "{document}": "<document_id>",
    "{link}": "<token>",
    "{party}": "<party_id>",
    "{registration}": "<registration_id>",
    "{report}": "<report>",
    "{webhook}": "<webhook_id>",
}
# Pages that show the open market: the seller's ids, name and listed certificate are
# part of an offer to sell (as on GET /api/v1/listings).
MARKET_PAGES = {"/market", "/buyer"}


def test_every_page_answers_each_role_as_specified(app: Any, client: Any) -> None:
    m = Matrix(client)
    parties = {"owner": m.owner["id"], "other": m.other["id"]}
    page_rules = {
        r.rule
        for r in app.url_map.iter_rules()
        if not r.rule.startswith(("/api/", "/static/"))
        and "GET" in r.methods
        # /healthz, /readyz, /metrics are for machines, the same to every role (and to
        # none): tests/e2e/test_ops_endpoints.py
        and not r.endpoint.startswith("ops.")
    }
    named = set()
    for p in PAGES:
        for placeholder, variable in PLACEHOLDERS.items():
            p = p.replace(placeholder, variable)
        named.add(p)
    values = {
        "{cert}": m.cert["id"],
        "{fy}": "2013",
        "{transfer}": m.transfer["id"],
        "{offer}": m.offer["id"],
        "{application}": m.application["id"],
        "{credit}": "capp_none",
        "{reference}": m.reference(),
        "{reset}": "not-a-reset-token",
        "{document}": "doc_none",
        "{link}": "not-a-link-token",
        "{party}": m.owner["id"],
        "{registration}": "reg_none",
        "{report}": "digital-media",
        "{webhook}": m.owner_webhook(),
    }
    assert page_rules == named, page_rules ^ named
    mismatches, leaks = [], []
    for role in ROLES:
        browser = sign_in(app, client, m.engine, role, parties.get(role))
        for template, expect in PAGES.items():
            path = template
            for placeholder, value in values.items():
                path = path.replace(placeholder, value)
            r = browser.get(path)
            if r.status_code != expect[role]:
                mismatches.append(f"{path} as {role}: {r.status_code}, expected {expect[role]}")
            if r.status_code == 302:
                location = r.headers["Location"]
                assert location.startswith("/") and not location.startswith("//"), location
                assert ("/login" in location) == (role == "anonymous"), (path, role, location)
            text = r.get_data(as_text=True)
            hidden = m.secrets_hidden_from(role, market=template in MARKET_PAGES)
            if template in MARKET_PAGES and role == "other":
                hidden = [m.owner["tax_id"], m.buyer["id"], m.buyer["tax_id"], m.buyer["name"]]
            for secret in hidden:
                if secret in text and secret not in path:  # an echo of the path is no leak
                    leaks.append(f"{path} as {role}: contains {secret!r}")
    assert not mismatches, "\n".join(mismatches)
    assert not leaks, "\n".join(leaks)
