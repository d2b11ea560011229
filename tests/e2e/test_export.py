"""transfers.csv (price paid, ratio, formula-injection safe) and the export command."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from market.services.queries.transfer_report import ratio_text
from tests.helpers import BRRAG_AWARD, confirm_as_buyer, create_party, headers_for


@pytest.fixture
def authority(client: Any, engine: Engine) -> dict[str, str]:
    return headers_for(client, engine, "authority")


def _market(client: Any, engine: Engine, h: dict[str, str]) -> dict[str, Any]:
    seller = create_party(
        client, h, name='=HYPERLINK("http://evil.example","click")', tax_types=["CBT"]
    )
    buyer = create_party(client, h, name="Buyer Inc", tax_types=["CBT"])
    cert = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            **BRRAG_AWARD,
            "holder_party_id": seller["id"],
            "face_cents": 3_000_000,
            "fiscal_year": 2014,
        },
        headers=h,
    )
    assert cert.status_code == 201, cert.json
    sh = headers_for(client, engine, "participant", seller["id"])
    made = []
    for amount, price in ((1_000_000, 850_000), (300_000, 233_333)):
        r = client.post(
            "/api/v1/transfers",
            json={
                "certificate_id": cert.json["id"],
                "buyer_party_id": buyer["id"],
                "amount_cents": amount,
                "consideration_cents": price,
            },
            headers=sh,
        )
        assert r.status_code == 201, r.json
        confirm_as_buyer(client, r.json)
        made.append(r.json["id"])
    ok = client.post(f"/api/v1/transfers/{made[0]}/approve", json={}, headers=h)
    assert ok.status_code in (200, 201), ok.json
    return {"seller": seller, "buyer": buyer, "transfers": made}


def test_transfers_csv_has_every_transfer_and_escapes_formulas(
    client: Any, engine: Engine, authority: dict[str, str]
) -> None:
    market = _market(client, engine, authority)
    r = client.get("/api/v1/reports/transfers.csv", headers=authority)
    assert r.status_code == 200
    assert r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert [row["transfer_id"] for row in rows] == market["transfers"]
    first, second = rows
    assert first["seller_name"].startswith("'=HYPERLINK")  # neutralised, not a formula
    assert not any(v.startswith("=") for row in rows for v in row.values())
    assert (first["amount_cents"], first["consideration_cents"]) == ("1000000", "850000")
    assert first["ratio"] == "0.85" and first["ratio_fraction"] == "17/20"
    assert first["status"] == "approved" and first["decided_at"]
    assert second["status"] == "pending_approval" and second["decided_at"] == ""
    assert second["ratio"] == "0.777776666666" and second["ratio_fraction"] == "233333/300000"
    assert first["program"] == "BRRAG" and first["buyer_name"] == "Buyer Inc"


def test_transfers_csv_roles(client: Any, engine: Engine, authority: dict[str, str]) -> None:
    auditor = headers_for(client, engine, "auditor")
    party = create_party(client, authority)
    participant = headers_for(client, engine, "participant", party["id"])
    assert client.get("/api/v1/reports/transfers.csv", headers=auditor).status_code == 200
    r = client.get("/api/v1/reports/transfers.csv", headers=participant)
    assert r.status_code == 403 and r.json["error"]["code"] == "forbidden"
    assert client.get("/api/v1/reports/transfers.csv").status_code == 401


def test_ratio_text_is_exact_or_truncated() -> None:
    assert ratio_text(3, 4) == "0.75"
    assert ratio_text(2, 3) == "0.666666666666"
    assert ratio_text(5, 5) == "1"
    assert ratio_text(1, 0) == ""


def test_export_command_events_and_transfers(
    app: Any, client: Any, engine: Engine, authority: dict[str, str], tmp_path: Path
) -> None:
    market = _market(client, engine, authority)
    runner = app.test_cli_runner()
    out = tmp_path / "events.json"
    result = runner.invoke(args=["export", "events", "--format", "json", "--output", str(out)])
    assert result.exit_code == 0, result.output
    events = json.loads(out.read_text())
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {"TRANSFER_PROPOSED", "CERT_ISSUED"} <= {e["type"] for e in events}
    result = runner.invoke(args=["export", "events", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == len(events) and rows[-1]["hash"] == events[-1]["hash"]
    assert json.loads(rows[0]["payload"]) == events[0]["payload"]
    result = runner.invoke(args=["export", "transfers", "--format", "json"])
    assert [t["transfer_id"] for t in json.loads(result.output)] == market["transfers"]
    result = runner.invoke(args=["export", "transfers", "--format", "csv"])
    assert "'=HYPERLINK" in result.output
    assert runner.invoke(args=["export", "ledger"]).exit_code != 0


def test_expire_carryforwards_command(
    app: Any, client: Any, engine: Engine, authority: dict[str, str]
) -> None:
    from tests.e2e.test_returns_api import cert_row, held_certificate

    seller = create_party(client, authority, name="Studio", tax_types=["GIT"])
    buyer = create_party(client, authority, name="Buyer", tax_types=["GIT"])
    cert = held_certificate(engine, buyer["id"], seller["id"], 70_000)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["expire-carryforwards", "--tax-year", "2020"])
    assert result.exit_code == 0 and "0 certificate(s)" in result.output
    result = runner.invoke(args=["expire-carryforwards", "--tax-year", "2021"])
    assert result.exit_code == 0 and f"{cert}: 70000 cents expired" in result.output
    assert cert_row(engine, cert).expired_cents == 70_000
