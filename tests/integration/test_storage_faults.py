"""The disk full under SQLite, and the documents folder unwritable. Each on a small tmpfs
the test mounts itself (as root; CI runs as root): writes answer 507 `storage_full`
with Retry-After and leave nothing half-written, reads still answer, and the service
writes again by itself once space is freed; /readyz names a DOCUMENT_DIR it cannot write
to (a read-only mount stops root too, where a chmod would not)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from market import create_app
from market.services.identity import identity
from tests.conftest import ERA_TODAY
from tests.helpers import create_party, events, headers_for
from tests.ops_servers import IN_CI

FILLER_CHUNK = 64 * 1024
PASSWORD = "a-long-passphrase"


@contextmanager
def tmpfs(where: Path, size_kb: int, *options: str) -> Iterator[Path]:
    where.mkdir()
    args = ["mount", "-t", "tmpfs", "-o", ",".join([f"size={size_kb}k", *options])]
    done = subprocess.run([*args, "tmpfs", str(where)], capture_output=True, text=True)
    if done.returncode != 0:
        reason = f"cannot mount a tmpfs here ({done.stderr.strip()}); run as root"
        if IN_CI:
            pytest.fail(reason + "; CI requires it", pytrace=False)
        pytest.skip(reason)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(folder: Path) -> Path:
    """Write a filler file until the filesystem refuses another byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (FILLER_CHUNK, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def _login_form(app: Any) -> tuple[Any, str]:
    """A browser holding the sign-in form's CSRF token, for an auditor made here."""
    identity.create_user(app.extensions["market.engine"], "aud@x.org", "auditor", PASSWORD)
    browser = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/login").text)
    assert token
    return browser, token[1]


def test_a_full_disk_under_sqlite_refuses_writes_whole_and_recovers(
    tmp_path: Path, sqlite_template: Path
) -> None:
    size_kb = (sqlite_template.stat().st_size // 1024) + 4096  # the database and 4 MB
    with tmpfs(tmp_path / "disk", size_kb) as disk:
        shutil.copy(sqlite_template, disk / "market.db")
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{disk / 'market.db'}",
                "TESTING": True,
                "SECRET_KEY": "t",
                "MARKET_TODAY": ERA_TODAY,
            }
        )
        app.instance_path = str(tmp_path / "instance")
        engine = app.extensions["market.engine"]
        try:
            client = app.test_client()
            auth = headers_for(client, engine, "authority")
            first = create_party(client, auth, name="Before The Disk Filled")
            browser, csrf = _login_form(app)
            # Checkpoint the WAL into the database file and truncate it, so the next write
            # must grow a file on the full disk (rather than reuse WAL pages).
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            before = events(engine)
            filler = fill(disk)
            refused = []
            for n in range(3):
                body = {"name": f"Written On A Full Disk {n}", "tax_id": f"22-000000{n}"}
                body |= {"entity_type": "c_corporation", "tax_types": ["CBT"]}
                refused.append(client.post("/api/v1/parties", json=body, headers=auth))
            for r in refused:
                assert r.status_code == 507, r.text[:300]
                assert r.json["error"]["code"] == "storage_full"
                assert int(r.headers["Retry-After"]) > 0
            assert events(engine) == before  # nothing half-written
            form = {"email": "aud@x.org", "password": PASSWORD, "csrf_token": csrf}
            page = browser.post("/login", data=form)  # a page's write: the session row
            assert page.status_code == 507 and int(page.headers["Retry-After"]) > 0
            assert "Storage full" in page.get_data(as_text=True)
            read = client.get(f"/api/v1/parties/{first['id']}", headers=auth)
            assert read.status_code == 200 and read.json["name"] == "Before The Disk Filled"
            assert client.get("/api/v1/ledger/verify", headers=auth).json["ok"] is True
            filler.unlink()  # the operators free space; no restart
            again = create_party(client, auth, name="After Space Was Freed")
            assert client.get(f"/api/v1/parties/{again['id']}", headers=auth).status_code == 200
            assert events(engine) == before + 1
            assert client.get("/api/v1/ledger/verify", headers=auth).json["ok"] is True
        finally:
            engine.dispose()


def _ready(tmp_path: Path, sqlite_template: Path, document_dir: Path) -> Any:
    shutil.copy(sqlite_template, tmp_path / "market.db")
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'market.db'}",
            "TESTING": True,
            "SECRET_KEY": "t",
            "DOCUMENT_DIR": str(document_dir),
        }
    )
    app.instance_path = str(tmp_path / "instance")
    try:
        return app.test_client().get("/readyz")
    finally:
        app.extensions["market.engine"].dispose()


def test_readyz_names_a_documents_folder_it_cannot_write(
    tmp_path: Path, sqlite_template: Path
) -> None:
    with tmpfs(tmp_path / "docs", 1024, "ro") as docs:
        r = _ready(tmp_path, sqlite_template, docs)
    assert r.status_code == 503 and r.json["failing"] == ["documents_dir_writable"]
    assert f"DOCUMENT_DIR {docs}" in r.json["checks"]["documents_dir_writable"]
    missing = _ready(tmp_path, sqlite_template, tmp_path / "no-such-folder")
    assert missing.json["failing"] == ["documents_dir_writable"]
    assert "is not a folder" in missing.json["checks"]["documents_dir_writable"]
    (tmp_path / "writable").mkdir()
    fine = _ready(tmp_path, sqlite_template, tmp_path / "writable")
    assert fine.status_code == 200, fine.json
    assert fine.json["checks"]["documents_dir_writable"] == "ok"
    assert os.listdir(tmp_path / "writable") == []  # the probe's file is removed
