"""A statutory report recomputed from a proof bundle's events alone (PRODUCT.md 9.2):
the bundle's events check against its signed checkpoint (hashes recomputed, inclusion
proofs verified), that checkpoint is the one the report names, and folding those events
with nothing else gives the report the API answered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.eventstore import compute_hash
from market.adapters.tables import Certificate
from market.domain import merkle
from market.domain.events import upcast
from market.domain.rules.statutory_ledger import fold
from market.domain.rules.statutory_reports import digital_media
from tests.helpers import headers_for

pytestmark = pytest.mark.storage

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
ENVELOPE = ("report", "checkpoint", "note", "ruleset")


def _import(app: Any, path: Path) -> None:
    kind = path.stem.split("-")[0]
    result = app.test_cli_runner().invoke(args=["import", kind, str(path)])
    assert json.loads(result.output)["refused"] == [], result.output


def test_the_digital_media_report_recomputes_from_a_bundles_events(
    app: Any, client: Any, tmp_path: Path, market_today: Any
) -> None:
    market_today("2025-06-01")
    certs = tmp_path / "certificates.csv"
    certs.write_text(
        "program,holder_tax_id,face,fiscal_year,issued_on,tax_types,credit_year\n"
        'DM_GIT,22-1000003,"400,000.00",2025,2025-01-20,GIT,2024\n'
    )
    sales = tmp_path / "transfers.csv"
    sales.write_text(
        "certificate_number,buyer_tax_id,amount,consideration,exchange_date\n"
        'DM_GIT-2025-000001,22-1000004,"100,000.00","88,000.00",2025-03-03\n'
        'DM_GIT-2025-000001,22-1000001,"50,000.00","44,500.00",2025-03-04\n'
    )
    for path in (SAMPLES / "parties.csv", certs, sales):
        _import(app, path)
    engine = app.extensions["market.engine"]
    auditor = headers_for(client, engine, "auditor")
    report = client.get("/api/v1/reports/statutory/digital-media?fiscal_year=2025", headers=auditor)
    assert report.status_code == 200
    answered = report.json
    assert answered["empty"] is False and answered["transfers"]["count"] == 2
    with engine.connect() as conn:
        cert_id = conn.execute(
            select(Certificate.__table__.c.id).where(Certificate.__table__.c.is_original.is_(True))
        ).scalar_one()

    bundle = client.get(f"/api/v1/certificates/{cert_id}/proof", headers=auditor).json
    checkpoint = bundle["checkpoint"]
    assert (checkpoint["tree_size"], checkpoint["root_hash"]) == (
        answered["checkpoint"]["tree_size"],
        answered["checkpoint"]["root_hash"],
    )
    root = bytes.fromhex(checkpoint["root_hash"])
    proofs = {p["seq"]: p["proof"] for p in bundle["inclusion"]}
    for e in bundle["events"]:
        recomputed = compute_hash(
            e["seq"], e["stream"], e["version"], e["type"], e["payload"], e["actor"],
            e["recorded_at"], e["prev_hash"],
        )  # fmt: skip
        assert recomputed == e["hash"]
        leaf = merkle.leaf_hash(bytes.fromhex(e["hash"]))
        path = [bytes.fromhex(p) for p in proofs[e["seq"]]]
        assert merkle.verify_inclusion(leaf, e["seq"] - 1, checkpoint["tree_size"], path, root)

    state = fold((e["seq"], upcast(e["type"], e["payload"])) for e in bundle["events"])
    recomputed_report = digital_media(state, 2025)
    assert recomputed_report == {k: v for k, v in answered.items() if k not in ENVELOPE}

    # The bundle signed a checkpoint at that size: the report now says so.
    again = client.get("/api/v1/reports/statutory/digital-media?fiscal_year=2025", headers=auditor)
    assert again.json["checkpoint"]["signed"] is True
