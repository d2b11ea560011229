"""Signed checkpoints: rows in `checkpoints` and, for each, a signed-note file in
CHECKPOINT_DIR (a place meant to live outside the database)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection, RowMapping

from market.adapters.files import replace_file, write_once
from market.adapters.tables import CheckpointRow

checkpoints_t = CheckpointRow.__table__  # type: ignore[attr-defined]
SUFFIX = ".checkpoint"


class StoredCheckpoint(TypedDict):
    """A row of `checkpoints`: the note the log signed and its signature."""

    tree_size: int
    root_hash: str
    timestamp: str
    key_id: str
    signature: str
    note: str


def _checkpoint(r: RowMapping) -> StoredCheckpoint:
    return {
        "tree_size": int(r["tree_size"]),
        "root_hash": r["root_hash"],
        "timestamp": r["timestamp"],
        "key_id": r["key_id"],
        "signature": r["signature"],
        "note": r["note"],
    }


def insert(conn: Connection, row: StoredCheckpoint) -> None:
    conn.execute(checkpoints_t.insert().values(**row))


def newest_first(conn: Connection, limit: int) -> list[StoredCheckpoint]:
    stmt = select(checkpoints_t).order_by(checkpoints_t.c.tree_size.desc()).limit(limit)
    return [_checkpoint(r) for r in conn.execute(stmt).mappings()]


def page(conn: Connection, after: int, limit: int) -> list[StoredCheckpoint]:
    stmt = (
        select(checkpoints_t)
        .where(checkpoints_t.c.tree_size > after)
        .order_by(checkpoints_t.c.tree_size)
        .limit(limit)
    )
    return [_checkpoint(r) for r in conn.execute(stmt).mappings()]


def sizes(conn: Connection) -> list[int]:
    return [int(n) for n in conn.execute(select(checkpoints_t.c.tree_size)).scalars()]


def iter_all(conn: Connection, after: int = 0) -> Iterator[StoredCheckpoint]:
    while rows := page(conn, after, 1000):
        yield from rows
        after = rows[-1]["tree_size"]


def file_name(tree_size: int, root_hash: str) -> str:
    return f"{tree_size:012d}-{root_hash[:16]}{SUFFIX}"


def write_file(directory: Path, name: str, content: str) -> Path:
    """Write the file once (`files.write_once`): a reader never sees half of one, and an
    existing file of that name is never replaced."""
    path = directory / name
    write_once(path, content.encode("utf-8"), 0o644)  # a checkpoint is public
    return path


def rewrite_file(directory: Path, name: str, content: str) -> Path:
    """Replace the file whole: the same note and log signature with the cosignatures the
    witnesses added (PRODUCT.md 9.3); a reader sees the old file or the new one."""
    path = directory / name
    replace_file(path, content.encode("utf-8"), 0o644)
    return path


def named_size(path: Path) -> int | None:
    """The tree size a file's name claims (None for a name not of `file_name`'s form)."""
    head = path.name.split("-", 1)[0]
    return int(head) if len(head) == 12 and head.isdigit() else None


def file_paths(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"*{SUFFIX}")) if directory.is_dir() else []


def read_files(directory: Path, min_size: int = 0) -> Iterator[tuple[Path, str | None, str | None]]:
    """(path, text, error) for every checkpoint file, oldest name first; with `min_size`,
    files whose names claim a smaller tree are passed over (a name of another form never)."""
    for path in file_paths(directory):
        claimed = named_size(path)
        if claimed is not None and claimed < min_size:
            continue
        try:
            yield path, path.read_text(encoding="utf-8"), None
        except (OSError, UnicodeDecodeError) as e:
            yield path, None, f"cannot be read: {e}"
