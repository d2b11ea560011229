"""`flask import KIND FILE.csv [--dry-run]` (PRODUCT.md 9.1, docs/IMPORT.md): the sample
files import through the live use cases; every bad input is named by row and field and
writes nothing; a dry run writes nothing; the same file twice imports nothing twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from market.adapters.tables import Certificate, EventRow, Party, RecordsImport
from tests.helpers import events

pytestmark = pytest.mark.storage

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
TODAY = "2025-06-01"
Run = Callable[..., tuple[int, dict[str, Any]]]

PARTIES_HEADER = (
    "name,tax_id,entity_type,tax_types,naics_code,employees,"
    "owner_tax_id,owner_voting_bps,owner_value_bps\n"
)
CERTS_HEADER = "program,holder_tax_id,face,fiscal_year,issued_on,tax_types,credit_year\n"


@pytest.fixture
def run(app: Any, tmp_path: Path, market_today: Any) -> Run:
    market_today(TODAY)
    runner = app.test_cli_runner()

    def invoke(kind: str, content: bytes | str | Path, *flags: str) -> tuple[int, dict[str, Any]]:
        if isinstance(content, Path):
            path = content
        else:
            path = tmp_path / f"{kind}-{abs(hash(content))}.csv"
            path.write_bytes(content.encode() if isinstance(content, str) else content)
        result = runner.invoke(args=["import", kind, str(path), *flags])
        return result.exit_code, json.loads(result.output)

    return invoke


def _count(app: Any, table: Any) -> int:
    with app.extensions["market.engine"].connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table.__table__)).scalar_one())


def _samples(run: Run) -> list[dict[str, Any]]:
    return [
        run(kind, SAMPLES / f"{kind}.csv")[1] for kind in ("parties", "certificates", "transfers")
    ]


def test_the_sample_files_import_with_their_facts_and_a_run_recorded(app: Any, run: Run) -> None:
    parties, certs, transfers = _samples(run)
    assert (parties["rows"], parties["imported"], parties["refused"]) == (4, 4, [])
    assert (certs["rows"], certs["imported"], certs["refused"]) == (3, 3, [])
    assert (transfers["rows"], transfers["imported"], transfers["refused"]) == (1, 1, [])
    assert _count(app, RecordsImport) == 3
    engine = app.extensions["market.engine"]
    with engine.connect() as conn:
        faces = dict(
            conn.execute(
                select(Certificate.__table__.c.number, Certificate.__table__.c.face_cents)
            ).all()
        )
        imported = (
            conn.execute(
                select(EventRow.__table__.c.payload).where(
                    EventRow.__table__.c.type == "RECORDS_IMPORTED"
                )
            )
            .scalars()
            .all()
        )
    # "$1,250,000.00", "400,000.00" and "250000": exact cents; the sale made a T1 of $500,000.
    assert faces["BRRAG-2025-000001"] == 1_250_000_00
    assert faces["DM_GIT-2025-000001"] == 400_000_00
    assert faces["DM_CBT-2025-000001"] == 250_000_00
    assert faces["BRRAG-2025-000001-T1"] == 500_000_00
    assert {p["kind"] for p in imported} == {"parties", "certificates", "transfers"}
    assert all(len(p["sha256"]) == 64 and p["first_seq"] <= p["last_seq"] for p in imported)


def test_the_same_file_twice_imports_nothing_twice(app: Any, run: Run) -> None:
    first = run("parties", SAMPLES / "parties.csv")[1]
    before = events(app.extensions["market.engine"])
    code, again = run("parties", SAMPLES / "parties.csv")
    assert code == 0 and again["already_imported"] is True and again["imported"] == 0
    assert again["sha256"] == first["sha256"]
    assert events(app.extensions["market.engine"]) == before
    assert _count(app, Party) == 4


def test_a_dry_run_checks_every_row_and_writes_nothing(app: Any, run: Run) -> None:
    code, report = run("parties", SAMPLES / "parties.csv", "--dry-run")
    assert code == 0 and report["dry_run"] and report["rows"] == 4 and report["imported"] == 0
    assert events(app.extensions["market.engine"]) == 0
    # Not recorded either: the real run afterwards imports.
    assert run("parties", SAMPLES / "parties.csv")[1]["imported"] == 4


def test_a_wrong_header_is_named_column_by_column(app: Any, run: Run) -> None:
    code, report = run("parties", "name,tax_number,entity_type\nA,1,llc\n")
    assert code == 1 and report["imported"] == 0
    found = {(r["row"], r["field"], r["code"]) for r in report["refused"]}
    assert found == {
        (1, "tax_number", "wrong_header"),
        (1, "tax_id", "wrong_header"),
        (1, "tax_types", "wrong_header"),
    }
    assert events(app.extensions["market.engine"]) == 0


def test_a_file_not_in_utf8_is_refused_with_where(app: Any, run: Run) -> None:
    latin1 = (PARTIES_HEADER + "Café Holdings,22-1,llc,CBT,,,,,\n").encode("latin-1")
    code, report = run("parties", latin1)
    assert code == 1
    [refusal] = report["refused"]
    assert (refusal["row"], refusal["field"], refusal["code"]) == (2, "file", "bad_encoding")
    assert "UTF-8" in refusal["message"]
    assert events(app.extensions["market.engine"]) == 0


def test_a_bom_and_excel_quoting_are_read(app: Any, run: Run) -> None:
    text = (
        PARTIES_HEADER
        + '"Smith, Jones ""&"" Co",22-7,partnership,CBT;GIT,541110,2025:12,,,\r\n\r\n'
    )
    code, report = run("parties", "\ufeff" + text)
    assert code == 0 and report["imported"] == 1, report
    with app.extensions["market.engine"].connect() as conn:
        name = conn.execute(select(Party.__table__.c.name)).scalar_one()
    assert name == 'Smith, Jones "&" Co'


def test_every_bad_row_is_listed_by_row_and_field_and_nothing_is_written(
    app: Any, run: Run
) -> None:
    run("parties", SAMPLES / "parties.csv")
    before = events(app.extensions["market.engine"])
    rows = [
        "DM_GIT,22-1000003,-400.00,2025,2025-01-20,GIT,2024",  # 2: negative amount
        "DM_GIT,22-1000003,400.00,2025,2025-02-30,GIT,2024",  # 3: no such date
        "DM_GIT,22-9999999,400.00,2025,2025-01-20,GIT,2024",  # 4: no such party
        "DM_GIT,22-1000003,400.001,2025,2025-01-20,GIT,2024",  # 5: fractions of a cent
        'DM_GIT,22-1000003,"$1,000.50",2025,2025-01-20,GIT,2024',  # 6: fine
        "DM_GIT,22-1000003,12.34.5,2025,2025-01-20,GIT,2024",  # 7: not an amount
    ]
    code, report = run("certificates", CERTS_HEADER + "\n".join(rows) + "\n")
    assert code == 1 and report["rows"] == 6 and report["imported"] == 0
    found = [(r["row"], r["field"], r["code"]) for r in report["refused"]]
    assert found == [
        (2, "face", "negative_amount"),
        (3, "issued_on", "invalid_date"),
        (4, "holder_tax_id", "party_not_defined"),
        (5, "face", "too_many_decimals"),
        (7, "face", "invalid_amount"),
    ]
    assert all(r["message"] for r in report["refused"])
    assert events(app.extensions["market.engine"]) == before
    assert _count(app, Certificate) == 0


def test_a_party_referenced_before_it_is_defined_and_a_bad_naics_code(app: Any, run: Run) -> None:
    text = PARTIES_HEADER + (
        "Owned Co,22-2,llc,CBT,541715,,22-3,5000,5000\n"  # 2: its owner comes later
        "Owner Co,22-3,c_corporation,CBT,541715,,,,\n"  # 3: fine
        "Nowhere Co,22-4,llc,CBT,99,,,,\n"  # 4: no sector 99
        "Short Co,22-5,llc,CBT,5417150,,,,\n"  # 5: seven digits
        "Staff Co,22-6,llc,CBT,541715,2025:many,,,\n"  # 6: not a count
    )
    code, report = run("parties", text)
    assert code == 1
    found = [(r["row"], r["field"], r["code"]) for r in report["refused"]]
    assert found == [
        (2, "owner_tax_id", "party_not_defined"),
        (4, "naics_code", "invalid_naics"),
        (5, "naics_code", "invalid_naics"),
        (6, "employees", "invalid_employees"),
    ]
    assert events(app.extensions["market.engine"]) == 0


def test_sales_past_a_certificates_face_are_refused_on_the_row_that_exceeds(
    app: Any, run: Run
) -> None:
    run("parties", SAMPLES / "parties.csv")
    run("certificates", SAMPLES / "certificates.csv")
    before = events(app.extensions["market.engine"])
    text = (
        "certificate_number,buyer_tax_id,amount,consideration,exchange_date\n"
        'BRRAG-2025-000001,22-1000004,"1,000,000.00","910,000.00",2025-03-10\n'
        'BRRAG-2025-000001,22-1000001,"300,000.00","273,000.00",2025-03-11\n'
        'BRRAG-2025-000009,22-1000001,"1.00","0.91",2025-03-11\n'
    )
    code, report = run("transfers", text)
    assert code == 1
    found = [(r["row"], r["field"], r["code"]) for r in report["refused"]]
    assert found == [
        (3, "amount", "sales_exceed_face"),
        (4, "certificate_number", "certificate_not_defined"),
    ]
    assert events(app.extensions["market.engine"]) == before


def test_a_row_the_live_rules_refuse_is_refused_the_same_way(app: Any, run: Run) -> None:
    """The same use case as a live request: a BRRAG award without the determination."""
    run("parties", SAMPLES / "parties.csv")
    sample = (SAMPLES / "certificates.csv").read_text().replace(",yes\n", ",no\n")
    code, report = run("certificates", sample)
    assert code == 1
    [refusal] = report["refused"]
    assert (refusal["row"], refusal["field"], refusal["code"]) == (
        2,
        "cannot_use_before_expiry",
        "determination_missing",
    )


def test_on_a_terminal_a_progress_bar_is_drawn_on_stderr(
    app: Any, market_today: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from market.cli import records_import

    market_today(TODAY)
    monkeypatch.setattr(records_import, "on_terminal", lambda: True)
    result = app.test_cli_runner().invoke(
        args=["import", "parties", str(SAMPLES / "parties.csv"), "--dry-run"]
    )
    assert result.exit_code == 0
    assert "importing parties" in result.stderr
    assert json.loads(result.stdout)["rows"] == 4  # stdout is the report alone


def test_a_party_name_with_an_invisible_character_is_refused_on_its_row(app: Any, run: Run) -> None:
    """The import holds names to the API's party-name rule (market/domain/names.py)."""
    before = events(app.extensions["market.engine"])
    rows = "Zero\u200bWidth Co,22-7000001,c_corporation,CBT,,,,,\n"
    code, report = run("parties", PARTIES_HEADER + rows)
    assert code == 1 and report["imported"] == 0
    [refusal] = report["refused"]
    assert (refusal["row"], refusal["field"], refusal["code"]) == (
        2,
        "name",
        "invisible_characters",
    )
    assert "U+200B at position 5" in refusal["message"]
    assert events(app.extensions["market.engine"]) == before
    assert _count(app, Party) == 0


def test_a_bad_entity_type_or_tax_type_is_refused_on_its_column(app: Any, run: Run) -> None:
    """The party rules name the field they refuse, and the report names its column (not
    "row"): PRODUCT.md 9.1's `refused: [{row, field, code, message}]`."""
    rows = "Bad Entity Co,22-7000002,trust,CBT,,,,,\nBad Tax Co,22-7000003,llc,VAT,,,,,\n"
    code, report = run("parties", PARTIES_HEADER + rows)
    assert code == 1 and report["imported"] == 0
    found = [(r["row"], r["field"], r["code"]) for r in report["refused"]]
    assert found == [(2, "entity_type", "invalid_request"), (3, "tax_types", "invalid_request")]
    assert _count(app, Party) == 0
