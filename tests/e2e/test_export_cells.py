"""The transfers CSV keeps each cell's text (issue 27): the one spreadsheet rule (an
apostrophe before a cell a spreadsheet would run) is shared by the JSON export, so the two
agree cell for cell; nothing else is rewritten (defusedcsv turned `|` into `\\|`)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from sqlalchemy import Engine

from market.services.queries.exports import TRANSFER_COLUMNS, spreadsheet_text
from tests.helpers import BRRAG_AWARD, confirm_as_buyer, create_party, headers_for

NAMES = [
    ('=HYPERLINK("http://evil.example","click")', "Pipe | and 100% Co"),
    ("@SUM(A1:A9) Holdings", "-Minus Co"),
    ("+Plus Co", 'Plain, "quoted" Co'),
]


def _sales(client: Any, engine: Engine, h: dict[str, str]) -> None:
    for seller_name, buyer_name in NAMES:
        seller = create_party(client, h, name=seller_name, tax_types=["CBT"])
        buyer = create_party(client, h, name=buyer_name, tax_types=["CBT"])
        body = {"program": "BRRAG", **BRRAG_AWARD, "holder_party_id": seller["id"]}
        cert = client.post(
            "/api/v1/certificates",
            json=body | {"face_cents": 3_000_000, "fiscal_year": 2014},
            headers=h,
        )
        assert cert.status_code == 201, cert.json
        r = client.post(
            "/api/v1/transfers",
            json={
                "certificate_id": cert.json["id"],
                "buyer_party_id": buyer["id"],
                "amount_cents": 1_000_000,
                "consideration_cents": 850_000,
            },
            headers=headers_for(client, engine, "participant", seller["id"]),
        )
        assert r.status_code == 201, r.json
        confirm_as_buyer(client, r.json)


def test_the_csv_and_the_json_export_agree_cell_for_cell(
    app: Any, client: Any, engine: Engine
) -> None:
    h = headers_for(client, engine, "authority")
    _sales(client, engine, h)
    served = client.get("/api/v1/reports/transfers.csv", headers=h).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(served)))
    runner = app.test_cli_runner()
    exported = json.loads(runner.invoke(args=["export", "transfers", "--format", "json"]).output)
    assert len(rows) == len(exported) == len(NAMES)
    for row, obj in zip(rows, exported, strict=True):
        for column in TRANSFER_COLUMNS:
            value = obj[column]
            assert row[column] == ("" if value is None else str(value)), column
    names = [(r["seller_name"], r["buyer_name"]) for r in rows]
    assert names == [
        ('\'=HYPERLINK("http://evil.example","click")', "Pipe | and 100% Co"),
        ("'@SUM(A1:A9) Holdings", "'-Minus Co"),
        ("'+Plus Co", 'Plain, "quoted" Co'),
    ]


@pytest.mark.parametrize(
    ("text", "served"),
    [
        ("=1+1", "'=1+1"),
        ("\tTab", "'\tTab"),
        ("-12.5", "-12.5"),  # a plain number runs nothing
        ("+1", "+1"),
        ("a=b", "a=b"),
        ("100% | pipes", "100% | pipes"),
        ("'=already", "'=already"),  # the rule applied twice changes nothing more
        (None, None),
        (42, 42),
    ],
)
def test_the_rule(text: Any, served: Any) -> None:
    assert spreadsheet_text(text) == served
    assert spreadsheet_text(spreadsheet_text(text)) == served
