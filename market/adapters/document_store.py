"""Exhibits' bytes, content-addressed under DOCUMENT_DIR (PRODUCT.md 9.1, ADM-10).

A file is named by its SHA-256 (`ab/cd/abcd...`): written whole to a temporary file
beside its place, flushed and fsynced, then renamed into place and the folder fsynced.
The service stores the bytes BEFORE it appends `DOCUMENT_FILED`, so a crash between the
two leaves at worst a file no event names (an orphan: never listed, never counted as
filed), never a ledger record without its bytes. Identical bytes share one file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


class DocumentStore:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def path_of(self, sha256: str) -> Path:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise ValueError(f"not a SHA-256 in hex: {sha256!r}")
        return self.root / sha256[:2] / sha256[2:4] / sha256

    def put(self, data: bytes) -> str:
        """Store `data` (once per content); returns its SHA-256 in hex."""
        sha = hashlib.sha256(data).hexdigest()
        path = self.path_of(sha)
        if path.exists() and path.stat().st_size == len(data):
            return sha
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{sha}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(name, path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return sha

    def get(self, sha256: str) -> bytes:
        data = self.path_of(sha256).read_bytes()
        if hashlib.sha256(data).hexdigest() != sha256:
            raise OSError(f"stored document {sha256} does not match its hash")
        return data

    def has(self, sha256: str) -> bool:
        return self.path_of(sha256).is_file()
