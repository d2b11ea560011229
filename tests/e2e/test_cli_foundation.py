"""flask --app market users / db / replay / verify."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from market.services.identity import identity
from tests.helpers import create_party, headers_for


def test_users_create_makes_a_user_who_can_sign_in(app: Any) -> None:
    runner = app.test_cli_runner()
    args = ["users", "create", "--email", "Eda@Example.com", "--role", "authority"]
    result = runner.invoke(args=[*args, "--password-stdin"], input="s3cret-passphrase\n")
    assert result.exit_code == 0, result.output
    actor = identity.check_password(
        app.extensions["market.engine"], "eda@example.com", "s3cret-passphrase"
    )
    assert actor.role == "authority"
    # --password still works (PRODUCT.md section 5) but warns that others can read it.
    again = runner.invoke(
        args=[
            *["users", "create", "--email", "eda@example.com", "--role", "auditor"],
            "--password",
            "s3cret-passphrase",
        ]
    )
    assert again.exit_code != 0 and "already exists" in again.output
    assert "warning: --password exposes the password" in again.output


def test_users_create_asks_for_the_password_twice_when_none_is_given(app: Any) -> None:
    runner = app.test_cli_runner()
    args = ["users", "create", "--email", "aud@example.com", "--role", "auditor"]
    result = runner.invoke(args=args, input="a-long-passphrase\na-long-passphrase\n")
    assert result.exit_code == 0, result.output
    assert "a-long-passphrase" not in result.output  # the prompt hides it
    assert (
        identity.check_password(
            app.extensions["market.engine"], "aud@example.com", "a-long-passphrase"
        ).role
        == "auditor"
    )


def test_users_create_refuses_a_short_or_common_password(app: Any) -> None:
    runner = app.test_cli_runner()
    args = ["users", "create", "--email", "w@example.com", "--role", "auditor", "--password-stdin"]
    short = runner.invoke(args=args, input="s3cret-pass\n")
    assert short.exit_code != 0 and "at least 12 characters" in short.output
    common = runner.invoke(args=args, input="1qaz2wsx3edc\n")
    assert common.exit_code != 0 and "most common" in common.output


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
            "s3cret-passphrase",
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
