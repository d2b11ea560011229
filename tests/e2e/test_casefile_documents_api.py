"""Exhibits over the API (PRODUCT.md 9.1, ADM-10), on SQLite and PostgreSQL: the type from
the bytes, the size limit, content-addressed storage written before the ledger record,
versions, and the same 404 for another party's exhibit as for an unknown id."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from market.services.kernel.uow import UnitOfWork
from tests.helpers import create_party, events, headers_for
from tests.unit.services.casefiles.test_media_types import JPEG, PDF, PNG, xlsx

pytestmark = pytest.mark.storage


def upload(client: Any, h: dict[str, str], subject_id: str, data: bytes, **kw: str) -> Any:
    form: dict[str, Any] = {
        "kind": kw.get("kind", "business_plan"),
        "subject_type": kw.get("subject_type", "party"),
        "subject_id": subject_id,
        "file": (io.BytesIO(data), kw.get("filename", "plan.pdf")),
    }
    return client.post(
        "/api/v1/documents", data=form, headers=h, content_type="multipart/form-data"
    )


@pytest.fixture
def world(client: Any, engine: Engine) -> dict[str, Any]:
    authority = headers_for(client, engine, "authority")
    mine = create_party(client, authority, name="Filer Co")
    other = create_party(client, authority, name="Stranger Co")
    return {
        "authority": authority,
        "party": mine,
        "me": headers_for(client, engine, "participant", mine["id"]),
        "stranger": headers_for(client, engine, "participant", other["id"]),
        "auditor": headers_for(client, engine, "auditor"),
    }


def test_filed_read_and_downloaded_by_those_who_may(
    client: Any, engine: Engine, app: Any, world: dict[str, Any]
) -> None:
    r = upload(client, world["me"], world["party"]["id"], PDF)
    assert r.status_code == 201, r.json
    doc = r.json
    assert doc["sha256"] == hashlib.sha256(PDF).hexdigest()
    assert (doc["bytes"], doc["media_type"], doc["version"]) == (len(PDF), "application/pdf", 1)
    assert doc["subject_type"] == "party" and doc["kind"] == "business_plan"
    assert doc["filed_by"].startswith("user:") and doc["filed_at"]
    stored = Path(app.instance_path) / "documents" / doc["sha256"][:2] / doc["sha256"][2:4]
    assert (stored / doc["sha256"]).read_bytes() == PDF
    for who in ("me", "authority", "auditor"):
        got = client.get(f"/api/v1/documents/{doc['id']}", headers=world[who])
        assert got.status_code == 200 and got.json["sha256"] == doc["sha256"]
        body = client.get(f"/api/v1/documents/{doc['id']}/content", headers=world[who])
        assert body.status_code == 200 and body.data == PDF
        assert body.headers["Content-Disposition"].startswith("attachment")
    hidden = client.get(f"/api/v1/documents/{doc['id']}", headers=world["stranger"])
    unknown = client.get("/api/v1/documents/doc_nothing", headers=world["stranger"])
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.json["error"]["code"] == unknown.json["error"]["code"] == "not_found"
    assert (
        client.get(f"/api/v1/documents/{doc['id']}/content", headers=world["stranger"]).status_code
        == 404
    )
    # a corrected exhibit is the next version; the first stays
    again = upload(client, world["me"], world["party"]["id"], PNG, filename="plan.png")
    assert again.status_code == 201 and again.json["version"] == 2
    assert client.get(f"/api/v1/documents/{doc['id']}", headers=world["me"]).status_code == 200
    for data in (JPEG, b"year,amount\n2024,10\n", xlsx()):
        assert upload(client, world["me"], world["party"]["id"], data).status_code == 201


@pytest.mark.parametrize(
    ("data", "status", "code"),
    [
        (b"<!DOCTYPE html><html><body>hi</body></html>", 415, "unsupported_media_type"),
        (b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 64, 415, "unsupported_media_type"),
        (b"", 422, "document_empty"),
        (PDF * 40, 413, "document_too_large"),
    ],
)
def test_refused_exhibits_write_nothing(
    client: Any,
    engine: Engine,
    app: Any,
    world: dict[str, Any],
    data: bytes,
    status: int,
    code: str,
) -> None:
    app.config["DOCUMENT_MAX_BYTES"] = len(PDF) * 10
    before = events(engine)
    r = upload(client, world["me"], world["party"]["id"], data, filename="evil.pdf")
    assert r.status_code == status, r.json
    assert r.json["error"]["code"] == code
    assert events(engine) == before
    assert not (Path(app.instance_path) / "documents").exists()


def test_another_partys_subject_is_404_and_bad_input_is_clear(
    client: Any, engine: Engine, world: dict[str, Any]
) -> None:
    before = events(engine)
    r = upload(client, world["stranger"], world["party"]["id"], PDF)
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    r = upload(client, world["me"], "pty_nothing", PDF)
    assert r.status_code == 404
    r = upload(client, world["me"], world["party"]["id"], PDF, subject_type="planet")
    assert r.status_code == 422 and r.json["error"]["code"] == "invalid_request"
    r = client.post(
        "/api/v1/documents",
        data={"kind": "business_plan"},
        headers=world["me"],
        content_type="multipart/form-data",
    )
    assert r.status_code == 422 and "file" in r.json["error"]["details"]["missing"]
    assert events(engine) == before


def test_a_crash_after_storing_leaves_an_orphan_never_a_record(
    client: Any, engine: Engine, app: Any, world: dict[str, Any], monkeypatch: Any
) -> None:
    def crash(self: Any, *a: Any, **kw: Any) -> Any:
        raise OSError("power cut")

    monkeypatch.setattr(UnitOfWork, "append", crash)
    before = events(engine)
    assert upload(client, world["me"], world["party"]["id"], PDF).status_code == 500
    monkeypatch.undo()
    sha = hashlib.sha256(PDF).hexdigest()
    orphan = Path(app.instance_path) / "documents" / sha[:2] / sha[2:4] / sha
    assert orphan.read_bytes() == PDF  # the bytes were stored first
    assert events(engine) == before  # and no ledger record names them
    with engine.connect() as conn:
        from market.services.casefiles import documents

        assert documents.of_subject(conn, "party", world["party"]["id"]) == []
    # filing again reuses the stored bytes and records the exhibit once
    r = upload(client, world["me"], world["party"]["id"], PDF)
    assert r.status_code == 201 and r.json["version"] == 1


def test_a_certificates_proof_bundle_lists_its_documents_hashes(
    client: Any, engine: Engine, world: dict[str, Any]
) -> None:
    from tests.helpers import tech_certificate

    cert_id = tech_certificate(engine, world["party"]["id"], 1_000_000)
    doc = upload(client, world["me"], cert_id, PDF, kind="award_letter", subject_type="certificate")
    assert doc.status_code == 201, doc.json
    r = client.get(f"/api/v1/certificates/{cert_id}/proof", headers=world["me"])
    assert r.status_code == 200, r.json
    listed = r.json["documents"]
    assert [(d["id"], d["sha256"]) for d in listed] == [
        (doc.json["id"], hashlib.sha256(PDF).hexdigest())
    ]
    # its DOCUMENT_FILED event is in the bundle, with an inclusion proof
    filed = [e for e in r.json["events"] if e["type"] == "DOCUMENT_FILED"]
    assert filed and filed[0]["payload"]["sha256"] == listed[0]["sha256"]
    assert filed[0]["seq"] in {i["seq"] for i in r.json["inclusion"]}
