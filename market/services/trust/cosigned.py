"""What the witnesses' cosignatures add to a checkpoint as the API, the bundles and the
ledger page show it (PRODUCT.md 9.3): the note with every stored cosignature line, who
cosigned and when, and whether the quorum (`WITNESS_QUORUM`, default all) is met."""

from __future__ import annotations

from sqlalchemy import Engine

from market.adapters import cosignature_store
from market.adapters.cosignature_store import StoredCosignature
from market.services.kernel.uow import ReadOnly
from market.services.trust.checkpoint_views import LatestQuorum, PublicCheckpoint, Quorum
from market.services.trust.witnessing import WitnessSettings, signed_note


def quorum_of(ws: WitnessSettings, stored: list[StoredCosignature]) -> Quorum:
    """Only cosignatures by configured witness keys count toward the quorum."""
    configured = {(w.name, w.key.key_hash.hex()) for w in ws.witnesses}
    cosigned = sorted({c["witness"] for c in stored if (c["witness"], c["key_id"]) in configured})
    return {
        "required": ws.required,
        "cosigned": len(cosigned),
        "met": len(cosigned) >= ws.required,
        "missing": sorted({w.name for w in ws.witnesses} - set(cosigned)),
    }


def with_cosignatures(
    engine: Engine, ws: WitnessSettings, public: PublicCheckpoint
) -> PublicCheckpoint:
    """`public` (a checkpoint as `checkpoints.as_public` gives it) with its cosignatures:
    `signed_note` carries their lines after the log's, as the checkpoint's file does."""
    return page_with_cosignatures(engine, ws, [public])[0]


def page_with_cosignatures(
    engine: Engine, ws: WitnessSettings, items: list[PublicCheckpoint]
) -> list[PublicCheckpoint]:
    with ReadOnly(engine) as conn:
        found = cosignature_store.for_checkpoints(conn, [p["tree_size"] for p in items])
    return [_with(ws, p, found.get(p["tree_size"], [])) for p in items]


def _with(
    ws: WitnessSettings, public: PublicCheckpoint, stored: list[StoredCosignature]
) -> PublicCheckpoint:
    return {
        **public,
        "signed_note": signed_note(public, stored),
        "cosignatures": [
            {"witness": c["witness"], "key_id": c["key_id"], "timestamp": c["timestamp"]}
            for c in stored
        ],
        "quorum": quorum_of(ws, stored),
    }


def latest_quorum(
    engine: Engine, ws: WitnessSettings, latest: PublicCheckpoint | None
) -> LatestQuorum | None:
    """The quorum (with its `tree_size`) of `latest`, the newest checkpoint a trusted key
    signed (`checkpoints.latest`: a row written by hand never stands for it); None before
    the first."""
    if latest is None:
        return None
    with ReadOnly(engine) as conn:
        stored = cosignature_store.for_checkpoint(conn, latest["tree_size"])
    return {"tree_size": latest["tree_size"], **quorum_of(ws, stored)}


def witness_quorum_met(
    engine: Engine, ws: WitnessSettings, latest: PublicCheckpoint | None
) -> bool:
    """For the readiness probe: `latest` has its quorum of cosignatures (true with no
    witnesses configured, or before the first checkpoint)."""
    found = latest_quorum(engine, ws, latest)
    return found is None or found["met"]
