"""Merkle proofs (RFC 9162 2.1.3 and 2.1.4) and a certificate's proof bundle.

Inclusion and consistency proofs are for anyone (hashes only); the API limits their rate
per client address (`rate_limit`). A proof for a tree larger than the stored one first
extends the stored tree (checked event by event, see `merkle_store.extend`); a request
for a seq or size the ledger does not have writes nothing. A certificate's bundle is
proven against the latest checkpoint; when that checkpoint does not include the
certificate's last event yet, a new checkpoint is made first (the bundle must be
checkable now, not after the next scheduled one). What
extends the tree or signs goes through `signer` (SIGNER_DATABASE_URL's engine; None: the
same engine), the only role that may write the trust tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store, merkle_store
from market.adapters.checkpoint_store import StoredCheckpoint
from market.adapters.eventstore import event_from_row, events_t, head
from market.domain import merkle
from market.domain.errors import DomainError
from market.domain.model.case_file import Document
from market.services.casefiles import documents
from market.services.certificates import certificate_views
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import (
    LedgerContradictsTreeError,
    MerkleTreeBehindError,
    NotFoundError,
)
from market.services.kernel.uow import ReadOnly
from market.services.trust import cosigned
from market.services.trust import signer as signing
from market.services.trust.checkpoint_views import (
    BundleConsistency,
    BundleDocument,
    CertificateBundle,
    ConsistencyProof,
    EventInclusion,
    EventShown,
    InclusionProof,
    PublicCheckpoint,
    event_shown,
)
from market.services.trust.checkpoints import REQUEST_BACKLOG, TrustSettings, as_public, latest_row

HASH_RULE = (
    "hash = sha256(canonical_json([seq, stream, version, type, payload, "
    "actor, recorded_at, prev_hash])), canonical_json being RFC 8785 (JCS) for the values "
    "events hold; leaf = sha256(0x00 || hash)"
)


class ProofRequestError(DomainError):
    """A proof asked for something no tree can prove (a seq past the size, from > to)."""

    code = "invalid_proof_request"


def _ensure_tree(engine: Engine, size: int, signer: Engine | None) -> None:
    with ReadOnly(engine) as conn:
        stored = merkle_store.stored_size(conn)
        head_seq, _ = head(conn)
    if size > head_seq:
        raise NotFoundError(
            f"The ledger has {head_seq} events; there is no tree of size {size}.",
            {"tree_size": size, "events": head_seq},
        )
    if size - stored > REQUEST_BACKLOG:
        raise MerkleTreeBehindError(
            f"The Merkle tree is {size - stored} events behind; build it with "
            "`flask --app market checkpoint` first (too long for a request).",
            {"behind": size - stored},
        )
    if stored < size:
        try:
            with signing.writing_trust():
                merkle_store.extend_all(signer or engine)
        except merkle_store.TreeContradiction as e:
            raise LedgerContradictsTreeError(f"No proof: {e}.", {"seq": e.seq}) from e


def _default_size(engine: Engine) -> int:
    """The latest stored checkpoint's size, if the tree has its root there (a row written
    by hand is never built on); else the ledger head."""
    with ReadOnly(engine) as conn:
        head_seq, stored = head(conn)[0], merkle_store.stored_size(conn)
        for row in checkpoint_store.newest_first(conn, 10):
            size = row["tree_size"]
            if size <= min(head_seq, stored) and (
                merkle_store.stored_root(conn, size).hex() == row["root_hash"]
            ):
                return size
        return head_seq


def inclusion(
    engine: Engine, seq: int, tree_size: int | None, signer: Engine | None = None
) -> InclusionProof:
    """PATH(seq - 1, D[tree_size]); tree_size defaults to the latest checkpoint's. Anyone
    may ask (PRODUCT.md 9.3): a proof carries hashes only, no event's content."""
    size = _default_size(engine) if tree_size is None else tree_size
    if seq > size:
        raise ProofRequestError(
            f"seq {seq} is not in a tree of size {size}.", {"seq": seq, "tree_size": size}
        )
    _ensure_tree(engine, size, signer)
    with ReadOnly(engine) as conn:
        reader = merkle_store.NodeReader(conn)
        proof = reader.run(lambda nodes: merkle.inclusion_proof(nodes, seq - 1, size))
        root = reader.run(lambda nodes: merkle.root(nodes, size))
        leaf = reader.run(lambda nodes: nodes(0, seq - 1))
    return {
        "seq": seq,
        "leaf_index": seq - 1,
        "tree_size": size,
        "leaf_hash": leaf.hex(),
        "proof": [p.hex() for p in proof],
        "root_hash": root.hex(),
    }


def consistency(
    engine: Engine, old: int, new: int, signer: Engine | None = None
) -> ConsistencyProof:
    """PROOF(old, D[new]); anyone may ask, as for `inclusion`."""
    if old > new:
        raise ProofRequestError(
            f"from ({old}) must not be greater than to ({new}).", {"from": old, "to": new}
        )
    _ensure_tree(engine, new, signer)
    with ReadOnly(engine) as conn:
        reader = merkle_store.NodeReader(conn)
        proof = reader.run(lambda nodes: merkle.consistency_proof(nodes, old, new))
        old_root = reader.run(lambda nodes: merkle.root(nodes, old))
        new_root = reader.run(lambda nodes: merkle.root(nodes, new))
    return {
        "from": old,
        "to": new,
        "proof": [p.hex() for p in proof],
        "from_root_hash": old_root.hex(),
        "to_root_hash": new_root.hex(),
    }


def _path_hex(reader: merkle_store.NodeReader, index: int, size: int) -> list[str]:
    return [p.hex() for p in reader.run(lambda nodes: merkle.inclusion_proof(nodes, index, size))]


@dataclass(frozen=True)
class BundleRequest:
    """Whose bundle, and the size of a checkpoint the reader already holds (`since`)."""

    certificate_id: str
    since: int | None = None


@dataclass(frozen=True)
class _BundleRows:
    """What the bundle proves, read in one transaction: the events and exhibits, and the
    latest trusted checkpoint if it includes them all."""

    seqs: list[int]
    events: list[EventShown]
    exhibits: list[BundleDocument]
    checkpoint: StoredCheckpoint | None


def certificate_bundle(
    engine: Engine,
    actor: Actor,
    settings: TrustSettings,
    request: BundleRequest,
    signer: Engine | None = None,
) -> CertificateBundle:
    """The certificate's events (its own, its listings' and its transfers'), each with its
    inclusion proof against one signed checkpoint: checkable offline with the public key.
    `since`: the size of a checkpoint the reader already holds; the bundle then carries the
    consistency proof from it, so the reader sees that nothing it held was changed."""
    found = _bundle_rows(engine, actor, settings, request)
    if found.checkpoint is None:
        made, _ = signing.make_checkpoint(signer or engine, settings, max_backlog=REQUEST_BACKLOG)
    else:
        made = as_public(found.checkpoint)
    made = cosigned.with_cosignatures(engine, settings.witnesses, made)  # PRODUCT.md 9.3
    size, since = made["tree_size"], request.since
    with ReadOnly(engine) as conn:
        reader = merkle_store.NodeReader(conn)
        inclusion: list[EventInclusion] = [
            {"seq": s, "proof": _path_hex(reader, s - 1, size)} for s in found.seqs
        ]
        bundle: CertificateBundle = {
            "certificate_id": request.certificate_id,
            "checkpoint": made,
            "events": found.events,
            "inclusion": inclusion,
            "documents": found.exhibits,
            "hash_rule": HASH_RULE,
        }
        if since is not None:
            if since > size:
                raise ProofRequestError(
                    f"since ({since}) is past the bundle's checkpoint ({size}).",
                    {"since": since, "tree_size": size},
                )
            proof = reader.run(lambda nodes: merkle.consistency_proof(nodes, since, size))
            extra: BundleConsistency = {
                "from": since,
                "to": size,
                "proof": [p.hex() for p in proof],
            }
            bundle = {"consistency": extra, **bundle}
    return bundle


def _bundle_rows(
    engine: Engine, actor: Actor, settings: TrustSettings, request: BundleRequest
) -> _BundleRows:
    certificate_id, since = request.certificate_id, request.since
    with ReadOnly(engine) as conn:
        cert = certificate_views.load_certificate(conn, certificate_id)
        if actor.role not in (AUTHORITY, AUDITOR) and actor.party_id != cert["holder_party_id"]:
            # The same answer as an unknown id: a stranger learns nothing.
            raise NotFoundError(
                f"Certificate {certificate_id} does not exist.", {"certificate_id": certificate_id}
            )
        if since is not None and since > head(conn)[0]:
            raise ProofRequestError(
                f"since ({since}) is past the ledger ({head(conn)[0]} events).", {"since": since}
            )
        seqs = [e["seq"] for e in certificate_views.certificate_history(conn, certificate_id)]
        filed = documents.of_certificate(conn, str(cert["id"]), cert.get("root_id"))
        exhibits = [_listed(d) for d in filed]  # PRODUCT.md 9.1
        seqs = sorted({*seqs, *(d["filed_seq"] for d in exhibits)})
        rows = conn.execute(select(events_t).where(events_t.c.seq.in_(seqs)).order_by("seq"))
        events = [event_shown(event_from_row(r)) for r in rows]
        checkpoint = latest_row(conn, settings)
        if checkpoint is not None and checkpoint["tree_size"] < max(seqs, default=1):
            checkpoint = None
    return _BundleRows(seqs, events, exhibits, checkpoint)


def _listed(d: Document) -> BundleDocument:
    """An exhibit as the bundle lists it; its DOCUMENT_FILED event (seq) is among `events`."""
    return {
        "id": d["id"],
        "kind": d["kind"],
        "subject_type": d["subject_type"],
        "subject_id": d["subject_id"],
        "version": d["version"],
        "sha256": d["sha256"],
        "bytes": d["bytes"],
        "media_type": d["media_type"],
        "filed_seq": d["filed_seq"],
    }


def covering_checkpoint(
    conn: Connection, settings: TrustSettings, seqs: Iterable[int]
) -> PublicCheckpoint | None:
    """The latest checkpoint a trusted key signed, if it includes every event of `seqs`
    (a certificate's history, for the page)."""
    row = latest_row(conn, settings)
    if row is None or row["tree_size"] < max(seqs, default=1):
        return None
    return as_public(row)
