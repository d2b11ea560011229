"""With the database gone the API answers 503 with Retry-After in the error shape and the
pages a styled 503; both recover by themselves when it returns. PostgreSQL is reached
through a TCP proxy the test stops (dropping every connection) and starts again; SQLite
through a path whose directory the test takes away and puts back."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from market import create_app
from market.services.identity import identity
from tests.conftest import reset_postgres

PASSWORD = "a-long-passphrase"


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a target; `stop` closes the listener and every
    connection, as a database server going away would; `start` listens again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen(16)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        # shutdown wakes the thread blocked in accept (close alone would leave the kernel
        # socket listening until that accept returned).
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.sockets.clear()


def _sign_in_page(app: Any) -> Any:
    browser = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/login").text)
    assert token
    r = browser.post(
        "/login", data={"email": "aud@x.org", "password": PASSWORD, "csrf_token": token[1]}
    )
    assert r.status_code == 302
    return browser


def _assert_down(client: Any, browser: Any, bearer: dict[str, str]) -> None:
    api = client.get("/api/v1/ledger/verify", headers=bearer)
    assert api.status_code == 503, api.text[:300]
    assert api.json["error"]["code"] == "database_unavailable"
    assert int(api.headers["Retry-After"]) > 0
    page = browser.get("/ledger")
    assert page.status_code == 503 and int(page.headers["Retry-After"]) > 0
    html = page.get_data(as_text=True)
    assert "Temporarily unavailable" in html and 'href="/static/app.css"' in html
    login = client.post("/api/v1/auth/token", json={"email": "aud@x.org", "password": PASSWORD})
    assert login.status_code == 503


def _assert_up(client: Any, browser: Any, bearer: dict[str, str]) -> None:
    # The first request after the return may find a pooled connection the outage broke;
    # SQLAlchemy then drops the pool, and the request after it is served.
    answers = [client.get("/api/v1/ledger/verify", headers=bearer).status_code for _ in range(2)]
    assert answers[-1] == 200, answers
    assert browser.get("/ledger").status_code == 200


def _setup(app: Any) -> tuple[Any, Any, dict[str, str]]:
    identity.create_user(app.extensions["market.engine"], "aud@x.org", "auditor", PASSWORD)
    client = app.test_client()
    token = client.post("/api/v1/auth/token", json={"email": "aud@x.org", "password": PASSWORD})
    bearer = {"Authorization": f"Bearer {token.json['token']}"}
    return client, _sign_in_page(app), bearer


def test_postgresql_going_away_and_coming_back(pg_database_url: str) -> None:
    reset_postgres(pg_database_url)
    url = make_url(pg_database_url)
    proxy = TcpProxy((url.host or "127.0.0.1", url.port or 5432))
    proxy.start()
    proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    app = create_app({"DATABASE_URL": proxied, "TESTING": True, "SECRET_KEY": "t"})
    try:
        client, browser, bearer = _setup(app)
        assert client.get("/api/v1/ledger/verify", headers=bearer).status_code == 200
        proxy.stop()
        _assert_down(client, browser, bearer)
        _assert_down(client, browser, bearer)  # still down: still 503, not a 500
        proxy.start()
        _assert_up(client, browser, bearer)
    finally:
        proxy.stop()
        app.extensions["market.engine"].dispose()


def test_a_sqlite_file_that_cannot_be_opened_and_comes_back(
    tmp_path: Path, sqlite_template: Path
) -> None:
    home = tmp_path / "db"
    home.mkdir()
    shutil.copy(sqlite_template, home / "market.db")
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{home / 'market.db'}", "TESTING": True, "SECRET_KEY": "t"}
    )
    try:
        client, browser, bearer = _setup(app)
        app.extensions["market.engine"].dispose()  # no open handle keeps the file alive
        os.rename(home, tmp_path / "away")
        _assert_down(client, browser, bearer)
        os.rename(tmp_path / "away", home)
        _assert_up(client, browser, bearer)
    finally:
        app.extensions["market.engine"].dispose()


@pytest.fixture(autouse=True)
def _fast_argon2() -> None:
    assert os.environ.get("MARKET_ARGON2_FAST") == "1"
