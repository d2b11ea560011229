"""The `allocate` command (PRODUCT.md section 5) on worked example T-1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from market.cli.allocate import allocate

T1 = [
    ("Z1", 150_000, True),
    ("Z2", 2_000_000, True),
    ("Z3", 3_000_000, True),
    ("N1", 200_000, False),
    ("N2", 100_000, False),
    ("N3", 10_000_000, False),
    ("N4", 20_000_000, False),
    ("N5", 30_000_000, False),
    ("N6", 5_250_000, False),
]


def document(ruleset: str | None = "A1178") -> dict[str, object]:
    apps = [
        {
            "id": i,
            "request_cents": d * 100,
            "in_innovation_zone": z,
            "received_at": f"2013-01-0{1 + k % 9}T09:00:00",
        }
        for k, (i, d, z) in enumerate(T1)
    ]
    body: dict[str, object] = {"applications": apps}
    if ruleset is not None:
        body["ruleset"] = ruleset
    return body


def run(tmp_path: Path, body: object, *extra: str) -> tuple[int, str]:
    path = tmp_path / "apps.json"
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    result = CliRunner().invoke(allocate, ["--fiscal-year", "2013", "--input", str(path), *extra])
    return result.exit_code, result.output


def test_the_command_prints_the_allocation_in_input_order(tmp_path: Path) -> None:
    code, out = run(tmp_path, document())
    assert code == 0
    printed = json.loads(out)
    assert list(printed) == ["fiscal_year", "triggered", "allocations", "total_cents"]
    assert printed["fiscal_year"] == 2013 and printed["triggered"] is True
    assert printed["total_cents"] == 6_000_000_000
    assert [a["id"] for a in printed["allocations"]] == [i for i, _, _ in T1]
    assert printed["allocations"][-1] == {"id": "N6", "allocated_cents": 441_731_518}


def test_the_ruleset_option_overrides_the_file(tmp_path: Path) -> None:
    code, out = run(tmp_path, document("A1178"), "--ruleset", "NJAC-2022")
    assert code == 0 and json.loads(out)["triggered"] is False
    code, out = run(tmp_path, document(None))
    assert code == 0 and json.loads(out)["triggered"] is True


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "not valid JSON"),
        ({"apps": []}, '"applications" list'),
        ({"applications": [1]}, "applications[0] must be an object"),
        ({"applications": [{"id": "a"}]}, "lacks request_cents"),
        (
            {
                "applications": [
                    {
                        "id": "",
                        "request_cents": 1,
                        "in_innovation_zone": True,
                        "received_at": "2013-01-01",
                    }
                ]
            },
            "id must be",
        ),
        (
            {
                "applications": [
                    {
                        "id": "a",
                        "request_cents": 1.5,
                        "in_innovation_zone": True,
                        "received_at": "2013-01-01",
                    }
                ]
            },
            "request_cents must be",
        ),
        (
            {
                "applications": [
                    {
                        "id": "a",
                        "request_cents": True,
                        "in_innovation_zone": True,
                        "received_at": "2013-01-01",
                    }
                ]
            },
            "request_cents must be",
        ),
        (
            {
                "applications": [
                    {
                        "id": "a",
                        "request_cents": 1,
                        "in_innovation_zone": "yes",
                        "received_at": "2013-01-01",
                    }
                ]
            },
            "in_innovation_zone must be",
        ),
        (
            {
                "applications": [
                    {"id": "a", "request_cents": 1, "in_innovation_zone": True, "received_at": 5}
                ]
            },
            "received_at must be",
        ),
        (
            {
                "applications": [
                    {
                        "id": "a",
                        "request_cents": 1,
                        "in_innovation_zone": True,
                        "received_at": "soon",
                    }
                ]
            },
            "ISO 8601",
        ),
        ({"applications": [], "ruleset": "NOPE"}, "unknown ruleset"),
    ],
)
def test_bad_input_fails_with_a_message_that_says_what_is_wrong(
    tmp_path: Path, body: object, message: str
) -> None:
    code, out = run(tmp_path, body)
    assert code != 0 and message in out


def test_an_unknown_ruleset_option_is_named_in_the_error(tmp_path: Path) -> None:
    code, out = run(tmp_path, document(), "--ruleset", "NJ-1999")
    assert code != 0 and "unknown ruleset 'NJ-1999' (from --ruleset)" in out


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        allocate, ["--fiscal-year", "2013", "--input", str(tmp_path / "none.json")]
    )
    assert result.exit_code != 0 and "none.json" in result.output
