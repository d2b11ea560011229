"""The service runs on PostgreSQL as a role that cannot switch the ledger's protection
off: no UPDATE, DELETE or TRUNCATE on events, no trigger changes, no
session_replication_role; and the whole service works as it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from market import create_app
from tests.conftest import ERA_TODAY, reset_postgres
from tests.helpers import replay_equals_live_and_verifies
from tests.integration.pg_roles import drop_role, make_role
from tests.trust_world import build


@pytest.fixture
def runtime_url(pg_database_url: str, tmp_path: Path) -> Iterator[tuple[Any, str, str]]:
    """(the owner's app, the runtime role's URL, the signer role's URL)."""
    reset_postgres(pg_database_url)
    owner_app = create_app(
        {
            "DATABASE_URL": pg_database_url,
            "TESTING": True,
            "SECRET_KEY": "t",
            "MARKET_TODAY": ERA_TODAY,
        }
    )
    owner_app.instance_path = str(tmp_path / "instance")
    name, url, output = make_role(owner_app, "create-runtime-role", "market_rt")
    assert "events: SELECT, INSERT" in output
    assert "checkpoints: SELECT\n" in output and "merkle_nodes: SELECT\n" in output
    signer, signer_url, output = make_role(owner_app, "create-signer-role", "market_sg")
    assert "checkpoints: SELECT, INSERT" in output
    yield owner_app, url, signer_url
    owner_app.extensions["market.engine"].dispose()
    drop_role(pg_database_url, name)
    drop_role(pg_database_url, signer)


FORBIDDEN = [
    "UPDATE events SET actor = 'x' WHERE seq = 1",
    "DELETE FROM events WHERE seq = 1",
    "TRUNCATE events",
    "ALTER TABLE events DISABLE TRIGGER USER",
    "ALTER TABLE events DISABLE TRIGGER events_no_update_delete",
    "DROP TRIGGER events_no_update_delete ON events",
    "SET session_replication_role = replica",
    "UPDATE checkpoints SET root_hash = 'x'",
    "DELETE FROM merkle_nodes",
    # The trust layer is the signer role's to write (issue 23, attack 4).
    "INSERT INTO merkle_nodes (level, idx, hash) VALUES (0, 999999, '\\x00')",
    "INSERT INTO checkpoints (tree_size, root_hash, timestamp, key_id, signature, note) "
    "VALUES (999999, 'x', 'x', 'x', 'x', 'x')",
    "DELETE FROM ledger_head",
    "CREATE TABLE sneaky (id int)",
]


def test_the_runtime_role_cannot_switch_the_protection_off(
    runtime_url: tuple[Any, str, str], tmp_path: Path
) -> None:
    owner_app, url, signer_url = runtime_url
    owner_url = owner_app.config["DATABASE_URL"]
    config = {
        "DATABASE_URL": url,
        "MIGRATION_DATABASE_URL": owner_url,
        "SIGNER_DATABASE_URL": signer_url,
    }
    app = create_app({**config, "TESTING": True, "SECRET_KEY": "t", "MARKET_TODAY": ERA_TODAY})
    app.instance_path = owner_app.instance_path
    client = app.test_client()
    engine = app.extensions["market.engine"]
    # The service works as that role: parties, issuance, a sale, a checkpoint, proofs.
    w = build(client, engine)
    made = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert made.status_code == 201, made.json
    proof = client.get(f"/api/v1/certificates/{w.buyer_certificate_id}/proof", headers=w.buyer)
    assert proof.status_code == 200
    assert client.get("/api/v1/ledger/verify", headers=w.auditor).json["ok"] is True
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify"]).exit_code == 0
    replayed = runner.invoke(args=["replay"])
    assert replayed.exit_code == 0, replayed.output
    replay_equals_live_and_verifies(engine)
    for stmt in FORBIDDEN:
        with pytest.raises(DBAPIError) as caught, engine.begin() as conn:
            conn.execute(text(stmt))
        message = str(caught.value.orig).lower()
        assert "permission denied" in message or "must be owner" in message, (stmt, message)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() > 0
        conn.rollback()
    # Granting needs the owner: the commands that do it use MIGRATION_DATABASE_URL.
    name = make_url(url).username
    assert name is not None
    again = runner.invoke(args=["db", "create-runtime-role", "--name", name])
    assert again.exit_code == 0, again.output
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    alone = create_app(
        {"DATABASE_URL": url, "TESTING": True, "SECRET_KEY": "t", "MARKET_TODAY": ERA_TODAY}
    )
    refused = alone.test_cli_runner().invoke(args=["db", "create-runtime-role", "--name", name])
    assert refused.exit_code != 0
    alone.extensions["market.engine"].dispose()
    engine.dispose()
    app.extensions["market.owner_engine"].dispose()
    app.extensions["market.signer_engine"].dispose()


def test_create_runtime_role_refuses_sqlite_and_odd_names(app: Any) -> None:
    runner = app.test_cli_runner()
    bad = runner.invoke(args=["db", "create-runtime-role", "--name", "x; drop table events"])
    assert bad.exit_code != 0
    assert "not a plain role name" in bad.output or "PostgreSQL only" in bad.output
    signer = runner.invoke(args=["db", "create-signer-role", "--name", "x; drop table events"])
    assert signer.exit_code != 0
    assert "not a plain role name" in signer.output or "PostgreSQL only" in signer.output
