"""The API role matrix: every API endpoint against anonymous, authority, auditor, the
owning participant and another participant: the expected status each time, the error shape
on refusals, and no other party's data in any participant's response. The rows are in
roles_api_rows.py and roles_api_market_rows.py."""

from __future__ import annotations

from typing import Any

from market.services.trust.ledger import verify
from tests.proof.roles_api_account_rows import ACCOUNT_ROWS
from tests.proof.roles_api_casefile_rows import CASEFILE_ROWS
from tests.proof.roles_api_market_rows import MARKET_ROWS
from tests.proof.roles_api_rows import RECORD_ROWS
from tests.proof.roles_world import ROLES, Matrix, fast_argon2
from tests.proof.world import event_count

__all__ = ["fast_argon2"]  # the fast-hashing guard, autouse here too

# In this order: some rows change what later ones see (the revocation comes last).
ROWS = [
    *RECORD_ROWS,
    *ACCOUNT_ROWS,
    *CASEFILE_ROWS,
    *MARKET_ROWS,
]  # MARKET_ROWS ends by revoking the tokens


def test_every_endpoint_answers_each_role_as_specified(client: Any) -> None:
    m = Matrix(client)
    covered = {(method, path) for method, path in _api_rules(client)}
    rows_by_route = set()
    mismatches: list[str] = []
    leaks: list[str] = []
    for row in ROWS:
        for role in ROLES:
            method, path, body = row.request(m, role)
            rows_by_route.add((method, _template(client, method, path)))
            before = event_count(m.engine)
            r = m.client.open(path, method=method, json=body, headers=m.headers[role])
            status, text = r.status_code, r.get_data(as_text=True)
            asked = f"{path} {body}"
            if status != row.expect[role]:
                mismatches.append(f"{row.name} as {role}: {status}, expected {row.expect[role]}")
            if status >= 400 and path.startswith("/api/"):
                assert '"error"' in text and '"code"' in text, (row.name, role, text[:200])
                assert event_count(m.engine) <= before + 2  # only the fresh fixtures' events
            for secret in m.secrets_hidden_from(role, row.market):
                if secret in text and secret not in asked:  # an echo of the request is not a leak
                    leaks.append(f"{row.name} as {role}: contains {secret!r}: {text[:300]}")
    assert not mismatches, "\n".join(mismatches)
    assert not leaks, "\n".join(leaks)
    # Every API route is in the matrix (a new endpoint needs its row).
    assert covered <= rows_by_route, sorted(covered - rows_by_route)
    assert verify(m.engine).ok


def _api_rules(client: Any) -> list[tuple[str, str]]:
    out = []
    for rule in client.application.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                out.append((method, rule.rule))
    return out


def _template(client: Any, method: str, path: str) -> str:
    adapter = client.application.url_map.bind("localhost")
    rule, _ = adapter.match(path.split("?")[0], method=method, return_rule=True)
    return str(rule.rule)
