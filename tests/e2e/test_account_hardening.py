"""Accounts (issue 27): `next` only as a same-site path; reset links neither kept in the
outbox once sent nor written in the access log; reset requests throttled per address
asked for and per client."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.tables import EmailMessage
from market.services.identity import identity
from market.web.access_log import RedactingLogger
from tests.deals_servers import SmtpServer
from tests.e2e.test_email_delivery import deliver
from tests.e2e.test_pages_foundation import _csrf
from tests.e2e.test_password_reset import ask, set_password

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]


def signed_in_to(app: Any, next_: str) -> str:
    identity.create_user(
        app.extensions["market.engine"], "nx@firm.test", "auditor", "page-password"
    )
    page = app.test_client()
    token = _csrf(page.get("/login").data)
    r = page.post(
        "/login",
        query_string={"next": next_},
        data={"email": "nx@firm.test", "password": "page-password", "csrf_token": token},
    )
    assert r.status_code == 302
    return str(r.headers["Location"])


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example/x",  # what /login?next=/%09/evil.example/x decodes to
        "/\n/evil.example/x",
        "/\r//evil.example",
        "//evil.example/x",
        "/\\evil.example/x",
        "\\\\evil.example",
        "/x\\y",
        "https://evil.example/",
        "javascript:alert(1)",
        "/\u200b/evil.example",
        "/\x7fx",
        "ledger",
    ],
)
def test_next_off_site_or_odd_is_refused(app: Any, target: str) -> None:
    assert signed_in_to(app, target) == "/"


def test_next_a_same_site_path_is_kept(app: Any) -> None:
    assert signed_in_to(app, "/ledger?after=3") == "/ledger?after=3"


def test_a_sent_reset_mail_no_longer_holds_the_link_in_the_outbox(app: Any) -> None:
    engine = app.extensions["market.engine"]
    identity.create_user(engine, "ana@firm.test", "auditor", "the-old-password")
    ask(app, "ana@firm.test")
    with SmtpServer() as smtp:
        app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port)
        assert deliver(app)["email"]["sent"] == 1
    text = smtp.messages[0].get_body(("plain",)).get_content()
    path = re.search(r"http://[^/\s]+(/password/reset/[\w-]+)", text)
    assert path
    token = path.group(1).rsplit("/", 1)[1]
    with engine.connect() as conn:
        (row,) = conn.execute(select(mail_t)).mappings().all()
    assert row["status"] == "sent"
    assert token not in row["text_body"] and token not in row["html_body"]
    assert "removed from the outbox once sent" in row["text_body"]
    # The mailed link itself still works.
    assert set_password(app, path.group(1), "a-new-long-password").status_code == 302


def test_the_access_log_line_drops_a_reset_token() -> None:
    class Response:
        status, sent, headers = "200 OK", 10, {}

    token = "Zm9vYmFyYmF6cXV4cXV1eHh5eno0NTY3ODkw"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/password/reset/{token}",
        "PATH_INFO": f"/password/reset/{token}",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "QUERY_STRING": "",
        "HTTP_REFERER": f"https://market.example/password/reset/{token}",
    }
    logger = RedactingLogger.__new__(RedactingLogger)
    atoms = logger.atoms(Response(), {}, environ, timedelta(milliseconds=3))
    assert token not in repr(atoms)
    assert atoms["r"] == "GET /password/reset/[redacted] HTTP/1.1"


def test_reset_requests_are_throttled_per_address_asked_and_per_client(app: Any) -> None:
    identity.create_user(
        app.extensions["market.engine"], "bo@firm.test", "auditor", "pw-old-long-1"
    )
    answers = [ask(app, "bo@firm.test").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 429, 429]
    unknown = [ask(app, "nobody@firm.test").status_code for _ in range(4)]
    assert unknown == [200, 200, 200, 429]  # the same for an address nobody has: no oracle
    many = [ask(app, f"n{i}@firm.test").status_code for i in range(10)]
    assert many[-1] == 429 and many[0] == 200  # one client, many addresses
    with app.extensions["market.engine"].connect() as conn:
        queued = conn.execute(select(mail_t)).mappings().all()
    assert len(queued) == 3  # bo's three; nobody else has an account
