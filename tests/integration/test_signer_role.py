"""Issue 23, attack 4: one INSERT into checkpoints or merkle_nodes by the runtime role broke
the trust layer. On PostgreSQL the runtime role now only reads the trust tables; the signer
role (`db create-signer-role`, SIGNER_DATABASE_URL) reads the ledger and adds to them,
nothing else; a checkpoint asked of a connection that may not write them answers 503."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError

from market import create_app
from tests.conftest import ERA_TODAY, reset_postgres
from tests.integration.pg_roles import drop_role, make_role
from tests.trust_world import build

NODE = "INSERT INTO merkle_nodes (level, idx, hash) VALUES (0, 999999, '\\x00')"
CHECKPOINT = (
    "INSERT INTO checkpoints (tree_size, root_hash, timestamp, key_id, signature, note) "
    "VALUES (999999, 'x', 'x', 'x', 'x', 'x')"
)
SIGNER_REFUSED = [
    "UPDATE merkle_nodes SET hash = '\\x00'",
    "DELETE FROM merkle_nodes",
    "UPDATE checkpoints SET root_hash = 'x'",
    "DELETE FROM checkpoints",
    "INSERT INTO events (seq) VALUES (999999)",
    "UPDATE ledger_head SET seq = 0",
    "SELECT count(*) FROM users",
    "SELECT count(*) FROM api_tokens",
    "SELECT count(*) FROM certificates",
    "UPDATE certificates SET balance_cents = 0",
]


@pytest.fixture
def roles(pg_database_url: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    reset_postgres(pg_database_url)
    owner = _app({"DATABASE_URL": pg_database_url}, tmp_path)
    runtime, runtime_url, _ = make_role(owner, "create-runtime-role", "market_rt")
    signer, signer_url, output = make_role(owner, "create-signer-role", "market_sg")
    assert "events: SELECT\n" in output and "merkle_nodes: SELECT, INSERT" in output
    # Tables other releases add are granted by the same rule once they exist.
    assert "cosignatures: not there yet" in output or "cosignatures: SELECT, INSERT" in output
    yield {"owner": owner, "runtime": runtime_url, "signer": signer_url, "path": tmp_path}
    owner.extensions["market.engine"].dispose()
    drop_role(pg_database_url, runtime)
    drop_role(pg_database_url, signer)


def _app(config: dict[str, Any], tmp_path: Path) -> Any:
    app = create_app({**config, "TESTING": True, "SECRET_KEY": "t", "MARKET_TODAY": ERA_TODAY})
    app.instance_path = str(tmp_path / "instance")
    return app


def _refused(engine: Engine, stmt: str) -> None:
    with pytest.raises(DBAPIError) as caught, engine.begin() as conn:
        conn.execute(text(stmt))
    assert "permission denied" in str(caught.value.orig).lower(), stmt


def test_only_the_signer_role_writes_the_trust_tables(roles: dict[str, Any]) -> None:
    runtime, signer = create_engine(roles["runtime"]), create_engine(roles["signer"])
    try:
        _refused(runtime, NODE)
        _refused(runtime, CHECKPOINT)
        with runtime.connect() as conn:  # reading them is still the runtime role's
            conn.execute(text("SELECT count(*) FROM merkle_nodes, checkpoints")).scalar_one()
            conn.rollback()
        with signer.connect() as conn:
            conn.execute(text(NODE))
            conn.execute(text(CHECKPOINT))
            assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == 0
            conn.rollback()
        for stmt in SIGNER_REFUSED:
            _refused(signer, stmt)
    finally:
        runtime.dispose()
        signer.dispose()


def test_a_checkpoint_is_made_through_signer_database_url(roles: dict[str, Any]) -> None:
    app = _app(
        {"DATABASE_URL": roles["runtime"], "SIGNER_DATABASE_URL": roles["signer"]},
        roles["path"],
    )
    client = app.test_client()
    w = build(client, app.extensions["market.engine"])
    made = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert made.status_code == 201, made.json
    proof = client.get(f"/api/v1/certificates/{w.buyer_certificate_id}/proof", headers=w.buyer)
    assert proof.status_code == 200, proof.json
    tree = proof.json["checkpoint"]["tree_size"]
    inclusion = client.get(
        f"/api/v1/ledger/proofs/inclusion?seq=1&tree_size={tree}", headers=w.auditor
    )
    assert inclusion.status_code == 200, inclusion.json
    build(client, app.extensions["market.engine"])  # the ledger grows
    runner = app.test_cli_runner()
    cli = runner.invoke(args=["checkpoint", "--json"])
    assert cli.exit_code == 0, cli.output
    assert runner.invoke(args=["verify"]).exit_code == 0
    app.extensions["market.engine"].dispose()
    app.extensions["market.signer_engine"].dispose()


def test_a_checkpoint_asked_of_the_runtime_role_answers_503(roles: dict[str, Any]) -> None:
    app = _app({"DATABASE_URL": roles["runtime"]}, roles["path"])  # no SIGNER_DATABASE_URL
    client = app.test_client()
    w = build(client, app.extensions["market.engine"])
    r = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert r.status_code == 503, r.json
    assert r.json["error"]["code"] == "signer_cannot_write"
    assert "SIGNER_DATABASE_URL" in r.json["error"]["message"]
    bundle = client.get(f"/api/v1/certificates/{w.buyer_certificate_id}/proof", headers=w.buyer)
    assert bundle.status_code == 503 and bundle.json["error"]["code"] == "signer_cannot_write"
    cli = app.test_cli_runner().invoke(args=["checkpoint"])
    assert cli.exit_code != 0 and "signer_cannot_write" in cli.output
    tick = app.test_cli_runner().invoke(args=["tick"])
    assert tick.exit_code != 0 and "signer_cannot_write" in tick.output
    app.extensions["market.engine"].dispose()


def test_a_read_only_signer_connection_answers_503_on_sqlite(
    sqlite_template: Path, tmp_path: Path
) -> None:
    """SQLite has no roles; a signer connection opened read-only is refused the same way."""
    db = tmp_path / "market.db"
    shutil.copy(sqlite_template, db)
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"
    app = _app({"DATABASE_URL": f"sqlite:///{db}", "SIGNER_DATABASE_URL": read_only}, tmp_path)
    assert app.extensions["market.signer_engine"] is not app.extensions["market.engine"]
    client = app.test_client()
    w = build(client, app.extensions["market.engine"])
    r = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert r.status_code == 503 and r.json["error"]["code"] == "signer_cannot_write", r.json
    one_machine = _app({"DATABASE_URL": f"sqlite:///{db}"}, tmp_path)
    assert one_machine.extensions["market.signer_engine"] is one_machine.extensions["market.engine"]
    made = one_machine.test_client().post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert made.status_code == 201, made.json
    for each in (app, one_machine):
        each.extensions["market.engine"].dispose()
    app.extensions["market.signer_engine"].dispose()
