"""Fuzzing: schemathesis generates requests for every operation in /api/v1/openapi.json
and sends them as each role; no request gets a 5xx, every refusal has the error shape,
and no refused request (status >= 400) wrote an event."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as cu

from market.services.trust.ledger import verify
from tests.helpers import headers_for
from tests.proof.conftest import SCALE
from tests.proof.world import M, World, event_count


class _LegacyMany:
    """hypothesis-jsonschema 0.23.1 (the latest) drives `cu.many` through `more()`, which
    hypothesis 6.170 replaced by an iterator protocol; this adapter speaks the old one on
    top of the new, for this suite only (see docs/RELIABILITY.md)."""

    def __init__(self, data: Any, **kwargs: Any) -> None:
        self._many = cu.many(data, **kwargs)
        self._many.__enter__()
        self._steps = iter(self._many)

    def more(self) -> bool:
        try:
            next(self._steps)
        except StopIteration:
            self._many.__exit__(None, None, None)
            return False
        return True

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


@pytest.fixture
def schema(app: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import hypothesis_jsonschema._from_schema as from_schema
    import schemathesis

    if not hasattr(cu.many, "more"):
        monkeypatch.setattr(from_schema, "cu", SimpleNamespace(many=_LegacyMany))
    yield schemathesis.from_wsgi("/api/v1/openapi.json", app)


def _operations(schema: Any) -> list[Any]:
    ops = [result.ok() for result in schema.get_all_operations()]
    # Revoking our own token would turn the rest of the run into 401s: it goes last.
    return sorted(ops, key=lambda op: op.path.endswith("/revoke"))


def _fuzz(
    op: Any,
    role: str,
    headers: dict[str, str],
    known: dict[str, Any],
    engine: Any,
    statuses: Counter[int],
    failures: list[str],
) -> None:
    @given(case=op.as_strategy(), real=st.booleans())
    @settings(
        max_examples=SCALE.fuzz_examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def fuzz(case: Any, real: bool) -> None:
        if real and case.path_parameters:
            for name in case.path_parameters:
                if name in known:
                    case.path_parameters[name] = known[name]
        before = event_count(engine)
        response = case.call(headers=headers)
        after = event_count(engine)
        statuses[response.status_code] += 1
        where = f"{role} {case.method} {case.path} {case.path_parameters!r}"
        where += f" q={case.query} b={case.body}"
        if response.status_code >= 500:
            failures.append(f"5xx | {where}: {response.status_code}")
        elif response.status_code >= 400:
            if after != before:
                failures.append(f"{where}: refused {response.status_code} but wrote")
            body = response.get_json(silent=True) or {}
            if not isinstance(body.get("error"), dict) or "code" not in body["error"]:
                failures.append(f"{where}: error body {response.get_data()[:200]!r}")

    fuzz()


# schemathesis 3 and hypothesis-jsonschema use jsonschema names deprecated upstream.
@pytest.mark.filterwarnings("ignore:jsonschema.RefResolver is deprecated:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:Accessing jsonschema.__version__:DeprecationWarning")
def test_no_5xx_and_no_refusal_writes(app: Any, client: Any, schema: Any) -> None:
    w = World(client, sellers=1, buyers=1)
    seller, buyer = w.sellers[0]["id"], w.buyers[0]["id"]
    cert = w.issue(seller, 10 * M)
    listing = client.post(
        "/api/v1/listings",
        json={"certificate_id": cert["id"], "amount_cents": M, "ask_cents": M},
        headers=w.h[seller],
    ).json
    offer = client.post(
        f"/api/v1/listings/{listing['id']}/offers",
        json={"amount_cents": M, "price_cents": M},
        headers=w.h[buyer],
    ).json
    transfer = w.negotiate(client, cert, buyer, M, M).json
    # Real ids for path parameters, so that requests also reach past the 404s.
    known = {
        "party_id": seller,
        "other_id": buyer,
        "certificate_id": cert["id"],
        "listing_id": listing["id"],
        "offer_id": offer["id"],
        "transfer_id": transfer["id"],
        "fiscal_year": 2014,
    }
    roles = {
        "authority": lambda: headers_for(client, w.engine, "authority"),
        "auditor": lambda: headers_for(client, w.engine, "auditor"),
        "participant": lambda: headers_for(client, w.engine, "participant", seller),
    }
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    operations = _operations(schema)
    assert len(operations) >= 20, [op.verbose_name for op in operations]
    for role, make_headers in roles.items():
        headers = make_headers()
        for op in operations:
            _fuzz(op, role, headers, known, w.engine, statuses, failures)
    # The 5xx this suite found (docs/RELIABILITY.md, Findings 2-4) are fixed; any 5xx fails.
    assert not failures, "\n".join(failures[:20])
    assert sum(statuses.values()) >= len(operations) * len(roles)
    assert any(s < 300 for s in statuses), statuses  # not everything was refused
    print(f"fuzz: {len(operations)} operations x {len(roles)} roles: {dict(statuses)}")
    report = verify(w.engine)
    assert report.ok, report.problems
