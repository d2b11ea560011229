"""The stored form of bearer tokens, page sessions and password-reset links: HMAC-SHA256
under a key kept outside the database (TOKEN_HASH_KEY_FILE, docs/SECURITY.md).

A plain SHA-256 can be computed by anyone: whoever may write `api_tokens` (the runtime
role, or anyone who can write a SQLite file) could store the digest of a token they chose
and sign in with it, no password, no second factor. Under a key the database never holds,
a row written by hand names a digest no presented secret maps to.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

KEY_BYTES = 32


@dataclass(frozen=True)
class TokenHasher:
    key: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.key) < KEY_BYTES:
            raise ValueError(f"the token hash key must be at least {KEY_BYTES} bytes")

    def digest(self, secret: str) -> str:
        """64 hex characters, the width of the columns the SHA-256 digests had."""
        return hmac.new(self.key, secret.encode("utf-8"), hashlib.sha256).hexdigest()
