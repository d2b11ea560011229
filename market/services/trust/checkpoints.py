"""Signed checkpoints of the ledger's Merkle tree (PRODUCT.md 8.1).

`make_checkpoint` is what `flask checkpoint`, `POST /api/v1/ledger/checkpoints` and a
regular job (`tick`, cron) call. It brings the stored tree up to the ledger head (checking
each new event against the tree, so a rewritten or cut ledger is refused rather than
signed), signs a C2SP checkpoint note with the Ed25519 key, writes the signed note into
CHECKPOINT_DIR, then stores the row. A ledger that has not grown since the latest
checkpoint gets no new one: the latest is returned (`created` false).
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from market.adapters import checkpoint_store, merkle_store
from market.adapters.checkpoint_store import StoredCheckpoint
from market.adapters.eventstore import head
from market.adapters.signing import KeyFileError, Signer, load_signer
from market.domain import merkle
from market.domain.checkpoint_note import (
    Note,
    NoteError,
    VerifierKey,
    parse_verifier_key,
    signed_text,
)
from market.domain.errors import DomainError
from market.services.kernel import clock
from market.services.kernel.errors import (
    CheckpointRowForgedError,
    LedgerContradictsCheckpointError,
    LedgerContradictsTreeError,
    LedgerEmptyError,
    MerkleTreeBehindError,
)
from market.services.kernel.paging import split_page
from market.services.kernel.uow import ReadOnly
from market.services.trust import cosigned, key_rotation, published, witnessing
from market.services.trust.checkpoint_views import PublicCheckpoint

DEFAULT_ORIGIN = "nj-transfer-certificates/ledger"
REQUEST_BACKLOG = 100_000
CHUNK = 5_000  # leaves per transaction: on SQLite its lock holds writers back
LATEST_TRIES = 50  # stored rows looked at for the newest one a trusted key signed
log = logging.getLogger(__name__)


class SigningKeyUnavailableError(DomainError):
    code = "signing_key_unavailable"


class SigningKeyNotTrustedError(DomainError):
    code = "signing_key_not_trusted"


@dataclass(frozen=True)
class TrustSettings:
    key_file: Path
    checkpoint_dir: Path
    origin: str = DEFAULT_ORIGIN
    # A configured SIGNING_KEY_FILE must exist; only the default one is made on first use.
    create_key: bool = True
    # C2SP verifier keys whose checkpoints count (TRUSTED_LOG_KEYS); none: the key file's.
    trusted_log_keys: tuple[str, ...] = ()
    witnesses: witnessing.WitnessSettings = field(default_factory=witnessing.WitnessSettings)

    @classmethod
    def from_config(cls, config: Any, instance_path: str) -> TrustSettings:
        """From a Flask-style config mapping (SIGNING_KEY_FILE, CHECKPOINT_DIR,
        CHECKPOINT_ORIGIN, TRUSTED_LOG_KEYS); unset paths live in the instance folder."""
        key = config.get("SIGNING_KEY_FILE")
        directory = config.get("CHECKPOINT_DIR") or Path(instance_path) / "checkpoints"
        trusted = config.get("TRUSTED_LOG_KEYS") or ""
        if isinstance(trusted, str):
            trusted = trusted.splitlines()
        return cls(
            key_file=Path(key) if key else Path(instance_path) / "signing_key",
            checkpoint_dir=Path(directory),
            origin=config.get("CHECKPOINT_ORIGIN") or DEFAULT_ORIGIN,
            create_key=not key,
            trusted_log_keys=tuple(line.strip() for line in trusted if line.strip()),
            witnesses=witnessing.WitnessSettings.from_config(config),
        )


def signer(settings: TrustSettings) -> Signer:
    try:
        return load_signer(settings.key_file, settings.origin, create=settings.create_key)
    except KeyFileError as e:
        raise SigningKeyUnavailableError(str(e), {"key_file": str(settings.key_file)}) from e


def trusted_keys(settings: TrustSettings) -> list[VerifierKey]:
    """The pinned keys (TRUSTED_LOG_KEYS, else the key file's) and those the published
    rotation statements link to them (`key_rotation`); a malformed line is a
    configuration error."""
    try:
        if settings.trusted_log_keys:
            pinned = published.parse_keys(settings.trusted_log_keys)
        else:
            pinned = [parse_verifier_key(signer(settings).verifier_key)]
    except NoteError as e:
        raise SigningKeyNotTrustedError(f"TRUSTED_LOG_KEYS: {e}.", {}) from e
    rotations, _ = key_rotation.read_all(settings.checkpoint_dir, settings.origin)
    return key_rotation.linked(pinned, rotations)


def public_key(settings: TrustSettings) -> dict[str, str]:
    return signer(settings).public_key_info()


def as_public(row: StoredCheckpoint) -> PublicCheckpoint:
    """The checkpoint as the API and the bundles give it; `signed_note` is the file."""
    sig = published.row_signature(row)
    return {
        "tree_size": row["tree_size"],
        "root_hash": row["root_hash"],
        "timestamp": row["timestamp"],
        "key_id": row["key_id"],
        "signature": row["signature"],
        "note": row["note"],
        "signed_note": signed_text(row["note"], [sig]),
    }


def latest_row(
    conn: Connection, settings: TrustSettings, upto: int | None = None
) -> StoredCheckpoint | None:
    """The newest stored checkpoint whose signature a trusted key made (a row written by
    hand is passed over, never served or built on); with `upto`, of a tree no larger."""
    rows = checkpoint_store.newest_first(conn, LATEST_TRIES)
    keys = trusted_keys(settings) if rows else []
    for row in rows:
        if upto is not None and row["tree_size"] > upto:
            continue
        if published.judge_row(row, settings.origin, keys, published.Record()) is not None:
            return row
    return None


def refuse_contradictions(conn: Connection, settings: TrustSettings, size: int) -> None:
    """ConflictError unless the stored tree of `size` agrees with every checkpoint the log
    published (files and rows, under the pinned keys): `published.check_against`."""
    keys = trusted_keys(settings)
    record = published.gather(conn, settings.checkpoint_dir, settings.origin, keys, below=size)
    reader = merkle_store.NodeReader(conn)
    root = reader.run(lambda nodes: merkle.root(nodes, size))
    # A row nobody we trust signed is passed over (reported by verify), a bad file is not.
    problems = record.problems + published.check_against(
        record, size, root, lambda m: reader.run(lambda n: merkle.consistency_proof(n, m, size))
    )
    if problems:
        log.error("checkpoint of size %s refused: %s", size, "; ".join(problems))
        raise LedgerContradictsCheckpointError(
            "Not signed: the ledger contradicts what this log published. " + problems[0],
            {"tree_size": size, "problems": problems},
        )


def make_checkpoint(
    engine: Engine, settings: TrustSettings, *, max_backlog: int | None = None
) -> tuple[PublicCheckpoint, bool]:
    """Sign the ledger as it stands; (checkpoint, created). A request passes `max_backlog`
    (REQUEST_BACKLOG): a tree far behind is built by the CLI, not inside a request."""
    key = signer(settings)
    if key.verifier_key not in {k.text for k in trusted_keys(settings)}:
        raise SigningKeyNotTrustedError(
            "The signing key is not one of TRUSTED_LOG_KEYS: nothing is signed with it.",
            {"verifier_key": key.verifier_key},
        )
    try:
        with ReadOnly(engine) as conn:
            head_seq, stored = head(conn)[0], merkle_store.stored_size(conn)
            last = latest_row(conn, settings)
            if last is not None and last["tree_size"] == head_seq == stored:
                # Nothing new: checked without the write lock (extend writes nothing here).
                merkle_store.extend(conn)
                refuse_contradictions(conn, settings, head_seq)
                return as_public(last), False
            backlog = head_seq - stored
        if max_backlog is not None and backlog > max_backlog:
            raise MerkleTreeBehindError(
                f"The Merkle tree is {backlog} events behind the ledger; build it with "
                "`flask --app market checkpoint` first (too long for a request).",
                {"behind": backlog},
            )
        if backlog > CHUNK:  # a long backlog in chunks, so the lock is never held long
            merkle_store.extend_all(engine, CHUNK)
        with merkle_store.trust_transaction(engine) as conn:
            size = merkle_store.extend(conn)
            if size == 0:
                raise LedgerEmptyError("The ledger has no events to sign yet.")
            refuse_contradictions(conn, settings, size)
            last = latest_row(conn, settings)
            if last is not None and last["tree_size"] == size:
                return as_public(last), False
            public, row = _sign(conn, settings, key, size)
        # The witnesses, after the commit: one that is down never holds signing back.
        witnessing.cosign(engine, settings.witnesses, settings.checkpoint_dir, row)
        return cosigned.with_cosignatures(engine, settings.witnesses, public), True
    except merkle_store.TreeContradiction as e:
        raise LedgerContradictsTreeError(f"Not signed: {e}.", {"seq": e.seq}) from e


def _sign(
    conn: Connection, settings: TrustSettings, key: Signer, size: int
) -> tuple[PublicCheckpoint, StoredCheckpoint]:
    root = merkle_store.stored_root(conn, size)
    note = Note(settings.origin, size, root).text
    signature = key.sign(note.encode("utf-8"))
    row: StoredCheckpoint = {
        "tree_size": size,
        "root_hash": root.hex(),
        "timestamp": clock.now_utc().isoformat().replace("+00:00", "Z"),
        "key_id": key.key_id,
        "signature": base64.b64encode(signature).decode(),
        "note": note,
    }
    public = as_public(row)
    # The outside copy first: every stored checkpoint has its file.
    checkpoint_store.write_file(
        settings.checkpoint_dir,
        checkpoint_store.file_name(size, row["root_hash"]),
        public["signed_note"],
    )
    try:
        with conn.begin_nested():
            checkpoint_store.insert(conn, row)
    except IntegrityError as e:
        # Only a row written by hand can hold this size (latest_row passed over it).
        raise CheckpointRowForgedError(
            f"Checkpoint {size} is signed and in CHECKPOINT_DIR, but the checkpoints table "
            "holds a row for that size that this log did not sign (written by hand).",
            {"tree_size": size},
        ) from e
    return public, row


def latest(engine: Engine, settings: TrustSettings) -> PublicCheckpoint | None:
    with ReadOnly(engine) as conn:
        row = latest_row(conn, settings)
    return None if row is None else as_public(row)


def checkpoints_page(
    engine: Engine, settings: TrustSettings, after: int, limit: int
) -> tuple[list[PublicCheckpoint], int | None]:
    """Stored checkpoints a trusted key signed (a row written by hand is not served)."""
    with ReadOnly(engine) as conn:
        rows = checkpoint_store.page(conn, after, limit + 1)
    kept, nxt = split_page(rows, limit, lambda r: r["tree_size"])
    keys = trusted_keys(settings) if kept else []
    good = [r for r in kept if published.judge_row(r, settings.origin, keys, published.Record())]
    return [as_public(r) for r in good], nxt


def checkpoint_due(engine: Engine, settings: TrustSettings) -> PublicCheckpoint | None:
    """For a regular job (`tick`): a new checkpoint if the ledger grew, else None; an empty
    ledger is not an error here. A ledger that contradicts the tree still raises."""
    try:
        made, created = make_checkpoint(engine, settings)
    except LedgerEmptyError:
        return None
    return made if created else None
