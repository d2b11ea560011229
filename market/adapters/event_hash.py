"""The hash that chains the events: SHA-256 over the canonical JSON (RFC 8785, JCS, for
the values events hold) of every field of an event but its own hash, `prev_hash`
included."""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring
from typing import Any

GENESIS_HASH = "0" * 64

# json.dumps with these options builds a new encoder on every call; one serves them all.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    return _CANONICAL.encode(value)


def compute_hash(
    seq: int,
    stream: str,
    version: int,
    type_: str,
    payload: dict[str, Any],
    actor: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    body = canonical_json([seq, stream, version, type_, payload, actor, recorded_at, prev_hash])
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def hash_encoded(
    seq: int,
    stream: str,
    version: int,
    type_: str,
    payload_json: str,
    actor: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    """`compute_hash` for a payload already in canonical JSON: the canonical encoding of
    the list, built from its encoded items, so the payload is not encoded twice (a string
    item encodes as `encode_basestring` gives it, an integer as its decimal digits)."""
    q = encode_basestring
    body = (
        f"[{int(seq)},{q(stream)},{int(version)},{q(type_)},{payload_json},"
        f"{q(actor)},{q(recorded_at)},{q(prev_hash)}]"
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()
