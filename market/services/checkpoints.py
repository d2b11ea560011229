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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store, merkle_store
from market.adapters.eventstore import head
from market.adapters.signing import KeyFileError, Signer, load_signer
from market.domain.checkpoint_note import Note, Signature, signed_text
from market.domain.errors import DomainError
from market.services import clock, cosigned, witnessing
from market.services.errors import ConflictError
from market.services.paging import split_page
from market.services.uow import ReadOnly

DEFAULT_ORIGIN = "nj-transfer-certificates/ledger"
REQUEST_BACKLOG = 100_000
CHUNK = 5_000  # leaves per transaction: on SQLite its lock holds writers back


class SigningKeyUnavailableError(DomainError):
    code = "signing_key_unavailable"
    status = 503


@dataclass(frozen=True)
class TrustSettings:
    key_file: Path
    checkpoint_dir: Path
    origin: str = DEFAULT_ORIGIN
    # A configured SIGNING_KEY_FILE must exist; only the default one is made on first use.
    create_key: bool = True
    witnesses: witnessing.WitnessSettings = field(default_factory=witnessing.WitnessSettings)

    @classmethod
    def from_config(cls, config: Any, instance_path: str) -> TrustSettings:
        """From a Flask-style config mapping (SIGNING_KEY_FILE, CHECKPOINT_DIR,
        CHECKPOINT_ORIGIN); unset paths live in the instance folder."""
        key = config.get("SIGNING_KEY_FILE")
        directory = config.get("CHECKPOINT_DIR") or Path(instance_path) / "checkpoints"
        return cls(
            key_file=Path(key) if key else Path(instance_path) / "signing_key",
            checkpoint_dir=Path(directory),
            origin=config.get("CHECKPOINT_ORIGIN") or DEFAULT_ORIGIN,
            create_key=not key,
            witnesses=witnessing.WitnessSettings.from_config(config),
        )


def signer(settings: TrustSettings) -> Signer:
    try:
        return load_signer(settings.key_file, settings.origin, create=settings.create_key)
    except KeyFileError as e:
        raise SigningKeyUnavailableError(str(e), {"key_file": str(settings.key_file)}) from e


def public_key(settings: TrustSettings) -> dict[str, str]:
    return signer(settings).public_key_info()


def as_public(row: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint as the API and the bundles give it; `signed_note` is the file."""
    origin = row["note"].split("\n", 1)[0]
    sig = Signature(origin, bytes.fromhex(row["key_id"]), base64.b64decode(row["signature"]))
    return {
        "tree_size": int(row["tree_size"]),
        "root_hash": row["root_hash"],
        "timestamp": row["timestamp"],
        "key_id": row["key_id"],
        "signature": row["signature"],
        "note": row["note"],
        "signed_note": signed_text(row["note"], [sig]),
    }


def _check_last(conn: Connection, last: dict[str, Any]) -> None:
    if merkle_store.stored_root(conn, last["tree_size"]).hex() != last["root_hash"]:
        raise ConflictError(
            f"The stored Merkle tree disagrees with checkpoint {last['tree_size']}.",
            {"tree_size": last["tree_size"]},
            code="ledger_contradicts_checkpoint",
        )


def make_checkpoint(
    engine: Engine, settings: TrustSettings, *, max_backlog: int | None = None
) -> tuple[dict[str, Any], bool]:
    """Sign the ledger as it stands; (checkpoint, created). A request passes `max_backlog`
    (REQUEST_BACKLOG): a tree far behind is built by the CLI, not inside a request."""
    key = signer(settings)
    try:
        with ReadOnly(engine) as conn:
            head_seq, stored = head(conn)[0], merkle_store.stored_size(conn)
            last = checkpoint_store.latest(conn)
            if last is not None and last["tree_size"] == head_seq == stored:
                # Nothing new: checked without the write lock (extend writes nothing here).
                merkle_store.extend(conn)
                _check_last(conn, last)
                return as_public(last), False
            backlog = head_seq - stored
        if max_backlog is not None and backlog > max_backlog:
            raise ConflictError(
                f"The Merkle tree is {backlog} events behind the ledger; build it with "
                "`flask --app market checkpoint` first (too long for a request).",
                {"behind": backlog},
                code="merkle_tree_behind",
            )
        if backlog > CHUNK:  # a long backlog in chunks, so the lock is never held long
            merkle_store.extend_all(engine, CHUNK)
        with merkle_store.trust_transaction(engine) as conn:
            size = merkle_store.extend(conn)
            if size == 0:
                raise ConflictError("The ledger has no events to sign yet.", code="ledger_empty")
            last = checkpoint_store.latest(conn)
            if last is not None:
                _check_last(conn, last)
                if last["tree_size"] == size:
                    return as_public(last), False
            root = merkle_store.stored_root(conn, size)
            note = Note(settings.origin, size, root).text
            signature = key.sign(note.encode("utf-8"))
            row: dict[str, Any] = {
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
            checkpoint_store.insert(conn, row)
        # The witnesses, after the commit: one that is down never holds signing back.
        witnessing.cosign(engine, settings.witnesses, settings.checkpoint_dir, row)
        return cosigned.with_cosignatures(engine, settings.witnesses, public), True
    except merkle_store.TreeContradiction as e:
        raise ConflictError(
            f"Not signed: {e}.", {"seq": e.seq}, code="ledger_contradicts_tree"
        ) from e


def latest(engine: Engine) -> dict[str, Any] | None:
    with ReadOnly(engine) as conn:
        row = checkpoint_store.latest(conn)
    return None if row is None else as_public(row)


def checkpoints_page(
    engine: Engine, after: int, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    with ReadOnly(engine) as conn:
        rows = checkpoint_store.page(conn, after, limit + 1)
    kept, nxt = split_page(rows, limit, lambda r: int(r["tree_size"]))
    return [as_public(r) for r in kept], nxt


def checkpoint_due(engine: Engine, settings: TrustSettings) -> dict[str, Any] | None:
    """For a regular job (`tick`): a new checkpoint if the ledger grew, else None; an empty
    ledger is not an error here. A ledger that contradicts the tree still raises."""
    try:
        made, created = make_checkpoint(engine, settings)
    except ConflictError as e:
        if e.code == "ledger_empty":
            return None
        raise
    return made if created else None
