"""The write-once file (adapters/files.py) the session key, the signing key and the
checkpoint notes are written with."""

from __future__ import annotations

import threading
from pathlib import Path

from market.adapters.files import write_once


def test_the_file_is_created_whole_with_mode_0600_and_no_temporary_file_left(
    tmp_path: Path,
) -> None:
    path = tmp_path / "keys" / "secret"
    assert write_once(path, b"first") is True
    assert path.read_bytes() == b"first"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["secret"]


def test_another_mode_is_kept_as_asked(tmp_path: Path) -> None:
    path = tmp_path / "note.checkpoint"
    write_once(path, b"public", 0o644)
    assert path.stat().st_mode & 0o777 == 0o644


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    path.write_bytes(b"kept")
    path.chmod(0o640)
    assert write_once(path, b"other") is False
    assert path.read_bytes() == b"kept"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["secret"]


def test_concurrent_creators_agree_on_one_content(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    start = threading.Barrier(8)
    made: list[bool] = []
    seen: list[bytes] = []
    lock = threading.Lock()

    def create(k: int) -> None:
        start.wait()
        created = write_once(path, f"content of creator {k}".encode() * 1000)
        content = path.read_bytes()
        with lock:
            made.append(created)
            seen.append(content)

    threads = [threading.Thread(target=create, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert made.count(True) == 1  # one creator won; the others found its file
    assert len(set(seen)) == 1 and seen[0] == path.read_bytes()  # all read the winner's
    assert seen[0].startswith(b"content of creator ") and len(seen[0]) >= 20_000  # whole
    assert [p.name for p in tmp_path.iterdir()] == ["secret"]
