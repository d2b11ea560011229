"""The event hash is SHA-256 over the canonical JSON of the list of an event's fields. The
append path hashes a payload it has already encoded; that shortcut must give the very
same bytes, or every chain written by it would fail `verify`."""

from __future__ import annotations

import hashlib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from market.adapters.eventstore import canonical_json, compute_hash, hash_encoded

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
texts = st.text()


@given(
    seq=st.integers(min_value=1, max_value=2**62),
    stream=texts,
    version=st.integers(min_value=1, max_value=10**6),
    type_=texts,
    payload=st.dictionaries(st.text(), json_values, max_size=6),
    actor=texts,
    recorded_at=texts,
    prev_hash=texts,
)
def test_hashing_an_encoded_payload_equals_hashing_the_whole_list(
    seq: int,
    stream: str,
    version: int,
    type_: str,
    payload: dict[str, Any],
    actor: str,
    recorded_at: str,
    prev_hash: str,
) -> None:
    whole = canonical_json([seq, stream, version, type_, payload, actor, recorded_at, prev_hash])
    expected = hashlib.sha256(whole.encode("utf-8")).hexdigest()
    fields = (seq, stream, version, type_)
    tail = (actor, recorded_at, prev_hash)
    assert compute_hash(*fields, payload, *tail) == expected
    assert hash_encoded(*fields, canonical_json(payload), *tail) == expected
