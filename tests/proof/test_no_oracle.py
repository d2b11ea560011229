"""No existence oracle: another party's record answers a participant exactly as a record
that does not exist (status and body, the id aside), for reads and for writes naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.helpers import answer_text
from tests.proof.roles_world import Matrix, sign_in
from tests.proof.world import M, event_count

FAKE = {"crt": "crt_00000000000000000000", "pty": "pty_00000000000000000000"}

# (name, method, path, body) built from one record id
Probe = Callable[[str], tuple[str, str, Any]]
PROBES: dict[str, tuple[str, Probe]] = {
    "certificate": ("cert", lambda i: ("GET", f"/api/v1/certificates/{i}", None)),
    "party": ("owner", lambda i: ("GET", f"/api/v1/parties/{i}", None)),
    "party certificates": ("owner", lambda i: ("GET", f"/api/v1/parties/{i}/certificates", None)),
    "transfer": ("transfer", lambda i: ("GET", f"/api/v1/transfers/{i}", None)),
    "tech application": ("application", lambda i: ("GET", f"/api/v1/tech/applications/{i}", None)),
    "listing withdraw": ("listing", lambda i: ("POST", f"/api/v1/listings/{i}/withdraw", {})),
    "offer accept": ("offer", lambda i: ("POST", f"/api/v1/offers/{i}/accept", {})),
    "offer decline": ("offer", lambda i: ("POST", f"/api/v1/offers/{i}/decline", {})),
    "offer counter": (
        "offer",
        lambda i: ("POST", f"/api/v1/offers/{i}/counter", {"amount_cents": M, "price_cents": M}),
    ),
    "counter accept": ("offer", lambda i: ("POST", f"/api/v1/offers/{i}/counter/accept", {})),
    "counter decline": ("offer", lambda i: ("POST", f"/api/v1/offers/{i}/counter/decline", {})),
    "pass-through": ("cert", lambda i: ("POST", f"/api/v1/certificates/{i}/pass-through", {})),
    "listing create": (
        "cert",
        lambda i: (
            "POST",
            "/api/v1/listings",
            {"certificate_id": i, "amount_cents": M // 10, "ask_cents": M // 10},
        ),
    ),
    "credit application": (
        "cert",
        lambda i: (
            "POST",
            "/api/v1/credit-applications",
            {
                "certificate_id": i,
                "tax_type": "CBT",
                "tax_year": 2015,
                "liability_cents": M,
                "amount_cents": M // 100,
            },
        ),
    ),
}


def _ids(m: Matrix) -> dict[str, str]:
    return {
        "cert": m.cert["id"],
        "owner": m.owner["id"],
        "transfer": m.transfer["id"],
        "application": m.application["id"],
        "listing": m.listing["id"],
        "offer": m.offer["id"],
    }


def _fake(real: str) -> str:
    prefix, _, rest = real.partition("_")
    return f"{prefix}_{'0' * len(rest)}"


def test_another_partys_records_answer_as_missing_ones(client: Any) -> None:
    m = Matrix(client)
    ids = _ids(m)
    other = m.headers["other"]
    different = []
    for name, (which, probe) in PROBES.items():
        real = ids[which]
        answers = []
        for record_id in (real, _fake(real)):
            method, path, body = probe(record_id)
            before = event_count(m.engine)
            r = client.open(path, method=method, json=body, headers=other)
            assert event_count(m.engine) == before, name
            answers.append((r.status_code, answer_text(r, record_id)))
        assert answers[0][0] == 404, (name, answers[0])
        if answers[0] != answers[1]:
            different.append(f"{name}: {answers[0]} vs {answers[1]}")
    assert not different, "\n".join(different)
    # The owner still gets its records (the change hid nothing from the rightful reader).
    assert (
        client.get(f"/api/v1/certificates/{m.cert['id']}", headers=m.headers["owner"]).status_code
        == 200
    )


def test_the_certificate_page_of_another_party_is_the_missing_page(app: Any, client: Any) -> None:
    m = Matrix(client)
    browser = sign_in(app, client, m.engine, "other", m.other["id"])
    real, fake = m.cert["id"], _fake(m.cert["id"])
    theirs = browser.get(f"/certificates/{real}")
    missing = browser.get(f"/certificates/{fake}")
    assert theirs.status_code == missing.status_code == 404
    assert answer_text(theirs, real) == answer_text(missing, fake)
    assert m.owner["name"] not in theirs.get_data(as_text=True)
