"""Settings: a secret key shared by every worker when none is configured."""

from __future__ import annotations

from pathlib import Path

from market import create_app
from market.config import instance_secret_key


def test_without_a_secret_key_every_app_shares_one_kept_in_the_instance_folder(
    tmp_path: Path,
) -> None:
    first = instance_secret_key(str(tmp_path))
    assert len(first) == 64
    assert instance_secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_a_configured_secret_key_wins(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/m.db", "SECRET_KEY": "given"})
    assert app.config["SECRET_KEY"] == "given"
