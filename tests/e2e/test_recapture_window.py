"""TB-40 / AMB-47: a TECH seller's headquarters recapture is per transfer, inside its own
5-year window; the seller pays. Its refusals (after the window, for a liquidation, on the
buyer) are held by tests/unit/services/certificates/test_recaptures.py."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from tests.helpers import headers_for


@pytest.fixture
def tech_sale(app: Any, client: Any) -> dict[str, Any]:
    engine = app.extensions["market.engine"]
    assert app.test_cli_runner().invoke(args=["seed-demo"]).exit_code == 0
    with engine.connect() as conn:
        row = (
            conn.execute(
                text(
                    "select id, seller_party_id, buyer_party_id, hq_window_end from transfers "
                    "where program = 'TECH' and status = 'approved' order by created_seq"
                )
            )
            .mappings()
            .first()
        )
    return dict(row) | {"eda": headers_for(client, engine, "authority")}


def _recapture(client: Any, sale: dict[str, Any], **body: Any) -> Any:
    payload = {
        "party_id": sale["seller_party_id"],
        "amount_cents": 5_000_000,
        "reason": "Moved its headquarters to Pennsylvania.",
        "transfer_id": sale["id"],
        "basis": "hq_not_maintained",
    } | body
    return client.post("/api/v1/recaptures", json=payload, headers=sale["eda"])


def test_a_headquarters_move_inside_the_window_is_recaptured_from_the_seller(
    client: Any, tech_sale: dict[str, Any]
) -> None:
    # The demo's first TECH sale was exchanged on the first day of the business date's
    # fiscal year (2014-07-01): its window runs five years from then (TB-40(b)).
    assert tech_sale["hq_window_end"] == "2019-07-01"
    r = _recapture(client, tech_sale, occurred_on="2016-02-01")
    assert r.status_code == 201, r.json
    assert r.json["fund"] == "general_fund"  # a CBT seller (AMB-46)
    assert r.json["hq_window_end"] == "2019-07-01"
