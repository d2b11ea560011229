"""flask --app market users / db / replay / verify."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from market.services import identity
from tests.helpers import create_party, headers_for


def test_users_create_makes_a_user_who_can_sign_in(app: Any) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "users",
            "create",
            "--email",
            "Eda@Example.com",
            "--role",
            "authority",
            "--password",
            "s3cret-pass",
        ]
    )
    assert result.exit_code == 0, result.output
    actor = identity.check_password(
        app.extensions["market.engine"], "eda@example.com", "s3cret-pass"
    )
    assert actor.role == "authority"
    again = runner.invoke(
        args=[
            "users",
            "create",
            "--email",
            "eda@example.com",
            "--role",
            "auditor",
            "--password",
            "s3cret-pass",
        ]
    )
    assert again.exit_code != 0 and "already exists" in again.output


def test_a_participant_needs_an_existing_party(app: Any) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "users",
            "create",
            "--email",
            "s@x.com",
            "--role",
            "participant",
            "--password",
            "s3cret-pass",
            "--party",
            "pty_x",
        ]
    )
    assert result.exit_code != 0 and "does not exist" in result.output


def test_replay_and_verify_agree_and_verify_fails_on_a_forged_projection(
    app: Any, client: Any
) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    party = create_party(client, eda)
    runner = app.test_cli_runner()
    replayed = runner.invoke(args=["replay"])
    assert replayed.exit_code == 0 and "replayed 1 events" in replayed.output
    ok = runner.invoke(args=["verify"])
    assert ok.exit_code == 0 and "ok: 1 events, head " in ok.output
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE parties SET tax_id = 'forged' WHERE id = :id"), {"id": party["id"]}
        )
    bad = runner.invoke(args=["verify"])
    assert bad.exit_code == 1
    assert "first bad seq 1" in bad.output


def test_db_downgrade_and_upgrade_from_the_cli(app: Any) -> None:
    runner = app.test_cli_runner()
    down = runner.invoke(args=["db", "downgrade", "base"])
    assert down.exit_code == 0 and "base" in down.output
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0 and "database at" in up.output
