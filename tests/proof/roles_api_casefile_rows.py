"""The API role matrix's rows for the case file (RULES.md section 7): exhibits, fees, tax
clearances, the TECH steps and BRRAG Board actions. The matrix's business date is the
bill's era, so the steps answer by their order and roles only (the ADM gates are tested
in tests/e2e/test_casefile_*.py)."""

from __future__ import annotations

import io
from typing import Any

from tests.proof.roles_api_rows import ADMIN, Row, get, post, readers
from tests.proof.roles_world import Matrix, statuses

PDF = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF\n"
ONLY_AUTHORITY = statuses(403, authority=200)


def _document(m: Matrix) -> str:
    """One exhibit of the owner's party, filed once (as the owner)."""
    if not hasattr(m, "casefile_document"):
        r = m.client.post(
            "/api/v1/documents",
            data={
                "kind": "business_plan",
                "subject_type": "party",
                "subject_id": m.owner["id"],
                "file": (io.BytesIO(PDF), "plan.pdf"),
            },
            headers=m.headers["owner"],
            content_type="multipart/form-data",
        )
        assert r.status_code == 201, r.json
        m.casefile_document = r.json["id"]  # type: ignore[attr-defined]
    return str(m.casefile_document)  # type: ignore[attr-defined]


def _board_action(m: Matrix) -> str:
    if not hasattr(m, "casefile_board_action"):
        m.casefile_board_action = m.post(  # type: ignore[attr-defined]
            "/api/v1/brrag/board-actions", m.auth, _board_body(m)
        )["id"]
    return str(m.casefile_board_action)  # type: ignore[attr-defined]


def _board_body(m: Matrix) -> dict[str, Any]:
    return {
        "party_id": m.owner["id"],
        "decision": "approve",
        "amount_cents": 1_000,
        "submitted_on": "2014-06-02",
        "board_met_on": "2014-08-20",
        "governor_received_on": "2014-08-29",
    }


def _app(m: Matrix) -> str:
    return str(m.application["id"])


CASEFILE_ROWS = [
    # A JSON body is no multipart form: refused before anything is read (auditor: role).
    Row("documents: file", post(lambda m: "/api/v1/documents"), statuses(422, auditor=403)),
    Row("document: get", get(lambda m: f"/api/v1/documents/{_document(m)}"), readers()),
    Row("document: content", get(lambda m: f"/api/v1/documents/{_document(m)}/content"), readers()),
    Row("fees: list", get(lambda m: f"/api/v1/fees?party_id={m.owner['id']}"), statuses(200)),
    Row(
        "fee: payment",
        post(
            lambda m: "/api/v1/fees/fee_unknown/payments",
            lambda m: {
                "amount_cents": 100,
                "method": "check",
                "reference": "R",
                "received_on": "2014-09-01",
            },
        ),
        statuses(403, authority=404),
    ),
    Row(
        "tax clearance: record",
        post(
            lambda m: f"/api/v1/parties/{m.owner['id']}/tax-clearances",
            lambda m: {"certificate_number": "TCC-M", "issued_on": "2014-08-01", "program": "TECH"},
        ),
        ADMIN,
    ),
    Row(
        "tax clearances: list",
        get(lambda m: f"/api/v1/parties/{m.owner['id']}/tax-clearances"),
        readers(),
    ),
    Row(
        "tech: submit",
        post(lambda m: f"/api/v1/tech/applications/{_app(m)}/submit"),
        {"authority": 200, "auditor": 403, "owner": 409, "other": 404, "anonymous": 401},
    ),
    Row(
        "tech: preliminary approval",
        post(
            lambda m: f"/api/v1/tech/applications/{_app(m)}/preliminary-approval",
            lambda m: {"conditions": ["matrix"]},
        ),
        ONLY_AUTHORITY,
    ),
    Row(
        "tech: forward",
        post(lambda m: f"/api/v1/tech/applications/{_app(m)}/forward"),
        ONLY_AUTHORITY,
    ),
    Row(
        "tech: tax certificate",
        post(
            lambda m: f"/api/v1/tech/applications/{_app(m)}/tax-certificate",
            lambda m: {
                "benefit_cents": 100,
                "certificate_number": "T-1",
                "issued_on": "2014-09-01",
            },
        ),
        ONLY_AUTHORITY,
    ),
    Row("brrag: board action", post(lambda m: "/api/v1/brrag/board-actions", _board_body), ADMIN),
    Row("brrag: board actions", get(lambda m: "/api/v1/brrag/board-actions"), statuses(200)),
    Row(
        "brrag: board action get",
        get(lambda m: f"/api/v1/brrag/board-actions/{_board_action(m)}"),
        readers(),
    ),
    Row(
        "brrag: governor",
        post(
            lambda m: f"/api/v1/brrag/board-actions/{_board_action(m)}/governor",
            lambda m: {"decision": "approve", "decided_on": "2014-09-01"},
        ),
        ONLY_AUTHORITY,
    ),
]
