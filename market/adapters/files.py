"""Files written once: the instance's session key, the ledger's signing key, each signed
checkpoint note.

The content is written whole to a temporary file of this call's own (mkstemp: a name per
process and thread), flushed to disk, then linked into place: a reader never sees half a
file, an existing file is never replaced, and creators racing each other all end up
reading the one content whose link won. `replace_file` is for the one file that changes
(a checkpoint's note gaining its witnesses' cosignatures): renamed over the old, whole.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _written_beside(path: Path, data: bytes, mode: int) -> Path:
    """`data` in a new file beside `path` (same folder: a link or rename is atomic), with
    `mode`, flushed to disk; the caller links or renames it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # created 0600
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def write_once(path: Path, data: bytes, mode: int = 0o600) -> bool:
    """Create `path` holding `data` with `mode` unless it exists; True if this call made
    it, False if the file was there already (it is left as it was)."""
    tmp = _written_beside(path, data, mode)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        tmp.unlink()
    return True


def replace_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write `path` whole, replacing what was there (a temporary file renamed over it, so a
    reader sees the old content or the new, never half of one)."""
    tmp = _written_beside(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
