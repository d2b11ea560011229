"""A TypeScript client generated from /api/v1/openapi.json by npm's openapi-typescript,
type-checked by `tsc --noEmit` (strict) and run with openapi-fetch under node, drives a
listed sale against a live server (gunicorn) started here; every answer it received is
checked against the document (tests/ts_client, locked versions; scripts/test installs it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.openapi_check import check_answer
from tests.ops_servers import IN_CI, gunicorn
from tests.sale_world import seed_sale

CLIENT_DIR = Path(__file__).resolve().parents[1] / "ts_client"
MODULES = CLIENT_DIR / "node_modules"


def node() -> str:
    found = shutil.which("node")
    if found is None or not (MODULES / "openapi-typescript").is_dir():
        reason = "node and npm's openapi-typescript are needed (scripts/test runs npm ci)"
        if IN_CI:
            pytest.fail(reason + "; CI requires them", pytrace=False)
        pytest.skip(reason)
    return found


def run(args: list[str], where: Path) -> str:
    done = subprocess.run(args, cwd=where, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{args[1:3]}: {done.stdout[-4000:]}{done.stderr[-4000:]}"
    return done.stdout


def build(spec: dict[str, Any], where: Path) -> Path:
    """The generated types beside sale.ts, type-checked, then compiled to out/sale.js."""
    exe = node()
    for name in ("sale.ts", "tsconfig.json", "package.json"):
        shutil.copy(CLIENT_DIR / name, where / name)
    (where / "node_modules").symlink_to(MODULES)
    (where / "openapi.json").write_text(json.dumps(spec))
    generator = str(MODULES / "openapi-typescript" / "bin" / "cli.js")
    # A field with a default is optional to send: do not type it as required.
    run(
        [exe, generator, "openapi.json", "--default-non-nullable", "false", "-o", "schema.d.ts"],
        where,
    )
    tsc = str(MODULES / "typescript" / "bin" / "tsc")
    run([exe, tsc, "--noEmit", "-p", "."], where)
    run([exe, tsc, "-p", "."], where)
    return where / "out" / "sale.js"


def test_a_generated_typescript_client_drives_a_listed_sale(
    app: Any, client: Any, database_url: str, tmp_path: Path
) -> None:
    certificate_id = seed_sale(app, client)
    spec = client.get("/api/v1/openapi.json").json
    sale = build(spec, tmp_path)
    log = tmp_path / "answers.json"
    (tmp_path / "served").mkdir()
    with gunicorn(database_url, tmp_path / "served") as served:
        out = run([node(), str(sale), served.url, certificate_id, str(log)], tmp_path)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["status"] == "approved"
    assert result["refused"] == "conflict"  # the listing is sold
    seen = json.loads(log.read_text())
    assert [a["status"] for a in seen] == [200, 200, 200, 201, 200, 201, 201, 200, 409]
    for answer in seen:
        check_answer(
            app,
            answer["method"],
            answer["path"],
            answer["status"],
            answer["mimetype"],
            answer["body"],
        )
