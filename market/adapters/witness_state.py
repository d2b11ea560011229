"""A witness's state: per log origin, the latest checkpoint it verified and cosigned, one
file in the state directory (named by the SHA-256 of the origin, as tlog-witness's
monitoring path names it), replaced whole (`files.replace_file`).

Checking a request against the stored checkpoint and storing the new one is one step
(the spec's rollback race): `locked` holds an exclusive `flock` on the directory's lock
file meanwhile, which also keeps two processes on one directory apart.
"""

from __future__ import annotations

import fcntl
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from market.adapters.files import replace_file


def origin_hash(origin: str) -> str:
    return hashlib.sha256(origin.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Slot:
    path: Path

    def read(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def write(self, text: str) -> None:
        replace_file(self.path, text.encode("utf-8"), 0o644)  # a cosigned checkpoint is public


class WitnessState:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def slot(self, origin_hex: str) -> Slot:
        return Slot(self.directory / f"{origin_hex}.checkpoint")

    @contextmanager
    def locked(self, origin: str) -> Iterator[Slot]:
        with open(self.directory / ".lock", "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield self.slot(origin_hash(origin))
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
