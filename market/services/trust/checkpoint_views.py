"""The JSON bodies the trust endpoints and pages answer (PRODUCT.md 8.1, 9.3), as typed
dicts: a checkpoint as served, its cosignatures and quorum, the Merkle proofs and a
certificate's proof bundle. What is hashed or signed is not here: these only name the
fields of what the services already build."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from market.adapters.eventstore import Event
from market.domain.events.codec import JsonObject


class CosignatureShown(TypedDict):
    witness: str
    key_id: str
    timestamp: int


class Quorum(TypedDict):
    required: int
    cosigned: int
    met: bool
    missing: list[str]


class LatestQuorum(Quorum):
    tree_size: int


class PublicCheckpoint(TypedDict):
    """A checkpoint as the API and the bundles give it; `signed_note` is its file."""

    tree_size: int
    root_hash: str
    timestamp: str
    key_id: str
    signature: str
    note: str
    signed_note: str
    cosignatures: NotRequired[list[CosignatureShown]]
    quorum: NotRequired[Quorum]


class EventShown(TypedDict):
    """A ledger event as stored, every column (the bundle, the events page)."""

    seq: int
    stream: str
    version: int
    type: str
    payload: JsonObject
    actor: str
    recorded_at: str
    prev_hash: str
    hash: str


def event_shown(e: Event) -> EventShown:
    """Every column of the event, in the order they are stored (EVENT_COLUMNS)."""
    return {
        "seq": e.seq,
        "stream": e.stream,
        "version": e.version,
        "type": e.type,
        "payload": e.payload,
        "actor": e.actor,
        "recorded_at": e.recorded_at,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
    }


class InclusionProof(TypedDict):
    seq: int
    leaf_index: int
    tree_size: int
    leaf_hash: str
    proof: list[str]
    root_hash: str


ConsistencyProof = TypedDict(
    "ConsistencyProof",
    {"from": int, "to": int, "proof": list[str], "from_root_hash": str, "to_root_hash": str},
)

BundleConsistency = TypedDict("BundleConsistency", {"from": int, "to": int, "proof": list[str]})


class EventInclusion(TypedDict):
    seq: int
    proof: list[str]


class BundleDocument(TypedDict):
    """An exhibit as the bundle lists it; its DOCUMENT_FILED event is among `events`."""

    id: str
    kind: str
    subject_type: str
    subject_id: str
    version: int
    sha256: str
    bytes: int
    media_type: str
    filed_seq: int


class CertificateBundle(TypedDict):
    consistency: NotRequired[BundleConsistency]
    certificate_id: str
    checkpoint: PublicCheckpoint
    events: list[EventShown]
    inclusion: list[EventInclusion]
    documents: list[BundleDocument]
    hash_rule: str
